"""Grader errors are errors, never verdicts (docs/tasks-2-3.md#when-the-grader-fails).

A real local server answers each way a grader's provider fails. Before this change an HTTP 200
error body, a reply without choices or message, and any HTTP 400 (a grader refusing
`top_logprobs` included) became a `failed` judgment — counted as not good in a run that ended
with status success. Now only a context-length rejection climbs the truncation ladder, a reply
that is no answer errors the sample with the provider's message, and an error every call
repeats stops the run at the first sample with one message.
"""

import math
from pathlib import Path

import httpx
import openai
import pytest
from helpers.evals import run_eval
from helpers.grm import grade_reply
from helpers.localserver import AnthropicServer, Reply
from helpers.rawserver import Raw, RawServer, chat_body, label_tokens
from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import Logprob, Logprobs, ModelOutput, TopLogprob, get_model
from inspect_ai.scorer import SampleScore, Score

from uxbench.grader_answer.faults import configuration, context_length
from uxbench.grader_answer.reading import judge
from uxbench.scorers.grm import grm
from uxbench.scorers.metrics import fail_rate

LN = math.log
INF = math.inf
GOOD = chat_body("好", label_tokens("好", LN(0.75), LN(0.25)))
GRADER = "openai-api/raw/grader"


def error_body(message: str, code: object = None, kind: str = "invalid_request_error") -> dict:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def run(tmp_path: Path, respond, samples: int = 1, **options) -> tuple[EvalLog, int]:
    """`samples` one-question samples graded by the raw server; (log, requests the grader got)."""
    with RawServer(respond) as server:
        grader = get_model(GRADER, base_url=server.url, api_key="test", memoize=False)
        log = run_eval(
            Task(dataset=[Sample(id=i, input=f"问题 {i}") for i in range(samples)], scorer=grm()),
            tmp_path,
            expect=None,
            model="mockllm/model",
            model_roles={"grader": grader},
            **{"max_retries": 0, **options},
        )
        return log, len(server.requests)


def sample_error(log: EvalLog) -> str:
    assert log.samples is not None and log.samples[0].error is not None, log.status
    assert not log.samples[0].scores  # no verdict at all
    return log.samples[0].error.message


# ---------------------------------------------------------------- a reply that is no answer


