"""eval.yaml is a register listing, the tasks carry its version, and `import uxbench` stays light."""

import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval

import uxbench
from uxbench import _registry
from uxbench.runtime.listing import listing, task_version

BENCHMARK_TASKS = ("task1_judge", "task2_eval", "task3_recovery")
PIPELINE_TASKS = ("pipeline_miner", "pipeline_judge", "pipeline_qa")


def test_the_package_layout_passes_inspect_evals_lint() -> None:
    """Its file-structure rules, as `.ci/run` runs the whole linter: the package exports each task
    in a literal `__all__` (lazy imports must not hide them from it) and registers its entry point."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "inspect_evals_lint", "uxbench", "--root", str(root)]
        + ["--select", "IEFS001,IEFS003,IEFS004", "--output-format", "json"],
        capture_output=True, text=True, timeout=120, cwd=root,
    )  # fmt: skip
    assert '"passed": true' in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]


def test_listing_has_the_register_fields() -> None:
    entry = listing()
    assert {"title", "description", "arxiv", "group", "version", "tasks", "external_assets"} <= set(entry)
    assert entry["arxiv"] == "https://arxiv.org/abs/2606.09570"
    assert {t["name"]: t["dataset_samples"] for t in entry["tasks"] if "dataset_samples" in t} == {
        "task1_judge": 2000,
        "task2_eval": 4900,
        "task3_recovery": 500,
    }
    [dataset] = entry["external_assets"]
    assert dataset["source"] == "mengze-hong/UXBench" and "Research-only" in dataset["comment"]


def test_listed_tasks_are_the_registered_ones() -> None:
    names = [t["name"] for t in listing()["tasks"]]
    assert all(callable(getattr(_registry, name, None)) for name in names)  # the entry point's names
    benchmark = [t["name"] for t in listing()["tasks"] if t.get("kind", "benchmark") == "benchmark"]
    assert benchmark == list(BENCHMARK_TASKS)
    assert sorted(uxbench.__all__) == sorted(["__version__", "grm", *names])  # every user-facing task


def test_listing_validates_against_inspect_evals_schema() -> None:
    metadata = pytest.importorskip("inspect_evals.metadata")
    entry = metadata.InternalEvalMetadata.model_validate(listing())
    [judge] = [t for t in entry.tasks if t.name == "task1_judge"]
    assert judge.human_baseline is not None and judge.human_baseline.score == 0.68
    # on the metric's own 0-1 scale, as a log reports avg_acc
    assert judge.human_baseline.metric == "avg_acc"
    assert entry.runtime_metadata.requires.internet is True
    assert {t.name for t in entry.maintenance_tasks} == {"grader_check", *PIPELINE_TASKS}


@pytest.mark.integration
def test_tasks_carry_the_listed_version(tmp_path: Path) -> None:
    version = task_version()
    assert version.full == listing()["version"]
    tasks = [
        uxbench.task1_judge(data="sample"),
        uxbench.task2_eval(data="sample"),
        uxbench.task3_recovery(data="sample"),
    ]
    for task in tasks:
        assert task.version == version.comparability
        assert task.metadata["full_task_version"] == version.full
    [log] = eval(tasks[0], model="mockllm/model", limit=1, log_dir=str(tmp_path), display="none")
    assert log.status == "success" and log.eval.task_version == version.comparability
    assert log.eval.metadata["task_interface_version"] == version.interface


@pytest.mark.integration
def test_import_uxbench_is_light() -> None:
    heavy = "{'torch', 'transformers', 'datasets', 'matplotlib'}"
    code = f"import sys, uxbench; print(sorted({heavy} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.integration
def test_logs_hold_no_path_of_the_installing_machine(tmp_path: Path) -> None:
    """Task metadata, scorer arguments and log file names name built-in templates by name."""
    installed = str(Path(uxbench.__file__).resolve().parent)
    logs = eval(
        ["uxbench/task1_judge", "uxbench/task2_eval", "uxbench/task3_recovery"],
        task_args={"data": "sample"}, model="mockllm/model", model_roles={"grader": "mockllm/model"},
        limit=1, log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    assert [log.status for log in logs] == ["success"] * 3
    for log in logs:
        header = log.eval.model_dump_json() + (log.results.model_dump_json() if log.results else "")
        assert installed not in header and installed not in Path(log.location).name
    assert logs[0].eval.metadata["template"] == "judge_default.txt"
