"""The raw-log input format: both spellings, feedback flags, times, and bad lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from uxbench.pipeline.read.rawlog import ReadReport, parse_conversation, parse_time, read_raw_log
from uxbench.runtime.errors import DataError

PRODUCTION = {
    "cid": "c1",
    "turns": [
        {
            "turn_index": 1,
            "role": "assistant",
            "message": "答案",
            "create_time": "2025-01-01 10:00:05",
            "is_unliked": 1,
        },
        {
            "turn_index": 0,
            "role": "user",
            "message": "问题",
            "create_time": "2025-01-01 10:00:00",
            "is_unliked": 0,
        },
    ],
}
PLAIN = {
    "cid": "c2",
    "messages": [
        {"role": "user", "content": "question"},
        {"role": "assistant", "content": '{"content": "answer"}', "feedback": "liked"},
    ],
}


def write(tmp_path: Path, lines: list[object]) -> Path:
    path = tmp_path / "raw.jsonl"
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


def test_production_spelling_is_ordered_by_turn_index() -> None:
    conversation = parse_conversation(PRODUCTION)
    assert [t.role for t in conversation.turns] == ["user", "assistant"]
    assert conversation.turns[1].feedback == "disliked"
    assert conversation.turns[1].time - conversation.turns[0].time == 5.0


def test_plain_spelling_and_json_encoded_text() -> None:
    conversation = parse_conversation(PLAIN)
    assert conversation.turns[1].text == "answer"
    assert conversation.turns[1].feedback == "liked"
    assert conversation.turns[0].time is None


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("2025-01-01 00:00:00", 1735689600.0), (1735689600, 1735689600.0), (1735689600000, 1735689600.0)],
)
def test_times(value: object, seconds: float) -> None:
    assert parse_time(value) == seconds


@pytest.mark.integration
@pytest.mark.parametrize(
    ("turn", "problem"),
    [
        ({"role": "robot", "content": "x"}, "unknown role"),
        ({"role": "user"}, "has no text"),
        ({"role": "assistant", "content": "x", "feedback": "meh"}, "unknown value"),
        ({"role": "assistant", "content": "x", "is_liked": 1, "is_unliked": 1}, "both liked and disliked"),
        ({"role": "user", "content": "x", "feedback": "liked"}, "only assistant turns are rated"),
        ({"role": "user", "content": "x", "create_time": "yesterday"}, "not a time"),
    ],
)
def test_bad_lines_name_the_line_and_field(tmp_path: Path, turn: dict, problem: str) -> None:
    path = write(tmp_path, [PLAIN, {"cid": "bad", "messages": [turn]}])
    with pytest.raises(DataError) as error:
        list(read_raw_log(path))
    assert f"{path}:2 (cid bad)" in str(error.value)
    assert problem in str(error.value)


@pytest.mark.integration
def test_skip_bad_counts(tmp_path: Path) -> None:
    path = write(tmp_path, [PRODUCTION, "{not json", {"no": "cid"}, PLAIN])
    report = ReadReport()
    conversations = list(read_raw_log(path, skip_bad=True, report=report))
    assert [c.cid for c in conversations] == ["c1", "c2"]
    assert (report.lines, report.conversations, len(report.skipped)) == (4, 2, 2)
    assert ":2 " in report.skipped[0] and ":3 " in report.skipped[1]
