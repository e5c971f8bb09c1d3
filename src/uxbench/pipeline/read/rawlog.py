"""The pipeline's input: raw feedback logs as Conversations.

The readers (`readers`) turn each input shape into raw records; this module reads one record
with the field names of a `Fields` mapping (built-in, or a `--map` file): the production-log
spelling of docs/protocol.md#construction-pipeline (`turn_index`, `role`, `message`,
`create_time`, `is_unliked` / `is_liked`), a plain `{role, content, feedback}`, LMSYS-Chat /
WildChat / ShareGPT rows, per-turn table rows. Bad records stop the read with file, line,
cid and field, or are counted and skipped on request. Fields that look like ratings but are
not read are counted, never dropped without a word.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from uxbench.data.records import RecordError, message_text, refuse_lone_surrogates
from uxbench.pipeline.read.mapping import DEFAULT_FIELDS, DISLIKED, LIKED, RATING_LIKE, Fields, rating_word
from uxbench.pipeline.read.readers import ReaderNotes, detect_format, records
from uxbench.runtime.errors import DataError

__all__ = ["DISLIKED", "LIKED", "Conversation", "LogTurn", "ReadReport", "parse_conversation", "read_raw_log"]


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
class Tally:
    """What the turns of the conversations read hold: roles, ratings by field and value, and
    fields that look like ratings but are not read."""

    roles: Counter[str] = field(default_factory=Counter)
    ratings: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # (field, value, meaning)
    rating_like: Counter[str] = field(default_factory=Counter)  # field → turns (or conversations)

    def update(self, other: Tally) -> None:
        self.roles.update(other.roles)
        self.ratings.update(other.ratings)
        self.rating_like.update(other.rating_like)


@dataclass
class ReadReport:
    lines: int = 0  # records read (lines, conversations of an export, conversations of a table)
    conversations: int = 0
    skipped: list[str] = field(default_factory=list)
    duplicate_cids: int = 0  # lines skipped because another conversation had their cid
    format: str = ""
    tally: Tally = field(default_factory=Tally)
    notes: ReaderNotes = field(default_factory=ReaderNotes)
    # cid -> (position, digest) of its first conversation: ≈ 150 bytes per conversation read
    first_seen: dict[str, tuple[str, int]] = field(default_factory=dict, repr=False)

    def warnings(self, fields: Fields) -> list[str]:
        """Ratings that were not read: fields that look like ratings, export ratings off the branch."""
        found = []
        if self.tally.rating_like:
            listing = ", ".join(f"`{k}` ({n})" for k, n in self.tally.rating_like.most_common(8))
            found.append(
                f"fields that look like ratings were not read: {listing}; if one holds the users' "
                "ratings, name it in a --map file (`rating: FIELD` and its values under `ratings:`)"
            )
        counts = self.notes.counts
        for key, text in (
            ("feedback_off_branch", "ratings of messages on branches the user left (edited or regenerated)"),
            ("feedback_unmatched", "ratings of conversations not in the export"),
            ("feedback_without_message_id", "ratings that name no message"),
        ):
            if counts.get(key):
                found.append(f"{counts[key]} {text} were not read")
        return found


# times outside these bounds are unit mistakes (microseconds, nanoseconds) or junk
EARLIEST, LATEST = 0.0, 4102444800.0  # 1970-01-01 and 2100-01-01, UTC
_TIME_FORMATS = "use YYYY-MM-DD HH:MM:SS, ISO 8601 or epoch seconds / milliseconds"


def parse_time(value: Any) -> float | None:
    """Seconds since the epoch from `%Y-%m-%d %H:%M:%S`, ISO 8601, a datetime, or epoch seconds /
    milliseconds (also as text, as CSV cells hold them), between 1970 and 2100."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a time: {value!r}")
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            pass
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise ValueError(f"not a time: {value!r} ({_TIME_FORMATS})")
        seconds = float(value) / 1000.0 if value > 1e11 else float(value)
    else:
        try:
            moment = (
                value
                if isinstance(value, datetime)
                else datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
            )
        except ValueError:
            raise ValueError(f"not a time: {value!r} ({_TIME_FORMATS})") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        seconds = moment.timestamp()
    if not EARLIEST <= seconds < LATEST:
        raise ValueError(f"time {value!r} is out of range (1970-01-01 to 2100-01-01; {_TIME_FORMATS})")
    return seconds


