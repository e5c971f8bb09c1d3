"""Input files as raw conversation records, whatever their shape.

- JSON Lines (`.jsonl`, `.jsonl.gz`): one conversation per line — our own shape, LMSYS-Chat /
  WildChat rows (`conversation_id` / `conversation_hash`, `conversation`), ShareGPT rows
  (`conversations` of `{from, value}`) — or one turn per line.
- CSV (`.csv`, `.csv.gz`) and Parquet (`.parquet`): one turn per row, grouped by the id
  column (Parquet may also hold one conversation per row, with a list column of turns).
- A ChatGPT data export (`conversations.json` or the export's folder): the message tree of
  each conversation followed from `current_node` back to the root, so only the branch the
  user last saw is read; ratings come from `message_feedback.json` beside it.

Every reader yields `RawRecord`s in the shape `rawlog.parse_conversation` reads; per-turn rows
carry the row number of each turn, so a bad cell is named by its row.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uxbench.data.dataset import read_jsonl
from uxbench.pipeline.read.mapping import Fields
from uxbench.runtime import userfiles
from uxbench.runtime.docs import install_extra
from uxbench.runtime.errors import DataError

FORMATS = ("jsonl", "csv", "parquet", "chatgpt")
CHATGPT_FILE, CHATGPT_FEEDBACK = "conversations.json", "message_feedback.json"
MAX_CSV_CELL_CHARS = 2**17  # one message in a CSV cell (csv's default field limit)
MAX_JSON_BYTES = 2**31  # a ChatGPT export is read whole; beyond this, split it first


@dataclass
class RawRecord:
    where: str  # "raw.jsonl:12", "logs.csv:2" (first row), "conversations.json: conversation 3"
    position: str  # "line 12", "row 2", "conversation 3"
    raw: dict[str, Any] | None
    problem: str | None = None
    turn_names: list[str] | None = None  # per-turn rows: "row 12" for each turn


@dataclass
class ReaderNotes:
    """What a reader saw besides conversations (the ChatGPT export's skipped messages, ratings
    that could not be placed on a turn), for the report and `pipeline inspect`."""

    shape: str = ""
    counts: Counter[str] = field(default_factory=Counter)


def detect_format(path: Path, fields: Fields) -> str:
    """The reader for `path`: the map's `format`, else the file name (and a peek into `.json`)."""
    if fields.format:
        return fields.format
    if path.is_dir():
        if (path / CHATGPT_FILE).is_file():
            return "chatgpt"
        raise DataError(f"{path}: a folder without {CHATGPT_FILE} (give a log file or a ChatGPT export)")
    name = path.name.lower()
    if name.endswith((".csv", ".csv.gz")):
        return "csv"
    if name.endswith((".parquet", ".pq")):
        return "parquet"
    if name.endswith(".json"):
        return "chatgpt"
    return "jsonl"


def input_files(path: Path, fmt: str) -> list[Path]:
    """The files a read depends on (what the run manifest fingerprints)."""
    if fmt != "chatgpt":
        return [path]
    conversations = path / CHATGPT_FILE if path.is_dir() else path
    feedback = conversations.with_name(CHATGPT_FEEDBACK)
    return [conversations, *([feedback] if feedback.is_file() else [])]


def check_input(path: Path) -> None:
    if userfiles.check_path(path) is None:  # a symlink loop is named as one
        raise DataError(f"{path}: no such raw log file or export folder")


def records(path: Path, fields: Fields, notes: ReaderNotes) -> Iterator[RawRecord]:
    """The raw conversation records of `path`."""
    check_input(path)
    fmt = detect_format(path, fields)
    if fmt == "chatgpt":
        yield from _chatgpt(path, fields, notes)
        return
    rows = {"jsonl": _jsonl_rows, "csv": _csv_rows, "parquet": _parquet_rows}[fmt](path)
    yield from _conversations(path, rows, fields, notes, fmt)


# ---------------------------------------------------------------- tables: rows → conversations

Rows = Iterator[tuple[int, dict[str, Any] | None, str | None]]  # (line or row, row, problem)


