"""A leaderboard row: one run with its rank, interval, shown settings, the paper's number where
the settings match the paper's, its record counts and the marks a reader must see."""

from __future__ import annotations

from dataclasses import dataclass

from uxbench.report import paper_numbers
from uxbench.report.formatting import settings_text, short_name, shorten
from uxbench.report.logs import Run
from uxbench.report.percent import pct
from uxbench.report.qualified import Equivalent
from uxbench.report.samples import Counts
from uxbench.report.spec import BASELINE_PREFIXES, PAPER_GRADER
from uxbench.stats.intervals import Interval

ROUNDING = 0.0005 + 1e-9  # half the last printed digit of a one-decimal percentage


def by_paper_grader(grader: str | None) -> bool:
    """Whether a ranking is graded by UXBench-GRM, the grader of the paper's Tasks 2/3 numbers."""
    return PAPER_GRADER in (grader or "").lower()


@dataclass(frozen=True)
class Row:
    run: Run
    rank: int | None  # None: a partial run, not ranked against complete ones
    ref: int  # the row's number in its section, used by the charts' keys
    settings: dict[str, str]  # settings shown: given explicitly, or differing between the model's rows
    headline: float | None
    interval: Interval | None  # 95%
    interval_method: str
    paper: str | None  # the model's name in the paper, when the paper tested it
    published: dict[str, float] | None  # the paper's numbers, only when the settings match the paper's
    counts: Counts | None  # records per label and group
    delta_interval: Interval | None = None  # Task 3: 95% interval of Δ score
    keyed: bool = False  # the chart label needs a line in the key (see chart_label)
    variants: int = 1  # rows of the same model in the section (with different settings)
    data_note: str = ""  # the data source, when the section's rows do not all share it
    grm: Equivalent | None = None  # Tasks 2/3: the GRM-equivalent headline (qualified.py)
    no_rows: int | None = None  # a replay: records without a published row (failed judgments)

    @property
    def baseline(self) -> bool:
        return self.run.model.startswith(BASELINE_PREFIXES)

    @property
    def kind(self) -> str:
        """The row's mark, also its CSS class: partial, baseline, human or "" (a model)."""
        marks = (("partial", self.run.partial), ("baseline", self.baseline), ("human", self.run.human))
        return next((mark for mark, on in marks if on), "")

    @property
    def label(self) -> str:
        """The model's short name (a person's annotator), as the charts print it."""
        return row_label(self.run)

    def chart_label(self) -> str:
        """The label in a chart: shortened, with the key number when the key says more."""
        text = shorten(self.label)
        return f"{text} [{self.ref}]" if self.keyed else text

    def key_line(self) -> str:
        """The chart key's line for this row: number, full model name, settings, marks."""
        data = f"data={self.data_note}" if self.data_note else ""
        extra = [settings_text(self.settings), data, *self.marks()]
        return f"[{self.ref}] {self.run.who}" + "".join(f" · {e}" for e in extra if e)

    def paper_gap(self, task: str, metric: str) -> str:
        """Why the headline differs from the paper's printed value, when it does ("" otherwise): the
        paper's own note (published.json), rounding, or the gap in points, never nothing."""
        paper = (self.published or {}).get(metric)
        if paper is None or self.headline is None or pct(self.headline) == pct(paper):
            return ""
        known = paper_numbers.note(task, self.run.model)
        if known:
            return known
        if abs(self.headline - paper) <= ROUNDING:
            return (
                f"rounding: ours is {100 * self.headline:.2f}, printed half up as {pct(self.headline)}; "
                f"the paper printed {pct(paper)}"
            )
        return (
            f"{pct(self.headline - paper, signed=True)} points from the paper's {pct(paper)}; reason unknown"
        )

    def states(self) -> list[str]:
        """Every state the row is in, in words: said under the table, in leaderboard.md and on the
        console, where a phone and a reader of text see them (the cells' tooltips only repeat them)."""
        run = self.run
        states = [f"partial, not ranked: {run.partial}"] if run.partial else []
        if run.human and run.samples < run.total:
            states.append(f"a person's subset: {run.samples} of {run.total} records")
        if run.resumed_from:
            states.append(f"resumed after a pause (the paused log {run.resumed_from} is under Skipped logs)")
        if run.stand_in:
            states.append(
                "stand-in records: placeholder text under the published cids, no labels, so no breakdown"
            )
        elif run.origin and run.data_source != "sample":
            states.append(f"{run.origin} records, not the benchmark's")
        return states

    def marks(self) -> list[str]:
        marks = (
            ("baseline", self.baseline),
            ("human", self.run.human),
            ("partial", self.run.partial),
            ("different settings", self.variants > 1),
        )
        return [mark for mark, on in marks if on]


def row_label(run: Run) -> str:
    return f"{run.annotator} (human)" if run.human else short_name(run.model)
