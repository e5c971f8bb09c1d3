"""Model providers registered through the uxbench entry point.

Defined here: the `uxbench` API. `--model uxbench/smollm2` runs SmolLM2-135M-Instruct on
the CPU, with no network and no key, so every task can be tried end to end on a fresh
machine (`uxbench/smollm2-grader` is the same model answering only with a label);
`--model uxbench/human` is a person answering in the browser (`uxbench.providers.human`).
The API is registered under the name `uxbench`: Inspect matches a provider by its
unqualified name, so the model name is just `uxbench/<model>`. torch, transformers and the
web server load only when such a model is created, which keeps the entry point light.
"""

from __future__ import annotations

from typing import Any, cast

from inspect_ai.model import ModelAPI, modelapi


def uxbench_model(model_name: str, **kwargs: Any) -> ModelAPI:
    """The API object serving `uxbench/<model_name>`, imported only when asked for."""
    if model_name == "human":
        from uxbench.providers.human import HumanAPI

        return HumanAPI(model_name, **kwargs)
    from uxbench.providers.smollm2 import LocalModelAPI

    return LocalModelAPI(model_name, **kwargs)


@modelapi(name="uxbench")
def local_models() -> type[ModelAPI]:
    # Inspect calls what this returns with the model name; a function can pick the class by it.
    return cast(type[ModelAPI], uxbench_model)
