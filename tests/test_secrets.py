"""API keys and tokens passed by environment never reach logs, reports, output or error messages.

The .eval log is read raw (every member of the zip, as bytes), so nothing escapes through
a field the log reader would not show; the run logs raw model API calls and meets HTTP
errors on the way, which is where a key would most likely leak.
"""

import os
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai._util.trace import inspect_trace_dir
from inspect_ai.log import read_eval_log

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from loadserver import Faults, LoadServer  # noqa: E402
from synth import write_release  # noqa: E402

from uxbench.localserver import Reply  # noqa: E402

SECRETS = {
    "LOCAL_API_KEY": "sk-secret-123-uxbench-canary",
    "HF_TOKEN": "hf_secret456uxbenchcanary",
    "OPENAI_API_KEY": "sk-proj-secret789-uxbench-canary",
}


def leaks(data: bytes | str) -> list[str]:
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    return [name for name, value in SECRETS.items() if value in text]


def log_leaks(path: Path) -> list[str]:
    """Secrets found in any member of an .eval zip, read as raw bytes."""
    with zipfile.ZipFile(path) as archive:
        return [f"{member}: {name}" for member in archive.namelist() for name in leaks(archive.read(member))]


def inspect_eval(server: LoadServer, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **SECRETS, "LOCAL_BASE_URL": server.url, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "inspect_ai", "eval", *args, "--display", "plain"]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_release(tmp_path / "data", task1=4, task2=6, task3=2)


@pytest.fixture
def since() -> Iterator[float]:
    yield time.time()


def new_trace_files(since: float) -> list[Path]:
    directory = inspect_trace_dir()
    return [p for p in directory.glob("*") if p.is_file() and p.stat().st_mtime >= since - 1]


@pytest.mark.slow
def test_keys_stay_out_of_log_output_traces_and_report(tmp_path: Path, data: Path, since: float) -> None:
    faults = Faults.parse("429=0.15,500=0.15,drop=0.1", once=True, seed=2)
    with LoadServer(faults=faults) as server:
        result = inspect_eval(
            server,
            "uxbench/task2_eval",
            "-T",
            f"data={data}",
            "--model",
            "openai-api/local/model-under-test",
            "--model-role",
            "grader=openai-api/local/grm",
            "--log-dir",
            str(tmp_path / "logs"),
            "--log-model-api",
            "--attempt-timeout",
            "5",
        )
    assert result.returncode == 0, result.stderr
    assert server.counts["429"] + server.counts["500"] + server.counts["drop"] > 0  # errors were logged
    (log_path,) = (tmp_path / "logs").glob("*.eval")
    assert read_eval_log(str(log_path), header_only=True).status == "success"
    assert log_leaks(log_path) == []
    assert leaks(result.stdout + result.stderr) == []
    assert [(p.name, leaks(p.read_bytes())) for p in new_trace_files(since) if leaks(p.read_bytes())] == []

    env = {**os.environ, **SECRETS}
    command = [
        sys.executable,
        "-m",
        "uxbench.cli",
        "report",
        str(tmp_path / "logs"),
        "--out",
        str(tmp_path / "r"),
    ]
    report = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert report.returncode == 0, report.stderr
    written = [p for p in (tmp_path / "r").rglob("*") if p.is_file()]
    assert written and [p.name for p in written if leaks(p.read_bytes())] == []


@pytest.mark.slow
def test_keys_stay_out_of_error_messages(tmp_path: Path, data: Path) -> None:
    def refuse(request: dict) -> Reply:
        return Reply(status=401, error="Incorrect API key provided")

    with LoadServer(responder=refuse) as server:
        result = inspect_eval(
            server,
            "uxbench/task1_judge",
            "-T",
            f"data={data}",
            "--model",
            "openai-api/local/model-under-test",
            "--log-dir",
            str(tmp_path / "logs"),
            "--max-retries",
            "0",
        )
    (log_path,) = (tmp_path / "logs").glob("*.eval")
    log = read_eval_log(str(log_path), header_only=True)
    assert log.status == "error" and log.error is not None and "401" in log.error.message
    assert leaks(log.error.message + log.error.traceback) == []
    assert log_leaks(log_path) == []
    assert leaks(result.stdout + result.stderr) == []


@pytest.mark.slow
def test_missing_grader_and_bad_data_messages_carry_no_secret(tmp_path: Path, data: Path) -> None:
    with LoadServer() as server:
        no_grader = inspect_eval(
            server,
            "uxbench/task2_eval",
            "-T",
            f"data={data}",
            "--model",
            "openai-api/local/m",
            "--log-dir",
            str(tmp_path),
        )
        bad_data = inspect_eval(
            server,
            "uxbench/task1_judge",
            "-T",
            "data=/nonexistent",
            "--model",
            "openai-api/local/m",
            "--log-dir",
            str(tmp_path),
        )
    for result, expected in ((no_grader, "--model-role grader="), (bad_data, "no such file or directory")):
        output = " ".join((result.stdout + result.stderr).split())
        assert result.returncode != 0 and expected in output
        assert "Traceback" not in result.stderr and leaks(output) == []
