"""Identity documents beyond the mainland's resident ID (`numbers.id_numbers`): Hong Kong and
Macau identity cards, Korean resident registration numbers, Japan's My Number, Canada's SIN,
passports, and an ID given in two parts (`前半段…，后半段…`, `앞자리 …, 뒷자리 …`).

A shape that is an ID wherever it stands is checked by its check digit (`python-stdnum` where it
has the scheme, the Hong Kong one here); a shape that only an ID word makes an ID (a passport's
`E12345678`, nine bare digits of a SIN) needs that word within its own clause (`context`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from stdnum.ca import sin
from stdnum.jp import in_ as my_number

from uxbench.pipeline.privacy.context import clause_after, clause_before

Span = tuple[int, int, str]

# a number's own edges: no letter or digit beside it, nor a digit one separator away (a 12-digit
# My Number is not the first three groups of a grouped 16-digit card)
_EDGE, _END = r"(?<![0-9A-Za-z])(?<!\d[ -])", r"(?![0-9A-Za-z])(?![ -]\d)"
_HKID = re.compile(_EDGE + r"([A-Z]{1,2})(\d{6}) ?[(（]?([0-9A])[)）]?" + _END)
_MACAU = re.compile(_EDGE + r"[157]\d{6}[(（]\d[)）]")
_RRN = re.compile(_EDGE + r"(\d{2})(\d{2})(\d{2})[ -]?([1-8])\d{6}" + _END)
_MY_NUMBER = re.compile(_EDGE + r"\d{4}[ -]?\d{4}[ -]?\d{4}" + _END)
_SIN = re.compile(_EDGE + r"\d{3}([ -]?)\d{3}\1\d{3}" + _END)
_PASSPORT = re.compile(_EDGE + r"[A-Z]{1,2}\d{6,8}" + _END + r"|" + _EDGE + r"\d{9}" + _END)
_PASSPORT_CUE = re.compile(r"护照|護照|passport|パスポート|旅券|여권|通行证|通行證|台胞证|回乡证", re.I)
_ID_CUE = re.compile(
    r"身份证|身份證|证件|證件|\bID\b|\bSIN\b|social insurance|"
    r"マイナンバー|個人番号|身分証|番号|주민|등록번호|신분증",
    re.IGNORECASE,
)
_PART_CUE = re.compile(
    r"(?:前|后|後)(?:半段?|[一二三四五六七八九十\d]+位)|(?:first|second|last)\s+(?:half|part|\d+\s+digits)|"
    r"the\s+rest|앞자리|뒷자리|앞\s*\d+자리|뒤\s*\d+자리|前半|後半",
    re.IGNORECASE,
)
_LAST_DIGIT = re.compile(r"\d(?!.*\d)", re.DOTALL)
_PART = re.compile(_EDGE + r"\d[\dXx]{3,17}" + _END + r"(?![/.]\d)")  # not a date's year (2025/7/12)


def _hk_valid(letters: str, digits: str, check: str) -> bool:
    values = [36] * (2 - len(letters)) + [ord(c) - 55 for c in letters] + [int(d) for d in digits]
    total = sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True))
    return (11 - total % 11) % 11 == (10 if check == "A" else int(check))


def _born(yy: str, mm: str, dd: str) -> bool:
    try:
        date(2000 + int(yy), int(mm), int(dd))
    except ValueError:
        return False
    return True


def _after_last_digit(before: str) -> str:
    """The words a number's own cue may be in: none before another number (`the rest is 87959
    also barcode 3920…` gives the barcode no part cue)."""
    digit = _LAST_DIGIT.search(before)
    return before[digit.end() :] if digit else before


def documents(text: str) -> Iterator[Span]:
    """Identity numbers of the shapes above; see the module's docstring."""
    for match in _HKID.finditer(text):
        if _hk_valid(*match.groups()):
            yield match.start(), match.end(), "ID_NUMBER"
    for match in _MACAU.finditer(text):
        yield match.start(), match.end(), "ID_NUMBER"
    for match in _RRN.finditer(text):  # with its cue, a number of the shape is one whatever its date
        cued = _ID_CUE.search(clause_before(text, match.start())) is not None
        if cued or (not match.group().isdigit() and _born(*match.groups()[:3])):
            yield match.start(), match.end(), "ID_NUMBER"
    for match in _MY_NUMBER.finditer(text):
        if my_number.is_valid(match.group()) and _ID_CUE.search(clause_before(text, match.start())):
            yield match.start(), match.end(), "ID_NUMBER"
    for match in _SIN.finditer(text):
        grouped = bool(match.group(1))
        if sin.is_valid(match.group()) and (grouped or _ID_CUE.search(clause_before(text, match.start()))):
            yield match.start(), match.end(), "ID_NUMBER"
    if _PASSPORT_CUE.search(text):  # the cue before the number, or just after it (`… as the passport no.`)
        for match in _PASSPORT.finditer(text):
            if _PASSPORT_CUE.search(clause_before(text, match.start(), 40)) or _PASSPORT_CUE.search(
                clause_after(text, match.end(), 24)
            ):
                yield match.start(), match.end(), "ID_NUMBER"
    if _PART_CUE.search(text) and _ID_CUE.search(text):
        for match in _PART.finditer(text):
            if _PART_CUE.search(_after_last_digit(clause_before(text, match.start(), 40))):
                yield match.start(), match.end(), "ID_NUMBER"
