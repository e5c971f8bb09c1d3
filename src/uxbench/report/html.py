"""One self-contained static page: inline CSS and JS, charts as base64 PNG, nothing fetched.

Every table sorts by a click on its header; a cell's `data-sort` holds the raw value (empty
for no value, sorted last either way), the header's `data-type` says numeric or text.
"""

from __future__ import annotations

import base64
from html import escape
from numbers import Number
from pathlib import Path
from typing import Any

from uxbench.report import published
from uxbench.report.charts import Chart
from uxbench.report.tables import (
    BREAKDOWN_TITLES,
    Leaderboard,
    TaskTable,
    cells,
    fmt,
    group_title,
    header,
)

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC",
  "WenQuanYi Micro Hei", "PingFang SC", "Microsoft YaHei", sans-serif; margin: 0; color: #1d232a;
  background: #f6f7f9; }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; }
h1 { margin: 0 0 4px; font-size: 26px; }
h2 { margin: 28px 0 10px; font-size: 20px; border-bottom: 2px solid #3b6fb6; padding-bottom: 4px; }
p.meta, footer, .note { color: #555; font-size: 13px; }
nav a { margin-right: 14px; color: #3b6fb6; }
section { background: #fff; border-radius: 8px; padding: 4px 18px 14px; margin: 16px 0;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { padding: 5px 9px; border-bottom: 1px solid #e3e6ea; text-align: right; white-space: nowrap; }
th { background: #eef2f7; cursor: pointer; user-select: none; position: sticky; top: 0; }
th:hover { background: #dfe7f1; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
td.text, th.text { text-align: left; }
tbody tr:hover { background: #f7f9fc; }
tr.baseline td { color: #6b737c; font-style: italic; }
.charts { display: flex; flex-wrap: wrap; gap: 14px; }
figure { margin: 6px 0; }
figure img { max-width: 100%; border: 1px solid #e3e6ea; border-radius: 4px; }
figcaption { font-size: 12px; color: #555; }
details { margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
"""

JS = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, index) {
    th.addEventListener("click", function () {
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
"""


def _sort_value(value: Any) -> str:
    return "" if value is None or value == "" else str(value)


def _kind(numeric: bool) -> str:
    return "num" if numeric else "text"


def _table(titles: list[str], rows: list[list[tuple[str, Any]]], row_classes: list[str] | None = None) -> str:
    """A sortable table; a column is numeric when all its values are numbers."""
    numeric = [
        all(isinstance(row[i][1], Number) or row[i][1] in (None, "") for row in rows)
        for i in range(len(titles))
    ]
    head = "".join(
        f'<th data-type="{_kind(num)}" class="{_kind(num)}">{escape(t)}</th>'
        for t, num in zip(titles, numeric, strict=True)
    )
    body = []
    for i, row in enumerate(rows):
        tds = "".join(
            f'<td class="{_kind(num)}" data-sort="{escape(_sort_value(value))}">{escape(text)}</td>'
            for (text, value), num in zip(row, numeric, strict=True)
        )
        css = f' class="{row_classes[i]}"' if row_classes and row_classes[i] else ""
        body.append(f"<tr{css}>{tds}</tr>")
    return (
        f'<div class="scroll"><table class="sortable"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _image(chart: Chart, out_dir: Path) -> str:
    data = base64.b64encode((out_dir / chart.file).read_bytes()).decode("ascii")
    return (
        f'<figure><img src="data:image/png;base64,{data}" alt="{escape(chart.title)}">'
        f"<figcaption>{escape(chart.title)} ({escape(chart.file)})</figcaption></figure>"
    )


def _task_section(table: TaskTable, charts: list[Chart], out_dir: Path) -> str:
    rows = [cells(table, row) for row in table.rows]
    classes = ["baseline" if row.baseline else "" for row in table.rows]
    parts = [f'<section id="{table.spec.name}"><h2>{escape(table.spec.title)}</h2>']
    parts.append(_table(header(table), rows, classes))
    parts.append('<div class="charts">' + "".join(_image(c, out_dir) for c in charts) + "</div>")
    labels = [row.label for row in table.rows]
    for key in table.breakdown_keys():
        groups = table.breakdown(key)
        body = [
            [(group_title(key, g), g), *((fmt(values[label]), values[label]) for label in labels)]
            for g, values in groups.items()
        ]
        parts.append(
            f"<details><summary>{escape(table.breakdown_meaning(key))}</summary>"
            f"{_table([BREAKDOWN_TITLES.get(key, key), *labels], body)}</details>"
        )
    parts.append("</section>")
    return "".join(parts)


def page(board: Leaderboard, charts: list[Chart], out_dir: Path, extra: str = "") -> str:
    nav = "".join(f'<a href="#{t.spec.name}">{escape(t.spec.title)}</a>' for t in board.tables)
    sections = [
        _task_section(table, [c for c in charts if c.task == table.spec.name], out_dir)
        for table in board.tables
    ]
    sections += [
        f'<section id="{spec.name}"><h2>{escape(spec.title)}</h2>'
        '<p class="note">No usable log of this task was found.</p></section>'
        for spec in board.missing
    ]
    if board.skipped:
        rows = [[(text, text) for text in (s.log, s.task, s.model, s.reason)] for s in board.skipped]
        sections.append(
            '<section id="skipped"><h2>Skipped logs</h2>'
            + _table(["Log", "Task", "Model", "Reason"], rows)
            + "</section>"
        )
    notes = "".join(f'<p class="note">{escape(note)}</p>' for note in board.notes)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>UXBench leaderboard</title><style>{CSS}</style></head><body>"
        f'<header><h1>UXBench leaderboard</h1><p class="meta">Generated {escape(board.generated)} from '
        f"the Inspect logs in {escape(', '.join(board.sources))}. Ranked by each task's headline metric; "
        "the 95% interval is ±1.96 standard errors. Click a column header to sort.</p>"
        f"{notes}<nav>{nav}</nav></header><main>{''.join(sections)}{extra}</main>"
        f"<footer><p>Paper columns: {escape(published.source())}.</p></footer>"
        f"<script>{JS}</script></body></html>"
    )
