"""Drivers of the deterministic stages: file in, file out, counts in the stats sidecar.

Both stream their input; only the duplicate index grows with the number of conversations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from uxbench.errors import DataError
from uxbench.pipeline.dedup import DuplicateIndex
from uxbench.pipeline.files import read_rows, write_rows, write_stats
from uxbench.pipeline.prefilter import PrefilterCounts, prefilter
from uxbench.pipeline.rawlog import ReadReport, read_raw_log
from uxbench.pipeline.signals import SignalConfig, conversation_signals
from uxbench.pipeline.unsafe import UnsafeScreen

Advance = Callable[[int], None]


def _tick(rows: Iterator[dict[str, Any]], advance: Advance | None) -> Iterator[dict[str, Any]]:
    for row in rows:
        if advance is not None:
            advance(1)
        yield row


def signals_stage(
    raw: str | Path,
    out: str | Path,
    skip_bad: bool = False,
    config: SignalConfig | None = None,
    advance: Advance | None = None,
) -> dict[str, Any]:
    """Raw log → one row per conversation with its turns and the users' reactions."""
    config = config or SignalConfig()
    report = ReadReport()
    reactions: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    feedback: Counter[str] = Counter()
    interrupted = 0

    def rows() -> Iterator[dict[str, Any]]:
        nonlocal interrupted
        for conversation in read_raw_log(raw, skip_bad, report):
            signals = conversation_signals(conversation, config)
            reactions.update(r["reaction"] for r in signals["reactions"])
            outcomes.update(c["outcome"] for c in signals["recoveries"])
            feedback.update(signals["tracks"] or ["unrated"])
            interrupted += sum(r["interrupted"] for r in signals["reactions"])
            yield {**conversation.to_json(), "signals": signals}
        if feedback.keys() <= {"unrated"}:  # raised before the output file is put in place
            raise DataError(_no_ratings(raw, report))

    write_rows(out, _tick(rows(), advance))
    counts = {
        "lines": report.lines,
        "conversations": report.conversations,
        "skipped_lines": len(report.skipped),
        "duplicate_cids": report.duplicate_cids,
        "skipped_examples": report.skipped[:20],
        "conversations_by_track": dict(feedback),
        "reactions": dict(reactions.most_common()),
        "interrupted_replies": interrupted,
        "recovery_outcomes": dict(outcomes.most_common()),
    }
    write_stats(out, None, "signals", counts)
    return counts


def _no_ratings(raw: str | Path, report: ReadReport) -> str:
    which = "conversations"
    if report.skipped:
        which = f"usable conversations ({len(report.skipped)} bad lines skipped)"
    return (
        f"{raw}: none of its {report.conversations} {which} has a rated reply, so no "
        "test case can come out of it. The pipeline reads ratings on assistant turns: `feedback` "
        "(liked / disliked) or the flags `is_liked` / `is_unliked`."
    )


def prefilter_stage(
    signals: str | Path,
    out: str | Path,
    rejected_out: str | Path | None = None,
    near_threshold: float = 0.8,
    unsafe_terms: str | Path | None = None,
    advance: Advance | None = None,
) -> dict[str, Any]:
    """Signal rows → the rows worth mining; rejections (cid, reason) optionally to a file."""
    counts = PrefilterCounts()
    rejections: list[dict[str, Any]] = []
    kept = prefilter(
        _tick(read_rows(signals), advance),
        UnsafeScreen.with_file(unsafe_terms),
        DuplicateIndex(threshold=near_threshold),
        counts,
        rejections.append,
    )
    write_rows(out, kept)
    if rejected_out is not None:
        write_rows(rejected_out, rejections)
    result = counts.as_dict()
    write_stats(out, signals, "prefilter", result)
    return result
