"""The leaderboard as data: per task one ranked section per grader (Task 1: one section),
each row a run with its interval, shown settings and the paper's number where the settings
match the paper's; the per-group breakdowns with their record counts; and the Markdown and
JSON renderings. Charts and the HTML page read the same objects, so every output shows the
same numbers.

The columns of a section are a list of `ColumnDef`s (title, cell per row, JSON key), so a
column such as the GRM-equivalent Good% of Tasks 2/3 (qualified.py) is one more entry.
A person's runs (`uxbench/human`) are rows of their own, after the models and not ranked,
with a paired table beside them (paired.py).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from uxbench.data.labels import DIFFICULTIES, FAILURE_DIMENSIONS, SCENARIOS, SUCCESS_PATTERNS, english
from uxbench.report import paper_numbers
from uxbench.report.grid import Cell, Grid
from uxbench.report.logs import CheckLog, Run, Skipped
from uxbench.report.paired import Pairing, compare, paired_json
from uxbench.report.people import Agreement, agreement, agreement_json
from uxbench.report.percent import pct
from uxbench.report.qualified import Equivalent, checks_json, equivalent, explanation
from uxbench.report.samples import Counts, Evidence
from uxbench.report.separation import Ranking, ranking, separation_json
from uxbench.report.settings import DATA_ARGS, matches, non_default, task_defaults
from uxbench.report.spec import BASELINE_PREFIXES, PAPER_GRADER, TASKS, Column, TaskSpec
from uxbench.stats.intervals import Interval, bootstrap_mean, jeffreys, mover_mean, wilson

FEW = 10  # a breakdown cell with fewer records is greyed
HUMAN_REFERENCE = "Human (blind 25+25 subset)"  # the paper's human baseline (published.json)
SAMPLE = "sample"  # the data source of the bundled synthetic records
LABEL_CHARS = 28  # chart labels longer than this are shortened (the key gives the full name)
_GROUP_ORDER: dict[str, tuple[str, ...]] = {
    "failure_dimension": tuple(FAILURE_DIMENSIONS),
    "success_pattern": tuple(SUCCESS_PATTERNS),
    "scenario": tuple(SCENARIOS),
    "difficulty": DIFFICULTIES,
}
BREAKDOWN_TITLES = {
    "failure_dimension": "Failure dimension",
    "success_pattern": "Success pattern",
    "scenario": "Scenario",
    "difficulty": "Difficulty",
}
# settings never listed in the Settings column: the data source has its own column, a
# self-graded run says so as its grader, and a person's name is in the model or grader name
_NOT_SHOWN = {*DATA_ARGS, "self_grade", "-M annotator", "grader -M annotator"}


def by_paper_grader(grader: str | None) -> bool:
    """Whether a ranking is graded by UXBench-GRM, the grader of the paper's Tasks 2/3 numbers."""
    return PAPER_GRADER in (grader or "").lower()


def short_name(model: str) -> str:
    """The model name without its provider path (`openai/gpt-5` → `gpt-5`)."""
    return model.rstrip("/").rsplit("/", 1)[-1] or model


