"""Drivers of the deterministic stages: file in, file out, counts in the stats sidecar.

Both stream their input: the per-conversation work (parsing, signals, the prefilter's rules
and MinHash sketch) runs in batches, on worker processes when the input is large enough
for them to pay, and comes back in input order; what depends on earlier conversations
(the cid check, the duplicate index, the counts) runs in this process in file order. The
output is therefore the same with any number of workers. Only the cid map of the signals
stage and the duplicate index grow with the number of conversations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from uxbench.dataset import Row, read_jsonl
from uxbench.errors import DataError
from uxbench.pipeline.dedup import DuplicateIndex
from uxbench.pipeline.files import RowWriter, dump, location, numbered_lines, write_stats
from uxbench.pipeline.parallel import batched, ordered_map
from uxbench.pipeline.prefilter import PrefilterCounts, decide, screen_lines
from uxbench.pipeline.rawlog import ReadReport, parse_row
from uxbench.pipeline.signals import SignalConfig, conversation_signals
from uxbench.pipeline.unsafe import UnsafeScreen
from uxbench.records import RecordError

Advance = Callable[[int], None]
BATCH = 1000  # conversations per batch of work
PARALLEL_BYTES = 512 << 20  # smaller inputs are done in this process (≈ 500k conversations)


def _workers(path: Any, workers: int, parallel_bytes: int) -> int:
    """Worker processes start in about a second; below `parallel_bytes` of input they do not pay."""
    return workers if workers > 1 and location(path).stat().st_size >= parallel_bytes else 1


class Signalled(NamedTuple):
    """One raw line after parsing and signal extraction (or the reason it is unusable)."""

    error: str | None
    cid: str | None = None
    digest: int | None = None
    line: str = ""  # the output row, in JSON
    tracks: tuple[str, ...] = ()
    reactions: tuple[str, ...] = ()
    outcomes: tuple[str, ...] = ()
    interrupted: int = 0


def signal_rows(rows: list[Row], config: SignalConfig) -> list[Signalled]:
    """Parse and extract the signals of a batch of raw lines. Pure, so workers can run it."""
    out: list[Signalled] = []
    for row in rows:
        try:
            conversation = parse_row(row)
        except RecordError as error:
            out.append(Signalled(str(error)))
            continue
        signals = conversation_signals(conversation, config)
        out.append(
            Signalled(
                None,
                conversation.cid,
                conversation.digest(),
                dump({**conversation.to_json(), "signals": signals}),
                tuple(signals["tracks"]),
                tuple(r["reaction"] for r in signals["reactions"]),
                tuple(c["outcome"] for c in signals["recoveries"]),
                sum(r["interrupted"] for r in signals["reactions"]),
            )
        )
    return out


def signals_stage(
    raw: str | Path,
    out: str | Path,
    skip_bad: bool = False,
    config: SignalConfig | None = None,
    advance: Advance | None = None,
    workers: int = 1,
    parallel_bytes: int = PARALLEL_BYTES,
) -> dict[str, Any]:
    """Raw log → one row per conversation with its turns and the users' reactions."""
    config = config or SignalConfig()
    report = ReadReport()
    reactions: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    feedback: Counter[str] = Counter()
    interrupted = 0
    batches = batched(read_jsonl(location(raw)), BATCH)
    with RowWriter(out) as writer:
        work = partial(signal_rows, config=config)
        for rows, results in ordered_map(work, batches, _workers(raw, workers, parallel_bytes)):
            for row, result in zip(rows, results, strict=True):
                if not report.admit(raw, row, result.cid, result.digest, result.error, skip_bad):
                    continue
                writer.write_line(result.line)
                reactions.update(result.reactions)
                outcomes.update(result.outcomes)
                feedback.update(result.tracks or ["unrated"])
                interrupted += result.interrupted
            if advance is not None:
                advance(len(rows))
        if feedback.keys() <= {"unrated"}:  # raised before the output file is put in place
            raise DataError(_no_ratings(raw, report))
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
