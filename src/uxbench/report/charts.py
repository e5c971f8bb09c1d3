"""PNG charts of the leaderboard, drawn with matplotlib's Agg canvas (no display needed).

Every figure is laid out in inches from its content, not from a fixed size: the margins
from the widest label as the renderer measures it, a fixed height per row, the title and
the key wrapped to the figure's width. So with 27 models and 60-character names no text
is cut off or drawn over another (tests/test_report.py checks every text artist).

Labels are short (the model name without its provider path, cut in the middle past 28
characters); a label with a number `[k]` has a line in the key under the chart with the
full name and the settings that tell it apart. Chinese labels need a font with the glyphs
(fonts.py); without one, known labels are drawn by their English names.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from itertools import pairwise

from matplotlib import rc_context, rcParams
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from uxbench.data.labels import english
from uxbench.report import paper_numbers
from uxbench.report.fonts import cjk_font, drawable
from uxbench.report.labels import FEW, fmt, group_title, shorten
from uxbench.report.percent import pct
from uxbench.report.rows import Row
from uxbench.report.sections import Section
from uxbench.report.separation import Ranking
from uxbench.stats.agreement import Bin

DPI = 120
PAD = 0.15  # inches around the figure's content
TITLE, TEXT, SMALL, TINY = 11.0, 9.0, 8.0, 6.5  # font sizes, points
LINE = 1.45  # line height as a multiple of the font size
ROW = 0.32  # inches per bar
HEATMAP_KEYS = ("failure_dimension", "scenario")
BLUE, GREY, RED, GREEN, LIGHT = "#3b6fb6", "#9aa3ad", "#c4453c", "#3d8f5a", "#e6e8eb"
PURPLE = "#7b57a8"  # a person (uxbench/human)
PERCENT_TICKS = [0, 20, 40, 60, 80, 100]
Save = Callable[[Figure, str], None]  # writes a figure as a PNG file of the given name


@dataclass(frozen=True)
class Chart:
    file: str
    title: str
    task: str
    section: str  # id of the section (task and grader) it belongs to


def style() -> dict[str, object]:
    family = ["DejaVu Sans", *([cjk_font()] if cjk_font() else [])]
    return {
        "font.family": family,
        "font.size": TEXT,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "text.parse_math": False,  # a `$` in a model name is text, not mathtext
        "savefig.dpi": DPI,
    }


# ---------------------------------------------------------------- measuring and laying out


@cache
def _scratch() -> tuple[Figure, object]:
    figure = Figure(dpi=DPI)
    return figure, FigureCanvasAgg(figure).get_renderer()


@cache
def _measure(text: str, size: float, rotation: float, family: tuple[str, ...]) -> tuple[float, float]:
    figure, renderer = _scratch()
    artist = figure.text(0, 0, text, fontsize=size, rotation=rotation, family=list(family))
    box = artist.get_window_extent(renderer)
    artist.remove()
    return box.width / DPI, box.height / DPI


def measure(text: str, size: float = TEXT, rotation: float = 0) -> tuple[float, float]:
    """Width and height in inches of one line of text as the Agg renderer draws it."""
    return _measure(text, size, rotation, tuple(rcParams["font.family"]))


def wrap(text: str, width: float, size: float) -> list[str]:
    """Lines of at most `width` inches; a word longer than that is cut where it must be."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if measure(candidate, size)[0] <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while measure(word, size)[0] > width:
            cut = next(i for i in range(len(word), 0, -1) if measure(word[:i], size)[0] <= width or i == 1)
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    return [*lines, line] if line else lines


def _height(lines: int, size: float) -> float:
    return lines * size * LINE / 72


def fit(text: str, width: float, size: float) -> str:
    """The text, cut in the middle until it is at most `width` inches wide."""
    limit = len(text)
    while limit > 4 and measure(shorten(text, limit), size)[0] > width:
        limit -= 1
    return shorten(text, limit)