def shorten(text: str, limit: int = LABEL_CHARS) -> str:
    """At most `limit` characters, cut in the middle so both ends (often a date) stay."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def slug(text: str) -> str:
    """A file-name part: readable, short, and unique per text (a hash of the whole text)."""
    readable = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:40].strip("-")
    return (
        f"{readable}-{hashlib.sha1(text.encode()).hexdigest()[:6]}"
        if readable
        else hashlib.sha1(text.encode()).hexdigest()[:8]
    )


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


def settings_text(settings: dict[str, str]) -> str:
    return ", ".join(f"{name}={value}" for name, value in settings.items())


@dataclass(frozen=True)
class ColumnDef:
    title: str
    cell: Callable[[Row], Cell]
    note: str = ""  # what the column means (header tooltip)


@dataclass(frozen=True)
class Section:
    """The rows of one task graded by one grader on one data (Task 1: no grader), ranked.

    Runs on other data than the task's main rows (another source, revision or record content)
    are a section of their own, never ranked or paired with them; `apart` says why."""

    spec: TaskSpec
    grader: str | None
    rows: list[Row]
    columns: list[Column]  # metrics besides the headline that some row has
    show_paths: bool = False
    common: dict[str, str] = field(default_factory=dict)  # shown settings every row shares
    pairs: list[Pairing] = field(default_factory=list)  # Task 1: a person's runs beside the others
    separation: Ranking | None = None  # which differences between the ranked rows are real
    apart: str = ""  # why these rows stand apart from the task's main rows ("different data: sample")
    agreement: Agreement | None = None  # Task 1: agreement among the people, their gold accuracy
    synthetic: bool = False  # the rows ran on the bundled synthetic sample: no paper value beside them

    def common_text(self) -> str:
        return f"Every row: {settings_text(self.common)}." if self.common else ""

    def notes(self) -> list[str]:
        """What a reader must know about the rows: synthetic records, replays that lacked published rows."""
        notes = [SAMPLE_NOTE] if self.synthetic else []
        lacking = [f"{row.label} {row.no_rows} of {row.run.samples}" for row in self.rows if row.no_rows]
        if lacking:
            notes.append(f"{NO_ROW_NOTE} Records without a row: {', '.join(lacking)}.")
        return notes

    @property
    def headed(self) -> bool:
        """Whether the section has a heading of its own (one of several in its task)."""
        return self.grader is not None or bool(self.apart)

    @property
    def id(self) -> str:
        parts = [self.spec.name, *(slug(t) for t in (self.grader, self.apart) if t)]
        return "-".join(parts)

    @property
    def subtitle(self) -> str:
        """What sets the section apart within its task: its grader, its data."""
        return " · ".join(t for t in (f"graded by {self.grader}" if self.grader else "", self.apart) if t)

    @property
    def title(self) -> str:
        return " · ".join(t for t in (self.spec.title, self.subtitle) if t)

    @property
    def paper_grader(self) -> bool:
        return by_paper_grader(self.grader)

    def breakdown_keys(self) -> list[str]:
        """The breakdowns with at least one value: data without a label have none, and neither a
        table nor a heatmap is drawn for them."""
        keys = {
            key
            for row in self.rows
            for key, values in row.run.breakdown.items()
            if any(v is not None for v in values.values())
        }
        return [k for k in self.spec.breakdown_meaning if k in keys] + sorted(
            keys - set(self.spec.breakdown_meaning)
        )

    def breakdown(self, key: str) -> dict[str, list[tuple[float | None, int | None]]]:
        """group -> (value, records) per row, groups in label-set order; a cell without a value
        has no count either (a "–" beside "n=2000" reads as 2,000 records of that group)."""
        groups = {g for row in self.rows for g in row.run.breakdown.get(key, {})}
        known = [g for g in _GROUP_ORDER.get(key, ()) if g in groups]
        ordered = known + sorted(groups - set(known))
        cells = {
            g: [(row.run.breakdown.get(key, {}).get(g), _group_n(row, key, g)) for row in self.rows]
            for g in ordered
        }
        return {g: [(v, None if v is None else n) for v, n in line] for g, line in cells.items()}

    def breakdown_meaning(self, key: str) -> str:
        return self.spec.breakdown_meaning.get(key, f"Mean score per {key}")

    def column_defs(self) -> list[ColumnDef]:
        return section_columns(self)


def _group_n(row: Row, key: str, group: str) -> int | None:
    if row.counts is None:
        return None
    if key in row.counts.groups:
        return row.counts.groups[key].get(group)
    if key in _GROUP_ORDER:
        return None  # a label the records lack: no group has a count
    return row.counts.records  # a breakdown over all records (a panel's per-grader Good%)


@dataclass(frozen=True)
class TaskTable:
    spec: TaskSpec
    sections: list[Section]

    @property
    def rows(self) -> list[Row]:
        return [row for section in self.sections for row in section.rows]


@dataclass(frozen=True)
class Leaderboard:
    tables: list[TaskTable]
    missing: list[TaskSpec]  # tasks without any usable log
    skipped: list[Skipped]
    sources: list[str]
    generated: str
    notes: list[str] = field(default_factory=list)
    show_paths: bool = False
    checks: list[CheckLog] = field(default_factory=list)  # grader_check logs (qualifications)

    def corrected_by(self) -> Counter[str]:
        """Rows each grader check gives a GRM-equivalent number, by the check's log location."""
        return Counter(
            row.grm.check.check.location
            for table in self.tables
            for row in table.rows
            if row.grm and row.grm.check and row.grm.value is not None
        )


