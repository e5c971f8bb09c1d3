"""The model the agent stages call, as plain data: recorded in the run manifests (so a resume
with another model is noticed) and built into an Inspect model where the stage runs."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from inspect_ai.model import Model, get_model

from uxbench.runtime._inspect import PrerequisiteError  # what Inspect's providers raise on a missing key
from uxbench.runtime.credentials import is_secret_argument
from uxbench.runtime.errors import DataError


def _fingerprint(value: str) -> str:
    """Stands for a secret in a manifest: a change is still noticed, the value is not written."""
    return "sha256:" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:12]


def _safe_url(url: str | None) -> str | None:
    if not url:
        return url
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    userinfo, host = parts.netloc.rsplit("@", 1)
    return urlunsplit(parts._replace(netloc=f"{_fingerprint(userinfo)}@{host}"))


def _safe_args(args: dict[str, Any]) -> dict[str, Any]:
    """Model arguments worth recording: plain values, secrets fingerprinted, callables left out."""
    return {
        key: _fingerprint(str(value)) if is_secret_argument(key) else value
        for key, value in sorted(args.items())
        if isinstance(value, (str, int, float, bool)) or value is None
    }


@dataclass(frozen=True)
class ModelSpec:
    """An Inspect model name with its base URL and `-M` arguments, or the dry-run stand-in."""

    name: str = "mockllm/model"
    base_url: str | None = None
    args: tuple[tuple[str, str], ...] = ()
    dry_run: bool = False

    def model(self) -> Model:
        if self.dry_run:
            from uxbench.pipeline.run.mock import mock_answers

            return get_model(  # inspect-evals-lint: ignore[IEBP001] -- the pipeline binds its models
                "mockllm/model", custom_outputs=mock_answers()
            )
        try:
            return get_model(  # inspect-evals-lint: ignore[IEBP001] -- the pipeline binds its models
                self.name, base_url=self.base_url, **dict(self.args)
            )
        except (PrerequisiteError, ValueError, TypeError) as error:  # unknown provider or -M, missing key
            from rich.text import Text  # Inspect's messages carry console markup

            raise DataError(f"model {self.name}: {Text.from_markup(str(error)).plain.strip()}") from None

    def describe(self) -> dict[str, Any]:
        if self.dry_run:
            return {"model": "dry-run"}
        return {"model": self.name, "base_url": _safe_url(self.base_url), "args": _safe_args(dict(self.args))}


ModelLike = str | Model | ModelSpec


def resolve(model: ModelLike) -> Model:
    """The Inspect model to run."""
    if isinstance(model, Model):
        return model
    return (ModelSpec(model) if isinstance(model, str) else model).model()


def describe(model: ModelLike) -> dict[str, Any]:
    """What the manifests record of a model (no secrets)."""
    if isinstance(model, ModelSpec):
        return model.describe()
    if isinstance(model, str):
        return ModelSpec(model).describe()
    base_url = _safe_url(model.api.base_url)
    return {"model": str(model), "base_url": base_url, "args": _safe_args(model.model_args)}
