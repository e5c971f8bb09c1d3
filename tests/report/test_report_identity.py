"""The report pools only the shards of one experiment identity (runtime/identity.py): a shard run
by another task version, with an edited template or another rendering of the prompt is left out
and named with the field that differs; a report that cannot be written is one line."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest
from helpers.evals import run_evals
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from uxbench.cli import main
from uxbench.report import build_report
from uxbench.report.leaderboard_row import Row
from uxbench.report.sections import Leaderboard
from uxbench.runtime.errors import DataError
from uxbench.runtime.identity import IDENTITY_KEY, Recorded
from uxbench.tasks.task1_judge import task1_judge

pytestmark = pytest.mark.integration


def rows(board: Leaderboard) -> list[Row]:
    return [row for table in board.tables for section in table.sections for row in section.rows]


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[EvalLog]:
    logs = tmp_path_factory.mktemp("shards")
    tasks = [task1_judge(data="sample", shard=f"{k}/2") for k in (1, 2)]
    return sorted(run_evals(tasks, logs, model="mockllm/model"), key=lambda log: log.eval.task_args["shard"])


def rewritten(log: EvalLog, directory: Path, **metadata: Any) -> None:
    """The log with its metadata changed as another version or setup of the task would write it."""
    directory.mkdir(exist_ok=True)
    whole = read_eval_log(log.location)
    changed = whole.model_copy(deep=True)
    changed.eval.metadata = {**(whole.eval.metadata or {}), **metadata}
    write_eval_log(changed, str(directory / Path(log.location).name))


@pytest.mark.parametrize(
    ("metadata", "why"),
    [
        ({"full_task_version": "2-A"}, "task version "),
        ("template", "file template (contents)"),
        ("prompt", "prompt judge as sent"),
    ],
)
def test_a_shard_of_another_identity_is_not_pooled(
    tmp_path: Path, shards: list[EvalLog], metadata: Any, why: str
) -> None:
    first, second = shards
    recorded = Recorded.read(second.eval.metadata, "log")
    assert recorded is not None
    if metadata == "template":  # the -T template file edited between the two shards
        metadata = Recorded({**recorded.files, "template": "0" * 16}, recorded.prompts).metadata()
    elif metadata == "prompt":  # the code renders the prompt otherwise (e.g. fences), the files as they were
        metadata = Recorded(recorded.files, {"judge": "0" * 16}).metadata()
    logs = tmp_path / "logs"
    rewritten(first, logs)
    rewritten(second, logs, **metadata)
    board = build_report([logs], tmp_path / "out")
    # one shard is kept (equal pools: the newer), partial, naming the other and why it differs
    [row] = rows(board)
    [left_out] = [s for s in board.skipped if "not pooled" in s.reason]
    kept, other = (1, 2) if left_out.name.endswith(Path(second.location).name) else (2, 1)
    assert row.run.partial is not None and row.run.partial.startswith(f"shard {other}/2 missing; ")
    assert f"shard {other}/2 left out: {left_out.name} is another experiment ({why}" in row.run.partial
    assert f"another experiment ({why}" in left_out.reason and f"shard {kept}/2" not in left_out.reason
    page = (tmp_path / "out" / "leaderboard.md").read_text(encoding="utf-8").replace("\\_", "_")
    assert why in page and Path(left_out.name).name in page


def test_shards_of_one_identity_pool(tmp_path: Path, shards: list[EvalLog]) -> None:
    logs = tmp_path / "logs"
    for log in shards:
        rewritten(log, logs)
    [row] = rows(build_report([logs], tmp_path / "out"))
    assert row.run.partial is None and "(pooled: shards 1, 2 of 2)" in row.run.name


def test_a_log_whose_identity_does_not_hold_together_is_left_out(
    tmp_path: Path, shards: list[EvalLog]
) -> None:
    logs = tmp_path / "logs"
    recorded = shards[0].eval.metadata[IDENTITY_KEY]
    rewritten(shards[0], logs, **{IDENTITY_KEY: {**recorded, "prompts": {"judge": "0" * 16}}})
    board = build_report([logs], tmp_path / "out")
    assert not rows(board)
    [skipped] = board.skipped
    assert skipped.reason == (
        f"not used: its identity: metadata {IDENTITY_KEY}.digest does not match the files and prompts it "
        "lists (the log was edited or cut)"
    )


@pytest.mark.parametrize(
    "where", ["uxbench.report.output.Path.write_text", "uxbench.report.pooling.write_eval_log"]
)
def test_a_full_disk_is_one_line(
    tmp_path: Path,
    shards: list[EvalLog],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    where: str,
) -> None:
    logs = tmp_path / "logs"
    for log in shards:
        rewritten(log, logs)

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "leaderboard.md")

    monkeypatch.setattr(where, full)
    monkeypatch.setattr("uxbench.report.workers.WORKERS", 1)  # the pooling in this process
    with pytest.raises(
        DataError, match=r"^the disk is full \(No space left on device\) writing leaderboard.md; "
    ):
        build_report([logs], tmp_path / "out")
    assert main(["report", str(logs), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: the disk is full") and err.count("\n") == 1 and "Traceback" not in err
