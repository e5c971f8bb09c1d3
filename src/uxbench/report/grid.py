"""One table shape for every table of the report (leaderboards, breakdowns, trust checks,
skipped logs), rendered to Markdown and to HTML by the two functions here, so escaping is
done once: every text is HTML-escaped in both outputs, and Markdown metacharacters are
backslash-escaped in leaderboard.md, so a model name or label such as `<script>` or
`**x**` shows as the text it is.

In the page a table sorts by a click on, or Enter / Space on, its header button; a cell's
`data-sort` holds the raw value (empty for no value, sorted last either way).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from numbers import Number

from uxbench.runtime.docs import REPOSITORY_FILES

# characters that start Markdown inline syntax (emphasis, code, links, tables, strikethrough)
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
# a page of the repository named in a text: linked, since a mailed report has no docs/ beside it
_REPO_PAGE = re.compile(r"\b((?:docs|bench)/[\w-]+\.md(?:#[\w-]+)?)")
# where a long name may wrap on a narrow screen: after a path, word or version separator
_SEPARATOR = re.compile(r"([/_.\-])(?=\w)")


SCROLL_HINT = "Scroll the table sideways for more columns →"


@dataclass(frozen=True)
class Cell:
    text: str
    sort: float | int | str | None = None  # raw value to sort by (None: no value)
    muted: bool = False  # greyed: too few records to read much into
    note: str = ""  # tooltip in the page


@dataclass(frozen=True)
class Grid:
    titles: list[str]
    rows: list[list[Cell]]
    row_kinds: list[str] = field(default_factory=list)  # per row: "", "baseline", "partial", …
    notes: list[str] = field(default_factory=list)  # per column: what it means (header tooltip)
    id: str = ""  # anchor in the page
    pin: int = 0  # the column that stays in view when the table scrolls sideways (the model's)


def md_text(text: str) -> str:
    """Text safe in Markdown, in a table cell or a heading: HTML entities for <, > and &, a
    backslash before Markdown metacharacters, no line breaks."""
    return escape(_MD_SPECIAL.sub(r"\\\1", " ".join(text.split())), quote=False)


def md_linked(text: str) -> str:
    """`md_text` with each docs/ or bench/ page named in it linked to the repository's page."""

    def plain(part: str) -> str:  # md_text trims; the spaces around a link stay
        return (" " if part[:1].isspace() else "") + md_text(part) + (" " if part[-1:].isspace() else "")

    parts = _REPO_PAGE.split(" ".join(text.split()))
    return "".join(
        f"[{md_text(part)}]({REPOSITORY_FILES}{part})" if k % 2 else plain(part)
        for k, part in enumerate(parts)
    ).strip()


def html_linked(text: str) -> str:
    """Escaped HTML with each docs/ or bench/ page named in it linked to the repository's page."""
    parts = _REPO_PAGE.split(text)
    return "".join(
        f'<a href="{escape(REPOSITORY_FILES + part)}">{escape(part)}</a>' if k % 2 else escape(part)
        for k, part in enumerate(parts)
    )


def breakable(text: str) -> str:
    """Escaped HTML that may wrap after a separator (`/ _ - .`), never inside a word."""
    return _SEPARATOR.sub(r"\1<wbr>", escape(text))


def markdown(grid: Grid) -> list[str]:
    """The table's Markdown lines (a muted cell is set in italics), then a blank line."""

    def row(texts: list[str]) -> str:
        return "| " + " | ".join(texts) + " |"

    body = [
        row([f"*{md_text(c.text)}*" if c.muted and c.text else md_text(c.text) for c in cells])
        for cells in grid.rows
    ]
    return [row([md_text(t) for t in grid.titles]), row(["---"] * len(grid.titles)), *body, ""]


def _numeric(grid: Grid, column: int) -> bool:
    values = [cells[column].sort for cells in grid.rows]
    return all(isinstance(v, Number) or v in (None, "") for v in values)


def _sort_value(value: object) -> str:
    return "" if value is None or value == "" else str(value)


def html(grid: Grid) -> str:
    """A sortable table in a horizontal scroller, its first column pinned."""
    kinds = ["num" if _numeric(grid, i) else "text" for i in range(len(grid.titles))]
    heads = []
    pinned = [" pin" if i == grid.pin else "" for i in range(len(grid.titles))]
    for i, (title, kind) in enumerate(zip(grid.titles, kinds, strict=True)):
        note = grid.notes[i] if i < len(grid.notes) else ""
        tip = f' title="{escape(note)}"' if note else ""
        heads.append(
            f'<th scope="col" class="{kind}{pinned[i]}" data-type="{kind}"{tip}>'
            f'<button type="button">{escape(title)}</button></th>'
        )
    body = []
    for r, cells in enumerate(grid.rows):
        tds = []
        for i, (cell, kind) in enumerate(zip(cells, kinds, strict=True)):
            css = kind + pinned[i] + (" muted" if cell.muted else "")
            tip = f' title="{escape(cell.note)}"' if cell.note else ""
            sort = escape(_sort_value(cell.sort))
            # on a narrow screen the pinned column (a model's name) wraps at its separators
            text = breakable(cell.text) if pinned[i] else escape(cell.text)
            tds.append(f'<td class="{css}" data-sort="{sort}"{tip}>{text}</td>')
        kind = grid.row_kinds[r] if r < len(grid.row_kinds) else ""
        css = f' class="{escape(kind)}"' if kind else ""
        body.append(f"<tr{css}>{''.join(tds)}</tr>")
    anchor = f' id="{escape(grid.id)}"' if grid.id else ""
    # the box marks itself "more" (a shaded right edge and a hint) while columns lie beyond its edge
    return (
        f'<div class="scrollbox"><div class="scroll"{anchor}><table class="sortable"><thead><tr>'
        f"{''.join(heads)}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
        f'<p class="scroll-hint">{SCROLL_HINT}</p></div>'
    )
