"""Every chart type with 27 models of 60-character names (and settings, baselines, partial
runs): no text may leave the figure or overlap another text."""

from __future__ import annotations

import dataclasses
import random

import pytest
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from uxbench.data.labels import FAILURE_DIMENSIONS, SCENARIOS
from uxbench.report import charts
from uxbench.report.labels import LABEL_CHARS
from uxbench.report.logs import Run
from uxbench.report.rows import Row
from uxbench.report.samples import Counts, Evidence
from uxbench.report.sections import task_table
from uxbench.report.spec import TASKS
from uxbench.stats.agreement import reliability_bins

MODELS = 27
GRADER = "openai-api/vllm/" + "a-stand-in-grader-with-a-long-name-" * 2


class _Given(Evidence):
    """Evidence without logs: fixed counts, a spread of Δ scores."""

    def counts_of(self, run: Run) -> Counts:
        groups = {
            "failure_dimension": {f: 4 + 6 * i for i, f in enumerate(FAILURE_DIMENSIONS)},
            "scenario": {s: 30 for s in SCENARIOS},
        }
        return Counts(100, {"good": 50, "bad": 50}, groups)

    def deltas(self, run: Run) -> list[float]:
        return [run.metrics["delta_score"] + d for d in (-0.2, 0.0, 0.2)] * 10

    def judgments(self, run: Run) -> list:
        return []  # no per-record results: the rankings' tests name the runs and test nothing


def _model(i: int) -> str:
    if i % 9 == 0:
        return "uxbench/baseline/always-good"
    return f"provider{i % 3}/organisation/some-very-long-model-name-v{i}-2026-01-01-preview-x"[:60]


def _runs(task: str, same_point: bool) -> list[Run]:
    rnd = random.Random(task)
    out = []
    for i in range(MODELS):
        good, bad = (0.6, 0.4) if same_point else (rnd.random(), rnd.random())
        metrics = {
            "avg_acc": (good + bad) / 2,
            "good_acc": good,
            "bad_acc": bad,
            "good_pct": good,
            "recovery_rate": bad / 3,
            "delta_score": rnd.uniform(-0.3, 0.3),
            "ece": 0.1,
            "p_good_rate": 1.0,
        }
        breakdown = {
            "failure_dimension": {f: rnd.random() for f in FAILURE_DIMENSIONS},
            "scenario": {s: rnd.random() for s in SCENARIOS},
        }
        args = {"-M reasoning_effort": "high"} if i % 4 == 0 else {}
        out.append(
            Run(
                log=f"/logs/{task}-{i}.eval",
                name=f"{task}-{i}.eval",
                task=task,
                model=_model(i),
                grader=None if task == "task1_judge" else GRADER,
                graders=(),
                settings={"prompt": "default", **args},
                explicit=frozenset(args),
                dataset_revision=None,
                created="2026-01-01T00:00:00",
                samples=100,
                total=100 if i % 7 else 200,
                partial=None if i % 7 else "ran 100 of 200 records",
                metrics=metrics,
                breakdown=breakdown,
            )
        )
    return out


@pytest.fixture(scope="module")
def figures() -> dict[str, Figure]:
    """Every chart of every task by file name, and (`same_…`) Task 1's scatter with all
    models at one point."""
    drawn: dict[str, Figure] = {}
    rnd = random.Random(0)

    def save(figure: Figure, name: str) -> None:
        drawn[name] = figure

    with rc_context(charts.style()):
        for task, spec in TASKS.items():
            (section,) = task_table(spec, _runs(task, False), _Given()).sections
            bins = {}
            if task == "task1_judge":
                p = [rnd.random() for _ in range(300)]
                bins = {
                    row.run.log: reliability_bins(p, [int(rnd.random() < x) for x in p])
                    for row in section.rows
                }
            for job in charts.chart_jobs(section, bins):
                charts.draw(job, save)
        (crowded,) = task_table(TASKS["task1_judge"], _runs("task1_judge", True), _Given()).sections
        charts.good_vs_bad(crowded, lambda figure, name: save(figure, "same_" + name))
    return drawn


KINDS = [
    "ranking",
    "good_vs_bad",
    "delta_score",
    "failure_dimension_heatmap",
    "scenario_heatmap",
    "reliability",
]


def test_every_chart_type_is_drawn(figures: dict[str, Figure]) -> None:
    for kind in KINDS:
        assert any(name.endswith(f"_{kind}.png") for name in figures), kind
    assert len(figures) == len(set(figures))


