"""Identity documents beyond the mainland's resident ID (`numbers.id_numbers`): Hong Kong and
Macau identity cards, Korean resident registration numbers, Japan's My Number and residence card,
Canada's SIN, the personal numbers of other countries whose people write in English (India's
Aadhaar and PAN, Ireland's PPS, Singapore's and Malaysia's NRIC, Australia's TFN, New Zealand's
IRD, the NHS's number, South Africa's ID), the national numbers of the European and Latin American
locales people write from (Spain's DNI and NIE, Brazil's CPF, Italy's codice fiscale, Poland's
PESEL, Turkey's TC Kimlik, Germany's tax ID, France's NIR, the Netherlands' BSN, Mexico's CURP),
passports and driving licences, and an ID given in two parts (`前半段…，后半段…`, `앞자리 …, 뒷자리 …`).

A shape that is an ID wherever it stands is checked by its check digit (`python-stdnum` where it
has the scheme, the Hong Kong and Singapore ones here); a shape that only an ID word makes an ID (a
passport's `E12345678`, nine bare digits of a SIN, twelve of an Aadhaar) needs that word within its
own clause (`context`). After a document's word (passport, licence, 在留カード, 여권, 驾照), any
number of a document's shape is one: such numbers have no check digit and no shared shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import date

from stdnum.au import tfn
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.de import idnr as steuer_id
from stdnum.es import dni, nie
from stdnum.fr import nir
from stdnum.gb import nhs
from stdnum.ie import pps
from stdnum.in_ import aadhaar, pan
from stdnum.it import codicefiscale
from stdnum.jp import in_ as my_number
from stdnum.mx import curp
from stdnum.my import nric
from stdnum.nl import bsn
from stdnum.nz import ird
from stdnum.pl import pesel
from stdnum.th import pin
from stdnum.tr import tckimlik
from stdnum.us import ssn
from stdnum.za import idnr

from uxbench.pipeline.privacy import kept
from uxbench.pipeline.privacy.context import clause_after, clause_before, cue_before, keeps
from uxbench.pipeline.privacy.numbers import NO_PART as _NO_PART
from uxbench.pipeline.privacy.numbers import glued, two_parts

Span = tuple[int, int, str]

# a number's own edges: no letter or digit beside it, nor a short group one or two separators away (a
# 12-digit My Number is not the first three groups of a grouped card, `カード番号4602 1414 5708 0000004`)
# (an ID's name typed glued to it, TFN278 995 213, is no letter beside it)
_ID_WORDS = ("id", "ic", "sin", "ssn", "tfn", "nric", "hkid", "rrn", "my number", "mynumber")
_EDGE = glued(r"(?<![0-9A-Za-z+])", _ID_WORDS) + r"(?<!\d[ -])"  # after a +, a phone
_END = r"(?![0-9A-Za-z])(?![ -]{1,2}\d{1,7}(?![\d.]))"  # a version after it is no group of it
_FIRST = r"(?=[0-9A-Z])"  # what a number starts with: the regex engine skips to it fast
_HKID = re.compile(_EDGE + r"([A-Z]{1,2})(\d{6}) ?([(（]?)([0-9A])[)）]?" + _END)
_MACAU = re.compile(_EDGE + r"[157]\d{6}[(（]\d[)）]")
_RRN = re.compile(r"(?=\d)" + _EDGE + r"(\d{2})(\d{2})(\d{2})[ -]?([1-8])\d{6}" + _END)
_SIN = re.compile(r"(?=\d)" + _EDGE + r"\d{3}([ -]?)\d{3}\1\d{3}" + _END)
# Japan's residence card (在留カード): two letters, eight digits, two letters; no other number looks so
_RESIDENCE_CARD = re.compile(_EDGE + r"[A-Z]{2}\d{8}[A-Z]{2}" + _END)
# words naming an ID in general, or the Korean resident registration number (주민등록번호, RRN)
_ID_CUE = re.compile(
    r"individual\s+number|身份证|身份證|证件|證件|(?<![A-Za-z])(?:ID|SIN|RRN)(?![A-Za-z])|social insurance|"
    r"identity|"
    r"resident registration|マイナンバー|まいなんばー|個人番号|个人编号|个人番号|個人番號|마이넘버|身分証|"
    r"番号|주민|주번|등록번호|신분증|登录号|登錄號|登録番号",
    re.IGNORECASE,
)


# words naming a national identity number, in any language (not a bare `ID` or `番号`: a student's,
# an order's)
_NATIONAL_ID = r"身份证|身份證|证件|證件|身分証|신분증|identity|national\s*id|id\s*(?:card|number|no)"


_NONE = r"(?!)"  # no generic words: a scheme that only its own words name


def _cue(words: str, generic: str = _NATIONAL_ID) -> re.Pattern[str]:
    """A scheme's own words as whole words, or the `generic` words of its kind."""
    return re.compile(rf"(?<![A-Za-z])(?:{words})(?![A-Za-z])|{generic}", re.IGNORECASE)


