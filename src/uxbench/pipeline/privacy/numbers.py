"""Structured identifiers: resident ID numbers (mainland and Taiwan), US social security and UK
national insurance numbers, IBANs, bank cards, phone numbers, IP addresses.

A privacy decision fails closed: a number of an ID's, a card's or a phone's shape where such a
number is expected is redacted whether or not a table knows it. `python-stdnum` (check digits,
issuing areas) and Google's libphonenumber (`phonenumbers`) add numbers that no shape here covers
(an international number in any country's plan, a grouping that names a region). What keeps a
number is what it is: a hotline (by its prefix or libphonenumber's type, in every region our users
call, unless a first-person cue makes it the user's), a home network's or a gateway's IP address,
or the words around it: an order, tracking, version or section cue before it (`context.keeps`), an
order word after it (`kept.order_after`).

Numbers are read as people type them: grouped by spaces, dashes, slashes or dots, in full-width
digits (the caller folds those), glued to text of any script or to a card's brand.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Callable, Iterator
from datetime import date

import phonenumbers
from stdnum import ean, iban, luhn
from stdnum.cn import ric

from uxbench.pipeline.privacy import kept
from uxbench.pipeline.privacy.context import clause_after, clause_before, cue_before, keeps

# how numbers without a leading + are read: any as mainland Chinese or North American; one with a
# trunk 0 also as Japanese, Korean, Taiwanese, or of an English-speaking country that dials one (a
# bare 8-digit run is no phone of its own: Hong Kong's numbers need a phone cue)
PHONE_REGIONS = ("CN", "US")
TRUNK_REGIONS = ("JP", "KR", "TW", "GB", "AU", "NZ", "IE", "PH")
# the regions a number's grouping names when it has no trunk 0: India's mobiles are written 5-5
# (98765 43210), valid by the plan; a Japanese or Korean number typed without its trunk 0
# (90-1234-5678, 3-1234-5678, 10-1234-5678) is read with it, and that grouping makes a number of a
# possible length one
_GROUPED = (
    (re.compile(r"[6-9]\d{4}[ -]\d{5}"), ("IN",), "", phonenumbers.is_valid_number_for_region),
    (
        re.compile(r"[1-9]\d?-\d{4}-\d{4}"),
        ("JP", "KR"),
        "0",
        lambda number, region: phonenumbers.is_possible_number(number),
    ),
)
# where hotlines are read as such (their numbers are the same shapes as people's)
HOTLINE_REGIONS = ("CN", "US", *TRUNK_REGIONS, "IN", "SG")
# numbers of businesses, not of people: hotlines (400, 800, 0120, 1588) are kept
_BUSINESS = {
    phonenumbers.PhoneNumberType.TOLL_FREE,
    phonenumbers.PhoneNumberType.SHARED_COST,
    phonenumbers.PhoneNumberType.PREMIUM_RATE,
    phonenumbers.PhoneNumberType.UAN,
}
Span = tuple[int, int, str]


def glued(edge: str, words: tuple[str, ...]) -> str:
    """Where a number starts: at `edge` (a lookbehind), or just after one of `words` typed glued to
    it (TEL+81…, WhatsApp0086…, TFN278…): a lookbehind of fixed width per word, each a whole word."""
    after = "|".join(f"(?<=(?<![A-Za-z])(?i:{word}))" for word in words)
    return f"(?:{edge}|(?<=[A-Za-z])(?=[+(\\d])(?:{after}))"  # only a letter, then a number, reads words


_EDGE = r"(?<![0-9A-Za-z])"
_END = r"(?![0-9A-Za-z])"
_SEPARATORS = re.compile(r"[\s\-/.]")
# 18-character resident IDs (grouped by spaces or dashes anyhow, by / or . as 6-8-4 or 6-4-4-4) and
# the 15-digit ones issued before 1999; Taiwan's IDs (A123456789); UK national insurance numbers
_ID18 = re.compile(
    r"(?=\d)"
    + _EDGE
    + r"(?:\d(?:[ -]?\d){16}[ -]?[0-9Xx]"
    + r"|\d{6}([/.])\d{8}\1\d{3}[0-9Xx]|\d{6}([/.])\d{4}\2\d{4}\2\d{3}[0-9Xx])"
    + _END
)
_ID_TW = re.compile(_EDGE + r"[A-Z][1289]\d{8}" + _END)
_NINO = re.compile(_EDGE + r"[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-Z]" + _END)
_ID15 = re.compile(r"(?=\d)(?<![0-9A-Za-z])(?<![0-9][ -])\d(?:[ -]?\d){14}(?![0-9A-Za-z])(?![ -][0-9])")
_SSN_EDGE = glued(_EDGE, ("ssn",))
_SSN = re.compile(
    r"(?=\d)(?:" + _SSN_EDGE + r"\d{3}([ -])\d{2}\1\d{4}" + _END + r"|" + _SSN_EDGE + r"\d{9}" + _END + ")"
)
_IBAN = re.compile(
    r"(?=[A-Za-z])" + _EDGE + r"[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{4}){2,7}(?: ?[A-Za-z0-9]{1,3})?" + _END
)
# card brands a number is typed glued to (Visa4111…, AMEX3782…)
_CARD_BRANDS = ("visa", "amex", "jcb", "mastercard", "master", "unionpay", "discover", "diners", "maestro")
_AFTER_BRAND = "|".join(f"(?<=(?i:{brand}))" for brand in _CARD_BRANDS)
# 12-19 digits: whole, in groups of four split by one kind of separator (a dash, one or two spaces),
# Amex's 4-6-5 or UnionPay's 6-13; not the rest of a number a dash began (1588-9386 5475 …: the card
# starts after the hotline)
_CARD_START = (
    rf"(?=\d)(?:(?<![0-9A-Za-z.,+/])|{_AFTER_BRAND}|(?<=(?<![A-Za-z])(?i:no)))(?<!\d-)"  # カードNo4111…
)
_CARD = re.compile(
    _CARD_START + r"(?:\d{12,19}|\d{4}( {1,2}|-)\d{4}\1\d{4}(?:\1\d{1,7}){0,2}"
    r"|\d{4}( {1,2}|-)\d{6}\2\d{4,5}|\d{6}( {1,2}|-)\d{12,13})" + _END
)
# after a card cue, 12-19 digits in any groups that pass Luhn (6217 1121 8282 7605564, 3458 008601
# 19343), not into a version or an amount after them
_CARD_ANY_GROUPS = re.compile(_CARD_START + r"\d(?:[ -]{0,2}\d){11,18}" + _END + r"(?![.,:/]\d)")
# phone words typed glued to the number (TEL+81 90-…, WhatsApp+86…, HP010-…)
_PHONE_WORDS = ("tel", "phone", "mobile", "mob", "cell", "whatsapp", "hp", "ph", "sms", "viber")
_PHONE_EDGE = glued(r"(?<![0-9A-Za-z+\-/.])", _PHONE_WORDS)
# shapes that are phones wherever they stand: a mainland mobile; a North American number with its
# groups split (any area code) and an extension; a UK number; a number with a trunk 0 and one split
_PHONE_SHAPES = re.compile(
    r"(?=[(+\d])(?:"
    + _PHONE_EDGE
    + r"(?:(?:\(?\+ ?86\)?|0086)[ -]?)?1[3-9]\d(?:[ .-]?\d){8}(?![0-9A-Za-z])(?!\.\d)"
    r"|" + _PHONE_EDGE + r"(?:(?:\+ ?1|001|1(?= ?\())[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}"
    r"(?: ?(?:x|ext\.? ?|#)\d{1,6})?(?![0-9A-Za-z])"
    r"|" + _PHONE_EDGE + r"(?:\+44 ?(?:\(0\))? ?\d{2,4}|\(0\d{1,4}\)|0\d{2,4}) ?\d{3,4}[ -]?\d{3,4}"
    r"(?![0-9A-Za-z])"
    r"|" + _PHONE_EDGE + r"(?:0\d{1,3}[ -]|\(0\d{1,3}\) ?)\d{6,8}(?![0-9A-Za-z]))"
)
# after a phone cue: any run of 7-15 digits, however split (not into a version or an amount after it)
_PHONE_DIGITS = 7  # the fewest digits of a number a person is called on
_PHONE_AFTER_CUE = re.compile(
    r"\+?\(?\d[\d ().\-]{5,20}\d(?: ?(?:x|ext\.? ?)\d{1,6})?(?![0-9A-Za-z/:\-]|\s?[年月日時点]|[.,]\d)"
)
# a phone cue just after the number, in its clause: 080-1234-5678に電話, 010-1234-5678로 연락
_PHONE_CUE_AFTER = re.compile(
    r"\s?(?:に|へ|まで|から|로|으로|에|번으로)?\s?(?:電話|連絡|でんわ|着信|전화|연락|문자)"
)
# a phone cue that makes the number the user's own, whatever its digits look like (ring me on 400…)
_FIRST_PERSON = re.compile(
    r"(?<![A-Za-z])(?i:me|my|mine)(?![A-Za-z])|我的|打我|联系我|找我|私の|僕の|俺の|내\s|제\s|저한테|저에게"
)
# an extension: a person's desk behind a company's number, toll-free or not (+1-888-545-0977x583)
_EXTENSION = re.compile(r"\d ?(?:x|ext\.?) ?\d")
# a country code before a number a shape found (+63 917 123 4567: the shape reads 917 123 4567)
_COUNTRY_CODE_BEFORE = re.compile(r"\+ ?\d{1,3}[ .\-]?$")
# how a North American number is written (1-800-…, 1 (415) …): never a mainland mobile (180 0402 4583)
_NANP_GROUPS = re.compile(r"\+?1[ .-]\(?\d{3}\)?[ .-]|\+?1 ?\(\d{3}\)")
_PHONE = re.compile(
    r"(?=[(+\d])"
    + glued(r"(?<![0-9A-Za-z+(])", _PHONE_WORDS)
    + r"(?<!\d[\-/.])\(?(?:\+ ?|00)?\(?\d[\d \t().\-]{5,18}\d"
    + _END
)
# what looks like a phone number to libphonenumber but is a date (2024-06-14 04) or a decimal (3.108607)
_BUILD = re.compile(
    r"^\d{1,3}\.\d{1,2}\.\d{3,5}\.\d{1,4}$"
)  # a browser's or a system's build (130.0.6379.246)
_NOT_PHONE = re.compile(
    r"(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:[0-2]?\d|3[01])|\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d\d"
    r"|^\d{1,3}(?:\.\d{1,3}){3}$|^[1-9]\d?(?:\.\d{1,4}){2,3}$"  # an IP, a version (6.0.47.1000)
    r"|^\d{1,2}\.\d{1,2}\.\d{1,4}$"  # a version with a short middle part (00.00.000): no plan groups so
    r"|" + _BUILD.pattern
)
# phone words no other kind shares, just before the number: 快递员打5193 2644 (打 before digits
# calls; 打8折 has no seven), 电話 typed half simplified, `new number is …`
_CALL_BEFORE = re.compile(r"(?:打|电話|電话)\s*(?:改成|改为|是)?\s*$|(?i:new\s+(?:phone\s+)?number\s+is\s*)$")
_FRACTION = re.compile(r"[.,]\d")
_HEAD_CUT = re.compile(r"(?<=\d)[ .\-]+(?=\d)")  # where a + number may end: between two groups
_OWN_DIGITS, _WHOLE_DIGITS = 5, 9  # a number before (not 400 of 400 020-0000), a whole phone after it
_LATER_GROUP = re.compile(r"(?<=\d )[(+]?\d(?=[\d \-().]{6})")  # a group after a space, 7+ characters left
_DECIMAL = re.compile(r"(?<!\d)\d\.\d|\d\.\d(?!\d)|\.\d{5,}")
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")
_HOME_NETWORK = ipaddress.ip_network("192.168.0.0/16")
# what a private address is named by when it is a network's, not a person's: the router, the
# gateway, the local network, its admin page, in the four languages
_NETWORK_WORD = re.compile(
    r"(?i:router|rotuer|gateway|modem|\blan\b|subnet|intranet|dhcp|admin (?:page|panel)|wi-?fi|nas\b)"
    r"|路由|网关|網關|内网|內網|局域网|區域網路|光猫|后台|後台|管理页|ルーター|ゲートウェイ|管理画面|社内|"
    r"公司网|공유기|게이트웨이|내부망|관리자 페이지|모뎀|와이파이"
)
_IPV6 = re.compile(
    r"(?<![0-9A-Za-z:])(?=[0-9A-Fa-f:]*\d)(?=(?:[0-9A-Fa-f]*:){2})[0-9A-Fa-f:]{3,39}(?![0-9A-Za-z:])"
)
_URL_PATH = re.compile(r"\.(?:s?html?|php|aspx?|jsp|jpe?g|png|gif|pdf)(?![A-Za-z0-9])", re.IGNORECASE)
# how a hotline starts: China's 400 / 800 and North America's toll-free codes (a 1 glued to 800 is a
# mainland mobile's 180 0…), or a hotline prefix
# written as a group of its own (1800 / 1300 in Australia, India, Ireland, Singapore; 0800 / 0808
# in Britain and New Zealand; 0120 / 0570 / 0800 in Japan; 15XX / 16XX / 18XX in Korea)
_HOTLINE_START = re.compile(
    r"(?:\+1[ .-]?|1[ .-]|\(?)(?:400|800|888|877|866|855|844|833|900)"
    r"|(?P<grouped>1[38]00|0[58]0[08]|0120|0570|1[568]\d\d)[ .-]"
)
# North America's toll-free area codes (8XX with the X repeated), written as such: 1-800-…, (888) …
_TOLL_FREE = re.compile(r"(?:\+?1[ .-]?)?\(?8(?:00|33|44|55|66|77|88)\)?[ .-]")
# a first group of a trunk 0 and two digits is a mobile's or an area's (080-0917-8188), never the
# prefix of a hotline, which is written as a group of its own (0800-…, 0120-…)
_TRUNK_GROUP = re.compile(r"0\d\d[ .\-]")
_PRODUCT_BEFORE = re.compile(r"[A-Za-z][A-Za-z]*OS ?$|(?:[A-Z][a-z]+){2,} ?$")  # HarmonyOS 4.0.0.120
_SECTION_AFTER = re.compile(r"\s*(?:节|章|条|款|版)")
# a version named by the words around it, in any of the four languages (버전 4.6.8.80인데,
# バージョン3.6.54.36, 9.4.46.252로 업데이트, 3.6.54.36にしたら, running 7.1.10.188, 今6.6.53.78です)
_VERSION_BEFORE = re.compile(
    r"(?:버전|バージョン|(?i:running|now\s+on|updat(?:e|ed|ing)\s+to|upgrad(?:e|ed|ing)\s+to)|지금|今|现在)\s*[:：]?\s*$"
)
_VERSION_AFTER = re.compile(r"\s*(?:(?:로|으로)\s*업데이트|に(?:更新|アップデート|したら)|版本?)")


# where people cut a number they give in two parts: a line break, a slash or an ellipsis, or words
# (a conjunction after a comma joins clauses, `…3602, 그리고 422 에러`; `，后面是` names the rest)
# (`+44 7928 then 805805`, `010-3151\n0095`, `4563 5066 5840 后几位 8577`, `760903、続きは01-6120`)
_JOINT = re.compile(
    r"\d(?P<joint>[ \t]*(?i:then|and\s+then|followed\s+by|然后|接着|续|續|그리고)[ \t]*"
    r"|[ \t]*(?:[，、,][ \t]*)?"
    r"(?i:the\s+rest\s+is|后几位|后面是|后面|続きは|続き|残りは|あとは|뒤에는|나머지는|다음은)"
    r"[ \t]*[:：]?[ \t]*"
    r"|[ \t]*\n[ \t]*|[ \t]+/[ \t]+|[ \t]*(?:\.{3}|…)[ \t]*)(?=[(+]?\d)"
)
NO_PART = re.compile(
    r"[\d ]{0,12}\d(?:[.,:/]\d|\s?(?:[年月日時点号號원円块塊元万萬만천억%]"
    r"|(?i:usd|rmb|yen|won|am|pm)(?![A-Za-z])))"
)
_JOINT_WINDOW = 64  # characters read on each side of a joint: the number's parts and its cue
Detector = Callable[[str], Iterator[Span]]


def two_parts(detector: Detector) -> Detector:
    """`detector`, and what it finds in a number given in two parts (`_JOINT`): the text around each
    joint read with the joint as the number's own separator or the other one (never none: two
    numbers run together are a third), and a value
    found across it redacted whole, joint and all. Not where the number after the joint is an
    amount, a date, a decimal or an address (a card, then a price on the next line: `NO_PART`)."""

    @functools.wraps(detector)
    def read(text: str) -> Iterator[Span]:
        found = list(detector(text))
        yield from found
        for joint in _JOINT.finditer(text):
            cut, rest = joint.span("joint")
            if NO_PART.match(text, rest):
                continue
            lo, hi = max(0, cut - _JOINT_WINDOW), rest + _JOINT_WINDOW
            dashed = "-" in _compact_tail(text, cut)
            for separator in ("-", " ") if dashed else (" ", "-"):
                seam = cut - lo + len(separator)
                spans = [
                    (lo + s, e - seam + rest, kind)
                    for s, e, kind in detector(text[lo:cut] + separator + text[rest:hi])
                    if s < cut - lo and e > seam
                ]
                if spans:
                    yield from spans
                    break

    return read


def _compact_tail(text: str, end: int) -> str:
    """The digits and dashes that end at `end`: the first part of a number given in two."""
    start = end
    while start > max(0, end - 24) and (text[start - 1].isdigit() or text[start - 1] == "-"):
        start -= 1
    return text[start:end]


def _digits(text: str) -> int:
    return sum(c.isdigit() for c in text)


def _compact(number: str) -> str:
    return _SEPARATORS.sub("", number)


def _born_on(yymmdd: str) -> bool:
    """A birth date of a living person (YYYYMMDD; an order's 20251217-1307… holds 1713-07-18)."""
    try:
        born = date(int(yymmdd[:4]), int(yymmdd[4:6]), int(yymmdd[6:8]))
    except ValueError:
        return False
    return born.year >= 1900


def _checked_resident_id(digits: str) -> bool:
    """An 18-character resident ID whose check character is right. By the checksum alone: stdnum's
    `is_valid` also asks its table of areas, which lacks districts made since (Shenzhen's 440305),
    so a real ID after a card cue would pass as neither an ID nor, ending in X, a card."""
    return ric.calc_check_digit(digits[:17] + "0") == digits[17].upper()


def _old_resident_id(digits: str) -> bool:
    """A 15-digit resident ID: a birth date in 19YY where its digits stand (no area table asked)."""
    return _born_on("19" + digits[6:12])


@two_parts
def id_numbers(text: str) -> Iterator[Span]:
    """Resident IDs by shape (after a card cue, only one with a valid check digit), Taiwan's IDs, UK national
    insurance numbers; a 15-digit number needs a birth date in it or an ID cue."""
    for match in _ID18.finditer(text):  # with no ID cue, a birth date where it stands (not 2 numbers)
        cue, digits = cue_before(text, match.start()), _compact(match.group())
        if cue == "id" or (
            cue != "keep"
            and _born_on(digits[6:14])
            and (cue != "card" or _checked_resident_id(digits))
            and not kept.order_after(text, match.end())  # `…这个单能退吗`: an order's number
        ):
            yield match.start(), match.end(), "ID_NUMBER"
    for match in _ID15.finditer(text):
        cue = cue_before(text, match.start())
        if cue == "id" or (
            cue is None
            and _old_resident_id(_compact(match.group()))
            and not kept.order_after(text, match.end())
        ):
            yield match.start(), match.end(), "ID_NUMBER"
    for pattern in (_ID_TW, _NINO):
        for match in pattern.finditer(text):
            if not keeps(text, match.start()):
                yield match.start(), match.end(), "ID_NUMBER"


@two_parts
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


@two_parts
def cards(text: str) -> Iterator[Span]:
    """Any 12-19 digit number after 卡号 / card, in any groups; a Luhn-valid one of a card's
    grouping anywhere but after a keep cue."""
    found = [  # the longest reading after a cue first (6212  2138  2986 5393: the strict one stops at 2986)
        match.span() for match in _CARD_ANY_GROUPS.finditer(text) if cue_before(text, match.start()) == "card"
    ]
    for match in _CARD.finditer(text):
        cue = cue_before(text, match.start())
        if _URL_PATH.match(text, match.end()) or any(s < match.end() and match.start() < e for s, e in found):
            continue  # a page of a site (item.jd.com/100012043978.html); a card read already
        digits = _compact(match.group())
        if cue != "card" and (
            (len(digits) == 13 and ean.is_valid(digits)) or kept.order_after(text, match.end())
        ):
            continue  # an EAN-13 barcode: a product's, not a person's; an order's number
        if cue == "card" or (cue != "keep" and luhn.is_valid(digits)):
            found.append(match.span())
    for start, end in found:
        yield start, end, "BANK_CARD"


def _valid_phone(candidate: str) -> bool:
    """A person's phone: with `+` / `00`, any number of a possible length for its country (fail
    closed: Faker's and people's numbers are not all in the numbering plans); without, a valid
    number of `PHONE_REGIONS` (`TRUNK_REGIONS` too with a trunk 0) that is no hotline
    (`_BUSINESS`)."""
    candidate = candidate.lstrip("(")
    if candidate.startswith(("+", "00")):  # fail closed: a + number is a phone, a hotline too
        number = _parsed("+" + candidate.lstrip("+0 ").replace(".", " "), None)
        return number is not None and phonenumbers.is_possible_number(number)
    regions = PHONE_REGIONS + TRUNK_REGIONS if candidate.startswith("0") else PHONE_REGIONS
    nanp = _NANP_GROUPS.match(candidate) is not None
    readings = [(candidate, ("US",) if nanp else regions, phonenumbers.is_valid_number_for_region)]
    readings += [
        (trunk + candidate, more, ok) for shape, more, trunk, ok in _GROUPED if shape.fullmatch(candidate)
    ]
    for digits, regions, ok in readings:  # a hotline in one reading (900-…) may be a phone in the next
        for region in regions:  # checking one region is much faster than finding the region
            number = _parsed(digits, region)
            if number is not None and ok(number, region):
                if not _business(number):
                    return True
                break
    return False


def _valid_head(candidate: str) -> str:
    """A + number up to its last group that makes it valid in its country's plan, when one does
    (`+82 10-5608-7926 206`: an amount after it); else the whole, which fails closed."""
    cuts = [len(candidate)] + [m.start() for m in _HEAD_CUT.finditer(candidate)][::-1][:3]
    for cut in cuts:
        number = _parsed(candidate[:cut].replace(".", " "), None)
        if number is not None and phonenumbers.is_valid_number(number):
            return candidate[:cut]
    return candidate


def _parsed(digits: str, region: str | None) -> phonenumbers.PhoneNumber | None:
    try:
        return phonenumbers.parse(digits, region)
    except phonenumbers.NumberParseException:
        return None


def _business(number: phonenumbers.PhoneNumber) -> bool:
    return phonenumbers.number_type(number) in _BUSINESS


def _hotline(candidate: str, anywhere: bool = False) -> bool:
    """A hotline: a number whose first group is a hotline prefix (0120-…, 1800 …, 1588-…); one that
    starts as China's or North America's do and that libphonenumber calls a hotline there, or
    `anywhere` in any of `HOTLINE_REGIONS` (an unsplit 18000000000 is a mainland mobile, not
    India's 1800 toll-free). Only these are parsed: parsing is the redactor's slowest step."""
    if _TOLL_FREE.match(candidate):  # by the plan's rule, whether or not the rest is a valid number
        return True
    start = _HOTLINE_START.match(candidate)
    if start and start.group("grouped"):  # a hotline prefix as a group of its own: by the plan's rule too
        return True
    if not (anywhere or start) or _TRUNK_GROUP.match(candidate):
        return False
    for region in HOTLINE_REGIONS if anywhere else ("CN", "US"):
        number = _parsed(candidate, region)
        if number is not None and _business(number):
            return True
    return False


def _barcode(text: str, start: int, number: str) -> bool:
    """An EAN-13 barcode (`0797048491654`, check digit valid) that no phone cue names: a
    product's, not a person's (one phone number in ten passes the check, but none is 13 bare
    digits that a phone word does not announce)."""
    return (
        len(number) == 13 and number.isdigit() and ean.is_valid(number) and cue_before(text, start) != "phone"
    )


@two_parts
def phones(text: str) -> Iterator[Span]:
    """Phone-shaped numbers (`_PHONE_SHAPES`), any run of digits after a phone cue (or just before
    one, `…に電話`, unless a hotline), and numbers that libphonenumber's metadata calls valid for
    mainland China, North America or, with a `+` / `00`, any country. An EAN-13 barcode stays."""
    shaped = [
        m.span()
        for m in _PHONE_SHAPES.finditer(text)
        if not (
            keeps(text, m.start())
            or _hotline(m.group())
            or _barcode(text, m.start(), m.group())
            or kept.order_after(text, m.end())
            or _IPV4.fullmatch(m.group())  # a kept router's 192.168.50.254 is no mobile's 192 1685 0254
            or _BUILD.match(m.group())
        )
    ]
    for start, end in shaped:
        code = _COUNTRY_CODE_BEFORE.search(text, max(0, start - 6), start)
        yield code.start() if code else start, end, "PHONE"
    for match in _PHONE.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in shaped):
            continue  # a shape took it: libphonenumber need not read it
        candidate = match.group().strip()
        start = match.start() + match.group().index(candidate[0])
        end = _phone_from(text, start, candidate, match.end())
        if end is None:  # a number that another ran into: 学籍番号20596490 03 3550 3653, 1899-1307 010.…
            for group in _LATER_GROUP.finditer(candidate):  # after a number of its own, a whole one
                later = _PHONE.match(text, start + group.start())
                if (
                    later
                    and _digits(candidate[: group.start()]) >= _OWN_DIGITS
                    and _digits(later.group()) >= _WHOLE_DIGITS
                    and (end := _phone_from(text, later.start(), later.group().strip(), later.end()))
                ):
                    start = later.start()
                    break
        if end is not None:
            yield start, end, "PHONE"


