"""The leaderboard as data: one ranked table per task, its per-group breakdowns, and the
Markdown and JSON renderings of it. Charts and the HTML page read the same objects, so every
output shows the same numbers.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from uxbench.labels import DIFFICULTIES, FAILURE_DIMENSIONS, SCENARIOS, SUCCESS_PATTERNS, english
from uxbench.report import published
from uxbench.report.collect import Run, Skipped
from uxbench.report.spec import BASELINE_PREFIXES, TASKS, Column, TaskSpec

Z95 = 1.959964
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


@dataclass(frozen=True)
class Row:
    rank: int
    run: Run
    label: str  # the model, plus what tells this row apart from the same model's other rows
    settings: dict[str, str]  # task arguments (and grader) that differ between the task's rows
    headline: float | None
    interval: tuple[float, float] | None  # 95%
    paper: str | None  # the model's name in the paper, when it was published there
    published: dict[str, float] | None

    @property
    def baseline(self) -> bool:
        return self.run.model.startswith(BASELINE_PREFIXES)


@dataclass(frozen=True)
class TaskTable:
    spec: TaskSpec
    rows: list[Row]
    columns: list[Column]  # metrics besides the headline that at least one row has
    settings: list[str]

    def breakdown_keys(self) -> list[str]:
        keys = {key for row in self.rows for key in row.run.breakdown}
        return [k for k in self.spec.breakdown_meaning if k in keys] + sorted(
            keys - set(self.spec.breakdown_meaning)
        )

    def breakdown(self, key: str) -> dict[str, dict[str, float | None]]:
        """group -> row label -> value, groups in label-set order."""
        groups = {g for row in self.rows for g in row.run.breakdown.get(key, {})}
        known = [g for g in _GROUP_ORDER.get(key, ()) if g in groups]
        ordered = known + sorted(groups - set(known))
        return {g: {row.label: row.run.breakdown.get(key, {}).get(g) for row in self.rows} for g in ordered}

    def breakdown_meaning(self, key: str) -> str:
        return self.spec.breakdown_meaning.get(key, f"Mean score per {key}")


@dataclass(frozen=True)
class Leaderboard:
    tables: list[TaskTable]
    missing: list[TaskSpec]  # tasks without any usable log
    skipped: list[Skipped]
    sources: list[str]
    generated: str
    notes: list[str] = field(default_factory=list)


def group_title(key: str, group: str) -> str:
    """A label with its English name when it has one: `冗余啰嗦 · Verbosity/Redundancy`."""
    name = english(group) if key in ("failure_dimension", "success_pattern", "scenario") else group
    return group if name == group else f"{group} · {name}"


def _interval(value: float | None, stderr: float | None) -> tuple[float, float] | None:
    if value is None or stderr is None:
        return None
    return max(0.0, value - Z95 * stderr), min(1.0, value + Z95 * stderr)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _differing(runs: list[Run]) -> dict[str, list[str]]:
    """Settings (task arguments and grader) whose values differ between runs: name -> value per run."""
    names = list(dict.fromkeys(name for run in runs for name in run.task_args))
    values = {name: [_text(run.task_args.get(name)) for run in runs] for name in names}
    values["grader"] = [_text(run.grader) for run in runs]
    return {name: texts for name, texts in values.items() if len(set(texts)) > 1}


def _rank_key(spec: TaskSpec, run: Run) -> tuple[bool, float]:
    value = _headline(spec, run)
    return value is None, -(value or 0.0)


def task_table(spec: TaskSpec, runs: list[Run]) -> TaskTable:
    differing = _differing(runs)
    models = [run.model for run in runs]
    built: list[tuple[Run, dict[str, str], str]] = []
    for i, run in enumerate(runs):
        pairs = {name: texts[i] for name, texts in differing.items()}
        label = run.model
        if models.count(run.model) > 1 and pairs:
            label += " (" + ", ".join(f"{name}={value}" for name, value in pairs.items()) + ")"
        built.append((run, pairs, label))
    built.sort(key=lambda item: _rank_key(spec, item[0]))
    rows: list[Row] = []
    for position, (run, pairs, label) in enumerate(built, start=1):
        value = _headline(spec, run)
        rank = rows[-1].rank if rows and rows[-1].headline == value else position
        rows.append(
            Row(
                rank=rank,
                run=run,
                label=label,
                settings=pairs,
                headline=value,
                interval=_interval(value, run.metrics.get(spec.stderr)),
                paper=published.paper_name(run.model),
                published=published.published_metrics(spec.name, run.model),
            )
        )
    return TaskTable(spec=spec, rows=rows, columns=_columns(spec, runs), settings=list(differing))


def _headline(spec: TaskSpec, run: Run) -> float | None:
    return run.metrics.get(spec.headline.metric)


def _columns(spec: TaskSpec, runs: list[Run]) -> list[Column]:
    """The spec's columns that some run has, then any metric the spec does not know."""
    present = {name for run in runs for name, value in run.metrics.items() if value is not None}
    known = {spec.headline.metric, spec.stderr, *(c.metric for c in spec.columns)}
    extra = [Column(name, name, "score") for name in sorted(present - known)]
    return [c for c in spec.columns if c.metric in present] + extra


def leaderboard(
    runs: list[Run], skipped: list[Skipped], sources: list[str], generated: str, notes: list[str]
) -> Leaderboard:
    tables = [task_table(spec, [r for r in runs if r.task == name]) for name, spec in TASKS.items()]
    return Leaderboard(
        tables=[t for t in tables if t.rows],
        missing=[t.spec for t in tables if not t.rows],
        skipped=skipped,
        sources=sources,
        generated=generated,
        notes=notes,
    )