class Sheet:
    """A figure laid out top to bottom in inches: title lines, a body band the chart draws
    its axes in, key lines."""

    def __init__(self, width: float, title: str, body: float, footer: Sequence[str]) -> None:
        inner = width - 2 * PAD
        titles = wrap(drawable(title), inner, TITLE)
        keys = [line for text in footer for line in wrap(drawable(text), inner, SMALL)]
        self.bottom = PAD + _height(len(keys), SMALL) + (0.05 if keys else 0)
        self.width, self.height = width, self.bottom + body + _height(len(titles), TITLE) + PAD
        self.figure = Figure(figsize=(width, self.height), dpi=DPI)
        for i, line in enumerate(titles):
            self.text(PAD, self.height - PAD - i * TITLE * LINE / 72, line, fontsize=TITLE, va="top")
        for i, line in enumerate(keys):
            self.text(
                PAD, self.bottom - 0.05 - i * SMALL * LINE / 72, line, fontsize=SMALL, va="top", color="#333"
            )

    def text(self, x: float, y: float, text: str, **style: object) -> None:
        """Text at (x, y) inches from the figure's bottom left."""
        self.figure.text(x / self.width, y / self.height, drawable(text), **style)

    def y_of(self, ax: Axes, y: float) -> float:
        """Inches from the figure's bottom of the data height `y` in `ax` (limits set)."""
        low, high = ax.get_ylim()
        box = ax.get_position()
        return (box.y0 + (y - low) / (high - low) * box.height) * self.height

    def axes(self, left: float, bottom: float, width: float, height: float) -> Axes:
        """Axes at `left` inches and `bottom` inches above the body band's bottom."""
        box = [
            left / self.width,
            (self.bottom + bottom) / self.height,
            width / self.width,
            height / self.height,
        ]
        return self.figure.add_axes(box)

    def save(self, save: Save, name: str, title: str, section: Section) -> Chart:
        save(self.figure, name)
        return Chart(name, title, section.spec.name, section.id)


def _colour(row: Row) -> str:
    return GREY if row.baseline else PURPLE if row.run.human else BLUE


def _labels(rows: Sequence[Row]) -> list[str]:
    return [drawable(row.chart_label()) for row in rows]


def key_lines(rows: Sequence[Row], section: Section) -> list[str]:
    """The chart key: the settings every row shares, then one line per row whose label has
    a number."""
    return [text for text in (section.common_text(),) if text] + [row.key_line() for row in rows if row.keyed]


def group_label(key: str, group: str) -> str:
    """A breakdown group as drawn: bilingual with a Chinese font, else the English name."""
    return group_title(key, group) if cjk_font() else english(group)


def _widest(texts: Sequence[str], size: float = TEXT, rotation: float = 0) -> float:
    return max((measure(t, size, rotation)[0 if rotation == 0 else 1] for t in texts), default=0.0)


# ---------------------------------------------------------------- ranking and Δ score


def _bars(
    rows: list[Row],
    values: list[float | None],
    intervals: list[tuple[float, float] | None],
    limits: tuple[float, float],
    ticks: list[float],
    colours: list[str],
    title: str,
    axis: str,
    footer: list[str],
    shown: list[str],
) -> tuple[Sheet, Axes, list[float]]:
    """Horizontal bars, first row on top, interval whiskers, and each value in a column right
    of the axes (where no bar or whisker can reach it)."""
    labels = _labels(rows)
    left = PAD + _widest(labels) + 0.12
    plot_width = 5.0
    width = left + plot_width + 0.1 + _widest(shown, SMALL) + PAD
    plot_height = ROW * len(rows) + 0.35
    sheet = Sheet(width, title, plot_height + 0.62, footer)
    ax = sheet.axes(left, 0.62, plot_width, plot_height)
    y = [float(len(rows) - 1 - i) for i in range(len(rows))]
    ax.set_xlim(*limits)
    ax.set_xticks(ticks)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    bars = ax.barh(y, [v or 0.0 for v in values], color=colours, height=0.62, zorder=2)
    for patch, row in zip(bars.patches, rows, strict=True):
        if row.run.partial:  # a partial run: hatched and paler, not ranked
            patch.set(hatch="///", alpha=0.55, edgecolor="white")
    for pos, value, interval, text in zip(y, values, intervals, shown, strict=True):
        if value is not None and interval is not None:
            whisker = [[max(0.0, value - interval[0])], [max(0.0, interval[1] - value)]]
            ax.errorbar(value, pos, xerr=whisker, color="#222", capsize=3, lw=1, zorder=4)
        sheet.text(left + plot_width + 0.1, sheet.y_of(ax, pos), text, fontsize=SMALL, va="center")
    ax.set_yticks(y, labels)
    ax.tick_params(axis="y", length=0)
    ax.set_xlabel(drawable(axis), fontsize=TEXT)
    return sheet, ax, y


