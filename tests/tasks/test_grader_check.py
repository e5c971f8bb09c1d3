"""uxbench/grader_check and the replay providers, on published-layout files the tests write.

One OpenAI-compatible grader on 127.0.0.1 (`published_helpers.flipping_grader`) answers with
the reference grade flipped at known rates. It is qualified on models alpha and gamma, then
grades model beta's replies through the unchanged Task 2; the corrected Good% must recover
beta's reference Good%. The replay providers must reproduce the files' Good% exactly.
"""

from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from helpers.evals import run_evals
from helpers.grm import metric_values, write_data
from helpers.localserver import OpenAIServer, prompt_text
from helpers.published import SENS, SPEC, Line, flipping_grader, grader_verdict, lines, write_published
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from inspect_ai.model import ChatMessage, ModelOutput, get_model
from scipy.stats import spearmanr

from uxbench.judge_answer.prompt import builtin_templates, read_judge_prompt
from uxbench.qualification.correction import corrected_rate
from uxbench.qualification.match import (
    NOT_QUALIFIED,
    PANEL,
    SELF_GRADED,
    Check,
    Grader,
    Grading,
    find_qualification,
    grm_equivalent,
    qualifies,
)
from uxbench.qualification.published import published_good_pct, read_grades
from uxbench.report.collect import collect
from uxbench.runtime.errors import DataError
from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

N, N_TASK3 = 120, 40


@dataclass
class Runs:
    root: Path
    data: Path
    qualification: dict[str, list[Line]]  # the usable lines of alpha and gamma
    check: EvalLog  # grader_check of the local grader on alpha and gamma
    beta_check: EvalLog  # grader_check of the local grader on 10 of beta's replies
    beta_run: EvalLog  # Task 2: beta's replies (replayed) graded by the local grader
    requests: list[dict]


def run(tasks, model, tmp: Path, **kwargs) -> list[EvalLog]:
    return run_evals(tasks, tmp / "logs", model=model, max_connections=32, **kwargs)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    tmp = tmp_path_factory.mktemp("grader_check")
    root, data = tmp / "outputs", write_data(tmp / "data", task2=N, task3=N_TASK3)
    alpha = write_published(root, "alpha", lines("alpha", N, failed_replies=23, failed_grades=29))
    gamma = write_published(root, "gamma", lines("gamma", N + 3), omit_replies=(11,))  # 3 cids not in data
    write_published(root, "beta", lines("beta", N))
    write_published(root, "alpha", lines("alpha", N_TASK3, "task3", failed_grades=9), task="task3")
    usable = {
        "alpha": [x for x in alpha if x.reply is not None and x.verdict != 0],
        "gamma": [x for x in gamma if x.i < N and x.i != 11],
    }
    with OpenAIServer(flipping_grader) as server:
        grader = get_model("openai-api/local/grader", base_url=server.url, api_key="test-key")
        check = grader_check(reference=str(root), task="task2", data=str(data), models="alpha,gamma")
        beta_check = grader_check(reference=str(root), data=str(data), models=["beta"], per_model=10, seed=3)
        check_log, beta_check_log = run([check, beta_check], grader, tmp)
        replayed = get_model("uxbench/replay/beta", outputs=str(root))
        [beta_run] = run(task2_eval(data=str(data)), replayed, tmp, model_roles={"grader": grader})
        requests = list(server.requests)
    return Runs(root, data, usable, check_log, beta_check_log, beta_run, requests)


# ---------------------------------------------------------------- qualification


