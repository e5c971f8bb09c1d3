"""P(good) through an OpenAI-compatible server that spells tokens as vLLM does (issues: the answer's
own token; open-model graders on vLLM).

The server is `OpenAIServer(spelling="vllm")`: part of a character is sent as "" with empty
`bytes`, prompt logprobs come at the response's top level, reasoning in `reasoning_content`.
Each score must be the model's own ratio of the labels' probabilities, or absent and counted.
"""

import math
from pathlib import Path

import pytest
from helpers.evals import run_eval
from helpers.grm import metric_values, record_number, write_data
from helpers.localserver import OpenAIServer, Reply, Spelling, prompt_text
from helpers.toy_vllm import ToyGrader, answer, good, judge_number, own_p_good
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from uxbench.grader_answer.logprobs import NOT_SPELLED, OTHER_HIDDEN
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval

pytestmark = pytest.mark.integration


N = 8
ln = math.log


def echo_model():
    """The model under test, in process: a reply naming its record."""

    def reply(messages: list[ChatMessage], *_) -> ModelOutput:
        return ModelOutput.from_content("mockllm", f"这是回复 #{record_number(messages[-1].text)}#")

    return get_model("mockllm/model", custom_outputs=reply)


def grade_task2(tmp_path: Path, responder, spelling: Spelling = "vllm", **task_args) -> tuple[EvalLog, list]:
    data = write_data(tmp_path / "data", task2=N)
    with OpenAIServer(responder, spelling=spelling) as server:
        grader = get_model("openai-api/vllm/smol", base_url=server.url, api_key="test", memoize=False)
        log = run_eval(
            task2_eval(data=str(data), **task_args),
            tmp_path / "logs",
            model=echo_model(),
            model_roles={"grader": grader},
            max_retries=0,
        )
    return log, server.requests


def grm_meta(log: EvalLog) -> dict[int, dict]:
    return {record_number(str(s.input)): s.scores["grm"].metadata for s in log.samples}


def test_constrained_grader_scores_are_the_servers_own_label_probabilities(tmp_path: Path) -> None:
    toy = ToyGrader()
    log, requests = grade_task2(tmp_path, toy, grader_constrain=True)
    for n, meta in grm_meta(log).items():
        assert meta["verdict"] in ("good", "bad")
        assert meta["score"] == pytest.approx(own_p_good(n), abs=0.01)
        assert "score_skipped" not in meta
    values = metric_values(log)
    assert values["score_skipped"] == 0 and values["no_logprob_rate"] == 0 and values["fail_rate"] == 0
    asked = [r for r in requests if not r.get("continue_final_message")]
    scoring = [r for r in requests if r.get("continue_final_message")]
    assert len(asked) == N and len(scoring) == 2 * N
    assert all(r["structured_outputs"] == {"choice": ["好", "差"]} for r in asked)
    assert all(r["prompt_logprobs"] == 1 and "structured_outputs" not in r for r in scoring)
    assert log.eval.metadata["grader_constrain"] is True


def test_free_grader_is_asked_exactly_as_before(tmp_path: Path) -> None:
    toy = ToyGrader()
    log, requests = grade_task2(tmp_path, toy)
    assert len(requests) == N
    assert not any("structured_outputs" in r or "prompt_logprobs" in r for r in requests)
    assert requests[0]["max_tokens"] == 4 and requests[0]["top_logprobs"] == 5
    assert metric_values(log)["fail_rate"] == 1.0  # a small open model chats


def byte_labels(request: dict) -> Reply:
    """Always a label, as three byte tokens (no prompt logprobs)."""
    n = record_number(prompt_text(request))
    label = "好" if good(n) >= 0.45 else "差"
    return Reply(label, answer(n, label))


@pytest.mark.parametrize(("spelling", "why"), [("vllm", NOT_SPELLED), ("openai", OTHER_HIDDEN)])
def test_byte_split_labels_without_their_probabilities_are_skipped_and_counted(
    tmp_path: Path, spelling: Spelling, why: str
) -> None:
    # vLLM spells the partial bytes as "": nothing can be read; OpenAI's `bytes:` spelling shows
    # 差's second byte as an alternative, but never its third: neither may become 0 or 1
    log, _ = grade_task2(tmp_path, byte_labels, spelling)
    for meta in grm_meta(log).values():
        assert meta["verdict"] in ("good", "bad") and meta["score"] is None
        assert meta["score_skipped"] == why
    values = metric_values(log)
    assert values["score_skipped"] == N and values["no_logprob_rate"] == 0
    assert "score_mean" not in values  # no score: the metric has no value, so the log leaves it out


def test_byte_split_labels_with_constraint_but_no_prompt_logprobs_are_counted(tmp_path: Path) -> None:
    log, _ = grade_task2(tmp_path, byte_labels, grader_constrain=True)
    values = metric_values(log)
    assert values["score_skipped"] == N and "score_mean" not in values


