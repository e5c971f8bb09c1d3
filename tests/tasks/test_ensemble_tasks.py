"""Grader panels and `history=drop` end to end, with mockllm graders."""

from pathlib import Path

import pytest
from helpers.grm import grader_output, metric_values, record_number, write_data
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from uxbench.runtime.errors import DataError
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

pytestmark = pytest.mark.integration


def writer(seen: list[list[ChatMessage]] | None = None):
    def reply(messages: list[ChatMessage], *_) -> ModelOutput:
        if seen is not None:
            seen.append(messages)
        return ModelOutput.from_content("mockllm", f"回复 #{record_number(messages[-1].text)}#")

    return get_model("mockllm/model", custom_outputs=reply)


def grader(answer, prompts: list[str] | None = None):
    def respond(messages: list[ChatMessage], *_) -> ModelOutput:
        if prompts is not None:
            prompts.append(messages[-1].text)
        return answer(record_number(messages[-1].text))

    return get_model("mockllm/model", custom_outputs=respond)


def approver():
    """好 with score 0.9 for every reply."""
    return grader(lambda n: grader_output("好", 0.9, 0.1))


def picky():
    """好 (score 0.8) on even records, 差 (score 0.05) on odd ones."""
    return grader(lambda n: grader_output("好", 0.8, 0.2) if n % 2 == 0 else grader_output("差", 0.05, 0.95))


def test_two_graders(tmp_path: Path) -> None:
    data = write_data(tmp_path, task2=4)
    roles = {"grader": approver(), "grader_2": picky()}
    [log] = eval(task2_eval(data=str(data)), model=writer(), model_roles=roles, display="none")
    assert log.status == "success", log.error
    values = metric_values(log)
    # odd records: a 1–1 tie, mean score (0.9 + 0.05) / 2 < 0.5 → bad; even: both good
    assert values["good_pct"] == 0.5
    assert values["score_mean"] == pytest.approx((0.85 + 0.475) / 2)
    assert values["grader_good_pct:grader"] == 1.0 and values["grader_good_pct:grader_2"] == 0.5
    # κ: p_o = 1/2 = p_e → 0; α: 8 ratings (6 good, 2 bad), D_o = 4/8, D_e = 24/56 → 1 − 7/6
    assert values["grader_kappa"] == pytest.approx(0.0)
    assert values["grader_alpha"] == pytest.approx(-1 / 6)
    assert values["grader_unanimous"] == 0.5
    score = log.samples[1].scores["grm"]
    assert [g["role"] for g in score.metadata["graders"]] == ["grader", "grader_2"]
    assert [g["verdict"] for g in score.metadata["graders"]] == ["good", "bad"]
    assert score.metadata["verdict"] == "bad" and score.metadata["logprobs"] is True
    assert "panel of 2 → bad" in score.explanation


def test_one_grader_output_is_unchanged(tmp_path: Path) -> None:
    data = write_data(tmp_path, task2=2)
    [log] = eval(task2_eval(data=str(data)), model=writer(), model_roles={"grader": picky()}, display="none")
    values = metric_values(log)
    assert not any(name.startswith("grader_") for name in values)
    assert "graders" not in log.samples[0].scores["grm"].metadata


def test_panel_grades_the_failed_reply_too(tmp_path: Path) -> None:
    data = write_data(tmp_path, task3=2)
    roles = {"grader": approver(), "grader_2": picky(), "grader_3": picky()}
    [log] = eval(
        task3_recovery(data=str(data), baseline=True), model=writer(), model_roles=roles, display="none"
    )
    assert log.status == "success", log.error
    meta = log.samples[1].scores["grm"].metadata
    assert meta["verdict"] == "bad" and len(meta["graders"]) == 3  # 2 of 3 say bad
    assert meta["baseline_verdict"] == "bad" and len(meta["baseline_graders"]) == 3
    assert "grader_kappa" not in metric_values(log)


def test_history_drop(tmp_path: Path) -> None:
    data = write_data(tmp_path, task2=2)
    seen: list[list[ChatMessage]] = []
    prompts: list[str] = []
    task = task2_eval(data=str(data), history="drop", system_prompt="helpful")
    [log] = eval(
        task, model=writer(seen), model_roles={"grader": grader(lambda n: grader_output("好", 0.9), prompts)}
    )
    assert log.status == "success", log.error
    assert all([m.role for m in messages] == ["system", "user"] for messages in seen)
    assert all("早先的回答" in prompt for prompt in prompts)  # the grader still sees the earlier turns
    assert log.eval.metadata["history"] == "drop"
    with pytest.raises(DataError, match="history="):
        task2_eval(data=str(data), history="forget")
