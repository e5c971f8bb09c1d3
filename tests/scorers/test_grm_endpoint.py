"""Both GRM tasks against an OpenAI-compatible endpoint on 127.0.0.1 (model under test and grader).

The grader's answers follow a fixed table of shapes real servers produce (both labels, one
label, neither, no logprobs, a leading newline token, a character split into byte tokens,
SentencePiece markers); the metrics must equal the §5 formulas worked out here by hand.
"""

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.grm import metric_values, record_number, write_data
from helpers.localserver import OpenAIServer, Reply, prompt_text
from inspect_ai import eval
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

pytestmark = pytest.mark.integration


N_EVAL, N_RECOVERY = 700, 300  # kept small for CI; a 3,000 + 1,000 run passes the same checks
FAILED_REPLY = "让用户失望的回复"  # marks the Task 3 failed reply (see grm_helpers.recovery_records)
ln = math.log


def grader_answer(n: int) -> tuple[Reply, str, float | None]:
    """The grader's reply for record n, with the verdict and score §5 gives it."""
    q = 0.05 + (n % 17) / 20
    good, bad = q, (1 - q) * 0.8
    label = "好" if good >= bad else "差"
    chosen = good if label == "好" else bad
    both = good / (good + bad)
    verdict = {"好": "good", "差": "bad"}[label]
    match n % 8:
        case 0:  # both labels among the alternatives
            tops = [("好", ln(good)), ("差", ln(bad)), ("嗯", ln(0.01))]
            return Reply(label, [(label, ln(chosen), tops)]), verdict, both
        case 1:  # only 好 listed: P(好)
            return Reply("好", [("好", ln(q), [("好", ln(q)), ("嗯", ln(0.02))])]), "good", q
        case 2:  # only 差 listed: 1 − P(差)
            return Reply("差", [("差", ln(q), [("差", ln(q)), ("嗯", ln(0.02))])]), "bad", 1 - q
        case 3:  # neither label: failed, no score
            return Reply("嗯", [("嗯", ln(0.9), [("嗯", ln(0.9)), ("啊", ln(0.05))])]), "failed", None
        case 4:  # no logprobs (e.g. a proxy that drops them): verdict only
            return Reply(label), verdict, None
        case 5:  # a newline token first
            tops = [("好", ln(good)), ("差", ln(bad))]
            return (
                Reply("\n" + label, [("\n", ln(0.95), [("\n", ln(0.95))]), (label, ln(chosen), tops)]),
                verdict,
                both,
            )
        case 6:  # 好 / 差 split into byte tokens sharing their first byte e5
            rest = {"好": b"\xa5\xbd", "差": b"\xb7\xae"}
            tops = [(rest["好"], ln(good)), (rest["差"], ln(bad))]
            tokens = [(b"\xe5", ln(0.97), [(b"\xe5", ln(0.97))]), (rest[label], ln(chosen), tops)]
            return Reply(label, tokens), verdict, both
        case _:  # SentencePiece space marker
            tops = [("▁好", ln(good)), ("▁差", ln(bad))]
            return Reply(label, [("▁" + label, ln(chosen), tops)]), verdict, both


def respond(request: dict) -> Reply:
    prompt = prompt_text(request)
    n = record_number(prompt)
    if request["model"] == "m":  # the model under test, in the command-line runs
        return Reply(f"这是修正后的回复 #{n}#")
    graded = prompt.split("【助手的最新回复】")[-1]
    return grader_answer(n + 3 if FAILED_REPLY in graded else n)[0]


def expected(ns: range) -> dict[str, float]:
    """The headline metrics for records `ns`, by hand."""
    answers = [grader_answer(n) for n in ns]
    scores = [s for _, _, s in answers if s is not None]
    return {
        "good": sum(v == "good" for _, v, _ in answers) / len(answers),
        "failed": sum(v == "failed" for _, v, _ in answers) / len(answers),
        "score_mean": sum(scores) / len(scores),
    }


def echo_model():
    """The model under test, in process: a reply naming its record (the grader is what is tested)."""

    def reply(messages: list[ChatMessage], *_) -> ModelOutput:
        return ModelOutput.from_content("mockllm", f"这是修正后的回复 #{record_number(messages[-1].text)}#")

    return get_model("mockllm/model", custom_outputs=reply)


