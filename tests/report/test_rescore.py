"""`inspect score` re-grades Task 1 and Task 2 logs from our scorers' registry names and `-S`
arguments, and the report credits the grader the scores name: after `--action overwrite` the
row is the new grader's; an `--action append` score is a row of its own."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.grm import grader_output
from inspect_ai import eval
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from inspect_ai.model import ModelOutput, get_model

from uxbench.report.collect import collect

pytestmark = pytest.mark.integration


GRADERS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "graders.md"


def run_score(command: list[str]) -> subprocess.CompletedProcess[str]:
    """`inspect score` as a script runs it: no terminal to answer a question on."""
    return subprocess.run(
        command, capture_output=True, text=True, timeout=300, env={**os.environ}, stdin=subprocess.DEVNULL
    )


def inspect_score(log: str, *args: str, output: str = "") -> EvalLog:
    where = ["--output-file", output] if output else ["--overwrite"]
    done = run_score([sys.executable, "-m", "inspect_ai", "score", log, *args, *where, "--display", "none"])
    assert done.returncode == 0, done.stderr
    return read_eval_log(output or log)


def documented_score_commands() -> list[str]:
    """The `inspect score` commands docs/graders.md gives, continuation lines joined."""
    text = GRADERS_PAGE.read_text(encoding="utf-8").replace("\\\n", " ")
    return [" ".join(line.split()) for line in re.findall(r"^inspect score .*$", text, flags=re.MULTILINE)]


def only_log(log_dir: Path) -> str:
    [info] = list_eval_logs(str(log_dir))
    return info.name.removeprefix("file://")


def task2_log(log_dir: Path) -> str:
    eval(
        "uxbench/task2_eval", task_args={"data": "sample"}, limit=4,
        model=get_model("mockllm/model", custom_outputs=lambda *_: ModelOutput.from_content("m", "好的")),
        model_roles={"grader": get_model("mockllm/A", custom_outputs=lambda *_: grader_output("好", 0.9, 0.1))},  # noqa: E501
        log_dir=str(log_dir), display="none",
    )  # fmt: skip
    return only_log(log_dir)


def test_overwrite_with_a_second_grader_credits_it(tmp_path: Path) -> None:
    log = task2_log(tmp_path / "logs")
    scored = inspect_score(
        log, "--scorer", "uxbench/grm", "--model-role", "grader=mockllm/B", "--action", "overwrite"
    )
    assert scored.status == "success"
    assert {s.scores["grm"].metadata["grader"] for s in scored.samples or []} == {"mockllm/B"}
    runs, _, skipped = collect([tmp_path / "logs"])
    [run] = runs
    assert run.grader == "mockllm/B" and run.graders == ("mockllm/B",)
    assert run.metrics["good_pct"] == 0.0  # mockllm/B answers neither label: every grade failed
    assert skipped == []


@pytest.mark.slow
def test_append_a_second_grader_is_its_own_row(tmp_path: Path) -> None:
    log = task2_log(tmp_path / "logs")
    inspect_score(log, "--scorer", "uxbench/grm", "--model-role", "grader=mockllm/B", "--action", "append")
    runs, _, skipped = collect([tmp_path / "logs"])
    assert {run.grader: run.metrics["good_pct"] for run in runs} == {"mockllm/A": 1.0, "mockllm/B": 0.0}
    assert sorted(run.scorer or "" for run in runs) == ["grm", "grm1"]
    assert skipped == []


def test_task1_rescored_with_strict_parsing(tmp_path: Path) -> None:
    def answer(*_) -> ModelOutput:  # English under the Chinese template: careful reads it, strict does not
        return ModelOutput.from_content("m", "Good.")

    eval(
        "uxbench/task1_judge", task_args={"data": "sample", "prompt": "cot"}, limit=4,
        model=get_model("mockllm/model", custom_outputs=answer),
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    log = only_log(tmp_path / "logs")
    scored = inspect_score(
        log,
        "--scorer",
        "uxbench/judge_verdict",
        "-S",
        "template=cot",
        "-S",
        "parse=strict",
        "--action",
        "append",
    )
    assert scored.status == "success"
    assert scored.eval.scorers is not None
    assert scored.eval.scorers[-1].options == {"template": "cot", "parse": "strict"}
    runs, _, skipped = collect([tmp_path / "logs"])
    assert len(runs) == 2 and skipped == []
    careful, strict = sorted(runs, key=lambda r: r.scorer or "")
    assert careful.metrics["parse_fail_rate"] == 0.0 and strict.metrics["parse_fail_rate"] == 1.0


def test_documented_commands_run_without_a_terminal(tmp_path: Path) -> None:
    commands = documented_score_commands()
    assert len(commands) == 3 and all("--action" in c and "--overwrite" in c.split() for c in commands)
    # the first, as a user copies it: their log and grader in place of the placeholders
    log = task2_log(tmp_path / "logs")
    command = commands[0].replace("logs/<task2 log>.eval", shlex.quote(log))
    command = command.replace("openai/gpt-5", "mockllm/B")
    done = run_score([sys.executable, "-m", "inspect_ai", *shlex.split(command)[1:], "--display", "none"])
    assert done.returncode == 0 and "Aborted" not in done.stdout + done.stderr, done.stderr
    assert {s.scores["grm1"].metadata["grader"] for s in read_eval_log(log).samples or []} == {"mockllm/B"}


def test_a_rescored_copy_is_the_same_run(tmp_path: Path) -> None:
    original = task2_log(tmp_path / "logs")
    copy = str(tmp_path / "logs" / "rescored.eval")
    args = ("--scorer", "uxbench/grm", "--model-role", "grader=mockllm/B", "--action", "overwrite")
    assert inspect_score(original, *args, output=copy).eval.eval_id == read_eval_log(original).eval.eval_id
    runs, _, skipped = collect([tmp_path / "logs"])
    [run] = runs  # one run, as the copy scored it last
    assert run.log == copy and run.grader == "mockllm/B"
    [left_out] = skipped
    assert left_out.log == original
    assert left_out.reason.startswith("the same run as logs/rescored.eval, re-scored later")