def _first_key(item: dict[str, Any], names: tuple[str, ...]) -> str | None:
    return next((k for k in names if k in item), None)


def parse_feedback(item: dict[str, Any], where: str, fields: Fields, tally: Tally) -> str | None:
    """liked / disliked / None from the rating field or the liked / disliked flags."""
    found: list[str | None] = []
    key = _first_key(item, fields.rating)
    word = rating_word(item[key]) if key is not None else ""
    if word:  # an empty cell or a null is no rating, whatever the map's table says
        if word not in fields.ratings:
            use = (
                "use liked, disliked or none"
                if fields.source is None
                else f"{fields.source} lists {fields.values_help()}"
            )
            raise RecordError(f"{where}.{key}", f"unknown value {item[key]!r}; {use}")
        found.append(fields.ratings[word])
        tally.ratings[(str(key), word, fields.ratings[word] or "none")] += 1
    for names, meaning in ((fields.disliked_flag, DISLIKED), (fields.liked_flag, LIKED)):
        flag = _first_key(item, names)
        if flag is not None and _truthy(item[flag]):
            found.append(meaning)
            tally.ratings[(flag, rating_word(item[flag]), meaning)] += 1
    flags = {f for f in found if f is not None}
    if len(flags) > 1:
        raise RecordError(where, "is flagged both liked and disliked")
    return flags.pop() if flags else None


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    return bool(value)


def _rating_like(item: dict[str, Any], fields: Fields, tally: Tally, suffix: str = "") -> None:
    """Count the fields that look like ratings, hold a value and are not read."""
    read = fields.read_keys()
    for key, value in item.items():
        if key not in read and value not in (None, "") and RATING_LIKE.search(str(key)):
            tally.rating_like[f"{key}{suffix}"] += 1


def _turn(item: Any, where: str, fields: Fields, tally: Tally) -> tuple[float, LogTurn]:
    if not isinstance(item, dict):
        raise RecordError(where, f"expected an object, got {item!r:.60}")
    role_key = _first_key(item, fields.role) or fields.role[0]
    role = fields.roles.get(str(item.get(role_key, "")).strip().lower())
    if role is None:
        known = ", ".join(sorted(fields.roles))
        raise RecordError(f"{where}.{role_key}", f"unknown role {item.get(role_key)!r}; use {known}")
    key = _first_key(item, fields.text)
    if key is None:
        raise RecordError(where, "has no text", fields.text)
    try:
        text = message_text(item[key]) if item[key] is not None else ""
    except TypeError as error:
        raise RecordError(f"{where}.{key}", str(error)) from None
    time_key = _first_key(item, fields.time)
    try:
        moment = parse_time(item[time_key]) if time_key else None
    except ValueError as error:
        raise RecordError(f"{where}.{time_key}", str(error)) from None
    feedback = parse_feedback(item, where, fields, tally)
    if feedback is not None and role != "assistant":
        raise RecordError(where, f"feedback {feedback} on a {role} turn (only assistant turns are rated)")
    _rating_like(item, fields, tally)
    order_key = _first_key(item, fields.order)
    order = item.get(order_key) if order_key else None
    try:
        position = float(order) if order not in (None, "") else float("nan")
    except (TypeError, ValueError):
        raise RecordError(f"{where}.{order_key}", f"not a number: {order!r}") from None
    tally.roles[role] += 1
    return position, LogTurn(role, text, moment, feedback)


