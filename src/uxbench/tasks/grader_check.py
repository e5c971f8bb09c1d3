"""Grader check: how far is a grader (`--model`) from a reference grade, on replies whose grade is known.

Nothing is generated: each sample's recorded reply is put in as the output, and the
`uxbench/grm` scorer of Tasks 2/3 grades it with the model under test as the grader (its
self-grading mode). The reference is the users' thumbs on Task 1's judged replies
(`reference=users`), UXBench-GRM's published grades of 27 models' Task 2/3 replies
(`reference=<directory>`, docs/protocol.md#published-per-model-outputs), read at run time
from the user's own copy, or a person's verdicts (`reference=<file>.jsonl`, written by
`uxbench people export`, docs/human.md#a-persons-verdicts-as-a-reference). Which numbers come
out and how to use them: docs/graders.md.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from uxbench.data.dataset import to_messages, uxbench_dataset
from uxbench.data.records import JudgeRecord
from uxbench.data.shards import shard_samples
from uxbench.grader_answer.reading import BAD, GOOD
from uxbench.qualification.check_metrics import MODEL_KEY, grader_check_metrics
from uxbench.qualification.match import PERSON, PUBLISHED, USERS
from uxbench.qualification.people_reference import ReferenceRow, read_reference
from uxbench.qualification.published import (
    FAILED,
    PublishedGrade,
    PublishedReply,
    check_root,
    graded_models,
    published_good_pct,
    read_grades,
    read_replies,
)
from uxbench.qualification.published import GOOD as PUBLISHED_GOOD
from uxbench.runtime.errors import DataError
from uxbench.runtime.metric import metric_descriptions
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.scorers.grm import grm
from uxbench.tasks.parameters import typed_parameters
from uxbench.tasks.probe import grader_recorded
from uxbench.tasks.study import study_samples
from uxbench.tasks.task3_recovery import GRM_CONTEXT_TURNS

logger = logging.getLogger(__name__)

PERSON_TASKS = ("task1", "task2", "task3")
REPLY_KEY = "reply"
# why a published reply is left out, in the order the reasons are checked
EXCLUSIONS = ("failed_reply", "failed_grade", "no_reply", "not_in_data")
# why a person's row is left out: another task's row, no record with its cid, another version of it
PERSON_EXCLUSIONS = ("other_task", "not_in_data", "record_changed")


# ---------------------------------------------------------------- samples (pure)


def user_sample(record: JudgeRecord) -> Sample:
    """A Task 1 record as a reply to grade: the conversation as in Task 2, the user's thumbs as reference."""
    label = GOOD if record.liked else BAD
    return Sample(
        id=record.cid,
        input=[*to_messages(record.history), ChatMessageUser(content=record.query)],
        target=label,
        metadata={
            **record.labels,
            "reference_verdict": label,
            "reference_score": None,
            REPLY_KEY: record.response,
        },
    )


def published_sample(conversation: Sample, model: str, reply: str, grade: PublishedGrade) -> Sample:
    """One model's published reply to a record, with UXBench-GRM's grade of it as the reference."""
    label = GOOD if grade.verdict == PUBLISHED_GOOD else BAD
    return Sample(
        id=f"{model}/{grade.cid}",
        input=conversation.input,
        target=label,
        metadata={
            **(conversation.metadata or {}),
            "cid": grade.cid,
            MODEL_KEY: model,
            "reference_verdict": label,
            "reference_score": grade.score,
            REPLY_KEY: reply,
        },
    )


def person_sample(conversation: Sample, row: ReferenceRow, sample_id: str) -> Sample:
    """One reply a person judged or graded, with their verdict as the reference (no score)."""
    return Sample(
        id=sample_id,
        input=conversation.input,
        target=row.verdict,
        metadata={
            **(conversation.metadata or {}),
            "cid": row.cid,
            **({MODEL_KEY: row.model} if row.model is not None else {}),
            "annotator": row.annotator,
            "reference_verdict": row.verdict,
            "reference_score": None,
            REPLY_KEY: row.reply,
        },
    )