def by_hand(usable: list[Line], model: str) -> dict[str, float]:
    """The grader_check statistics of `model`'s usable lines, from the helpers' own rules."""
    said = [grader_verdict(model, x.i) for x in usable]
    reference = ["good" if x.verdict == 1 else "bad" for x in usable]
    good = [v for (v, _), r in zip(said, reference, strict=True) if r == "good"]
    bad = [v for (v, _), r in zip(said, reference, strict=True) if r == "bad"]
    n = len(usable)
    observed = sum(v == r for (v, _), r in zip(said, reference, strict=True)) / n
    g_grader, g_ref = sum(v == "good" for v, _ in said) / n, reference.count("good") / n
    expected = g_grader * g_ref + (1 - g_grader) * (1 - g_ref)
    pos = [s for (_, s), r in zip(said, reference, strict=True) if r == "good"]
    neg = [s for (_, s), r in zip(said, reference, strict=True) if r == "bad"]
    wins = sum((a > b) + 0.5 * (a == b) for a in pos for b in neg)
    return {
        "agreement": observed,
        "agreement_kappa": (observed - expected) / (1 - expected),
        "sensitivity": good.count("good") / len(good),
        "specificity": bad.count("bad") / len(bad),
        "score_auroc": wins / (len(pos) * len(neg)),
        "score_spearman": spearmanr([s for _, s in said], [x.score for x in usable]).statistic,
        "grader_good_pct": g_grader,
        "reference_good_pct": g_ref,
        "n_reference_good": len(good),
        "n_reference_bad": len(bad),
    }


def test_metrics_equal_the_statistics_by_hand(runs: Runs) -> None:
    values = metric_values(runs.check)
    for model, usable in runs.qualification.items():
        for name, expected in by_hand(usable, model).items():
            assert values[f"{name}:{model}"] == pytest.approx(expected, abs=1e-12), (model, name)
    assert values["grader_fail_rate"] == 0.0
    assert values["good_pct_gap"] == pytest.approx(values["grader_good_pct"] - values["reference_good_pct"])
    assert values["youden"] == pytest.approx(values["sensitivity"] + values["specificity"] - 1)
    n_good = sum(by_hand(u, m)["n_reference_good"] for m, u in runs.qualification.items())
    assert values["n_reference_good"] == n_good
    assert runs.check.results.total_samples == sum(len(u) for u in runs.qualification.values())


def test_measured_rates_match_the_injected_ones(runs: Runs) -> None:
    values = metric_values(runs.check)
    for name, rate, n in (
        ("sensitivity", SENS, values["n_reference_good"]),
        ("specificity", SPEC, values["n_reference_bad"]),
    ):
        assert abs(values[name] - rate) <= 3 * math.sqrt(rate * (1 - rate) / n), name


def test_left_out_replies_are_counted(runs: Runs) -> None:
    facts = runs.check.eval.metadata
    assert facts["models"] == ["alpha", "gamma"]
    alpha = lines("alpha", N, failed_replies=23, failed_grades=29)
    assert facts["left_out"]["alpha"] == {
        "failed_reply": sum(x.reply is None for x in alpha),
        "failed_grade": sum(x.reply is not None and x.verdict == 0 for x in alpha),
        "no_reply": 0,
        "not_in_data": 0,
    }
    assert facts["left_out"]["gamma"] == {
        "failed_reply": 0,
        "failed_grade": 0,
        "no_reply": 1,
        "not_in_data": 3,
    }
    assert facts["left_out_failed_reply"] == facts["left_out"]["alpha"]["failed_reply"]
    assert facts["published_good_pct"]["alpha"] == published_good_pct(
        read_grades(runs.root, "task2", "alpha")
    )


def test_the_grader_sees_what_task2_shows_it(runs: Runs) -> None:
    """grader_check grades a reply with the very prompt Task 2's scorer sends for it."""
    assert runs.beta_check.results.total_samples == 10
    prompts = [prompt_text(r) for r in runs.requests]
    for sample in runs.beta_check.samples:
        mark = f"«beta:{int(str(sample.id)[-4:])}»"
        seen = [p for p in prompts if mark in p]
        assert len(seen) == 2 and seen[0] == seen[1]  # once by grader_check, once by Task 2


# ---------------------------------------------------------------- correction


def test_the_correction_recovers_the_reference_good_pct(runs: Runs) -> None:
    reference = published_good_pct(read_grades(runs.root, "task2", "beta"))
    values = metric_values(runs.beta_run)
    p, p_se = values["good_pct"], values["good_pct_stderr"]
    corrected = corrected_rate(p, p_se, Check.of(runs.check).qualification)
    assert corrected.low <= reference <= corrected.high
    assert abs(p - reference) > 0.08  # the stand-in's raw Good% is far off ...
    assert abs(corrected.estimate - reference) < abs(p - reference)  # ... the corrected one is closer


