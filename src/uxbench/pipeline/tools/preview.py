"""`uxbench pipeline inspect FILE [--map M]`: what a run would read, before any model is paid for.

It reads the whole input with the run's readers and mapping, skipping (and listing) bad
records instead of stopping at the first, and prints the input shape, the conversations and
their turns by role, the ratings found by field and value and what they were read as, fields
that look like ratings but are not read, and the first problems.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from uxbench.pipeline.read.mapping import load_mapping
from uxbench.pipeline.read.rawlog import DISLIKED, LIKED, ReadReport, read_raw_log


def inspect_input(raw: str | Path, mapping: str | None = None, problems: int = 10) -> tuple[str, bool]:
    """The report's text, and whether a run would find rated conversations in the input."""
    fields = load_mapping(mapping)
    report = ReadReport()
    tracks: Counter[str] = Counter()
    turns = rated = 0
    for conversation in read_raw_log(raw, skip_bad=True, report=report, fields=fields):
        ratings = {t.feedback for t in conversation.turns} - {None}
        tracks.update(ratings or {"unrated"})
        rated += bool(ratings)
        turns += len(conversation.turns)
    lines = [
        f"{raw}: {report.format}" + (f", {report.notes.shape}" if report.notes.shape else ""),
        f"  fields: {mapping or 'built-in names'}",
        f"conversations: {report.conversations} read, {len(report.skipped)} bad "
        f"(a run stops at the first bad one unless --skip-bad)",
        f"  rated: {rated} ({tracks[LIKED]} with a liked reply, {tracks[DISLIKED]} with a disliked one), "
        f"unrated: {tracks['unrated']}",
        f"turns: {turns} (" + ", ".join(f"{role} {n}" for role, n in report.tally.roles.most_common()) + ")",
        "ratings read (field = value → meaning):",
        *[
            f"  {key} = {value!r} → {meaning}: {n}"
            for (key, value, meaning), n in report.tally.ratings.most_common()
        ],
    ]
    if not report.tally.ratings:
        lines.append("  none")
    if report.notes.counts:
        lines.append("reader notes: " + ", ".join(f"{k} {v}" for k, v in sorted(report.notes.counts.items())))
    lines += [f"warning: {w}" for w in report.warnings(fields)]
    if report.skipped:
        lines.append(f"first problems ({min(problems, len(report.skipped))} of {len(report.skipped)}):")
        lines += [f"  {problem}" for problem in report.skipped[:problems]]
    ok = rated > 0
    if not ok:
        lines.append(
            "error: no conversation has a rated reply, so a run would stop after reading; ratings are read "
            f"from {fields.rating_help()}"
        )
    return "\n".join(lines), ok
