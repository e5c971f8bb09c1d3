"""Task 2 · UX Eval end to end with mockllm (model under test and a grader with logprobs)."""

from pathlib import Path

import pytest
from helpers.grm import grader_output, metric_values, record_number, write_data
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from uxbench.runtime.errors import DataError
from uxbench.tasks.task2_eval import task2_eval


def model_under_test(seen: list[list[ChatMessage]] | None = None):
    """Replies 'GOOD #N#' to even-numbered queries and 'BAD #N#' to odd ones."""

    def reply(messages: list[ChatMessage], *_) -> ModelOutput:
        if seen is not None:
            seen.append(messages)
        n = record_number(messages[-1].text)
        return ModelOutput.from_content("mockllm", f"{'GOOD' if n % 2 == 0 else 'BAD'} #{n}#")

    return get_model("mockllm/model", custom_outputs=reply)


def grader(prompts: list[str] | None = None):
    """好 (P 0.6 / 0.3) for GOOD replies, 差 (P 0.1 / 0.8) for BAD ones."""

    def answer(messages: list[ChatMessage], *_) -> ModelOutput:
        prompt = messages[-1].text
        if prompts is not None:
            prompts.append(prompt)
        return grader_output("好", 0.6, 0.3) if "GOOD #" in prompt else grader_output("差", 0.1, 0.8)

    return get_model("mockllm/model", custom_outputs=answer)


@pytest.mark.integration
def test_eval_with_mockllm(tmp_path: Path) -> None:
    data = write_data(tmp_path, task2=8)
    prompts: list[str] = []
    [log] = eval(
        task2_eval(data=str(data)),
        model=model_under_test(),
        model_roles={"grader": grader(prompts)},
        display="none",
    )
    assert log.status == "success", log.error
    values = metric_values(log)
    good, bad = 0.6 / 0.9, 0.1 / 0.9  # §5 by hand: P(好) / (P(好) + P(差))
    assert values["good_pct"] == 0.5 and values["good_pct_valid"] == 0.5 and values["fail_rate"] == 0.0
    assert values["score_mean"] == pytest.approx((good + bad) / 2)
    assert values["score_median"] == pytest.approx((good + bad) / 2)
    assert values["good_score_mean"] == pytest.approx(good) and values["bad_score_mean"] == pytest.approx(bad)
    assert values["good_pct_stderr"] == pytest.approx((0.25 / 8) ** 0.5)
    assert values["no_logprob_rate"] == 0.0
    # records 0, 4 are easy (even: good); 1, 5 medium (odd: bad)
    assert values["difficulty:easy"] == 1.0 and values["difficulty:medium"] == 0.0
    assert values["failure_dimension:冗余啰嗦"] == 1.0 and "scenario:办公与效率" in values

    score = log.samples[0].scores["grm"]
    assert score.value == 1 and score.answer.startswith("good: ") and "→ good" in score.explanation
    meta = score.metadata
    assert meta["verdict"] == "good" and meta["score"] == pytest.approx(good) and meta["raw"] == "好"
    assert meta["logprob_good"] == pytest.approx(-0.5108, abs=1e-4) and meta["rung"] == 0
    assert meta["grader"] == "mockllm/model" and meta["logprobs"] is True
    # the grader saw the earlier turns, the query and the reply, once each
    first = next(p for p in prompts if "#0#" in p)
    assert "早先的问题 0" in first and "早先的回答 0" in first and first.count("第 0 个问题") == 1


@pytest.mark.integration
def test_generation_defaults_and_overrides(tmp_path: Path) -> None:
    task = task2_eval(data=str(write_data(tmp_path, task2=2)))
    assert task.config.temperature == 0.7 and task.config.max_tokens == 2048
    [log] = eval(
        task, model=model_under_test(), model_roles={"grader": grader()}, temperature=0.1, display="none"
    )
    assert log.plan.config.temperature == 0.1
    generations = [e for e in log.samples[0].events if e.event == "model"]
    under_test = next(e for e in generations if e.role is None)
    graded = next(e for e in generations if e.role == "grader")
    assert under_test.config.temperature == 0.1 and under_test.config.max_tokens == 2048
    assert graded.config.temperature == 0 and graded.config.max_tokens == 4
    assert graded.config.logprobs is True and graded.config.top_logprobs == 5


@pytest.mark.integration
@pytest.mark.parametrize(
    ("name", "phrase"), [("helpful", "乐于助人"), ("ux", "不要绕弯子"), ("empathetic", "温暖")]
)
def test_system_prompts(tmp_path: Path, name: str, phrase: str) -> None:
    seen: list[list[ChatMessage]] = []
    prompts: list[str] = []
    task = task2_eval(data=str(write_data(tmp_path, task2=2)), system_prompt=name)
    eval(task, model=model_under_test(seen), model_roles={"grader": grader(prompts)}, display="none")
    for messages in seen:
        assert messages[0].role == "system" and phrase in messages[0].text
        assert sum(m.role == "system" for m in messages) == 1
    assert not any(phrase in p for p in prompts)  # the grader judges the conversation, not our prompt


@pytest.mark.integration
def test_no_system_prompt_and_own_file(tmp_path: Path) -> None:
    data = str(write_data(tmp_path, task2=2))
    seen: list[list[ChatMessage]] = []
    eval(
        task2_eval(data=data), model=model_under_test(seen), model_roles={"grader": grader()}, display="none"
    )
    assert all(m.role != "system" for messages in seen for m in messages)

    mine = tmp_path / "system.txt"
    mine.write_text("请只用一句话回答。\n", encoding="utf-8")
    seen.clear()
    task = task2_eval(data=data, system_prompt=str(mine))
    eval(task, model=model_under_test(seen), model_roles={"grader": grader()}, display="none")
    assert all(messages[0].text == "请只用一句话回答。" for messages in seen)


def test_unknown_system_prompt(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="system_prompt='friendly': choose one of none, helpful, ux"):
        task2_eval(data=str(write_data(tmp_path, task2=1)), system_prompt="friendly")


@pytest.mark.integration
def test_no_grader_stops_before_any_generation(tmp_path: Path) -> None:
    """Built by the eval with the run's roles bound (by name, as on the command line), the task
    stops before the run starts; built before the eval (its roles bound later, as by inspect-flow),
    the setup step stops the first sample."""
    seen: list[list[ChatMessage]] = []
    data = str(write_data(tmp_path, task2=3))
    message = "no grader model: bind one with --model-role grader="
    [built] = eval(task2_eval(data=data), model=model_under_test(seen), display="none", log_dir=str(tmp_path))
    assert built.status == "error" and message in str(built.error)
    with pytest.raises(DataError, match=message):
        eval("uxbench/task2_eval", task_args={"data": data}, model=model_under_test(seen), display="none")
    assert seen == []


@pytest.mark.integration
def test_self_grade(tmp_path: Path) -> None:
    def reply(messages: list[ChatMessage], *_) -> ModelOutput:
        # the model under test first answers, then grades its own answer
        grading = "只回答一个字" in messages[-1].text
        return grader_output("好", 0.9, 0.05) if grading else ModelOutput.from_content("mockllm", "ok")

    task = task2_eval(data=str(write_data(tmp_path, task2=2)), self_grade=True)
    [log] = eval(task, model=get_model("mockllm/model", custom_outputs=reply), display="none")
    assert log.status == "success"
    assert metric_values(log)["good_pct"] == 1.0
    assert log.samples[0].scores["grm"].metadata["grader"] == "mockllm/model"
