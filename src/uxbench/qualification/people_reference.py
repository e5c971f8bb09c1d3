"""A person's verdicts as a grader_check reference: read from their `uxbench/human` logs, written
and read back as JSON Lines (one row per reply they judged).

A person is the model of Task 1 (their label of the record's reply) or the `grader` role of
Task 2/3 (their GRM verdict of the model's reply). Only good / bad verdicts become rows; every
other item is a counted, logged skip by reason (SKIP_REASONS), and anything that would make the
reference ambiguous — another kind of log, two people, one reply with two verdicts, Task 3
graded with the whole history — is a DataError naming the log (and sample).
See docs/human.md#a-persons-verdicts-as-a-reference.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample, read_eval_log

from uxbench.data.dataset import read_jsonl
from uxbench.data.templates import load_template
from uxbench.judge_answer.prompt import builtin_templates, read_judge_prompt
from uxbench.qualification.match import annotator_of, task_name
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError
from uxbench.runtime.roles import HUMAN, grader_roles

logger = logging.getLogger(__name__)

TASKS = {"task1_judge": "task1", "task2_eval": "task2", "task3_recovery": "task3"}
VERDICTS = ("good", "bad")
# why an item of a person's log gives no row, in report order
SKIP_REASONS = ("skipped", "neutral", "no_verdict", "errored", "unfinished", "duplicate", "gold")
FIELDS = ("task", "cid", "record_hash", "reply", "verdict", "annotator", "log", "model")


@dataclass(frozen=True)
class ReferenceRow:
    """One reply a person judged (Task 1) or graded (Task 2/3), with their verdict."""

    task: str  # task1, task2, task3
    cid: str
    record_hash: str | None  # the record as the person saw it (the sample's `record_hash`)
    reply: str  # the reply judged or graded
    verdict: str  # good / bad
    annotator: str
    log: str  # the log's file name
    model: str | None  # whose reply (Task 2/3: the log's model; Task 1: the record's own reply, None)

    def key(self) -> tuple[str, str, str | None, str | None, str]:
        """What makes two rows the same item: the record, whose reply and the reply itself."""
        return self.task, self.cid, self.record_hash, self.model, self.reply

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Export:
    """The rows of one person's logs and what was left out, by reason."""

    rows: list[ReferenceRow] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)

    @property
    def annotators(self) -> list[str]:
        return sorted({row.annotator for row in self.rows})

    def summary(self) -> str:
        reasons = ", ".join(f"{self.skipped[r]} {r}" for r in SKIP_REASONS if self.skipped[r])
        return f"{len(self.rows)} row(s)" + (f"; skipped {reasons}" if reasons else "; nothing skipped")


# ---------------------------------------------------------------- one log


def read_log(path: str | os.PathLike[str]) -> EvalLog:
    """The Inspect log at `path`; anything else (missing, a FIFO, not a log) is a DataError naming it."""
    userfiles.check_regular(path, "log", hint="give an Inspect log file (.eval or .json)")
    try:
        return read_eval_log(str(path))
    except Exception as error:  # Inspect raises zip, JSON, schema and OS errors for a non-log
        raise DataError(
            f"log {path}: not a readable Inspect log ({type(error).__name__}: {str(error)[:200]})"
        ) from None


@dataclass(frozen=True)
class Person:
    """Who the person is in a log and in which part: the model (Task 1) or a grader role (Task 2/3)."""

    task: str
    annotator: str
    role: str | None  # None: the model under test (Task 1)


