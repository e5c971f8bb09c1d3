"""Grader check: how far is a grader (`--model`) from a reference grade, on replies whose grade is known.

Nothing is generated: each sample's recorded reply is put in as the output, and the
`uxbench/grm` scorer of Tasks 2/3 grades it with the model under test as the grader (its
self-grading mode). The reference is either the users' thumbs on Task 1's judged replies
(`reference=users`) or UXBench-GRM's published grades of 27 models' Task 2/3 replies
(`reference=<directory>`, docs/protocol.md#published-per-model-outputs), read at run time
from the user's own copy. Which numbers come out and how to use them: docs/graders.md.
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
from uxbench.graders.metrics import MODEL_KEY, grader_check_metrics
from uxbench.graders.published import (
    FAILED,
    PublishedGrade,
    PublishedReply,
    check_root,
    graded_models,
    published_good_pct,
    read_grades,
    read_replies,
)
from uxbench.graders.published import GOOD as PUBLISHED_GOOD
from uxbench.grading.grm import BAD, GOOD
from uxbench.runtime.errors import DataError
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.scorers.grm import grm
from uxbench.tasks.study import person_samples
from uxbench.tasks.task3_recovery import GRM_CONTEXT_TURNS

logger = logging.getLogger(__name__)

USERS = "users"
REPLY_KEY = "reply"
# why a published reply is left out, in the order the reasons are checked
EXCLUSIONS = ("failed_reply", "failed_grade", "no_reply", "not_in_data")


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
) -> Task:
    """Grader check.

    Args:
        reference: users (Task 1's replies, graded against the users' thumbs) or the root of
            your copy of the published per-model outputs (graded against UXBench-GRM).
        task: task2 (default) or task3: which published replies (a published reference only).
        data: where the conversations come from, as in the tasks: hub, sample, a directory
            holding the release files, or one .jsonl file.
        revision: hub commit or tag to pin the dataset to.
        skip_bad: skip (and count) unusable data records instead of stopping.
        models: comma-separated published models to grade (default: all found).
        per_model: grade a seeded sample of this many usable replies per model (default: all).
        seed: seed of the per_model sample.
        grader_template: path of your own GRM prompt template (default: ours, 好/差), as in Tasks 2/3.
    """
    ensure_tiktoken_cache()
    users = reference == USERS
    if users and (task is not None or models is not None or per_model is not None):
        raise DataError(
            "reference=users grades Task 1's judged replies; task, models and per_model apply to a "
            "directory of published outputs (-T reference=<dir>)"
        )
    if per_model is not None and per_model < 1:
        raise DataError(f"per_model={per_model}: give a positive number of replies per model")
    published_task = task or "task2"
    if users:
        dataset, facts = uxbench_dataset("task1", data, revision, skip_bad, judged=user_sample)
        samples, reference_facts = list(dataset), {"reference": USERS, "task": "task1"}
    else:
        root = Path(reference).expanduser()
        check_root(root, published_task)
        dataset, facts = uxbench_dataset(published_task, data, revision, skip_bad)  # type: ignore[arg-type]
        samples, reference_facts = _published_dataset(
            root, published_task, models, per_model, seed, {str(s.id): s for s in dataset}
        )
        reference_facts = {"reference": str(root.resolve()), "task": published_task, **reference_facts}
        if not samples:
            raise DataError(
                f"{root}: no usable published {published_task} replies for the records in data={data!r}"
            )
    recovery = published_task == "task3" and not users
    samples, study = person_samples(samples)  # a person's share, when a team is set
    return Task(
        dataset=MemoryDataset(samples, name="uxbench_grader_check"),
        solver=recorded_reply(),
        scorer=grm(
            template=grader_template,
            ladder="recovery" if recovery else "eval",
            # Task 3's published grades saw only the failed reply and the complaint (the paper's mode)
            context_turns=GRM_CONTEXT_TURNS["paper"] if recovery else None,
            self_grade=True,
        ),
        metrics=grader_check_metrics(users),
        metadata={
            **facts,
            **reference_facts,
            **study,
            "per_model": per_model,
            "seed": seed,
            "grader_template": grader_template,
        },
        version="1.0.0",
    )
