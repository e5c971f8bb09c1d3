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
from stdnum import ean, iban, luhn
from stdnum.cn import ric

from uxbench.pipeline.privacy.context import cue_before, keeps

# how numbers without a leading + are read: any as mainland Chinese or North American; one with a
# trunk 0 also as Japanese, Korean, Taiwanese, British or Australian (a bare 8-digit run is no
# phone of its own: Hong Kong's numbers need a phone cue)
PHONE_REGIONS = ("CN", "US")
TRUNK_REGIONS = ("JP", "KR", "TW", "GB", "AU")
# numbers of businesses, not of people: hotlines (400, 800, 0120, 1588) are kept
_BUSINESS = {
    phonenumbers.PhoneNumberType.TOLL_FREE,
    phonenumbers.PhoneNumberType.SHARED_COST,
    phonenumbers.PhoneNumberType.PREMIUM_RATE,
    phonenumbers.PhoneNumberType.UAN,
}
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
    r"(?<![0-9A-Za-z+\-/.])(?:(?:\(?\+ ?86\)?|0086)[ -]?)?1[3-9]\d(?:[ .-]?\d){8}(?![0-9A-Za-z])(?!\.\d)"
    r"|(?<![0-9A-Za-z+\-/.])(?:(?:\+ ?1|001|1(?= ?\())[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}"
    r"(?: ?(?:x|ext\.? ?|#)\d{1,6})?(?![0-9A-Za-z])"
    r"|(?<![0-9A-Za-z+\-/.])(?:\+44 ?(?:\(0\))? ?\d{2,4}|\(0\d{2,4}\)|0\d{2,4}) ?\d{3,4}[ -]?\d{3,4}"
    r"(?![0-9A-Za-z])"
    r"|(?<![0-9A-Za-z+\-/.])(?:0\d{1,3}[ -]|\(0\d{1,3}\) ?)\d{6,8}(?![0-9A-Za-z])"
)
# after a phone cue: any run of 7-15 digits, however split
_PHONE_AFTER_CUE = re.compile(
    r"\+?\(?\d[\d ().\-]{5,20}\d(?: ?(?:x|ext\.? ?)\d{1,6})?(?![0-9A-Za-z/:\-]|\s?[年月日時点])"
)
# a phone cue just after the number, in its clause: 080-1234-5678に電話, 010-1234-5678로 연락
_PHONE_CUE_AFTER = re.compile(r"\s?(?:に|へ|まで|로|으로|에|번으로)?\s?(?:電話|連絡|でんわ|전화|연락|문자)")
# how a North American number is written (1-800-…, 1 (415) …): never a mainland mobile (180 0402 4583)
_NANP_GROUPS = re.compile(r"\+?1[ .-]\(?\d{3}\)?[ .-]|\+?1 ?\(\d{3}\)")
_PHONE = re.compile(r"(?<![0-9A-Za-z+(])\(?(?:\+ ?|00)?\(?\d[\d \t().\-]{5,18}\d" + _END)
# what looks like a phone number to libphonenumber but is a date (2024-06-14 04) or a decimal (3.108607)
_NOT_PHONE = re.compile(
    r"(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:[0-2]?\d|3[01])|\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d\d"
    r"|^\d{1,3}(?:\.\d{1,3}){3}$|^[1-9]\d?(?:\.\d{1,4}){2,3}$"  # an IP, a version (6.0.47.1000)
)
_DECIMAL = re.compile(r"(?<!\d)\d\.\d|\d\.\d(?!\d)|\.\d{5,}")
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")
_IPV6 = re.compile(
    r"(?<![0-9A-Za-z:])(?=[0-9A-Fa-f:]*\d)(?=(?:[0-9A-Fa-f]*:){2})[0-9A-Fa-f:]{3,39}(?![0-9A-Za-z:])"
)
_URL_PATH = re.compile(r"\.(?:s?html?|php|aspx?|jsp|jpe?g|png|gif|pdf)(?![A-Za-z0-9])", re.IGNORECASE)
_HOTLINE_START = re.compile(r"(?:\+?1[ .-]?|\(?)(?:400|800|888|877|866|855|844|833|900)")
# North America's toll-free area codes (8XX with the X repeated), written as such: 1-800-…, (888) …
_TOLL_FREE = re.compile(r"(?:\+?1[ .-]?)?\(?8(?:00|33|44|55|66|77|88)\)?[ .-]")
# a first group of a trunk 0 and two digits is a mobile's or an area's (080-0917-8188), never the
# prefix of a hotline, which is written as a group of its own (0800-…, 0120-…)
_TRUNK_GROUP = re.compile(r"0\d\d[ .\-]")
_PRODUCT_BEFORE = re.compile(r"[A-Za-z][A-Za-z]*OS ?$|(?:[A-Z][a-z]+){2,} ?$")  # HarmonyOS 4.0.0.120
_SECTION_AFTER = re.compile(r"\s*(?:节|章|条|款|版)")


