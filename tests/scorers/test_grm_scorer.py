"""The GRM scorer: grader prompt, truncation ladder, fallbacks and the grader role."""

import math
from pathlib import Path

import pytest
from helpers.evals import run_eval
from helpers.grm import grader_output
from helpers.localserver import OpenAIServer, Reply, prompt_text
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
    get_model,
)

from uxbench.data.records import Turn
from uxbench.data.templates import builtin_path, fence, load_template
from uxbench.judge_answer.prompt import history_turns, read_judge_prompt
from uxbench.runtime.errors import DataError
from uxbench.scorers.grm import (
    CUT_MARK,
    LADDERS,
    Rung,
    final_reply,
    grm,
    render,
)

TEMPLATE = load_template(builtin_path("grm_pointwise.txt"))


def mock_grader(answer) -> object:
    """mockllm grader whose answer (a ModelOutput) depends on the rendered grader prompt."""
    return get_model("mockllm/model", custom_outputs=lambda messages, *_: answer(messages[-1].text))


def run(samples: list[Sample], reply: str, grader, **scorer_args) -> EvalLog:
    model = get_model("mockllm/model", custom_outputs=lambda *_: ModelOutput.from_content("mockllm", reply))
    task = Task(dataset=samples, scorer=grm(**scorer_args))
    return run_eval(task, model=model, model_roles={"grader": grader})


def scores(log: EvalLog) -> list[dict]:
    return [s.scores["grm"].metadata for s in log.samples]


# ---------------------------------------------------------------- prompt and ladder pieces


def test_render_marks_cut_text_and_omitted_turns() -> None:
    context = tuple(Turn("user" if i % 2 == 0 else "assistant", f"第{i}轮" + "字" * 50) for i in range(8))
    rung = Rung(turns=3, context_chars=10, query_chars=5, response_chars=20)
    prompt = render(TEMPLATE, context, "问题" * 10, "回" * 100, rung)
    assert "（更早的 5 轮对话已省略）" in prompt
    assert "第4轮" not in prompt and "第5轮" in prompt and "第7轮" in prompt
    assert "回" * 20 + CUT_MARK in prompt and "回" * 21 not in prompt
    assert "问题问题问" + CUT_MARK in prompt
    full = render(TEMPLATE, context, "问题", "回复", Rung())
    assert CUT_MARK not in full and "省略" not in full and "第0轮" in full


def test_protocol_ladders() -> None:
    eval_ladder, recovery_ladder = LADDERS["eval"], LADDERS["recovery"]
    assert [(r.turns, r.response_chars) for r in eval_ladder] == [(None, None), (6, 4000), (3, 2000)]
    assert [(r.context_chars, r.query_chars, r.response_chars) for r in recovery_ladder] == [
        (None, None, None),
        (4000, 1000, 4000),
        (2000, 500, 2000),
    ]


def test_empty_history_reads_as_such() -> None:
    assert "（没有更早的对话）" in render(TEMPLATE, (), "问", "答", Rung())


@pytest.mark.parametrize(
    ("text", "marker", "expected"),
    [
        ("直接的回复", None, ("直接的回复", False)),
        ("<think>先想想</think>\n回复", None, ("回复", False)),
        ("分析……\n【最终回复】\n修好的回复", "【最终回复】", ("修好的回复", True)),
        ("【最终回复】草稿\n【最终回复】：定稿", "【最终回复】", ("定稿", True)),
        ("没有标记的回复", "【最终回复】", ("没有标记的回复", False)),
    ],
)
def test_final_reply(text: str, marker: str | None, expected: tuple[str, bool]) -> None:
    assert final_reply(text, marker) == expected


# ---------------------------------------------------------------- scorer


def conversation_sample(cid: str, history_turns: int, turn_chars: int, query: str) -> Sample:
    turns = [
        (ChatMessageUser if i % 2 == 0 else ChatMessageAssistant)(content=f"T{i}" + "字" * turn_chars)
        for i in range(history_turns)
    ]
    return Sample(id=cid, input=[*turns, ChatMessageUser(content=query)])