def test_a_run_is_matched_with_its_qualification(runs: Runs) -> None:
    check, beta_check, grading = Check.of(runs.check), Check.of(runs.beta_check), Grading.of(runs.beta_run)
    assert grading == Grading("task2", (Grader("openai-api/local/grader"),), None, None)
    assert qualifies(check, grading) and find_qualification([beta_check, check], grading) is not None
    assert not qualifies(check, replace(grading, template="my_grm.txt"))
    assert not qualifies(check, replace(grading, task="task3"))
    assert not qualifies(check, replace(grading, graders=(Grader("openai-api/local/other"),)))
    assert Check.of(runs.beta_run) is None and Grading.of(runs.check) is None
    # a person is qualified as that person only
    person = replace(check, grader=Grader("uxbench/human", "rater1"))
    assert qualifies(person, replace(grading, graders=(Grader("uxbench/human", "rater1"),)))
    assert not qualifies(person, replace(grading, graders=(Grader("uxbench/human", "rater2"),)))
    # runs no grader_check can qualify, and why
    assert replace(grading, graders=()).why_not() == SELF_GRADED
    assert replace(grading, graders=grading.graders * 2).why_not() == PANEL
    assert "grm_context=full" in replace(grading, task="task3", grm_context="full").why_not()
    assert replace(grading, task="task3", grm_context="paper").why_not() is None
    assert not qualifies(check, replace(grading, graders=()))
    fields, note = grm_equivalent(0.43, 0.045, check)
    assert note is None and fields["grader_check_log"] == runs.check.location
    assert (
        fields["good_pct_grm_equiv_low"] <= fields["good_pct_grm_equiv"] <= fields["good_pct_grm_equiv_high"]
    )
    assert grm_equivalent(0.43, 0.045, None) == (
        {
            "good_pct_grm_equiv": None,
            "good_pct_grm_equiv_low": None,
            "good_pct_grm_equiv_high": None,
            "grader_check_log": None,
        },
        NOT_QUALIFIED,
    )
    assert set(grm_equivalent(0.1, 0.01, check, prefix="recovery_rate")[0]) == {
        "recovery_rate_grm_equiv",
        "recovery_rate_grm_equiv_low",
        "recovery_rate_grm_equiv_high",
        "grader_check_log",
    }
    weak = replace(check, metrics={**check.metrics, "sensitivity": 0.5, "specificity": 0.6})
    assert grm_equivalent(0.43, 0.045, weak)[1].startswith(
        "grader too weak to correct (sens + spec − 1 = 0.10 <"
    )


# ---------------------------------------------------------------- replay


