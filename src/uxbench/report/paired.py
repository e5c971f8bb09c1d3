"""A person beside a model, or two people, on exactly the Task 1 records both judged.

A person judges a subset (`--limit 50`); a model's Avg-Acc over all 2,000 records is not a
fair comparison with it. So for each pair of runs the report takes the records both judged
(first epoch) and gives each side's Avg-Acc on them, the difference with its 95% interval,
the exact McNemar test of the discordant records, and Cohen's κ of the two sides' verdicts
(for two annotators, their agreement beyond chance). How the numbers are made:
docs/report.md#people-beside-models.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from uxbench.report.grid import Cell, Grid
from uxbench.report.logs import Run
from uxbench.report.percent import pct
from uxbench.report.samples import Judgment
from uxbench.stats.agreement import cohen_kappa
from uxbench.stats.intervals import Interval, mcnemar_exact, mover_mean, paired_difference

UNREADABLE = "unreadable"  # the verdict of an answer that named no label (or a skip), for κ
LABELS = ("good", "bad")  # the users' labels: Good-Acc over the liked records, Bad-Acc over the disliked


@dataclass(frozen=True)
class Table:
    """Correct / wrong of two judges on the same records: a both, b first only, c second only, d neither."""

    both: int = 0
    first_only: int = 0
    second_only: int = 0
    neither: int = 0

    @property
    def n(self) -> int:
        return self.both + self.first_only + self.second_only + self.neither

    def add(self, first: bool, second: bool) -> Table:
        return Table(
            self.both + (first and second),
            self.first_only + (first and not second),
            self.second_only + (second and not first),
            self.neither + (not first and not second),
        )


@dataclass(frozen=True)
class Paired:
    """Two Task 1 runs on the records both judged."""

    records: int
    per_label: Mapping[str, Table]  # the users' label -> the two judges' table on those records
    first: float | None  # Avg-Acc of the first run on the shared records (None: a label missing)
    second: float | None
    interval: Interval | None  # 95% interval of first − second
    p_value: float  # exact McNemar over all shared records
    kappa: float  # Cohen's κ of the two runs' verdicts

    @property
    def difference(self) -> float | None:
        return None if self.first is None or self.second is None else self.first - self.second

    @property
    def first_only(self) -> int:
        """Records the first judged right and the second wrong."""
        return sum(t.first_only for t in self.per_label.values())

    @property
    def second_only(self) -> int:
        return sum(t.second_only for t in self.per_label.values())


def _right(judgment: Judgment) -> bool:
    return bool(judgment.correct and judgment.correct >= 0.5)


def compare(first: Mapping[str | int, Judgment], second: Mapping[str | int, Judgment]) -> Paired | None:
    """The two runs on the records both judged (each a record id → its first-epoch judgment);
    None when they share none. A record is shared when its id and its content hash agree: one cid
    in two sources (the bundled sample, the release) names two records.

    Avg-Acc = (Good-Acc + Bad-Acc)/2 on those records. The difference's interval is
    Newcombe's paired interval within the liked and within the disliked records, combined by
    MOVER for the mean (as Avg-Acc's own interval is made), so it is the interval of exactly
    the difference shown. McNemar's test asks whether, where the two disagree on being right,
    either side is right more often than chance (p of the binomial test of the discordant
    records against ½); on a balanced subset (the `--limit` a task draws) it tests the
    Avg-Acc difference itself."""
    shared = sorted(
        (
            r
            for r in set(first) & set(second)
            if first[r].label in LABELS and first[r].record_hash == second[r].record_hash
        ),
        key=str,
    )
    if not shared:
        return None
    tables = {label: Table() for label in LABELS}
    for record in shared:
        label = str(first[record].label)
        tables[label] = tables[label].add(_right(first[record]), _right(second[record]))
    filled = {label: t for label, t in tables.items() if t.n}
    averages: tuple[float | None, float | None] = (None, None)
    interval = None
    if len(filled) == len(LABELS):
        averages = (
            sum((t.both + t.first_only) / t.n for t in filled.values()) / len(filled),
            sum((t.both + t.second_only) / t.n for t in filled.values()) / len(filled),
        )
        parts = [
            (
                (t.first_only - t.second_only) / t.n,
                paired_difference(t.both, t.first_only, t.second_only, t.neither),
            )
            for t in filled.values()
        ]
        interval = mover_mean([(d, i) for d, i in parts if i is not None], bounds=(-1.0, 1.0))
    verdicts = [(first[r].answer or UNREADABLE, second[r].answer or UNREADABLE) for r in shared]
    first_only = sum(t.first_only for t in tables.values())
    second_only = sum(t.second_only for t in tables.values())
    return Paired(
        records=len(shared),
        per_label=tables,
        first=averages[0],
        second=averages[1],
        interval=interval,
        p_value=mcnemar_exact(first_only, second_only),
        kappa=cohen_kappa([a for a, _ in verdicts], [b for _, b in verdicts]),
    )


# ---------------------------------------------------------------- the table


NOTE = (
    "People beside models: each pair of runs on exactly the Task 1 records both judged (first epoch). "
    "Avg-Acc = (Good-Acc + Bad-Acc)/2 on those records; difference in points with its 95% interval "
    "(Newcombe's paired score interval within the liked and within the disliked records, combined by MOVER); "
    "p: exact McNemar test of the records only one side judged right; κ: Cohen's κ of the two sides' "
    "verdicts."
)


@dataclass(frozen=True)
class Pairing:
    """A person's run (first) beside another run of the same task, on the records both judged."""

    first: Run
    second: Run
    result: Paired


def _points(value: float | None, signed: bool = False) -> str:
    return pct(value, signed=signed)


def difference_text(result: Paired) -> str:
    text = _points(result.difference, signed=True)
    if result.interval and result.difference is not None:
        text += f" ({_points(result.interval[0], True)} to {_points(result.interval[1], True)})"
    return text


def paired_grid(pairs: list[Pairing], section_id: str) -> Grid:
    titles = [
        "Person",
        "Beside",
        "n (liked / disliked)",
        "Person Avg-Acc %",
        "Beside Avg-Acc %",
        "Δ points (95% CI)",
        "Only one right",
        "McNemar p",
        "κ",
    ]
    notes = [
        "the annotator of the uxbench/human run",
        "the other run",
        "records both judged",
        "on those records",
        "on those records",
        "person − beside; Newcombe's paired score interval per label, MOVER for the mean",
        "records only the person / only the other run judged right",
        "exact McNemar test of those records",
        "Cohen's κ of the two runs' verdicts",
    ]
    rows = []
    for pair in pairs:
        r = pair.result
        liked, disliked = r.per_label["good"].n, r.per_label["bad"].n
        kappa = None if math.isnan(r.kappa) else r.kappa
        rows.append(
            [
                Cell(str(pair.first.annotator), str(pair.first.annotator)),
                Cell(pair.second.who + (" (human)" if pair.second.human else ""), pair.second.who),
                Cell(f"{r.records} ({liked} / {disliked})", r.records),
                Cell(_points(r.first), r.first),
                Cell(_points(r.second), r.second),
                Cell(difference_text(r), r.difference),
                Cell(f"{r.first_only} / {r.second_only}", r.first_only - r.second_only),
                Cell(f"{r.p_value:.3g}", r.p_value),
                Cell("–" if kappa is None else f"{kappa:.3f}", kappa),
            ]
        )
    kinds = ["human" if pair.second.human else "" for pair in pairs]
    return Grid(titles, rows, kinds, notes, id=f"{section_id}-paired", pin=0)


def paired_json(pairs: list[Pairing], show_paths: bool) -> list[dict[str, Any]]:
    def side(run: Run) -> dict[str, Any]:
        return {"model": run.model, "annotator": run.annotator, "log": run.log if show_paths else run.name}

    return [
        {
            "task": pair.first.task,
            "first": side(pair.first),
            "second": side(pair.second),
            "records": pair.result.records,
            "liked": pair.result.per_label["good"].n,
            "disliked": pair.result.per_label["bad"].n,
            "first_avg_acc": pair.result.first,
            "second_avg_acc": pair.result.second,
            "difference": pair.result.difference,
            "difference_ci95": list(pair.result.interval) if pair.result.interval else None,
            "ci95_method": "Newcombe paired score interval (method 10) per label, MOVER for the mean",
            "first_only_right": pair.result.first_only,
            "second_only_right": pair.result.second_only,
            "mcnemar_p": pair.result.p_value,
            "kappa": None if math.isnan(pair.result.kappa) else pair.result.kappa,
        }
        for pair in pairs
    ]