def _conversations(
    path: Path, rows: Rows, fields: Fields, notes: ReaderNotes, fmt: str
) -> Iterator[RawRecord]:
    """Conversation rows pass through as they are read; per-turn rows (no turns field in the
    first row) are grouped by their id, in the order each id first appears."""
    unit = "line" if fmt == "jsonl" else "row"
    first = next(rows, None)
    if first is None:
        return
    per_turn = first[1] is not None and not any(k in first[1] for k in fields.turns)
    notes.shape = f"one turn per {unit}" if per_turn else f"one conversation per {unit}"
    everything = _chain([first], rows)
    if not per_turn:
        for number, row, problem in everything:
            yield RawRecord(f"{path}:{number}", f"{unit} {number}", row, problem)
        return
    groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for number, row, problem in everything:
        cid = _first_value(row, fields.ids) if row is not None else None
        if row is None or cid is None:
            where = f"{path}:{number}"
            missing = problem or f"no conversation id ({', '.join(fields.ids)})"
            yield RawRecord(where, f"{unit} {number}", row, missing)
            continue
        groups.setdefault(str(cid).strip(), []).append((number, row))
    for cid, turns in groups.items():
        raw = {fields.ids[0]: cid, fields.turns[0]: [row for _, row in turns]}
        names = [f"{unit} {n}" for n, _ in turns]
        yield RawRecord(f"{path}:{turns[0][0]}", names[0], raw, None, names)


def _chain(head: Iterable[Any], tail: Iterator[Any]) -> Iterator[Any]:
    yield from head
    yield from tail