def _phone_from(text: str, start: int, candidate: str, stop: int) -> int | None:
    """Where a phone number read from `start` ends (`candidate` runs to `stop`), or None."""
    cue = cue_before(text, start)
    if cue == "keep":
        return None
    if cue is None and _CALL_BEFORE.search(text, max(0, start - 16), start):
        cue = "phone"
    end = _phone_end(text, start, candidate, cue)
    if end is None and " " in candidate and _FRACTION.match(text, stop):
        # 080-5135-9228 16.9.52: a number, then a version or an amount that it ran into
        end = _phone_end(text, start, candidate.rsplit(" ", 1)[0].rstrip(" ("), cue)
    return end


def _phone_end(text: str, start: int, candidate: str, cue: str | None) -> int | None:
    """Where the phone number `candidate` at `start` ends, or None when it is no person's."""
    international = candidate.lstrip("(").startswith("+")  # +61.3.1779.5157, (+82)10…: no decimal, no date
    if international and (head := _valid_head(candidate)) != candidate:
        return start + len(head)  # a valid number, and what follows it no part of it
    decimal = not (international or cue == "phone") and (
        candidate.count(".") == 1 or _DECIMAL.search(candidate)
    )
    end = start + len(candidate)
    if _digits(candidate) < _PHONE_DIGITS:
        return None  # no numbering plan has a person's number this short (`微信 00.00.0`)
    if decimal or (not international and _NOT_PHONE.search(candidate)) or _URL_PATH.match(text, end):
        return None  # a decimal, a date, an IP, a page of a site (item.jd.com/100012043978.html)
    if _barcode(text, start, candidate) or kept.order_after(text, end):
        return None  # a product's barcode; an order's number
    whole = _PHONE_AFTER_CUE.match(text, start)
    extension = whole is not None and _EXTENSION.search(whole.group()) is not None
    if _hotline(candidate) and not (extension or _FIRST_PERSON.search(clause_before(text, start))):
        return None  # a hotline, whatever word names it (官方电话是400…), but `ring me on 400…`, `…x583`
    # a phone cue before it (電話, call), or after it (…に電話) unless that calls a hotline (0120…)
    cued = cue == "phone" or (_PHONE_CUE_AFTER.match(text, end) and not _hotline(candidate, anywhere=True))
    if cued and (after := _PHONE_AFTER_CUE.match(text, start)):
        return after.end()
    return end if _valid_phone(candidate) else None


