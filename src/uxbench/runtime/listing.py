"""The eval's listing (`eval.yaml`, in the inspect_evals register's form) and the task version it sets.

The version follows inspect_evals' N-X scheme: N, the comparability version, goes up when a
change can move a model's results (scoring, prompts, defaults, data), so runs of different N
must not be compared; X, the interface version (A, B, …), goes up when task parameters change
incompatibly. Inspect's `Task.version` holds N; the full form goes into the task metadata.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

_VERSION = re.compile(r"^([1-9][0-9]*)-([A-Z]+)$")


@dataclass(frozen=True)
class TaskVersion:
    comparability: int
    interface: str

    @property
    def full(self) -> str:
        return f"{self.comparability}-{self.interface}"

    def metadata(self) -> dict[str, Any]:
        """The task metadata fields inspect_evals' tasks carry, so log readers find them."""
        return {
            "full_task_version": self.full,
            "task_interface_version": self.interface,
            "task_comparability_version": self.comparability,
        }


@cache
def listing() -> dict[str, Any]:
    return yaml.safe_load((resources.files("uxbench") / "eval.yaml").read_text(encoding="utf-8"))


@cache
def task_version() -> TaskVersion:
    value = str(listing()["version"])
    match = _VERSION.match(value)
    if not match:
        raise ValueError(f"eval.yaml: version {value!r} is not of the form N-X (e.g. 2-A)")
    return TaskVersion(int(match.group(1)), match.group(2))
