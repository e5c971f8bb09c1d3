"""Inputs people have: ChatGPT exports, LMSYS / WildChat / ShareGPT rows, per-turn CSV and Parquet,
.jsonl.gz, a --map file, ratings the reader does not know, and `pipeline inspect`. Every input is
written here by the tests (small synthetic files in each shape)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.pipeline import write_csv

from uxbench.cli import main
from uxbench.pipeline.read.mapping import load_mapping
from uxbench.pipeline.read.rawlog import ReadReport, read_raw_log
from uxbench.runtime.errors import DataError

Row = dict[str, Any]


def read(path: Path, mapping: Path | None = None, skip_bad: bool = False) -> tuple[list[Any], ReadReport]:
    report = ReadReport()
    conversations = list(read_raw_log(path, skip_bad, report, load_mapping(mapping)))
    return conversations, report


def shape(conversation: Any) -> list[tuple[str, str, str | None]]:
    return [(t.role, t.text, t.feedback) for t in conversation.turns]


def write_jsonl(path: Path, rows: list[Row]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


# ---------------------------------------------------------------- ChatGPT data export


def node(
    nid: str, parent: str | None, children: list[str], role: str | None, text: Any = "", **extra: Any
) -> Row:
    message = None
    if role is not None:
        content = text if isinstance(text, dict) else {"content_type": "text", "parts": [text]}
        message = {
            "id": nid,
            "author": {"role": role},
            "create_time": 1735689600.0,
            "content": content,
            **extra,
        }
    return {"id": nid, "parent": parent, "children": children, "message": message}


def export_conversation() -> Row:
    """root → system → user → (old reply | new reply → tool call → tool → reply part 2) → user → reply."""
    mapping = [
        node("root", None, ["sys"], None),
        node("sys", "root", ["u1"], "system", ""),
        node("u1", "sys", ["a-old", "a1"], "user", "北京明天天气怎么样？"),
        node("a-old", "u1", [], "assistant", "上海明天晴。"),
        node("a1", "u1", ["call"], "assistant", "我查一下。"),
        node(
            "call",
            "a1",
            ["tool"],
            "assistant",
            {"content_type": "code", "text": "search('北京')"},
            recipient="browser",
        ),
        node("tool", "call", ["a1b"], "tool", "北京：小雨"),
        node("a1b", "tool", ["u2"], "assistant", "北京明天有小雨。"),
        node(
            "u2",
            "a1b",
            ["a2"],
            "user",
            {"content_type": "multimodal_text", "parts": [{"asset": "x"}, "这张图里是哪？"]},
        ),
        node("a2", "u2", [], "assistant", "看起来是故宫。"),
    ]
    return {
        "conversation_id": "conv-1",
        "title": "天气",
        "current_node": "a2",
        "mapping": {n["id"]: n for n in mapping},
    }


@pytest.fixture
def export_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "export"
    folder.mkdir()
    second = {
        "conversation_id": "conv-2",
        "current_node": "b",
        "mapping": {"a": node("a", None, ["b"], "user", "hi"), "b": node("b", "a", [], "assistant", "hello")},
    }
    (folder / "conversations.json").write_text(
        json.dumps([export_conversation(), second], ensure_ascii=False)
    )
    feedback = [
        {"id": "f1", "conversation_id": "conv-1", "message_id": "a1b", "rating": "thumbsUp"},
        {"id": "f2", "conversation_id": "conv-1", "message_id": "a2", "rating": "thumbsDown"},
        {"id": "f3", "conversation_id": "conv-1", "message_id": "a-old", "rating": "thumbsDown"},
        {"id": "f4", "conversation_id": "conv-9", "message_id": "zz", "rating": "thumbsUp"},
    ]
    (folder / "message_feedback.json").write_text(json.dumps(feedback))
    return folder


def test_chatgpt_export_follows_the_current_branch_with_its_ratings(export_dir: Path) -> None:
    for path in (export_dir, export_dir / "conversations.json"):
        conversations, report = read(path)
        assert [c.cid for c in conversations] == ["conv-1", "conv-2"]
        assert shape(conversations[0]) == [
            ("user", "北京明天天气怎么样？", None),
            (
                "assistant",
                "我查一下。\n\n北京明天有小雨。",
                "liked",
            ),  # the reply around the tool call, joined
            ("user", "[image]\n这张图里是哪？", None),
            ("assistant", "看起来是故宫。", "disliked"),
        ]
        assert conversations[0].turns[0].time == 1735689600.0
        assert report.format == "chatgpt" and "message_feedback.json" in report.notes.shape
        assert report.notes.counts["feedback_off_branch"] == 1
        assert report.notes.counts["feedback_unmatched"] == 1
        warnings = report.warnings(load_mapping(None))
        assert any("1 ratings of messages on branches the user left" in w for w in warnings)
        assert any("1 ratings of conversations not in the export" in w for w in warnings)


def test_chatgpt_export_without_feedback_file_and_broken_trees(tmp_path: Path) -> None:
    broken = {
        "conversation_id": "bad",
        "current_node": "x",
        "mapping": {"x": node("x", "gone", [], "user", "q")},
    }
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([export_conversation(), broken]))
    with pytest.raises(
        DataError, match=r"conversation 2 \(cid bad\): field 'mapping': the branch .* not in 'mapping'"
    ):
        read(path)
    conversations, report = read(path, skip_bad=True)
    assert [c.cid for c in conversations] == ["conv-1"] and len(report.skipped) == 1
    assert all(t.feedback is None for t in conversations[0].turns)
    assert report.notes.counts["feedback_file_missing"] == 1


# ---------------------------------------------------------------- rows of public chat datasets


def test_lmsys_wildchat_and_sharegpt_rows(tmp_path: Path) -> None:
    rows = [
        {  # LMSYS-Chat-1M
            "conversation_id": "lmsys-1",
            "model": "vicuna-13b",
            "conversation": [
                {"role": "user", "content": "What is 2+2?"},
                {"role": "assistant", "content": "5", "feedback": "thumbs_down"},
            ],
            "turn": 1,
            "language": "English",
        },
        {  # WildChat: conversation_hash, per-turn extra keys, ISO timestamps
            "conversation_hash": "wc-1",
            "conversation": [
                {
                    "role": "user",
                    "content": "Hola",
                    "timestamp": "2024-01-01T10:00:00+00:00",
                    "toxic": False,
                    "turn_identifier": 7,
                },
                {
                    "role": "assistant",
                    "content": "¡Hola!",
                    "timestamp": "2024-01-01T10:00:04+00:00",
                    "feedback": "up",
                },
            ],
        },
        {  # ShareGPT
            "id": "sg-1",
            "conversations": [
                {"from": "human", "value": "hi"},
                {"from": "gpt", "value": "hello", "feedback": "liked"},
            ],
        },
    ]
    path = tmp_path / "public.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows).encode()))
    conversations, report = read(path)
    assert [c.cid for c in conversations] == ["lmsys-1", "wc-1", "sg-1"]
    assert [shape(c)[1][2] for c in conversations] == ["disliked", "liked", "liked"]
    assert conversations[1].turns[1].time - conversations[1].turns[0].time == 4.0
    assert report.tally.roles == {"user": 3, "assistant": 3}
    assert not report.tally.rating_like  # toxic, turn_identifier, language: not ratings


# ---------------------------------------------------------------- per-turn tables


TURN_ROWS = [
    {
        "session": "s1",
        "seq": "1",
        "speaker": "agent",
        "utterance": "上海明天晴。",
        "ts": "1735689605",
        "stars": "1",
    },
    {
        "session": "s1",
        "seq": "0",
        "speaker": "customer",
        "utterance": "北京明天天气？",
        "ts": "1735689600",
        "stars": "",
    },
    {
        "session": "s2",
        "seq": "0",
        "speaker": "customer",
        "utterance": "Merge two cells?",
        "ts": "",
        "stars": "",
    },
    {"session": "s2", "seq": "1", "speaker": "agent", "utterance": "Use =A1&B1.", "ts": "", "stars": "5"},
    {"session": "s1", "seq": "2", "speaker": "customer", "utterance": "不对", "ts": "", "stars": ""},
]
STAR_MAP = """
id: session
role: speaker
text: utterance
time: ts
order: seq
rating: stars
roles:
  user: [customer]
  assistant: [agent]
