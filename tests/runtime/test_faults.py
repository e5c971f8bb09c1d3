"""Flaky providers and interrupted runs: nothing lost, nothing scored twice, same metrics.

A fault-injecting OpenAI-compatible server (bench/loadserver.py) plays both the model under
test and the GRM grader, answering deterministically from each request's content, so a
run that survives 429s, 5xx, hangs, dropped connections and malformed JSON, or one that
is killed and resumed, must end with exactly the metrics of a clean run. The settings
used are the test-sized version of those recommended in docs/scale.md.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.evals import run_evals
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import get_model

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from loadserver import Faults, LoadServer  # noqa: E402
from synth import write_release  # noqa: E402

SIZES = {"task1": 24, "task2": 12, "task3": 6}
TASKS = {"task1": "uxbench/task1_judge", "task2": "uxbench/task2_eval", "task3": "uxbench/task3_recovery"}
MODEL, GRADER = "openai-api/fault/model-under-test", "openai-api/fault/grm"
# Inspect's retry settings at test scale: unlimited HTTP retries bounded by a per-attempt
# timeout (hung requests are abandoned and retried), and whole-sample retries for failures
# that are not HTTP errors (a 200 with a malformed body).
RETRY = {"attempt_timeout": 2, "retry_on_error": 3, "max_connections": 8}


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_release(tmp_path_factory.mktemp("data"), **SIZES, seed=7)


@pytest.fixture(scope="module")
def cids(data: Path) -> dict[str, set[str]]:
    files = {"task1": "uxbench_task1_judge_*.jsonl", "task2": "*task2*.jsonl", "task3": "*task3*.jsonl"}
    return {
        task: {
            json.loads(line)["cid"] for path in data.glob(pattern) for line in path.read_text().splitlines()
        }
        for task, pattern in files.items()
    }


def serve(monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> LoadServer:
    server = LoadServer(**kwargs).start_thread()
    monkeypatch.setenv("FAULT_API_KEY", "test-key")
    return server


def run(
    tasks: list[str], data: Path, server: LoadServer, log_dir: Path, **settings: Any
) -> dict[str, EvalLog]:
    """Run in this process; models are built fresh for `server` (Inspect memoizes them by name)."""
    logs = run_evals(
        [TASKS[t] for t in tasks],
        log_dir,
        expect=None,
        task_args={"data": str(data)},
        model=get_model(MODEL, base_url=server.url, memoize=False),
        model_roles={"grader": get_model(GRADER, base_url=server.url, memoize=False)},
        max_tasks=len(tasks),
        **settings,
    )
    return {task: log for task, log in zip(tasks, logs, strict=True)}


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {f"{s.name}/{k}": m.value for s in log.results.scores for k, m in s.metrics.items()}


def assert_complete(log: EvalLog, cids: set[str]) -> None:
    """Every record present exactly once, with exactly one score and no error."""
    assert log.status == "success", log.error
    assert log.samples is not None
    ids = [str(s.id) for s in log.samples]
    assert len(ids) == len(set(ids)) and set(ids) == cids
    assert all(s.error is None and s.scores is not None and len(s.scores) == 1 for s in log.samples)
    assert log.results is not None and log.results.completed_samples == len(cids)


def assert_same_metrics(log: EvalLog, reference: EvalLog) -> None:
    assert metrics(log) == pytest.approx(metrics(reference), rel=1e-12, nan_ok=True)


@pytest.fixture(scope="module")
def clean(data: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    """The three tasks against a server that never fails: the reference metrics."""
    patch = pytest.MonkeyPatch()
    server = serve(patch)
    try:
        return run(list(TASKS), data, server, tmp_path_factory.mktemp("clean"))
    finally:
        server.stop_thread()
        patch.undo()


@pytest.mark.slow
def test_http_faults_lose_nothing_and_score_once(
    monkeypatch: pytest.MonkeyPatch,
    data: Path,
    cids: dict[str, set[str]],
    clean: dict[str, EvalLog],
    tmp_path: Path,
) -> None:
    faults = Faults.parse(
        "429=0.1,500=0.08,503=0.08,drop=0.08,timeout=0.06,malformed=0.08",
        retry_after=1,
        hang=5,
        once=True,
        seed=4,
    )
    server = serve(monkeypatch, faults=faults)
    try:
        logs = run(list(TASKS), data, server, tmp_path, **RETRY)
    finally:
        server.stop_thread()
    assert all(server.counts[name] > 0 for name in ("429", "500", "503", "drop", "timeout", "malformed")), (
        server.counts
    )
    for task, log in logs.items():
        assert_complete(log, cids[task])
        assert_same_metrics(log, clean[task])


def test_missing_logprobs_are_counted_not_lost(
    monkeypatch: pytest.MonkeyPatch,
    data: Path,
    cids: dict[str, set[str]],
    clean: dict[str, EvalLog],
    tmp_path: Path,
) -> None:
    server = serve(monkeypatch, faults=Faults.parse("no_logprobs=0.4", seed=5))
    try:
        log = run(["task2"], data, server, tmp_path, **RETRY)["task2"]
    finally:
        server.stop_thread()
    assert_complete(log, cids["task2"])
    assert log.samples is not None
    missing = [s for s in log.samples if s.scores and s.scores["grm"].metadata["logprobs"] is False]
    assert len(missing) == server.counts["no_logprobs"] > 0
    assert all(
        s.scores and s.scores["grm"].metadata["verdict"] in ("good", "bad") for s in missing
    )  # verdict from the text
    values, reference = metrics(log), metrics(clean["task2"])
    assert values["grm/no_logprob_rate"] == pytest.approx(len(missing) / SIZES["task2"])
    assert values["grm/good_pct"] == reference["grm/good_pct"]


# ------------------------------------------------------------ killed runs, resumed


def inspect(*args: str, server: LoadServer) -> subprocess.Popen[str]:
    env = {**os.environ, "FAULT_API_KEY": "test-key", "FAULT_BASE_URL": server.url}
    command = [sys.executable, "-m", "inspect_ai", *args, "--display", "none"]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def kill_after(process: subprocess.Popen[str], server: LoadServer, requests: int) -> None:
    """SIGKILL the run once `requests` model calls reached the server: no cleanup at all."""
    deadline = time.monotonic() + 120
    while server.counts["requests"] < requests:
        assert process.poll() is None, process.communicate()[1]
        assert time.monotonic() < deadline
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()


def finish(process: subprocess.Popen[str]) -> None:
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    assert "Traceback" not in stderr


def final_logs(log_dir: Path) -> dict[str, EvalLog]:
    """The last successful log of each task in `log_dir`."""
    logs: dict[str, EvalLog] = {}
    for path in sorted(log_dir.glob("*.eval")):
        log = read_eval_log(str(path))
        task = next(t for t, name in TASKS.items() if log.eval.task.endswith(name.split("/")[1]))
        if log.status == "success":
            logs[task] = log
    return logs


@pytest.mark.slow
def test_killed_eval_resumed_with_eval_retry_matches_clean_run(
    monkeypatch: pytest.MonkeyPatch,
    data: Path,
    cids: dict[str, set[str]],
    clean: dict[str, EvalLog],
    tmp_path: Path,
) -> None:
    server = serve(monkeypatch, latency=0.2)
    try:
        common = ["--model", MODEL, "--log-dir", str(tmp_path), "--max-connections", "3"]
        kill_after(inspect("eval", TASKS["task1"], "-T", f"data={data}", *common, server=server), server, 10)
        (killed,) = tmp_path.glob("*.eval")
        assert read_eval_log(str(killed), header_only=True).status == "started"
        finish(inspect("eval-retry", str(killed), "--log-dir", str(tmp_path), server=server))
    finally:
        server.stop_thread()
    log = final_logs(tmp_path)["task1"]
    assert_complete(log, cids["task1"])
    assert_same_metrics(log, clean["task1"])
    assert server.counts["requests"] < 2 * SIZES["task1"]  # finished samples were not asked again


@pytest.mark.slow
def test_killed_eval_set_rerun_matches_clean_run(
    monkeypatch: pytest.MonkeyPatch,
    data: Path,
    cids: dict[str, set[str]],
    clean: dict[str, EvalLog],
    tmp_path: Path,
) -> None:
    command = ["eval-set", *TASKS.values(), "-T", f"data={data}", "--model", MODEL]
    command += ["--model-role", f"grader={GRADER}", "--log-dir", str(tmp_path), "--max-connections", "3"]
    command += ["--no-log-realtime", "--log-buffer", "2"]  # the scale flags; a kill loses < 2 samples a task
    server = serve(monkeypatch, latency=0.2)
    try:
        kill_after(inspect(*command, server=server), server, 30)
        finish(inspect(*command, server=server))
    finally:
        server.stop_thread()
    logs = final_logs(tmp_path)
    assert set(logs) == set(TASKS)
    for task, log in logs.items():
        assert_complete(log, cids[task])
        assert_same_metrics(log, clean[task])
