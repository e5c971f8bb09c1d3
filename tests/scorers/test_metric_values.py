"""A metric without a value is left out of the log (never a bare NaN in its JSON), and every
metric of Tasks 1-3 and grader_check carries a description in the task's metadata."""

import json
import subprocess
import sys

import pytest
from helpers.grm import write_data
from helpers.records import judge_records, write_jsonl
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

from uxbench.runtime.metric import reported
from uxbench.scorers.metrics import bad_acc, breakdown
from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery


@pytest.fixture(scope="module")
def undefined(tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    """Runs on which every optional metric has no value: liked replies only, answers and grades
    that carry neither a label nor logprobs (mockllm's default output)."""
    data = tmp_path_factory.mktemp("data")
    liked = write_jsonl(data / "liked.jsonl", judge_records(3, 0)[0])
    write_data(data, task2=2, task3=2)
    grader = {"grader": get_model("mockllm/model")}
    tasks = {
        "task1": task1_judge(data=str(liked)),
        "task2": task2_eval(data=str(data)),
        "task3": task3_recovery(data=str(data), baseline=True),
        "grader_check": grader_check(data=str(liked)),
    }
    logs = eval(
        list(tasks.values()), model="mockllm/model", model_roles=grader,
        log_dir=str(tmp_path_factory.mktemp("logs")), display="none",
    )  # fmt: skip
    assert [log.status for log in logs] == ["success"] * len(tasks)
    return dict(zip(tasks, logs, strict=True))


def strict(constant: str) -> None:
    raise ValueError(f"not JSON: {constant}")


@pytest.mark.integration
def test_inspect_log_dump_is_strict_json(undefined: dict[str, EvalLog]) -> None:
    for log in undefined.values():
        command = [sys.executable, "-m", "inspect_ai", "log", "dump", log.location]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
        assert json.loads(done.stdout, parse_constant=strict)["status"] == "success"


@pytest.mark.integration
def test_a_metric_without_a_value_is_left_out(undefined: dict[str, EvalLog]) -> None:
    def present(name: str) -> set[str]:
        results = undefined[name].results
        return {key for score in (results.scores if results else []) for key in score.metrics}

    assert {"avg_acc", "bad_acc", "stderr", "auroc", "brier", "ece"}.isdisjoint(present("task1"))
    assert {"good_acc", "parse_fail_rate", "p_good_rate"} <= present("task1")
    assert {"score_mean", "score_median", "good_pct_valid"}.isdisjoint(present("task2"))
    assert {"good_pct", "fail_rate", "score_skipped"} <= present("task2")
    assert "delta_score" not in present("task3") and "recovery_rate" in present("task3")
    assert {"specificity", "youden", "score_auroc", "bad_acc"}.isdisjoint(present("grader_check"))


@pytest.mark.integration
def test_every_metric_has_a_description(undefined: dict[str, EvalLog]) -> None:
    for log in undefined.values():
        descriptions = (log.eval.metadata or {})["metric_descriptions"]
        declared = {
            metric.name.split("/")[-1]
            for scorer in log.eval.scorers or []
            for metric in scorer.metrics or []
            if not isinstance(metric, dict)
        }
        results = log.results.scores if log.results else []
        shown = {metric.group or key for score in results for key, metric in score.metrics.items()}
        assert declared and shown <= declared <= set(descriptions)
        assert all(len(descriptions[name]) > 20 for name in declared)


def test_metric_values_as_the_log_holds_them() -> None:
    assert reported("x", 0.25) == 0.25 and reported("x", 3) == 3
    assert reported("x", float("nan")) == {"x": None} and reported("x", float("inf")) == {"x": None}
    assert reported("g", {"a": 0.5, "b": float("nan")}) == {"a": 0.5, "b": None}
    assert reported("g", {}) == {"g": None}  # Inspect would write NaN for an empty mapping on no samples
    assert bad_acc()([]) == {"bad_acc": None} and breakdown(["k"])([]) == {"breakdown": None}
