"""What makes a run what it is, besides its task, model and grader: the task arguments
(`-T`), the model's arguments (`-M`) and generation settings (`--temperature`,
`--logprobs`, `--reasoning-effort`, `--max-tokens`, `--seed`, … together with the task's own
defaults), the grader's arguments and settings, and the number of epochs. Two logs are the
same experiment only when all of them agree; the report shows the ones that differ.

Settings are one flat mapping, named the way a reader knows them from the command line:
`prompt` (a task argument), `temperature` (generation), `-M annotator` (a model argument),
`grader temperature` / `grader -M base_url` (the grader's).
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig

from uxbench.runtime.credentials import REDACTED, is_secret_argument
from uxbench.runtime.generation import OPERATIONAL
from uxbench.runtime.roles import grader_roles

# task arguments shown in the Data column instead of among the settings
DATA_ARGS = ("data", "revision")
SHARD_ARG = "shard"
_ABSOLUTE = re.compile(r"^(?:/|~|[A-Za-z]:[\\/])")
_PATH_IN_TEXT = re.compile(r"(?<![\w.:/])(?:/|~/|[A-Za-z]:\\)(?:[^\s'\"/\\:]+[/\\])+([^\s'\"/\\:]+)")


def generation(config: GenerateConfig | None) -> dict[str, Any]:
    """The generation settings of a config that affect results (None fields left out)."""
    if config is None:
        return {}
    values = config.model_dump(exclude_none=True)
    return {name: value for name, value in values.items() if name not in OPERATIONAL}


def _arguments(args: Mapping[str, Any] | None) -> dict[str, Any]:
    """Model arguments as settings; a credential (`-M api_key=…`) is shown blanked out."""
    return {
        name: REDACTED if is_secret_argument(name) else value
        for name, value in (args or {}).items()
        if value is not None
    }


def _grader_settings(log: EvalLog) -> dict[str, Any]:
    roles = log.eval.model_roles or {}
    out: dict[str, Any] = {}
    for role in grader_roles(roles):
        config = roles[role]
        if isinstance(config, list):
            continue
        prefix = role.replace("_", " ")
        out |= {f"{prefix} {name}": value for name, value in generation(config.config).items()}
        out |= {f"{prefix} -M {name}": value for name, value in _arguments(config.args).items()}
    return out


def run_settings(log: EvalLog) -> tuple[dict[str, Any], frozenset[str]]:
    """All settings of a run, and the names of those given explicitly on the command line."""
    # a shard (`-T shard=K/N`) is where a record ran, not how: the shards of one experiment pool
    task_args = {name: value for name, value in log.eval.task_args.items() if name != SHARD_ARG}
    # the plan's config is the eval's flags merged over the task's own config (its defaults)
    gen = generation(log.plan.config if log.plan else log.eval.model_generate_config)
    model_args = {f"-M {name}": value for name, value in _arguments(log.eval.model_args).items()}
    if log.eval.task.rsplit("/", 1)[-1] == "task1_judge":
        # a replay's -M replies=none swaps Tasks 2/3's reply files; Task 1 replays verdicts, untouched
        model_args.pop("-M replies", None)
    grader = _grader_settings(log)
    epochs = {"epochs": log.eval.config.epochs} if (log.eval.config.epochs or 1) > 1 else {}
    settings = {**task_args, **gen, **model_args, **grader, **epochs}
    explicit = {*log.eval.task_args_passed, *generation(log.eval.model_generate_config)} - {SHARD_ARG}
    return settings, frozenset(explicit | set(model_args) | set(grader) | set(epochs))


@cache
def task_defaults(task: str) -> dict[str, Any]:
    """The default of every parameter of a UXBench task (`task1_judge` → {"prompt": "default", …})."""
    function = getattr(importlib.import_module(f"uxbench.tasks.{task}"), task)
    return {
        name: parameter.default
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.default is not inspect.Parameter.empty
    }


def non_default(task: str, settings: Mapping[str, Any], explicit: frozenset[str]) -> set[str]:
    """Settings not at their default: a task argument other than the task's default, a
    generation setting or model argument given on the command line."""
    defaults = task_defaults(task)
    return {
        name
        for name, value in settings.items()
        if (name in defaults and value != defaults[name]) or (name not in defaults and name in explicit)
    }


def shown_value(value: Any, show_paths: bool = False) -> str:
    """A setting's value as the report prints it: absolute local paths by their file name."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, str):
        return value if show_paths or not _ABSOLUTE.match(value) else "…/" + re.split(r"[\\/]", value)[-1]
    return json.dumps(value, ensure_ascii=False, default=str)


def scrub_paths(text: str) -> str:
    """Absolute local paths inside free text (error messages) shortened to their last part."""
    return _PATH_IN_TEXT.sub(lambda found: "…/" + found.group(1), text)


def matches(settings: Mapping[str, Any], required: Mapping[str, Any]) -> bool:
    """True when every required setting has its value; a task argument an older log does not
    record counts as its default (generation settings are always recorded)."""
    return all(
        settings.get(name) == value
        if name in GenerateConfig.model_fields
        else settings.get(name, value) == value
        for name, value in required.items()
    )
