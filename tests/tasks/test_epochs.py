"""Every metric of the three tasks at `--epochs 2`, with agreeing and disagreeing epochs.

Inspect's epoch reducer sets a sample's `answer` to None when its epochs disagree and keeps
only the first epoch's metadata; UXBench's metrics read every epoch's own score instead
(`uxbench.scorers.metrics`). Each run below answers some records the same way in both epochs and
others differently; the expected values are the pooled per-epoch ones, worked out by hand.
"""

import logging
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.evals import run_eval
from helpers.grm import grader_output, metric_values, record_number, write_data
from inspect_ai import Epochs, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput, get_model

from uxbench.stats.agreement import cohen_kappa, mcc
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

Answer = tuple[str, float | None, float | None]  # text, P(好), P(差) among its first token's alternatives


def per_call(answers: dict[object, list[Answer]], key: Callable[[str], object]) -> Callable:
    """mockllm outputs: the n-th call about a record gets that record's n-th answer (one per epoch)."""
    calls: Counter[object] = Counter()

    def outputs(messages, *_) -> ModelOutput:
        k = key(messages[-1].text)
        text, good, bad = answers[k][calls[k]]
        calls[k] += 1
        return grader_output(text, good, bad) if good is not None else ModelOutput.from_content("m", text)

    return outputs


def run(task, model_outputs: Callable, tmp_path: Path, grader_outputs: Callable | None = None) -> EvalLog:
    roles = {"grader": get_model("mockllm/model", custom_outputs=grader_outputs)} if grader_outputs else None
    log = run_eval(
        task,
        tmp_path,
        model=get_model("mockllm/model", custom_outputs=model_outputs),
        model_roles=roles,
        epochs=2,
    )
    assert log.samples is not None and len(log.samples) == 2 * len({s.id for s in log.samples})
    return log


def test_task1_at_two_epochs(judge_dir, tmp_path: Path) -> None:
    # liked 0: agrees; liked 1: right then wrong; disliked 0: agrees; disliked 1: unreadable then right
    answers: dict[object, list[Answer]] = {
        "GOODREPLY 0": [("好", 0.8, 0.2), ("好", 0.8, 0.2)],
        "GOODREPLY 1": [("好", 0.7, 0.3), ("差", 0.4, 0.6)],
        "BADREPLY 0": [("差", 0.2, 0.8), ("差", 0.2, 0.8)],
        "BADREPLY 1": [("嗯嗯", None, None), ("差", 0.3, 0.7)],
    }
    key = next_key(answers)
    log = run(task1_judge(data=str(judge_dir(2, 2))), per_call(answers, key), tmp_path)
    values = metric_values(log)
    assert values["good_acc"] == 0.75 and values["bad_acc"] == 0.75 and values["avg_acc"] == 0.75
    assert values["parse_fail_rate"] == 1 / 8 and values["neutral_rate"] == 0.0
    # clustered: each class has one record right twice and one right once: √(0.5)/4 per class
    assert values["avg_acc_stderr"] == pytest.approx(0.125) and values["stderr"] == pytest.approx(0.125)
    said = ["good", "good", "good", "bad", "bad", "bad", "none", "bad"]
    truth = ["good"] * 4 + ["bad"] * 4
    assert values["mcc"] == pytest.approx(mcc(said, truth))
    assert values["kappa"] == pytest.approx(cohen_kappa(said, truth))
    # seven answers with a P(good): liked 0.8, 0.8, 0.7, 0.4; disliked 0.2, 0.2, 0.3
    assert values["p_good_rate"] == 7 / 8 and values["auroc"] == 1.0
    assert values["brier"] == pytest.approx(0.70 / 7)
    assert values["ece"] == pytest.approx(2.0 / 7)
    assert values["failure_dimension:冗余啰嗦"] == 0.5 and values["failure_dimension:事实性错误"] == 1.0
    assert values["difficulty:easy"] == 0.75 and values["difficulty:hard"] == 0.75


def next_key(answers: dict[object, list[Answer]]) -> Callable[[str], object]:
    return lambda prompt: next(k for k in answers if str(k) in prompt)