def person_of(log: EvalLog, name: str) -> Person:
    """The person of a Task 1 run (as the model) or a Task 2/3 run (as a grader role)."""
    spec = log.eval
    task = TASKS.get(task_name(log))
    if task is None:
        raise DataError(
            f"log {name}: a {task_name(log)} run; a person's reference comes from task1_judge "
            "(uxbench/human as the model) or task2_eval / task3_recovery (uxbench/human as the grader)"
        )
    if task == "task1":
        if spec.model != HUMAN:
            raise DataError(f"log {name}: Task 1 judged by {spec.model}, not a person ({HUMAN})")
        return Person(task, str(annotator_of(spec.model, spec.model_args)), None)
    roles = spec.model_roles or {}
    people = [(r, annotator_of(roles[r].model, roles[r].args)) for r in grader_roles(roles)]
    people = [(r, a) for r, a in people if roles[r].model == HUMAN]
    if not people:
        graders = ", ".join(f"{r}={roles[r].model}" for r in grader_roles(roles)) or "no grader role"
        raise DataError(f"log {name}: {task} graded by {graders}, not a person ({HUMAN})")
    if len(people) > 1:
        raise DataError(
            f"log {name}: {len(people)} people in the grader panel "
            f"({', '.join(str(a) for _, a in people)}); a reference is one person's verdicts"
        )
    if task == "task3" and (spec.task_args or {}).get("grm_context", "paper") != "paper":
        raise DataError(
            f"log {name}: Task 3 graded with grm_context={spec.task_args['grm_context']}; grader_check "
            "grades Task 3 as the paper did (the failed reply and the complaint only: grm_context=paper)"
        )
    role, annotator = people[0]
    return Person(task, str(annotator), role)


def _templates(log: EvalLog) -> tuple[Any, ...]:
    """The judge templates a Task 1 prompt may be rendered from: the run's own, then the built-ins."""
    named = ((log.eval.task_args or {}).get("template"), (log.eval.model_args or {}).get("template"))
    own = [load_template(v) for v in named if isinstance(v, str) and v and Path(v).expanduser().is_file()]
    return (*own, *builtin_templates())


def _judged_reply(sample: EvalSample, templates: tuple[Any, ...], name: str) -> str:
    text = sample.input if isinstance(sample.input, str) else sample.input[-1].text
    prompt = read_judge_prompt(text, templates)
    if prompt is None or "response" not in prompt.fields:
        raise DataError(
            f"log {name}: sample {sample.id}: the judged reply cannot be read back out of the prompt "
            "(rendered from a template file that is no longer at the path the log names?)"
        )
    return prompt.fields["response"]


def _task1_verdict(sample: EvalSample) -> str | None:
    said = sample.output.metadata or {}
    if said.get("skipped"):
        return None
    label = said.get("label")
    if label is None:
        score = next(iter((sample.scores or {}).values()), None)
        label = score.answer if score is not None else None
    return str(label) if label is not None else None


def _grader_verdict(sample: EvalSample, role: str) -> str | None:
    """The person's GRM verdict (the score's own, or their member's in a panel's `graders`);
    None for a skip (no answer at all), `failed` for an answer without a label."""
    for score in (sample.scores or {}).values():
        meta = score.metadata or {}
        members = meta.get("graders")
        if isinstance(members, list):
            graded = next((m for m in members if isinstance(m, dict) and m.get("role") == role), None)
        else:
            graded = meta if HUMAN in str(meta.get("grader", "")) else None
        if graded is None or "verdict" not in graded:
            continue
        verdict = str(graded["verdict"])
        return None if verdict == "failed" and graded.get("raw") == "" else verdict
    return "failed"


def _graded_reply(sample: EvalSample) -> str:
    for score in (sample.scores or {}).values():
        graded = (score.metadata or {}).get("graded_response")  # after a reasoning strategy's marker
        if isinstance(graded, str):
            return graded
    return sample.output.completion


