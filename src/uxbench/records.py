"""Normalise UXBench records into one shape per task.

The released code and the dataset card disagree on field names and encodings
(docs/protocol.md#data); everything that copes with that lives here, as pure functions, so each
quirk is pinned by a unit test and the rest of the package sees clean records.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from uxbench.labels import (
    DIFFICULTIES,
    canonical_failure,
    canonical_scenario,
    canonical_success,
)

ROLES = ("system", "user", "assistant")
LIKED, DISLIKED = 1, -1

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
                decoded = json.loads(stripped)
            except ValueError:
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
    if not text.strip():
        return []
    for decode in (json.loads, ast.literal_eval):
        try:
            return decode(text)
        except (ValueError, SyntaxError):
            continue
    raise RecordError(name, "a string that is neither JSON nor a Python literal list of turns")


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
    cid = raw.get("cid")
    if cid is None or not str(cid).strip():
        raise RecordError("cid", "missing")
    return str(cid).strip()


def _without_trailing_query(history: tuple[Turn, ...], query: str) -> tuple[Turn, ...]:
    """Drop a final user turn that repeats the query, so the query is asked once."""
    if history and history[-1].role == "user" and history[-1].content.strip() == query.strip():
        return history[:-1]
    return history


def record_labels(raw: dict[str, Any], failure_key: str = "failure_dimension") -> dict[str, Any]:
    """Labels under stable metadata names; unknown label values are kept and listed."""
    labels: dict[str, Any] = {}
    unknown: list[str] = []
    mapped: list[tuple[str, str, Callable[[object], tuple[str | None, bool]]]] = [
        ("failure_dimension", failure_key, canonical_failure),
        ("success_pattern", "success_dimension", canonical_success),
        ("scenario", "scenario", canonical_scenario),
    ]
    for name, key, canonical in mapped:
        value, known = canonical(raw.get(key))
        labels[name] = value
        if not known:
            unknown.append(f"{name}={value}")
    difficulty = str(raw.get("difficulty") or "").strip().lower().replace(" ", "_") or None
    if difficulty is not None and difficulty not in DIFFICULTIES:
        unknown.append(f"difficulty={difficulty}")
    labels["difficulty"] = difficulty
    for key in _PLAIN_LABELS:
        if raw.get(key) not in (None, ""):
            labels[key] = raw[key]
    for key in _DOMAIN_LABELS:
        labels[f"domain_{key}"] = raw.get(key) or None
    if unknown:
        labels["unknown_labels"] = unknown
    return labels


def _liked(raw: dict[str, Any], default: int | None) -> bool:
    value = raw.get("ground_truth", default)
    if value is None:
        raise RecordError(
            "ground_truth", "missing, and the file name does not say liked (good) or disliked (bad)"
        )
    if isinstance(value, bool) or str(value).strip() not in ("1", "-1"):
        raise RecordError("ground_truth", f"must be 1 (liked) or -1 (disliked), got {value!r}")
    return int(str(value).strip()) == LIKED


def judge_record(raw: dict[str, Any], default_label: int | None = None) -> JudgeRecord:
    query = _text(raw, ("source_query", "query"))
    _, history = _pick(raw, ("selected_history", "history"))
    name = "selected_history" if raw.get("selected_history") is not None else "history"
    return JudgeRecord(
        cid=_cid(raw),
        liked=_liked(raw, default_label),
        history=_without_trailing_query(parse_turns(history, name), query),
        query=query,
        response=_text(raw, ("agent_response_full", "response")),
        labels=record_labels(raw),
    )


def eval_record(raw: dict[str, Any]) -> EvalRecord:
    query = _text(raw, ("query",))
    name, history = _pick(raw, ("messages", "history"))
    return EvalRecord(
        cid=_cid(raw),
        history=_without_trailing_query(parse_turns(history, name), query),
        query=query,
        labels=record_labels(raw, failure_key="dimension"),
    )


def recovery_record(raw: dict[str, Any]) -> RecoveryRecord:
    _, history = _pick(raw, ("history",))
    return RecoveryRecord(
        cid=_cid(raw),
        history=parse_turns(history, "history"),
        failed_response=_text(raw, ("failed_response",)),
        complaint=_text(raw, ("user_complaint",)),
        labels=record_labels(raw),
    )