def group_title(key: str, group: str) -> str:
    """A label with its English name when it has one: `冗余啰嗦 · Verbosity/Redundancy`."""
    name = english(group) if key in ("failure_dimension", "success_pattern", "scenario") else group
    return group if name == group else f"{group} · {name}"


# ---------------------------------------------------------------- building


def _headline(spec: TaskSpec, run: Run) -> float | None:
    return run.metrics.get(spec.headline.metric)


def _within_scores(interval: Interval | None) -> Interval | None:
    """A Δ score's interval kept in [−1, 1], the range of a difference of two scores in [0, 1] (the
    studentised bootstrap's ends can pass it with a handful of records)."""
    return None if interval is None else (max(-1.0, interval[0]), min(1.0, interval[1]))


def headline_interval(spec: TaskSpec, run: Run, counts: Counts | None) -> tuple[Interval | None, str]:
    """The headline's 95% interval and how it was made.

    Task 1's Avg-Acc: Jeffreys intervals of Good-Acc and Bad-Acc over the liked and the
    disliked records, combined by MOVER. Good% and Recovery Rate: Wilson over all records."""
    if spec.name == "task1_judge":
        good, bad = run.metrics.get("good_acc"), run.metrics.get("bad_acc")
        n_good, n_bad = (counts.labels.get("good", 0), counts.labels.get("bad", 0)) if counts else (0, 0)
        if good is None or bad is None or not n_good or not n_bad:
            return None, ""
        parts = [(good, jeffreys(good * n_good, n_good)), (bad, jeffreys(bad * n_bad, n_bad))]
        return mover_mean(
            [(p, i) for p, i in parts if i is not None]
        ), "Jeffreys per label, MOVER for the mean"
    value = _headline(spec, run)
    if value is None or not run.samples:
        return None, ""
    return wilson(value * run.samples, run.samples), "Wilson"


_ABSENT = object()


def _shown_settings(runs: list[Run], show_paths: bool) -> list[dict[str, str]]:
    """Per run the settings worth a reader's eye: those not at their default (settings.py),
    and those where the run differs from another row of the same model and is not at the
    default (a task default that changed between versions, say)."""
    shown = []
    for run in runs:
        defaults = task_defaults(run.task)
        names = non_default(run.task, run.settings, run.explicit)
        for other in runs:
            if other.who != run.who or other is run:
                continue
            for name, value in run.settings.items():
                default = defaults.get(name, _ABSENT)
                if value != other.settings.get(name, default) and value != default:
                    names.add(name)
        ordered = [name for name in run.settings if name in names and name not in _NOT_SHOWN]
        shown.append(run.shown_settings(ordered, show_paths))
    return shown


def _paper(spec: TaskSpec, run: Run) -> tuple[str | None, dict[str, float] | None]:
    """The paper's name for the row and its numbers (None unless the settings match the paper's):
    a person's row is set beside the paper's blind human baseline."""
    if run.human:
        reference = paper_numbers.references(spec.name).get(HUMAN_REFERENCE)
        return (HUMAN_REFERENCE, reference) if reference else (None, None)
    return paper_numbers.paper_name(run.model), paper_numbers.published_metrics(spec.name, run.model)


def _pairs(rows: list[Row], evidence: Evidence) -> list[Pairing]:
    """Each person's run beside every other row of the section (two people once), on the records
    both judged."""
    pairs = []
    for row in (r for r in rows if r.run.human):
        mine = evidence.verdicts(row.run)
        for other in rows:
            if other is row or (other.run.human and other.ref < row.ref):
                continue
            found = compare(mine, evidence.verdicts(other.run))
            if found is not None:
                pairs.append(Pairing(row.run, other.run, found))
    return pairs


