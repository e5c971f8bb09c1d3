"""Task parameters refuse values that do not fit their annotation (`-T skip_bad=maybe`), with one
line naming the parameter, in every task of the package."""

import inspect
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import pytest
from inspect_ai._util.registry import registry_find, registry_info

import uxbench._registry  # noqa: F401  (registers the tasks)
from uxbench.runtime.errors import DataError
from uxbench.tasks.parameters import typed_parameters


def uxbench_tasks() -> dict[str, Any]:
    found = {registry_info(t).name: t for t in registry_find(lambda info: info.type == "task")}
    return {name: task for name, task in found.items() if name.startswith("uxbench/")}


def test_every_task_is_listed() -> None:
    assert set(uxbench_tasks()) == {
        *(f"uxbench/{name}" for name in ("task1_judge", "task2_eval", "task3_recovery", "grader_check")),
        *(f"uxbench/pipeline_{stage}" for stage in ("miner", "judge", "qa")),
    }


@pytest.mark.parametrize("name", sorted(uxbench_tasks()))
def test_every_parameter_refuses_a_value_of_the_wrong_type(name: str) -> None:
    task = uxbench_tasks()[name]
    parameters = inspect.signature(task).parameters
    required = {p: "x" for p, spec in parameters.items() if spec.default is inspect.Parameter.empty}
    for parameter in parameters:
        with pytest.raises(DataError, match=rf"^{parameter}=\{{'a': 1\}}: "):
            task(**{**required, parameter: {"a": 1}})  # a YAML mapping fits none of them


@typed_parameters
def example(
    flag: bool = False,
    count: int | None = None,
    share: float = 0.5,
    mode: Literal["keep", "drop"] = "keep",
    revision: str | None = None,
) -> dict[str, Any]:
    return {"flag": flag, "count": count, "share": share, "mode": mode, "revision": revision}


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"flag": "maybe"}, "flag='maybe': give true or false"),
        ({"flag": 2}, "flag=2: give true or false"),
        ({"count": 2.5}, "count=2.5: give a whole number"),
        ({"count": "two"}, "count='two': give a whole number"),
        ({"share": "half"}, "share='half': give a number"),
        ({"mode": "keeep"}, "mode='keeep': choose one of keep, drop"),
        ({"revision": ["a"]}, "revision=['a']: give text"),
    ],
)
def test_a_value_that_does_not_fit_is_named(given: dict[str, Any], message: str) -> None:
    with pytest.raises(DataError) as raised:
        example(**given)
    assert str(raised.value) == message


def test_values_that_fit_arrive_as_the_annotated_type() -> None:
    # what YAML and Python callers pass for each: a string "true", a whole float, a number for a string
    assert example(flag="true", count=3.0, share=1, revision=2024) == {
        "flag": True, "count": 3, "share": 1.0, "mode": "keep", "revision": "2024",
    }  # fmt: skip
    assert example(count=None) == example()
    assert example(revision=Path("a/b"))["revision"] == "a/b"  # a path given in Python


@pytest.mark.integration
def test_inspect_eval_refuses_it_in_one_line(tmp_path: Path) -> None:
    command = [
        sys.executable, "-m", "inspect_ai", "eval", "uxbench/task2_eval", "--model", "mockllm/model",
        "-T", "data=sample", "-T", "skip_bad=maybe", "-T", "self_grade=true", "--limit", "1",
        "--log-dir", str(tmp_path),
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, env={**os.environ}, stdin=subprocess.DEVNULL
    )
    output = done.stdout + done.stderr
    assert "skip_bad='maybe': give true or false" in output
    assert "Traceback" not in output
    assert done.returncode == 1
