"""Model providers registered through the uxbench entry point.

Defined here: the `uxbench` API. `--model uxbench/smollm2` runs SmolLM2-135M-Instruct on
the CPU, with no network and no key, so every task can be tried end to end on a fresh
machine (`uxbench/smollm2-grader` is the same model answering only with a label);
`--model uxbench/human` is a person answering in the browser (`uxbench.providers.human`);
`uxbench/baseline/<strategy>` a fixed rule (`uxbench.providers.baseline`);
`uxbench/replay/<model>` and `uxbench/replay-grm/<model>` a published model's replies and
UXBench-GRM's published grades of them (`uxbench.providers.replay`).
The API is registered under the name `uxbench`: Inspect matches a provider by its
unqualified name, so the model name is just `uxbench/<model>`, and this API picks the class
by the rest of the name. torch, transformers and the web server load only when such a model
is created, which keeps the entry point light.

The earlier provider names `baseline/`, `replay/` and `replay-grm/` still work, with a
deprecation warning; logs made with them keep their names.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, cast

from inspect_ai.model import ModelAPI, modelapi

logger = logging.getLogger(__name__)


def _baseline() -> type[ModelAPI]:
    from uxbench.providers.baseline import BaselineAPI

    return BaselineAPI


def _replay() -> type[ModelAPI]:
    from uxbench.providers.replay import ReplayAPI

    return ReplayAPI


def _replay_grm() -> type[ModelAPI]:
    from uxbench.providers.replay import ReplayGraderAPI

    return ReplayGraderAPI


# `uxbench/<family>/<name>`: the class serving <name>
FAMILIES: dict[str, Callable[[], type[ModelAPI]]] = {
    "baseline": _baseline,
    "replay": _replay,
    "replay-grm": _replay_grm,
}


def uxbench_model(model_name: str, **kwargs: Any) -> ModelAPI:
    """The API object serving `uxbench/<model_name>`, imported only when asked for."""
    family, sep, name = model_name.partition("/")
    if sep and family in FAMILIES:
        api = FAMILIES[family]()(name, **kwargs)
        api.model_name = model_name  # Inspect names the model `uxbench/<family>/<name>` by it
        return api
    if model_name == "human":
        from uxbench.providers.human import HumanAPI

        return HumanAPI(model_name, **kwargs)
    from uxbench.providers.smollm2 import LocalModelAPI

    return LocalModelAPI(model_name, **kwargs)


@modelapi(name="uxbench")
def local_models() -> type[ModelAPI]:
    # Inspect calls what this returns with the model name; a function can pick the class by it.
    return cast(type[ModelAPI], uxbench_model)


def deprecated(family: str) -> type[ModelAPI]:
    """The class behind an old provider name, with a warning naming the new one."""
    logger.warning(
        f"--model {family}/<name> is deprecated and will be removed: use uxbench/{family}/<name> "
        "(the same model under the uxbench provider)"
    )
    return FAMILIES[family]()


@modelapi(name="baseline")
def baseline_alias() -> type[ModelAPI]:
    return deprecated("baseline")


@modelapi(name="replay")
def replay_alias() -> type[ModelAPI]:
    return deprecated("replay")


@modelapi(name="replay-grm")
def replay_grm_alias() -> type[ModelAPI]:
    return deprecated("replay-grm")


# no Python API: the models are reached through Inspect's model names (`uxbench/...`)
__all__: list[str] = []