def section(
    spec: TaskSpec,
    grader: str | None,
    runs: list[Run],
    evidence: Evidence,
    show_paths: bool,
    checks: list[CheckLog] | None = None,
    apart: str = "",
) -> Section:
    shown = _shown_settings(runs, show_paths)
    # what every row shares is said once, above the table and in the charts' keys
    common = {name: value for name, value in shown[0].items() if all(s.get(name) == value for s in shown)}
    settings = {
        run.log: {name: value for name, value in own.items() if name not in common}
        for run, own in zip(runs, shown, strict=True)
    }
    complete = sorted(
        (r for r in runs if not r.partial and not r.human),
        key=lambda r: (_headline(spec, r) is None, -(_headline(spec, r) or 0)),
    )
    partial = sorted((r for r in runs if r.partial), key=lambda r: -(_headline(spec, r) or 0))
    people = sorted((r for r in runs if r.human), key=lambda r: -(_headline(spec, r) or 0))
    ordered = complete + partial + people
    synthetic = all(run.data_identity[0] == SAMPLE for run in ordered)
    labels = [row_label(run) for run in ordered]
    mixed_data = len({run.data(show_paths) for run in ordered}) > 1
    rows: list[Row] = []
    for ref, run in enumerate(ordered, start=1):
        label = labels[ref - 1]
        keyed = bool(settings[run.log]) or shorten(label) != label or labels.count(label) > 1
        value = _headline(spec, run)
        counts = evidence.counts_of(run)
        interval, method = headline_interval(spec, run, counts)
        rank = None
        if not run.partial and not run.human:  # a person is set beside the models, not ranked among them
            previous = rows[-1] if rows else None
            rank = previous.rank if previous and previous.headline == value and previous.rank else ref
        paper_name, paper_values = _paper(spec, run)
        deltas = evidence.deltas(run)
        rows.append(
            Row(
                run=run,
                rank=rank,
                ref=ref,
                settings=settings[run.log],
                headline=value,
                interval=interval,
                interval_method=method,
                paper=paper_name,
                published=paper_values
                if matches(run.settings, spec.paper_settings) and not synthetic
                else None,
                counts=counts,
                delta_interval=_within_scores(bootstrap_mean(deltas)) if deltas else None,
                keyed=keyed,
                variants=sum(other.who == run.who for other in ordered),
                data_note=run.data(show_paths) if mixed_data else "",
                grm=equivalent(spec, run, checks or [], by_paper_grader(grader), show_paths),
                no_rows=evidence.no_rows(run),
            )
        )
    people = (
        agreement([(r.run, evidence.verdicts(r.run), evidence.gold(r.run)) for r in rows if r.run.human])
        if spec.name == "task1_judge"
        else None
    )
    return Section(
        spec,
        grader,
        rows,
        _columns(spec, runs),
        show_paths,
        common,
        _pairs(rows, evidence),
        ranking(spec.name, rows, evidence),
        apart,
        people,
        synthetic,
    )


def _section_order(grader: str | None, apart: str, runs: list[Run]) -> tuple[bool, bool, int, str]:
    """The main data first, the paper's grader first, then the graders with most rows."""
    return bool(apart), not by_paper_grader(grader), -len(runs), grader or ""


def main_data(runs: list[Run]) -> tuple[str, str | None, str | None]:
    """The data most of a task's runs read (on a tie: not the bundled sample, then the newest)."""
    counted = Counter(run.data_identity for run in runs)
    newest = {run.data_identity: run.created for run in sorted(runs, key=lambda r: r.created)}
    return max(counted, key=lambda d: (counted[d], d[0] != SAMPLE, newest[d]))


def data_apart(run: Run, main: tuple[str, str | None, str | None], show_paths: bool) -> str:
    """Why a run stands apart from the main rows, or "" when it read the same data."""
    source, revision, content = run.data_identity
    if (source, revision, content) == main:
        return ""
    shown = run.data(show_paths)
    if source != main[0] or revision != main[1]:
        return f"different data: {shown}"
    known = bool(content) and content in shown
    return f"different data: {shown}, other records" + ("" if known else f" ({content or 'no content hash'})")


def task_table(
    spec: TaskSpec,
    runs: list[Run],
    evidence: Evidence,
    show_paths: bool = False,
    checks: list[CheckLog] | None = None,
) -> TaskTable:
    main = main_data(runs) if runs else ("", None, None)
    groups: dict[tuple[str | None, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.grader, data_apart(run, main, show_paths)), []).append(run)
    ordered = sorted(groups.items(), key=lambda item: _section_order(*item[0], item[1]))
    return TaskTable(
        spec,
        [
            section(spec, grader, group, evidence, show_paths, checks, apart)
            for (grader, apart), group in ordered
        ],
    )