@pytest.mark.parametrize(
    ("case", "body", "message"),
    [
        (
            "HTTP 200 with an error body",
            error_body("Upstream overloaded, try again later", 503, "server_error"),
            "the grader answered with an error: Upstream overloaded, try again later",
        ),
        (
            "HTTP 200 with an error string",
            {"error": "gateway timeout"},
            "the grader answered with an error: gateway timeout",
        ),
        ("empty choices", chat_body("", choices=False), "the grader's reply had no choices"),
        ("no choices key", chat_body("", choices=None), "the grader's reply had no choices"),
        (
            "a choice without a message",
            {**GOOD, "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None}]},
            "the grader's reply had a choice without a message",
        ),
    ],
)
def test_a_reply_that_is_no_answer_errors_the_sample(
    tmp_path: Path, case: str, body: dict, message: str
) -> None:
    log, requests = run(tmp_path, lambda _: Raw(body))
    assert log.status == "error"
    assert sample_error(log) == f"grader {GRADER}: {message}"
    assert requests == 1  # --max-retries 0: asked once, never down the truncation ladder


@pytest.mark.slow  # Inspect waits 3–6 s before its retry
def test_an_error_body_is_retried_under_max_retries(tmp_path: Path) -> None:
    bodies = iter([error_body("overloaded", 503, "server_error"), GOOD])
    log, requests = run(tmp_path, lambda _: Raw(next(bodies)), max_retries=1)
    assert log.status == "success", log.error
    assert requests == 2 and log.samples[0].scores["grm"].metadata["verdict"] == "good"


def test_an_error_body_persisting_past_max_retries_errors_the_sample_with_the_provider_message(
    tmp_path: Path,
) -> None:
    log, requests = run(tmp_path, lambda _: Raw(error_body("quota exhausted upstream", 429)), samples=2)
    assert log.status == "error" and requests >= 1
    assert "quota exhausted upstream" in sample_error(log)
    assert log.results is None or all(s.scores is None for s in log.samples or [])


# ---------------------------------------------------------------- errors every call repeats


@pytest.mark.parametrize(
    ("case", "status", "body", "provider_words"),
    [
        (
            "logprobs not supported (HTTP 400)",
            400,
            error_body("logprobs is not supported for this model"),
            "logprobs is not supported",
        ),
        (
            "top_logprobs out of range (HTTP 400)",
            400,
            error_body("top_logprobs must be less than or equal to 0 for this deployment"),
            "top_logprobs must be",
        ),
        (
            "unknown model (HTTP 404)",
            404,
            error_body("The model `grm-x` does not exist", "model_not_found"),
            "does not exist",
        ),
        ("unknown model (HTTP 400)", 400, error_body("unknown model: grm-x"), "unknown model: grm-x"),
        (
            "wrong key (HTTP 401)",
            401,
            error_body("Incorrect API key provided", "invalid_api_key"),
            "Incorrect",
        ),
        (
            "no access (HTTP 403)",
            403,
            error_body("You do not have access to this model"),
            "do not have access",
        ),
    ],
)
def test_a_configuration_error_stops_the_run_at_the_first_sample(
    tmp_path: Path, case: str, status: int, body: dict, provider_words: str
) -> None:
    log, requests = run(tmp_path, lambda _: Raw(body, status=status), samples=6, max_samples=1)
    assert log.status == "error" and log.error is not None
    assert log.error.message.startswith(f"grader {GRADER}: every call is refused, so the run stops: ")
    assert provider_words in log.error.message
    assert requests == 1  # one call, no truncation ladder, no other sample
    assert sum(log.error.message == s.error.message for s in log.samples or [] if s.error) == 1


def test_another_bad_request_errors_the_sample_and_does_not_climb_the_ladder(tmp_path: Path) -> None:
    body = error_body("messages[0].content: invalid type")
    log, requests = run(tmp_path, lambda _: Raw(body, status=400))
    assert log.status == "error"
    assert "messages[0].content: invalid type" in sample_error(log)
    assert requests == 1


# ---------------------------------------------------------------- only context length climbs


def long_input_server(body: dict, status: int = 400):
    """Rejects every prompt longer than 5,000 characters with `body`; grades the rest 好."""

    def respond(request: dict) -> Raw:
        prompt = str(request["messages"])
        return Raw(body, status=status) if len(prompt) > 5000 else Raw(GOOD)

    return respond


@pytest.mark.parametrize(
    ("case", "status", "body"),
    [
        (
            "OpenAI code context_length_exceeded",
            400,
            error_body("Your input exceeds the context window of this model.", "context_length_exceeded"),
        ),
        (
            "OpenAI / vLLM maximum context length",
            400,
            error_body("This model's maximum context length is 2048 tokens. However, you requested 9000."),
        ),
        (
            "vLLM longer than the maximum model length",
            400,
            error_body("The decoder prompt (length 9000) is longer than the maximum model length of 2048."),
        ),
        ("a server's longer than the model's context length", 400, error_body(
            "Input of 9000 tokens is longer than the model's context length (2048)")),
        ("Anthropic's prompt is too long via a gateway", 400, error_body(
            "prompt is too long: 9000 tokens > 2048 maximum")),
        ("HTTP 413", 413, error_body("Request Entity Too Large")),
    ],
)  # fmt: skip
def test_context_length_rejections_climb_the_ladder(
    tmp_path: Path, case: str, status: int, body: dict
) -> None:
    with RawServer(long_input_server(body, status)) as server:
        grader = get_model(GRADER, base_url=server.url, api_key="test", memoize=False)
        log = grade_reply(tmp_path, grader, "回" * 6000)  # fits when cut: rung 1
    assert log.status == "success", log.error
    meta = log.samples[0].scores["grm"].metadata
    assert meta["rung"] == 1 and meta["verdict"] == "good"


def test_anthropic_prompt_is_too_long_climbs_the_ladder(tmp_path: Path) -> None:
    """Anthropic's own wording on its own API (Inspect's provider reads it as model_length)."""

    def respond(request: dict) -> Reply:
        if sum(len(str(m["content"])) for m in request["messages"]) > 5000:
            return Reply(status=400, error="prompt is too long: 9000 tokens > 2048 maximum")
        return Reply(text="好")

    with AnthropicServer(respond) as server:
        grader = get_model("anthropic/claude-grader", base_url=server.url, api_key="test", memoize=False)
        log = grade_reply(tmp_path, grader, "回" * 6000)  # fits when cut: rung 1
        requests = len(server.requests)
    assert log.status == "success", log.error
    meta = log.samples[0].scores["grm"].metadata
    assert meta["rung"] == 1 and meta["verdict"] == "good" and requests == 2


def status_error(status: int, body: dict) -> openai.APIStatusError:
    response = httpx.Response(status, request=httpx.Request("POST", "http://127.0.0.1/v1/chat/completions"))
    return openai.APIStatusError(body["error"]["message"], response=response, body=body["error"])


@pytest.mark.parametrize(
    ("case", "error", "too_long", "config"),
    [
        ("OpenAI's code", status_error(400, error_body("too long", "context_length_exceeded")), True, False),
        ("vLLM's wording", status_error(400, error_body("This model's maximum context length is 4096")),
         True, False),
        ("Anthropic's wording", status_error(400, error_body("prompt is too long: 300000 tokens > 200000")),
         True, False),
        ("a bare 400", status_error(400, error_body("bad request")), False, False),
        ("logprobs refused", status_error(400, error_body("The model has no logprobs")), False, True),
        ("unknown model", status_error(404, error_body("model not found", "model_not_found")), False, True),
        ("a server error", status_error(500, error_body("internal error")), False, False),
        ("a dropped connection", ConnectionError("connection refused"), False, False),
    ],
)  # fmt: skip
def test_classification(case: str, error: Exception, too_long: bool, config: bool) -> None:
    assert (context_length(error), configuration(error)) == (too_long, config)


# ---------------------------------------------------------------- odd numbers in the logprobs


def answer(tokens: list[tuple[str, float, list[tuple[str, float]]]]) -> ModelOutput:
    content = [
        Logprob(token=t, logprob=lp, top_logprobs=[TopLogprob(token=a, logprob=p) for a, p in alts])
        for t, lp, alts in tokens
    ]
    out = ModelOutput.from_content("m", "".join(t for t, _, _ in tokens))
    out.choices[0].logprobs = Logprobs(content=content)
    return out


P = 1 / (1 + math.exp(-2.2))  # P(好) for logprobs −0.1 and −2.3


@pytest.mark.parametrize(
    ("case", "tokens", "score", "usable"),
    [
        ("alternative above 0 is no probability", [("好", -0.1, [("好", -0.1), ("差", 0.7)])], None, False),
        ("generated token above 0", [("好", 0.5, [("好", 0.5), ("差", -2.3)])], None, False),
        ("a rounding error above 0 is 0", [("好", 1e-9, [("好", 1e-9), ("差", -INF)])], 1.0, True),
        ("duplicate good alternative counted once",
         [("好", -0.1, [("好", -0.1), ("好", -0.1), ("差", -2.3)])], P, True),
        ("duplicate bad alternative counted once",
         [("差", -0.1, [("差", -0.1), ("好", -2.3), ("好", -2.3)])], 1 - P, True),
    ],
)  # fmt: skip
def test_logprob_rules(case: str, tokens: list, score: float | None, usable: bool) -> None:
    judged = judge(answer(tokens))
    assert judged.has_logprobs is usable
    assert judged.score == (pytest.approx(score, abs=1e-12) if score is not None else None)


def test_a_boolean_logprob_over_http_is_no_probability(tmp_path: Path) -> None:
    """JSON `true` for a logprob passes Inspect's validation as 1.0: no score, the verdict kept."""
    body = chat_body("差", [("差", True, [("差", True), ("好", -2.3)])])  # type: ignore[list-item]
    log, _ = run(tmp_path, lambda _: Raw(body))
    assert log.status == "success", log.error
    meta = log.samples[0].scores["grm"].metadata
    assert meta["verdict"] == "bad" and meta["score"] is None and meta["logprobs"] is False


# ---------------------------------------------------------------- fail_rate


def grm_score(verdict: str, logprobs: bool | None) -> SampleScore:
    metadata = {"verdict": verdict, "score": None, "logprobs": logprobs}
    return SampleScore(score=Score(value=int(verdict == "good"), metadata=metadata), sample_id=verdict)


def test_fail_rate_counts_only_real_answers() -> None:
    scores = [
        grm_score("good", True),
        grm_score("failed", False),  # the grader answered 嗯
        grm_score("failed", None),  # too long at every rung: no answer
        grm_score("bad", True),
    ]
    assert fail_rate()(scores) == 0.25
