"""A hung or trickling grader obeys the run's --attempt-timeout, --timeout and --max-retries.

The grader here sends its reply one byte at a time (for at most 8 s, then the rest): an
HTTP client's read timeout never fires, so only an attempt timeout can end the call. Before
this change Inspect applied the run's attempt timeout to the model under test only, and a
Tasks 2/3 grader ran as long as the server kept trickling.
"""

import time
from pathlib import Path

import pytest
from helpers.evals import run_eval
from helpers.rawserver import Raw, RawServer, chat_body, label_tokens
from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, get_model

from uxbench.scorers.grm import grm

TRICKLE = Raw(chat_body("好", label_tokens("好", -0.1, -2.3)), byte_delay=0.05, max_trickle=8)


def run(tmp_path: Path, raw: Raw, grader_config: GenerateConfig | None = None, **limits: int) -> tuple:
    with RawServer(lambda _: raw) as server:
        grader = get_model(
            "openai-api/raw/grader",
            base_url=server.url,
            api_key="test",
            config=grader_config or GenerateConfig(),
            memoize=False,
        )
        start = time.monotonic()
        log = run_eval(
            Task(dataset=[Sample(id=1, input="问题")], scorer=grm()),
            tmp_path,
            expect=None,
            model="mockllm/model",
            model_roles={"grader": grader},
            **limits,
        )
        return log, len(server.requests), time.monotonic() - start


def sample_error(log: EvalLog) -> str:
    assert log.samples is not None and log.samples[0].error is not None
    return log.samples[0].error.message


@pytest.mark.parametrize(
    ("case", "limits", "requests"),
    [
        ("attempt timeout, no retries", {"attempt_timeout": 1, "max_retries": 0}, 1),
        # the two with a retry wait Inspect's 3 s between attempts: the slow lane
        pytest.param(
            "attempt timeout, one retry", {"attempt_timeout": 1, "max_retries": 1}, 2, marks=pytest.mark.slow
        ),
        # --timeout bounds the retries: the second attempt ends past it
        pytest.param(
            "attempt timeout within a total timeout",
            {"attempt_timeout": 1, "timeout": 2},
            2,
            marks=pytest.mark.slow,
        ),
    ],
)
def test_trickling_grader_obeys_the_run_limits(
    tmp_path: Path, case: str, limits: dict, requests: int
) -> None:
    log, asked, elapsed = run(tmp_path, TRICKLE, **limits)
    assert log.status == "error"
    assert "AttemptTimeoutError" in sample_error(log)
    assert asked == requests and elapsed < 20


def test_grader_role_config_keeps_its_own_limits(tmp_path: Path) -> None:
    """Bound with its own attempt timeout, the grader is not cut by the run's shorter one."""
    slow = Raw(TRICKLE.body, byte_delay=0.004, max_trickle=8)  # ≈ 2 s for the body
    log, asked, _ = run(tmp_path, slow, GenerateConfig(attempt_timeout=60), attempt_timeout=1, max_retries=0)
    assert log.status == "success", log.error
    assert asked == 1 and log.samples[0].scores["grm"].metadata["verdict"] == "good"
