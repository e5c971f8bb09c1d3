"""Inspect hooks of this package: credentials kept out of every run's log, trace file and console.

Inspect's hooks see the samples, events and logs but must not change them, and a log is
written while its samples run, so `RedactSecrets` works around the run instead: while it
runs, Inspect's log records (console, trace file, the log's logger events) and the process's
stdout/stderr pass through a `uxbench.runtime.credentials.CredentialScrubber`; when it ends, each log it wrote
is rewritten with its credentials blanked out.

It is registered through the package's entry point, so Inspect calls it in every run where
uxbench is installed, but it acts only on runs of UXBench's own tasks (`uxbench/...`: by
`inspect eval`, `eval-set`, `eval-retry`, `eval()`, the pipeline's evals): another suite's logs
are its own, and stay byte for byte what Inspect wrote unless `UXBENCH_REDACT_ALL=1` asks for
them to be redacted too. In a run that mixes both, the console and log records are redacted,
and only UXBench's logs are rewritten.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any, TextIO

import anyio
from inspect_ai.hooks import Hooks, RunEnd, RunStart, TaskStart, hooks
from inspect_ai.model import Model, get_model, model_roles

from uxbench.runtime.credentials import CredentialScrubber, is_secret_argument, url_credentials

logger = logging.getLogger(__name__)

REDACT_ALL = "UXBENCH_REDACT_ALL"  # set to 1: redact the runs of every suite, not only UXBench's
TASK_PREFIX = "uxbench/"

# attributes every LogRecord has; only the others (a trace's `error`, `stacktrace`, …) are extras
_STANDARD_ATTRIBUTES = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message"}


class RedactingStream:
    """A text stream that writes through to `stream`, credentials blanked out."""

    def __init__(self, stream: TextIO, redactor: CredentialScrubber) -> None:
        self.stream = stream
        self.redactor = redactor

    def write(self, text: str) -> int:
        redacted = self.redactor.redact_rendered(text)
        try:
            self.stream.write(redacted)
        except UnicodeEncodeError:
            # a console that cannot show a character (a latin-1 locale and the Chinese metric
            # names) gets it escaped, `\u51c6`, rather than a crash at the end of the run
            encoding = getattr(self.stream, "encoding", None) or "ascii"
            self.stream.write(redacted.encode(encoding, "backslashreplace").decode(encoding))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding, …
        return getattr(self.stream, name)


class RedactingFilter(logging.Filter):
    """Blanks credentials out of a record's message, traceback and extra fields, before any
    handler formats it."""

    def __init__(self, redactor: CredentialScrubber) -> None:
        super().__init__()
        self.redactor = redactor
        self.active = True

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.active:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the logging module's to report
            return True
        if (redacted := self.redactor.redact(message)) != message:
            record.msg, record.args = redacted, ()
        for key, value in list(vars(record).items()):
            if isinstance(value, str) and key not in _STANDARD_ATTRIBUTES:
                setattr(record, key, self.redactor.redact(value))
        if record.exc_info:
            text = record.exc_text or logging.Formatter().formatException(record.exc_info)
            if (redacted := self.redactor.redact(text)) != text:
                record.exc_info, record.exc_text = None, redacted
        return True


def task_model_credentials() -> list[tuple[str, str]]:
    """The credentials the running task's models were built with: each one's API key, its base
    URL's, and its secret-named model arguments. Inspect leaves a `-M api_key=…`, a role's or a
    --model-config file's key out of the log header (and so out of `TaskStart.spec`), so they are
    read off the models themselves."""
    try:
        roles = model_roles()
        models: list[Model] = [get_model()]
    except (LookupError, ValueError):  # outside a task
        return []
    for bound in roles.values():
        models += bound if isinstance(bound, list) else [bound]
    values: list[object] = []
    for model in models:
        values += [model.api.api_key, *url_credentials(model.api.base_url or "")]
        values += [value for name, value in model.model_args.items() if is_secret_argument(name)]
    # unnamed: a key that came from the environment keeps its variable's name (from_environ's)
    return [("", value) for value in values if isinstance(value, str) and value]


def _redact_log(redactor: CredentialScrubber, location: str) -> None:
    """Rewrite one log redacted (into a new file that then replaces it); when that cannot be
    done (a full disk), the log is left as it was and a warning says it still holds credentials."""
    try:
        redactor.redact_log_file(location)
    except OSError as error:
        logger.warning(
            f"{location}: credentials could not be blanked out of this log ({error}); it is unchanged "
            f"and may hold them: free space, then run `uxbench scrub-credentials {location}`"
        )


def redacts(task: str) -> bool:
    """Whether the hook redacts a run of this task (its registry name)."""
    everything = os.environ.get(REDACT_ALL, "").strip().lower() in ("1", "true", "yes")
    return everything or task.startswith(TASK_PREFIX)


@hooks(
    name="redact_secrets",
    description="Blanks API keys, tokens and URL passwords out of UXBench runs' logs, trace and console.",
)
class RedactSecrets(Hooks):
    def __init__(self) -> None:
        self.filter = RedactingFilter(CredentialScrubber({}))
        self.runs: set[str] = set()  # the runs it acts on

    async def on_run_start(self, data: RunStart) -> None:
        if not any(redacts(name) for name in data.task_names):
            # the filter stays on the handlers after a run of ours, for what Inspect logs
            # after it ends; another suite's run gets its log records as they are
            self.filter.active = bool(self.runs)
            return
        self.runs.add(data.run_id)
        self.filter.active = True
        for handler in {*logging.getLogger().handlers, *logging.getLogger("inspect_ai").handlers}:
            if self.filter not in handler.filters:
                handler.addFilter(self.filter)
        for name in ("stdout", "stderr"):
            stream = getattr(sys, name)
            if not isinstance(stream, RedactingStream):
                setattr(sys, name, RedactingStream(stream, self.filter.redactor))
        self._use(CredentialScrubber.from_environ())

    async def on_task_start(self, data: TaskStart) -> None:
        """The task's own keys, base URLs and model arguments join the credentials looked for,
        before its first request."""
        if data.run_id in self.runs:
            self._use(self.filter.redactor.including(data.spec).with_secrets(task_model_credentials()))

    def _use(self, redactor: CredentialScrubber) -> None:
        self.filter.redactor = redactor
        for name in ("stdout", "stderr"):
            stream = getattr(sys, name)
            if isinstance(stream, RedactingStream):
                stream.redactor = redactor

    async def on_run_end(self, data: RunEnd) -> None:
        if data.run_id not in self.runs:
            return
        self.runs.discard(data.run_id)
        try:
            redactor = self.filter.redactor  # the run's: its tasks' keys are in no log header
            for log in data.logs:
                location = log.location
                if not redacts(log.eval.task):
                    continue
                if "://" in location and not location.startswith("file://"):
                    logger.warning(f"{location}: credentials are not redacted in remote logs")
                elif location:
                    await anyio.to_thread.run_sync(_redact_log, redactor, location)
        finally:
            if not self.runs:
                for name in ("stdout", "stderr"):
                    stream = getattr(sys, name)
                    if isinstance(stream, RedactingStream):
                        setattr(sys, name, stream.stream)