def person_samples(
    rows: list[ReferenceRow], conversations: dict[str, Sample]
) -> tuple[list[Sample], Counter[str]]:
    """The rows whose record is in the data as the person saw it (same `record_hash`), in file
    order, and how many were left out; ids are the cid (Task 1) or `<model>/<cid>`, `#2` on a repeat."""
    samples: list[Sample] = []
    left_out: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    for row in rows:
        conversation = conversations.get(row.cid)
        seen = (conversation.metadata or {}).get("record_hash") if conversation is not None else None
        if conversation is None:
            left_out["not_in_data"] += 1
        elif row.record_hash is not None and seen != row.record_hash:
            left_out["record_changed"] += 1
        else:
            base = row.cid if row.model is None else f"{row.model}/{row.cid}"
            taken[base] += 1
            sample_id = base if taken[base] == 1 else f"{base}#{taken[base]}"
            samples.append(person_sample(conversation, row, sample_id))
    return samples, left_out


def person_task(rows: list[ReferenceRow], task: str | None, path: Path) -> str:
    """The one task a person's file is checked on: `task`, or the only task of its rows."""
    counts = Counter(row.task for row in rows)
    annotators = sorted({row.annotator for row in rows})
    if len(annotators) > 1:
        raise DataError(
            f"reference {path}: verdicts of {len(annotators)} people ({', '.join(annotators)}); "
            "a reference is one person's (uxbench people export refuses to mix them)"
        )
    if task is None and len(counts) > 1:
        held = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
        raise DataError(f"reference {path}: rows of several tasks ({held}); choose one with -T task=")
    chosen = task or next(iter(counts))
    if chosen not in PERSON_TASKS:
        raise DataError(f"task={chosen}: choose one of {', '.join(PERSON_TASKS)}")
    if not counts[chosen]:
        raise DataError(f"reference {path}: no {chosen} rows (it holds {', '.join(sorted(counts))})")
    return chosen


def model_samples(
    model: str,
    conversations: dict[str, Sample],
    replies: dict[str, PublishedReply],
    grades: dict[str, PublishedGrade],
) -> tuple[list[Sample], Counter[str]]:
    """The usable replies of one model (in judge-file order) and how many were left out, by reason."""
    samples: list[Sample] = []
    left_out: Counter[str] = Counter()
    for cid, grade in grades.items():
        reply = replies.get(cid)
        if reply is not None and reply.text is None:
            left_out["failed_reply"] += 1
        elif grade.verdict == FAILED:
            left_out["failed_grade"] += 1
        elif reply is None or reply.text is None:
            left_out["no_reply"] += 1
        elif cid not in conversations:
            left_out["not_in_data"] += 1
        else:
            samples.append(published_sample(conversations[cid], model, reply.text, grade))
    return samples, left_out


def seeded_subset(samples: list[Sample], n: int | None, seed: int, model: str) -> list[Sample]:
    """n samples drawn without replacement (seeded per model, in their original order); all when n is None."""
    if n is None or n >= len(samples):
        return samples
    chosen = set(random.Random(f"{seed}:{model}").sample(range(len(samples)), n))
    return [s for i, s in enumerate(samples) if i in chosen]


def round_robin(groups: list[list[Sample]]) -> list[Sample]:
    """One sample of each model in turn, so that `--limit N` sees every model."""
    longest = max((len(g) for g in groups), default=0)
    return [group[i] for i in range(longest) for group in groups if i < len(group)]


def model_names(models: str | list[str] | None, found: list[str], root: Path) -> list[str]:
    """The models asked for (default: every model with a judge file), each checked to exist."""
    if models is None:
        return found
    names = [m.strip() for m in (models.split(",") if isinstance(models, str) else models) if str(m).strip()]
    missing = [m for m in names if m not in found]
    if missing:
        raise DataError(
            f"models={','.join(names)}: no judge file for {', '.join(missing)} under {root} "
            f"(found: {', '.join(found) or 'none'})"
        )
    return names


