"""The pipeline's input: raw feedback logs, one conversation per JSONL line.

Two spellings of a turn are accepted: the production-log one of docs/protocol.md#construction-pipeline
(`turn_index`, `role`, `message`, `create_time`, `is_unliked` / `is_liked`) and a plain
`{role, content, feedback}`. Bad lines stop the read with file, line, cid and field, or are
counted and skipped on request.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from uxbench.dataset import Row, read_jsonl
from uxbench.errors import DataError
from uxbench.pipeline.files import location
from uxbench.records import ROLES, RecordError, message_text

LIKED, DISLIKED = "liked", "disliked"
TURNS_KEYS = ("turns", "messages", "conversation")
TEXT_KEYS = ("message", "content", "text")
TIME_KEYS = ("create_time", "timestamp", "time")
_FEEDBACK_WORDS: dict[str, str | None] = {
    **dict.fromkeys(("liked", "like", "up", "thumbs_up", "positive", "good", "1"), LIKED),
    **dict.fromkeys(
        ("disliked", "dislike", "unliked", "down", "thumbs_down", "negative", "bad", "-1"), DISLIKED
    ),
    **dict.fromkeys(("", "none", "null", "0"), None),
}


@dataclass(frozen=True, slots=True)
class LogTurn:
    role: str
    text: str
    time: float | None = None  # seconds since the epoch
    feedback: str | None = None  # liked | disliked | None (assistant turns only)


@dataclass(frozen=True, slots=True)
class Conversation:
    cid: str
    turns: tuple[LogTurn, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "cid": self.cid,
            "turns": [
                {"role": t.role, "text": t.text, "time": t.time, "feedback": t.feedback} for t in self.turns
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Conversation:
        return cls(str(data["cid"]), tuple(LogTurn(**t) for t in data["turns"]))

    def digest(self) -> int:
        """What tells two conversations apart (every turn's role, time, rating and text), in 32 bits."""
        digest = hashlib.blake2b(digest_size=4)
        for t in self.turns:
            digest.update(f"{t.role}\x1e{t.time}\x1e{t.feedback}\x1e{t.text}\x1f".encode())
        return int.from_bytes(digest.digest(), "big")


class ReusedCid(RecordError):
    """A second, different conversation under a cid already read."""


@dataclass
class ReadReport:
    """What a read of a raw log counted and skipped; `admit` decides, line by line in file order."""

    lines: int = 0
    conversations: int = 0
    skipped: list[str] = field(default_factory=list)
    duplicate_cids: int = 0  # lines skipped because another conversation had their cid
    # cid -> digest << 32 | line of its first conversation: ≈ 150 bytes per conversation read
    first_seen: dict[str, int] = field(default_factory=dict, repr=False)

    def admit(
        self,
        path: str | Path,
        row: Row,
        cid: str | None,
        digest: int | None,
        error: str | None,
        skip_bad: bool,
    ) -> bool:
        """Count one line: True when its conversation goes on; a bad line raises DataError, or is
        counted and skipped with `skip_bad`. `cid` and `digest` are the parsed conversation's,
        `error` the reason it could not be parsed."""
        self.lines += 1
        reused = None
        if error is None and cid is not None and digest is not None:
            reused = self._reused(cid, digest, row.line)
            error = str(reused) if reused else None
        if error is None:
            self.conversations += 1
            return True
        where = f"{path}:{row.line} (cid {str((row.raw or {}).get('cid') or '?')}): {error}"
        if not skip_bad:
            raise DataError(f"{where}\n(--skip-bad skips and counts such lines)")
        self.skipped.append(where)
        self.duplicate_cids += reused is not None
        return False

    def _reused(self, cid: str, digest: int, line: int) -> ReusedCid | None:
        """A cid names one conversation: a second, different one would take over its cases later
        on. The same conversation twice is left to the prefilter's exact-duplicate rule."""
        first = self.first_seen.setdefault(cid, digest << 32 | line)
        if first >> 32 == digest:
            return None
        problem = f"line {first & 0xFFFFFFFF} holds another conversation with this cid (cids must be unique)"
        return ReusedCid("cid", problem)


# times outside these bounds are unit mistakes (microseconds, nanoseconds) or junk
EARLIEST, LATEST = 0.0, 4102444800.0  # 1970-01-01 and 2100-01-01, UTC
_TIME_FORMATS = "use YYYY-MM-DD HH:MM:SS, ISO 8601 or epoch seconds / milliseconds"


def parse_time(value: Any) -> float | None:
    """Seconds since the epoch from `%Y-%m-%d %H:%M:%S`, ISO 8601 or epoch seconds / milliseconds,
    between 1970 and 2100."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a time: {value!r}")
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise ValueError(f"not a time: {value!r} ({_TIME_FORMATS})")
        seconds = float(value) / 1000.0 if value > 1e11 else float(value)
    else:
        try:
            moment = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"not a time: {value!r} ({_TIME_FORMATS})") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        seconds = moment.timestamp()
    if not EARLIEST <= seconds < LATEST:
        raise ValueError(f"time {value!r} is out of range (1970-01-01 to 2100-01-01; {_TIME_FORMATS})")
    return seconds


def parse_feedback(turn: dict[str, Any], where: str) -> str | None:
    """liked / disliked / None from `feedback`, `is_unliked` or `is_liked`."""
    found: list[str | None] = []
    if "feedback" in turn:
        word = str(turn["feedback"] if turn["feedback"] is not None else "").strip().lower()
        if word not in _FEEDBACK_WORDS:
            raise RecordError(
                f"{where}.feedback", f"unknown value {turn['feedback']!r}; use liked, disliked or none"
            )
        found.append(_FEEDBACK_WORDS[word])
    if _truthy(turn.get("is_unliked")):
        found.append(DISLIKED)
    if _truthy(turn.get("is_liked")):
        found.append(LIKED)
    flags = {f for f in found if f is not None}
    if len(flags) > 1:
        raise RecordError(where, "is flagged both liked and disliked")
    return flags.pop() if flags else None


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    return bool(value)


def _turn(item: Any, where: str) -> tuple[float, LogTurn]:
    if not isinstance(item, dict):
        raise RecordError(where, f"expected an object, got {item!r:.60}")
    role = str(item.get("role", "")).strip().lower()
    if role not in ROLES:
        raise RecordError(f"{where}.role", f"unknown role {item.get('role')!r}; use {', '.join(ROLES)}")
    key = next((k for k in TEXT_KEYS if k in item), None)
    if key is None:
        raise RecordError(where, "has no text", TEXT_KEYS)
    try:
        text = message_text(item[key]) if item[key] is not None else ""
    except TypeError as error:
        raise RecordError(f"{where}.{key}", str(error)) from None
    time_key = next((k for k in TIME_KEYS if k in item), None)
    try:
        moment = parse_time(item[time_key]) if time_key else None
    except ValueError as error:
        raise RecordError(f"{where}.{time_key}", str(error)) from None
    feedback = parse_feedback(item, where)
    if feedback is not None and role != "assistant":
        raise RecordError(where, f"feedback {feedback} on a {role} turn (only assistant turns are rated)")
    order = item.get("turn_index")
    try:
        position = float(order) if order is not None else float("nan")
    except (TypeError, ValueError):
        raise RecordError(f"{where}.turn_index", f"not a number: {order!r}") from None
    return position, LogTurn(role, text, moment, feedback)


def parse_conversation(raw: dict[str, Any]) -> Conversation:
    """One raw log line as a Conversation; turns ordered by `turn_index` when present."""
    cid = raw.get("cid")
    if cid is None or not str(cid).strip():
        raise RecordError("cid", "missing")
    name = next((k for k in TURNS_KEYS if k in raw), None)
    if name is None:
        raise RecordError("turns", "missing", TURNS_KEYS)
    items = raw[name]
    if not isinstance(items, list):
        raise RecordError(name, f"expected a list of turns, got {type(items).__name__}")
    numbered = [_turn(item, f"{name}[{i}]") for i, item in enumerate(items)]
    if all(position == position for position, _ in numbered):  # every turn has a turn_index
        numbered.sort(key=lambda pair: pair[0])
    return Conversation(str(cid).strip(), tuple(turn for _, turn in numbered))


def parse_row(row: Row) -> Conversation:
    """The conversation of one raw-log line (RecordError when it cannot be used)."""
    if row.problem:
        raise RecordError("-", row.problem)
    return parse_conversation(row.raw or {})


def read_raw_log(
    path: str | Path, skip_bad: bool = False, report: ReadReport | None = None
) -> Iterator[Conversation]:
    """Conversations of a raw log; a bad line raises DataError unless `skip_bad` (then it is counted)."""
    path = location(path)
    report = report if report is not None else ReadReport()
    for row in read_jsonl(path):
        try:
            conversation = parse_row(row)
        except RecordError as error:
            report.admit(path, row, None, None, str(error), skip_bad)
            continue
        if report.admit(path, row, conversation.cid, conversation.digest(), None, skip_bad):
            yield conversation