def _columns(spec: TaskSpec, runs: list[Run]) -> list[Column]:
    """The spec's columns that some run has, then any metric the spec does not know."""
    present = {name for run in runs for name, value in run.metrics.items() if value is not None}
    known = {spec.headline.metric, spec.stderr, *(c.metric for c in spec.columns)}
    extra = [Column(name, name, "score") for name in sorted(present - known)]
    return [c for c in spec.columns if c.metric in present] + extra


def leaderboard(
    runs: list[Run],
    skipped: list[Skipped],
    sources: list[str],
    generated: str,
    notes: list[str],
    evidence: Evidence,
    show_paths: bool = False,
    checks: list[CheckLog] | None = None,
) -> Leaderboard:
    tables = [
        task_table(spec, [r for r in runs if r.task == name], evidence, show_paths, checks)
        for name, spec in TASKS.items()
    ]
    return Leaderboard(
        tables=[t for t in tables if t.sections],
        missing=[t.spec for t in tables if not t.sections],
        skipped=skipped,
        sources=sources,
        generated=generated,
        notes=notes,
        show_paths=show_paths,
        checks=list(checks or []),
    )


# ---------------------------------------------------------------- formatting


def fmt(value: float | None, kind: str = "pct") -> str:
    if value is None or math.isnan(value):
        return "–"
    if kind == "pct":
        return pct(value)
    return f"{value:+.3f}" if kind == "delta" else f"{value:.3f}"


def fmt_interval(value: float | None, interval: Interval | None, kind: str = "pct") -> str:
    text = fmt(value, kind)
    if interval and value is not None:
        text += (
            f" ({fmt(interval[0], kind)} to {fmt(interval[1], kind)})"
            if kind == "delta"
            else (f" ({fmt(interval[0])}–{fmt(interval[1])})")
        )
    return text


def model_cell(row: Row) -> Cell:
    marks = row.marks()
    return Cell(row.run.who + (f" ({', '.join(marks)})" if marks else ""), row.run.who)


def date(run: Run) -> str:
    return run.created[:16].replace("T", " ")


def _records(row: Row) -> Cell:
    run = row.run
    if row.no_rows:
        note = f"{row.no_rows} of them without a row in the published file, counted as failed judgments"
        return Cell(f"{run.samples} ({row.no_rows} no row)", run.samples, note=note)
    if run.partial:
        return Cell(f"{run.samples} of {run.total}", run.samples, note=run.partial)
    if run.human and run.samples < run.total:
        return Cell(str(run.samples), run.samples, note=f"of {run.total} records: a person judges a subset")
    return Cell(str(run.samples), run.samples)


def _grm_cell(row: Row) -> Cell:
    item = row.grm
    if item is None:
        return Cell("–")
    if item.value is None:
        return Cell(item.note or "–", None, muted=True)
    return Cell(fmt_interval(item.value, item.interval), item.value, note=explanation(item))


def _grm_def(section: Section) -> ColumnDef | None:
    """The GRM-equivalent headline, in a graded section (unless it is graded by UXBench-GRM and
    no row has a number: there the raw headline already is UXBench-GRM's)."""
    if not section.spec.graded:
        return None
    if section.paper_grader and not any(row.grm and row.grm.value is not None for row in section.rows):
        return None
    return ColumnDef(
        f"GRM-equiv. {section.spec.headline.title} (95% CI)",
        _grm_cell,
        "What UXBench-GRM would give, from the grader's grader_check (docs/graders.md)",
    )


def _metric_def(column: Column) -> ColumnDef:
    def cell(row: Row) -> Cell:
        value = row.run.metrics.get(column.metric)
        if column.metric == "delta_score":
            return Cell(
                fmt_interval(value, row.delta_interval, "delta"),
                value,
                note="95% studentised bootstrap interval",
            )
        return Cell(fmt(value, column.kind), value)

    title = column.title + (" (95% CI)" if column.metric == "delta_score" else "")
    return ColumnDef(title, cell, column.note)


