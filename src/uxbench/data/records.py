"""Normalise UXBench records into one shape per task.

The released code and the dataset card disagree on field names and encodings
(docs/protocol.md#data); everything that copes with that lives here, as pure functions, so each
quirk is pinned by a unit test and the rest of the package sees clean records.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, TypeVar

from uxbench.data.labels import (
    DIFFICULTIES,
    canonical_failure,
    canonical_scenario,
    canonical_success,
)
from uxbench.runtime.surrogates import LONE_SURROGATE, first_lone_surrogate

ROLES = ("system", "user", "assistant")
LIKED, DISLIKED = 1, -1
LABEL_WORDS = {LIKED: "liked (good)", DISLIKED: "disliked (bad)"}

# Caps on hostile or broken input (docs/scale.md#bad-input). Release records are a few kB and
# nest 4-5 levels; the caps sit far above that and far below what exhausts Python's stack
# (json's C decoder fails near 1,000 levels) or memory (ast builds ~180 bytes per source byte).
MAX_NESTING = 64  # brackets inside one JSON text (a record, or a JSON string within one)
MAX_LITERAL_CHARS = 2**20  # a history given as a Python literal rather than JSON
MAX_ID_CHARS = 128  # a cid, which Inspect uses as the sample's entry name in the .eval zip

# Keys under which a JSON-encoded message object keeps its text, in order of preference.
_TEXT_KEYS = ("content", "text", "message", "answer", "reply")
# Plain labels copied into metadata under the same name.
_PLAIN_LABELS = (
    "signal_type",
    "severity_tier",
    "judge_scores",
    "history_turns",
    "overall_quality",
    "representativeness",
)
_DOMAIN_LABELS = ("scene_l1", "scene_l2", "intent_l1", "intent_l2", "sector_l1", "sector_l2")
# Metadata name -> the record fields it is read from, in order of preference: the release's
# names and ours (a record written from our metadata reads back the same).
LABEL_FIELDS: dict[str, tuple[str, ...]] = {
    "failure_dimension": ("failure_dimension", "dimension"),
    "success_pattern": ("success_dimension", "success_pattern"),
    "scenario": ("scenario",),
    "difficulty": ("difficulty",),
    **{f"domain_{key}": (key, f"domain_{key}") for key in _DOMAIN_LABELS},
}
# What a record is, when it is not the benchmark's own (docs/data.md#record-origin): `synthetic`
# records are written by us (the bundled sample, bench/synth.py), labels and all; `stand-in`
# records hold placeholder text under real cids (bench/eval_report.py), so any label on one
# would be invented and is refused.
ORIGIN_FIELD = "origin"
SYNTHETIC, STAND_IN = "synthetic", "stand-in"
ORIGINS = (SYNTHETIC, STAND_IN)
_LABEL_NAMES = tuple(name for names in LABEL_FIELDS.values() for name in names)
# Record fields by role, each with its accepted names.
_JUDGE_QUERY = ("source_query", "query")
_JUDGE_HISTORY = ("selected_history", "history")
_JUDGE_RESPONSE = ("agent_response_full", "response")
_EVAL_HISTORY = ("messages", "history")
READ_FIELDS = frozenset(
    {
        "cid",
        "ground_truth",
        "failed_response",
        "user_complaint",
        ORIGIN_FIELD,
        *_JUDGE_QUERY,
        *_JUDGE_HISTORY,
        *_JUDGE_RESPONSE,
        *_EVAL_HISTORY,
        *_PLAIN_LABELS,
        *_LABEL_NAMES,
    }
)
# Words that make an unread field look like a label worth reporting (whole words of its name).
_LABEL_NAME_WORDS = frozenset(
    "label labels dimension dimensions pattern patterns scenario scenarios difficulty failure "
    "success signal severity scene intent sector domain category truth verdict rating".split()
)
_ID_CHAR = re.compile(r"[\w.@+=-]")
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class RecordError(ValueError):
    """A record that cannot be used, with the field at fault and the names accepted."""

    def __init__(self, field: str, problem: str, accepted: Sequence[str] = ()) -> None:
        self.field = field
        self.problem = problem
        self.accepted = tuple(accepted)
        message = f"field '{field}': {problem}"
        if len(self.accepted) > 1:
            message += f" (accepted names: {', '.join(self.accepted)})"
        super().__init__(message)


class NestingError(ValueError):
    """JSON text nested deeper than MAX_NESTING."""


def decode_json(text: str) -> Any:
    """`json.loads` with nesting capped, so a bracket bomb is a ValueError, not a RecursionError."""
    if text.count("[") + text.count("{") > MAX_NESTING and _too_deep(text):
        raise NestingError(f"nested more than {MAX_NESTING} levels deep (the cap for one record)")
    return json.loads(text)


def _too_deep(text: str) -> bool:
    """Whether brackets outside JSON strings nest deeper than MAX_NESTING; stops at the first excess."""
    depth = 0
    for mark in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        depth += 1 if mark in "[{" else -1
        if depth > MAX_NESTING:
            return True
    return False


def shown_cid(value: Any) -> str:
    """A cid as messages print it: as is when safe, else quoted, escaped and shortened."""
    text = "" if value is None else str(value).strip()
    if not text:
        return "?"
    if _id_problem(text) is None:
        return text
    quoted = repr(text)
    return quoted if len(quoted) <= 40 else quoted[:39] + "…"


def _id_problem(cid: str) -> str | None:
    if len(cid) > MAX_ID_CHARS:
        return f"is {len(cid)} characters long"
    if ".." in cid:
        return "contains '..'"
    bad = next((c for c in cid if not _ID_CHAR.fullmatch(c)), None)
    return None if bad is None else f"contains {bad!r}"


@dataclass(frozen=True)
class Turn:
    role: str
    content: str


@dataclass(frozen=True)
class JudgeRecord:
    """Task 1: was the user satisfied with `response`?"""

    cid: str
    liked: bool
    history: tuple[Turn, ...]
    query: str
    response: str
    labels: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EvalRecord:
    """Task 2: answer `query` after `history`."""

    cid: str
    history: tuple[Turn, ...]
    query: str
    labels: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RecoveryRecord:
    """Task 3: repair `failed_response` after the user's `complaint`."""

    cid: str
    history: tuple[Turn, ...]
    failed_response: str
    complaint: str
    labels: dict[str, Any] = field(default_factory=dict)