# ---------------------------------------------------------------- solver


@solver
def recorded_reply() -> Solver:
    """Put the sample's recorded reply in as the model's output: nothing is generated."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = str(state.metadata.get(MODEL_KEY) or "recorded")
        state.output = ModelOutput.from_content(model=model, content=str(state.metadata[REPLY_KEY]))
        state.messages.append(state.output.message)
        return state

    return solve


# ---------------------------------------------------------------- task


def is_person_file(reference: str) -> bool:
    """A person's export (a file) rather than a directory of published outputs."""
    path = Path(reference).expanduser()
    return path.is_file() or (not path.is_dir() and path.name.endswith((".jsonl", ".jsonl.gz")))


def _person_dataset(
    path: Path, task: str | None, data: str, revision: str | None, skip_bad: bool
) -> tuple[list[Sample], dict[str, Any], dict[str, Any]]:
    if path.suffix == ".eval":
        raise DataError(
            f"reference {path}: an Inspect log; write the person's verdicts as a reference first: "
            f"uxbench people export {path} --out FILE.jsonl"
        )
    rows = read_reference(path)
    chosen = person_task(rows, task, path)
    dataset, facts = uxbench_dataset(  # type: ignore[arg-type]
        chosen, data, revision, skip_bad, judged=user_sample if chosen == "task1" else None
    )
    mine = [row for row in rows if row.task == chosen]
    samples, left_out = person_samples(mine, {str(s.id): s for s in dataset})
    left_out["other_task"] = len(rows) - len(mine)
    for reason, what in (
        ("not_in_data", "have no record in the data"),
        ("record_changed", "were made on a record that differs from the data's (another source or version)"),
    ):
        if left_out[reason]:
            logger.warning("uxbench: reference %s: %d row(s) %s; left out", path, left_out[reason], what)
    if not samples:
        raise DataError(f"reference {path}: no {chosen} row matches a record of data={data!r}")
    reference_facts = {
        "reference": str(path.resolve()),
        "reference_kind": PERSON,
        "task": chosen,
        "annotators": sorted({row.annotator for row in mine}),
        "reference_rows": len(rows),
        **{f"left_out_{reason}": left_out[reason] for reason in PERSON_EXCLUSIONS},
    }
    return samples, facts, reference_facts


def _published_dataset(
    root: Path,
    published_task: str,
    models: str | list[str] | None,
    per_model: int | None,
    seed: int,
    conversations: dict[str, Sample],
) -> tuple[list[Sample], dict[str, Any]]:
    names = model_names(models, graded_models(root, published_task), root)
    if not names:
        raise DataError(f"{root}: no judge files for {published_task}")
    groups: list[list[Sample]] = []
    left_out: dict[str, dict[str, int]] = {}
    published: dict[str, float] = {}
    for model in names:
        grades = read_grades(root, published_task, model)
        samples, excluded = model_samples(
            model, conversations, read_replies(root, published_task, model), grades
        )
        groups.append(seeded_subset(samples, per_model, seed, model))
        left_out[model] = {reason: excluded[reason] for reason in EXCLUSIONS}
        published[model] = published_good_pct(grades)
    totals = {reason: sum(counts[reason] for counts in left_out.values()) for reason in EXCLUSIONS}
    if totals["not_in_data"]:
        logger.warning(
            "uxbench: %d published replies have no record in the data (their cid is missing); left out",
            totals["not_in_data"],
        )
    facts = {
        "models": names,
        "left_out": left_out,
        **{f"left_out_{reason}": n for reason, n in totals.items()},
        "published_good_pct": published,
    }
    return round_robin(groups), facts


