"""Prefilter (docs/protocol.md#construction-pipeline): keep conversations that can yield a test case.

A conversation needs a rated reply, at least one user and one assistant turn, a reply that
was not cut short, no unsafe content, and must not duplicate one already kept. The rules
run cheapest first; each rejected conversation is counted under its first failing rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from uxbench.pipeline.dedup import DuplicateIndex
from uxbench.pipeline.rawlog import Conversation
from uxbench.pipeline.unsafe import UnsafeScreen

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


def prefilter(
    rows: Iterable[dict[str, Any]],
    screen: UnsafeScreen,
    index: DuplicateIndex,
    counts: PrefilterCounts,
    rejected: Callable[[dict[str, Any]], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Kept signal rows, in input order; each rejection is counted and passed to `rejected`."""
    for row in rows:
        counts.seen += 1
        conversation = Conversation.from_json(row)
        reason = rule_rejection(conversation, row["signals"], screen)
        duplicate_of = None
        if reason is None:
            found = index.check(conversation)
            if found is not None:
                reason, duplicate_of = found
        if reason is not None:
            counts.rejected[reason] += 1
            if rejected is not None:
                rejected({"cid": row["cid"], "reason": reason, "duplicate_of": duplicate_of})
            continue
        counts.kept += 1
        counts.tracks.update(row["signals"]["tracks"])
        yield row
