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
from uxbench.pipeline.mapping import DEFAULT_FIELDS, Fields
from uxbench.pipeline.prefilter import PrefilterCounts, prefilter
from uxbench.pipeline.rawlog import ReadReport, read_raw_log
from uxbench.pipeline.redact import redact_conversation
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
    fields: Fields = DEFAULT_FIELDS,
    redact: bool = True,
) -> dict[str, Any]:
    """Raw log → one row per conversation with its turns and the users' reactions.

    The reactions are read from the text as the user wrote it; then, unless `redact` is off,
    personal data is replaced by typed placeholders, so no later stage and no file sees it."""
    config = config or SignalConfig()
    report = ReadReport()
    redacted: Counter[str] = Counter()
    reactions: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    feedback: Counter[str] = Counter()
    interrupted = 0

    def rows() -> Iterator[dict[str, Any]]:
        nonlocal interrupted
        for conversation in read_raw_log(raw, skip_bad, report, fields):
            signals = conversation_signals(conversation, config)
            if redact:
                conversation = redact_conversation(conversation, redacted)
            reactions.update(r["reaction"] for r in signals["reactions"])
            outcomes.update(c["outcome"] for c in signals["recoveries"])
            feedback.update(signals["tracks"] or ["unrated"])
            interrupted += sum(r["interrupted"] for r in signals["reactions"])
            yield {**conversation.to_json(), "signals": signals}
        if feedback.keys() <= {"unrated"}:  # raised before the output file is put in place
            raise DataError(_no_ratings(raw, report, fields))

    write_rows(out, _tick(rows(), advance))
    counts = {
        "format": f"{report.format} ({report.notes.shape})" if report.notes.shape else report.format,
        "lines": report.lines,
        "conversations": report.conversations,
        "skipped_lines": len(report.skipped),
        "duplicate_cids": report.duplicate_cids,
        "skipped_examples": report.skipped[:20],
        "conversations_by_track": dict(feedback),
        "reactions": dict(reactions.most_common()),
        "interrupted_replies": interrupted,
        "recovery_outcomes": dict(outcomes.most_common()),
        "ratings_read": ratings_read(report),
        "rating_like_fields_not_read": dict(report.tally.rating_like.most_common()),
        "reader_notes": dict(sorted(report.notes.counts.items())),
        "warnings": report.warnings(fields),
        "redaction": "on" if redact else "off (--no-redact)",
        "redacted": dict(redacted.most_common()),
    }
    write_stats(out, None, "signals", counts)
    return counts


def ratings_read(report: ReadReport) -> dict[str, int]:
    """`{"feedback=thumbsdown → disliked": 12, ...}`: the ratings read, by field and value."""
    return {
        f"{key}={value} → {meaning}": n for (key, value, meaning), n in report.tally.ratings.most_common()
    }


def _no_ratings(raw: str | Path, report: ReadReport, fields: Fields) -> str:
    which = "conversations"
    if report.skipped:
        which = f"usable conversations ({len(report.skipped)} bad lines skipped)"
    message = (
        f"{raw}: none of its {report.conversations} {which} has a rated reply, so no test case can "
        f"come out of it. The pipeline reads ratings on assistant turns: {fields.rating_help()}."
    )
    return " ".join([message, *(f"Note: {w}." for w in report.warnings(fields))])


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