def test_grader_sees_the_conversation_and_the_reply() -> None:
    seen: list[str] = []

    def answer(prompt: str) -> ModelOutput:
        seen.append(prompt)
        return grader_output("好", 0.6, 0.3)

    sample = Sample(
        id="a",
        input=[
            ChatMessageUser(content="最早的问题"),
            ChatMessageAssistant(content="最早的回答"),
            ChatMessageUser(content="现在的问题"),
        ],
    )
    [meta] = scores(run([sample], "模型的回复", mock_grader(answer)))
    prompt = read_judge_prompt(seen[0], (TEMPLATE,))
    assert prompt is not None and "{" not in seen[0]
    turns = [Turn("user", "最早的问题"), Turn("assistant", "最早的回答")]
    assert history_turns(prompt.fields["history"], TEMPLATE) == ("", turns)
    assert (prompt.fields["query"], prompt.fields["response"]) == ("现在的问题", "模型的回复")
    assert meta["verdict"] == "good" and meta["score"] == pytest.approx(2 / 3)
    assert meta["rung"] == 0 and meta["grader"] == "mockllm/model" and meta["raw"] == "好"
    assert meta["addresses_grader"] == []


def test_no_logprobs_fallback() -> None:
    answers = iter(["差", "好", "嗯"])
    grader = mock_grader(lambda _: ModelOutput.from_content("mockllm", next(answers)))
    samples = [Sample(id=i, input=f"问题{i}") for i in range(3)]
    log = run(samples, "回复", grader)
    verdicts = sorted(m["verdict"] for m in scores(log))
    assert verdicts == ["bad", "failed", "good"]
    assert all(m["score"] is None and m["logprobs"] is False for m in scores(log))
    values = {k: v.value for k, v in log.results.scores[0].metrics.items()}
    assert values["no_logprob_rate"] == 1.0 and values["good_pct"] == pytest.approx(1 / 3)
    assert values["fail_rate"] == pytest.approx(1 / 3) and "score_mean" not in values


def test_model_length_outputs_walk_down_the_ladder() -> None:
    """A provider that reports overflow as stop_reason model_length (Inspect's vllm provider does)."""

    def answer(prompt: str) -> ModelOutput:
        if len(prompt) > 4800:  # the rung-1 prompt of "short" is about 4,600 characters
            return ModelOutput.from_content(
                "mockllm", "maximum context length exceeded", stop_reason="model_length"
            )
        return grader_output("好", 0.9, 0.1)

    samples = [
        conversation_sample("short", 2, 10, "问题"),  # the reply cut to 4,000 chars fits: rung 1
        conversation_sample("long", 10, 300, "问题"),  # 6 turns × 300 chars still too many: rung 2
    ]
    metas = {s.id: s.scores["grm"].metadata for s in run(samples, "回" * 5000, mock_grader(answer)).samples}
    assert metas["short"]["rung"] == 1 and metas["short"]["verdict"] == "good"
    assert metas["long"]["rung"] == 2 and metas["long"]["verdict"] == "good"


def test_http_400_context_errors_walk_down_the_ladder(monkeypatch, tmp_path: Path) -> None:
    """vLLM answers an over-long prompt with HTTP 400 'maximum context length'."""
    limit = 4800

    def respond(request: dict) -> Reply:
        prompt = prompt_text(request)
        if len(prompt) > limit:
            return Reply(status=400, error=f"This model's maximum context length is {limit} characters.")
        return Reply(
            text="差", logprobs=[("差", math.log(0.8), [("差", math.log(0.8)), ("好", math.log(0.2))])]
        )

    samples = [
        conversation_sample("fits", 1, 10, "短问题"),
        conversation_sample("reply_cut", 1, 10, "短问题"),
        conversation_sample("turns_cut", 12, 300, "短问题"),
        conversation_sample("never_fits", 0, 0, "长" * 6000),  # the question itself is never cut
    ]
    replies = {"fits": "好回复", "reply_cut": "回" * 5000, "turns_cut": "回" * 5000, "never_fits": "回复"}
    model = get_model(
        "mockllm/model",
        custom_outputs=lambda messages, *_: ModelOutput.from_content(
            "mockllm", replies[next(k for k in replies if k in str(messages))]
        ),
    )
    for sample in samples:
        sample.input[-1].content += f" [{sample.id}]"
    with OpenAIServer(respond) as server:
        grader = get_model("openai-api/local/g", base_url=server.url, api_key="test")
        [log] = eval(
            Task(dataset=samples, scorer=grm()), model=model, model_roles={"grader": grader}, display="none"
        )
        requests = len(server.requests)
    assert log.status == "success", log.error
    metas = {s.id: s.scores["grm"].metadata for s in log.samples}
    assert [metas[k]["rung"] for k in ("fits", "reply_cut", "turns_cut", "never_fits")] == [0, 1, 2, None]
    assert (
        metas["never_fits"]["verdict"] == "failed" and "maximum context length" in metas["never_fits"]["raw"]
    )
    assert metas["turns_cut"]["score"] == pytest.approx(0.2)
    assert requests == 1 + 2 + 3 + 3


