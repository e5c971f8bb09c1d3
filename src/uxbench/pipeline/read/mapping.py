"""Which fields of an input hold what: the built-in names, or a `--map FILE.yaml` of your own.

A mapping names the field that holds the conversation id, the turns, each turn's role, text,
time, order and rating, and which values of the rating mean liked, disliked or no rating
(`thumbsDown`, `-1`, stars …). A field the map names replaces the built-in names for that
purpose; the others keep theirs. Fields that look like ratings but are not read are counted
by the readers (`rating_like`), so a rating never silently turns into "no feedback".
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from uxbench.pipeline.read.files import read_yaml
from uxbench.runtime.errors import DataError

LIKED, DISLIKED = "liked", "disliked"
_LIKED_WORDS = ("liked", "like", "up", "thumbs_up", "thumbsup", "positive", "good", "1")
_DISLIKED_WORDS = (
    "disliked",
    "dislike",
    "unliked",
    "down",
    "thumbs_down",
    "thumbsdown",
    "negative",
    "bad",
    "-1",
)
BUILTIN_RATINGS: dict[str, str | None] = {
    **dict.fromkeys(_LIKED_WORDS, LIKED),
    **dict.fromkeys(_DISLIKED_WORDS, DISLIKED),
    **dict.fromkeys(("", "none", "null", "0"), None),
}
BUILTIN_ROLES: dict[str, str] = {
    **dict.fromkeys(("user", "human", "customer"), "user"),
    **dict.fromkeys(("assistant", "gpt", "bot", "chatgpt", "model", "ai"), "assistant"),
    "system": "system",
}
# a field whose name says it may hold a rating (`thumbs`, `vote`, `stars`, `user_rating` …)
RATING_LIKE = re.compile(r"rat(?:e|ing)|feedback|thumb|vote|star|like|score|reaction|satisf|helpful", re.I)
_KEYS = ("format", "id", "turns", "role", "text", "time", "order", "rating", "liked_flag", "disliked_flag")


def rating_word(value: Any) -> str:
    """How a rating value is compared: trimmed, lower case, `5.0` as `5`, `True` as `true`."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value).strip().lower()


@dataclass(frozen=True)
class Fields:
    """The field names each reader looks for, in order, and the value tables."""

    ids: tuple[str, ...] = ("cid", "conversation_id", "conversation_hash", "id")
    turns: tuple[str, ...] = ("turns", "messages", "conversation", "conversations")
    role: tuple[str, ...] = ("role", "from")
    text: tuple[str, ...] = ("message", "content", "text", "value")
    time: tuple[str, ...] = ("create_time", "timestamp", "time")
    order: tuple[str, ...] = ("turn_index",)
    rating: tuple[str, ...] = ("feedback",)
    liked_flag: tuple[str, ...] = ("is_liked",)
    disliked_flag: tuple[str, ...] = ("is_unliked",)
    roles: dict[str, str] = field(default_factory=lambda: dict(BUILTIN_ROLES))
    ratings: dict[str, str | None] = field(default_factory=lambda: dict(BUILTIN_RATINGS))
    format: str | None = None  # jsonl | csv | parquet | chatgpt; None: from the file
    source: str | None = None  # the map file, for messages
    sha256: str | None = None  # of the map file, for the run manifest

    def read_keys(self) -> frozenset[str]:
        """Every field name this mapping reads (the rest of a turn or row is extra)."""
        names = (self.ids, self.turns, self.role, self.text, self.time, self.order, self.rating)
        return frozenset(n for group in (*names, self.liked_flag, self.disliked_flag) for n in group)

    def rating_help(self) -> str:
        """What the readers take for a rating, as a sentence end."""
        flags = " / ".join(f"`{f}`" for f in (*self.liked_flag, *self.disliked_flag))
        keys = " / ".join(f"`{k}`" for k in self.rating)
        if self.source is None:
            return f"{keys} (liked / disliked) or the flags {flags}"
        return f"{keys} (values {self.values_help()})" + (f" or the flags {flags}" if flags else "")

    def values_help(self) -> str:
        by_meaning: dict[str, list[str]] = {}
        for word, meaning in self.ratings.items():
            by_meaning.setdefault(meaning or "none", []).append(repr(word))
        return "; ".join(f"{k}: {', '.join(v)}" for k, v in by_meaning.items())

    def settings(self) -> dict[str, Any]:
        """What the run manifest records of the mapping."""
        return {"format": self.format, "map": self.source, "map_sha256": self.sha256}


DEFAULT_FIELDS = Fields()


def _names(data: dict[str, Any], key: str, path: Path) -> tuple[str, ...] | None:
    if key not in data:
        return None
    value = data[key]
    values = value if isinstance(value, list) else [value]
    if value is None or not all(isinstance(v, str) and v.strip() for v in values):
        raise DataError(f"--map {path}: `{key}` must name a field (or a list of fields), got {value!r}")
    return tuple(v.strip() for v in values)


def _table(data: Any, path: Path, key: str, meanings: tuple[str | None, ...]) -> dict[str, Any]:
    """`{liked: [...], disliked: [...], none: [...]}` → value word → meaning."""
    if not isinstance(data, dict):
        raise DataError(
            f"--map {path}: `{key}` must map {', '.join(str(m or 'none') for m in meanings)} to values"
        )
    table: dict[str, Any] = {}
    for name, values in data.items():
        meaning = None if str(name).lower() == "none" else str(name).lower()
        if meaning not in meanings:
            choices = ", ".join(str(m or "none") for m in meanings)
            raise DataError(f"--map {path}: `{key}.{name}`: unknown meaning; use {choices}")
        for value in values if isinstance(values, list) else [values]:
            word = rating_word(value)
            if word in table and table[word] != meaning:
                raise DataError(f"--map {path}: `{key}`: value {value!r} is listed under two meanings")
            table[word] = meaning
    return table


def load_mapping(path: str | Path | None) -> Fields:
    """The fields of a `--map` YAML file (the built-ins when `path` is None)."""
    if path is None:
        return DEFAULT_FIELDS
    path = Path(path)
    data, raw = read_yaml(path, "--map")
    unknown = sorted(set(data) - set(_KEYS) - {"roles", "ratings"})
    if unknown:
        raise DataError(
            f"--map {path}: unknown keys {', '.join(unknown)}; use {', '.join(_KEYS)}, roles, ratings"
        )
    names = {key: _names(data, key, path) for key in _KEYS if key != "format"}
    fields = replace(
        DEFAULT_FIELDS, **{("ids" if k == "id" else k): v for k, v in names.items() if v is not None}
    )
    if "format" in data:
        if data["format"] not in ("jsonl", "csv", "parquet", "chatgpt"):
            raise DataError(f"--map {path}: `format` must be jsonl, csv, parquet or chatgpt")
        fields = replace(fields, format=data["format"])
    if "roles" in data:
        roles = _table(data["roles"], path, "roles", ("user", "assistant", "system"))
        fields = replace(fields, roles={**BUILTIN_ROLES, **roles})
    if "ratings" in data:
        # your own table replaces the built-in words: a 1 that means one star must not read as liked
        fields = replace(fields, ratings=_table(data["ratings"], path, "ratings", (LIKED, DISLIKED, None)))
    return replace(fields, source=str(path), sha256=hashlib.sha256(raw).hexdigest())
