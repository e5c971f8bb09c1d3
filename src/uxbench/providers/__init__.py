"""Model providers registered through the uxbench entry point.

Defined here: the embedded model. `--model uxbench/smollm2` runs SmolLM2-135M-Instruct on
the CPU, with no network and no key, so every task can be tried end to end on a fresh
machine (`uxbench/smollm2-grader` is the same model answering only with a label). The API
is registered under the name `uxbench`: Inspect matches a provider by its unqualified
name, so the model name is just `uxbench/<model>`. torch and transformers load only when
such a model is created, which keeps the entry point light.
"""

from __future__ import annotations

from inspect_ai.model import ModelAPI, modelapi


@modelapi(name="uxbench")
def local_models() -> type[ModelAPI]:
    from uxbench.providers.smollm2 import LocalModelAPI

    return LocalModelAPI
