"""What people type, read as the detectors expect it: one place, run once per text.

- full-width digits, Latin letters and signs fold to ASCII (`１３８…`, `＠`);
- a run of seven or more Chinese numerals is a number (`一三九五八六五五四三九`, `幺` is 1);
- zero-width characters pasted from web pages vanish (`138\u200b0013…`), and so do the spaces of
  a number typed with every digit apart (`1 3 8 0 0 1 3 8 0 0 0`);
- an e-mail spelt out (`name at 163 dot com`, `name[at]163.com`, `name艾特qq.com`, `name#qq.com`,
  `nameアットマークdocomo.ne.jp`, `name골뱅이naver.com`, `name(at)x(dot)com`) becomes `name@163.com`,
  but only where a known top-level domain ends it (`look at this.page` is no address).

The detectors see the normal form; `Normal.span` maps a span of it back onto the original text,
so a redaction covers every character the user typed for the value (the whole `艾特`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WIDE = (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B))
_FOLD: dict[int, int | str] = {code: code - 0xFEE0 for code in _WIDE}
_FOLD.update({ord("＠"): "@", ord("＋"): "+", ord("－"): "-", ord("．"): ".", ord("＿"): "_", ord("＃"): "#"})
_FOLD.update({ord("（"): "(", ord("）"): ")"})
# the ideographic space between full-width groups and the no-break spaces pasted from web pages
_FOLD.update(dict.fromkeys(map(ord, "\u3000\u00a0\u2007\u202f"), " "))
_ZH_DIGITS = {"零": "0", "〇": "0", "一": "1", "幺": "1", "二": "2", "两": "2", "三": "3", "四": "4"}
_ZH_DIGITS.update({"五": "5", "六": "6", "七": "7", "八": "8", "九": "9"})
# Korean's Sino-Korean numerals, as a number is read out (공일공 is 010)
_KO_DIGITS = {"공": "0", "영": "0", "일": "1", "이": "2", "삼": "3", "사": "4", "오": "5", "육": "6"}
_KO_DIGITS.update({"칠": "7", "팔": "8", "구": "9"})
_NUMERALS = {**_ZH_DIGITS, **_KO_DIGITS}


def _numerals(digits: dict[str, str]) -> re.Pattern[str]:
    """Numerals in a row, or in groups of two to four split by a space or a dash (幺三五 三四二八
    九七六三, 공일공-사일일육-오삼공일); `_read_out` takes seven or more: a number read out, never a word."""
    one = f"[{''.join(digits)}]"
    return re.compile(f"{one}{{2,24}}(?:[ -]{one}{{2,4}}){{0,3}}")


def _read_out(match: re.Match[str]) -> str:
    numerals = match.group()
    if sum(c in _NUMERALS for c in numerals) < 7:
        return numerals
    return "".join(_NUMERALS.get(c, c) for c in numerals)


_ZH_NUMBER = _numerals(_ZH_DIGITS)
_KO_NUMBER = _numerals(_KO_DIGITS)
_SPACED_DIGITS = re.compile(
    r"(?<![0-9A-Za-z.,])\d(?: \d){6,18}(?![0-9A-Za-z.,])"
)  # every digit apart, seven or more
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_LOCAL = r"[A-Za-z0-9][A-Za-z0-9._%+\-]*"
# how people write the at-sign and the dot of an address they spell out, in the four languages (a
# `#` only glued to both sides: `see #docs.com` is a hashtag)
_AT_WORDS = (
    "[at]",
    "(at)",
    "{at}",
    "<at>",
    "[@]",
    "(@)",
    "艾特",
    "圈a",
    "アットマーク",
    "あっとまーく",
    "アット",
    "あっと",
    "골뱅이",
    "앳",
)
_DOT_WORDS = ("[dot]", "(dot)", "{dot}", "<dot>", "[.]", "(.)", "点", "點")
_DOT_WORDS += ("ドット", "どっと", "닷", "쩜", "점")
# the top-level domains of the mail people give: generic ones and the countries of the four languages
_TLDS = (
    "com|net|org|edu|gov|mil|int|info|biz|name|pro|mobi|asia|io|ai|app|dev|me|co|tv|cc|xyz|online|site|"
    "tech|top|club|shop|store|cloud|email|live|vip|work|ltd|group|blog|"
    "cn|jp|kr|tw|hk|mo|sg|my|in|ph|th|vn|id|uk|us|ca|au|nz|ie|de|fr|it|es|nl|se|ch|ru|br|mx|za"
)


def _spelt(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(word) for word in words)


_LOCAL = r"[A-Za-z0-9][A-Za-z0-9._%+\-]*"
# `@`: a spelt dot after a typed at-sign, or spaces around it (`name @ gmail.com`, `mail . com`)
_AT = rf"(?:\s*(?:{_spelt(_AT_WORDS)})\s*|\s+at\s+|\s*@\s*|#)"
# a dot with spaces around it only before a label in lower case (`mail . com`, not `home . Me too`)
_DOT = rf"(?:\s*(?:{_spelt(_DOT_WORDS)})\s*|\s+dot\s+|\s+\.\s+(?=(?-i:[a-z0-9]))|\.|。)"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?"
_SPELT_EMAIL = re.compile(
    rf"(?<![A-Za-z0-9._%+\-]){_LOCAL}(?P<at>{_AT})"
    rf"(?P<domain>{_LABEL}(?:{_DOT}{_LABEL})*{_DOT}(?:{_TLDS}))"
    # the whole of a token, and not the local part before an at-sign (`me at a.id艾特qq.com`)
    rf"(?![A-Za-z0-9_\-@#＠]|\.[A-Za-z0-9]|\s*(?:{_spelt(_AT_WORDS)}))",
    re.IGNORECASE,
)
_DOT_ONLY = re.compile(_DOT, re.IGNORECASE)


@dataclass(frozen=True)
class Normal:
    """A text in normal form, with where each of its characters came from in the original."""

    text: str
    starts: tuple[int, ...] | None = None  # original offset of each character's first source character
    ends: tuple[int, ...] | None = None  # original offset just past its last one (None: one for one)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """A (non-empty) span of the normal form as a span of the original text."""
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


def normalise(text: str) -> Normal:
    """The normal form of `text` (see the module's docstring)."""
    folded = text.translate(_FOLD)
    for numerals in (_ZH_NUMBER, _KO_NUMBER):
        if numerals.search(folded):
            folded = numerals.sub(_read_out, folded)
    normal = Normal(folded)
    gaps = [(m.start(), m.end(), "") for m in _ZERO_WIDTH.finditer(folded)]
    for spaced in _SPACED_DIGITS.finditer(folded):  # 1 3 8 0 0 1 3 8 0 0 0: typed to dodge filters
        gaps += [(at, at + 1, "") for at in range(spaced.start() + 1, spaced.end(), 2)]
    if gaps:
        normal = _edit(normal, gaps)
    spelt = _spelt_emails(normal.text)
    return _edit(normal, spelt) if spelt else normal


def _edit(normal: Normal, edits: list[tuple[int, int, str]]) -> Normal:
    """`normal` with non-overlapping (start, end, replacement) edits made; a replacement keeps
    the original span of what it replaces (`艾特` → `@` covers both characters)."""
    text = normal.text
    starts = normal.starts if normal.starts is not None else tuple(range(len(text)))
    ends = normal.ends if normal.ends is not None else tuple(range(1, len(text) + 1))
    out: list[str] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    at = 0
    for start, end, replacement in sorted(edits):
        out.append(text[at:start])
        new_starts += starts[at:start]
        new_ends += ends[at:start]
        out.append(replacement)
        new_starts += [starts[start]] * len(replacement)
        new_ends += [ends[end - 1]] * len(replacement)
        at = end
    out.append(text[at:])
    new_starts += starts[at:]
    new_ends += ends[at:]
    return Normal("".join(out), tuple(new_starts), tuple(new_ends))


def _spelt_emails(text: str) -> list[tuple[int, int, str]]:
    """Edits that turn a spelt-out e-mail's `at` and `dot` into `@` and `.`."""
    edits: list[tuple[int, int, str]] = []
    for match in _SPELT_EMAIL.finditer(text):
        at, domain = match.span("at"), match.span("domain")
        edits.append((at[0], at[1], "@"))
        edits += [(d.start(), d.end(), ".") for d in _DOT_ONLY.finditer(text, *domain) if d.group() != "."]
    return edits
