"""One self-contained static page: inline CSS and JS, charts as base64 PNG, nothing fetched.

Layout: numbers first: the title, then "Sections" (links) and "How to read this page" (the
methods and every column's meaning, also its header's tooltip) folded away; per task one block
per grader and data (the ranking, its charts, a person's runs beside the others (Task 1), the
trust checks that qualify it, then the breakdowns folded away); the grader checks; the skipped
logs last. Tables scroll sideways with the model column pinned, so the page works at 390 px; a
header sorts its table by click or by Enter / Space (grid.py).
"""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from uxbench.report import paper_numbers
from uxbench.report.captions import FEW_NOTE, INTERVALS, PAPER_NOTE
from uxbench.report.charts import Chart
from uxbench.report.columns import has_grm_column, section_columns
from uxbench.report.grid import breakable, html_linked
from uxbench.report.grid import html as grid_html
from uxbench.report.paired import NOTE as PAIRED_NOTE
from uxbench.report.paired import paired_grid
from uxbench.report.people import NOTE as AGREEMENT_NOTE
from uxbench.report.people import agreement_grid, agreement_text
from uxbench.report.qualified import CHECKS_NOTE, METHOD, checks_grid
from uxbench.report.section_grids import breakdown_grid, section_grid, skipped_grid
from uxbench.report.sections import Leaderboard, Section, TaskTable
from uxbench.report.separation import NOTE as SEPARATION_NOTE
from uxbench.report.separation import separation_grid
from uxbench.report.token_usage_grid import NOTE as USAGE_NOTE
from uxbench.report.token_usage_grid import usage_grid
from uxbench.report.trust import INTRO, RELIABILITY, STYLE_METHOD, SectionTrust, style_grid, style_text

CSS = """
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC",
  "WenQuanYi Micro Hei", "PingFang SC", "Microsoft YaHei", sans-serif; margin: 0; color: #1d232a;
  background: #f6f7f9; line-height: 1.4; }
header, main, footer { max-width: 1280px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 16px; }
h1 { margin: 0 0 4px; font-size: 26px; }
h2 { margin: 8px 0 10px; font-size: 21px; border-bottom: 2px solid #3b6fb6; padding-bottom: 4px; }
h3 { margin: 18px 0 6px; font-size: 17px; overflow-wrap: break-word; }
h4 { margin: 16px 0 4px; font-size: 15px; }
p.meta, footer, .note { color: #555; font-size: 13px; overflow-wrap: anywhere; }
nav { background: #fff; border-radius: 8px; padding: 8px 14px; margin: 10px 0;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); font-size: 14px; }
nav ul { margin: 0; padding-left: 18px; }
nav a { color: #3b6fb6; overflow-wrap: anywhere; }
section.task { background: #fff; border-radius: 8px; padding: 6px 16px 14px; margin: 16px 0;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.scrollbox { position: relative; margin: 8px 0; }
.scroll { overflow-x: auto; max-width: 100%; }
.scrollbox.more::after { content: ""; position: absolute; top: 0; right: 0; bottom: 1.6em; width: 28px;
  pointer-events: none; background: linear-gradient(to right, rgba(29,35,42,0), rgba(29,35,42,.18)); }
.scroll-hint { display: none; margin: 2px 0 0; font-size: 12px; color: #3b6fb6; text-align: right; }
.scrollbox.more .scroll-hint { display: block; }
table { border-collapse: separate; border-spacing: 0; font-size: 13px; }
th, td { padding: 5px 9px; border-bottom: 1px solid #e3e6ea; text-align: right; white-space: nowrap;
  background: #fff; }
th { background: #eef2f7; position: sticky; top: 0; z-index: 1; }
th button { all: unset; cursor: pointer; font-weight: 600; }
th button:focus-visible { outline: 2px solid #3b6fb6; outline-offset: 2px; }
th:hover { background: #dfe7f1; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
td.text, th.text { text-align: left; }
.pin { position: sticky; left: 0; z-index: 2; box-shadow: 1px 0 0 #e3e6ea; }
.pin wbr { display: none; }
th.pin { z-index: 3; }
tr.baseline td { color: #6b737c; font-style: italic; }
tr.partial td { color: #5f666e; background: #fbf7ee; }
tr.human td { background: #f3eefa; }
td.muted { color: #646b73; font-style: italic; }
.charts { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
figure { margin: 6px 0; max-width: 100%; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid #e3e6ea; border-radius: 4px; }
button.zoom { all: unset; display: block; max-width: 100%; cursor: zoom-in; }
button.zoom:focus-visible { outline: 2px solid #3b6fb6; outline-offset: 2px; }
figure.full { position: fixed; inset: 0; z-index: 20; margin: 0; padding: 8px; max-width: none;
  overflow: auto; background: #fff; }
figure.full img { max-width: none; }
figure.full button.zoom { cursor: zoom-out; max-width: none; }
body.zoomed { overflow: hidden; }
.zoom-bar { display: none; }
figure.full .zoom-bar { display: block; position: sticky; left: 0; top: 0; z-index: 1; margin: 0 0 6px;
  width: calc(100vw - 16px); padding: 6px 10px; border-radius: 6px; background: #1d232a; color: #fff;
  font-size: 13px; }
.zoom-bar .wide-only { display: none; }
figure.full.wider .zoom-bar .wide-only { display: inline; }
figcaption { font-size: 12px; color: #555; overflow-wrap: anywhere; }
details { margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
header details { display: inline-block; vertical-align: top; margin: 0 14px 4px 0; font-size: 14px; }
header details[open] { display: block; }
.howto dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: 13px;
  margin: 4px 0; }
.howto dt { font-weight: 600; }
.howto dd { margin: 0; color: #555; }
th[title] button { text-decoration: underline dotted #9aa3ad; text-underline-offset: 3px; }
.trust { border-left: 3px solid #d9c27a; padding-left: 10px; margin: 12px 0; }
@media (max-width: 600px) {
  header, main, footer { padding: 0 8px; }
  section.task { padding: 4px 8px 10px; }
  .pin { white-space: normal; min-width: 8em; max-width: 11em; overflow-wrap: break-word; }
  .pin wbr { display: inline; }
  th, td { padding: 4px 6px; }
  .howto dl { grid-template-columns: 1fr; }
  .howto dd { margin-bottom: 4px; }
}
"""

