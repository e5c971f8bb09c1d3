"""Structured identifiers, checked and not just shaped: resident ID numbers, US social security
numbers, IBANs and bank cards with `python-stdnum` (check digits, birth dates, issuing areas),
phone numbers with Google's libphonenumber (`phonenumbers`), IP addresses with `ipaddress`.

Numbers are read as people type them: grouped by spaces or dashes, in full-width digits (the
caller folds those), glued to Chinese text. A number with an order, tracking, version or
section cue before it (`context.keeps`) is kept, whatever its shape.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from datetime import date

import phonenumbers
from stdnum import iban, luhn, numdb
from stdnum.cn import ric
from stdnum.us import ssn

from uxbench.pipeline.privacy.context import cue_before, keeps

PHONE_REGIONS = ("CN", "US")  # how numbers without a leading + are read
Span = tuple[int, int, str]

_EDGE = r"(?<![0-9A-Za-z])"
_END = r"(?![0-9A-Za-z])"
_SEPARATORS = re.compile(r"[\s\-]")
# 18-character resident IDs and the 15-digit ones issued before 1999, grouped any way
_ID18 = re.compile(_EDGE + r"\d(?:[ -]?\d){16}[ -]?[0-9Xx]" + _END)
_ID15 = re.compile(r"(?<![0-9A-Za-z])(?<![0-9][ -])\d(?:[ -]?\d){14}(?![0-9A-Za-z])(?![ -][0-9])")
_SSN = re.compile(_EDGE + r"\d{3}([ -])\d{2}\1\d{4}" + _END + r"|" + _EDGE + r"\d{9}" + _END)
_IBAN = re.compile(_EDGE + r"[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{4}){2,7}(?: ?[A-Za-z0-9]{1,3})?" + _END)
# 13-19 digits, optionally in groups split by single spaces or dashes
_CARD = re.compile(r"(?<![0-9A-Za-z.,+])\d(?:[ -]?\d){12,18}" + _END)
# issuer prefixes of UnionPay, Visa, Mastercard, Amex, JCB, Discover, Diners, Maestro
_CARD_PREFIX = re.compile(r"^(?:62|81|4|5[1-5]|2[2-7]|3[47]|35|6011|65|30[0-5]|36|38|50|5[6-8]|6[39])")
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
    """A 15-digit resident ID: a known issuing area (stdnum's table) and a birth date in 19YY."""
    return _born_on("19" + digits[6:12]) and bool(numdb.get("cn/loc").info(digits[:6]))


def id_numbers(text: str) -> Iterator[Span]:
    for match in _ID18.finditer(text):
        if ric.is_valid(_compact(match.group())):
            yield match.start(), match.end(), "ID_NUMBER"
    for match in _ID15.finditer(text):
        if _old_resident_id(_compact(match.group())) and not keeps(text, match.start()):
            yield match.start(), match.end(), "ID_NUMBER"


def ssns(text: str) -> Iterator[Span]:
    """US social security numbers: grouped 123-45-6789 anywhere, nine digits only after SSN."""
    for match in _SSN.finditer(text):
        grouped = match.group(1) is not None
        if ssn.is_valid(_compact(match.group())) and (grouped or cue_before(text, match.start()) == "id"):
            if not keeps(text, match.start()):
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
    """Luhn-valid numbers with a card issuer's prefix, or any Luhn-valid number after 卡号 / card."""
    for match in _CARD.finditer(text):
        digits = _compact(match.group())
        if not luhn.is_valid(digits):
            continue
        cue = cue_before(text, match.start())
        if cue == "card" or (cue in (None, "id") and _CARD_PREFIX.match(digits)):
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
    """Valid numbers (libphonenumber's metadata) of mainland China and North America, and any
    `+` / `00` international number. A run of digits that is not one number as a whole is
    handed to libphonenumber's matcher, which finds numbers inside it."""
    for match in _PHONE.finditer(text):
        if keeps(text, match.start()):
            continue
        candidate = match.group().strip()
        start = match.start() + match.group().index(candidate[0])
        if candidate.count(".") == 1 or _NOT_PHONE.search(candidate) or _URL_PATH.match(text, match.end()):
            continue  # a decimal, a date, a page of a site (item.jd.com/100012043978.html)
        if _valid_phone(candidate):
            yield start, start + len(candidate), "PHONE"
            continue
        if not re.search(r"\d[\s().\-]+\d", candidate):
            continue
        for region in PHONE_REGIONS:
            for found in phonenumbers.PhoneNumberMatcher(candidate, region, phonenumbers.Leniency.VALID):
                yield start + found.start, start + found.end, "PHONE"


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
