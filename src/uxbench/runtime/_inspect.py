# inspect-evals-lint: ignore-file[IECQ001] -- the one module of private imports, each with a fallback
"""The only private Inspect APIs UXBench uses, each with the reason no public one does the job.

Everything else in the package uses Inspect's public API; a test pins that no other module
imports from a private `inspect_ai` module. Private modules move without notice, so each
import has a fallback: an Inspect release that moves one turns off only the feature that
needs it, with a warning naming it, and every `uxbench/` task stays listed and runnable.

- `active_model`: whether an eval is running (constructing its tasks or solving samples).
  Only the run tags need it (runtime/tags.py): a task built in Python before `eval(...)`
  has no run to describe. Without it no tags are added.
- `active_generate_config`: the run's generate settings (`--attempt-timeout`, `--timeout`,
  `--max-retries`, …). Inspect applies them in full only to the model under test; a model
  bound to another role inherits `timeout` and `max_retries` but not `attempt_timeout`
  (`Model._resolve_config`), and `get_model().config` lacks them when the model under
  test was passed as a `Model` object. The grader needs them to give up on a hung call;
  without it the grader uses only its own role's limits, and the run tags omit settings.
- `sample_active`: which sample a model call serves, for providers that answer per record:
  the replay models (its id) and `uxbench/human` (its eval, its place in the run's plan and
  its log file). Inspect has no public accessor; its own providers read it the same way.
  Without it the replay models stop with a message and `uxbench/human` shows no run plan.
- `cancel_task`: ends a task the way the display's cancel button does (completed samples kept,
  status error, one line on the console). `uxbench/human` ends a run the person paused this
  way: a `Paused` raised from a sample would end it too, but with a ~130-line traceback.
  Without it a pause ends the run through that `Paused`, traceback and all.
- `is_cancellation_message`: whether a sample's error is the cancel's own (the items on a
  paused person's page). Without it the same test is made on the message's first word.
- `PrerequisiteError`: what Inspect's providers raise for a missing API key or package; the
  pipeline turns it into a one-line message before any stage runs. It is not exported.
  Without it that error surfaces as the provider raised it.
- `eval_resolve_tasks`: the function in which `inspect eval`, `eval()` and `eval_set()` build
  the tasks they were given by name, after binding the run's model roles. A task built there
  can tell that a role it needs is missing before any sample starts (`missing grader`, one
  line, no traceback); built anywhere else (a `Task` made before `eval(task, model_roles=...)`,
  inspect-flow, which binds a `FlowTask`'s roles after building it) the roles are not known
  yet. `model_roles()` alone cannot tell these apart: `eval_set()` leaves its roles set in the
  caller's context. Without it the grader is checked when the first sample runs (a traceback).
- `Batcher`: the base of Inspect's provider batchers (`--batch`). A batch whose results leave
  out a request (a truncated results file, a provider bug) never answers that request: its
  sample waits for `--attempt-timeout`, forever without one; and one result line Inspect cannot
  read (OpenAI's `batch_expired` lines carry a string error code) fails every request of the
  batch, the answered ones too. `uxbench.runtime.batches` gives each such request its own error
  (docs/running.md#batch-cache-and-cost). Without it those two cases behave as Inspect has them.
- `cache_epoch`: the epoch Inspect's model cache keys a call by. A model call in a sample sets
  it from the sample; a scorer run by `inspect score` has no sample state, so its calls are
  keyed by no epoch and miss every grading the run cached. The GRM scorer sets it from the
  sample it grades where it is unset. Without it `inspect score` pays for each grading again.
- `OpenAIResponseError`: the error Inspect's OpenAI-compatible providers raise for a reply that
  is an error (its OpenRouter provider raises it from `on_response` for an HTTP 200 error
  body); code `server_error` is one Inspect retries under `--max-retries` / `--timeout`. The
  grader raises it for the same bodies from any OpenAI-compatible provider. It is not exported.
  Without it such a body still errors the sample with the provider's message, but is not retried.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import Any

from inspect_ai.model import GenerateConfig

from uxbench.runtime.errors import DataError

__all__ = [
    "MISSING",
    "Batcher",
    "building_eval_tasks",
    "OpenAIResponseError",
    "PrerequisiteError",
    "active_sample_id",
    "in_eval",
    "key_cache_by_epoch",
    "run_config",
    "sample_active",
    "stop_task",
]

# private name -> the feature turned off because this Inspect lacks it
MISSING: dict[str, str] = {}


def _missing(name: str, feature: str, error: ImportError) -> None:
    MISSING[name] = feature
    warnings.warn(
        f"uxbench: this Inspect has no {name} ({error}); {feature} is off. "
        "Install a tested inspect-ai (pyproject.toml's bound) to turn it back on.",
        RuntimeWarning,
        stacklevel=3,
    )


try:
    from inspect_ai._util.error import PrerequisiteError
except ImportError as error:
    _missing("inspect_ai._util.error.PrerequisiteError", "the pipeline's one-line missing-key message", error)

    class PrerequisiteError(RuntimeError):  # type: ignore[no-redef]
        """Stands in for Inspect's; nothing raises it."""


