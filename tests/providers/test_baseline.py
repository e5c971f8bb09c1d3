"""Baseline models: prompt reading, the rules, logprobs, and whole runs through the tasks."""

import asyncio
import math

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessageUser, GenerateConfig, ModelOutput, get_model

from uxbench.data.records import Turn
from uxbench.data.templates import builtin_path, load_template
from uxbench.grader_answer.reading import judge
from uxbench.judge_answer.prompt import builtin_templates, last_assistant_turn, read_judge_prompt
from uxbench.judge_answer.verdict import parse_verdict
from uxbench.providers.baseline import LONG_REPLY, POLITE_REPLY, REFUSAL
from uxbench.runtime.errors import DataError
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval

HISTORY = [Turn("user", "第一问"), Turn("assistant", "第一答\n\n还有第二段")]


def metrics(log) -> dict[str, float]:
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def generate(model: str, prompt: str, model_args: dict | None = None, **config: object) -> ModelOutput:
    llm = get_model(model, memoize=False, **(model_args or {}))
    return asyncio.run(llm.generate([ChatMessageUser(content=prompt)], config=GenerateConfig(**config)))


@pytest.mark.parametrize(
    "name", ["judge_default.txt", "judge_cot.txt", "judge_json_en.txt", "grm_pointwise.txt"]
)
def test_reads_the_conversation_back_out_of_every_template(name: str) -> None:
    template = load_template(builtin_path(name))
    reply = "回复里也提到【助手的回复】和 {response} 这样的字样"
    text = template.render(history=template.history_text(HISTORY), query="问题？", response=reply)
    prompt = read_judge_prompt(text, builtin_templates())
    assert prompt is not None and prompt.template.source == template.source
    assert prompt.fields["response"] == reply and prompt.fields["query"] == "问题？"
    assert last_assistant_turn(prompt.fields["history"], template) == "第一答\n\n还有第二段"


def test_other_prompts_are_not_judge_prompts() -> None:
    assert read_judge_prompt("帮我写一首诗", builtin_templates()) is None
    assert (
        last_assistant_turn("（这是对话的第一轮）", load_template(builtin_path("judge_default.txt"))) is None
    )


@pytest.mark.integration
def test_length_rule_with_logprobs_gives_the_grm_score() -> None:
    # 8-character reply against threshold 24: P(good) = 8 / (8 + 24) = 0.25 → bad
    template = load_template(builtin_path("grm_pointwise.txt"))
    text = template.render(history=template.history_text([]), query="问", response="一二三四五六七八")
    output = generate("uxbench/baseline/length", text, {"threshold": 24}, logprobs=True, top_logprobs=5)
    judged = judge(output)
    assert output.completion == "差"
    assert judged.verdict == "bad" and judged.score == pytest.approx(0.25)
    assert output.choices[0].logprobs.content[0].logprob == pytest.approx(math.log(0.75))
    assert generate("uxbench/baseline/length", text).choices[0].logprobs is None  # only when asked


def test_always_good_has_no_bad_alternative_and_json_answers() -> None:
    template = load_template(builtin_path("judge_json_en.txt")).with_labels(("good", "bad"))
    text = template.render(history=template.history_text([]), query="q", response="r")
    output = generate("uxbench/baseline/always-good", text, logprobs=True)
    assert output.completion == '{"verdict": 1}' and output.choices[0].logprobs is None
    assert parse_verdict(output.completion, template).label == "good"
    grm_text = load_template(builtin_path("grm_pointwise.txt")).render(history="", query="q", response="r")
    judged = judge(generate("uxbench/baseline/always-good", grm_text, logprobs=True))
    assert judged.verdict == "good" and judged.score == 1.0


@pytest.mark.parametrize(
    ("model", "reply"),
    [
        ("always-good", POLITE_REPLY),
        ("always-bad", REFUSAL),
        ("longer", LONG_REPLY.format(message="怎么 学 Python")),
        ("length", "怎么\n学 Python"),
    ],
)
def test_generation_replies(model: str, reply: str) -> None:
    assert generate(f"uxbench/baseline/{model}", "怎么\n学 Python").completion == reply


def test_bad_names_and_args() -> None:
    with pytest.raises(DataError, match="choose one of"):
        get_model("uxbench/baseline/sometimes", memoize=False)
    with pytest.raises(DataError, match="unknown model args"):
        get_model("uxbench/baseline/length", colour="red", memoize=False)


@pytest.mark.integration
@pytest.mark.parametrize(
    ("model", "args", "good", "bad"),
    [
        ("always-good", {}, 1.0, 0.0),
        ("always-bad", {}, 0.0, 1.0),
        # liked replies "GOODREPLY i" have 11 characters, disliked "BADREPLY i" 10
        ("length", {"threshold": 11}, 1.0, 1.0),
        # disliked replies follow a 3-character assistant turn; liked ones start the conversation
        ("longer", {"threshold": 12}, 0.0, 0.0),
    ],
)
def test_task1_runs(judge_dir, model: str, args: dict, good: float, bad: float) -> None:
    llm = get_model(f"uxbench/baseline/{model}", memoize=False, **args)
    [log] = eval(task1_judge(data=str(judge_dir(2, 2))), model=llm, display="none")
    assert log.status == "success"
    values = metrics(log)
    assert (values["good_acc"], values["bad_acc"]) == (good, bad)


@pytest.mark.integration
def test_task2_with_baselines_as_model_and_grader() -> None:
    [log] = eval(
        task2_eval(data="sample"),
        model="uxbench/baseline/longer",
        model_roles={"grader": "uxbench/baseline/length"},
        limit=3,
        display="none",
    )
    assert log.status == "success"
    assert metrics(log)["good_pct"] == 1.0  # the long reply passes the length rule
    assert log.samples[0].output.completion.startswith("## 关于你的问题")