def message_text(value: Any) -> str:
    """Text of a message that may be plain, a message object, or a JSON-encoded one."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("{", "["):
            try:
                decoded = decode_json(stripped)
            except ValueError:  # not JSON (or nested absurdly deep): plain text that starts with a bracket
                return value
            text = _object_text(decoded)
            return value if text is None else text
        return value
    text = _object_text(value)
    if text is None:
        raise TypeError(f"expected text, got {type(value).__name__}")
    return text


def _object_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for key in _TEXT_KEYS:
            if key in value:
                return _object_text(value[key])
        return None
    if isinstance(value, list):
        parts = [_object_text(part) for part in value]
        if parts and all(part is not None for part in parts):
            return "".join(p for p in parts if p)
    return None


def parse_turns(value: Any, name: str) -> tuple[Turn, ...]:
    """Turns from a list of `{role, content|message}` or its JSON / Python-literal string."""
    if isinstance(value, str):
        value = _decode_list(value, name)
    if not isinstance(value, list):
        raise RecordError(name, f"expected a list of turns, got {type(value).__name__}")
    turns = []
    for i, item in enumerate(value):
        where = f"{name}[{i}]"
        if not isinstance(item, dict):
            raise RecordError(where, f"expected an object with role and content, got {item!r:.60}")
        role = str(item.get("role", "")).strip().lower()
        if role not in ROLES:
            raise RecordError(f"{where}.role", f"unknown role {item.get('role')!r}; use {ROLES}")
        key = "content" if "content" in item else "message" if "message" in item else None
        if key is None:
            raise RecordError(where, "has no text", ("content", "message"))
        try:
            text = message_text(item[key])
        except TypeError as error:
            raise RecordError(f"{where}.{key}", str(error)) from None
        turns.append(Turn(role, text))
    return tuple(turns)


def _decode_list(text: str, name: str) -> Any:
    stripped = text.strip()
    if not stripped:
        return []
    try:
        return decode_json(stripped)
    except NestingError as error:
        raise RecordError(name, f"a JSON string {error}") from None
    except ValueError:
        pass
    neither = "a string that is neither JSON nor a Python literal list of turns"
    if not stripped.startswith("["):
        raise RecordError(name, neither)
    if len(stripped) > MAX_LITERAL_CHARS:
        raise RecordError(
            name,
            f"a Python literal of {len(stripped):,} characters, over the cap of {MAX_LITERAL_CHARS:,} "
            "for Python-literal histories (write it as JSON, which has no such cap)",
        )
    try:
        return ast.literal_eval(stripped)
    except (ValueError, TypeError, SyntaxError):
        raise RecordError(name, neither) from None
    except (MemoryError, RecursionError):  # the parser's own stack overflows on deep nesting
        raise RecordError(name, "a Python literal nested too deeply to parse") from None


def _pick(raw: dict[str, Any], names: Sequence[str]) -> tuple[str, Any]:
    """First of `names` present in the record (an empty list counts as present)."""
    for name in names:
        if raw.get(name) is not None:
            return name, raw[name]
    raise RecordError(names[0], "missing", names)


def _text(raw: dict[str, Any], names: Sequence[str]) -> str:
    name, value = _pick(raw, names)
    if isinstance(value, dict):
        value = value.get("message", value.get("content"))
    try:
        text = message_text(value)
    except TypeError as error:
        raise RecordError(name, str(error), names) from None
    if not text.strip():
        raise RecordError(name, "is empty", names)
    return text


def _cid(raw: dict[str, Any]) -> str:
    """The record's cid, refused when unsafe as a sample id (Inspect names log entries by it)."""
    cid = raw.get("cid")
    if cid is None or not str(cid).strip():
        raise RecordError("cid", "missing")
    text = str(cid).strip()
    problem = _id_problem(text)
    if problem is not None:
        raise RecordError(
            "cid",
            f"{shown_cid(text)} {problem}; a sample id names an entry in the .eval log, so it may hold "
            f"only letters, digits and _ . - @ + = (no '..'), at most {MAX_ID_CHARS} characters",
        )
    return text


