"""Structured identifiers: resident ID numbers (mainland and Taiwan), US social security and UK
national insurance numbers, IBANs, bank cards, phone numbers, IP addresses.

A privacy decision fails closed: a number of an ID's, a card's or a phone's shape where such a
number is expected is redacted whether or not a table knows it. `python-stdnum` (check digits,
issuing areas) and Google's libphonenumber (`phonenumbers`) only add numbers that no shape here
covers (an international number in any country's plan); they never keep one. What keeps a
number is the word before it: an order, tracking, version or section cue (`context.keeps`).

Numbers are read as people type them: grouped by spaces, dashes, slashes or dots, in full-width
digits (the caller folds those), glued to Chinese text.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from datetime import date

import phonenumbers
from stdnum import iban, luhn

from uxbench.pipeline.privacy.context import cue_before, keeps

PHONE_REGIONS = ("CN", "US")  # how numbers without a leading + are read
Span = tuple[int, int, str]

_EDGE = r"(?<![0-9A-Za-z])"
_END = r"(?![0-9A-Za-z])"
_SEPARATORS = re.compile(r"[\s\-/.]")
# 18-character resident IDs (grouped by spaces or dashes anyhow, by / or . as 6-8-4 or 6-4-4-4) and
# the 15-digit ones issued before 1999; Taiwan's IDs (A123456789); UK national insurance numbers
_ID18 = re.compile(
    _EDGE
    + r"(?:\d(?:[ -]?\d){16}[ -]?[0-9Xx]"
    + r"|\d{6}([/.])\d{8}\1\d{3}[0-9Xx]|\d{6}([/.])\d{4}\2\d{4}\2\d{3}[0-9Xx])"
    + _END
)
_ID_TW = re.compile(_EDGE + r"[A-Z][1289]\d{8}" + _END)
_NINO = re.compile(_EDGE + r"[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-Z]" + _END)
_ID15 = re.compile(r"(?<![0-9A-Za-z])(?<![0-9][ -])\d(?:[ -]?\d){14}(?![0-9A-Za-z])(?![ -][0-9])")
_SSN = re.compile(_EDGE + r"\d{3}([ -])\d{2}\1\d{4}" + _END + r"|" + _EDGE + r"\d{9}" + _END)
_IBAN = re.compile(_EDGE + r"[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{4}){2,7}(?: ?[A-Za-z0-9]{1,3})?" + _END)
# 12-19 digits: whole, in groups of four split by one kind of space or dash, or Amex's 4-6-5
_CARD = re.compile(
    r"(?<![0-9A-Za-z.,+/])(?:\d{12,19}|\d{4}([ -])\d{4}\1\d{4}(?:\1\d{1,7}){0,2}|\d{4}([ -])\d{6}\2\d{4,5})"
    + _END
)
# shapes that are phones wherever they stand: a mainland mobile; a North American number with its
# groups split (any area code) and an extension; a UK number; a number with a trunk 0 and one split
_PHONE_SHAPES = re.compile(
    r"(?<![0-9A-Za-z+\-/.])(?:(?:\(?\+ ?86\)?|0086)[ -]?)?1[3-9]\d(?:[ -]?\d){8}(?![0-9A-Za-z])"
    r"|(?<![0-9A-Za-z+\-/.])(?:(?:\+ ?1|001)[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}"
    r"(?:(?:x|ext\.? ?|#)\d{1,6})?(?![0-9A-Za-z])"
    r"|(?<![0-9A-Za-z+\-/.])(?:\+44 ?(?:\(0\))? ?\d{2,4}|\(0\d{2,4}\)|0\d{2,4}) ?\d{3,4}[ -]?\d{3,4}"
    r"(?![0-9A-Za-z])"
    r"|(?<![0-9A-Za-z+\-/.])(?:0\d{1,3}[ -]|\(0\d{1,3}\) ?)\d{6,8}(?![0-9A-Za-z])"
)
# after a phone cue: any run of 7-15 digits, however split
_PHONE_AFTER_CUE = re.compile(r"\+?\(?\d[\d ().\-]{5,20}\d(?:(?:x|ext\.? ?)\d{1,6})?(?![0-9A-Za-z])")
_PHONE = re.compile(r"(?<![0-9A-Za-z+(])\(?(?:\+ ?|00)?\(?\d[\d \t().\-]{5,18}\d" + _END)
# what looks like a phone number to libphonenumber but is a date (2024-06-14 04) or a decimal (3.108607)
_NOT_PHONE = re.compile(
    r"(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:[0-2]?\d|3[01])|\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d\d"
    r"|(?<!\d)\d\.\d|\d\.\d(?!\d)|\.\d{5,}|^\d{1,3}(?:\.\d{1,3}){3}$"
)
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")
_IPV6 = re.compile(
    r"(?<![0-9A-Za-z:])(?=[0-9A-Fa-f:]*\d)(?=(?:[0-9A-Fa-f]*:){2})[0-9A-Fa-f:]{3,39}(?![0-9A-Za-z:])"
)
_URL_PATH = re.compile(r"\.(?:s?html?|php|aspx?|jsp|jpe?g|png|gif|pdf)(?![A-Za-z0-9])", re.IGNORECASE)
_SECTION_AFTER = re.compile(r"\s*(?:节|章|条|款|版)")


def _compact(number: str) -> str:
    return _SEPARATORS.sub("", number)


def _born_on(yymmdd: str) -> bool:
    try:
        date(int(yymmdd[:4]), int(yymmdd[4:6]), int(yymmdd[6:8]))
    except ValueError:
        return False
    return True


def _old_resident_id(digits: str) -> bool:
    """A 15-digit resident ID: a birth date in 19YY where its digits stand (no area table asked)."""
    return _born_on("19" + digits[6:12])


def id_numbers(text: str) -> Iterator[Span]:
    """Resident IDs by shape (a card cue leaves the number to `cards`), Taiwan's IDs, UK national
    insurance numbers; a 15-digit number needs a birth date in it or an ID cue."""
    for match in _ID18.finditer(text):
        if cue_before(text, match.start()) not in ("keep", "card"):
            yield match.start(), match.end(), "ID_NUMBER"
    for match in _ID15.finditer(text):
        cue = cue_before(text, match.start())
        if cue == "id" or (cue is None and _old_resident_id(_compact(match.group()))):
            yield match.start(), match.end(), "ID_NUMBER"
    for pattern in (_ID_TW, _NINO):
        for match in pattern.finditer(text):
            if not keeps(text, match.start()):
                yield match.start(), match.end(), "ID_NUMBER"


def ssns(text: str) -> Iterator[Span]:
    """US social security numbers: grouped 123-45-6789 anywhere, nine digits only after SSN."""
    for match in _SSN.finditer(text):
        grouped = match.group(1) is not None
        if (grouped or cue_before(text, match.start()) == "id") and not keeps(text, match.start()):
            yield match.start(), match.end(), "SSN"


def ibans(text: str) -> Iterator[Span]:
    """IBANs, checked (mod 97, country length); a word after the last group is not part of it."""
    for match in _IBAN.finditer(text):
        groups = match.group().split(" ")
        for size in range(len(groups), 0, -1):
            candidate = " ".join(groups[:size])
            if iban.is_valid(candidate.replace(" ", "")):
                yield match.start(), match.start() + len(candidate), "IBAN"
                break


def cards(text: str) -> Iterator[Span]:
    """Any 12-19 digit number after 卡号 / card; a Luhn-valid one anywhere but after a keep cue."""
    for match in _CARD.finditer(text):
        cue = cue_before(text, match.start())
        if _URL_PATH.match(text, match.end()):
            continue  # a page of a site (item.jd.com/100012043978.html)
        if cue == "card" or (cue != "keep" and luhn.is_valid(_compact(match.group()))):
            yield match.start(), match.end(), "BANK_CARD"


def _valid_phone(candidate: str) -> bool:
    candidate = candidate.lstrip("(")
    try:
        if candidate.startswith(("+", "00")):
            return phonenumbers.is_valid_number(phonenumbers.parse("+" + candidate.lstrip("+0 ")))
        for region in PHONE_REGIONS:  # checking one region is much faster than finding the region
            if phonenumbers.is_valid_number_for_region(phonenumbers.parse(candidate, region), region):
                return True
    except phonenumbers.NumberParseException:
        pass
    return False


def phones(text: str) -> Iterator[Span]:
    """Phone-shaped numbers (`_PHONE_SHAPES`), any run of digits after a phone cue, and numbers
    that libphonenumber's metadata calls valid for mainland China, North America or, with a `+`
    / `00`, any country."""
    shaped = [m.span() for m in _PHONE_SHAPES.finditer(text) if not keeps(text, m.start())]
    for start, end in shaped:
        yield start, end, "PHONE"
    for match in _PHONE.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in shaped):
            continue  # a shape took it: libphonenumber need not read it
        cue = cue_before(text, match.start())
        if cue == "keep":
            continue
        candidate = match.group().strip()
        start = match.start() + match.group().index(candidate[0])
        if candidate.count(".") == 1 or _NOT_PHONE.search(candidate) or _URL_PATH.match(text, match.end()):
            continue  # a decimal, a date, a page of a site (item.jd.com/100012043978.html)
        if cue == "phone" and (after := _PHONE_AFTER_CUE.match(text, start)):
            yield start, after.end(), "PHONE"
            continue
        if _valid_phone(candidate):
            yield start, start + len(candidate), "PHONE"


def ips(text: str) -> Iterator[Span]:
    """IPv4 and IPv6 addresses; a version (v1.2.3.4, 版本 10.0.0.1) or a section (第 1.1.1.1 节) is kept."""
    for pattern in (_IPV4, _IPV6):
        for match in pattern.finditer(text):
            if pattern is _IPV4 and (keeps(text, match.start()) or _SECTION_AFTER.match(text, match.end())):
                continue
            try:
                ipaddress.ip_address(match.group())
            except ValueError:
                continue
            yield match.start(), match.end(), "IP"
