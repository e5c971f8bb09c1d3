"""A constrained grader's P(good) through stub servers whose prompt logprobs are batched, reordered
or broken (issue: readings that verify themselves).

The toy grader (`helpers.toy_vllm`) answers; its body is then changed as a server might: noise
on the shared prompt's logprobs, different in each request (a batched bfloat16 server), the
rank-1 alternative listed before the prompt token, the turn closed after the label, a null
entry, an entry without `logprob`. Each score is the toy model's own ratio or no number,
counted in `score_skipped` with its reason; the run succeeds.
"""

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.evals import run_eval
from helpers.grm import metric_values, record_number, write_data
from helpers.localserver import completion_body, prompt_text
from helpers.rawserver import Raw, RawServer
from helpers.toy_vllm import ToyGrader, judge_number, own_p_good
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from uxbench.grader_answer.prompt_logprobs import AFTER_LABEL, MALFORMED_ENTRY, NULL_ENTRY
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval

pytestmark = pytest.mark.integration


N = 4
Change = Callable[[list, random.Random], list]


def batched(entries: list, rng: random.Random) -> list:
    """±0.01 on every token but the last three (the label's bytes), new in each request."""
    for entry in entries[1:-3]:
        for info in entry.values():
            info["logprob"] += rng.uniform(-0.01, 0.01)
    return entries


def rank_1_first(entries: list, _: random.Random) -> list:
    out = [None]
    for entry in entries[1:]:
        [(token_id, info)] = entry.items()
        out.append({"1": {"logprob": -0.001, "rank": 1, "decoded_token": "I"}, token_id: {**info, "rank": 5}})
    return out


def closed_turn(entries: list, _: random.Random) -> list:
    return [*entries, {"2": {"logprob": -0.01, "rank": 1, "decoded_token": "<|im_end|>"}}]


def null_inside(entries: list, _: random.Random) -> list:
    return [*entries[:2], None, *entries[3:]]


def no_logprob(entries: list, _: random.Random) -> list:
    next(iter(entries[2].values())).pop("logprob")
    return entries


def server(change: Change, toy: ToyGrader | None = None) -> Callable[[dict[str, Any]], Raw]:
    toy, rng = toy or ToyGrader(), random.Random(7)

    def respond(request: dict[str, Any]) -> Raw:
        body = completion_body(request, toy(request), "vllm")
        if "prompt_logprobs" in body:
            body["prompt_logprobs"] = change(body["prompt_logprobs"], rng)
            body["usage"]["prompt_tokens"] = len(body["prompt_logprobs"])  # what the server scored
        return Raw(body)

    return respond


def run(tmp_path: Path, change: Change) -> tuple[dict[int, dict], dict[str, float]]:
    def reply(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        return ModelOutput.from_content("mockllm", f"这是回复 #{record_number(messages[-1].text)}#")

    with RawServer(server(change)) as raw:
        grader = get_model("openai-api/vllm/smol", base_url=raw.url, api_key="test", memoize=False)
        log = run_eval(
            task2_eval(data=str(write_data(tmp_path / "data", task2=N)), grader_constrain=True),
            tmp_path / "logs",
            model=get_model("mockllm/model", custom_outputs=reply),
            model_roles={"grader": grader},
            max_retries=0,
        )
    return {record_number(prompt_text({"messages": [{"content": str(s.input)}]})): s.scores["grm"].metadata
            for s in log.samples}, metric_values(log)  # fmt: skip


@pytest.mark.parametrize("change", [batched, rank_1_first], ids=["batched", "rank-1 first"])
def test_batched_or_reordered_entries_give_the_models_own_ratio(tmp_path: Path, change: Change) -> None:
    graded, values = run(tmp_path, change)
    for n, meta in graded.items():
        assert meta["score"] == pytest.approx(own_p_good(n), abs=1e-9), meta
    assert values["score_skipped"] == 0


@pytest.mark.parametrize(
    ("change", "why"),
    [(closed_turn, AFTER_LABEL), (null_inside, NULL_ENTRY), (no_logprob, MALFORMED_ENTRY)],
    ids=["closed turn", "null", "no logprob"],
)
def test_a_broken_body_is_a_counted_skip_with_its_reason(tmp_path: Path, change: Change, why: str) -> None:
    graded, values = run(tmp_path, change)
    for meta in graded.values():
        assert meta["verdict"] in ("good", "bad") and meta["score"] is None
        assert meta["score_skipped"] == why
    assert values["score_skipped"] == N


def test_a_constrained_judges_broken_body_is_counted_in_p_good_skipped(judge_dir, tmp_path: Path) -> None:
    with RawServer(server(closed_turn, ToyGrader(number=judge_number))) as raw:
        judge = get_model("openai-api/vllm/judge", base_url=raw.url, api_key="test", memoize=False)
        log = run_eval(
            task1_judge(data=str(judge_dir(2, 2)), constrain=True),
            tmp_path / "logs",
            model=judge,
            logprobs=True,
            top_logprobs=5,
            max_retries=0,
        )
    for sample in log.samples:
        meta = sample.scores["judge_verdict"].metadata
        assert meta["p_good"] is None and meta["p_good_missing"] == AFTER_LABEL
    values = metric_values(log)
    assert values["p_good_skipped"] == 4 and values["p_good_rate"] == 0.0
