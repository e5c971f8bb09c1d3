"""Half a character (a lone surrogate, JSON `\\ud83d`) is stopped at the boundary.

In a record or a pipeline raw-log conversation: a record error naming file, line, cid and field
before any model is asked (or, with `skip_bad`, a counted skip). Before this change such a
record loaded, the model under test was paid for its reply, and the grader request could not be
encoded (every sample errored); a raw-log line crashed the pipeline's digest with a traceback.
In a model's reply or a grader's answer: U+FFFD, counted in the score's metadata, the sample
graded.
"""

import json
from pathlib import Path

import pytest
from helpers.grm import eval_records, grade_reply, recovery_records
from helpers.rawserver import Raw, RawServer, chat_body, label_tokens
from helpers.records import judge_records
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, get_model
from pydantic import BaseModel

from uxbench.data.dataset import RELEASE_FILES, load_samples
from uxbench.data.templates import builtin_path, load_template
from uxbench.pipeline.read.rawlog import ReadReport, read_raw_log
from uxbench.pipeline.stages.agents import structured_answer, valid_answer
from uxbench.pipeline.stages.rows import SignalRow, check_row
from uxbench.runtime.errors import DataError
from uxbench.scorers.judge_verdict import judge_verdict

HALF = "\ud83d"  # the first half of 😀 (U+1F600) alone
PROBLEM = "holds half of a character (a lone surrogate U+D83D at character {at}); the text was cut inside"


