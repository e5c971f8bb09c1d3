"""`--cache` reaches the grader: a resumed or re-scored run pays for no grading call twice.

Task 3 with `baseline=true` grades two replies per record (the model's repair, then the failed
reply before it). On the first run the grader's server refuses every baseline grading, so each
sample errors after its repair was graded (paid). `eval-retry` then redoes those samples: with
the run's cache reaching the grader, the model's reply and the repair's grading come from
Inspect's cache and only the baseline gradings reach the server. `inspect score` on the finished
log re-grades nothing it has paid for. Calls are counted at the local server.
"""

import math
from pathlib import Path

import pytest
from helpers.evals import run_eval
from helpers.grm import metric_values, record_number, write_data
from helpers.localserver import OpenAIServer, Reply, prompt_text
from inspect_ai import eval_retry, score
from inspect_ai.model import CachePolicy

from uxbench.tasks.task3_recovery import task3_recovery

pytestmark = pytest.mark.integration

RECORDS = 4
FAILED_REPLY = "让用户失望的回复"  # the Task 3 failed reply (helpers.grm.recovery_records)


class Grader:
    """The model under test repairs; the grader says 好 to a repair, 差 to a failed reply,
    and answers 500 to failed-reply gradings while `refuse_baseline` is set."""

    def __init__(self) -> None:
        self.refuse_baseline = True
        self.calls = {"model": 0, "repair": 0, "baseline": 0}

    def __call__(self, request: dict) -> Reply:
        prompt = prompt_text(request)
        n = record_number(prompt)
        if request["model"] == "m":
            self.calls["model"] += 1
            return Reply(f"修正后的回复 #{n}#")
        baseline = FAILED_REPLY in prompt.split("【助手的最新回复】")[-1]
        self.calls["baseline" if baseline else "repair"] += 1
        if baseline and self.refuse_baseline:
            return Reply(status=500, error="grader overloaded")
        label = "差" if baseline else "好"
        tops = [("好", math.log(0.2 if baseline else 0.7)), ("差", math.log(0.7 if baseline else 0.2))]
        return Reply(label, [(label, dict(tops)[label], tops)])


def test_resume_and_rescore_pay_for_no_grading_call_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    data = write_data(tmp_path / "data", task3=RECORDS)
    grader = Grader()
    with OpenAIServer(grader) as server:
        monkeypatch.setenv("LOCAL_API_KEY", "test-key")
        monkeypatch.setenv("LOCAL_BASE_URL", server.url)
        options = {
            "model": "openai-api/local/m",
            "model_roles": {"grader": "openai-api/local/g"},
            "cache": CachePolicy(expiry="1W"),
            "max_retries": 0,
            "fail_on_error": False,
        }
        first = run_eval(task3_recovery(data=str(data), baseline=True), tmp_path / "logs", **options)
        assert [s.error is not None for s in first.samples or []] == [True] * RECORDS
        refused = grader.calls["baseline"]  # each refused grading and the client's own retries of it
        assert grader.calls == {"model": RECORDS, "repair": RECORDS, "baseline": refused}

        grader.refuse_baseline = False
        [retried] = eval_retry(first, log_dir=str(tmp_path / "logs"), display="none")
        assert retried.status == "success", retried.error
        # only the baseline gradings were asked again: the replies and repairs came from the cache
        assert grader.calls == {"model": RECORDS, "repair": RECORDS, "baseline": refused + RECORDS}
        assert metric_values(retried)["recovery_rate"] == 1.0

        task = task3_recovery(data=str(data), baseline=True)
        rescored = score(retried, scorers=task.scorer, display="none")  # the task's own grm scorer
        assert grader.calls == {"model": RECORDS, "repair": RECORDS, "baseline": refused + RECORDS}
        assert len(server.requests) == 3 * RECORDS + refused
    assert metric_values(rescored)["recovery_rate"] == 1.0