@pytest.mark.slow
def test_metrics_equal_the_formulas_over_a_thousand_records(tmp_path: Path) -> None:
    data = write_data(tmp_path / "data", task2=N_EVAL, task3=N_RECOVERY)
    with OpenAIServer(respond) as server:
        grader = get_model("openai-api/local/g", base_url=server.url, api_key="test-key")
        logs = eval(
            [task2_eval(data=str(data)), task3_recovery(data=str(data), baseline=True)],
            model=echo_model(),
            model_roles={"grader": grader},
            max_connections=64,
            max_tasks=2,
            log_samples=False,  # the metrics are what is checked; keeps many samples fast
            log_realtime=False,
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
        assert len(server.requests) == N_EVAL + N_RECOVERY * 2
    eval_log, recovery_log = logs
    assert eval_log.status == "success" and recovery_log.status == "success"

    values, by_hand = metric_values(eval_log), expected(range(N_EVAL))
    assert values["good_pct"] == pytest.approx(by_hand["good"], abs=1e-12)
    assert values["fail_rate"] == pytest.approx(by_hand["failed"], abs=1e-12)
    assert values["score_mean"] == pytest.approx(by_hand["score_mean"], abs=1e-9)
    assert values["no_logprob_rate"] == pytest.approx(1 / 8, abs=1e-3)

    values, by_hand = metric_values(recovery_log), expected(range(N_RECOVERY))
    assert values["recovery_rate"] == pytest.approx(by_hand["good"], abs=1e-12)
    assert values["score_mean"] == pytest.approx(by_hand["score_mean"], abs=1e-9)
    pairs = [(grader_answer(n)[2], grader_answer(n + 3)[2]) for n in range(N_RECOVERY)]
    deltas = [repair - failed for repair, failed in pairs if repair is not None and failed is not None]
    assert values["delta_score"] == pytest.approx(sum(deltas) / len(deltas), abs=1e-9)


def run_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "inspect_ai", "eval", *args, "--display", "plain"]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.slow
def test_cli_both_tasks_over_http(tmp_path: Path) -> None:
    data = write_data(tmp_path / "data", task2=16, task3=16)
    with OpenAIServer(respond) as server:
        env = {**os.environ, "LOCAL_API_KEY": "test-key", "LOCAL_BASE_URL": server.url, "NO_COLOR": "1"}
        result = run_cli(
            "uxbench/task2_eval", "uxbench/task3_recovery", "-T", f"data={data}",
            "--model", "openai-api/local/m", "--model-role", "grader=openai-api/local/g",
            "--log-dir", str(tmp_path / "logs"), env=env,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert len(server.requests) == 16 * 2 * 2
    logs = {log.eval.task: log for log in map(read_eval_log, list_eval_logs(str(tmp_path / "logs")))}
    assert {log.status for log in logs.values()} == {"success"}
    assert metric_values(logs["uxbench/task2_eval"])["good_pct"] == pytest.approx(expected(range(16))["good"])
    assert metric_values(logs["uxbench/task3_recovery"])["recovery_rate"] == pytest.approx(
        expected(range(16))["good"]
    )


@pytest.mark.parametrize("task", ["uxbench/task2_eval", "uxbench/task3_recovery"])
def test_cli_without_grader_stops_before_the_run(task: str, tmp_path: Path) -> None:
    """One line naming the flag to add, before any request, sample or log."""
    data = write_data(tmp_path / "data", task2=4, task3=4)
    with OpenAIServer(respond) as server:
        env = {**os.environ, "LOCAL_API_KEY": "test-key", "LOCAL_BASE_URL": server.url, "NO_COLOR": "1"}
        result = run_cli(
            task, "-T", f"data={data}", "--model", "openai-api/local/m",
            "--log-dir", str(tmp_path / "logs"), env=env,
        )  # fmt: skip
        assert server.requests == []
    output = result.stdout + result.stderr
    [error] = [line for line in output.splitlines() if "no grader model" in line]
    assert error.startswith("Error: no grader model: bind one with --model-role grader=<model>")
    assert "Traceback" not in output and "Task interrupted" not in output
    assert result.returncode == 1
    assert list_eval_logs(str(tmp_path / "logs")) == []


@pytest.mark.parametrize(
    ("task", "headline"), [("task2_eval", "good_pct"), ("task3_recovery", "recovery_rate")]
)
def test_bundled_sample_data_by_registry_name(task: str, headline: str) -> None:
    """The README's offline command: `inspect eval uxbench/<task> --model mockllm/model
    --model-role grader=mockllm/model -T data=sample` (mockllm's answer is neither label)."""
    [log] = eval(
        f"uxbench/{task}",
        task_args={"data": "sample"},
        model="mockllm/model",
        model_roles={"grader": "mockllm/model"},
        display="none",
    )
    assert log.status == "success" and len(log.samples) >= 10
    values = metric_values(log)
    assert values[headline] == 0.0 and values["fail_rate"] == 1.0 and values["no_logprob_rate"] == 1.0