def _sg_nric(number: str) -> bool:
    """Singapore's NRIC / FIN check letter (S, T: citizens; F, G: foreigners)."""
    weights = sum(int(d) * w for d, w in zip(number[1:8], (2, 7, 6, 5, 4, 3, 2), strict=True))
    total = weights + (4 if number[0] in "TG" else 0)
    letters = "JZIHGFEDCBA" if number[0] in "ST" else "XWUTRQPNMLK"
    return letters[total % 11] == number[8]


def _scheme(shape: str) -> re.Pattern[str]:
    return re.compile(_FIRST + _EDGE + shape + _END)


# personal numbers with a check digit: (shape, its scheme's check, the words that must name it in
# its clause, or None where the shape and the check are enough wherever the number stands)
_CHECKED: tuple[tuple[re.Pattern[str], Callable[[str], bool], re.Pattern[str] | None], ...] = (
    (_scheme(r"\d{4}([ -]?)\d{4}\1\d{4}"), my_number.is_valid, _cue("my\\s*number", _ID_CUE.pattern)),
    (_scheme(r"[2-9]\d{3}([ -]?)\d{4}\1\d{4}"), aadhaar.is_valid, _cue("aadhaa?r|uid(?:ai)?|आधार")),
    (_scheme(r"[A-Z]{5}\d{4}[A-Z]"), pan.is_valid, _cue("PAN|permanent\\s+account")),
    (_scheme(r"\d{7}[A-W][A-IW]?"), pps.is_valid, _cue("PPSN?|personal\\s+public\\s+service")),
    (_scheme(r"[STFG]\d{7}[A-Z]"), _sg_nric, None),
    (_scheme(r"\d{6}-\d{2}-\d{4}"), nric.is_valid, None),
    (_scheme(r"\d{12}"), nric.is_valid, _cue("NRIC|MyKad|IC")),
    (_scheme(r"\d{3}([ -]?)\d{3}\1\d{2,3}"), tfn.is_valid, _cue("TFN|tax\\s+file")),
    (_scheme(r"\d{2,3}([ -]?)\d{3}\1\d{3}"), ird.is_valid, _cue("IRD|inland\\s+revenue")),
    (_scheme(r"\d{3}([ -]?)\d{3}\1\d{4}"), nhs.is_valid, _cue("NHS")),
    (_scheme(r"\d{13}"), idnr.is_valid, _cue("SA\\s+ID|identity\\s+number")),
    # Thailand's: 1-2345-67890-12-3 is one by its grouping, 13 bare digits (a barcode's length) by a word
    (_scheme(r"\d([ -])\d{4}\1\d{5}\1\d{2}\1\d"), pin.is_valid, None),
    (_scheme(r"\d{13}"), pin.is_valid, _cue("thai|citizen\\s*id|泰国|泰國|タイ|태국", _NONE)),
    # nine bare digits of a US SSN or a Canadian SIN: by their words (grouped, `numbers` reads them)
    (
        _scheme(r"\d{9}"),
        ssn.is_valid,
        _cue("SSN|social\\s*security|ソーシャルセキュリティ|社会保障番号|사회보장|社会安全|社會安全|社安号"),
    ),
    (_scheme(r"\d{9}"), sin.is_valid, _cue("SIN|social\\s*insurance|社会保险|社會保險|사회보험")),
    # Europe's and Latin America's: a shape of letters and digits with its check is one anywhere; a run
    # of bare digits only by its words
    (_scheme(r"[XYZ][ -]?\d{7}[ -]?[A-Z]"), nie.is_valid, None),
    (_scheme(r"\d{8}[ -]?[A-Z]"), dni.is_valid, _cue("DNI|NIF|documento\\s+nacional")),
    (_scheme(r"\d{3}\.\d{3}\.\d{3}-\d{2}"), cpf.is_valid, None),
    (_scheme(r"\d{11}"), cpf.is_valid, _cue("CPF")),
    (_scheme(r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]"), codicefiscale.is_valid, None),
    (_scheme(r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d"), curp.is_valid, None),
    (_scheme(r"\d{11}"), pesel.is_valid, _cue("PESEL")),
    (_scheme(r"[1-9]\d{10}"), tckimlik.is_valid, _cue("T\\.?C\\.?|TCKN|kimlik")),
    (
        _scheme(r"\d{2} ?\d{3} ?\d{3} ?\d{3}"),
        steuer_id.is_valid,
        _cue("steuer-?id|steuer-?identifikationsnummer|IdNr|tax\\s*id"),
    ),
    (
        _scheme(r"[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}"),
        nir.is_valid,
        _cue("NIR|INSEE|s[ée]curit[ée]\\s+sociale|num[ée]ro\\s+de\\s+s[ée]cu"),
    ),
    (_scheme(r"\d{9}|\d{4}\.\d{2}\.\d{3}"), bsn.is_valid, _cue("BSN|burgerservicenummer")),
)
# any scheme's words: most texts name none, and then only the schemes that need no word are read
_ANY_SCHEME_CUE = re.compile("|".join(cue.pattern for _, _, cue in _CHECKED if cue), re.IGNORECASE)
# words naming a document whose number has no check digit: passports, travel permits, driving
# licences, residence cards
_DOCUMENT_CUE = re.compile(
    r"护照|護照|passport|パスポート|旅券|여권|通行证|通行證|台胞证|回乡证|"
    r"驾照|驾驶证|駕照|驾驶执照|(?:driver'?s?|driving)\s*licen[cs]e|licen[cs]e\s*(?:no|number|#)|免許|면허|"
    r"在留カード|在留卡|residence\s*card|재류\s*카드|外国人登録",
    re.IGNORECASE,
)
# a document's number: letters and digits, dashes between groups, at least five digits
_DOCUMENT = re.compile(_EDGE + r"[A-Z0-9]+(?:-[A-Z0-9]+)*" + _END, re.IGNORECASE)
_DATE = re.compile(r"(?:19|20)\d\d-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-(?:19|20)\d\d")
_PART_CUE = re.compile(
    r"(?:前|后|後)(?:半段?|[一二三四五六七八九十\d]+位)|(?:first|second|last)\s+(?:half|part|\d+\s+digits)|"
    r"the\s+rest|앞자리|뒷자리|앞\s*\d+자리|뒤\s*\d+자리|前半|後半",
    re.IGNORECASE,
)
# an unbracketed A1234567 is as often a student's or a staff number: only Hong Kong's ID words name it
_HK_CUE = re.compile(
    r"HK\s*ID|H\.K\.\s*ID|Hong\s*Kong\s*ID|identity\s*card|身份證|身份证|证件|證件|身分証|香港|홍콩",
    re.IGNORECASE,
)
# a clause that only points back at the one before: `a passport no.? mine is …`, `要护照号吗？我的是…`
_MINE = re.compile(
    r"\s*(?:(?:and\s+)?mine(?:'s|’s|\s+is)?|my\s+one\s+is|我的(?:号码?)?是?|私のは|僕のは|제\s*(?:거|꺼)는)?"
    r"\s*[:：]?\s*[\"'“‘「『]?",
    re.IGNORECASE,
)
_ENDS = "，。；;！？!?\n, "
# a line that points back at the number on the line above: `↑护照号`, `これがSIN番号です`, `위에 거 SSN임`
_BACK = re.compile(
    r"\s*(?:[↑^]|<-|←|上面|以上|上記|这个?是|這個?是|これ[がは]|それ[がは]|위에|이게|이거|that'?s|this\s+is|above)",
    re.IGNORECASE,
)
# a digit, or a value found before (masked): a cue before either names that one
_LAST_DIGIT = re.compile(r"[\d\x00](?!.*[\d\x00])", re.DOTALL)
_DIGIT = re.compile(r"[\d\x00]")
# a cue that a number follows closely names that number (`パスポートNo.はK4620…`, `여권번호 ET42…`)
_SENTENCE_END = re.compile(
    r"(?<=[A-Za-z0-9\s])[.!?](?:\s|$)"
)  # `… 5064767944019 . whats the format of a passport`
_INTRODUCES = re.compile(r"[^\d\x00\n]{0,8}?[\d\x00]")
_GENERIC = ("番号", "id")  # words that name a number before it, any number, never after it
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


def _words_before(text: str, start: int) -> str:
    """The number's clause before it; with the clause before that when its own only points back
    (`mine is`) or is empty (`护照号码，E31665228`)."""
    before = clause_before(text, start, 40)
    if not _MINE.fullmatch(before):
        return before
    cut = start - len(before)
    while cut > 0 and text[cut - 1] in _ENDS:
        cut -= 1
    return clause_before(text, cut, 40) + " " + before


def _words_after(text: str, end: int) -> str:
    """The number's clause after it (`… ってパスポート番号`, `<- that's my SIN`), or the next line
    when that points back at it (`\n↑护照号码`)."""
    after = clause_after(text, end, 40)
    if not after.strip() and text.startswith("\n", end + len(after)):
        line = clause_after(text, end + len(after) + 1, 40)
        after = line if _BACK.match(line) else after
    return _SENTENCE_END.split(after, 1)[0]


def _kind(words: str) -> str | None:
    """The kind of the last cue word in `words` (`context`): `keep` for an order's or a barcode's."""
    return cue_before(words + "0", len(words), len(words))


def _introduces(after: str, at: int) -> bool:
    """Whether the cue ending at `at` is followed closely by a number it names (not an amount or a
    date, `↑护照号码 29696元`, nor one that a word of its own names, `↑护照号 学号U2024…`)."""
    closely = _INTRODUCES.match(after, at)
    return (
        closely is not None
        and _kind(after[at : closely.end() - 1]) is None
        and not _NO_PART.match(after, closely.end() - 1)
    )


def _named(text: str, start: int, end: int, cue: re.Pattern[str]) -> bool:
    """A cue word in the number's clause with no other number between them, before it or after it
    (`… as the passport no.`; not a word as wide as `番号` or `ID` after it, nor one that another
    number follows closely, `0570-745-129 … パスポートNo.はK4620…`), and no order, barcode or
    student cue between them (`个人编号` holds an order's `编号`, and names an ID)."""
    before = _after_last_digit(_words_before(text, start))
    last = max((m.end() for m in cue.finditer(before)), default=None)
    if last is not None:
        return _kind(before[last:]) != "keep"
    if keeps(text, start) or kept.order_after(text, end):
        return False
    after = _words_after(text, end)
    digit = _DIGIT.search(after)
    for named in cue.finditer(after, 0, digit.start() if digit else len(after)):
        if named.group().lower() not in _GENERIC:
            return not _introduces(after, named.end()) and _kind(after[: named.end()]) != "keep"
    return False


def _document_number(number: str) -> bool:
    digits = sum(c.isdigit() for c in number)
    return 6 <= len(number) <= 20 and digits >= 5 and not _DATE.fullmatch(number)


@two_parts
def documents(text: str) -> Iterator[Span]:
    """Identity numbers of the shapes above; see the module's docstring."""
    for match in _HKID.finditer(text):  # A123456(7) anywhere; without its brackets, after an ID word
        letters, digits, bracket, check = match.groups()
        if _hk_valid(letters, digits, check) and (
            bracket or _named(text, match.start(), match.end(), _HK_CUE)
        ):
            yield match.start(), match.end(), "ID_NUMBER"
    for match in _MACAU.finditer(text):
        yield match.start(), match.end(), "ID_NUMBER"
    for match in _RRN.finditer(text):  # with its cue, a number of the shape is one whatever its date
        cued = _named(text, match.start(), match.end(), _ID_CUE)
        if cued or (not match.group().isdigit() and _born(*match.groups()[:3])):
            yield match.start(), match.end(), "ID_NUMBER"
    for match in _SIN.finditer(text):
        grouped = bool(match.group(1))
        if sin.is_valid(match.group()) and (grouped or _named(text, match.start(), match.end(), _ID_CUE)):
            yield match.start(), match.end(), "ID_NUMBER"
    named = _ANY_SCHEME_CUE.search(text) is not None
    for shape, valid, cue in _CHECKED:
        if cue and not named:
            continue
        for match in shape.finditer(text):
            if valid(match.group()) and (
                _named(text, match.start(), match.end(), cue) if cue else not keeps(text, match.start())
            ):
                yield match.start(), match.end(), "ID_NUMBER"
    for match in _RESIDENCE_CARD.finditer(text):
        if not keeps(text, match.start()):
            yield match.start(), match.end(), "ID_NUMBER"
    if _DOCUMENT_CUE.search(text):
        for match in _DOCUMENT.finditer(text):
            if _document_number(match.group()) and _named(text, match.start(), match.end(), _DOCUMENT_CUE):
                yield match.start(), match.end(), "ID_NUMBER"
    if _PART_CUE.search(text) and _ID_CUE.search(text):
        for match in _PART.finditer(text):
            if _PART_CUE.search(_after_last_digit(clause_before(text, match.start(), 40))):
                yield match.start(), match.end(), "ID_NUMBER"
