"""`--batch`: the model under test's and the grader's calls go through the providers' batch APIs.

Against `helpers.batchserver.BatchServer` (OpenAI's files + batches, Anthropic's message
batches on 127.0.0.1), with Inspect's batch polling made fast (`BatchConfig` tick and send
delay of a few hundredths of a second). A batch that fails, expires or leaves out results
must end in counted sample errors that `eval-retry` redoes, never in a verdict. Tasks 1–3 and
`grader_check` batched give what they give unbatched, and `uxbench run` passes `--batch` to its
shards.
"""

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.batchserver import BatchServer, Outcome
from helpers.grm import metric_values, record_number, write_data
from helpers.localserver import Reply, prompt_text
from inspect_ai import Task, eval, eval_retry
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from inspect_ai.model import BatchConfig, ModelCost

from uxbench.cli import main
from uxbench.report.logs import Run, read_runs
from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

pytestmark = pytest.mark.integration

FAST = BatchConfig(size=4, send_delay=0.05, tick=0.05)
RECORDS = 6
OPENAI = ("openai/gpt-4o-mini", "openai/gpt-4o")
ANTHROPIC = ("anthropic/claude-3-5-haiku-latest", "anthropic/claude-sonnet-4-0")


def respond(request: dict) -> Reply:
    """The model under test names its record; the grader says 好 for even records, 差 for odd;
    a Task 1 judge says 差 (P 0.8) to a disliked reply and 好 (P 0.7) to a liked one."""
    prompt = prompt_text(request) if "messages" in request else ""
    if "BADREPLY" in prompt or "GOODREPLY" in prompt:
        bad = "BADREPLY" in prompt
        tops = [("好", math.log(0.2 if bad else 0.7)), ("差", math.log(0.8 if bad else 0.3))]
        label = "差" if bad else "好"
        return Reply(label, [(label, dict(tops)[label], tops)])
    n = record_number(prompt)
    if "【助手的最新回复】" not in prompt:
        return Reply(f"回复 #{n}#")
    label = "好" if n % 2 == 0 else "差"
    tops = [("好", math.log(0.6 if n % 2 == 0 else 0.1)), ("差", math.log(0.3 if n % 2 == 0 else 0.8))]
    return Reply(label, [(label, dict(tops)[label], tops)])


@pytest.fixture(scope="module")
def server() -> Iterator[BatchServer]:
    """One batch server for the module: Inspect keeps a model (and its client) per name."""
    with pytest.MonkeyPatch.context() as patch, BatchServer(respond) as batch_server:
        for provider, url in (("OPENAI", batch_server.openai_url), ("ANTHROPIC", batch_server.anthropic_url)):
            patch.setenv(f"{provider}_API_KEY", "test-key")
            patch.setenv(f"{provider}_BASE_URL", url)
        yield batch_server


def run(tmp_path: Path, models: tuple[str, str] = OPENAI, **options: object) -> EvalLog:
    [log] = eval(
        task2_eval(data=str(write_data(tmp_path / "data", task2=RECORDS))),
        model=models[0],
        model_roles={"grader": models[1]},
        log_dir=str(tmp_path / "logs"),
        display="none",
        batch=FAST,
        max_retries=0,
        **options,
    )
    return log


def test_openai_batch_carries_both_roles_and_logprobs(tmp_path: Path, server: BatchServer) -> None:
    before = (server.direct, server.batched_requests)
    log = run(tmp_path)
    assert log.status == "success", log.error
    assert (server.direct, server.batched_requests) == (
        before[0],
        before[1] + 2 * RECORDS,
    )  # reply + grade, all batched
    values = metric_values(log)
    assert values["good_pct"] == 0.5 and values["no_logprob_rate"] == 0.0
    assert values["score_mean"] == pytest.approx((0.6 / 0.9 + 0.1 / 0.9) / 2)


