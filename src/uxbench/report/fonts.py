"""Which installed font can draw the report's Chinese labels.

A font "covers" the labels only when it maps each probe character to a glyph of its own.
matplotlib ships a "Last Resort" font whose character map claims every code point but
draws one placeholder per Unicode block (all of 冗余啰嗦 are the same box); checking the
map alone takes it for a Chinese font, so distinct glyphs are required.
"""

from __future__ import annotations

from functools import cache

from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

PREFERRED = (
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
INSTALL_HINT = "apt-get install fonts-wqy-microhei (or fonts-noto-cjk)"


def covers(path: str, text: str = PROBE) -> bool:
    """True when the font maps every distinct character of `text` to its own real glyph."""
    try:
        charmap = FT2Font(path).get_charmap()
    except (OSError, RuntimeError, ValueError):
        return False
    glyphs = [charmap.get(ord(char), 0) for char in dict.fromkeys(text)]
    return all(glyphs) and len(set(glyphs)) == len(glyphs)


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
    for family in PREFERRED:
        if family in by_name and covers(by_name[family]):
            return family
    return next((name for name, path in sorted(by_name.items()) if covers(path)), None)


@cache
def _latin_charmap() -> frozenset[int]:
    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans"))
    return frozenset(FT2Font(path).get_charmap())


def drawable(text: str) -> str:
    """Text the charts can draw: without a Chinese font, characters the default font lacks
    become "?" (known labels are translated before this; see charts.group_label)."""
    if cjk_font():
        return text
    charmap = _latin_charmap()
    return "".join(char if ord(char) in charmap or char.isspace() else "?" for char in text)