def rate_axis(reach: Iterable[float | None]) -> tuple[float, list[float]]:
    """The upper end of a rate axis in percent and its ticks: 0 stays the bars' baseline and the
    axis ends at the first round tick past everything drawn (bars, whiskers, marks), so less than
    half of it is ever empty (the tick step is under half the data's reach); 0–100 once the data
    pass 50%."""
    top = max((v for v in reach if v is not None), default=0.0)
    if top >= 50:
        return 100.0, PERCENT_TICKS
    ticks = MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]).tick_values(0, max(top * 1.02, 1.0))
    upper = float(min(ticks[-1], 100.0))
    return upper, [float(t) for t in ticks if 0 <= t <= upper]


def separability(rows: Sequence[Row], tested: Ranking | None = None) -> str:
    """How far the ranked rows' order is established: the section's pairwise tests when it has
    them (report/separation.py: the share of pairs that differ after Holm), else how many
    neighbouring pairs' 95% intervals overlap ("" when every neighbour stands apart)."""
    if tested is not None and not math.isnan(share := tested.result.separability):
        verdict = "Not separable" if share == 0 else "Partly separable" if share < 1 else "Separable"
        return f"{verdict}: {tested.summary()}."
    ranked = [row.interval for row in rows if row.rank is not None and row.interval is not None]
    pairs = list(pairwise(ranked))
    overlapping = sum(lower[1] >= upper[0] for upper, lower in pairs)
    if not overlapping:
        return ""
    if overlapping == len(pairs):
        return (
            "Not separable: every row's 95% interval overlaps its neighbour's (the order is not established)."
        )
    return (
        f"Partly separable: {overlapping} of {len(pairs)} neighbouring pairs have overlapping 95% intervals "
        "(their order is not established)."
    )


SAMPLE_CHART_NOTE = "The bundled synthetic sample: not comparable with the paper's numbers."


def _references(section: Section) -> dict[str, dict[str, float]]:
    """The paper's reference points (the human baseline), none beside synthetic records."""
    return {} if section.synthetic else paper_numbers.references(section.spec.name)