try:
    from inspect_ai.log._samples import sample_active
except ImportError as error:
    _missing(
        "inspect_ai.log._samples.sample_active",
        "the replay models and uxbench/human's run plan (which sample a model call serves)",
        error,
    )

    def sample_active() -> Any:  # type: ignore[misc]
        return None


try:
    from inspect_ai.model._generate_config import active_generate_config
except ImportError as error:
    _missing(
        "inspect_ai.model._generate_config.active_generate_config",
        "the run's time and retry limits for the grader, and setting tags",
        error,
    )
    active_generate_config: Callable[[], GenerateConfig] = GenerateConfig  # type: ignore[no-redef]

try:
    from inspect_ai.model._model import active_model
except ImportError as error:
    _missing("inspect_ai.model._model.active_model", "the run tags (grader=, temperature=, …)", error)

    def active_model() -> Any:  # type: ignore[misc]
        return None


try:
    from inspect_ai.model._openai import OpenAIResponseError
except ImportError as error:
    _missing("inspect_ai.model._openai.OpenAIResponseError", "retrying a grader's HTTP 200 error body", error)

    class OpenAIResponseError(RuntimeError):  # type: ignore[no-redef]
        """Stands in for Inspect's: raised, it errors the sample without Inspect's retry."""

        def __init__(self, code: str, message: str) -> None:
            super().__init__(message)
            self.code, self.message = code, message


try:
    from inspect_ai.model._providers.util.batch import Batcher
except ImportError as error:
    _missing(
        "inspect_ai.model._providers.util.batch.Batcher",
        "an error of its own for each batched request a provider's results leave out or garble",
        error,
    )
    Batcher = None  # type: ignore[assignment,misc]


try:
    from inspect_ai.model._cache import epoch as cache_epoch
except ImportError as error:
    _missing("inspect_ai.model._cache.epoch", "cache hits for gradings in `inspect score`", error)
    cache_epoch = None  # type: ignore[assignment]


try:
    from inspect_ai._eval.eval import eval_resolve_tasks
except ImportError as error:
    _missing(
        "inspect_ai._eval.eval.eval_resolve_tasks",
        "the grader check before a run starts (it is made when the first sample runs)",
        error,
    )
    eval_resolve_tasks = None  # type: ignore[assignment]


try:
    from inspect_ai._control.cancel import cancel_task
except ImportError as error:
    _missing("inspect_ai._control.cancel.cancel_task", "uxbench/human's one-line pause", error)

    def cancel_task(task_id: str) -> Any:  # type: ignore[misc]
        return None


try:
    from inspect_ai._util.error import is_cancellation_message
except ImportError as error:
    _missing(
        "inspect_ai._util.error.is_cancellation_message", "a paused log without its unanswered items", error
    )

    def is_cancellation_message(message: str | None) -> bool:  # type: ignore[misc]
        return message is not None and message.startswith(("CancelledError(", "Cancelled("))


def in_eval() -> bool:
    """True while an eval runs, including while it constructs its tasks."""
    return active_model() is not None


def building_eval_tasks() -> bool:
    """True while Inspect builds the tasks of an eval by name, with the run's model roles bound."""
    code = getattr(eval_resolve_tasks, "__code__", None)
    frame = sys._getframe(1)
    while frame is not None and code is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False


def run_config() -> GenerateConfig:
    """The generate settings of the running eval (command line flags and `eval(...)` arguments)."""
    return active_generate_config()


def key_cache_by_epoch(epoch: int) -> None:
    """Key this context's model calls in Inspect's cache by `epoch` unless a sample already has."""
    if cache_epoch is not None and cache_epoch.get(None) is None:
        cache_epoch.set(epoch)


def active_sample_id() -> str | None:
    """The id of the sample whose model call is running, or None outside a sample."""
    name = "inspect_ai.log._samples.sample_active"
    if name in MISSING:
        raise DataError(
            f"the replay models need {name} to tell which record a call serves; this Inspect lacks it"
        )
    active = sample_active()
    return None if active is None else str(active.sample.id)


def stop_task(task_id: str) -> bool:
    """Cancel a running task of this process (call it on the eval's event loop); False if it cannot."""
    result = cancel_task(task_id)
    return bool(result and result.get("ok", True))
