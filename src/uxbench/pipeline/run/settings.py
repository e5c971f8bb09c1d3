"""Per-stage models and Inspect settings of the agent stages, from flags, a YAML file and
`INSPECT_EVAL_MODEL`.

A stage's model is, first found: `--<stage>-model`, the config file's `<stage>.model`,
`--model`, the config file's `model`, `INSPECT_EVAL_MODEL`. `--model-base-url` and `-M` go with
a model named on the command line, the file's `model_base_url` / `model_args` with one named
in the file. Inspect's generate settings (`temperature`, `reasoning_effort`, `max_retries`,
`timeout`, `max_connections`, … — any field of `inspect_ai.model.GenerateConfig`) are, first
found: the file's `<stage>.<setting>`, the flag, the file's top-level `<setting>`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import GenerateConfig
from pydantic import ValidationError

from uxbench.pipeline.read.files import read_yaml
from uxbench.pipeline.run.models import ModelLike, ModelSpec
from uxbench.runtime.errors import DataError
from uxbench.runtime.generation import OPERATIONAL

STAGES = ("miner", "judge", "qa")
_MODEL_KEYS = ("model", "model_base_url", "model_args")
EVAL_KEYS = frozenset(GenerateConfig.model_fields) | {"fail_on_error", "log_level"}
# settings that change how a run goes, not what it answers: not held against a resume
RUN_ONLY = OPERATIONAL | {"fail_on_error", "log_level", "log_realtime"}


@dataclass(frozen=True)
class CommandLine:
    """What the flags say: the models and the generate settings given on the command line."""

    model: ModelLike | None = None  # --model, with its base URL and -M
    base_url: str | None = None  # of the --<stage>-model models
    model_args: tuple[tuple[str, str], ...] = ()
    stage_models: dict[str, str | None] = field(default_factory=dict)
    eval_args: dict[str, Any] = field(default_factory=dict)
    config: str | None = None
    dry_run: bool = False


@dataclass(frozen=True)
class StageSetup:
    model: ModelLike
    eval_args: dict[str, Any]  # passed on to inspect_ai.eval for this stage


def _check_eval_args(args: dict[str, Any], where: str) -> dict[str, Any]:
    unknown = sorted(set(args) - EVAL_KEYS)
    if unknown:
        raise DataError(
            f"{where}: unknown settings {', '.join(unknown)} (use Inspect's GenerateConfig fields)"
        )
    try:
        GenerateConfig(**{k: v for k, v in args.items() if k in GenerateConfig.model_fields})
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        key = ".".join(str(p) for p in first["loc"])
        raise DataError(f"{where}: `{key}`: {first['msg']}") from None
    return args


def _model_args(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise DataError(f"{where}: `model_args` must be a mapping of argument names to values")
    return tuple((str(k), v) for k, v in value.items())


def read_config(path: str | None) -> dict[str, Any]:
    """The YAML file's top level and stage sections, checked."""
    if path is None:
        return {}
    data, _ = read_yaml(path, "--config")
    _model_args(data.get("model_args"), f"--config {path}")
    for name in STAGES:
        section = data.get(name, {})
        if not isinstance(section, dict):
            raise DataError(f"--config {path}: `{name}` must be a mapping of settings")
        _model_args(section.get("model_args"), f"--config {path}: {name}")
        _check_eval_args(
            {k: v for k, v in section.items() if k not in _MODEL_KEYS}, f"--config {path}: {name}"
        )
    top = {k: v for k, v in data.items() if k not in (*STAGES, *_MODEL_KEYS)}
    _check_eval_args(top, f"--config {path}")
    return data


def stage_setups(flags: CommandLine) -> dict[str, StageSetup]:
    """The model and Inspect settings of each agent stage."""
    config = read_config(flags.config)
    where = f"--config {flags.config}"
    top_eval = {k: v for k, v in config.items() if k not in (*STAGES, *_MODEL_KEYS)}
    setups = {}
    for name in STAGES:
        section = config.get(name, {})
        eval_args = {
            **top_eval,
            **flags.eval_args,
            **{k: v for k, v in section.items() if k not in _MODEL_KEYS},
        }
        if flags.dry_run:
            setups[name] = StageSetup(ModelSpec(dry_run=True), eval_args)
            continue
        chosen = _stage_model(name, flags, config, section, where)
        if chosen is None:
            raise DataError(
                f"no model for the {name} stage: give --model (any Inspect model, e.g. "
                f"openai-api/local/qwen), --{name}-model or a --config file, set INSPECT_EVAL_MODEL, "
                "or use --dry-run"
            )
        setups[name] = StageSetup(chosen, eval_args)
    return setups


def _stage_model(
    name: str, flags: CommandLine, config: dict[str, Any], section: dict[str, Any], where: str
) -> ModelLike | None:
    def spec(model: Any, base_url: Any, args: tuple[tuple[str, Any], ...]) -> ModelSpec | None:
        return ModelSpec(str(model), base_url, args) if model else None

    return (
        spec(flags.stage_models.get(name), flags.base_url, flags.model_args)
        or spec(
            section.get("model"), section.get("model_base_url"), _model_args(section.get("model_args"), where)
        )
        or flags.model
        or spec(
            config.get("model"), config.get("model_base_url"), _model_args(config.get("model_args"), where)
        )
        or spec(os.environ.get("INSPECT_EVAL_MODEL"), flags.base_url, flags.model_args)
    )


def recorded(eval_args: dict[str, Any]) -> dict[str, Any]:
    """The generate settings a stage's answers depend on (what a resume is held to)."""
    return {k: v for k, v in sorted(eval_args.items()) if k not in RUN_ONLY and v is not None}