@pytest.mark.parametrize("kind", KINDS)
def test_no_text_leaves_the_figure_or_overlaps(figures: dict[str, Figure], kind: str) -> None:
    for name, figure in figures.items():
        if not name.endswith(f"_{kind}.png"):
            continue
        canvas = FigureCanvasAgg(figure)
        canvas.draw()  # places the axis labels
        renderer = canvas.get_renderer()
        width, height = figure.bbox.width, figure.bbox.height
        boxes = []
        for text in figure.findobj(Text):
            if not text.get_visible() or not text.get_text().strip():
                continue
            box = text.get_window_extent(renderer)
            inside = box.x0 >= -0.5 and box.y0 >= -0.5 and box.x1 <= width + 0.5 and box.y1 <= height + 0.5
            assert inside, (name, text.get_text(), box.bounds, (width, height))
            boxes.append((text.get_text(), box))
        for i, (first, a) in enumerate(boxes):
            for second, b in boxes[:i]:
                apart = a.x1 <= b.x0 + 0.5 or b.x1 <= a.x0 + 0.5 or a.y1 <= b.y0 + 0.5 or b.y1 <= a.y0 + 0.5
                assert apart, (name, first, second)


def test_labels_are_short_and_keyed(figures: dict[str, Figure]) -> None:
    figure = figures["task1_judge_ranking.png"]
    texts = [t.get_text() for t in figure.findobj(Text)]
    labels = [t for t in texts if t.endswith("]") and not t.startswith("[")]
    assert labels and all(len(t) <= LABEL_CHARS + 5 for t in labels)
    keys = [t for t in texts if t.startswith("[")]
    assert any(_model(1) in t for t in keys)  # the key gives the full name
    assert any("reasoning_effort=high" in t for t in keys)  # and the settings


def test_a_crowded_scatter_lists_what_it_cannot_label(figures: dict[str, Figure]) -> None:
    texts = [t.get_text() for t in figures["same_task1_judge_good_vs_bad.png"].findobj(Text)]
    assert "No room for a label: [" in " ".join(texts)  # wrapped lines joined again
    keys = [t for t in texts if t.startswith("[") and "] " in t]
    assert len(keys) == MODELS  # every model is in the key, labelled on the chart or not


def _drawn_reach(figure: Figure) -> float:
    """The right end of everything drawn on a ranking's axes: bars and whiskers."""
    ax = figure.axes[0]
    ends = [patch.get_x() + patch.get_width() for patch in ax.patches]
    ends += [max(line.get_xdata()) for line in ax.lines if len(line.get_xdata())]
    return max(ends)


def test_no_rate_chart_leaves_more_than_half_of_its_axis_empty(figures: dict[str, Figure]) -> None:
    rankings = {name: f for name, f in figures.items() if name.endswith("_ranking.png")}
    assert len(rankings) == 3
    for name, figure in rankings.items():
        low, high = figure.axes[0].get_xlim()
        assert low == 0 and (high - _drawn_reach(figure)) / high < 0.5, name


def _texts(figure: Figure) -> str:
    return " ".join(t.get_text() for t in figure.findobj(Text))


def test_a_low_rate_ranking_is_scaled_to_the_data_and_says_so() -> None:
    """Task 3 with every Recovery Rate under 13% of 500 records: the axis ends at 20% (past the
    whiskers), not 100%, with a note."""
    runs = [
        dataclasses.replace(run, samples=500, total=500, partial=None)
        for run in _runs("task3_recovery", False)[:6]
    ]
    for i, run in enumerate(runs):
        run.metrics["recovery_rate"] = 0.02 + 0.02 * i
    (section,) = task_table(TASKS["task3_recovery"], runs, _Given()).sections
    drawn: dict[str, Figure] = {}
    with rc_context(charts.style()):
        charts.ranking(section, lambda figure, name: drawn.setdefault(name, figure))
    (figure,) = drawn.values()
    low, high = figure.axes[0].get_xlim()
    assert (low, high) == (0, 20)
    assert (high - _drawn_reach(figure)) / high < 0.5
    assert f"Axis to {high:g}%" in _texts(figure) and "bars start at 0" in _texts(figure)
    assert "separable" in _texts(figure)  # n = 100: neighbours 2 points apart overlap


def test_separability_says_when_the_intervals_overlap() -> None:
    def row(rank: int, interval: tuple[float, float]) -> Row:
        run = _runs("task1_judge", False)[1]
        return Row(run, rank, rank, {}, 0.5, interval, "", None, None, None)

    apart = [row(1, (0.8, 0.9)), row(2, (0.5, 0.6)), row(3, (0.1, 0.2))]
    assert charts.separability(apart) == ""
    close = [row(1, (0.5, 0.7)), row(2, (0.45, 0.65)), row(3, (0.1, 0.2))]
    assert charts.separability(close).startswith("Partly separable: 1 of 2")
    assert charts.separability(close[:2]).startswith("Not separable")
