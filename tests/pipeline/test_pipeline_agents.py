"""Structured answers: pydantic validation with closed label sets, and the bounded re-ask."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.pipeline import CASE
from inspect_ai import eval
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model
from inspect_ai.tool import ToolChoice, ToolInfo

from uxbench.pipeline.read.files import read_rows, write_rows
from uxbench.pipeline.run.agentrun import export_logs
from uxbench.pipeline.run.mock import answer_for
from uxbench.pipeline.stages.agents import AnswerError, log_results, parse_answer
from uxbench.pipeline.stages.miner import pipeline_miner
from uxbench.pipeline.stages.schemas import FailureMining, JudgeScores, QAVerdict

ROLES = {"roles": ["user", "assistant", "user", "assistant"]}


def mining(**changes: Any) -> str:
    return json.dumps({"cases": [{**CASE, **changes}]}, ensure_ascii=False)


def test_valid_answer_in_prose_and_fences() -> None:
    answer = parse_answer(f"Here you go:\n```json\n{mining()}\n```", FailureMining, ROLES)
    assert answer.cases[0].dimension == "事实性错误"


def test_english_and_variant_labels_map_to_the_canonical_label() -> None:
    answer = parse_answer(
        mining(dimension="Factual Error", scenario="Information & Knowledge"), FailureMining, ROLES
    )
    assert (answer.cases[0].dimension, answer.cases[0].scenario) == ("事实性错误", "信息与知识查询")
    assert parse_answer(mining(dimension="事实错误"), FailureMining, ROLES).cases[0].dimension == "事实性错误"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"dimension": "Vibes"}, "cases.0.dimension"),
        ({"scenario": "旅游"}, "cases.0.scenario"),
        ({"failed_turn": 2}, "turn 2 has role user, expected assistant"),
        ({"failed_turn": 9}, "turn 9 does not exist"),
        ({"query_turn": 2, "failed_turn": 1}, "must come before"),
        ({"confidence": 1.5}, "cases.0.confidence"),
        ({"signal_confidence": "very"}, "cases.0.signal_confidence"),
    ],
)
def test_invalid_answers_say_what_is_wrong(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(AnswerError, match=message):
        parse_answer(mining(**changes), FailureMining, ROLES)


def test_not_json() -> None:
    with pytest.raises(AnswerError, match="no JSON object"):
        parse_answer("I think it is a factual error.", FailureMining)


def test_judge_scores_are_bounded_and_model_totals_ignored() -> None:
    scores = {"query_completeness": 5, "signal_credibility": 4, "representativeness": 4, "severity": 3}
    answer = parse_answer(
        json.dumps({**scores, "annotation_clarity": 4, "tier": "high", "total": 25}), JudgeScores
    )
    assert "tier" not in answer.model_dump()
    with pytest.raises(AnswerError, match="annotation_clarity"):
        parse_answer(json.dumps({**scores, "annotation_clarity": 6}), JudgeScores)


def test_qa_correction_must_come_from_the_label_set() -> None:
    verdict = {"verdict": "keep", "corrected_label": "Verbosity/Redundancy"}
    assert parse_answer(json.dumps(verdict), QAVerdict, {"track": "failure"}).corrected_label == "冗余啰嗦"
    with pytest.raises(AnswerError, match="not in the label set"):
        parse_answer(json.dumps({**verdict, "corrected_label": "冗余啰嗦"}), QAVerdict, {"track": "success"})


def item_file(tmp_path: Path) -> Path:
    turns = [
        {"role": "user", "text": "北京明天天气怎么样，要带伞吗？", "time": None, "feedback": None},
        {"role": "assistant", "text": "上海明天晴。", "time": None, "feedback": "disliked"},
        {"role": "user", "text": "不对，我问的是北京", "time": None, "feedback": None},
        {"role": "assistant", "text": "北京明天有雨，记得带伞。", "time": None, "feedback": "liked"},
    ]
    reactions = [
        {
            "turn": 1,
            "reaction": "complain",
            "reply_to": 0,
            "next_user": 2,
            "similarity": None,
            "praise": False,
            "interrupted": False,
        },
        {
            "turn": 3,
            "reaction": "no_followup",
            "reply_to": 2,
            "next_user": None,
            "similarity": None,
            "praise": False,
            "interrupted": False,
        },
    ]
    signals = {
        "tracks": ["failure", "success"],
        "liked": [3],
        "disliked": [1],
        "reactions": reactions,
        "recoveries": [],
    }
    path = tmp_path / "prefiltered.jsonl"
    write_rows(path, [{"cid": "c1", "turns": turns, "signals": signals}])
    return path


def scripted(answers: list[str]) -> tuple[Any, list[list[ChatMessage]]]:
    """A mock model giving the scripted first answers, then valid ones; records every request."""
    seen: list[list[ChatMessage]] = []
    queue = list(answers)

    def generate(
        input: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        seen.append(list(input))
        text = queue.pop(0) if queue and "FAILURE" in input[0].text else json.dumps(answer_for(input[0].text))
        return ModelOutput.from_content("mock", text)

    return get_model("mockllm/model", custom_outputs=generate), seen


@pytest.mark.integration
def test_reask_with_the_validation_error(tmp_path: Path) -> None:
    model, seen = scripted(["not json at all", mining(dimension="Vibes")])
    log = eval(
        pipeline_miner(input=str(item_file(tmp_path))),
        model=model,
        display="none",
        log_dir=str(tmp_path / "logs"),
    )[0]
    assert log.status == "success"
    failure = next(r for r in log_results(log) if r["id"] == "c1#failure")
    assert failure["attempts"] == 3
    assert failure["result"]["cases"][0]["failed_turn"] == 1
    assert "no JSON object" in failure["errors"][0] and "dimension" in failure["errors"][1]
    third = next(m for m in seen if len(m) == 5)
    assert "Your answer could not be used" in third[-1].text and "dimension" in third[-1].text
    sample = next(s for s in log.samples if s.id == "c1#failure")
    assert sample.scores["valid_answer"].metadata["result"] == failure["result"]


@pytest.mark.integration
def test_invalid_after_the_bounded_attempts_is_counted_not_retried(tmp_path: Path) -> None:
    model, seen = scripted(["nope"] * 5)
    task = pipeline_miner(input=str(item_file(tmp_path)), max_attempts=2)
    log = eval(task, model=model, display="none", log_dir=str(tmp_path / "logs"))[0]
    assert log.status == "success"
    assert sum("FAILURE" in m[0].text for m in seen) == 2
    out = tmp_path / "mined.jsonl"
    counts = export_logs([log.location], out)
    assert counts["invalid_failure"] == 1 and counts["cases_success"] == 1
    assert [row["id"] for row in read_rows(out)] == ["c1#success#0"]