def _first_value(row: dict[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        value = row.get(name)
        if value is not None and str(value).strip():
            return value
    return None


def _jsonl_rows(path: Path) -> Rows:
    for row in read_jsonl(path):
        yield row.line, row.raw, row.problem


def _csv_rows(path: Path) -> Rows:
    """CSV rows (as `userfiles` reads text: BOMs, gzip, caps), numbered by their line. A row with
    a cell over MAX_CSV_CELL_CHARS is a problem row, so `--skip-bad` skips and counts it."""
    # csv's own field limit (process-wide) is raised to the line cap, so an over-long cell is
    # read whole and refused here, without the parser losing its place in the file.
    csv.field_size_limit(max(csv.field_size_limit(), userfiles.MAX_LINE_CHARS))
    with userfiles.open_text(path, newline="") as text:
        reader = csv.DictReader(text)
        try:
            for row in reader:
                if None in row:
                    yield reader.line_num, None, f"more cells than the header has columns ({len(row)})"
                    continue
                long = next(
                    (k for k, v in row.items() if v is not None and len(v) > MAX_CSV_CELL_CHARS), None
                )
                if long is not None:
                    problem = (
                        f"cell '{long}' holds {len(row[long]):,} characters, over the cap of "
                        f"{MAX_CSV_CELL_CHARS:,} for one CSV cell"
                    )
                    yield reader.line_num, None, problem
                    continue
                yield reader.line_num, {k: (v if v != "" else None) for k, v in row.items()}, None
        except UnicodeDecodeError as error:
            raise DataError(f"{path}: {userfiles.decode_problem(error, reader.line_num + 1)}") from None
        except (csv.Error, OSError, EOFError) as error:
            raise DataError(f"{path}:{reader.line_num}: not a readable CSV file ({error})") from None


def _parquet_rows(path: Path) -> Rows:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DataError(f"reading Parquet needs pyarrow: {install_extra('pipeline')}") from None
    userfiles.check_regular(path)  # pyarrow would wait on a FIFO
    try:
        table = pq.ParquetFile(path)
    except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError
        raise DataError(f"{path}: not a readable Parquet file ({error})") from None
    number = 0
    for batch in table.iter_batches(batch_size=2048):
        for row in batch.to_pylist():
            number += 1
            yield number, row, None


# ---------------------------------------------------------------- ChatGPT data export


def _load_json(path: Path) -> Any:
    try:
        return json.loads(userfiles.read_bytes(path, limit=MAX_JSON_BYTES))
    except (ValueError, RecursionError) as error:
        raise DataError(f"{path}: not a JSON file ({error})") from None


Ratings = dict[str, dict[str, Any]]  # conversation id → message id → rating


def _feedback(path: Path, notes: ReaderNotes) -> Ratings:
    """The ratings of `message_feedback.json`, when it is there."""
    ratings: Ratings = {}
    if not path.is_file():
        notes.counts["feedback_file_missing"] = 1
        return ratings
    entries = _load_json(path)
    if not isinstance(entries, list):
        raise DataError(f"{path}: expected a JSON array of feedback entries")
    for entry in entries:
        if not isinstance(entry, dict):
            notes.counts["feedback_not_an_object"] += 1
            continue
        conversation, message = entry.get("conversation_id"), entry.get("message_id")
        if not conversation or not message:
            notes.counts["feedback_without_message_id"] += 1
            continue
        ratings.setdefault(str(conversation), {})[str(message)] = entry.get("rating")
    notes.counts["feedback_entries"] = len(entries)
    return ratings


def _message_text(content: Any) -> str | None:
    """The visible text of a message's content: its string parts (an image part is `[image]`);
    None for content the user does not see as a reply (code sent to a tool, reasoning)."""
    if not isinstance(content, dict) or content.get("content_type") not in ("text", "multimodal_text"):
        return None
    parts = content.get("parts") or []
    return "\n".join(part if isinstance(part, str) else "[image]" for part in parts if part is not None)


def _branch(conversation: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages from the root to `current_node` (the branch the user last saw)."""
    mapping = conversation.get("mapping")
    if not isinstance(mapping, dict):
        raise ValueError("field 'mapping': missing or not an object (a ChatGPT export conversation has one)")
    node_id = conversation.get("current_node")
    if node_id is None:  # no pointer: the one leaf, if there is a single branch
        leaves = [k for k, v in mapping.items() if isinstance(v, dict) and not v.get("children")]
        if len(leaves) != 1:
            raise ValueError("field 'current_node': missing, and the message tree has several branches")
        node_id = leaves[0]
    messages: list[dict[str, Any]] = []
    seen: set[str] = set()
    while node_id is not None:
        node = mapping.get(node_id)
        if not isinstance(node, dict) or node_id in seen:
            problem = "a cycle" if node_id in seen else "a node that is not in 'mapping'"
            raise ValueError(
                f"field 'mapping': the branch of current_node leads to {problem} ({node_id!r:.60})"
            )
        seen.add(node_id)
        if isinstance(node.get("message"), dict):
            messages.append(node["message"])
        node_id = node.get("parent")
    return messages[::-1]


def chatgpt_conversation(
    conversation: dict[str, Any], ratings: Ratings, notes: ReaderNotes
) -> dict[str, Any]:
    """One export conversation as a plain `{cid, messages}` record: user and assistant messages
    of the current branch, consecutive messages of one role (a reply written around tool calls)
    joined, each carrying its rating."""
    cid = str(conversation.get("conversation_id") or conversation.get("id") or "")
    rated = ratings.get(cid, {})
    turns: list[dict[str, Any]] = []
    on_branch: set[str] = set()
    for message in _branch(conversation):
        role = (message.get("author") or {}).get("role")
        text = _message_text(message.get("content"))
        hidden = (message.get("metadata") or {}).get("is_visually_hidden_from_conversation")
        if (
            role not in ("user", "assistant")
            or text is None
            or hidden
            or message.get("recipient", "all") != "all"
        ):
            notes.counts[f"messages_skipped_{role or 'unknown'}"] += 1
            continue
        rating = rated.get(str(message.get("id")))
        on_branch.add(str(message.get("id")))
        if turns and turns[-1]["role"] == role:
            last = turns[-1]
            last["content"] = "\n\n".join(t for t in (last["content"], text) if t)
            if rating is not None:
                if last.get("feedback") not in (None, rating):
                    raise ValueError(f"message {message.get('id')}: two ratings on one reply")
                last["feedback"] = rating
            continue
        turns.append({"role": role, "content": text, "time": message.get("create_time"), "feedback": rating})
    notes.counts["feedback_off_branch"] += len(rated.keys() - on_branch)
    return {"cid": cid, "messages": turns}


def _chatgpt(path: Path, fields: Fields, notes: ReaderNotes) -> Iterator[RawRecord]:
    files = input_files(path, "chatgpt")
    data = _load_json(files[0])
    if not isinstance(data, list):
        raise DataError(
            f"{files[0]}: expected a JSON array of conversations (a ChatGPT export's {CHATGPT_FILE})"
        )
    ratings = _feedback(files[0].with_name(CHATGPT_FEEDBACK), notes)
    notes.shape = "ChatGPT export" + (
        f" with {CHATGPT_FEEDBACK}" if len(files) > 1 else f", no {CHATGPT_FEEDBACK}"
    )
    known = {str(c.get("conversation_id") or c.get("id")) for c in data if isinstance(c, dict)}
    notes.counts["feedback_unmatched"] = sum(len(v) for c, v in ratings.items() if c not in known)
    for number, conversation in enumerate(data, start=1):
        where, position = f"{files[0]}: conversation {number}", f"conversation {number}"
        if not isinstance(conversation, dict):
            yield RawRecord(where, position, None, f"expected an object, got {type(conversation).__name__}")
            continue
        try:
            yield RawRecord(where, position, chatgpt_conversation(conversation, ratings, notes))
        except ValueError as error:
            yield RawRecord(where, position, conversation, str(error))