def _compact(number: str) -> str:
    return _SEPARATORS.sub("", number)


def _born_on(yymmdd: str) -> bool:
    try:
        date(int(yymmdd[:4]), int(yymmdd[4:6]), int(yymmdd[6:8]))
    except ValueError:
        return False
    return True


def _checked_resident_id(digits: str) -> bool:
    """An 18-character resident ID whose check character is right. By the checksum alone: stdnum's
    `is_valid` also asks its table of areas, which lacks districts made since (Shenzhen's 440305),
    so a real ID after a card cue would pass as neither an ID nor, ending in X, a card."""
    return ric.calc_check_digit(digits[:17] + "0") == digits[17].upper()


def _old_resident_id(digits: str) -> bool:
    """A 15-digit resident ID: a birth date in 19YY where its digits stand (no area table asked)."""
    return _born_on("19" + digits[6:12])


def id_numbers(text: str) -> Iterator[Span]:
    """Resident IDs by shape (after a card cue, only one with a valid check digit), Taiwan's IDs, UK national
    insurance numbers; a 15-digit number needs a birth date in it or an ID cue."""
    for match in _ID18.finditer(text):  # with no ID cue, a birth date where it stands (not 2 numbers)
        cue, digits = cue_before(text, match.start()), _compact(match.group())
        if cue == "id" or (
            cue != "keep" and _born_on(digits[6:14]) and (cue != "card" or _checked_resident_id(digits))
        ):
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
        digits = _compact(match.group())
        if cue != "card" and len(digits) == 13 and ean.is_valid(digits):
            continue  # an EAN-13 barcode: a product's, not a person's
        if cue == "card" or (cue != "keep" and luhn.is_valid(digits)):
            yield match.start(), match.end(), "BANK_CARD"


def _valid_phone(candidate: str) -> bool:
    """A person's phone: with `+` / `00`, any number of a possible length for its country (fail
    closed: Faker's and people's numbers are not all in the numbering plans); without, a valid
    number of `PHONE_REGIONS` (`TRUNK_REGIONS` too with a trunk 0) that is no hotline
    (`_BUSINESS`)."""
    candidate = candidate.lstrip("(")
    nanp = _NANP_GROUPS.match(candidate) is not None
    try:
        if candidate.startswith(("+", "00")):  # fail closed: a + number is a phone, a hotline too
            number = phonenumbers.parse("+" + candidate.lstrip("+0 ").replace(".", " "))
            return phonenumbers.is_possible_number(number)
        regions = PHONE_REGIONS + TRUNK_REGIONS if candidate.startswith("0") else PHONE_REGIONS
        regions = ("US",) if nanp else regions
        for region in regions:  # checking one region is much faster than finding the region
            number = phonenumbers.parse(candidate, region)
            if phonenumbers.is_valid_number_for_region(number, region):
                return not _business(number)
    except phonenumbers.NumberParseException:
        pass
    return False


def _business(number: phonenumbers.PhoneNumber) -> bool:
    return phonenumbers.number_type(number) in _BUSINESS


