"""Task 3 · UX Recovery end to end with mockllm: strategies, grader context, baseline."""

from pathlib import Path

import pytest
from helpers.evals import run_eval
from helpers.grm import grader_output, metric_values, record_number, write_data
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from uxbench.data.records import Turn
from uxbench.judge_answer.prompt import builtin_templates, history_turns, read_judge_prompt
from uxbench.runtime.errors import DataError
from uxbench.tasks.task3_recovery import REPAIR_MARKER, task3_recovery

PROMPTS = Path(__file__).parents[2] / "src" / "uxbench" / "prompts"


def model_under_test(text, seen: list[list[ChatMessage]] | None = None):
    """Answers `text(n)` for record n."""

    def reply(messages: list[ChatMessage], *_) -> ModelOutput:
        if seen is not None:
            seen.append(messages)
        return ModelOutput.from_content("mockllm", text(record_number(messages[-1].text)))

    return get_model("mockllm/model", custom_outputs=reply)


def grader(prompts: list[str]):
    """差 (P 0.2 / 0.8) for the failed reply; 好 (0.6 / 0.3) for repairs 0 and 1, else 差 (0.3 / 0.6)."""

    def answer(messages: list[ChatMessage], *_) -> ModelOutput:
        prompt = messages[-1].text
        prompts.append(prompt)
        graded = prompt.split("【助手的最新回复】")[1]
        if "让用户失望的回复" in graded:
            return grader_output("差", 0.2, 0.8)
        if "修好了 #0#" in graded or "修好了 #1#" in graded:
            return grader_output("好", 0.6, 0.3)
        return grader_output("差", 0.3, 0.6)

    return get_model("mockllm/model", custom_outputs=answer)


def run(tmp_path: Path, text, n: int = 4, seen=None, **task_args):
    prompts: list[str] = []
    task = task3_recovery(data=str(write_data(tmp_path, task3=n)), **task_args)
    log = run_eval(task, model=model_under_test(text, seen), model_roles={"grader": grader(prompts)})
    return log, prompts


def test_recovery_with_mockllm_paper_context(tmp_path: Path) -> None:
    log, prompts = run(tmp_path, lambda n: f"抱歉，修好了 #{n}#")
    values = metric_values(log)
    assert values["recovery_rate"] == 0.5 and "good_pct" not in values and "delta_score" not in values
    assert values["score_mean"] == pytest.approx((2 * 0.6 / 0.9 + 2 * 0.3 / 0.9) / 4)
    assert values["failure_dimension:冗余啰嗦"] == 1.0 and values["failure_dimension:意图理解偏差"] == 0.0
    # paper: the grader sees the failed reply as the only context and the complaint as the question
    prompt = next(p for p in prompts if "#2#" in p)
    read = read_judge_prompt(prompt, builtin_templates())
    assert read is not None and read.fields["query"] == "不对，我要的不是这个 #2#"
    assert history_turns(read.fields["history"], read.template)[1] == [
        Turn("assistant", "让用户失望的回复 #2#")
    ]
    assert "原来的问题" not in prompt and "最早的寒暄" not in prompt
    assert "修好了 #2#" in prompt.split("【助手的最新回复】")[1]


def test_full_context(tmp_path: Path) -> None:
    _, prompts = run(tmp_path, lambda n: f"修好了 #{n}#", grm_context="full")
    prompt = next(p for p in prompts if "#3#" in p)
    assert "最早的寒暄 3" in prompt and "原来的问题 3" in prompt and "让用户失望的回复 #3#" in prompt


@pytest.mark.parametrize("strategy", ["cot", "critique"])
def test_reasoning_strategies_grade_only_the_repair(tmp_path: Path, strategy: str) -> None:
    seen: list[list[ChatMessage]] = []

    def reply(n: int) -> str:
        if n == 3:
            return f"忘了写标记的修正 #{n}#"
        return f"用户嫌我答非所问，分析过程……\n{REPAIR_MARKER}\n修好了 #{n}#"

    log, prompts = run(tmp_path, reply, seen=seen, strategy=strategy)
    assert all(messages[0].role == "system" and REPAIR_MARKER in messages[0].text for messages in seen)
    assert not any("分析过程" in p for p in prompts)
    by_id = {s.id: s for s in log.samples}
    first = by_id["uxbench_ux_recovery_0000"]
    assert "分析过程" in first.output.completion  # the reasoning stays in the log
    assert first.scores["grm"].metadata["marker_found"] is True
    assert first.scores["grm"].metadata["graded_response"] == "修好了 #0#"
    unmarked = by_id["uxbench_ux_recovery_0003"].scores["grm"].metadata
    assert unmarked["marker_found"] is False and unmarked["graded_response"] == "忘了写标记的修正 #3#"


def test_failure_aware_strategy(tmp_path: Path) -> None:
    seen: list[list[ChatMessage]] = []
    log, _ = run(tmp_path, lambda n: f"修好了 #{n}#", seen=seen, strategy="failure_aware")
    assert all("不满意" in messages[0].text for messages in seen)
    assert "marker_found" not in log.samples[0].scores["grm"].metadata


def test_baseline_delta_score(tmp_path: Path) -> None:
    log, prompts = run(tmp_path, lambda n: f"修好了 #{n}#", baseline=True)
    values = metric_values(log)
    failed = 0.2 / 1.0
    repairs = [0.6 / 0.9, 0.6 / 0.9, 0.3 / 0.9, 0.3 / 0.9]
    assert values["delta_score"] == pytest.approx(sum(r - failed for r in repairs) / 4)
    meta = log.samples[0].scores["grm"].metadata
    assert meta["baseline_verdict"] == "bad" and meta["baseline_score"] == pytest.approx(failed)
    # the failed reply is graded where it was given: as the answer to the original question
    baseline_prompt = next(p for p in prompts if "让用户失望的回复 #1#" in p.split("【助手的最新回复】")[1])
    assert "原来的问题 1" in baseline_prompt and "不对，我要的不是这个" not in baseline_prompt
    assert len(prompts) == 8


@pytest.mark.parametrize(("option", "value"), [("strategy", "pray"), ("grm_context", "some")])
def test_bad_options(tmp_path: Path, option: str, value: str) -> None:
    with pytest.raises(DataError, match=f"{option}='{value}': choose one of"):
        task3_recovery(data=str(write_data(tmp_path, task3=1)), **{option: value})


def test_reasoning_prompts_name_the_marker() -> None:
    for strategy in ("cot", "critique"):
        assert REPAIR_MARKER in (PROMPTS / f"recovery_{strategy}.txt").read_text(encoding="utf-8")
