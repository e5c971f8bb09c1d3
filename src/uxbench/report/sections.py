"""The leaderboard as data: per task one ranked section per grader and data (Task 1: one
section per data), each row a run (rows.py); the per-group breakdowns with their record counts.
Charts, the HTML page, leaderboard.md and leaderboard.json read the same objects, so every output
shows the same numbers.

A person's runs (`uxbench/human`) are rows of their own, after the models and not ranked, with a
paired table beside them (paired.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from uxbench.report import paper_numbers
from uxbench.report.captions import NO_ROW_NOTE, SAMPLE_NOTE, help_notes
from uxbench.report.formatting import GROUP_ORDER, settings_text, shorten, slug
from uxbench.report.leaderboard_row import Row, by_paper_grader, row_label
from uxbench.report.logs import CheckLog, Run, Skipped
from uxbench.report.paired import Pairing, compare
from uxbench.report.people import Agreement, agreement
from uxbench.report.qualified import equivalent
from uxbench.report.run_settings import DATA_ARGS, matches, non_default, task_defaults
from uxbench.report.samples import Counts, Evidence
from uxbench.report.separation import Ranking, ranking
from uxbench.report.spec import TASKS, Column, TaskSpec
from uxbench.stats.intervals import Interval, bootstrap_mean, jeffreys, mover_mean, wilson

HUMAN_REFERENCE = "Human (blind 25+25 subset)"  # the paper's human baseline (published.json)


SAMPLE = "sample"  # the data source of the bundled synthetic records


# settings never listed in the Settings column: the data source has its own column, a
# self-graded run says so as its grader, and a person's name is in the model or grader name
_NOT_SHOWN = {*DATA_ARGS, "self_grade", "-M annotator", "grader -M annotator"}


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
        metric = self.spec.headline.metric
        gaps = [f"{row.label} {gap}" for row in self.rows if (gap := row.paper_gap(self.spec.name, metric))]
        if gaps and not self.synthetic:
            notes.append(f"Beside the paper's {self.spec.headline.title}: {'; '.join(gaps)}.")
        return notes + self.state_notes()

    def state_notes(self) -> list[str]:
        """One line per row that is in a state (partial, resumed, stand-in data …), in words."""
        return [f"{row.run.who}: {'; '.join(row.states())}." for row in self.rows if row.states()]

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
        known = [g for g in GROUP_ORDER.get(key, ()) if g in groups]
        ordered = known + sorted(groups - set(known))
        cells = {
            g: [(row.run.breakdown.get(key, {}).get(g), group_n(row, key, g)) for row in self.rows]
            for g in ordered
        }
        return {g: [(v, None if v is None else n) for v, n in line] for g, line in cells.items()}

    def breakdown_meaning(self, key: str) -> str:
        return self.spec.breakdown_meaning.get(key, f"Mean score per {key}")


def group_n(row: Row, key: str, group: str) -> int | None:
    if row.counts is None:
        return None
    if key in row.counts.groups:
        return row.counts.groups[key].get(group)
    if key in GROUP_ORDER:
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

    def help_notes(self) -> str:
        """What "How to read this page" says about the kinds of rows: only those the page has."""
        rows = [row for table in self.tables for row in table.rows]
        human = any(row.run.human for row in rows)
        human_paper = any(row.run.human and row.published for row in rows)
        return help_notes(any(row.run.partial for row in rows), human, human_paper)

    def corrected_by(self) -> Counter[str]:
        """Rows each grader check gives a GRM-equivalent number, by the check's log location."""
        return Counter(
            row.grm.check.check.location
            for table in self.tables
            for row in table.rows
            if row.grm and row.grm.check and row.grm.value is not None
        )


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
    """Per run the settings worth a reader's eye: those not at their default (run_settings.py),
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
    described = {name: text for run in runs for name, text in run.metric_notes.items()}
    unknown = "a metric the log reports, not described by its task"
    extra = [Column(name, name, "score", described.get(name, unknown)) for name in sorted(present - known)]
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