ratings:
  liked: [4, 5]
  disliked: [1, 2]
  none: [3]
"""


def test_per_turn_csv_with_a_map_groups_and_orders_turns(tmp_path: Path) -> None:
    mapping = tmp_path / "map.yaml"
    mapping.write_text(STAR_MAP)
    conversations, report = read(write_csv(tmp_path / "turns.csv", TURN_ROWS), mapping)
    assert [c.cid for c in conversations] == ["s1", "s2"]
    assert shape(conversations[0]) == [
        ("user", "北京明天天气？", None),
        ("assistant", "上海明天晴。", "disliked"),
        ("user", "不对", None),
    ]
    assert conversations[0].turns[1].time == 1735689605.0
    assert shape(conversations[1])[1][2] == "liked"
    assert report.tally.ratings == {("stars", "1", "disliked"): 1, ("stars", "5", "liked"): 1}


@pytest.mark.integration
def test_per_turn_csv_without_a_map_reports_the_rating_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {
            "cid": r["session"],
            "turn_index": r["seq"],
            "role": r["speaker"].replace("agent", "assistant").replace("customer", "user"),
            "content": r["utterance"],
            "stars": r["stars"],
        }
        for r in TURN_ROWS
    ]
    path = write_csv(tmp_path / "turns.csv", rows)
    code = main(["pipeline", "signals", str(path), "--out", str(tmp_path / "s.jsonl")])
    err = capsys.readouterr().err
    assert code == 1
    assert "none of its 2 conversations has a rated reply" in err
    assert "fields that look like ratings were not read: `stars` (2)" in err and "--map" in err


def test_unknown_rating_value_names_the_row_and_the_map(tmp_path: Path) -> None:
    mapping = tmp_path / "map.yaml"
    mapping.write_text(STAR_MAP)
    rows = [dict(r) for r in TURN_ROWS]
    rows[3]["stars"] = "meh"
    with pytest.raises(DataError) as error:
        read(write_csv(tmp_path / "turns.csv", rows), mapping)
    assert (
        f"{tmp_path / 'turns.csv'}:4 (cid s2): field 'row 5.stars': unknown value 'meh'; {mapping} lists"
        in str(error.value)
    )


def test_parquet_per_turn_and_per_conversation(tmp_path: Path) -> None:
    per_turn = tmp_path / "turns.parquet"
    pq.write_table(
        pa.Table.from_pylist(
            [
                {"cid": "p1", "role": "user", "content": "q", "feedback": None},
                {"cid": "p1", "role": "assistant", "content": "a", "feedback": "-1"},
            ]
        ),
        per_turn,
    )
    per_conversation = tmp_path / "conversations.parquet"
    pq.write_table(
        pa.Table.from_pylist(
            [
                {
                    "conversation_hash": "w1",
                    "conversation": [
                        {"role": "user", "content": "q", "rating": None},
                        {"role": "assistant", "content": "a", "rating": 1},
                    ],
                },
            ]
        ),
        per_conversation,
    )
    mapping = tmp_path / "map.yaml"
    mapping.write_text("rating: rating\nratings: {liked: [1], disliked: [-1]}\n")
    (first,), _ = read(per_turn)
    (second,), report = read(per_conversation, mapping)
    assert shape(first)[1] == ("assistant", "a", "disliked")
    assert shape(second)[1] == ("assistant", "a", "liked")
    assert report.notes.shape == "one conversation per row"


def test_conversation_level_rating_rates_the_last_reply(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "raw.jsonl",
        [
            {
                "cid": "c1",
                "feedback": "disliked",
                "messages": [
                    {"role": "user", "content": "q"},
                    {"role": "assistant", "content": "a"},
                    {"role": "user", "content": "q2"},
                    {"role": "assistant", "content": "a2"},
                ],
            },
        ],
    )
    (conversation,), _ = read(path)
    assert [t.feedback for t in conversation.turns] == [None, None, None, "disliked"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("speaker: [1]\n", "unknown keys speaker"),
        ("role: 3\n", "`role` must name a field"),
        ("ratings: {liked: [1], disliked: [1]}\n", "value 1 is listed under two meanings"),
        ("ratings: {great: [1]}\n", "unknown meaning"),
        ("format: xml\n", "`format` must be"),
        ("[1, 2\n", "not a YAML file"),
    ],
)
def test_bad_map_files(tmp_path: Path, text: str, problem: str) -> None:
    mapping = tmp_path / "map.yaml"
    mapping.write_text(text)
    with pytest.raises(DataError, match="--map") as error:
        load_mapping(mapping)
    assert problem in str(error.value)


# ---------------------------------------------------------------- uxbench pipeline inspect


@pytest.mark.integration
def test_inspect_prints_what_a_run_would_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mapping = tmp_path / "map.yaml"
    mapping.write_text(STAR_MAP)
    rows = [
        *TURN_ROWS,
        {"session": "", "seq": "0", "speaker": "customer", "utterance": "x", "ts": "", "stars": ""},
    ]
    path = write_csv(tmp_path / "turns.csv", rows)
    assert main(["pipeline", "inspect", str(path), "--map", str(mapping)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: csv, one turn per row" in out
    assert "conversations: 2 read, 1 bad" in out
    assert "rated: 2 (1 with a liked reply, 1 with a disliked one), unrated: 0" in out
    assert "turns: 5 (user 3, assistant 2)" in out
    assert "stars = '1' → disliked: 1" in out and "stars = '5' → liked: 1" in out
    assert f"{path}:7 (cid ?): no conversation id (session)" in out

    assert main(["pipeline", "inspect", str(path)]) == 1  # built-in names: nothing is read
    out = capsys.readouterr().out
    assert "error: no conversation has a rated reply" in out