def _paper_def(section: Section) -> ColumnDef:
    spec = section.spec
    title = f"Paper {spec.headline.title}"
    if spec.graded and not section.paper_grader:
        title += " (UXBench-GRM)"

    def cell(row: Row) -> Cell:
        value = (row.published or {}).get(spec.headline.metric)
        if value is not None and row.run.human:
            return Cell(fmt(value), value, note=f"{row.paper}: the paper's blind human baseline")
        reported = not row.run.human and paper_numbers.published_metrics(spec.name, row.run.model) is not None
        if value is None and reported:
            return Cell(
                "other settings",
                None,
                note=f"The paper's {row.paper} ran with {settings_text(_paper_text(spec))}",
            )
        note = paper_numbers.note(spec.name, row.run.model) if value is not None else None
        return Cell(fmt(value), value, note=note or "")

    return ColumnDef(
        title, cell, "The paper's published value, shown where the row's settings match the paper's"
    )


def _paper_text(spec: TaskSpec) -> dict[str, str]:
    return {name: "null" if value is None else str(value) for name, value in spec.paper_settings.items()}


def has_grm_column(section: Section) -> bool:
    return _grm_def(section) is not None


def section_columns(section: Section) -> list[ColumnDef]:
    """The columns of a section's leaderboard, in order: the headline right after the model,
    the settings in one compact column."""
    spec = section.spec
    headline = ColumnDef(
        f"{spec.headline.title} (95% CI)",
        lambda row: Cell(fmt_interval(row.headline, row.interval), row.headline, note=row.interval_method),
        spec.headline.note,
    )
    shown = section.show_paths
    grm = _grm_def(section)
    return [
        ColumnDef(
            "#",
            lambda row: Cell("–" if row.rank is None else str(row.rank), row.rank),
            "rank by the headline; equal values share a rank; partial and human rows are not ranked",
        ),
        ColumnDef("Model", model_cell, "the model (a person: uxbench/human · annotator)"),
        headline,
        *([] if section.synthetic else [_paper_def(section)]),
        *([grm] if grm else []),
        ColumnDef("n", _records, "records scored"),
        ColumnDef(
            "Settings",
            lambda row: Cell(settings_text(row.settings) or "–", settings_text(row.settings)),
            "settings not at their default, or differing between a model's rows",
        ),
        ColumnDef(
            "Data",
            lambda row: Cell(row.run.data(shown), row.run.data(shown)),
            "data source @ dataset revision",
        ),
        *(_metric_def(c) for c in section.columns),
        ColumnDef("Date (UTC)", lambda row: Cell(date(row.run), row.run.created), "when the run started"),
        ColumnDef(
            "Log", lambda row: Cell(row.run.log if shown else row.run.name, row.run.name), "the Inspect log"
        ),
    ]


def section_grid(section: Section) -> Grid:
    defs = section.column_defs()
    return Grid(
        titles=[d.title for d in defs],
        rows=[[d.cell(row) for d in defs] for row in section.rows],
        row_kinds=[row.kind for row in section.rows],
        notes=[d.note for d in defs],
        id=f"{section.id}-table",
        pin=1,
    )


def breakdown_grid(section: Section, key: str) -> Grid:
    """Groups down, models across; each cell `value (records)`, greyed under FEW records."""
    groups = section.breakdown(key)
    titles = [BREAKDOWN_TITLES.get(key, key), *(row.chart_label() for row in section.rows)]
    notes = ["", *(row.key_line() for row in section.rows)]
    body = []
    for group, values in groups.items():
        cells = [Cell(group_title(key, group), group)]
        for value, n in values:
            text = fmt(value) + (f" ({n})" if n is not None else "")
            cells.append(
                Cell(
                    text, value, muted=n is not None and n < FEW, note=f"{n} records" if n is not None else ""
                )
            )
        body.append(cells)
    return Grid(titles, body, notes=notes, id=f"{section.id}-{key}")


def skipped_grid(board: Leaderboard) -> Grid:
    rows = [
        [
            Cell(s.log if board.show_paths else s.name, s.name),
            Cell(s.task, s.task),
            Cell(s.model, s.model),
            Cell(s.reason, s.reason),
        ]
        for s in board.skipped
    ]
    return Grid(["Log", "Task", "Model", "Reason"], rows, id="skipped-table")


# ---------------------------------------------------------------- shared captions

