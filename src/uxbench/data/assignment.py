"""Which records each person of a study judges, and where the gold items sit among them.

Every annotator runs their own `inspect eval` with the same study settings, so the split must
come out the same in every process without any coordination: it is a pure function of the
records (their cids), the team, the overlap share and the seed. Per class (a sample's target),
records are ordered by a seeded hash of their cid; the first `round(overlap × n)` go to every
annotator (the shared records, on which agreement is measured), the rest are dealt out in
turn, so each person gets an equal share of each class. Gold items (records with a known answer)
are shown to every annotator, spread through their run at seeded positions, and counted apart.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from inspect_ai.dataset import Sample
from inspect_ai.scorer import SampleScore

from uxbench.runtime.errors import DataError

SHARED, OWN, GOLD = "shared", "own", "gold"
GOLD_PREFIX = "gold/"  # sample ids of gold items, so a gold record never collides with a data record


@dataclass(frozen=True)
class Study:
    """The study settings every annotator of a team runs with (`uxbench/human`'s `-M` args)."""

    annotator: str
    team: tuple[str, ...] = ()  # empty: no split, the annotator judges every record
    overlap: float = 1.0
    seed: int = 0
    gold: str | None = None  # path of a file of gold records (Task 1)
    guidelines: str | None = None  # path of the guidelines shown before the first item
    guidelines_text: str | None = None  # their text, as read when the person's page started

    def __post_init__(self) -> None:
        if self.team and self.annotator not in self.team:
            raise DataError(
                f"uxbench/human: annotator {self.annotator!r} is not in team={','.join(self.team)}"
            )
        if len(set(self.team)) != len(self.team):
            raise DataError(f"uxbench/human: team={','.join(self.team)} names someone twice")
        if not 0.0 <= self.overlap <= 1.0:
            raise DataError(f"uxbench/human: overlap={self.overlap}: give a share between 0 and 1")

    def is_set(self) -> bool:
        """Whether any study setting is given (else the person's run is an ordinary one)."""
        return bool(self.team) or self.gold is not None or self.guidelines is not None

    def facts(self) -> dict[str, Any]:
        """What the task's metadata keeps of the study: the settings, and the guidelines in full."""
        guidelines = None
        if self.guidelines_text is not None:
            guidelines = {
                "file": self.guidelines,
                "sha256": guidelines_hash(self.guidelines_text),
                "text": self.guidelines_text,
            }
        return {
            "annotator": self.annotator,
            "team": list(self.team),
            "overlap": self.overlap,
            "seed": self.seed,
            "gold_file": self.gold,
            "guidelines": guidelines,
        }


def guidelines_hash(text: str) -> str:
    """Which version of the guidelines a person read (in the task's metadata and every answer's)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _rank(seed: int, cid: str) -> str:
    return hashlib.sha256(f"{seed}\0{cid}".encode()).hexdigest()


def _kind(where: str) -> str:
    return SHARED if where == SHARED else OWN


def _marked(sample: Sample, kind: str) -> Sample:
    return sample.model_copy(update={"metadata": {**(sample.metadata or {}), "assignment": kind}})


def assign(samples: list[Sample], study: Study) -> tuple[list[Sample], dict[str, Any]]:
    """The annotator's records (in the task's order, each marked `assignment` shared or own) and the
    counts that go into the task's metadata."""
    if not study.team:
        alone = [_marked(s, OWN) for s in samples]
        return alone, {"records": len(samples), "assigned": len(samples), "shared": 0}
    by_class: dict[str, list[Sample]] = defaultdict(list)
    for sample in samples:
        by_class[str(sample.target)].append(sample)
    plan: dict[str, str] = {}  # sample id -> shared, or the annotator it is dealt to
    for group in by_class.values():
        ordered = sorted(group, key=lambda s: _rank(study.seed, str(s.id)))
        shared = round(study.overlap * len(ordered))
        for index, sample in enumerate(ordered):
            turn = (index - shared) % len(study.team)
            plan[str(sample.id)] = SHARED if index < shared else study.team[turn]
    mine = [
        _marked(s, _kind(plan[str(s.id)])) for s in samples if plan[str(s.id)] in (SHARED, study.annotator)
    ]
    counts = {
        "records": len(samples),
        "assigned": len(mine),
        "shared": sum(1 for where in plan.values() if where == SHARED),
        "per_annotator": {who: sum(where in (SHARED, who) for where in plan.values()) for who in study.team},
    }
    return mine, counts


def as_gold(sample: Sample) -> Sample:
    """A gold record as an item: its own id space, marked so the metrics count it apart."""
    return Sample(
        id=f"{GOLD_PREFIX}{sample.id}",
        input=sample.input,
        target=sample.target,
        metadata={**(sample.metadata or {}), "gold": True, "assignment": GOLD},
    )


def mix_gold(samples: list[Sample], gold: list[Sample], study: Study) -> list[Sample]:
    """The run with the gold items spread through it: the i-th of g at about (i + 1) / (g + 1) of
    the way, in an order and at offsets seeded per annotator, so two people's checks do not line up."""
    if not gold:
        return samples
    rng = random.Random(f"{study.seed}\0{study.annotator}")
    items = [as_gold(s) for s in gold]
    rng.shuffle(items)
    step = len(samples) / (len(items) + 1)
    jitter = [rng.uniform(-step / 3, step / 3) for _ in items]
    at = sorted(min(len(samples), max(0, round(step * (i + 1) + jitter[i]))) for i in range(len(items)))
    mixed: list[Sample] = []
    previous = 0
    for position, item in zip(at, items, strict=True):
        mixed.extend(samples[previous:position])
        mixed.append(item)
        previous = position
    mixed.extend(samples[previous:])
    return mixed


def is_gold(s: SampleScore) -> bool:
    return bool((s.score.metadata or {}).get("gold"))


def counted(scores: list[SampleScore]) -> list[SampleScore]:
    """The benchmark's records among a run's scores: its gold items left out (they have `gold_acc`)."""
    return [s for s in scores if not is_gold(s)]
