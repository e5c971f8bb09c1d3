"""Inspect logs read into the report's facts: a run (`Run`), a grader check (`CheckLog`) or a log
left out (`Skipped`, with its reason).

A run of `uxbench/human` (a person judging) is a run like any other, named by its
annotator; its `--limit` subset is by design, so it is never partial.

Logs are read through Inspect's own API (`list_eval_logs`, `read_eval_log` with
`header_only`), so both log formats work; samples are read only where a number needs
them (samples.py).
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from inspect_ai.log import (
    EvalError,
    EvalLog,
    EvalScore,
    list_eval_logs,
    read_eval_log,
    read_eval_log_sample_summaries,
)

from uxbench.data.records import ORIGINS, STAND_IN, SYNTHETIC
from uxbench.providers.paused import paused_by
from uxbench.qualification.match import GRADER_CHECK, Check, Grader, Grading, annotator_of, task_name
from uxbench.qualification.published import PUBLISHED_GRADER, published_grading
from uxbench.report.run_settings import DATA_ARGS, run_settings, scrub_paths, shown_value
from uxbench.report.spec import TASKS
from uxbench.report.token_usage import RunUsage, run_usage
from uxbench.runtime.credentials import CredentialScrubber
from uxbench.runtime.errors import DataError
from uxbench.runtime.identity import Identity, IdentityError, Recorded

SELF_GRADED = "(self-graded)"


@dataclass(frozen=True)
class Run:
    """One log's facts and metrics, as the report uses them."""

    log: str  # absolute path
    name: str  # the log as shown: relative to the directory it was found in
    task: str
    model: str
    grader: str | None  # the grader model(s), as shown; None for Task 1
    graders: tuple[str, ...]  # every grader model (the model itself when self-graded)
    settings: dict[str, Any]  # see run_settings.py
    explicit: frozenset[str]  # settings given on the command line
    dataset_revision: str | None  # the hub commit the records were read at (None: local data)
    created: str
    samples: int  # records scored (completed samples / epochs)
    total: int  # records of the dataset the run was pointed at
    partial: str | None  # why the log does not cover its whole dataset, or None
    metrics: dict[str, float | None]
    breakdown: dict[str, dict[str, float | None]] = field(default_factory=dict)
    dataset: str = ""  # which records the run covers; runs with equal values share per-group counts
    sample_ids: tuple[str | int, ...] = ()  # the records the run was given
    annotator: str | None = None  # the person of a `uxbench/human` run
    grading: Grading | None = None  # Tasks 2/3: how it was graded (for its qualification)
    data_source: str | None = None  # sample, hub or local (task metadata; None in older logs)
    data_hash: str | None = None  # the hash of the records the run was given (None in older logs)
    scorer: str | None = (
        None  # the score it reports, when its log holds several (`inspect score --action append`)
    )
    eval_id: str = ""  # the run's id: a re-scored copy of a log (`inspect score --output-file`) keeps it
    written: float = 0.0  # when the log file was last written (its newest scoring), as a timestamp
    shard: str | None = None  # K/N for one shard's log (`-T shard=K/N`); the report pools them (shards.py)
    identity: Identity | None = None  # the experiment (runtime/identity.py); None only when built by hand
    usage: RunUsage | None = None  # tokens and cost per role (token_usage.py)
    origins: dict[str, int] = field(default_factory=dict)  # records that say what they are (data/records.py)
    task_id: str = ""  # kept by `inspect eval-retry`: a paused log and its retry share it
    resumed_from: str | None = None  # the paused log this run resumed (collect.py)
    metric_notes: dict[str, str] = field(default_factory=dict)  # the task's metric_descriptions

    @property
    def stand_in(self) -> bool:
        """Whether the run read stand-in records (placeholder text, no labels: data/records.py)."""
        return STAND_IN in self.origins

    @property
    def origin(self) -> str:
        """`stand-in` or `synthetic` when the run's records say so, else ""."""
        return next((origin for origin in (STAND_IN, SYNTHETIC) if origin in self.origins), "")

    @property
    def source(self) -> str:
        """The log and, when it holds several scores, which one: what the row's numbers are read from."""
        return f"{self.log}#{self.scorer}" if self.scorer else self.log

    @property
    def key(self) -> str:
        """What makes two runs the same experiment (its identity, runtime/identity.py, and who ran
        and graded it); a person's runs on other records are others."""
        experiment = (
            self.identity.key
            if self.identity
            else [self.task, self.settings, self.dataset_revision, self.data_hash]
        )
        facts = [experiment, self.model, self.grader, self.scorer]
        if self.human:
            facts.append(self.dataset)
        return json.dumps(facts, sort_keys=True, default=str)

    @property
    def human(self) -> bool:
        return self.annotator is not None

    @property
    def who(self) -> str:
        """The model, or the person: `uxbench/human · rater1`."""
        return f"{self.model} · {self.annotator}" if self.human else self.model

    @property
    def self_graded(self) -> bool:
        return bool(self.grader and self.grader.endswith(SELF_GRADED))

    @property
    def data_identity(self) -> tuple[str, str | None, str | None]:
        """Which data the run read: source, hub commit and record content; only runs with equal
        identities are ranked or paired together (an older log without a content hash: its location)."""
        source = self.data_source or str(self.settings.get("data", "hub"))
        return source, self.dataset_revision, self.data_hash

    def data(self, show_paths: bool = False) -> str:
        """The data as shown: `sample`, `hub@1a2b3c4`, or local files by the hash of their records
        and, while it still exists, the folder (`local 1a2b3c4d5e6f7a8b (…/my-copy)`): a temporary
        folder deleted since says nothing about the data."""
        value = self.settings.get("data", "hub")
        revision = self.dataset_revision or self.settings.get("revision")
        source = shown_value(value, show_paths)
        if self.data_identity[0] not in ("hub", "sample"):
            folder = isinstance(value, str) and Path(value).expanduser().exists()
            named = f"local {self.data_hash}" if self.data_hash else source
            source = f"{named} ({source})" if folder and self.data_hash else named
        source = f"{source}@{str(revision)[:7]}" if revision else source
        # the bundled sample is named as such; other records that say what they are, say it here
        return f"{source} · {self.origin} records" if self.origin and source != "sample" else source

    def shown_settings(self, names: list[str], show_paths: bool = False) -> dict[str, str]:
        return {name: shown_value(self.settings.get(name), show_paths) for name in names}


