"""Non-finite numbers and empty replies from providers (hardening: non-finite logprobs, no choices).

Rules: a logprob of −inf is probability 0; NaN, +inf and null mean the token has no usable
logprob, so the answer counts as one without logprobs (verdict from the text, no score,
`no_logprob_rate`); metrics skip non-finite stored numbers and count them. A grader reply
without choices errors the sample (tests/scorers/test_grader_errors.py). Each case failed on
the code before this change (a NaN score or mean, a crashed metric, or an eval ending in error).
"""

import math
from pathlib import Path

import pytest
from helpers.rawserver import Raw, RawServer, chat_body, label_tokens
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import Logprob, Logprobs, ModelOutput, TopLogprob, get_model
from inspect_ai.scorer import SampleScore, Score

from uxbench.grader_answer.logprobs import token_bytes
from uxbench.grader_answer.reading import judge
from uxbench.judge_answer.calibration import auroc_metric, brier_metric, ece_metric, p_good_rate
from uxbench.scorers.grm import grm, grm_metrics
from uxbench.scorers.metrics import delta_score, score_mean
from uxbench.tasks.task1_judge import task1_judge

NAN, INF = float("nan"), float("inf")
LN = math.log


def output(tokens: list[tuple[str, float | None, list[tuple[str, float | None]]]]) -> ModelOutput:
    """A grader answer whose tokens carry these logprobs (None: a provider's null, built unvalidated)."""

    def top(token: str, logprob: float | None) -> TopLogprob:
        return TopLogprob.model_construct(token=token, logprob=logprob, bytes=None)

    content = [
        Logprob.model_construct(token=t, logprob=lp, bytes=None, top_logprobs=[top(a, p) for a, p in alts])
        for t, lp, alts in tokens
    ]
    text = b"".join(token_bytes(t) for t, _, _ in tokens).decode("utf-8", "replace")
    out = ModelOutput.from_content("m", text)
    out.choices[0].logprobs = Logprobs.model_construct(content=content)
    return out


# (case, answer tokens, verdict, score, has usable logprobs)
JUDGE_CASES = [
    ("bad alternative -inf is P(bad) = 0", [("好", -0.1, [("好", -0.1), ("差", -INF)])], "good", 1.0, True),
    ("good alternative -inf is P(good) = 0", [("差", -0.2, [("差", -0.2), ("好", -INF)])], "bad", 0.0, True),
    ("both labels -inf: no score", [("好", -INF, [("好", -INF), ("差", -INF)])], "good", None, True),
    ("bad alternative NaN", [("好", -0.1, [("好", -0.1), ("差", NAN)])], "good", None, False),
    ("bad alternative +inf", [("好", -0.1, [("好", -0.1), ("差", INF)])], "good", None, False),
    ("generated label NaN", [("好", NAN, [("好", NAN), ("差", LN(0.2))])], "good", None, False),
    ("bad alternative null", [("好", -0.1, [("好", -0.1), ("差", None)])], "good", None, False),
    (
        "split character with a NaN on the path",
        [("bytes:\\xe5", NAN, [("bytes:\\xe5", NAN)]), ("bytes:\\xa5\\xbd", -0.01, [])],
        "good",
        None,
        False,
    ),
]


@pytest.mark.integration
@pytest.mark.parametrize(
    ("case", "tokens", "verdict", "score", "usable"), JUDGE_CASES, ids=[c[0] for c in JUDGE_CASES]
)
def test_grader_logprobs(case: str, tokens, verdict: str, score: float | None, usable: bool) -> None:
    judgment = judge(output(tokens))
    assert judgment.verdict == verdict
    assert judgment.score == (pytest.approx(score) if score is not None else None)
    assert judgment.has_logprobs is usable


def p_good_score(label: str, p: float | None) -> SampleScore:
    return SampleScore(score=Score(value=1, answer=label, metadata={"label": label, "p_good": p}))


def grm_score(score: float | None, baseline: float | None = 0.5) -> SampleScore:
    meta = {"verdict": "good", "score": score, "logprobs": True, "baseline_score": baseline}
    return SampleScore(score=Score(value=1, answer="good", metadata=meta))


TASK1 = [
    p_good_score("good", 0.9),
    p_good_score("bad", 0.2),
    p_good_score("good", NAN),
    p_good_score("bad", INF),
]
GRM = [grm_score(0.8), grm_score(0.4), grm_score(NAN), grm_score(-INF), grm_score(0.6, baseline=NAN)]

# (case, metric, scores, value): stored non-finite numbers (a log written before this change) are skipped
METRIC_CASES = [
    ("ece skips NaN and inf P(good)", ece_metric(), TASK1, (0.1 + 0.2) / 2),
    ("brier skips them", brier_metric(), TASK1, (0.01 + 0.04) / 2),
    ("auroc skips them", auroc_metric(), TASK1, 1.0),
    ("p_good_rate counts only usable ones", p_good_rate(), TASK1, 0.5),
    ("score_mean skips NaN and -inf", score_mean(), GRM, (0.8 + 0.4 + 0.6) / 3),
    ("delta_score skips a NaN baseline", delta_score(), GRM, ((0.8 - 0.5) + (0.4 - 0.5)) / 2),
]