def ranking(section: Section, save: Save) -> Chart:
    """The headline per row, best on top, with its 95% interval; ◇ the paper's value where
    the settings match the paper's, a dashed line the human baseline (Task 1)."""
    spec = section.spec
    rows = section.rows
    values = [None if row.headline is None else 100 * row.headline for row in rows]
    intervals = [(100 * r.interval[0], 100 * r.interval[1]) if r.interval else None for r in rows]
    papers = [(row.published or {}).get(spec.headline.metric) for row in rows]
    notes = [SAMPLE_CHART_NOTE] if section.synthetic else []
    notes.append("Whiskers: 95% interval.")
    if any(p is not None for p in papers):
        notes.append("◇ published in the paper (same settings).")
    references = {n: v.get(spec.headline.metric) for n, v in _references(section).items()}
    references = {n: v for n, v in references.items() if v is not None}
    notes += [f"Dashed line: {name} ({fmt(v)})." for name, v in references.items()]
    if any(row.run.partial for row in rows):
        notes.append("Hatched: partial run (not ranked).")
    if any(row.run.human for row in rows):
        notes.append("Purple: a person (uxbench/human) on the records judged, not ranked.")
    reach = [*values, *(i[1] for i in intervals if i), *(100 * p for p in papers if p is not None)]
    upper, ticks = rate_axis([*reach, *(100 * v for v in references.values())])
    axis = spec.headline.title
    if upper < 100:
        notes.insert(0, f"Axis to {upper:g}% (scaled to the data; bars start at 0).")
        axis += f" (axis to {upper:g}%)"
    title = f"{section.title}: {spec.headline.title}"
    tested = separability(rows, section.separation)
    footer = [text for text in (tested, " ".join(notes)) if text] + key_lines(rows, section)
    colours = [_colour(row) for row in rows]
    shown = [fmt(row.headline) for row in rows]
    sheet, ax, y = _bars(rows, values, intervals, (0, upper), ticks, colours, title, axis, footer, shown)
    for pos, paper in zip(y, papers, strict=True):
        if paper is not None:
            ax.plot(100 * paper, pos, marker="D", mfc="none", mec="#111", ms=7, ls="none", zorder=5)
    for value in references.values():
        ax.axvline(100 * value, color="#888", ls="--", lw=1, zorder=1)
    return sheet.save(save, f"{section.id}_ranking.png", title, section)


def delta_scores(section: Section, save: Save) -> Chart | None:
    """Task 3: the mean score gain of the repair over the failed reply, with its interval."""
    rows = [row for row in section.rows if row.run.metrics.get("delta_score") is not None]
    if not rows:
        return None
    rows.sort(key=lambda row: -(row.run.metrics["delta_score"] or 0))
    deltas = [row.run.metrics["delta_score"] for row in rows]
    intervals = [row.delta_interval for row in rows]
    reach = [abs(v) for v in deltas if v is not None] + [abs(e) for i in intervals if i for e in i]
    limit = max(0.05, *reach) * 1.1
    ticks = [
        t for t in MaxNLocator(nbins=6, symmetric=True).tick_values(-limit, limit) if -limit <= t <= limit
    ]
    colours = [GREEN if (d or 0) >= 0 else RED for d in deltas]
    title = f"{section.title}: score gain of the repair over the failed reply"
    footer = [
        "Bars: mean(score of the repair − score of the failed reply); "
        "whiskers: 95% studentised bootstrap interval.",
        *key_lines(rows, section),
    ]
    shown = [fmt(d, "delta") for d in deltas]
    sheet, ax, _ = _bars(
        rows, deltas, intervals, (-limit, limit), ticks, colours, title, "Δ score", footer, shown
    )
    ax.axvline(0, color="#222", lw=1)
    return sheet.save(save, f"{section.id}_delta_score.png", title, section)


# ---------------------------------------------------------------- Task 1: Good-Acc vs Bad-Acc

Box = tuple[float, float, float, float]  # left, bottom, right, top in inches


@dataclass
class _Placer:
    """Greedy label placement in inches inside an axes: a label goes to the first spot of
    rings around its point that overlaps no placed label and no point and stays inside;
    a label that fits nowhere is not drawn (the caller lists it instead)."""

    width: float
    height: float
    points: list[tuple[float, float]]
    taken: list[Box]

    def place(self, x: float, y: float, w: float, h: float) -> tuple[float, float] | None:
        for d in (0.08, 0.18, 0.3):
            e = 0.7 * d
            spots = [
                (x + d, y - h / 2),  # right
                (x - d - w, y - h / 2),  # left
                (x - w / 2, y + d),  # above
                (x - w / 2, y - d - h),  # below
                (x + e, y + e),
                (x + e, y - e - h),
                (x - e - w, y + e),
                (x - e - w, y - e - h),
            ]
            for left, bottom in spots:
                box = (left, bottom, left + w, bottom + h)
                if self._free(box):
                    self.taken.append(box)
                    return left, bottom
        return None

    def _free(self, box: Box) -> bool:
        x0, y0, x1, y1 = box
        if x0 < 0.03 or y0 < 0.03 or x1 > self.width - 0.03 or y1 > self.height - 0.03:
            return False
        if any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in self.taken):
            return False
        return not any(x0 - 0.04 < px < x1 + 0.04 and y0 - 0.04 < py < y1 + 0.04 for px, py in self.points)