@pytest.mark.parametrize("outcome", ["failed", "expired", "partial"])
def test_a_batch_that_does_not_complete_errors_its_samples_and_eval_retry_redoes_them(
    tmp_path: Path, server: BatchServer, outcome: Outcome
) -> None:
    """The first batch (all six replies) fails whole, expires half answered, or ends with half of
    its results left out: those samples error with the reason, none is graded, and eval-retry
    redoes exactly them (the answered ones are kept, not paid for again)."""
    server.outcomes = [outcome]
    log = run(tmp_path, fail_on_error=False)
    errors = [s.error.message for s in log.samples or [] if s.error is not None]
    assert len(errors) == (RECORDS if outcome == "failed" else RECORDS // 2)
    reason = {"failed": "Batch rejected", "expired": "batch_expired", "partial": "no line for this request"}
    assert all(reason[outcome] in message for message in errors), errors
    assert all(not s.scores for s in log.samples or [] if s.error is not None)  # never a verdict
    paid = server.calls
    [retried] = eval_retry(log, log_dir=str(tmp_path / "logs"), display="none")
    assert server.calls - paid == 2 * len(errors)  # only the errored samples, reply + grade
    assert retried.status == "success", retried.error
    assert retried.results is not None and retried.results.completed_samples == RECORDS
    assert metric_values(retried)["good_pct"] == 0.5


def test_the_report_reads_each_roles_tokens_and_cost(tmp_path: Path, server: BatchServer) -> None:
    """Inspect's usage priced by `--model-cost-config`, per role, as the report reads them."""
    prices = {
        OPENAI[0]: ModelCost(input=0.15, output=0.6, input_cache_write=0.15, input_cache_read=0.075),
        OPENAI[1]: ModelCost(input=2.5, output=10.0, input_cache_write=2.5, input_cache_read=1.25),
    }
    log = run(tmp_path, model_cost_config=prices)
    [found] = read_runs(log.location, "run")
    assert isinstance(found, Run) and found.usage is not None
    for role, name in (("model", OPENAI[0]), ("grader", OPENAI[1])):
        usage = getattr(found.usage, role)
        price = prices[name]
        assert usage.calls_input_tokens > 0 and usage.output_tokens > 0
        expected = (usage.calls_input_tokens * price.input + usage.output_tokens * price.output) / 1e6
        assert usage.cost == pytest.approx(expected)
        shown = found.usage.json(RECORDS)[role]
        assert shown["per_1000_records"]["cost"] == pytest.approx(expected * 1000 / RECORDS)
    assert main(["report", str(tmp_path / "logs"), "--out", str(tmp_path / "report")]) == 0
    page = (tmp_path / "report" / "leaderboard.md").read_text(encoding="utf-8")
    assert "#### Tokens and cost" in page and f"{found.usage.grader.output_tokens:,}" in page
    assert "Tokens and cost" in (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    board = json.loads((tmp_path / "report" / "leaderboard.json").read_text(encoding="utf-8"))
    rows = [row for task in board["tasks"].values() for row in task.get("rows", [])]
    assert rows and rows[0]["usage"]["grader"]["cost"] == pytest.approx(found.usage.grader.cost)


def test_task1_judge_in_a_batch_reads_p_good_from_the_batch_logprobs(
    tmp_path: Path, server: BatchServer, judge_dir
) -> None:
    before = server.direct
    [log] = eval(
        task1_judge(data=str(judge_dir(3, 3))),
        model=OPENAI[0],
        log_dir=str(tmp_path / "logs"),
        display="none",
        batch=FAST,
        logprobs=True,
        top_logprobs=5,
    )
    assert log.status == "success", log.error
    assert server.direct == before  # every judgment went in a batch
    scores = [s.scores["judge_verdict"].metadata for s in log.samples or []]
    assert sorted(round(m["p_good"], 6) for m in scores) == [0.2, 0.2, 0.2, 0.7, 0.7, 0.7]


def test_anthropic_message_batches_carry_both_roles(tmp_path: Path, server: BatchServer) -> None:
    """Anthropic's API has no logprobs: verdicts without a score, as on the direct path."""
    before = (server.direct, server.batched_requests)
    log = run(tmp_path, ANTHROPIC)
    assert log.status == "success", log.error
    assert (server.direct, server.batched_requests) == (before[0], before[1] + 2 * RECORDS)
    values = metric_values(log)
    assert values["good_pct"] == 0.5 and values["no_logprob_rate"] == 1.0


def batched_and_direct(
    tmp_path: Path, server: BatchServer, task: Task, calls: int, **options: object
) -> EvalLog:
    """`task` run batched, then unbatched: the batched run's `calls` all go through the batch
    endpoint, and both runs score every sample alike (verdicts, P(good) from the logprobs)."""
    logs = []
    for batch in (FAST, None):
        before = (server.direct, server.batched_requests)
        [log] = eval(task, model=OPENAI[0], log_dir=str(tmp_path / "logs"), display="none", batch=batch,
                     max_retries=0, **options)  # fmt: skip
        assert log.status == "success", log.error
        added = (server.direct - before[0], server.batched_requests - before[1])
        assert added == ((0, calls) if batch else (calls, 0))
        logs.append(log)
    batched, direct = ({str(s.id): s.scores for s in log.samples or []} for log in logs)
    assert batched == direct and len(batched) == len(logs[0].samples or [])
    assert metric_values(logs[0]) == metric_values(logs[1])
    return logs[0]


def test_grader_check_batched_grades_as_a_direct_run(tmp_path: Path, server: BatchServer, judge_dir) -> None:
    """The grader (`--model`, self-grading the recorded replies) asks through the batch API."""
    log = batched_and_direct(tmp_path, server, grader_check(data=str(judge_dir(3, 3))), calls=6)
    values = metric_values(log)
    assert (values["good_acc"], values["bad_acc"]) == (1.0, 1.0)
    p_good = sorted(round(s.scores["grm"].metadata["score"], 6) for s in log.samples or [])
    assert p_good == [0.2, 0.2, 0.2, 0.7, 0.7, 0.7]  # read from the batch results' logprobs


def test_task3_batched_carries_both_roles_and_both_gradings_as_a_direct_run(
    tmp_path: Path, server: BatchServer
) -> None:
    """The repair, its grading and the failed reply's (baseline) grading: all in batches."""
    data = write_data(tmp_path / "data", task3=RECORDS)
    task = task3_recovery(data=str(data), baseline=True)
    log = batched_and_direct(tmp_path, server, task, calls=3 * RECORDS, model_roles={"grader": OPENAI[1]})
    values = metric_values(log)
    assert values["recovery_rate"] == 0.5 and values["no_logprob_rate"] == 0.0
    expected = sorted([round(0.6 / 0.9, 6), round(0.1 / 0.9, 6)] * (RECORDS // 2))
    for key in ("score", "baseline_score"):  # P(good) of the repair and of the failed reply
        assert sorted(round(s.scores["grm"].metadata[key], 6) for s in log.samples or []) == expected


@pytest.mark.slow  # two `inspect eval-set` processes: about 45 s on two busy cores
def test_uxbench_run_passes_batch_to_every_shard(tmp_path: Path, server: BatchServer) -> None:
    """`uxbench run … --batch FILE`: each shard's `inspect eval-set` batches both roles' calls."""
    data = write_data(tmp_path / "data", task2=RECORDS)
    config = tmp_path / "batch.yaml"
    config.write_text(
        f"size: {FAST.size}\nsend_delay: {FAST.send_delay}\ntick: {FAST.tick}\n", encoding="utf-8"
    )
    before = (server.direct, server.batched_requests)
    logs = tmp_path / "logs"
    command = ["run", "uxbench/task2_eval", "--shards", "2", "--log-dir", str(logs), "--model", OPENAI[0],
               "--model-role", f"grader={OPENAI[1]}", "-T", f"data={data}"]  # fmt: skip
    command += ["--batch", str(config)]
    assert main(command) == 0
    assert (server.direct, server.batched_requests) == (before[0], before[1] + 2 * RECORDS)
    found = [read_eval_log(info.name) for info in list_eval_logs(str(logs))]
    assert len(found) == 2 and all(log.status == "success" for log in found)
    assert sum(log.results.completed_samples for log in found if log.results) == RECORDS
