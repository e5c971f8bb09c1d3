"""The commands a user runs, as console scripts in a folder of their own (under `.ci/run`: from
the installed wheel, outside the source tree): every task, `uxbench report`, `uxbench explore`
and `uxbench pipeline run --dry-run`."""

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

pytestmark = [pytest.mark.slow, pytest.mark.integration]
BIN = Path(sys.executable).parent


def run(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=cwd, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def test_every_task_then_the_report_from_a_folder_of_the_users_own(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    tasks = ["uxbench/task1_judge", "uxbench/task2_eval", "uxbench/task3_recovery", "uxbench/grader_check"]
    run("inspect", "eval", *tasks, "--model", "mockllm/model", "--model-role", "grader=mockllm/model",
        "-T", "data=sample", "--limit", "3", "--log-dir", str(logs), cwd=tmp_path)  # fmt: skip
    headers = [read_eval_log(info, header_only=True) for info in list_eval_logs(str(logs))]
    assert sorted(h.eval.task for h in headers) == sorted(tasks)
    assert [h.status for h in headers] == ["success"] * len(tasks)
    run("uxbench", "report", str(logs), "--out", str(tmp_path / "report"), cwd=tmp_path)
    assert "mockllm/model" in (tmp_path / "report" / "leaderboard.md").read_text(encoding="utf-8")
    assert (tmp_path / "report" / "index.html").stat().st_size > 0


def test_a_dry_run_of_the_pipeline(tmp_path: Path) -> None:
    run("uxbench", "pipeline", "synth", "--n", "40", "--out", "raw.jsonl", cwd=tmp_path)
    run(
        "uxbench",
        "pipeline",
        "run",
        "raw.jsonl",
        "--out",
        "built",
        "--dry-run",
        "--no-progress",
        cwd=tmp_path,
    )
    assert (tmp_path / "built" / "stats.md").is_file()


def test_the_explorer_serves_the_bundled_sample(tmp_path: Path) -> None:
    explorer = subprocess.Popen(
        [str(BIN / "uxbench"), "explore", "sample", "--exclude", str(tmp_path / "ex.jsonl")],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert explorer.stdout is not None
        for line in explorer.stdout:  # the address is printed once the server listens
            if found := re.search(r"http://127\.0\.0\.1:\d+\S*", line):
                break
        else:
            pytest.fail("the explorer printed no address")
        with urllib.request.urlopen(found.group(0), timeout=30) as page:
            assert page.status == 200
    finally:
        os.killpg(explorer.pid, signal.SIGTERM)
        explorer.wait(timeout=30)
