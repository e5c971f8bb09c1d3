"""PNG charts of the leaderboard, drawn with matplotlib's Agg canvas (no display needed).

Chinese labels need a font that has the glyphs; `cjk_font` finds one among the installed
fonts (Debian: fonts-noto-cjk or fonts-wqy-microhei) and matplotlib falls back to it glyph by
glyph. Without one, known labels are drawn with their English names and the report says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from matplotlib import font_manager, rc_context
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font

from uxbench.labels import english
from uxbench.report import published
from uxbench.report.tables import Leaderboard, Row, TaskTable, group_title

CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Noto Sans SC",
    "Microsoft YaHei",
    "PingFang SC",
    "SimHei",
    "Droid Sans Fallback",
)
PROBE = "冗余啰嗦意图信息与知识查询"
HEATMAP_KEYS = ("failure_dimension", "scenario")
BLUE, GREY, RED, GREEN = "#3b6fb6", "#9aa3ad", "#c4453c", "#3d8f5a"


@dataclass(frozen=True)
class Chart:
    file: str
    title: str
    task: str  # the task the chart belongs to


def _covers(path: str, text: str) -> bool:
    try:
        charmap = FT2Font(path).get_charmap()
    except (OSError, RuntimeError, ValueError):
        return False
    return all(ord(char) in charmap for char in text)


@cache
def cjk_font() -> str | None:
    """Family name of an installed font with Chinese glyphs, or None."""
    manager = font_manager.fontManager
    listed = {entry.fname for entry in manager.ttflist}
    for path in font_manager.findSystemFonts():
        if path not in listed:  # installed after matplotlib cached its font list
            try:
                manager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue
    by_name = {entry.name: entry.fname for entry in manager.ttflist}
    for family in CJK_FAMILIES:
        if family in by_name and _covers(by_name[family], PROBE):
            return family
    return next((name for name, path in sorted(by_name.items()) if _covers(path, PROBE)), None)


def _style() -> dict[str, object]:
    family = ["DejaVu Sans", *([cjk_font()] if cjk_font() else [])]
    return {
        "font.family": family,
        "font.size": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "savefig.dpi": 120,
    }


def _label(key: str, group: str) -> str:
    return group_title(key, group) if cjk_font() else english(group)


def _finish(figure: Figure, title: str, out_dir: Path, name: str, task: str) -> Chart:
    """Title the figure from its left edge (long titles are never cut off) and save it."""
    figure.suptitle(title, x=0.01, ha="left", fontsize=12)
    figure.tight_layout()
    figure.savefig(out_dir / name, format="png", facecolor="white")
    return Chart(name, title, task)


def _colour(row: Row) -> str:
    return GREY if row.baseline else BLUE


# ---------------------------------------------------------------- charts


def ranking(table: TaskTable, out_dir: Path) -> Chart:
    """Horizontal bars, best on top, with 95% intervals and the paper's value where published."""
    rows = table.rows
    figure = Figure(figsize=(8, 1.4 + 0.45 * len(rows)))
    ax = figure.subplots()
    y = list(range(len(rows)))[::-1]
    values = [100 * (row.headline or 0) for row in rows]
    ax.barh(y, values, color=[_colour(row) for row in rows], height=0.6)
    papers = [(row.published or {}).get(table.spec.headline.metric) for row in rows]
    for pos, row, value, paper in zip(y, rows, values, papers, strict=True):
        end = value
        if row.interval:
            low, end = (100 * v for v in row.interval)
            ax.errorbar(value, pos, xerr=[[value - low], [end - value]], color="#222", capsize=3, lw=1)
        ax.text(end + 1, pos, f"{value:.1f}" if row.headline is not None else "–", va="center", fontsize=9)
        if paper is not None:
            ax.plot(100 * paper, pos, marker="D", mfc="none", mec="#111", ms=7, ls="none")
    for name, reference_values in published.references(table.spec.name).items():
        reference = reference_values.get(table.spec.headline.metric)
        if reference is not None:
            ax.axvline(100 * reference, color="#888", ls="--", lw=1)
            ax.text(100 * reference, len(rows) - 0.45, f" {name}", fontsize=8, color="#555")
    ax.set_yticks(y, [row.label for row in rows])
    ax.set_xlim(0, 100)
    ax.set_ylim(-0.6, len(rows) - 0.2)
    marked = any(p is not None for p in papers)
    legend = "bars: 95% interval" + ("; ◇ published in the paper" if marked else "")
    ax.set_xlabel(f"{table.spec.headline.title} ({legend})")
    title = f"{table.spec.title}: {table.spec.headline.title}"
    return _finish(figure, title, out_dir, f"{table.spec.name}_ranking.png", table.spec.name)