@dataclass(frozen=True)
class Skipped:
    log: str
    name: str
    task: str
    model: str
    reason: str
    task_id: str = ""  # a paused log's: its retry keeps it (collect.py says where it was resumed)
    paused_by: str | None = None  # the person who paused the run (providers/paused.py)


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


@dataclass(frozen=True)
class CheckLog:
    """A grader_check log the report shows and corrects Task 2/3 rows with."""

    check: Check
    name: str  # the log as shown
    shard: str | None = None  # K/N for one shard's log; the report pools them (shards.py)
    recorded: Recorded | None = None  # what its run recorded of its identity (None: an older log)


def score_graders(path: str) -> dict[str, tuple[str, ...]]:
    """Who graded each score of a Task 2/3 log, from its samples' scores (the `grader` the GRM
    scorer records): `inspect score --model-role grader=B` re-grades a log without changing the
    header's model roles, so the header alone would credit the first grader."""
    found: dict[str, dict[str, None]] = {}  # score -> the distinct `grader` values, in order
    for summary in read_eval_log_sample_summaries(path):
        for name, score in (summary.scores or {}).items():
            grader = (score.metadata or {}).get("grader")
            if isinstance(grader, str) and grader:
                found.setdefault(name, {})[grader] = None
    # one value: that panel, in role order (a model may sit on it twice); several: each grader once
    return {
        name: tuple(
            next(iter(values)).split(", ")
            if len(values) == 1
            else dict.fromkeys(model for value in values for model in value.split(", "))
        )
        for name, values in found.items()
    }