def good_vs_bad(section: Section, save: Save) -> Chart:
    """Task 1: Good-Acc against Bad-Acc; below the diagonal a judge approves too readily.
    Labels are placed where they overlap nothing: the short name, else the key number, else
    none (the key lists the row)."""
    side, span = 6.0, 102.0
    inch = side / span
    metrics = [r.run.metrics for r in section.rows]
    rows = [
        r
        for r, m in zip(section.rows, metrics, strict=True)
        if m.get("good_acc") is not None and m.get("bad_acc") is not None
    ]
    paper = [] if section.synthetic else [*paper_numbers.paper_models(section.spec.name).items()]
    paper += list(_references(section).items())
    paper_points = [(100 * v["good_acc"] * inch, 100 * v["bad_acc"] * inch) for _, v in paper]
    row_points = [
        (100 * (r.run.metrics["good_acc"] or 0) * inch, 100 * (r.run.metrics["bad_acc"] or 0) * inch)
        for r in rows
    ]
    corner = "approval bias: Good-Acc > Bad-Acc"
    cw, ch = measure(corner, SMALL)
    placer = _Placer(side, side, paper_points + row_points, [(side - cw - 0.1, 0.08, side - 0.1, 0.08 + ch)])
    placed: list[tuple[str, float, float, float, str]] = []  # text, x, y, size, colour
    for (name, _), point in zip(paper, paper_points, strict=True):
        label = drawable(name.split(" (")[0])
        if spot := placer.place(*point, *measure(label, TINY)):
            placed.append((label, *spot, TINY, "#777"))
    listed: list[Row] = []  # rows the key must name: labelled by number, or not at all
    unlabelled: list[Row] = []
    for row, point in zip(rows, row_points, strict=True):
        for label in (drawable(row.chart_label()), f"[{row.ref}]"):
            if spot := placer.place(*point, *measure(label, SMALL)):
                placed.append((label, *spot, SMALL, "#111"))
                if row.keyed or label.startswith("["):
                    listed.append(row)
                break
        else:
            listed.append(row)
            unlabelled.append(row)
    note = f"{SAMPLE_CHART_NOTE} " if section.synthetic else ""
    note += "Grey: the paper's models and the human baseline. " if paper else ""
    note += "Shaded: approval bias (liked replies recognised more often than disliked ones)."
    if any(row.run.human for row in rows):
        note += " Purple: a person (uxbench/human)."
    if unlabelled:
        note += " No room for a label: " + ", ".join(f"[{r.ref}]" for r in unlabelled) + "."
    footer = [note, *([section.common_text()] if section.common else []), *(r.key_line() for r in listed)]
    title = f"{section.title}: Good-Acc vs Bad-Acc"
    left = PAD + measure("100", SMALL)[0] + measure("Bad-Acc", TEXT)[1] + 0.3
    sheet = Sheet(left + side + PAD + 0.1, title, side + 0.62, footer)
    ax = sheet.axes(left, 0.62, side, side)
    ax.fill_between([0, span], [0, 0], [0, span], color="#f4e3e1", zorder=0)
    ax.plot([0, span], [0, span], color="#888", ls="--", lw=1)
    ax.set_xlim(0, span)
    ax.set_ylim(0, span)
    ax.set_xticks(PERCENT_TICKS)
    ax.set_yticks(PERCENT_TICKS)
    for x, y in paper_points:
        ax.plot(x / inch, y / inch, "o", mfc="none", mec=GREY, ms=6)
    for row, (x, y) in zip(rows, row_points, strict=True):
        colour = _colour(row)
        ax.plot(x / inch, y / inch, "o", color=colour, ms=7, mfc="white" if row.run.partial else colour)
    x0, y0 = left, sheet.bottom + 0.62
    sheet.text(x0 + side - cw - 0.1, y0 + 0.08, corner, fontsize=SMALL, color="#a0524b", va="bottom")
    for text, x, y, size, colour in placed:
        sheet.text(x0 + x, y0 + y, text, fontsize=size, color=colour, va="bottom")
    ax.set_xlabel("Good-Acc % (liked replies judged good)")
    ax.set_ylabel("Bad-Acc % (disliked replies judged bad)")
    return sheet.save(save, f"{section.id}_good_vs_bad.png", title, section)