def log_rows(log: EvalLog, name: str) -> tuple[Person, Export]:
    """Whose log it is, its rows and its skips. A log that did not finish gives the items it
    holds; those it is missing count as `unfinished`."""
    person = person_of(log, name)
    found = Export()
    samples = log.samples or []
    planned = len(log.eval.dataset.sample_ids or []) * (log.eval.config.epochs or 1)
    if log.status != "success":
        found.skipped["unfinished"] += max(0, planned - len(samples))
    templates = _templates(log) if person.task == "task1" else ()
    for sample in samples:
        if sample.error is not None or not sample.scores:
            found.skipped["errored"] += 1
            continue
        if (sample.metadata or {}).get("gold"):  # a study's attention check, not a record of the data
            found.skipped["gold"] += 1
            continue
        if person.role is None:
            verdict, reply, model = _task1_verdict(sample), _judged_reply(sample, templates, name), None
        else:
            verdict, reply, model = (
                _grader_verdict(sample, person.role),
                _graded_reply(sample),
                log.eval.model,
            )
        if verdict not in VERDICTS:
            reason = {None: "skipped", "neutral": "neutral"}.get(verdict, "no_verdict")
            found.skipped[reason] += 1
            continue
        record_hash = (sample.metadata or {}).get("record_hash")
        found.rows.append(
            ReferenceRow(
                person.task,
                str(sample.id),
                None if record_hash is None else str(record_hash),
                reply,
                verdict,
                person.annotator,
                name,
                model,
            )
        )
    return person, found


# ---------------------------------------------------------------- many logs


def merged(exports: Iterable[Export]) -> Export:
    """One export of many logs' rows: the same reply with the same verdict twice (epochs, a log
    given twice) is kept once and counted as `duplicate`; with two verdicts it is an error."""
    out = Export()
    seen: dict[tuple[str, str, str | None, str | None, str], ReferenceRow] = {}
    for export in exports:
        out.skipped.update(export.skipped)
        for row in export.rows:
            first = seen.get(row.key())
            if first is None:
                seen[row.key()] = row
                out.rows.append(row)
            elif first.verdict == row.verdict:
                out.skipped["duplicate"] += 1
            else:
                raise DataError(
                    f"{row.task} cid {row.cid}: the same reply judged {first.verdict} in log {first.log} "
                    f"and {row.verdict} in log {row.log}; a reference needs one verdict per reply "
                    "(export the logs without the repeat)"
                )
    return out


def export_logs(paths: Iterable[str | os.PathLike[str]]) -> Export:
    """The reference rows of one person's logs (see the module docstring for what is refused)."""
    exports: list[Export] = []
    who: dict[str, str] = {}
    for path in paths:
        name = Path(path).name
        person, found = log_rows(read_log(path), name)
        who.setdefault(person.annotator, name)
        counts = ", ".join(f"{n} {reason}" for reason, n in sorted(found.skipped.items()))
        if counts:
            logger.warning("uxbench: log %s: left out %s", name, counts)
        exports.append(found)
    if len(who) > 1:
        raise DataError(
            "one person per reference: the logs are by "
            + ", ".join(f"{a} ({log})" for a, log in sorted(who.items()))
            + "; export each person's logs to their own file"
        )
    return merged(exports)


# ---------------------------------------------------------------- the file


def read_reference(path: Path) -> list[ReferenceRow]:
    """The rows of an export file; a line that is not one is a DataError naming file, line and field."""
    rows: list[ReferenceRow] = []
    for row in read_jsonl(path):
        where = f"reference {path}:{row.line}"
        if row.problem is not None or row.raw is None:
            raise DataError(f"{where}: {row.problem or 'not a JSON object'}")
        raw = row.raw
        for name in FIELDS:
            value = raw.get(name)
            optional = name in ("record_hash", "model")
            if not (isinstance(value, str) and value) and not (optional and value is None):
                raise DataError(
                    f"{where}: field {name!r} is {value!r}; a person's export has {', '.join(FIELDS)}"
                )
        if raw["task"] not in TASKS.values():
            raise DataError(f"{where}: task {raw['task']!r} is not one of task1, task2, task3")
        if raw["verdict"] not in VERDICTS:
            raise DataError(f"{where}: verdict {raw['verdict']!r} is not good or bad")
        rows.append(ReferenceRow(**{name: raw[name] for name in FIELDS}))
    return rows