# ---------------------------------------------------------------- formatting


def fmt(value: float | None, kind: str = "pct") -> str:
    if value is None or math.isnan(value):
        return "–"
    if kind == "pct":
        return f"{100 * value:.1f}"
    return f"{value:+.3f}" if kind == "delta" else f"{value:.3f}"


def fmt_headline(row: Row) -> str:
    text = fmt(row.headline)
    if row.interval:
        text += f" ({fmt(row.interval[0])}–{fmt(row.interval[1])})"
    return text


def model_cell(row: Row) -> str:
    """The row's label with its marks: a baseline model, a partial run."""
    marks = [mark for mark, on in (("baseline", row.baseline), ("partial run", row.run.partial)) if on]
    return row.label + (f" ({', '.join(marks)})" if marks else "")


def date(run: Run) -> str:
    return run.created[:16].replace("T", " ")


def header(table: TaskTable) -> list[str]:
    """Column titles of a task's leaderboard, shared by the Markdown and HTML tables."""
    titles = ["#", "Model", *table.settings, f"{table.spec.headline.title} (95% CI)"]
    titles += [c.title for c in table.columns] + ["n"]
    titles += ["Grader"] if table.spec.graded and "grader" not in table.settings else []
    return [*titles, "Date", f"Paper {table.spec.headline.title}"]


def cells(table: TaskTable, row: Row) -> list[tuple[str, Any]]:
    """(text, sort value) per column, in `header` order."""
    run = row.run
    out: list[tuple[str, Any]] = [(str(row.rank), row.rank), (model_cell(row), row.label)]
    out += [(row.settings[name], row.settings[name]) for name in table.settings]
    out.append((fmt_headline(row), row.headline))
    out += [(fmt(run.metrics.get(c.metric), c.kind), run.metrics.get(c.metric)) for c in table.columns]
    out.append((str(run.samples), run.samples))
    if table.spec.graded and "grader" not in table.settings:
        out.append((run.grader or "–", run.grader or ""))
    out.append((date(run), run.created))
    paper_value = (row.published or {}).get(table.spec.headline.metric)
    out.append((fmt(paper_value), paper_value))
    return out


# ---------------------------------------------------------------- Markdown


def _md_row(texts: list[str]) -> str:
    return "| " + " | ".join(t.replace("|", "\\|").replace("\n", " ") for t in texts) + " |"


def _md_table(titles: list[str], rows: list[list[str]]) -> list[str]:
    return [_md_row(titles), _md_row(["---"] * len(titles)), *(_md_row(r) for r in rows), ""]


def markdown(board: Leaderboard) -> str:
    lines = [
        "# UXBench leaderboard",
        "",
        f"Generated {board.generated} from the Inspect logs in {', '.join(board.sources)}.",
        "Ranked by each task's headline metric; the 95% interval is ±1.96 standard errors. "
        f"*Paper* columns hold published values ({published.source()}).",
        "",
        *(f"> {note}" for note in board.notes),
    ]
    for table in board.tables:
        lines += [f"## {table.spec.title}", ""]
        lines += _md_table(header(table), [[text for text, _ in cells(table, row)] for row in table.rows])
        for key in table.breakdown_keys():
            groups = table.breakdown(key)
            labels = [row.label for row in table.rows]
            lines += [f"### {table.breakdown_meaning(key)}", ""]
            body = [[group_title(key, g), *(fmt(v[label]) for label in labels)] for g, v in groups.items()]
            lines += _md_table([BREAKDOWN_TITLES.get(key, key), *labels], body)
    for spec in board.missing:
        lines += [f"## {spec.title}", "", "No usable log of this task was found.", ""]
    if board.skipped:
        lines += ["## Skipped logs", ""]
        rows = [[s.log, s.task, s.model, s.reason] for s in board.skipped]
        lines += _md_table(["Log", "Task", "Model", "Reason"], rows)
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------- JSON


def as_json(board: Leaderboard) -> dict[str, Any]:
    """Everything in the tables, for other tools (fractions, not percentages; null for no value)."""
    tasks: dict[str, Any] = {}
    for table in board.tables:
        tasks[table.spec.name] = {
            "title": table.spec.title,
            "headline": table.spec.headline.metric,
            "columns": [c.metric for c in table.columns],
            "settings": table.settings,
            "rows": [
                {
                    "rank": row.rank,
                    "model": row.run.model,
                    "label": row.label,
                    "baseline": row.baseline,
                    "settings": row.settings,
                    "task_args": row.run.task_args,
                    "grader": row.run.grader,
                    "created": row.run.created,
                    "samples": row.run.samples,
                    "log": row.run.log,
                    "partial": row.run.partial,
                    "headline": row.headline,
                    "ci95": list(row.interval) if row.interval else None,
                    "metrics": row.run.metrics,
                    "breakdown": row.run.breakdown,
                    "paper_name": row.paper,
                    "published": row.published,
                }
                for row in table.rows
            ],
        }
    return {
        "generated": board.generated,
        "sources": board.sources,
        "published_source": published.source(),
        "notes": board.notes,
        "tasks": tasks,
        "missing_tasks": [spec.name for spec in board.missing],
        "skipped": [vars(s) for s in board.skipped],
    }