@task
@typed_parameters
def grader_check(
    reference: str = USERS,
    task: str | None = None,
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    models: str | list[str] | None = None,
    per_model: int | None = None,
    seed: int = 0,
    grader_template: str | None = None,
    grader_constrain: bool = False,
    shard: str | None = None,
) -> Task:
    """Grader check.

    Args:
        reference: users (Task 1's replies, graded against the users' thumbs), the root of
            your copy of the published per-model outputs (graded against UXBench-GRM), or a
            person's verdicts, a .jsonl file written by `uxbench people export` (graded against
            that person: the replies they judged or graded, conversations from `data`).
        task: task2 (default) or task3: which published replies; for a person's file task1,
            task2 or task3: which of its rows (needed when it holds rows of several tasks).
        data: where the conversations come from, as in the tasks: hub, sample, a directory
            holding the release files, or one .jsonl file.
        revision: hub commit or tag to pin the dataset to.
        skip_bad: skip (and count) unusable data records instead of stopping.
        models: comma-separated published models to grade (default: all found).
        per_model: grade a seeded sample of this many usable replies per model (default: all).
        seed: seed of the per_model sample.
        grader_template: path of your own GRM prompt template (default: ours, 好/差), as in Tasks 2/3.
        grader_constrain: ask the grader's server (vLLM) to answer only 好 or 差 and read P(good)
            back from its prompt logprobs, so any open model is a well-formed grader (off: the
            grader is asked as the paper asks UXBench-GRM).
        shard: K/N grades the K-th of N disjoint shards of the replies, chosen by sample id
            (docs/scale.md#shards).
    """
    ensure_tiktoken_cache()
    users = reference == USERS
    person = not users and is_person_file(reference)
    if users and (task is not None or models is not None or per_model is not None):
        raise DataError(
            "reference=users grades Task 1's judged replies; task, models and per_model apply to a "
            "directory of published outputs (-T reference=<dir>)"
        )
    if person and (models is not None or per_model is not None):
        raise DataError(
            f"reference={reference} is a person's verdicts: each of their rows is graded; models and "
            "per_model apply to a directory of published outputs (-T reference=<dir>)"
        )
    if per_model is not None and per_model < 1:
        raise DataError(f"per_model={per_model}: give a positive number of replies per model")
    published_task = task or "task2"
    if users:
        dataset, facts = uxbench_dataset("task1", data, revision, skip_bad, judged=user_sample)
        samples = list(dataset)
        reference_facts = {"reference": USERS, "reference_kind": USERS, "task": "task1"}
    elif person:
        samples, facts, reference_facts = _person_dataset(
            Path(reference).expanduser(), task, data, revision, skip_bad
        )
        published_task = reference_facts["task"]
    else:
        root = Path(reference).expanduser()
        check_root(root, published_task)
        dataset, facts = uxbench_dataset(published_task, data, revision, skip_bad)  # type: ignore[arg-type]
        samples, reference_facts = _published_dataset(
            root, published_task, models, per_model, seed, {str(s.id): s for s in dataset}
        )
        reference_facts = {
            "reference": str(root.resolve()),
            "reference_kind": PUBLISHED,
            "task": published_task,
            **reference_facts,
        }
        if not samples:
            raise DataError(
                f"{root}: no usable published {published_task} replies for the records in data={data!r}"
            )
    recovery = published_task == "task3" and not users
    samples, study = study_samples(samples)  # a person's share, when a team is set
    metrics = grader_check_metrics(users)  # a person's: as a published reference's, per model
    samples, sharding = shard_samples(samples, shard)
    return Task(
        dataset=MemoryDataset(samples, name="uxbench_grader_check"),
        solver=recorded_reply(),
        scorer=grm(
            template=grader_template,
            ladder="recovery" if recovery else "eval",
            # Task 3's published grades (and a person's, uxbench people export) saw only the failed
            # reply and the complaint (the paper's mode)
            context_turns=GRM_CONTEXT_TURNS["paper"] if recovery else None,
            self_grade=True,
            constrain=grader_constrain,
        ),
        metrics=metrics,
        metadata={
            **facts,
            **reference_facts,
            **study,
            **sharding,
            **grader_recorded(grader_template).metadata(),
            "per_model": per_model,
            "seed": seed,
            "grader_template": grader_template,
            "metric_descriptions": metric_descriptions(metrics),
            "grader_constrain": grader_constrain,
        },
        version="1.0.0",
    )