def _hotline(candidate: str, anywhere: bool = False) -> bool:
    """A number that libphonenumber calls a hotline in China or North America, or `anywhere`
    also in `TRUNK_REGIONS` (0120 in Japan); without `anywhere`, only numbers that start as
    hotlines do are parsed (parsing is the redactor's slowest step)."""
    if _TOLL_FREE.match(candidate):  # by the plan's rule, whether or not the rest is a valid number
        return True
    if not (anywhere or _HOTLINE_START.match(candidate)) or _TRUNK_GROUP.match(candidate):
        return False
    regions = ("CN", "US", *TRUNK_REGIONS) if anywhere else ("CN", "US")
    try:
        return any(_business(phonenumbers.parse(candidate, region)) for region in regions)
    except phonenumbers.NumberParseException:
        return False


def _barcode(text: str, start: int, number: str) -> bool:
    """An EAN-13 barcode (`0797048491654`, check digit valid) that no phone cue names: a
    product's, not a person's (one phone number in ten passes the check, but none is 13 bare
    digits that a phone word does not announce)."""
    return (
        len(number) == 13 and number.isdigit() and ean.is_valid(number) and cue_before(text, start) != "phone"
    )


def phones(text: str) -> Iterator[Span]:
    """Phone-shaped numbers (`_PHONE_SHAPES`), any run of digits after a phone cue (or just before
    one, `…に電話`, unless a hotline), and numbers that libphonenumber's metadata calls valid for
    mainland China, North America or, with a `+` / `00`, any country. An EAN-13 barcode stays."""
    shaped = [
        m.span()
        for m in _PHONE_SHAPES.finditer(text)
        if not (keeps(text, m.start()) or _hotline(m.group()) or _barcode(text, m.start(), m.group()))
    ]
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
        international = candidate.startswith("+")  # +61.3.1779.5157, +61-7-1987-3997: no decimal, no date
        decimal = not (international or cue == "phone") and (
            candidate.count(".") == 1 or _DECIMAL.search(candidate)
        )
        if (
            decimal
            or (not international and _NOT_PHONE.search(candidate))
            or _URL_PATH.match(text, match.end())
        ):
            continue  # a decimal, a date, an IP, a page of a site (item.jd.com/100012043978.html)
        if _barcode(text, start, candidate):
            continue
        # a phone cue after it (…に電話) unless a hotline is called, or else one before it (電話, call)
        if _PHONE_CUE_AFTER.match(text, match.end()):
            cued = not _hotline(candidate, anywhere=True)
        else:
            cued = cue == "phone"
        if cued and (after := _PHONE_AFTER_CUE.match(text, start)):
            yield start, after.end(), "PHONE"
            continue
        if _valid_phone(candidate):
            yield start, start + len(candidate), "PHONE"


def _shared(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Loopback, or a private IPv4 address ending in .1 or .254: a home router's (192.168.1.1,
    10.0.0.1), the same on millions of networks, so it names no one."""
    if address.is_loopback:
        return True
    return address.version == 4 and address.is_private and str(address).rsplit(".", 1)[1] in ("1", "254")


def ips(text: str) -> Iterator[Span]:
    """IPv4 and IPv6 addresses. Kept: a version (v1.2.3.4, 版本 10.0.0.1, `HarmonyOS 4.0.0.120`:
    a product's name just before), a section (第 1.1.1.1 节), and an address millions of
    machines share (`_shared`) unless an IP cue names it the user's."""
    for pattern in (_IPV4, _IPV6):
        for match in pattern.finditer(text):
            if pattern is _IPV4 and (
                keeps(text, match.start())
                or _SECTION_AFTER.match(text, match.end())
                or _PRODUCT_BEFORE.search(text, 0, match.start())
            ):
                continue
            try:
                address = ipaddress.ip_address(match.group())
            except ValueError:
                continue
            if not _shared(address) or cue_before(text, match.start()) == "id":  # "my IP is 192.168.1.1"
                yield match.start(), match.end(), "IP"