def test_replay_reproduces_the_published_rates(
    runs: Runs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = get_model("uxbench/replay/alpha", outputs=str(runs.root))
    monkeypatch.setenv("UXBENCH_OUTPUTS", str(runs.root))  # the grader finds the files this way
    grader = get_model("uxbench/replay-grm/alpha")
    data = str(runs.data)
    eval_log, recovery_log = run(
        [task2_eval(data=data), task3_recovery(data=data)], model, tmp_path, model_roles={"grader": grader}
    )
    for log, task, headline in ((eval_log, "task2", "good_pct"), (recovery_log, "task3", "recovery_rate")):
        grades = read_grades(runs.root, task, "alpha")
        assert metric_values(log)[headline] == published_good_pct(grades)
        for sample in log.samples:
            published, replayed = grades[str(sample.id)].score, sample.scores["grm"].metadata["score"]
            assert (
                replayed == pytest.approx(published, abs=1e-9) if published is not None else replayed is None
            )
    scores = [g.score for g in read_grades(runs.root, "task2", "alpha").values() if g.score is not None]
    assert metric_values(eval_log)["score_mean"] == pytest.approx(sum(scores) / len(scores), abs=1e-9)


def test_replay_errors_name_the_problem(runs: Runs, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UXBENCH_OUTPUTS", raising=False)
    with pytest.raises(DataError, match="UXBENCH_OUTPUTS"):
        get_model("uxbench/replay/alpha", memoize=False)
    with pytest.raises(DataError, match="none of .*nobody.jsonl"):
        get_model("uxbench/replay/nobody", outputs=str(runs.root), memoize=False)
    with pytest.raises(DataError, match="unknown model args colour"):
        get_model("uxbench/replay-grm/alpha", outputs=str(runs.root), colour="red", memoize=False)


def test_the_command_line_of_the_docs(runs: Runs, tmp_path: Path) -> None:
    """`inspect eval uxbench/grader_check` on two published models, a sample of 5 replies each."""
    command = [sys.executable, "-m", "inspect_ai", "eval", "uxbench/grader_check", "--model", "mockllm/model"]
    command += ["-T", f"reference={runs.root}", "-T", "task=task2", "-T", f"data={runs.data}"]
    command += [
        "-T",
        "models=alpha,gamma",
        "-T",
        "per_model=5",
        "--log-dir",
        str(tmp_path),
        "--display",
        "none",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    [check] = [read_eval_log(info) for info in list_eval_logs(str(tmp_path))]
    assert check.status == "success" and check.results.total_samples == 10
    assert check.eval.metadata["models"] == ["alpha", "gamma"]
    assert metric_values(check)["grader_fail_rate"] == 1.0  # mockllm answers with neither label


# ---------------------------------------------------------------- reference=users


def test_users_reference_reports_task1_accuracies(judge_dir, tmp_path: Path) -> None:
    data = judge_dir(6, 6)
    # the grader likes GOODREPLY 0-4 and BADREPLY 0-1: Good-Acc 5/6, Bad-Acc 4/6
    liked = {f"GOODREPLY {i}" for i in range(5)} | {f"BADREPLY {i}" for i in range(2)}

    def answer(messages: list[ChatMessage], *_) -> ModelOutput:
        prompt = read_judge_prompt(messages[-1].text, builtin_templates())
        reply = prompt.fields["response"] if prompt else ""
        return ModelOutput.from_content("mockllm", "好" if reply in liked else "差")

    grader = get_model("mockllm/model", custom_outputs=answer)
    [log] = run(grader_check(data=str(data)), grader, tmp_path)
    values = metric_values(log)
    assert (values["good_acc"], values["bad_acc"], values["avg_acc"]) == pytest.approx((5 / 6, 4 / 6, 0.75))
    assert list(values)[:3] == ["avg_acc", "good_acc", "bad_acc"]
    assert log.eval.metadata["reference"] == "users" and "per_model:" not in "".join(values)
    disliked = next(s for s in log.samples if s.id == "uxbench_ux_judge_1000")
    assert [(m.role, m.text) for m in disliked.input] == [  # the conversation, as Task 2 would show it
        ("user", "你好"),
        ("assistant", "你好！"),
        ("user", "第 0 个追问"),
    ]
    assert disliked.output.completion == "BADREPLY 0" and disliked.target == "bad"


def test_options_that_do_not_go_together(runs: Runs) -> None:
    with pytest.raises(DataError, match="reference=users grades Task 1"):
        grader_check(task="task3")
    with pytest.raises(DataError, match="no judge file for nobody"):
        grader_check(reference=str(runs.root), data=str(runs.data), models="alpha,nobody")
    with pytest.raises(DataError, match="no task2_ux_eval/judge/"):
        grader_check(reference=str(runs.data), data=str(runs.data))


# ---------------------------------------------------------------- in shards


def test_a_grader_check_in_shards_pools_to_the_whole_checks_numbers(runs: Runs, tmp_path: Path) -> None:
    with OpenAIServer(flipping_grader) as server:
        grader = get_model("openai-api/local/grader", base_url=server.url, api_key="test-key")
        shards = [
            grader_check(
                reference=str(runs.root), task="task2", data=str(runs.data), models="alpha,gamma", shard=k
            )
            for k in ("1/2", "2/2")
        ]
        first, second = run(shards, grader, tmp_path)
    whole = Check.of(runs.check)
    _, [pooled], skipped = collect([tmp_path / "logs"], pool_dir=tmp_path / "pooled")
    assert pooled.check.metrics.keys() == whole.metrics.keys() and not skipped
    for name, value in whole.metrics.items():
        assert pooled.check.metrics[name] == pytest.approx(value, abs=1e-12, nan_ok=True), name
    Path(second.location).unlink()
    _, checks, skipped = collect([tmp_path / "logs"], pool_dir=tmp_path / "pooled")
    assert checks == [] and [s.reason for s in skipped] == [
        "a grader_check in shards, not all of them usable (shard 2/2 missing); not used"
    ]