def _conversation_rating(
    raw: dict[str, Any], turns: list[LogTurn], fields: Fields, tally: Tally
) -> list[LogTurn]:
    """A rating on the conversation itself rates its last assistant turn."""
    feedback = parse_feedback(raw, "conversation", fields, tally)
    if feedback is None:
        return turns
    last = next((i for i in range(len(turns) - 1, -1, -1) if turns[i].role == "assistant"), None)
    if last is None:
        raise RecordError("conversation", f"rated {feedback} but has no assistant turn")
    if turns[last].feedback not in (None, feedback):
        raise RecordError("conversation", f"rated {feedback}, its last reply {turns[last].feedback}")
    turns[last] = LogTurn(turns[last].role, turns[last].text, turns[last].time, feedback)
    return turns


def parse_conversation(
    raw: dict[str, Any],
    fields: Fields = DEFAULT_FIELDS,
    tally: Tally | None = None,
    turn_names: list[str] | None = None,
) -> Conversation:
    """One raw record as a Conversation; turns ordered by their order field when every turn has one.
    `turn_names` names each turn in messages (per-turn rows: `row 12`)."""
    tally = tally if tally is not None else Tally()
    id_key = _first_key(raw, fields.ids)
    cid = raw.get(id_key) if id_key else None
    if cid is None or not str(cid).strip():
        raise RecordError(fields.ids[0], "missing", fields.ids)
    name = _first_key(raw, fields.turns)
    if name is None:
        raise RecordError(fields.turns[0], "missing", fields.turns)
    items = raw[name]
    if not isinstance(items, list):
        raise RecordError(name, f"expected a list of turns, got {type(items).__name__}")
    names = turn_names or [f"{name}[{i}]" for i in range(len(items))]
    numbered = [_turn(item, where, fields, tally) for where, item in zip(names, items, strict=True)]
    if all(position == position for position, _ in numbered):  # every turn has a turn_index
        numbered.sort(key=lambda pair: pair[0])
    turns = _conversation_rating(raw, [turn for _, turn in numbered], fields, tally)
    if turn_names is None:
        _rating_like(raw, fields, tally, " (conversation)")
    return Conversation(str(cid).strip(), tuple(turns))


def _check_cid(conversation: Conversation, position: str, report: ReadReport) -> None:
    """A cid names one conversation: a second, different one would take over its cases later on.
    The same conversation twice is left to the prefilter's exact-duplicate rule."""
    digest = conversation.digest()
    first = report.first_seen.setdefault(conversation.cid, (position, digest))
    if first[1] != digest:
        problem = f"{first[0]} holds another conversation with this cid (cids must be unique)"
        raise ReusedCid("cid", problem)


def read_raw_log(
    path: str | Path,
    skip_bad: bool = False,
    report: ReadReport | None = None,
    fields: Fields = DEFAULT_FIELDS,
) -> Iterator[Conversation]:
    """Conversations of a raw log (any input shape of `readers`); a bad record raises DataError
    unless `skip_bad` (then it is counted)."""
    path = Path(path)
    report = report if report is not None else ReadReport()
    report.format = detect_format(path, fields) if path.exists() else ""
    for record in records(path, fields, report.notes):
        report.lines += 1
        raw = record.raw or {}
        id_key = _first_key(raw, fields.ids)
        cid = str(raw.get(id_key) or "?") if id_key else "?"
        tally = Tally()
        try:
            if record.problem:
                raise RecordError("-", record.problem)
            conversation = refuse_lone_surrogates(parse_conversation(raw, fields, tally, record.turn_names))
            _check_cid(conversation, record.position, report)
        except RecordError as error:
            text = error.problem if record.problem else str(error)
            where = f"{record.where} (cid {cid}): {text}"
            if not skip_bad:
                raise DataError(f"{where}\n(--skip-bad skips and counts such lines)") from None
            report.skipped.append(where)
            report.duplicate_cids += isinstance(error, ReusedCid)
            continue
        report.tally.update(tally)
        report.conversations += 1
        yield conversation