def _shared(address: ipaddress.IPv4Address | ipaddress.IPv6Address, clause: str) -> bool:
    """Loopback, a home network's address (192.168/16, what consumer routers hand out: the router
    at 192.168.x.253 and the laptop behind it alike), a gateway's in another private range
    (10.0.0.1, 172.16.0.254), or any private address its clause calls a network's (`网关
    172.21.106.97`, `社内LANの10.8.3.77`): the same addresses on millions of networks, unreachable
    from outside, so they name no one. A host in a company's 10/8 with no such word (`the server at
    10.43.125.177`) names a machine, and is redacted."""
    if address.is_loopback:
        return True
    return address.version == 4 and (
        address in _HOME_NETWORK
        or (
            address.is_private
            and (str(address).rsplit(".", 1)[1] in ("1", "254") or bool(_NETWORK_WORD.search(clause)))
        )
    )


def ips(text: str) -> Iterator[Span]:
    """IPv4 and IPv6 addresses. Kept: a version (v1.2.3.4, 版本 10.0.0.1, `HarmonyOS 4.0.0.120`:
    a product's name just before), a section (第 1.1.1.1 节), and a home network's or a gateway's
    address (`_shared`) unless an IP cue names it the user's."""
    for pattern in (_IPV4, _IPV6):
        for match in pattern.finditer(text):
            if pattern is _IPV4 and (
                keeps(text, match.start())
                or _SECTION_AFTER.match(text, match.end())
                or (
                    cue_before(text, match.start()) != "id"  # `my IP is now 10.1.2.3`
                    and (
                        _VERSION_BEFORE.search(clause_before(text, match.start()))
                        or _VERSION_AFTER.match(text, match.end())
                    )
                )
                or _PRODUCT_BEFORE.search(text, 0, match.start())
            ):
                continue
            try:
                address = ipaddress.ip_address(match.group())
            except ValueError:
                continue
            clause = f"{clause_before(text, match.start())} {clause_after(text, match.end())}"
            if (
                not _shared(address, clause) or cue_before(text, match.start()) == "id"
            ):  # "my IP is 192.168.1.1"
                yield match.start(), match.end(), "IP"