def _without_trailing_query(history: tuple[Turn, ...], query: str) -> tuple[Turn, ...]:
    """Drop a final user turn that repeats the query, so the query is asked once."""
    if history and history[-1].role == "user" and history[-1].content.strip() == query.strip():
        return history[:-1]
    return history


def record_labels(raw: dict[str, Any]) -> dict[str, Any]:
    """Labels under stable metadata names; unknown label values are kept and listed, and
    unread fields that look like labels are kept under `unknown_fields`."""
    labels: dict[str, Any] = {}
    origin = record_origin(raw)
    if origin is not None:
        labels[ORIGIN_FIELD] = origin
    if origin == STAND_IN:
        invented = [k for k in (*_LABEL_NAMES, *_PLAIN_LABELS) if raw.get(k) not in (None, "")]
        if invented:
            raise RecordError(
                invented[0],
                "a stand-in record (origin: stand-in) carries no labels: its text is a placeholder, "
                "so a label on it would be invented",
            )
    unknown: list[str] = []
    for name in LABEL_FIELDS:
        labels[name], known = _label_value(raw, name)
        if not known:
            unknown.append(f"{name}={labels[name]}")
    for key in _PLAIN_LABELS:
        if raw.get(key) not in (None, ""):
            labels[key] = raw[key]
    if unknown:
        labels["unknown_labels"] = unknown
    fields = {k: v for k, v in raw.items() if k not in READ_FIELDS and _looks_like_label(k, v)}
    if fields:
        labels["unknown_fields"] = fields
    return labels


def record_origin(raw: dict[str, Any]) -> str | None:
    """`synthetic`, `stand-in`, or None for a record that does not say (the benchmark's own)."""
    value = raw.get(ORIGIN_FIELD)
    if value is None:
        return None
    if not isinstance(value, str) or value.strip() not in ORIGINS:
        raise RecordError(ORIGIN_FIELD, f"{value!r:.40} is not one of {', '.join(ORIGINS)} (or leave it out)")
    return value.strip()


def _difficulty(value: object) -> tuple[str | None, bool]:
    text = str(value or "").strip().lower().replace(" ", "_") or None
    return text, text is None or text in DIFFICULTIES


def _as_is(value: object) -> tuple[object, bool]:
    return value or None, True


_CANONICAL: dict[str, Callable[[object], tuple[Any, bool]]] = {
    "failure_dimension": canonical_failure,
    "success_pattern": canonical_success,
    "scenario": canonical_scenario,
    "difficulty": _difficulty,
}


def _label_value(raw: dict[str, Any], name: str) -> tuple[Any, bool]:
    """A label (canonical, and whether known) from whichever of its field names the record uses;
    two names that give different labels are an error."""
    canonical = _CANONICAL.get(name, _as_is)
    aliases = LABEL_FIELDS[name]
    given = [(alias, raw[alias]) for alias in aliases if raw.get(alias) not in (None, "")]
    if not given:
        return None, True
    first, value = given[0]
    label = canonical(value)
    for alias, other in given[1:]:
        if canonical(other)[0] != label[0]:
            raise RecordError(first, f"{value!r} disagrees with '{alias}' ({other!r})", aliases)
    return label