# ---------------------------------------------------------------- heat maps


def heatmap(section: Section, key: str, save: Save) -> Chart:
    """Per-group values across rows, 0–100 % from red to green, each cell with its record
    count; cells with fewer than FEW records are grey. Models run down the side when there
    are more of them than groups, so the figure stays readable at 27 models."""
    groups = section.breakdown(key)
    rows = section.rows
    group_names = [drawable(group_label(key, g)) for g in groups]
    models_down = len(rows) > len(groups)
    side_labels = _labels(rows) if models_down else group_names
    top_labels = group_names if models_down else _labels(rows)
    grid = [list(values) for values in groups.values()]  # [group][row]
    if models_down:
        grid = [list(column) for column in zip(*grid, strict=True)]  # [row][group]
    cell_w, cell_h = 0.62, 0.42
    left = PAD + _widest(side_labels) + 0.1
    under = _widest(top_labels, TEXT, 90) + 0.15
    plot_w, plot_h = cell_w * len(top_labels), cell_h * len(side_labels)
    bar = 0.6  # colour bar and its labels
    title = f"{section.title}: {section.breakdown_meaning(key)}"
    footer = [
        f"Each cell: value % and (n) records; grey: fewer than {FEW} records.",
        *key_lines(rows, section),
    ]
    width = max(left + plot_w + 0.2 + bar + PAD, 6.0)
    sheet = Sheet(width, title, plot_h + under + 0.1, footer)
    ax = sheet.axes(left, under, plot_w, plot_h)
    shown = [
        [float("nan") if v is None or (n is not None and n < FEW) else 100 * v for v, n in line]
        for line in grid
    ]
    image = ax.imshow(shown, cmap="RdYlGn", norm=Normalize(0, 100), aspect="auto")
    ax.set_facecolor(LIGHT)
    for i, line in enumerate(grid):
        for j, (value, n) in enumerate(line):
            few = n is not None and n < FEW
            dark = value is not None and not few and not 0.2 <= value <= 0.8
            colour = "#777" if few else "white" if dark else "black"
            ax.text(
                j,
                i - 0.13,
                pct(value),
                ha="center",
                va="center",
                fontsize=SMALL,
                color=colour,
            )
            if n is not None:
                ax.text(j, i + 0.24, f"n={n}", ha="center", va="center", fontsize=TINY - 1, color=colour)
    ax.set_xticks(range(len(top_labels)), top_labels, rotation=90)
    ax.set_yticks(range(len(side_labels)), side_labels)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    colourbar = sheet.axes(left + plot_w + 0.2, under, 0.15, min(plot_h, 3.0))
    sheet.figure.colorbar(image, cax=colourbar)
    colourbar.tick_params(labelsize=SMALL)
    return sheet.save(save, f"{section.id}_{key}_heatmap.png", title, section)


# ---------------------------------------------------------------- reliability diagrams