@pytest.mark.parametrize(
    ("case", "metric", "scores", "value"), METRIC_CASES, ids=[c[0] for c in METRIC_CASES]
)
def test_metrics_skip_non_finite(case: str, metric, scores: list[SampleScore], value: float) -> None:
    assert metric(scores) == pytest.approx(value)


def test_skipped_numbers_are_counted() -> None:
    from uxbench.judge_answer.calibration import p_good_skipped
    from uxbench.scorers.metrics import score_skipped

    assert p_good_skipped()(TASK1) == 2.0 and score_skipped()(GRM) == 2.0


# ---------------------------------------------------------------- the real provider path


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}


def grade_over_http(
    tmp_path: Path, bodies: list[dict], baseline: bool = False, **options: int
) -> tuple[EvalLog, RawServer]:
    """One sample per body: the model under test replies, the grader at the raw server answers."""
    samples = [Sample(id=i, input=f"问题 #{i}#") for i in range(len(bodies))]
    if baseline:
        samples = [
            Sample(id=i, input=[{"role": "user", "content": f"问题 #{i}#"},
                                {"role": "assistant", "content": "失败的回复"},
                                {"role": "user", "content": f"不对 #{i}#"}])
            for i in range(len(bodies))
        ]  # fmt: skip

    def respond(request: dict) -> Raw:
        text = str(request["messages"])
        number = next(i for i in range(len(bodies)) if f"#{i}#" in text)
        return Raw(bodies[number])

    with RawServer(respond) as server:
        grader = get_model("openai-api/raw/grader", base_url=server.url, api_key="test", memoize=False)
        [log] = eval(
            Task(dataset=samples, scorer=grm(baseline=baseline), metrics=grm_metrics(baseline=baseline)),
            model="mockllm/model",
            model_roles={"grader": grader},
            log_dir=str(tmp_path),
            display="none",
            **options,
        )
    return log, server


def grm_meta(log: EvalLog) -> dict[object, dict]:
    assert log.samples is not None
    return {s.id: s.scores["grm"].metadata for s in log.samples if s.scores}


GOOD_BODY = chat_body("好", label_tokens("好", LN(0.75), LN(0.25)))


@pytest.mark.integration
def test_grader_minus_inf_over_http(tmp_path: Path) -> None:
    log, _ = grade_over_http(tmp_path, [chat_body("好", label_tokens("好", -0.1, -INF)), GOOD_BODY])
    assert log.status == "success", log.error
    assert grm_meta(log)[0]["score"] == 1.0
    assert metrics(log)["score_mean"] == pytest.approx((1.0 + 0.75) / 2)


@pytest.mark.integration
def test_grader_nan_over_http_counts_as_no_logprobs(tmp_path: Path) -> None:
    log, _ = grade_over_http(tmp_path, [chat_body("差", label_tokens("差", LN(0.1), NAN)), GOOD_BODY])
    assert log.status == "success", log.error
    meta = grm_meta(log)[0]
    assert meta["verdict"] == "bad" and meta["score"] is None and meta["logprobs"] is False
    values = metrics(log)
    assert values["no_logprob_rate"] == 0.5 and values["score_mean"] == pytest.approx(0.75)


@pytest.mark.integration
def test_grader_null_logprob_is_asked_again_without_logprobs(tmp_path: Path) -> None:
    def body(request_logprobs: bool) -> dict:
        return chat_body("差", label_tokens("差", None, -0.1) if request_logprobs else None)

    samples = [Sample(id=0, input="问题")]
    with RawServer(lambda request: Raw(body(bool(request.get("logprobs"))))) as server:
        grader = get_model("openai-api/raw/grader", base_url=server.url, api_key="test", memoize=False)
        [log] = eval(
            Task(dataset=samples, scorer=grm()),
            model="mockllm/model",
            model_roles={"grader": grader},
            log_dir=str(tmp_path),
            display="none",
        )
    assert log.status == "success", log.error
    assert [r.get("logprobs") for r in server.requests] == [True, False]
    meta = grm_meta(log)[0]
    assert meta["verdict"] == "bad" and meta["score"] is None and meta["logprobs"] is False
    assert metrics(log)["no_logprob_rate"] == 1.0


@pytest.mark.integration
@pytest.mark.parametrize(
    ("case", "body", "message"),
    [
        ("empty choices", chat_body("", choices=False), "the grader's reply had no choices"),
        ("no choices key", chat_body("", choices=None), "the grader's reply had no choices"),
    ],
)
def test_grader_reply_without_choices_errors_the_sample(
    tmp_path: Path, case: str, body: dict, message: str
) -> None:
    log, _ = grade_over_http(tmp_path, [body, GOOD_BODY], baseline=case == "empty choices", max_retries=0)
    assert log.status == "error"
    errors = {s.id: s.error.message for s in log.samples or [] if s.error}
    assert errors[0] == f"grader openai-api/raw/grader: {message}" and 0 not in grm_meta(log)


