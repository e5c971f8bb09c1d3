"""The only private Inspect APIs UXBench uses, each with the reason no public one does the job.

Everything else in the package uses Inspect's public API; a test pins that no other module
imports from a private `inspect_ai` module.

- `active_model`: whether an eval is constructing the task right now. A task function
  cannot otherwise tell `inspect eval` (model roles bound, so a missing grader can be
  reported before the log starts, without a traceback) from a `Task` built in Python before
  `eval(...)` (roles unknown until the run). Without it a missing grader shows up only at
  the first sample: a log with status error, a traceback on the console and exit code 0.
- `active_generate_config`: the run's generate settings (`--attempt-timeout`, `--timeout`,
  `--max-retries`, …). Inspect applies them in full only to the model under test; a model
  bound to another role inherits `timeout` and `max_retries` but not `attempt_timeout`
  (`Model._resolve_config`), and `get_model().config` lacks them when the model under
  test was passed as a `Model` object. The grader needs them to give up on a hung call.
- `sample_active`: which sample a model call serves, for providers that answer per record:
  the replay models (its id) and `uxbench/human` (its eval, its place in the run's plan and
  its log file). Inspect has no public accessor; its own providers read it the same way.
- `PrerequisiteError`: what Inspect's providers raise for a missing API key or package; the
  pipeline turns it into a one-line message before any stage runs. It is not exported.
- `OpenAIResponseError`: the error Inspect's OpenAI-compatible providers raise for a reply that
  is an error (its OpenRouter provider raises it from `on_response` for an HTTP 200 error
  body); code `server_error` is one Inspect retries under `--max-retries` / `--timeout`. The
  grader raises it for the same bodies from any OpenAI-compatible provider. It is not exported.
"""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError
from inspect_ai.log._samples import sample_active
from inspect_ai.model import GenerateConfig
from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.model._model import active_model
from inspect_ai.model._openai import OpenAIResponseError

__all__ = [
    "OpenAIResponseError",
    "PrerequisiteError",
    "active_sample_id",
    "in_eval",
    "run_config",
    "sample_active",
]


def in_eval() -> bool:
    """True while an eval runs, including while it constructs its tasks."""
    return active_model() is not None


def run_config() -> GenerateConfig:
    """The generate settings of the running eval (command line flags and `eval(...)` arguments)."""
    return active_generate_config()


def active_sample_id() -> str | None:
    """The id of the sample whose model call is running, or None outside a sample."""
    active = sample_active()
    return None if active is None else str(active.sample.id)