def reliability(section: Section, bins: dict[str, list[Bin]], save: Save) -> Chart:
    """Task 1: one reliability diagram per row that had P(good), in a grid: the share of
    liked replies against the mean P(good) per bin; on the diagonal a judge is calibrated."""
    rows = [row for row in section.rows if row.run.log in bins]
    columns = min(4, len(rows))
    panel, gap_x, gap_y = 2.3, 0.55, 0.75
    left = PAD + 0.55
    width = left + columns * panel + (columns - 1) * gap_x + PAD
    lines = -(-len(rows) // columns)
    title = f"{section.title}: reliability of P(good)"
    footer = [
        "Bars: share of replies the users liked per bin of the judge's P(good) (bins of 0.1), with the bin's "
        "record count; dashed: perfect calibration. x: P(good); y: share liked.",
        *key_lines(rows, section),
    ]
    body = lines * (panel + gap_y) + 0.1
    sheet = Sheet(width, title, body, footer)
    for index, row in enumerate(rows):
        r, c = divmod(index, columns)
        x = left + c * (panel + gap_x)
        y = body - (r + 1) * (panel + gap_y) + 0.35
        ax = sheet.axes(x, y, panel, panel)
        ax.plot([0, 1], [0, 1], color="#888", ls="--", lw=1)
        filled = [b for b in bins[row.run.log] if b.count]
        ax.bar([b.low for b in filled], [b.frequency for b in filled], width=0.1, align="edge",
               color=_colour(row), alpha=0.35, edgecolor="#555")  # fmt: skip
        ax.plot([b.confidence for b in filled], [b.frequency for b in filled], "o-", color="#222", ms=3)
        for b in filled:
            ax.text(
                b.low + 0.05,
                0.02,
                str(b.count),
                ha="center",
                va="bottom",
                rotation=90,
                fontsize=TINY - 1,
                color="#333",
            )
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"])
        ax.set_yticks([0, 0.5, 1], ["0", "0.5", "1"])
        ax.tick_params(labelsize=SMALL)
        ece = row.run.metrics.get("ece")
        heading = fit(drawable(row.chart_label()), panel, SMALL)
        top = sheet.bottom + y + panel
        sheet.text(x, top + 0.22, heading, fontsize=SMALL, va="bottom")
        ece_text = f"ECE {ece:.3f}" if ece is not None else "ECE –"
        sheet.text(x, top + 0.06, ece_text, fontsize=SMALL, va="bottom", color="#555")
    return sheet.save(save, f"{section.id}_reliability.png", title, section)


# one chart to draw: its kind, the section, a heat map's breakdown key, reliability bins
Job = tuple[str, Section, str, dict[str, list[Bin]]]


def chart_jobs(section: Section, bins: dict[str, list[Bin]]) -> list[Job]:
    """Every chart of one section the logs allow, in page order."""
    jobs: list[Job] = [("ranking", section, "", {})]
    if section.spec.name == "task1_judge":
        jobs.append(("good_vs_bad", section, "", {}))
    if any(row.run.metrics.get("delta_score") is not None for row in section.rows):
        jobs.append(("delta_score", section, "", {}))
    keys = section.breakdown_keys()
    jobs += [("heatmap", section, key, {}) for key in HEATMAP_KEYS if key in keys]
    if bins:
        jobs.append(("reliability", section, "", bins))
    return jobs


def draw(job: Job, save: Save) -> Chart | None:
    """Draw one chart (within `style()`) and hand it to `save`."""
    kind, section, key, bins = job
    if kind == "heatmap":
        return heatmap(section, key, save)
    if kind == "reliability":
        return reliability(section, bins, save)
    return {"ranking": ranking, "good_vs_bad": good_vs_bad, "delta_score": delta_scores}[kind](section, save)


def render(job: Job) -> tuple[Chart, bytes] | None:
    """One chart as PNG bytes (a worker process draws it; the caller writes the file)."""
    pngs: dict[str, bytes] = {}

    def save(figure: Figure, name: str) -> None:
        buffer = BytesIO()
        figure.savefig(buffer, format="png", facecolor="white", dpi=DPI)
        pngs[name] = buffer.getvalue()

    with rc_context(style()):
        chart = draw(job, save)
    return (chart, pngs[chart.file]) if chart else None