def reasoning_grader(request: dict) -> Reply:
    """Reasoning first (`好的，我来看看`, whose first token makes 好 likely), the verdict 差 last:
    in vLLM's `reasoning_content` for even records, inside `<think>` for odd ones."""
    n = record_number(prompt_text(request))
    thinking = [
        ("好", ln(0.951), [("好", ln(0.951)), ("差", ln(0.049))]),
        ("的", ln(0.9), []),
        ("，我来看看", ln(0.8), []),
    ]
    verdict = ("差", ln(0.7), [("差", ln(0.7)), ("好", ln(0.2))])
    if n % 2:
        closing = [("</think>", ln(0.9), []), ("\n", ln(0.9), [])]
        tokens = [("<think>", ln(0.99), []), *thinking, *closing, verdict]
        return Reply("<think>好的，我来看看</think>\n差", tokens)
    return Reply("差", [*thinking, ("\n\n", ln(0.9), []), verdict], reasoning="好的，我来看看")


def test_reasoning_grader_is_scored_at_its_verdict(tmp_path: Path) -> None:
    log, _ = grade_task2(tmp_path, reasoning_grader, "openai")
    for meta in grm_meta(log).values():
        assert meta["verdict"] == "bad"
        assert meta["score"] == pytest.approx(0.2 / 0.9)
    values = metric_values(log)
    assert values["score_mean"] == pytest.approx(0.2 / 0.9) and values["no_logprob_rate"] == 0


def think_then_good(request: dict) -> Reply:
    tokens = [("<think>", ln(0.99), []), ("嗯", ln(0.5), []), ("</think>", ln(0.9), [])]
    return Reply("<think>嗯</think>好", [*tokens, ("好", ln(0.6), [("好", ln(0.6)), ("差", ln(0.3))])])


def test_think_block_then_label_is_scored(tmp_path: Path) -> None:
    log, _ = grade_task2(tmp_path, think_then_good, "openai")
    assert {m["verdict"] for m in grm_meta(log).values()} == {"good"}
    assert metric_values(log)["score_mean"] == pytest.approx(2 / 3)


# ---------------------------------------------------------------- Task 1 judges


def cot_judge(request: dict) -> Reply:
    """Reasoning first (its first token lists 好 at 0.951), then `答案：差` or `答案：好`."""
    liked = "GOODREPLY" in prompt_text(request)
    label, p = ("好", 0.8) if liked else ("差", 0.7)
    other = 1 - p - 0.05
    tokens = [
        ("好", ln(0.951), [("好", ln(0.951)), ("差", ln(0.049))]),
        ("的回复。\n", ln(0.9), []),
        ("答案：", ln(0.9), []),
        (label, ln(p), [(label, ln(p)), ("差" if liked else "好", ln(other))]),
    ]
    return Reply("好的回复。\n答案：" + label, tokens)


def judge_task1(judge_dir, tmp_path: Path, responder, **task_args) -> EvalLog:
    with OpenAIServer(responder, spelling="vllm") as server:
        judge = get_model("openai-api/vllm/judge", base_url=server.url, api_key="test", memoize=False)
        log = run_eval(
            task1_judge(data=str(judge_dir(3, 3)), **task_args),
            tmp_path / "logs",
            model=judge,
            logprobs=True,
            top_logprobs=5,
            max_retries=0,
        )
    return log


def test_cot_judge_p_good_is_read_at_the_answer(judge_dir, tmp_path: Path) -> None:
    log = judge_task1(judge_dir, tmp_path, cot_judge, prompt="cot")
    for sample in log.samples:
        meta = sample.scores["judge_verdict"].metadata
        expected = 0.8 / 0.95 if meta["label"] == "good" else 0.25 / 0.95
        assert meta["p_good"] == pytest.approx(expected)
    values = metric_values(log)
    assert values["avg_acc"] == 1.0 and values["p_good_rate"] == 1.0


def test_constrained_judge_p_good_is_the_servers_own(judge_dir, tmp_path: Path) -> None:
    toy = ToyGrader(number=judge_number)
    log = judge_task1(judge_dir, tmp_path, toy, constrain=True)
    for sample in log.samples:
        meta = sample.scores["judge_verdict"].metadata
        assert meta["p_good"] == pytest.approx(own_p_good(judge_number(str(sample.input))), abs=0.01)
    assert metric_values(log)["p_good_rate"] == 1.0
    asked = [r for r in toy.requests if not r.get("continue_final_message")]
    assert all(r["structured_outputs"]["choice"] == ["好", "差"] for r in asked)


def test_byte_split_judge_without_constraint_has_no_p_good_and_says_why(judge_dir, tmp_path: Path) -> None:
    def respond(request: dict) -> Reply:
        n = judge_number(prompt_text(request))
        return Reply("好", answer(n, "好"))

    log = judge_task1(judge_dir, tmp_path, respond)
    for sample in log.samples:
        meta = sample.scores["judge_verdict"].metadata
        assert meta["p_good"] is None and meta["p_good_missing"] == NOT_SPELLED
    assert metric_values(log)["p_good_rate"] == 0.0
