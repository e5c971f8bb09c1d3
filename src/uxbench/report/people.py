"""Agreement among the people who judged the same Task 1 records, and each one's accuracy on gold.

Several annotators give a study its reliability: how far they agree beyond chance, on the
records more than one of them judged (Krippendorff's α, nominal, with a bootstrap interval
over records), and how often each is right on records whose answer is known: the gold items
mixed into their run (`-M gold=FILE`) where there are some, else the users' labels of the
records they judged. How the numbers are made: docs/report.md#people-beside-models.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from uxbench.report.grid import Cell, Grid
from uxbench.report.logs import Run
from uxbench.report.percent import pct
from uxbench.report.samples import Judgment
from uxbench.stats.agreement import krippendorff_alpha
from uxbench.stats.intervals import Interval, bootstrap_units, wilson

UNREADABLE = "unreadable"  # a skip or an answer naming no label: a value of its own for α


@dataclass(frozen=True)
class Annotator:
    name: str
    records: int  # gold records judged (first epoch)
    right: int
    gold: str  # what the known answers were: "gold items" or "users' labels"
    interval: Interval | None  # Wilson 95% of the accuracy
    seconds: float | None = None  # median seconds per item on screen
    per_hour: float | None = None  # items per hour of time on screen: 3600 / mean seconds

    @property
    def accuracy(self) -> float:
        return self.right / self.records


@dataclass(frozen=True)
class Agreement:
    """α across every person's Task 1 verdicts, on the records at least two of them judged."""

    annotators: list[Annotator]
    records: int  # records with verdicts from ≥ 2 people
    alpha: float
    interval: Interval | None


def agreement(runs: list[tuple[Run, dict[str | int, Judgment], list[Judgment]]]) -> Agreement | None:
    """The people's agreement (each run with its first-epoch judgments by record and its gold
    items' answers); None with fewer than two people or no record two of them judged. α is
    over the records only: every person sees every gold item, so they would inflate it."""
    if len(runs) < 2:
        return None
    units: dict[str | int, list[str]] = defaultdict(list)
    annotators = []
    for run, judged, gold_items in runs:
        kind = "gold items" if gold_items else "users' labels"
        gold = gold_items or [j for j in judged.values() if j.label is not None and j.correct is not None]
        right = sum(1 for j in gold if j.correct and j.correct >= 0.5)
        times = [j.seconds for j in [*judged.values(), *gold_items] if j.seconds is not None]
        mean = sum(times) / len(times) if times else 0.0
        if gold:
            annotators.append(
                Annotator(
                    str(run.annotator),
                    len(gold),
                    right,
                    kind,
                    wilson(right, len(gold)),
                    statistics.median(times) if times else None,
                    3600 / mean if mean > 0 else None,
                )
            )
        for record, judgment in judged.items():
            units[record].append(judgment.answer or UNREADABLE)
    shared = [values for _, values in sorted(units.items(), key=lambda kv: str(kv[0])) if len(values) >= 2]
    if not shared:
        return None
    return Agreement(
        annotators, len(shared), krippendorff_alpha(shared), bootstrap_units(shared, krippendorff_alpha)
    )


NOTE = (
    "Agreement among people: Krippendorff's α (nominal; a skip counts as its own answer) over the Task 1 "
    "records at least two people judged, with a 95% percentile bootstrap interval over those records "
    "(2,000 seeded resamples); each person's accuracy on records with a known answer, with Wilson's 95% "
    "interval: the gold items mixed into their run where there are some (attention checks, left out of "
    "α and of their Avg-Acc), else the users' labels of the records they judged."
)


def _percent(value: float) -> str:
    return pct(value)


def agreement_text(found: Agreement) -> str:
    alpha = "–" if found.alpha != found.alpha else f"{found.alpha:.3f}"
    if found.interval:
        alpha += f" ({found.interval[0]:.3f} to {found.interval[1]:.3f})"
    people = len(found.annotators)
    return f"Krippendorff's α = {alpha} over {found.records} records judged by ≥ 2 of {people} people"


COLUMNS = [  # title, what it means
    ("Person", "the annotator"),
    ("Gold records", "records with a known answer judged: gold items, or the users' labels"),
    ("Gold accuracy % (95% CI)", "share right, Wilson interval"),
    ("Seconds per item", "median time an item was on screen before the answer"),
    ("Items per hour", "3600 / mean seconds per item (time on screen only)"),
]


def agreement_grid(found: Agreement, section_id: str) -> Grid:
    titles, notes = zip(*COLUMNS, strict=True)
    rows = [
        [
            Cell(a.name, a.name),
            Cell(f"{a.records} {a.gold}", a.records),
            Cell(
                _percent(a.accuracy)
                + (f" ({_percent(a.interval[0])} to {_percent(a.interval[1])})" if a.interval else ""),
                a.accuracy,
            ),
            Cell("–" if a.seconds is None else f"{a.seconds:.1f}", a.seconds),
            Cell("–" if a.per_hour is None else f"{a.per_hour:.0f}", a.per_hour),
        ]
        for a in found.annotators
    ]
    return Grid(list(titles), rows, ["human"] * len(rows), list(notes), id=f"{section_id}-agreement", pin=0)


def agreement_json(found: Agreement) -> dict[str, Any]:
    return {
        "records": found.records,
        "alpha": None if found.alpha != found.alpha else found.alpha,
        "alpha_ci95": list(found.interval) if found.interval else None,
        "alpha_method": "Krippendorff's alpha, nominal; percentile bootstrap over records",
        "annotators": [
            {
                "annotator": a.name,
                "gold_records": a.records,
                "gold_kind": a.gold,
                "gold_accuracy": a.accuracy,
                "gold_accuracy_ci95": list(a.interval) if a.interval else None,
                "seconds_per_item": a.seconds,
                "items_per_hour": a.per_hour,
            }
            for a in found.annotators
        ],
    }