def test_other_grader_errors_are_not_swallowed() -> None:
    def answer(prompt: str) -> ModelOutput:
        raise ConnectionError("grader unreachable")

    model = get_model("mockllm/model")
    task = Task(dataset=[Sample(id=1, input="问题")], scorer=grm())
    [log] = eval(task, model=model, model_roles={"grader": mock_grader(answer)}, display="none")
    assert log.status == "error" and "grader unreachable" in str(log.error)


def test_missing_grader_role_is_a_data_error() -> None:
    task = Task(dataset=[Sample(id=1, input="问题")], scorer=grm())
    [log] = eval(task, model="mockllm/model", display="none")
    assert log.status == "error" and "--model-role grader=" in str(log.error)


def test_self_grade_uses_the_model_under_test() -> None:
    model = get_model("mockllm/model", custom_outputs=lambda *_: grader_output("好", 0.7, 0.1))
    task = Task(dataset=[Sample(id=1, input="问题")], scorer=grm(self_grade=True))
    [log] = eval(task, model=model, display="none")
    assert log.status == "success"
    assert log.samples[0].scores["grm"].metadata["score"] == pytest.approx(0.875)


def test_user_template(tmp_path: Path) -> None:
    template = tmp_path / "mine.txt"
    template.write_text(
        "---\nlabels: {good: ['Yes'], bad: ['No']}\n---\nUser: {query}\nReply: {response}\nYes or No?\n",
        encoding="utf-8",
    )
    seen: list[str] = []

    def answer(prompt: str) -> ModelOutput:
        seen.append(prompt)
        return ModelOutput.from_content("mockllm", " yes")

    log = run([Sample(id=1, input="hi")], "hello", mock_grader(answer), template=str(template))
    assert seen == [f"User: {fence('query', 'hi')}\nReply: {fence('response', 'hello')}\nYes or No?\n"]
    assert log.samples[0].scores["grm"].metadata["verdict"] == "good"
    assert log.samples[0].scores["grm"].answer == "good: hello"


def test_bad_ladder_name() -> None:
    with pytest.raises(DataError, match="ladder="):
        grm(ladder="huge")


def grader_configs(log: EvalLog) -> list:
    return [e.config for s in log.samples for e in s.events if e.event == "model" and e.role == "grader"]


def test_grader_role_config_overrides_the_protocol_defaults() -> None:
    grader = get_model(
        "mockllm/model",
        config=GenerateConfig(max_tokens=64),
        custom_outputs=lambda *_: grader_output("好", 0.6, 0.3),
    )
    [config] = grader_configs(run([Sample(id=1, input="问题")], "回复", grader))
    assert config.max_tokens == 64 and config.temperature == 0 and config.top_logprobs == 5


def test_self_grading_ignores_the_task_generation_flags() -> None:
    model = get_model(
        "mockllm/model",
        config=GenerateConfig(temperature=0.7, max_tokens=2048),
        custom_outputs=lambda *_: grader_output("好", 0.6, 0.3),
    )
    task = Task(dataset=[Sample(id=1, input="问题")], scorer=grm(self_grade=True))
    [log] = eval(task, model=model, display="none")
    grading = [e.config for e in log.samples[0].events if e.event == "model"][-1]
    assert grading.temperature == 0 and grading.max_tokens == 4
