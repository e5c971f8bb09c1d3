"""Task parameters refuse values that do not fit their annotation (`-T skip_bad=maybe`), with one
line naming the parameter, in every task of the package."""

import inspect
import os
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
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


EMPTY = "give a value, or leave -T revision out for its default"


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
        # pydantic's lax mode would read true as 1: a bool is only a bool's value
        ({"count": True}, "count=True: give a whole number"),
        ({"share": False}, "share=False: give a number"),
        ({"revision": True}, "revision=True: give text"),
        # `-T revision=` and `-T revision=null` (an unset shell variable) would silently run the default
        ({"revision": None}, f"revision is given empty (None): {EMPTY}"),
        ({"revision": " "}, f"revision is given empty (' '): {EMPTY}"),
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


@pytest.mark.parametrize("name", sorted(uxbench_tasks()))
def test_a_null_or_empty_argument_is_refused_where_the_default_is_none(name: str) -> None:
    task = uxbench_tasks()[name]
    parameters = inspect.signature(task).parameters
    required = {p: "x" for p, spec in parameters.items() if spec.default is inspect.Parameter.empty}
    for parameter in (p for p, spec in parameters.items() if spec.default is None):
        for empty in (None, ""):  # `-T shard=` reads as null (YAML), `-T shard=""` as ""
            with pytest.raises(DataError, match=rf"^{parameter} is given empty"):
                task(**{**required, parameter: empty})


@pytest.mark.parametrize("name", sorted(uxbench_tasks()))
def test_true_is_no_number(name: str) -> None:
    task = uxbench_tasks()[name]
    parameters = inspect.signature(task).parameters
    required = {p: "x" for p, spec in parameters.items() if spec.default is inspect.Parameter.empty}
    hints = typing.get_type_hints(task)
    numeric = [p for p, h in hints.items() if p in parameters and {int, float} & {*typing.get_args(h), h}]
    for parameter in numeric:
        with pytest.raises(DataError, match=rf"^{parameter}=True: "):
            task(**{**required, parameter: True})


@given(st.integers(-(10**9), 10**9), st.booleans())
def test_a_number_is_a_number_and_true_is_not(number: int, flag: bool) -> None:
    assert example(count=number)["count"] == number
    assert example(count=str(number))["count"] == number  # what YAML gives for a quoted value
    with pytest.raises(DataError, match=rf"^count={flag}: give a whole number$"):
        example(count=flag)
    assert example(flag=flag)["flag"] is flag


@given(st.sampled_from([None, "", " ", "\t", "\n"]))
def test_empty_is_never_the_default_silently(value: str | None) -> None:
    with pytest.raises(DataError, match=r"^revision is given empty "):
        example(revision=value)