INTERVALS = (
    "95% intervals: Wilson for Good% and Recovery Rate; for Avg-Acc, Jeffreys intervals of Good-Acc "
    "and Bad-Acc combined by MOVER; a symmetric studentised bootstrap for Δ score."
)
PAPER_NOTE = (
    "Paper columns: the paper's published value, beside rows whose settings match the paper's, never "
    "beside runs on the bundled synthetic sample."
)
PARTIAL_NOTE = "Rows marked partial cover part of their dataset (n of N records) and are not ranked."
HUMAN_NOTE = (
    "Rows marked human are people (uxbench/human, named by annotator) on the records they judged, set "
    "beside the models and not ranked; their Paper column is the paper's blind human baseline."
)
FEW_NOTE = f"Each cell: value % (records); cells with fewer than {FEW} records are greyed."
SAMPLE_NOTE = (
    "These records are the bundled synthetic sample, not the paper's data: their numbers are not "
    "comparable with the paper's or with runs on the release records, so no paper value is shown."
)
NO_ROW_NOTE = (
    "Replayed rows count a record without a row in the model's published file as a failed judgment "
    "(not good; for Task 1 wrong), as the paper counts a missing grade."
)


# ---------------------------------------------------------------- JSON


def _row_json(sec: Section, row: Row) -> dict[str, Any]:
    run = row.run
    shown = sec.show_paths
    return {
        "rank": row.rank,
        "ref": row.ref,
        "model": run.model,
        "annotator": run.annotator,
        "label": row.label,
        "kind": row.kind or "model",
        "baseline": row.baseline,
        "partial": run.partial,
        "grader": run.grader,
        "published_no_row": row.no_rows,
        "section": sec.id,
        "settings": row.settings,
        "all_settings": run.shown_settings(list(run.settings), shown),
        "data": run.data(shown),
        "dataset_revision": run.dataset_revision,
        "created": run.created,
        "samples": run.samples,
        "total": run.total,
        "log": run.log if shown else run.name,
        "headline": row.headline,
        "ci95": list(row.interval) if row.interval else None,
        "ci95_method": row.interval_method or None,
        "metrics": run.metrics,
        "delta_score_ci95": list(row.delta_interval) if row.delta_interval else None,
        "breakdown": run.breakdown,
        "breakdown_n": {
            key: {g: _group_n(row, key, g) for g in groups} for key, groups in run.breakdown.items()
        },
        "paper_name": row.paper,
        "paper_settings_match": matches(run.settings, sec.spec.paper_settings),
        "published": row.published,
        **({**row.grm.fields, "grm_equiv_note": row.grm.note} if row.grm else {}),
    }


def as_json(board: Leaderboard) -> dict[str, Any]:
    """Everything in the tables, for other tools (fractions, not percentages; null for no value)."""
    tasks: dict[str, Any] = {}
    for table in board.tables:
        tasks[table.spec.name] = {
            "title": table.spec.title,
            "headline": table.spec.headline.metric,
            "paper_settings": dict(table.spec.paper_settings),
            "sections": [
                {
                    "id": sec.id,
                    "grader": sec.grader,
                    "apart": sec.apart or None,
                    "title": sec.title,
                    "notes": sec.notes(),
                    "columns": [c.metric for c in sec.columns],
                    "separation": separation_json(sec.separation),
                }
                for sec in table.sections
            ],
            "rows": [_row_json(sec, row) for sec in table.sections for row in sec.rows],
        }
    return {
        "generated": board.generated,
        "sources": board.sources,
        "published_source": paper_numbers.source(),
        "intervals": INTERVALS,
        "notes": board.notes,
        "tasks": tasks,
        "missing_tasks": [spec.name for spec in board.missing],
        "grader_checks": checks_json(board.checks, board.corrected_by(), board.show_paths),
        "paired": [
            item
            for table in board.tables
            for sec in table.sections
            for item in paired_json(sec.pairs, board.show_paths)
        ],
        "agreement": [
            {"task": sec.spec.name, **agreement_json(sec.agreement)}
            for table in board.tables
            for sec in table.sections
            if sec.agreement
        ],
        "skipped": [
            {
                "log": s.log if board.show_paths else s.name,
                "task": s.task,
                "model": s.model,
                "reason": s.reason,
            }
            for s in board.skipped
        ],
    }