# ---------------------------------------------------------------- Task 1 judges with --logprobs


def judge_over_http(judge_dir, tmp_path: Path, weird: tuple[str, float | None, float | None]) -> EvalLog:
    """Task 1 over HTTP with logprobs; the first liked reply's answer carries `weird` logprobs."""
    data = judge_dir(2, 2)

    def respond(request: dict) -> Raw:
        text = str(request["messages"])
        if "GOODREPLY 0" in text:
            first, good, bad = weird
            return Raw(chat_body(first, label_tokens(first, good, bad)))
        first = "好" if "GOODREPLY" in text else "差"
        good = LN(0.8) if first == "好" else LN(0.3)
        return Raw(chat_body(first, label_tokens(first, good, math.log1p(-math.exp(good)))))

    with RawServer(respond) as server:
        judge = get_model("openai-api/raw/judge", base_url=server.url, api_key="test", memoize=False)
        [log] = eval(
            task1_judge(data=str(data)),
            model=judge,
            logprobs=True,
            top_logprobs=5,
            log_dir=str(tmp_path),
            display="none",
        )
    return log


@pytest.mark.integration
@pytest.mark.parametrize(
    ("case", "weird"),
    [
        ("NaN logprob", ("好", NAN, LN(0.2))),
        ("+inf logprob", ("好", INF, LN(0.2))),
        ("null logprob", ("好", LN(0.8), None)),
    ],
)
def test_task1_judge_with_unusable_logprobs(judge_dir, tmp_path: Path, case: str, weird) -> None:
    log = judge_over_http(judge_dir, tmp_path, weird)
    assert log.status == "success", log.error
    values = metrics(log)
    # the other three answers: liked 0.8, disliked 0.3 and 0.3 (y = 1, 0, 0)
    assert values["p_good_rate"] == 0.75 and values["avg_acc"] == 1.0
    assert values["ece"] == pytest.approx((0.2 + 0.3 + 0.3) / 3)
    assert values["brier"] == pytest.approx((0.04 + 0.09 + 0.09) / 3)
    [odd] = [s for s in log.samples if "GOODREPLY 0" in str(s.input)]
    assert odd.scores["judge_verdict"].metadata["p_good"] is None


@pytest.mark.integration
def test_task1_judge_minus_inf_is_probability_zero(judge_dir, tmp_path: Path) -> None:
    log = judge_over_http(judge_dir, tmp_path, ("好", LN(0.8), -INF))
    assert log.status == "success", log.error
    [odd] = [s for s in log.samples if "GOODREPLY 0" in str(s.input)]
    assert odd.scores["judge_verdict"].metadata["p_good"] == 1.0
    assert metrics(log)["p_good_rate"] == 1.0


@pytest.mark.integration
def test_eval_retry_of_a_run_with_non_finite_logprobs(
    judge_dir, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run whose answers carry NaN and −inf logprobs stops on an unrelated error; eval-retry
    reuses those samples (reading them back from the log) and must finish with finite metrics."""
    from inspect_ai import eval_retry

    data = judge_dir(2, 2)
    broken = {"on": True}

    def respond(request: dict) -> Raw:
        text = str(request["messages"])
        if "BADREPLY 1" in text and broken["on"]:
            return Raw({"error": "not a completion"})  # no choices, no usage: a sample error in Task 1
        if "GOODREPLY 0" in text:
            return Raw(chat_body("好", label_tokens("好", NAN, LN(0.2))))
        if "GOODREPLY 1" in text:
            return Raw(chat_body("好", label_tokens("好", -0.2, -INF)))
        return Raw(chat_body("差", label_tokens("差", LN(0.4), LN(0.6))))

    monkeypatch.setenv("RAW_API_KEY", "test")  # eval-retry builds the model again from the log
    with RawServer(respond) as server:
        judge = get_model("openai-api/raw/judge", base_url=server.url, memoize=False)
        [first] = eval(
            task1_judge(data=str(data)), model=judge, logprobs=True, top_logprobs=5,
            log_dir=str(tmp_path), display="none",
        )  # fmt: skip
        assert first.status == "error"
        broken["on"] = False
        [log] = eval_retry(first.location, log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    values = metrics(read_eval_log(log.location))
    assert values["p_good_rate"] == 0.75 and values["avg_acc"] == 1.0
    # P(good): NaN answer skipped; 1.0 (−inf bad); 0.4 and 0.4 for the disliked replies
    assert values["ece"] == pytest.approx((0.0 + 0.4 + 0.4) / 3)
    assert all(math.isfinite(v) for v in values.values())