def _scored_by(grading: Grading, graders: tuple[str, ...] | None) -> Grading:
    """The grading with the graders the scores name; a grader also bound in the header keeps its
    annotator (a person at `uxbench/human`)."""
    if not graders or grading.self_graded:
        return grading
    known = {g.model: g for g in grading.graders}
    return dataclasses.replace(grading, graders=tuple(known.get(model, Grader(model)) for model in graders))


def _graders(log: EvalLog, grading: Grading) -> tuple[str | None, tuple[str, ...]]:
    """The grader as shown (a person with the annotator), and every grader model; a model that
    graded its own replies (`-T self_grade=true`) is marked so, and a replay graded by the
    published grades of its own replies (`replay/<m>` with `replay-grm/<m>`) is UXBench-GRM's,
    so all such runs rank together as the paper's do."""
    if grading.self_graded and log.eval.task_args.get("self_grade"):
        return f"{log.eval.model} {SELF_GRADED}", (log.eval.model,)
    models = tuple(g.model for g in grading.graders)
    if published_grading(log.eval.model, models):
        return PUBLISHED_GRADER, models
    return (", ".join(map(str, grading.graders)) or None), models


def _metrics(scores: list[EvalScore]) -> tuple[dict[str, float | None], dict[str, dict[str, float | None]]]:
    """Scalar metrics by name, and `key:value` breakdown metrics grouped by key.

    Metrics of all the scores given are merged; the first wins a name clash."""
    scalars: dict[str, float | None] = {}
    groups: dict[str, dict[str, float | None]] = {}
    for score in scores:
        for name, item in score.metrics.items():
            key, sep, group = name.partition(":")
            if sep:
                groups.setdefault(key, {}).setdefault(group, _number(item.value))
            else:
                scalars.setdefault(name, _number(item.value))
    return scalars, groups


def _partial(log: EvalLog, expected: int) -> str | None:
    """Why a successful log does not cover its whole dataset, or None."""
    if not log.results:
        return None
    epochs = log.eval.config.epochs or 1
    ran, completed = log.results.total_samples // epochs, log.results.completed_samples // epochs
    if ran < expected:
        return f"ran {ran} of {expected} records (--limit or --sample-id)"
    if completed < ran:
        return f"{completed} of {ran} records completed"
    return None


_CALL = re.compile(r"^\s*(\w+)\((.*)\)\s*$", re.DOTALL)
_EXCEPTION = re.compile(r"\b\w+(?:Error|Exception)\(")
_HTTP = re.compile(r"^Error code: (\d+) - (.*)$", re.DOTALL)


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def _provider_message(body: str) -> str:
    """The message of a provider's error body: `{'error': {'message': …}}` or plain text."""
    value = _literal(body)
    while isinstance(value, dict):
        inner = value.get("error", value.get("message", value.get("detail")))
        if inner is None or inner is value:
            break
        value = inner
    return value if isinstance(value, str) else body