def good_vs_bad(table: TaskTable, out_dir: Path) -> Chart:
    """Task 1: Good-Acc against Bad-Acc; below the diagonal a judge approves too readily."""
    figure = Figure(figsize=(6.5, 6.2))
    ax = figure.subplots()
    ax.fill_between([0, 100], [0, 0], [0, 100], color="#f4e3e1", zorder=0)
    ax.plot([0, 100], [0, 100], color="#888", ls="--", lw=1)
    ax.text(97, 4, "approval bias:\nGood-Acc > Bad-Acc", ha="right", va="bottom", color="#a0524b", fontsize=9)
    # paper models' labels alternate sides going up the Bad-Acc axis, so close neighbours do not
    # overlap; reference points (the human baseline) are labelled on the left
    models = sorted(published.paper_models(table.spec.name).items(), key=lambda item: item[1]["bad_acc"])
    points = [(name, values, i % 2 == 0) for i, (name, values) in enumerate(models)]
    points += [(name, values, False) for name, values in published.references(table.spec.name).items()]
    for name, values, right in points:
        xy = (100 * values["good_acc"], 100 * values["bad_acc"])
        ax.plot(*xy, "o", mfc="none", mec=GREY, ms=6)
        ax.annotate(name.split(" (")[0], xy, xytext=(5 if right else -5, -3), textcoords="offset points",
                    ha="left" if right else "right", fontsize=7, color="#777")  # fmt: skip
    for row in table.rows:
        good, bad = row.run.metrics.get("good_acc"), row.run.metrics.get("bad_acc")
        if good is None or bad is None:
            continue
        ax.plot(100 * good, 100 * bad, "o", color=_colour(row), ms=8)
        ax.annotate(row.label, (100 * good, 100 * bad), xytext=(5, 4), textcoords="offset points", fontsize=9)
    ax.set_xlim(0, 102)
    ax.set_ylim(0, 102)
    ax.set_aspect("equal")
    ax.set_xlabel("Good-Acc % (liked replies judged good)")
    ax.set_ylabel("Bad-Acc % (disliked replies judged bad)")
    title = "Task 1 · UX Judge: Good-Acc vs Bad-Acc (grey: paper, human)"
    return _finish(figure, title, out_dir, "task1_judge_good_vs_bad.png", table.spec.name)


def heatmap(table: TaskTable, key: str, out_dir: Path) -> Chart:
    """Per-group values (rows) across models (columns), 0–100 % on a red-to-green scale."""
    groups = table.breakdown(key)
    labels = [row.label for row in table.rows]
    grid = [[values[label] for label in labels] for values in groups.values()]
    figure = Figure(figsize=(4.5 + 1.3 * len(labels), 1.6 + 0.42 * len(groups)))
    ax = figure.subplots()
    shown = [[float("nan") if v is None else 100 * v for v in line] for line in grid]
    image = ax.imshow(shown, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    for i, line in enumerate(grid):
        for j, value in enumerate(line):
            text = "–" if value is None else f"{100 * value:.0f}"
            colour = "white" if value is not None and not 0.2 <= value <= 0.8 else "black"
            ax.text(j, i, text, ha="center", va="center", fontsize=9, color=colour)
    ax.set_xticks(range(len(labels)), labels, rotation=25, ha="right")
    ax.set_yticks(range(len(groups)), [_label(key, g) for g in groups])
    ax.tick_params(length=0)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    figure.colorbar(image, ax=ax, fraction=0.04, pad=0.02, label="%")
    title = f"{table.spec.title}: {table.breakdown_meaning(key)}"
    return _finish(figure, title, out_dir, f"{table.spec.name}_{key}_heatmap.png", table.spec.name)


def delta_scores(table: TaskTable, out_dir: Path) -> Chart:
    """Task 3: mean score gain of the repair over the failed reply, per model."""
    rows = [row for row in table.rows if row.run.metrics.get("delta_score") is not None]
    rows.sort(key=lambda row: -(row.run.metrics["delta_score"] or 0))
    figure = Figure(figsize=(8, 1.4 + 0.45 * len(rows)))
    ax = figure.subplots()
    y = list(range(len(rows)))[::-1]
    deltas = [row.run.metrics["delta_score"] or 0.0 for row in rows]
    ax.barh(y, deltas, color=[GREEN if d >= 0 else RED for d in deltas], height=0.6)
    for pos, delta in zip(y, deltas, strict=True):
        ax.text(delta, pos, f" {delta:+.3f} ", va="center", ha="left" if delta >= 0 else "right", fontsize=9)
    ax.axvline(0, color="#222", lw=1)
    limit = max(0.05, *(abs(d) for d in deltas)) * 1.3
    ax.set_xlim(-limit, limit)
    ax.set_yticks(y, [row.label for row in rows])
    ax.set_xlabel("mean(score of the repair − score of the failed reply)")
    title = "Task 3 · UX Recovery: score gain of the repair over the failed reply"
    return _finish(figure, title, out_dir, "task3_recovery_delta_score.png", table.spec.name)


def draw_all(board: Leaderboard, out_dir: Path) -> list[Chart]:
    """Every chart the logs allow, in page order."""
    charts: list[Chart] = []
    with rc_context(_style()):
        for table in board.tables:
            charts.append(ranking(table, out_dir))
            if table.spec.name == "task1_judge":
                charts.append(good_vs_bad(table, out_dir))
            if any(row.run.metrics.get("delta_score") is not None for row in table.rows):
                charts.append(delta_scores(table, out_dir))
            charts += [heatmap(table, key, out_dir) for key in HEATMAP_KEYS if key in table.breakdown_keys()]
    return charts
