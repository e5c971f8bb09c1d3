"""`uxbench run` owns its shard processes: a signal stops and waits for every shard (no process
left behind, the documented exit code), at most --max-procs run at once, one launcher per log dir.

The launcher runs as a real process; its shards are a stand-in for `inspect eval-set` (a small
script that starts a grandchild in its group and records what it receives), so each test takes
seconds, not the ≈ 12 s of CPU an Inspect process needs to start."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.integration

SHARD = """
import json, os, signal, subprocess, sys, time
from pathlib import Path
out = Path(os.environ["FAKE_DIR"])
shard = sys.argv[sys.argv.index("-T") + 1].removeprefix("shard=").replace("/", "-of-")
grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
def stop(signum, frame):
    (out / f"{shard}.signal").write_text(signal.Signals(signum).name)
    sys.exit(130)  # the grandchild is left behind, as a careless child would: the launcher ends it
mode = os.environ["FAKE_MODE"]
signal.signal(signal.SIGINT, signal.SIG_IGN if mode == "stubborn" else stop)
signal.signal(signal.SIGTERM, stop)
(out / f"{shard}.json").write_text(json.dumps({"pids": [os.getpid(), grandchild.pid], "start": time.time()}))
time.sleep(float(os.environ.get("FAKE_SECONDS", "600")))
(out / f"{shard}.end").write_text(str(time.time()))
grandchild.kill()
"""

LAUNCHER = """
import sys
import uxbench.runtime.processes as processes
processes.inspect_command = lambda args: [sys.executable, {shard!r}, *args]
processes.GRACE = {grace}
from uxbench.cli import main
sys.exit(main({argv!r}))
"""


def launcher(
    tmp_path: Path, shards: int, max_procs: int, mode: str, seconds: float = 600, grace: float = 30
) -> subprocess.Popen[str]:
    (tmp_path / "shard.py").write_text(SHARD)
    (tmp_path / "out").mkdir(exist_ok=True)
    argv = ["run", "uxbench/task1_judge", "--shards", str(shards), "--max-procs", str(max_procs)]
    argv += ["--log-dir", str(tmp_path / "logs"), "--model", "mockllm/model"]
    code = LAUNCHER.format(shard=str(tmp_path / "shard.py"), grace=grace, argv=argv)
    env = {**os.environ, "FAKE_DIR": str(tmp_path / "out"), "FAKE_MODE": mode, "FAKE_SECONDS": str(seconds)}
    return subprocess.Popen(
        [sys.executable, "-c", code],
        env=env,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # the test's own signals never reach it
    )


def started(tmp_path: Path) -> dict[str, dict[str, float | list[int]]]:
    found = {}
    for path in (tmp_path / "out").glob("*.json"):
        try:
            found[path.stem] = json.loads(path.read_text())
        except ValueError:
            continue  # being written
    return found


def wait_for(condition: object, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def group_members(pgid: int) -> list[int]:
    """The live processes of a process group (a zombie, awaiting a reaper the container may lack, is none)."""
    members = []
    for process in psutil.process_iter():
        try:
            if os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                members.append(process.pid)
        except (ProcessLookupError, psutil.NoSuchProcess):
            continue
    return members


def finish(process: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str]:
    try:
        _, err = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode, err


def recorded_pids(tmp_path: Path) -> list[int]:
    return [pid for facts in started(tmp_path).values() for pid in facts["pids"]]  # type: ignore[union-attr]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_every_shard_and_waits_for_it(tmp_path: Path, signum: signal.Signals) -> None:
    process = launcher(tmp_path, shards=3, max_procs=2, mode="wait")
    wait_for(lambda: len(started(tmp_path)) == 2)
    time.sleep(0.5)  # both shards have set their handlers
    process.send_signal(signum)
    code, err = finish(process)
    assert code == 128 + signum
    assert f"stopped by {signum.name}; finished work is kept" in err
    # each running shard got SIGINT (Inspect's clean stop), the queued one was never started
    assert {p.read_text() for p in (tmp_path / "out").glob("*.signal")} == {"SIGINT"}
    assert len(list((tmp_path / "out").glob("*.signal"))) == 2
    assert "not started" in err and len(started(tmp_path)) == 2
    # no shard and nothing a shard started outlives the launcher (groups included)
    pids = recorded_pids(tmp_path)
    assert len(pids) == 4 and not [pid for pid in pids if alive(pid)]
    assert not [pid for pid in pids[::2] if group_members(pid)]


def test_a_shard_that_ignores_the_stop_is_killed_after_the_grace(tmp_path: Path) -> None:
    process = launcher(tmp_path, shards=2, max_procs=2, mode="stubborn", grace=1)
    wait_for(lambda: len(started(tmp_path)) == 2)
    time.sleep(0.5)
    began = time.monotonic()
    process.send_signal(signal.SIGTERM)
    code, err = finish(process)
    assert code == 143 and time.monotonic() - began < 30
    assert err.count("stopped by SIGKILL") == 2
    pids = recorded_pids(tmp_path)
    assert not [pid for pid in pids if alive(pid)] and not [pid for pid in pids[::2] if group_members(pid)]


def test_no_more_than_max_procs_shards_run_at_once(tmp_path: Path) -> None:
    process = launcher(tmp_path, shards=3, max_procs=1, mode="wait", seconds=1)
    code, err = finish(process)
    assert code == 0, err
    spans = sorted(
        (float(facts["start"]), float((tmp_path / "out" / f"{shard}.end").read_text()))  # type: ignore[arg-type]
        for shard, facts in started(tmp_path).items()
    )
    assert len(spans) == 3
    assert all(end <= next_start for (_, end), (next_start, _) in zip(spans, spans[1:], strict=False))
    assert err.count(": done: ") == 3


def test_a_second_launcher_on_the_same_log_dir_is_refused(tmp_path: Path) -> None:
    process = launcher(tmp_path, shards=1, max_procs=1, mode="wait")
    try:
        wait_for(lambda: len(started(tmp_path)) == 1)
        second = subprocess.run(
            [sys.executable, "-m", "uxbench.cli", "run", "uxbench/task1_judge", "--shards", "2"]
            + ["--log-dir", str(tmp_path / "logs"), "--model", "mockllm/model"],
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
        assert second.returncode == 1
        assert second.stderr.startswith(
            f"Error: --log-dir {tmp_path / 'logs'}: another uxbench run is using it"
        )
        assert second.stderr.count("\n") == 1
    finally:
        process.send_signal(signal.SIGINT)
        code, _ = finish(process)
    assert code == 130