JS = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, index) {
    th.querySelector("button").addEventListener("click", function () {
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(heads, function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var numeric = th.dataset.type === "num";
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[index].dataset.sort, y = b.cells[index].dataset.sort;
        if (x === "" || y === "") { return (x === "") - (y === ""); }
        var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
function markOverflow() {
  document.querySelectorAll(".scrollbox").forEach(function (box) {
    var scroll = box.firstElementChild;
    var more = scroll.scrollLeft + scroll.clientWidth < scroll.scrollWidth - 2;
    box.classList.toggle("more", more);
  });
}
document.querySelectorAll(".scroll").forEach(function (scroll) {
  scroll.addEventListener("scroll", markOverflow, { passive: true });
});
window.addEventListener("resize", markOverflow);
document.querySelectorAll("details").forEach(function (d) { d.addEventListener("toggle", markOverflow); });
markOverflow();
// An opened chart is an entry in the history: the phone's Back closes it, not the page.
var zoomed = null;
function zoom(figure, open, fromHistory) {
  figure.classList.toggle("full", open);
  document.body.classList.toggle("zoomed", open);
  figure.querySelector("button.zoom").setAttribute("aria-expanded", String(open));
  if (open) {
    zoomed = figure;
    figure.scrollLeft = 0;
    figure.classList.toggle("wider", figure.scrollWidth > figure.clientWidth + 2);
    history.pushState({ chart: true }, "");
  } else {
    zoomed = null;
    if (!fromHistory && history.state && history.state.chart) { history.back(); }
  }
}
window.addEventListener("popstate", function () { if (zoomed) { zoom(zoomed, false, true); } });
document.querySelectorAll("button.zoom").forEach(function (button) {
  button.addEventListener("click", function () {
    var figure = button.closest("figure");
    zoom(figure, !figure.classList.contains("full"));
  });
});
document.addEventListener("keydown", function (event) {
  var open = document.querySelector("figure.full");
  if (open && event.key === "Escape") { zoom(open, false); }
});
"""


ZOOM_HINT = "Tap or click the chart to open it full size (again, Back or Esc to close)."
# shown over an opened chart: how to see the rest of it (when wider than the screen) and close it
ZOOM_BAR = (
    '<p class="zoom-bar" aria-hidden="true"><span class="wide-only">Wider than the screen: scroll '
    "sideways for the rest. </span>Tap, Back or Esc closes it.</p>"
)


def _image(chart: Chart, out_dir: Path) -> str:
    data = base64.b64encode((out_dir / chart.file).read_bytes()).decode("ascii")
    # a tap opens the chart at its own size (over the page, scrolling), so it stays legible on a phone
    return (
        f'<figure>{ZOOM_BAR}<button type="button" class="zoom" aria-expanded="false" title="{ZOOM_HINT}">'
        f'<img src="data:image/png;base64,{data}" alt="{escape(chart.title)}"></button>'
        f"<figcaption>{escape(chart.title)} ({escape(chart.file)}). {ZOOM_HINT}</figcaption></figure>"
    )


def _trust(trust: SectionTrust | None, charts: list[Chart], out_dir: Path) -> str:
    if trust is None:
        return ""
    anchor = f'<div class="trust" id="{escape(trust.section.id)}-trust">'
    if trust.section.spec.graded:
        table = grid_html(style_grid(trust)) if trust.applies else ""
        return (
            f"{anchor}<h4>Trust checks: style control and judge bias</h4>"
            f'<p class="note">{escape(style_text(trust))}</p>{table}</div>'
        )
    diagrams = [c for c in charts if c.file.endswith("_reliability.png")]
    if not diagrams:
        return ""
    images = "".join(_image(c, out_dir) for c in diagrams)
    return (
        f'{anchor}<h4>Trust checks: calibration</h4><p class="note">{escape(RELIABILITY)}</p>{images}</div>'
    )


def _section(section: Section, charts: list[Chart], trust: SectionTrust | None, out_dir: Path) -> str:
    heatmaps = {c.file: c for c in charts if c.file.endswith("_heatmap.png")}
    main = [c for c in charts if c.file not in heatmaps and not c.file.endswith("_reliability.png")]
    # a section without a grader is its task's only one: the task's own anchor leads to it
    anchor = f' id="{escape(section.id)}"' if section.headed else ""
    parts = [f'<div class="ranking"{anchor}>']
    if section.headed:
        parts.append(f"<h3>{breakable(section.title)}</h3>")
    if section.common:
        parts.append(f'<p class="note">{escape(section.common_text())}</p>')
    parts += [f'<p class="note">{escape(note)}</p>' for note in section.notes()]
    parts.append(grid_html(section_grid(section)))
    parts.append('<div class="charts">' + "".join(_image(c, out_dir) for c in main) + "</div>")
    if section.pairs:
        grid = grid_html(paired_grid(section.pairs, section.id))
        parts.append(
            f'<div class="paired" id="{escape(section.id)}-people"><h4>People beside models</h4>'
            f'<p class="note">{escape(PAIRED_NOTE)}</p>{grid}</div>'
        )
    if section.separation:
        grid = grid_html(separation_grid(section.separation, section.id))
        summary = escape(section.separation.summary())
        parts.append(
            f'<div class="separation" id="{escape(section.id)}-real"><h4>Which differences are real</h4>'
            f'<p class="note">{summary}. {escape(SEPARATION_NOTE)}</p>{grid}</div>'
        )
    if section.agreement:
        grid = grid_html(agreement_grid(section.agreement, section.id))
        parts.append(
            f'<div class="paired" id="{escape(section.id)}-people-agreement"><h4>Agreement among people</h4>'
            f"<p><strong>{escape(agreement_text(section.agreement))}</strong></p>"
            f'{grid}<p class="note">{escape(AGREEMENT_NOTE)}</p></div>'
        )
    usage = usage_grid(section)
    if usage is not None:
        parts.append(
            f"<details><summary>Tokens and cost</summary>"
            f'<p class="note">{escape(USAGE_NOTE)}</p>{grid_html(usage)}</details>'
        )
    parts.append(_trust(trust, charts, out_dir))
    for key in section.breakdown_keys():
        image = heatmaps.get(f"{section.id}_{key}_heatmap.png")
        parts.append(
            f"<details><summary>{escape(section.breakdown_meaning(key))}</summary>"
            f'<p class="note">{escape(FEW_NOTE)}</p>{_image(image, out_dir) if image else ""}'
            f"{grid_html(breakdown_grid(section, key))}</details>"
        )
    parts.append("</div>")
    return "".join(parts)


def _nav(board: Leaderboard, trusts: dict[str, SectionTrust]) -> str:
    items = []
    for table in board.tables:
        subs = []
        for section in table.sections:
            if section.headed:
                subs.append(f'<li><a href="#{escape(section.id)}">{escape(section.subtitle)}</a></li>')
            if section.pairs:
                subs.append(f'<li><a href="#{escape(section.id)}-people">people beside models</a></li>')
            if section.id in trusts and (section.spec.graded or trusts[section.id].reliability):
                what = "trust checks" + (f" ({escape(section.grader)})" if section.grader else "")
                subs.append(f'<li><a href="#{escape(section.id)}-trust">{what}</a></li>')
        sub = f"<ul>{''.join(subs)}</ul>" if subs else ""
        items.append(f'<li><a href="#{table.spec.name}">{escape(table.spec.title)}</a>{sub}</li>')
    items += [f'<li><a href="#{s.name}">{escape(s.title)}</a> (no usable log)</li>' for s in board.missing]
    if board.checks:
        items.append(f'<li><a href="#grader-checks">Grader checks</a> ({len(board.checks)})</li>')
    if board.skipped:
        items.append(f'<li><a href="#skipped">Skipped logs</a> ({len(board.skipped)})</li>')
    return (
        f'<details class="toc"><summary>Sections</summary><nav aria-label="Sections"><ul>{"".join(items)}'
        "</ul></nav></details>"
    )


def _task(table: TaskTable, charts: list[Chart], trusts: dict[str, SectionTrust], out_dir: Path) -> str:
    blocks = [
        _section(s, [c for c in charts if c.section == s.id], trusts.get(s.id), out_dir)
        for s in table.sections
    ]
    title = f"<h2>{escape(table.spec.title)}</h2>"
    return f'<section class="task" id="{table.spec.name}">{title}{"".join(blocks)}</section>'


def _how_to_read(board: Leaderboard) -> str:
    """The methods, folded away so that the page opens on the numbers; each column's meaning is
    also its header's tooltip."""
    extra = f" {METHOD}" if any(has_grm_column(s) for table in board.tables for s in table.sections) else ""
    text = (
        f"Ranked by each task's headline metric, one ranking per grader and data. {INTERVALS} "
        f"{board.help_notes()}{extra} {PAPER_NOTE} {INTRO} A column header sorts its table; hovering or "
        "focusing it says what the column means, as does the list below."
    )
    graded = any(table.spec.graded for table in board.tables)
    style = f'<p class="note" id="style-method">{escape(STYLE_METHOD)}</p>' if graded else ""
    columns = []
    for table in board.tables:
        defs = [d for d in section_columns(table.sections[0]) if d.note]
        items = "".join(f"<dt>{escape(d.title)}</dt><dd>{escape(d.note)}</dd>" for d in defs)
        columns.append(f"<h4>{escape(table.spec.title)}: the columns</h4><dl>{items}</dl>")
    return (
        '<details class="howto"><summary>How to read this page</summary>'
        f'<p class="note">{html_linked(text)}</p>{style}{"".join(columns)}</details>'
    )


def page(board: Leaderboard, charts: list[Chart], trusts: dict[str, SectionTrust], out_dir: Path) -> str:
    sections = [_task(table, charts, trusts, out_dir) for table in board.tables]
    sections += [
        f'<section class="task" id="{spec.name}"><h2>{escape(spec.title)}</h2>'
        '<p class="note">No usable log of this task was found.</p></section>'
        for spec in board.missing
    ]
    if board.checks:
        grid = checks_grid(board.checks, board.corrected_by(), board.show_paths)
        sections.append(
            '<section class="task" id="grader-checks"><h2>Grader checks</h2>'
            f'<p class="note">{escape(CHECKS_NOTE)}</p>{grid_html(grid)}</section>'
        )
    if board.skipped:
        sections.append(
            '<section class="task" id="skipped"><h2>Skipped logs</h2>'
            + grid_html(skipped_grid(board))
            + "</section>"
        )
    notes = "".join(f'<p class="note">{escape(note)}</p>' for note in board.notes)
    meta = f"Generated {board.generated} from the Inspect logs in {', '.join(board.sources)}."
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>UXBench leaderboard</title><style>{CSS}</style></head><body>"
        f'<header><h1>UXBench leaderboard</h1><p class="meta">{escape(meta)}</p>{notes}'
        f"{_nav(board, trusts)}{_how_to_read(board)}</header><main>{''.join(sections)}</main>"
        f"<footer><p>Paper: {escape(paper_numbers.source())}.</p></footer>"
        f"<script>{JS}</script></body></html>"
    )
