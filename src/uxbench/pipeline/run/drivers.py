"""Drivers of the deterministic stages: file in, file out, counts in the stats sidecar.

Both stream their input: the per-conversation work (signals and redaction, the prefilter's
rules and MinHash sketch) runs in batches, on worker processes when the input is large
enough for them to pay, and comes back in input order; reading the input (any shape of
`readers`) and what depends on earlier conversations (the cid check, the duplicate index,
the counts) run in this process in file order. The output is therefore the same with any
number of workers. Only the cid map of the signals stage and the duplicate index grow with
the number of conversations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from uxbench.pipeline.privacy.redact import redact_conversations, redact_text, redaction_note
from uxbench.pipeline.privacy.unsafe import UnsafeScreen
from uxbench.pipeline.read.files import RowWriter, dump, location, numbered_lines, write_stats
from uxbench.pipeline.read.mapping import DEFAULT_FIELDS, Fields
from uxbench.pipeline.read.rawlog import Conversation, ReadReport, read_raw_log
from uxbench.pipeline.run.parallel import batched, ordered_map
from uxbench.pipeline.stages.dedup import DuplicateIndex
from uxbench.pipeline.stages.prefilter import PrefilterCounts, decide, screen_lines
from uxbench.pipeline.stages.signals import SignalConfig, conversation_signals
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

Advance = Callable[[int], None]
BATCH = 1000  # conversations per batch of work
PARALLEL_BYTES = 512 << 20  # smaller inputs are done in this process (≈ 500k conversations)


def _workers(path: Any, workers: int, parallel_bytes: int) -> int:
    """Worker processes start in about a second; below `parallel_bytes` of input they do not pay."""
    if workers <= 1:
        return 1
    where = location(path)
    # a local path the user named: a symlink loop is named as one (a missing file by the reader)
    size = (
        getattr(userfiles.check_path(where), "st_size", 0)
        if isinstance(where, Path)
        else where.stat().st_size
    )
    return workers if size >= parallel_bytes else 1


class Signalled(NamedTuple):
    """One conversation after signal extraction (and redaction), as its output row."""

    line: str  # the output row, in JSON
    tracks: tuple[str, ...] = ()
    reactions: tuple[str, ...] = ()
    outcomes: tuple[str, ...] = ()
    interrupted: int = 0


def signal_rows(
    conversations: list[Conversation], config: SignalConfig, redact: bool
) -> tuple[list[Signalled], Counter[str]]:
    """The signals of a batch of conversations, read from the text as the user wrote it, then
    the conversations redacted (counts by type). Pure, so workers can run it."""
    out: list[Signalled] = []
    redacted: Counter[str] = Counter()
    every_signals = [conversation_signals(c, config) for c in conversations]
    if redact:  # the batch in one go: the learned detector reads many texts at once much faster
        conversations = redact_conversations(conversations, redacted)
    for conversation, signals in zip(conversations, every_signals, strict=True):
        out.append(
            Signalled(
                dump({**conversation.to_json(), "signals": signals}),
                tuple(signals["tracks"]),
                tuple(r["reaction"] for r in signals["reactions"]),
                tuple(c["outcome"] for c in signals["recoveries"]),
                sum(r["interrupted"] for r in signals["reactions"]),
            )
        )
    return out, redacted


def signals_stage(
    raw: str | Path,
    out: str | Path,
    skip_bad: bool = False,
    config: SignalConfig | None = None,
    advance: Advance | None = None,
    fields: Fields = DEFAULT_FIELDS,
    redact: bool = True,
    workers: int = 1,
    parallel_bytes: int = PARALLEL_BYTES,
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
    batches = batched(read_raw_log(raw, skip_bad, report, fields), BATCH)
    work = partial(signal_rows, config=config, redact=redact)
    with RowWriter(out) as writer:
        for conversations, (results, found) in ordered_map(
            work, batches, _workers(raw, workers, parallel_bytes)
        ):
            for result in results:
                writer.write_line(result.line)
                reactions.update(result.reactions)
                outcomes.update(result.outcomes)
                feedback.update(result.tracks or ["unrated"])
                interrupted += result.interrupted
            redacted.update(found)
            if advance is not None:
                advance(len(conversations))
        if feedback.keys() <= {"unrated"}:  # raised before the output file is put in place
            raise DataError(_no_ratings(raw, report, fields))
    counts = {
        "format": f"{report.format} ({report.notes.shape})" if report.notes.shape else report.format,
        "lines": report.lines,
        "conversations": report.conversations,
        "skipped_lines": len(report.skipped),
        "duplicate_cids": report.duplicate_cids,
        # the reader quotes bad records: redacted like the text, or they would carry raw values
        "skipped_examples": [redact_text(s) if redact else s for s in report.skipped[:20]],
        "conversations_by_track": dict(feedback),
        "reactions": dict(reactions.most_common()),
        "interrupted_replies": interrupted,
        "recovery_outcomes": dict(outcomes.most_common()),
        "ratings_read": ratings_read(report),
        "rating_like_fields_not_read": dict(report.tally.rating_like.most_common()),
        "reader_notes": dict(sorted(report.notes.counts.items())),
        "warnings": report.warnings(fields),
        "redaction": redaction_note() if redact else "off (--no-redact)",
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
    workers: int = 1,
    parallel_bytes: int = PARALLEL_BYTES,
) -> dict[str, Any]:
    """Signal rows → the rows worth mining; rejections (cid, reason) optionally to a file."""
    counts = PrefilterCounts()
    index = DuplicateIndex(threshold=near_threshold)
    work = partial(screen_lines, source=str(signals), screen=UnsafeScreen.with_file(unsafe_terms))
    batches = batched(numbered_lines(signals), BATCH)
    with ExitStack() as files:
        kept = files.enter_context(RowWriter(out))
        rejected = files.enter_context(RowWriter(rejected_out)) if rejected_out is not None else None
        for lines, results in ordered_map(work, batches, _workers(signals, workers, parallel_bytes)):
            for (_, line), screened in zip(lines, results, strict=True):
                rejection = decide(screened, index, counts)
                if rejection is None:
                    kept.write_line(line)
                elif rejected is not None:
                    rejected.write(rejection)
            if advance is not None:
                advance(len(lines))
    result = counts.as_dict()
    write_stats(out, signals, "prefilter", result)
    return result
