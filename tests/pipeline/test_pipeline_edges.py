"""The pipeline at its edges (issue 24): an over-long CSV cell is one skipped row, a chunk log cut
short is set aside and its chunk redone, a full disk ends with one line and exit 1."""

from __future__ import annotations

import errno
import json
import logging
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.files import make_fifo
from helpers.pipeline import dry_run, same_outputs, write_csv

from uxbench.cli import main
from uxbench.pipeline.read import files
from uxbench.pipeline.run.agentrun import harvest

pytestmark = pytest.mark.integration


Row = dict[str, Any]
LONG = "好" * 200_000


def turns(cid: str, reply: str, feedback: str) -> list[Row]:
    return [
        {"cid": cid, "role": "user", "content": "北京明天天气怎么样？", "feedback": ""},
        {"cid": cid, "role": "assistant", "content": reply, "feedback": feedback},
    ]


def signals(raw: Path, out: Path, *flags: str) -> int:
    return main(["pipeline", "signals", str(raw), "--out", str(out), "--workers", "1", *flags])


def test_a_long_csv_message_is_one_counted_skip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = write_csv(
        tmp_path / "turns.csv", [*turns("c1", LONG, "disliked"), *turns("c2", "带伞。", "disliked")]
    )
    out = tmp_path / "signals.jsonl"
    problem = (
        f"{raw}:3 (cid ?): cell 'content' holds 200,000 characters, over the cap of 131,072 for one CSV cell"
    )
    assert signals(raw, out) == 1
    assert capsys.readouterr().err == f"error: {problem}\n(--skip-bad skips and counts such lines)\n"
    assert signals(raw, out, "--skip-bad") == 0
    stats = json.loads(files.stats_path(out).read_text(encoding="utf-8"))["signals"]
    assert (stats["skipped_lines"], stats["skipped_examples"]) == (1, [problem])
    assert [row["cid"] for row in files.read_rows(out)] == ["c1", "c2"]  # c1 keeps its user turn


# ---------------------------------------------------------------- a chunk log cut short


def cut_short(run: Path, stage: str, keep: float) -> Path:
    """The stage's log cut to `keep` of its bytes and its harvest undone, as a kill mid-write or a
    full disk leaves it; the stage's and later outputs removed, so the next run redoes them."""
    work = run / f"{stage}.work"
    (log,) = work.glob("logs/*/*.eval")
    with log.open("r+b") as handle:
        handle.truncate(int(log.stat().st_size * keep))
    for path in [*work.glob("results/*"), *run.glob(f"{stage}.*jsonl"), *run.glob(f"{stage}.stats.json")]:
        path.unlink()
    for path in [*run.glob("uxbench_*"), *run.glob("stats.*"), *run.glob("0[5-9]_*.jsonl")]:
        path.unlink()
    return log


@pytest.mark.parametrize("keep", [0.5, 0.0], ids=["half", "empty"])
def test_harvest_sets_a_broken_log_aside(
    pipeline_reference: Path, tmp_path: Path, keep: float, caplog: pytest.LogCaptureFixture
) -> None:
    run = tmp_path / "run"
    shutil.copytree(pipeline_reference, run)
    log = cut_short(run, "05_qa", keep)
    with caplog.at_level(logging.WARNING):
        assert harvest(log, run / "05_qa.work" / "results") == 0
    aside = log.with_name(log.name + ".broken")
    assert aside.exists() and not log.exists() and not list((run / "05_qa.work" / "results").iterdir())
    assert caplog.messages == [
        f"uxbench pipeline: {log} cannot be read (ValueError: EOCD not found; cut short by a kill or a "
        f"full disk?); set aside as {aside.name}, and its chunk's samples run again"
    ]


def test_a_run_resumes_past_a_chunk_log_cut_short(
    pipeline_raw: Path, pipeline_reference: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    run = tmp_path / "run"
    shutil.copytree(pipeline_reference, run)
    log = cut_short(run, "05_qa", 0.5)
    with caplog.at_level(logging.WARNING):
        assert dry_run(pipeline_raw, run, "--chunk-size", "1000") == 0
    assert log.with_name(log.name + ".broken").exists()
    assert sum("cannot be read (ValueError: EOCD not found" in m for m in caplog.messages) == 1
    same_outputs(run, pipeline_reference)
    assert dry_run(pipeline_raw, run, "--chunk-size", "1000") == 0  # and the next run is clean


@pytest.mark.parametrize(
    ("kind", "problem"),
    [
        ("cut_short", "not a readable Inspect log (ValueError: EOCD not found)"),
        ("fifo", "is a named pipe (FIFO), not a regular file (reading it could wait forever)"),
        ("symlink_loop", "is a symlink loop (its links lead back to themselves), not a file"),
        ("missing", "cannot read (No such file or directory)"),
    ],
)
def test_export_refuses_a_log_it_cannot_read(
    pipeline_reference: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, problem: str
) -> None:
    log = tmp_path / "x.eval"
    if kind == "cut_short":
        (source,) = pipeline_reference.glob("05_qa.work/logs/*/*.eval")
        log.write_bytes(source.read_bytes()[:1000])
    elif kind == "fifo":
        make_fifo(log)
    elif kind == "symlink_loop":
        log.symlink_to(log.name)
    assert main(["pipeline", "export", str(log), "--out", str(tmp_path / "qa.jsonl")]) == 1
    assert capsys.readouterr().err == f"error: export {log}: {problem}\n"


# ---------------------------------------------------------------- a full disk


class FullDisk:
    """A file handle whose writes (or final flush) find the disk full."""

    def __init__(self, handle: Any, on: str) -> None:
        self._handle, self._on = handle, on

    def __getattr__(self, name: str) -> Any:
        if name == self._on:
            raise OSError(errno.ENOSPC, "No space left on device")
        return getattr(self._handle, name)


@pytest.mark.parametrize("on", ["write", "flush", "stats"])
def test_a_full_disk_ends_with_one_line(
    pipeline_raw: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    on: str,
) -> None:
    opened, write_text = files.RowWriter.__init__, Path.write_text

    def full(self: files.RowWriter, path: Any) -> None:
        opened(self, path)
        self._handle = FullDisk(self._handle, on)  # type: ignore[assignment]

    def full_text(self: Path, *args: Any, **kwargs: Any) -> int:
        if self.name.endswith(".partial"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_text(self, *args, **kwargs)

    if on == "stats":
        monkeypatch.setattr(Path, "write_text", full_text)
    else:
        monkeypatch.setattr(files.RowWriter, "__init__", full)
    out = tmp_path / "run" / "signals.jsonl"
    assert signals(pipeline_raw, out) == 1
    written = files.stats_path(out) if on == "stats" else out
    assert capsys.readouterr().err == (
        f"error: the disk is full (No space left on device) writing {written}; free some space and run "
        "the same command again to resume (finished work is kept)\n"
    )
    # no partial file left behind; a stage file without its stats is done again on resume
    assert [p.name for p in out.parent.iterdir()] == (["signals.jsonl"] if on == "stats" else [])