def _looks_like_label(key: str, value: Any) -> bool:
    """A field name with a label word in it, or a value that is a known label."""
    if _LABEL_NAME_WORDS & set(re.split(r"[\W_]+", str(key).lower())):
        return True
    if not isinstance(value, str) or not value.strip():
        return False
    if value.strip().lower() in DIFFICULTIES:
        return True
    return any(label(value)[1] for label in (canonical_failure, canonical_success, canonical_scenario))


def _liked(raw: dict[str, Any], file_label: int | None) -> bool:
    """The record's label: its ground_truth, else the label its file's name gives; never both disagreeing."""
    if "ground_truth" not in raw and file_label is not None:
        return file_label == LIKED
    value = raw.get("ground_truth")
    if value is None:
        if file_label is not None:
            words = LABEL_WORDS[file_label]
            raise RecordError(
                "ground_truth", f"is null in a file of {words} records (give 1 or -1, or leave the field out)"
            )
        problem = "missing" if "ground_truth" not in raw else "null"
        raise RecordError(
            "ground_truth", f"{problem}, and the file name does not say liked (good) or disliked (bad)"
        )
    if isinstance(value, bool) or str(value).strip() not in ("1", "-1"):
        raise RecordError("ground_truth", f"must be 1 (liked) or -1 (disliked), got {value!r}")
    label = int(str(value).strip())
    if file_label is not None and label != file_label:
        raise RecordError(
            "ground_truth",
            f"{value!r} says {LABEL_WORDS[label]}, but its file holds {LABEL_WORDS[file_label]} records",
        )
    return label == LIKED


R = TypeVar("R")


def _joined(path: str, name: object) -> str:
    """A field path; a half character in a field's name is shown as its escape (`\\ud83d`)."""
    shown = LONE_SURROGATE.sub(lambda half: f"\\u{ord(half.group()):04x}", str(name))
    return f"{path}.{shown}" if path else shown


def _texts(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(field path, text) of every string in a record: its fields, turns, labels and their keys."""
    if isinstance(value, str):
        yield path, value
    elif is_dataclass(value) and not isinstance(value, type):
        for part in fields(value):
            yield from _texts(getattr(value, part.name), _joined(path, part.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(str(key), f"{_joined(path, key)} (its name)")
            yield from _texts(item, _joined(path, key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _texts(item, f"{path}[{index}]")


def refuse_lone_surrogates(record: R) -> R:
    """The record, unless a text in it holds half of a character (a lone surrogate such as a
    JSON `\\ud83d`): then a RecordError naming the field, before any model is asked. Such text
    cannot be encoded as UTF-8, so it would fail later at the request or in the log."""
    for path, text in _texts(record, ""):
        at = first_lone_surrogate(text)
        if at is not None:
            raise RecordError(
                path,
                f"holds half of a character (a lone surrogate U+{ord(text[at]):04X} at character {at:,}); "
                "the text was cut inside an emoji or other character: repair or drop it",
            )
    return record


def judge_record(raw: dict[str, Any], file_label: int | None = None) -> JudgeRecord:
    """Task 1 record; `file_label` is the label its file's name (or hub config) gives, if any."""
    query = _text(raw, _JUDGE_QUERY)
    name, history = _pick(raw, _JUDGE_HISTORY)
    return refuse_lone_surrogates(
        JudgeRecord(
            cid=_cid(raw),
            liked=_liked(raw, file_label),
            history=_without_trailing_query(parse_turns(history, name), query),
            query=query,
            response=_text(raw, _JUDGE_RESPONSE),
            labels=record_labels(raw),
        )
    )


def eval_record(raw: dict[str, Any]) -> EvalRecord:
    query = _text(raw, ("query",))
    name, history = _pick(raw, _EVAL_HISTORY)
    return refuse_lone_surrogates(
        EvalRecord(
            cid=_cid(raw),
            history=_without_trailing_query(parse_turns(history, name), query),
            query=query,
            labels=record_labels(raw),
        )
    )


def recovery_record(raw: dict[str, Any]) -> RecoveryRecord:
    _, history = _pick(raw, ("history",))
    return refuse_lone_surrogates(
        RecoveryRecord(
            cid=_cid(raw),
            history=parse_turns(history, "history"),
            failed_response=_text(raw, ("failed_response",)),
            complaint=_text(raw, ("user_complaint",)),
            labels=record_labels(raw),
        )
    )