def readable_error(error: EvalError | None, redactor: CredentialScrubber | None = None) -> str:
    """The cause of a failed run in one line: the innermost exception and, for an HTTP error,
    the provider's status and message (`BadRequestError 400: maximum context length…`),
    never the request Inspect attaches to a failed model call. Credentials are blanked out
    first (by `redactor`, default: this environment's)."""
    redactor = redactor or CredentialScrubber.from_environ()
    text = redactor.redact(error.message if error else "").strip()
    name = ""
    # unwrap `Outer('…request…Inner("…")')` layers down to the innermost exception
    while (call := _CALL.match(text)) and isinstance(inner := _literal(call.group(2)), str):
        name, text = call.group(1), inner.strip()
        nested = list(_EXCEPTION.finditer(text))
        if nested:
            text = text[nested[-1].start() :]
    if http := _HTTP.match(text):
        return scrub_paths(f"{name} {http.group(1)}: {_provider_message(http.group(2))}".strip())[:300]
    lines = [line for line in text.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    return scrub_paths(f"{name}: {first}" if name else first)[:300]


def _problem(log: EvalLog, redactor: CredentialScrubber) -> str | None:
    """Why a log cannot be used at all, or None."""
    if log.status == "error":
        reason = readable_error(log.error, redactor)
        return "errored" + (f": {reason}" if reason else "")
    if log.status == "cancelled":
        return "cancelled"
    if log.status != "success":
        return f"not finished (status {log.status})"
    if not log.results or not log.results.scores:
        return "no scores"
    return None


def _local(uri: str) -> str:
    return unquote(uri.removeprefix("file://")) if uri.startswith("file://") else uri


def _shown_source(entry: Path) -> str:
    """A log directory as shown: as given when relative, else by its name."""
    return str(entry) if not entry.is_absolute() else entry.name


def log_paths(log_dirs: list[str | Path]) -> dict[str, str]:
    """Every log file under the given directories (or named directly), each once, with the
    name it is shown by (relative to the directory given)."""
    paths: dict[str, str] = {}
    for entry in log_dirs:
        path = Path(entry).expanduser()
        if path.is_file():
            paths.setdefault(str(path.resolve()), path.name)
        elif path.is_dir():
            root = path.resolve()
            for info in list_eval_logs(str(path)):
                found = _local(info.name)
                relative = Path(found).resolve().relative_to(root) if Path(found).is_absolute() else found
                paths.setdefault(found, str(Path(_shown_source(path)) / relative))
        else:
            raise DataError(f"{entry}: no such log directory or file")
    return paths


def _dataset_key(log: EvalLog, path: str, partial: str | None) -> str:
    """Runs over the same records share a key; a partial run's records are its own."""
    dataset = log.eval.dataset
    metadata = log.eval.metadata or {}
    facts = [
        log.eval.task,
        dataset.location,
        dataset.name,
        metadata.get("dataset_revision"),
        metadata.get("data_hash"),
        sorted(map(str, dataset.sample_ids or [])),
    ]
    facts.append(path if partial else "")
    return hashlib.sha1(json.dumps(facts, default=str).encode()).hexdigest()


# `uxbench/grm` on its own (as `inspect score --scorer uxbench/grm` adds it) names Task 3's headline good_pct
GRM_HEADLINE = "good_pct"


def _uxbench_scores(log: EvalLog, headline: str) -> list[EvalScore]:
    """The log's UXBench scores: its first, and any that `inspect score --action append` added
    with UXBench's headline metric."""
    scores = log.results.scores if log.results else []
    return scores[:1] + [s for s in scores[1:] if {headline, GRM_HEADLINE} & set(s.metrics)]


def _headline(scalars: dict[str, float | None], headline: str) -> dict[str, float | None]:
    """Task 3 re-graded by `uxbench/grm` reports good_pct: the same share as its recovery_rate."""
    if headline not in scalars and GRM_HEADLINE in scalars:
        return {**scalars, headline: scalars[GRM_HEADLINE]}
    return scalars


def read_runs(path: str, name: str) -> list[Run | CheckLog | Skipped]:
    """The runs (one per UXBench score) or the grader check a log holds, or why it is skipped."""
    try:
        log = read_eval_log(path, header_only=True)
    except Exception as error:  # a truncated or foreign file must not stop the report
        reason = f"unreadable ({type(error).__name__}: {scrub_paths(str(error))[:200]})"
        return [Skipped(path, name, "?", "?", reason)]
    task = task_name(log)
    # credentials out before anything is shown: Markdown escaping later would hide them from the
    # output's redaction, and only here are the run's own base URLs and model arguments known
    redactor = CredentialScrubber.from_environ().including(log.eval)
    problem = None if task in TASKS or task == GRADER_CHECK else "not a UXBench task"
    problem = problem or _problem(log, redactor)
    person = paused_by(log.error.message if log.status == "error" and log.error else None)
    if person:
        problem = (
            f"paused by {person}, not resumed yet (inspect eval-retry {path} --log-dir {Path(path).parent})"
        )
    if problem:
        return [Skipped(path, name, task, log.eval.model, problem, log.eval.task_id, person)]
    metadata = log.eval.metadata or {}
    try:
        recorded = Recorded.read(metadata, "its identity")
    except IdentityError as error:
        return [Skipped(path, name, task, log.eval.model, f"not used: {error}")]
    check = Check.of(log)
    if check is not None:
        return [CheckLog(check, name, metadata.get("shard"), recorded)]
    headline = TASKS[task].headline.metric
    scores = _uxbench_scores(log, headline)
    settings, explicit = run_settings(log)
    settings = redactor.redact_value(settings)
    data = {key: metadata.get(key) for key in ("data_source", "dataset_revision", "data_hash")}
    identity = Identity(task, metadata.get("full_task_version"), settings, recorded, data)
    header_grading = Grading.of(log) if TASKS[task].graded else None  # a grader bound by eval-set is unused
    graded_by = score_graders(path) if header_grading else {}
    annotator = annotator_of(log.eval.model, log.eval.model_args)
    total = log.eval.dataset.samples or 0
    partial = None if annotator is not None else _partial(log, total)  # a person's subset is by design
    epochs = log.eval.config.epochs or 1
    written = os.path.getmtime(path) if os.path.exists(path) else 0.0  # a remote log: 0, ties by name
    origins = _origins(log)
    runs: list[Run | CheckLog | Skipped] = []
    for score in scores:
        scalars, groups = _metrics([score])
        if STAND_IN in origins:
            groups = {}  # a label on a stand-in record would be invented: none is read
        scalars = _headline(scalars, headline)
        grading = _scored_by(header_grading, graded_by.get(score.name)) if header_grading else None
        grader, graders = _graders(log, grading) if grading else (None, ())
        scorer = score.name if len(scores) > 1 else None
        runs.append(
            Run(
                log=path,
                name=f"{name} ({score.name})" if scorer and score is not scores[0] else name,
                task=task,
                model=log.eval.model,
                grader=grader,
                graders=graders,
                settings=settings,
                explicit=explicit - set(DATA_ARGS),
                dataset_revision=(log.eval.metadata or {}).get("dataset_revision"),
                created=log.eval.created,
                samples=(log.results.completed_samples if log.results else 0) // epochs,
                total=total,
                partial=partial,
                metrics=scalars,
                breakdown=groups,
                dataset=_dataset_key(log, path, partial),
                sample_ids=tuple(log.eval.dataset.sample_ids or ()),
                annotator=annotator,
                grading=grading,
                scorer=scorer,
                data_source=(log.eval.metadata or {}).get("data_source"),
                data_hash=(log.eval.metadata or {}).get("data_hash"),
                eval_id=log.eval.eval_id,
                written=written,
                shard=(log.eval.metadata or {}).get("shard"),
                identity=identity,
                usage=run_usage(log),
                origins=origins,
                task_id=log.eval.task_id,
                metric_notes=_described(log),
            )
        )
    return runs


def _described(log: EvalLog) -> dict[str, str]:
    """The task metadata's `metric_descriptions` (what each metric means), checked."""
    found = (log.eval.metadata or {}).get("metric_descriptions") or {}
    return {k: v for k, v in found.items() if isinstance(v, str)} if isinstance(found, dict) else {}


def _origins(log: EvalLog) -> dict[str, int]:
    """The task metadata's `record_origins` (data/dataset.py), checked: `{}` for older logs."""
    found = (log.eval.metadata or {}).get("record_origins") or {}
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if k in ORIGINS and isinstance(v, int) and v > 0}