def test_task2_at_two_epochs(tmp_path: Path) -> None:
    # record 0 agrees (good), 1 good then bad, 2 agrees (bad), 3 failed (no label, no logprobs) then good
    answers: dict[object, list[Answer]] = {
        0: [("好", 0.9, 0.1), ("好", 0.9, 0.1)],
        1: [("好", 0.6, 0.4), ("差", 0.3, 0.7)],
        2: [("差", 0.2, 0.8), ("差", 0.2, 0.8)],
        3: [("嗯", None, None), ("好", 0.8, 0.2)],
    }
    reply = lambda messages, *_: ModelOutput.from_content("m", f"回复 #{record_number(messages[-1].text)}#")  # noqa: E731
    task = task2_eval(data=str(write_data(tmp_path / "data", task2=4)))
    log = run(task, reply, tmp_path, per_call(answers, record_number))
    values = metric_values(log)
    assert values["good_pct"] == 0.5 and values["good_pct_valid"] == pytest.approx(4 / 7)
    assert values["fail_rate"] == 1 / 8 and values["no_logprob_rate"] == 1 / 8
    assert values["score_mean"] == pytest.approx(3.9 / 7) and values["score_median"] == pytest.approx(0.6)
    assert values["good_score_mean"] == pytest.approx(0.8) and values["bad_score_mean"] == pytest.approx(
        0.7 / 3
    )
    # good verdicts per record 2, 1, 0, 1 of 2: √((2−1)² + 0 + (0−1)² + 0) / 8
    assert values["good_pct_stderr"] == pytest.approx(2**0.5 / 8) and values["stderr"] == pytest.approx(
        2**0.5 / 8
    )
    assert values["difficulty:easy"] == 1.0 and values["difficulty:medium"] == 0.5
    assert values["difficulty:hard"] == 0.0 and values["difficulty:very_hard"] == 0.5


def test_task3_at_two_epochs(tmp_path: Path) -> None:
    # repairs: record 0 good twice, record 1 good then bad; the failed replies: bad every time
    answers: dict[object, list[Answer]] = {
        (0, "repair"): [("好", 0.8, 0.2), ("好", 0.8, 0.2)],
        (1, "repair"): [("好", 0.7, 0.3), ("差", 0.4, 0.6)],
        (0, "failed"): [("差", 0.3, 0.7), ("差", 0.3, 0.7)],
        (1, "failed"): [("差", 0.2, 0.8), ("差", 0.2, 0.8)],
    }

    def key(prompt: str) -> tuple[int, str]:
        return record_number(prompt), "repair" if "修复" in prompt else "failed"

    reply = lambda messages, *_: ModelOutput.from_content("m", f"修复 #{record_number(messages[-1].text)}#")  # noqa: E731
    task = task3_recovery(data=str(write_data(tmp_path / "data", task3=2)), baseline=True)
    log = run(task, reply, tmp_path, per_call(answers, key))
    values = metric_values(log)
    assert values["recovery_rate"] == 0.75 and values["fail_rate"] == 0.0
    assert values["score_mean"] == pytest.approx((0.8 + 0.8 + 0.7 + 0.4) / 4)
    # per epoch: 0.8 − 0.3 twice, 0.7 − 0.2 and 0.4 − 0.2
    assert values["delta_score"] == pytest.approx((0.5 + 0.5 + 0.5 + 0.2) / 4)
    assert values["bad_score_mean"] == pytest.approx(0.4) and values["good_score_mean"] == pytest.approx(
        2.3 / 3
    )


@pytest.mark.parametrize(("reducer", "warned"), [(None, False), ("mean", False), ("mode", True)])
def test_epochs_reducer_is_not_silently_ignored(
    reducer: str | None, warned: bool, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    epochs = Epochs(2, reducer) if reducer else 2
    with caplog.at_level(logging.WARNING, logger="uxbench.runtime.epochs"):
        [log] = eval(
            "uxbench/task1_judge", task_args={"data": "sample"}, model="mockllm/model", limit=1,
            epochs=epochs, log_dir=str(tmp_path), display="none",
        )  # fmt: skip
    assert log.status == "success"
    assert ("--epochs-reducer mode does not change its metrics" in caplog.text) is warned
