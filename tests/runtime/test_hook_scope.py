"""The redaction hook acts on UXBench's runs only: another suite's logs and console are its
own, unless `UXBENCH_REDACT_ALL=1` asks for them to be redacted too. And text that holds no
known credential (`postgres://admin:hunter2@db/x`) is never changed, in any run.

The foreign suite is a `@task` defined here (no package, so not `uxbench/...`); its sample
holds a URL with a password and the value of a credential variable, and its model replies
with both.
"""

from __future__ import annotations

import json
import logging
import zipfile
from pathlib import Path
from typing import Any

import pytest
from helpers.evals import run_eval
from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.event import LoggerEvent
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import Model, ModelOutput, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import Generate, Solver, TaskState, solver

from uxbench.runtime.credentials import CredentialScrubber
from uxbench.runtime.hooks import RedactSecrets

SECRET = "sk-foreign-suite-0001-canary"
URL = "postgres://admin:hunter2@db/x"
TEXT = f"connect to {URL} with {SECRET}"
REDACT_ALL = "UXBENCH_REDACT_ALL"  # the opt-in (uxbench.runtime.hooks.REDACT_ALL)
REDACTED_TEXT = f"connect to {URL} with [REDACTED:FOREIGN_API_KEY]"


@solver
def say_it() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        print(f"console: {TEXT}")
        logging.getLogger(__name__).warning(f"logged: {TEXT}")  # a logger event in the sample
        return await generate(state)

    return solve


@task
def foreign_suite() -> Task:
    return Task(
        dataset=[Sample(input=TEXT, target="x", metadata={"dsn": URL, "key": SECRET})],
        solver=say_it(),
        scorer=match(),
    )


def replying() -> Model:
    return get_model(
        "mockllm/model", custom_outputs=[ModelOutput.from_content("mockllm/model", f"reply: {TEXT}")]
    )


def run(suite: str, log_dir: Path) -> EvalLog:
    if suite == "foreign":
        log = run_eval(foreign_suite(), log_dir, model=replying())
    else:
        log = run_eval(
            "uxbench/task1_judge", log_dir, model=replying(), task_args={"data": "sample"}, limit=1
        )
    return read_eval_log(log.location)


# in this order, so that a foreign run follows a run the hook redacted, in one process
SCOPES = [
    # (suite, UXBENCH_REDACT_ALL, the sample's output as logged, the console line)
    ("uxbench", "", f"reply: {REDACTED_TEXT}", None),
    ("uxbench", "1", f"reply: {REDACTED_TEXT}", None),
    ("foreign", "", f"reply: {TEXT}", f"console: {TEXT}"),
    ("foreign", "1", f"reply: {REDACTED_TEXT}", f"console: {REDACTED_TEXT}"),
]


@pytest.mark.parametrize(
    ("suite", "everything", "output", "console"),
    SCOPES,
    ids=["uxbench", "uxbench-opt-in", "foreign", "foreign-opt-in"],
)
def test_which_runs_are_redacted(
    suite: str,
    everything: str,
    output: str,
    console: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FOREIGN_API_KEY", SECRET)
    monkeypatch.setenv(REDACT_ALL, everything)
    log = run(suite, tmp_path)
    assert log.samples is not None
    assert log.samples[0].output.completion == output
    if suite == "foreign":
        redacted = bool(everything)
        sample = log.samples[0]
        assert sample.input == (REDACTED_TEXT if redacted else TEXT)
        assert sample.metadata == {"dsn": URL, "key": "[REDACTED:FOREIGN_API_KEY]" if redacted else SECRET}
        [logged] = [e.message.message for e in sample.events if isinstance(e, LoggerEvent)]
        assert logged == f"sample=1\nlogged: {REDACTED_TEXT if redacted else TEXT}"
        assert console in capfd.readouterr().out.splitlines()


# what differs between two runs of the same eval whatever the hook does: ids and times (also
# as the `path` of a state change)
VOLATILE = {
    "time",
    "completed",
    "eval_id",
    "run_id",
    "task_id",
    "uuid",
    "id",
    "span_id",
    "parent_id",
    "created",
    "started_at",
    "completed_at",
    "timestamp",
    "working_start",
    "working_time",
    "total_time",
}


def stable(item: Any) -> Any:
    if isinstance(item, dict):
        if str(item.get("path", "")).rsplit("/", 1)[-1] in VOLATILE:
            item = {key: value for key, value in item.items() if key != "value"}
        return {key: stable(value) for key, value in item.items() if key not in VOLATILE}
    if isinstance(item, list):
        return [stable(value) for value in item]
    return item


def members(path: str) -> dict[str, Any]:
    with zipfile.ZipFile(path) as archive:
        return {name: stable(json.loads(archive.read(name))) for name in archive.namelist()}


def test_foreign_log_is_what_inspect_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A foreign suite's log with the hook installed equals its log with the hook disabled:
    every member of the `.eval` zip (header, samples, summaries, reductions, journal), parsed,
    with ids and timestamps (`VOLATILE`) left out; and the hook never opened the file."""
    monkeypatch.setenv("FOREIGN_API_KEY", SECRET)
    monkeypatch.delenv(REDACT_ALL, raising=False)
    rewrites: list[str] = []
    rewrite = CredentialScrubber.redact_log_file
    monkeypatch.setattr(
        CredentialScrubber,
        "redact_log_file",
        lambda self, path: rewrites.append(str(path)) or rewrite(self, path),
    )
    installed = run("foreign", tmp_path / "installed")
    monkeypatch.setattr(RedactSecrets, "enabled", lambda self: False)
    disabled = run("foreign", tmp_path / "disabled")
    assert rewrites == []
    assert members(installed.location) == members(disabled.location)
    assert installed.samples is not None and installed.samples[0].input == TEXT
    [logged] = [e.message.message for e in installed.samples[0].events if isinstance(e, LoggerEvent)]
    assert logged == f"sample=1\nlogged: {TEXT}"