def write(directory: Path, config: str, records: list[dict]) -> Path:
    """The records as JSONL the way JavaScript writes them: a lone surrogate as the escape \\ud83d."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / RELEASE_FILES[config]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def cut(records: list[dict], index: int, change) -> list[dict]:
    records[index] = change(dict(records[index]))
    return records


def with_history(record: dict, text: str) -> dict:
    return {**record, "history": [{"role": "user", "content": text}, {"role": "assistant", "content": "好"}]}


# (case, task config, records, line, cid, field, character)
RECORD_CASES = [
    ("Task 2 query", "task2_eval",
     cut(eval_records(3), 1, lambda r: {**r, "query": "你好" + HALF}), 2, "uxbench_ux_eval_0001", "query", 2),
    ("Task 2 history turn", "task2_eval",
     cut(eval_records(3), 0, lambda r: with_history(r, HALF + "早")), 1, "uxbench_ux_eval_0000",
     "history[0].content", 0),
    ("Task 2 label", "task2_eval",
     cut(eval_records(3), 2, lambda r: {**r, "scenario": "办公" + HALF}), 3, "uxbench_ux_eval_0002",
     "labels.scenario", 2),
    ("Task 2 history as a JSON string", "task2_eval",
     cut(eval_records(2), 0, lambda r: {**r, "history": json.dumps([{"role": "user", "content": "a" + HALF}])}
         ),
     1, "uxbench_ux_eval_0000", "history[0].content", 1),
    ("Task 3 failed reply", "task3_recovery",
     cut(recovery_records(2), 1, lambda r: {**r, "failed_response": "失败" + HALF + "了"}), 2,
     "uxbench_ux_recovery_0001", "failed_response", 2),
    ("Task 3 complaint", "task3_recovery",
     cut(recovery_records(2), 0, lambda r: {**r, "user_complaint": HALF}), 1, "uxbench_ux_recovery_0000",
     "complaint", 0),
    ("Task 1 judged reply", "task1_judge_good",
     cut(judge_records(2, 0)[0], 1, lambda r: {**r, "response": "GOOD" + HALF}), 2, "uxbench_ux_judge_0001",
     "response", 4),
]  # fmt: skip


def task_of(config: str) -> str:
    return config[: len("taskN")]


@pytest.mark.parametrize(("case", "config", "records", "line", "cid", "field", "at"), RECORD_CASES)
def test_a_record_with_half_a_character_is_a_record_error(
    tmp_path: Path, case: str, config: str, records: list[dict], line: int, cid: str, field: str, at: int
) -> None:
    path = write(tmp_path / "data", config, records)
    if config == "task1_judge_good":
        write(tmp_path / "data", "task1_judge_bad", judge_records(0, 1)[1])
    template = load_template(builtin_path("judge_default.txt")) if config.startswith("task1") else None
    with pytest.raises(DataError) as caught:
        load_samples(task_of(config), str(tmp_path / "data"), template=template)
    message = str(caught.value.message)
    assert message.startswith(f"{path}:{line} (cid {cid}): field '{field}': {PROBLEM.format(at=at)}")


def test_skip_bad_counts_the_record_with_half_a_character(tmp_path: Path) -> None:
    records = cut(eval_records(4), 2, lambda r: {**r, "query": HALF})
    write(tmp_path / "data", "task2_eval", records)
    samples, report = load_samples("task2", str(tmp_path / "data"), skip_bad=True)
    assert len(samples) == 3 and report.records == 3 and len(report.skipped) == 1
    assert "(cid uxbench_ux_eval_0002): field 'query': holds half of a character" in report.skipped[0]


# ---------------------------------------------------------------- model replies and grader answers


def graded(tmp_path: Path, reply: str, answer: str) -> tuple[dict, list[dict]]:
    """One sample: the model under test says `reply`, the grader at the raw server answers `answer`."""
    with RawServer(lambda _: Raw(chat_body(answer, label_tokens("好", -0.1, -2.3)))) as server:
        grader = get_model("openai-api/raw/grader", base_url=server.url, api_key="test", memoize=False)
        log = grade_reply(tmp_path, grader, reply)
        assert log.status == "success", log.error
        return log.samples[0].scores["grm"].metadata, server.requests


@pytest.mark.integration
@pytest.mark.parametrize(
    ("case", "reply", "answer", "replaced", "answer_replaced", "raw"),
    [
        ("half a character in the reply", "回复" + HALF, "好", 1, 0, "好"),
        ("two in the reply", HALF + "回复" + HALF, "好", 2, 0, "好"),
        ("half a character in the grader's answer", "回复", "好" + HALF, 0, 1, "好\ufffd"),
    ],
)
def test_half_a_character_in_a_reply_is_replaced_and_counted(
    tmp_path: Path, case: str, reply: str, answer: str, replaced: int, answer_replaced: int, raw: str
) -> None:
    meta, requests = graded(tmp_path, reply, answer)
    assert meta["verdict"] == "good" and meta["raw"] == raw
    assert (meta["replaced_surrogates"], meta["answer_replaced_surrogates"]) == (replaced, answer_replaced)
    assert len(requests) == 1 and str(requests[0]["messages"]).count("\ufffd") == replaced


@pytest.mark.integration
def test_half_a_character_in_a_judge_answer_is_replaced_and_counted(tmp_path: Path) -> None:
    model = get_model("mockllm/model", custom_outputs=[ModelOutput.from_content("mockllm", "好" + HALF)])
    [log] = eval(
        Task(dataset=[Sample(id=1, input="问题", target="good")], scorer=judge_verdict()),
        model=model,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    score = log.samples[0].scores["judge_verdict"]
    assert score.answer == "good" and score.metadata["raw"] == "好\ufffd"
    assert score.metadata["replaced_surrogates"] == 1


# ---------------------------------------------------------------- the pipeline's raw log


def raw_log(tmp_path: Path, text: str) -> Path:
    lines = [
        {
            "cid": "c1",
            "messages": [{"role": "user", "content": "问题"}, {"role": "assistant", "content": "答"}],
        },
        {
            "cid": "c2",
            "messages": [{"role": "user", "content": "问"}, {"role": "assistant", "content": text}],
        },
    ]
    path = tmp_path / "raw.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.integration
def test_a_raw_log_conversation_with_half_a_character_is_a_record_error(tmp_path: Path) -> None:
    path = raw_log(tmp_path, "回答" + HALF)
    with pytest.raises(DataError) as caught:
        list(read_raw_log(path))
    assert str(caught.value.message).startswith(
        f"{path}:2 (cid c2): field 'turns[1].text': {PROBLEM.format(at=2)}"
    )


@pytest.mark.integration
def test_skip_bad_counts_the_raw_log_conversation_with_half_a_character(tmp_path: Path) -> None:
    report = ReadReport()
    kept = list(read_raw_log(raw_log(tmp_path, HALF), skip_bad=True, report=report))
    assert [c.cid for c in kept] == ["c1"] and (report.conversations, len(report.skipped)) == (1, 1)


# ---------------------------------------------------------------- pipeline stage rows and agent answers


@pytest.mark.parametrize(
    ("case", "row", "field"),
    [
        ("a row's text", {"cid": "c1", "text": "好" + HALF}, "text"),
        ("a nested turn", {"cid": "c1", "turns": [{"role": "user", "text": HALF}]}, "turns[0].text"),
        ("a field's name", {"cid": "c1", HALF: 1}, "\\ud83d (its name)"),
    ],
)
def test_a_stage_row_with_half_a_character_names_file_line_cid_and_field(
    case: str, row: dict, field: str
) -> None:
    with pytest.raises(DataError) as caught:
        check_row("stage.jsonl", 3, row, SignalRow)
    at = 1 if case == "a row's text" else 0
    expected = f"stage.jsonl:3 (cid c1): field '{field}': {PROBLEM.format(at=at)}"
    assert str(caught.value.message).startswith(expected)


class Answer(BaseModel):
    reason: str


@pytest.mark.integration
@pytest.mark.parametrize(
    ("case", "answer", "replaced"),
    [
        ("a literal half character", '{"reason": "好' + HALF + '"}', 1),
        ("a JSON escape for one", '{"reason": "好\\ud83d"}', 1),
    ],
)
def test_a_pipeline_agent_answer_with_half_a_character_is_replaced_and_counted(
    tmp_path: Path, case: str, answer: str, replaced: int
) -> None:
    model = get_model("mockllm/model", custom_outputs=[ModelOutput.from_content("mockllm", answer)])
    task = Task(
        dataset=[Sample(id=1, input="问题", metadata={"item": {}})],
        solver=structured_answer(lambda _: Answer, lambda _: {}),
        scorer=valid_answer(),
    )
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    meta = log.samples[0].scores["valid_answer"].metadata
    assert meta["result"] == {"reason": "好\ufffd"} and meta["replaced_surrogates"] == replaced
