"""Calibration and agreement formulas, pinned against values worked out by hand."""

import math

import pytest
from inspect_ai import eval
from inspect_ai.model import Logprob, Logprobs, ModelOutput, TopLogprob, get_model
from inspect_ai.scorer import SampleScore, Score

from uxbench.data.templates import Template, builtin_path, load_template
from uxbench.judge_answer.calibration import (
    answer_reading,
    auroc,
    brier,
    cohen_kappa,
    ece,
    kappa_metric,
    mcc,
    p_good_rate,
)
from uxbench.judge_answer.verdict import parse_verdict
from uxbench.stats.agreement import reliability_bins
from uxbench.tasks.task1_judge import task1_judge

# Six judged replies: three liked (y = 1), three disliked.
P = [0.9, 0.8, 0.4, 0.6, 0.4, 0.1]
Y = [1, 1, 1, 0, 0, 0]
SAID = ["good", "good", "bad", "good", "bad", "bad"]
TRUTH = ["good", "good", "good", "bad", "bad", "bad"]


def test_auroc() -> None:
    # 9 liked×disliked pairs: 0.9 and 0.8 beat all three (6); 0.4 loses to 0.6, ties 0.4 (½), beats 0.1
    assert auroc(P, Y) == pytest.approx(7.5 / 9)
    assert auroc([0.2, 0.8], [0, 1]) == 1.0 and auroc([0.5, 0.5], [0, 1]) == 0.5
    assert math.isnan(auroc([0.3, 0.7], [1, 1]))  # one class only


def test_brier() -> None:
    # squared errors 0.01, 0.04, 0.36, 0.36, 0.16, 0.01
    assert brier(P, Y) == pytest.approx(0.94 / 6)
    assert math.isnan(brier([], []))


def test_ece_and_bins() -> None:
    # bins 9, 8, 4 (two replies: 1 liked, mean p 0.4), 6, 1; gaps 0.1, 0.2, 0.1 (×2), 0.6, 0.1
    assert ece(P, Y) == pytest.approx(1.2 / 6)
    bins = reliability_bins(P, Y)
    assert [b.count for b in bins] == [0, 1, 0, 0, 2, 0, 1, 0, 1, 1]
    assert bins[4].confidence == pytest.approx(0.4) and bins[4].frequency == 0.5
    assert reliability_bins([1.0, 0.0], [1, 0])[9].count == 1  # 1.0 falls in the last bin
    assert ece([1.0, 0.0], [1, 0]) == 0.0


def test_mcc_and_kappa_binary() -> None:
    # TP 2, FN 1, FP 1, TN 2: MCC = (2·2 − 1·1) / √(3·3·3·3) = 1/3; κ = (4/6 − 1/2) / (1 − 1/2) = 1/3
    assert mcc(SAID, TRUTH) == pytest.approx(1 / 3)
    assert cohen_kappa(SAID, TRUTH) == pytest.approx(1 / 3)


def test_mcc_and_kappa_with_an_unparseable_answer() -> None:
    said, truth = ["good", "none", "bad", "good"], ["good", "good", "bad", "bad"]
    # c = 2, s = 4, Σ pₖtₖ = 2·2 + 1·2 = 6, Σ pₖ² = 6, Σ tₖ² = 8: (8 − 6) / √(10·8)
    assert mcc(said, truth) == pytest.approx(2 / math.sqrt(80))
    # p_o = 1/2, p_e = 6/16
    assert cohen_kappa(said, truth) == pytest.approx((0.5 - 0.375) / 0.625)


def test_constant_judge_has_no_skill() -> None:
    assert mcc(["good"] * 4, TRUTH[:4]) == 0.0
    assert cohen_kappa(["good"] * 4, ["good", "good", "bad", "bad"]) == 0.0
    assert cohen_kappa(["bad"] * 3, ["bad"] * 3) == 1.0


def output_with(alternatives: dict[str, float], first: str = "好") -> ModelOutput:
    output = ModelOutput.from_content("m", first)
    tops = [TopLogprob(token=t, logprob=math.log(p)) for t, p in alternatives.items()]
    output.choices[0].logprobs = Logprobs(
        content=[Logprob(token=first, logprob=math.log(alternatives[first]), top_logprobs=tops)]
    )
    return output


def answer_p_good(output: ModelOutput, template: Template) -> float | None:
    verdict = parse_verdict(output.completion, template)
    return answer_reading(output, output.completion, verdict, template).score


def test_p_good_from_the_answer_token() -> None:
    template = load_template(builtin_path("judge_default.txt"))  # three labels: the neutral one is left out
    assert answer_p_good(output_with({"好": 0.6, "差": 0.2, "中": 0.2}), template) == pytest.approx(0.75)
    assert answer_p_good(output_with({"差": 0.7, "中": 0.3}, "差"), template) == pytest.approx(0.3)
    assert answer_p_good(ModelOutput.from_content("m", "好"), template) is None
    assert answer_p_good(output_with({"好": 1.0}), load_template(builtin_path("judge_json_en.txt"))) is None


def sample_score(answer: str | None, label: str, p: float | None = None) -> SampleScore:
    metadata = {"label": label, "p_good": p}
    return SampleScore(score=Score(value=int(answer == label), answer=answer, metadata=metadata))


def test_metrics_read_the_score_metadata() -> None:
    scores = [sample_score("good", "good", 0.9), sample_score(None, "good"), sample_score("bad", "bad", 0.2)]
    assert p_good_rate()(scores) == pytest.approx(2 / 3)
    # verdicts good / none / bad against good / good / bad: p_o 2/3, p_e (1·2 + 1·1) / 9
    assert kappa_metric()(scores) == pytest.approx((2 / 3 - 1 / 3) / (1 - 1 / 3))


@pytest.mark.integration
def test_task1_run_with_a_logprob_judge(judge_dir) -> None:
    # liked replies have 11 characters, disliked 10: P(good) = 11/22 and 10/21
    judge = get_model("uxbench/baseline/length", threshold=11, memoize=False)
    [log] = eval(
        task1_judge(data=str(judge_dir(2, 2))), model=judge, logprobs=True, top_logprobs=5, display="none"
    )
    assert log.status == "success"
    values = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    bad = 10 / 21
    assert values["auroc"] == 1.0 and values["mcc"] == 1.0 and values["kappa"] == 1.0
    assert values["brier"] == pytest.approx((0.25 + bad**2) / 2)
    assert values["ece"] == pytest.approx((0.5 + bad) / 2)
    assert values["p_good_rate"] == 1.0
    assert log.samples[0].scores["judge_verdict"].metadata["p_good"] in (
        pytest.approx(0.5),
        pytest.approx(bad),
    )


@pytest.mark.integration
def test_task1_run_without_logprobs(judge_dir) -> None:
    [log] = eval(task1_judge(data=str(judge_dir(2, 2))), model="uxbench/baseline/always-good", display="none")
    values = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert values["kappa"] == 0.0 and values["mcc"] == 0.0
    assert "auroc" not in values and values["p_good_rate"] == 0.0
