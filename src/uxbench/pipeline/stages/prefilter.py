"""Prefilter (docs/protocol.md#construction-pipeline): keep conversations that can yield a test case.

A conversation needs a rated reply, at least one user and one assistant turn, a reply that
was not cut short, no unsafe content, and must not duplicate one already kept. The rules
run cheapest first; each rejected conversation is counted under its first failing rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from uxbench.pipeline.privacy.unsafe import UnsafeScreen
from uxbench.pipeline.read.files import parse_line
from uxbench.pipeline.read.rawlog import Conversation
from uxbench.pipeline.stages.dedup import DuplicateIndex, sketch
from uxbench.pipeline.stages.rows import SignalRow, check_row

REJECT_RULES = (
    "no_feedback",
    "too_few_turns",
    "all_interrupted",
    "unsafe",
    "duplicate_exact",
    "duplicate_near",
)


def rule_rejection(conversation: Conversation, signals: dict[str, Any], screen: UnsafeScreen) -> str | None:
    """The first per-conversation rule the conversation fails, e.g. `unsafe:slur`, or None."""
    if not signals["tracks"]:
        return "no_feedback"
    roles = [t.role for t in conversation.turns]
    if len(roles) - roles.count("system") < 2 or "user" not in roles or "assistant" not in roles:
        return "too_few_turns"
    if all(r["interrupted"] for r in signals["reactions"]):
        return "all_interrupted"
    for turn in conversation.turns:
        category = screen.match(turn.text)
        if category is not None:
            return f"unsafe:{category}"
    return None


@dataclass
class PrefilterCounts:
    seen: int = 0
    kept: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    tracks: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {
            "conversations_in": self.seen,
            "kept": self.kept,
            "kept_by_track": dict(self.tracks),
            "rejected": dict(self.rejected.most_common()),
        }


def screen_lines(lines: list[tuple[int, str]], source: str, screen: UnsafeScreen) -> list[Screened]:
    """Per signal-file line, what the prefilter needs to decide on it in order: the rule it fails,
    or its duplicate sketch. Pure, so worker processes can run it."""
    out: list[Screened] = []
    for number, line in lines:
        row = parse_line(source, number, line)
        check_row(source, number, row, SignalRow)
        conversation = Conversation.from_json(row)
        reason = rule_rejection(conversation, row["signals"], screen)
        sketched = sketch(conversation) if reason is None else None
        out.append(Screened(conversation.cid, tuple(row["signals"]["tracks"]), reason, sketched))
    return out


class Screened(NamedTuple):
    cid: str
    tracks: tuple[str, ...]
    reason: str | None  # the first rule failed
    sketch: tuple[bytes, bytes] | None  # for the duplicate index, when no rule failed


def decide(screened: Screened, index: DuplicateIndex, counts: PrefilterCounts) -> dict[str, Any] | None:
    """None when the conversation is kept, else its rejection (cid, reason, duplicate_of); counted."""
    counts.seen += 1
    reason, duplicate_of = screened.reason, None
    if reason is None and screened.sketch is not None:
        found = index.check_sketch(screened.cid, *screened.sketch)
        if found is not None:
            reason, duplicate_of = found
    if reason is None:
        counts.kept += 1
        counts.tracks.update(screened.tracks)
        return None
    counts.rejected[reason] += 1
    return {"cid": screened.cid, "reason": reason, "duplicate_of": duplicate_of}
