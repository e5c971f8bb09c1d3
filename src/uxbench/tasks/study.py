"""A person's share of a task's records: the team split and the gold items of `uxbench/human`.

The study settings are the person's model args (`-M team=… -M overlap=… -M gold=…`), so every
annotator runs the same task command; the task asks the running eval which model or role is a
person (Inspect sets both before it constructs tasks) and keeps that person's records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import Model, get_model, model_roles

from uxbench.data.assignment import Study, assign, mix_gold
from uxbench.data.dataset import load_samples
from uxbench.data.templates import Template
from uxbench.runtime._inspect import in_eval
from uxbench.runtime.docs import docs_url
from uxbench.runtime.errors import DataError


def _models() -> list[Model]:
    if not in_eval():
        return []
    try:
        roles = model_roles()
    except LookupError:
        roles = {}
    found = [get_model()]
    for bound in roles.values():
        found.extend(bound if isinstance(bound, list) else [bound])
    return found


def running_study() -> Study | None:
    """The study of the person answering in this eval (the model or a role), if one is set: a
    person with no team, gold items or guidelines leaves the task as it is."""
    found = (getattr(m.api, "study", None) for m in _models())
    studies = {id(s): s for s in found if isinstance(s, Study) and s.is_set()}
    if len(studies) > 1:
        names = ", ".join(sorted(s.annotator for s in studies.values()))
        raise DataError(
            f"uxbench/human: a study has one person per run ({names} both have study settings); "
            "run each on their own"
        )
    return next(iter(studies.values()), None)


def study_samples(
    samples: list[Sample], gold_template: Template | None = None
) -> tuple[list[Sample], dict[str, Any]]:
    """The samples the running person judges, gold items mixed in (Task 1, `gold_template` given),
    and the study's facts for the task's metadata (`{}` when no person answers)."""
    study = running_study()
    if study is None:
        return samples, {}
    mine, counts = assign(samples, study)
    gold: list[Sample] = []
    if study.gold is not None:
        if gold_template is None:
            raise DataError(
                "uxbench/human: gold= applies to Task 1, where the person is the judge; to check a "
                f"person as a grader, run uxbench/grader_check ({docs_url('human.md')})"
            )
        try:
            gold, _ = load_samples("task1", str(Path(study.gold).expanduser()), template=gold_template)
        except DataError as error:
            raise DataError(f"uxbench/human gold={study.gold}: {error}") from None
    mixed = mix_gold(mine, gold, study)
    return mixed, {"study": {**study.facts(), **counts, "gold": len(gold)}}


def study_dataset(
    dataset: MemoryDataset, facts: dict[str, Any], gold_template: Template | None = None
) -> tuple[MemoryDataset, dict[str, Any]]:
    """`study_samples` on a task's dataset and load facts: unchanged when no person answers."""
    samples, study = study_samples(list(dataset), gold_template)
    if not study:
        return dataset, facts
    return MemoryDataset(samples, name=dataset.name, location=dataset.location), {**facts, **study}
