"""Redaction of personal data, before any text reaches an agent stage or a file.

Each detector finds spans of one type; overlapping spans go to the detector listed first, and
each span becomes a typed placeholder (`[EMAIL]`, `[PHONE]`, …). Structured identifiers are
checked, not just shaped: phone numbers with Google's libphonenumber (`phonenumbers`: valid
numbers of mainland China and North America, and any `+` international number), Chinese
resident ID numbers with their check digit and birth date and bank-card numbers with the
Luhn check (`python-stdnum`), IP addresses with `ipaddress`. Names and street addresses are
found by pattern only, where the text introduces them (我叫…, 收件人：…, "my name is …",
"Dear …"; a street with its door number): no library recognises Chinese and English names
offline from PyPI alone (see docs/pipeline.md#privacy).
"""

from __future__ import annotations

import ipaddress
import re
from collections import Counter
from collections.abc import Callable, Iterator
from urllib.parse import parse_qsl, urlsplit

import phonenumbers
from stdnum import luhn
from stdnum.cn import ric

from uxbench.pipeline.read.rawlog import Conversation, LogTurn

TYPES = ("URL", "EMAIL", "ID_NUMBER", "BANK_CARD", "PHONE", "IP", "ADDRESS", "NAME")
PHONE_REGIONS = ("CN", "US")  # how numbers without a leading + are read
Span = tuple[int, int, str]

# ---------------------------------------------------------------- detectors

_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>\"'，。！？；、（）()【】「」]+", re.IGNORECASE)
_SECRET_PARAM = re.compile(
    r"token|key|secret|passw(?:or)?d|pwd|sig(?:nature)?|auth|session|sid|credential|ticket|code", re.I
)
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
)
_ID_NUMBER = re.compile(r"(?<![0-9A-Za-z])\d{17}[0-9Xx](?![0-9A-Za-z])")
# 13-19 digits, optionally in groups split by single spaces or dashes
_CARD = re.compile(r"(?<![0-9A-Za-z.,])\d(?:[ -]?\d){12,18}(?![0-9A-Za-z])")
# issuer prefixes of UnionPay, Visa, Mastercard, Amex, JCB, Discover, Diners, Maestro
_CARD_PREFIX = re.compile(r"^(?:62|81|4|5[1-5]|2[2-7]|3[47]|35|6011|65|30[0-5]|36|38|50|5[6-8]|6[39])")
_CARD_CUE = re.compile(r"(?:卡号|银行卡|信用卡|储蓄卡|card)[^\d]{0,12}$", re.IGNORECASE)
_PHONE_RUN = re.compile(r"\+?\d[\d\s().\-]{5,}\d")
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")
_IPV6 = re.compile(
    r"(?<![0-9A-Za-z:])(?=[0-9A-Fa-f:]*\d)(?=(?:[0-9A-Fa-f]*:){2})[0-9A-Fa-f:]{3,39}(?![0-9A-Za-z:])"
)
_VERSION_CUE = re.compile(r"(?:\bv|\bver(?:sion)?\.?\s*|版本\s*[:：]?\s*)$", re.IGNORECASE)

_SURNAMES = (
    "欧阳|司马|诸葛|上官|东方|皇甫|令狐|慕容|端木|公孙|尉迟|长孙|夏侯|"
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
_SURNAME = "(?:" + "|".join(_SURNAMES.split("|")[:-1]) + "|[" + _SURNAMES.split("|")[-1] + "])"
_NAME_ZH = re.compile(
    r"(?:我叫|我的名字(?:是|叫)|名字是|姓名\s*[:：]?|联系人\s*[:：]?|收件人\s*[:：]?|收货人\s*[:：]?|"
    r"持卡人\s*[:：]?)\s*(?P<name>" + _SURNAME + r"[\u4e00-\u9fff]{1,2}?)"
    r"(?=$|[^\u4e00-\u9fff]|今年|是|的|在|住|电话|手机|来自|想|要|和|，)"
)
_NAME_EN = re.compile(
    r"(?:(?i:my name is|my name's|i am called|i'm called|name\s*[:：])\s+|"
    r"\bDear\s+|(?i:regards|sincerely),\s*\n?\s*)"
    r"(?P<name>[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2})"
)
_ADDRESS_ZH = re.compile(
    r"[\u4e00-\u9fff]{1,5}(?:路|街|大道|巷|弄|胡同)\d{1,5}(?:[-之]\d{1,4})?号"
    r"(?:[\u4e00-\u9fff]{0,6}?\d{1,4}(?:栋|幢|座|号楼|单元|楼|层|室))*"
)
_ADDRESS_EN = re.compile(
    r"\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}"
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace)\b\.?"
    r"(?:,?\s*(?:Apt|Apartment|Suite|Unit|Flat)\.?\s*#?\w+)?"
)


def _urls(text: str) -> Iterator[Span]:
    """URLs that carry credentials (user:password@) or a token-like query parameter."""
    for match in _URL.finditer(text):
        try:
            parts = urlsplit(match.group())
            params = parse_qsl(parts.query, keep_blank_values=True) + parse_qsl(parts.fragment)
        except ValueError:
            continue
        if "@" in parts.netloc or any(_SECRET_PARAM.search(name) and value for name, value in params):
            yield match.start(), match.end(), "URL"


def _emails(text: str) -> Iterator[Span]:
    for match in _EMAIL.finditer(text):
        yield match.start(), match.end(), "EMAIL"


def _id_numbers(text: str) -> Iterator[Span]:
    for match in _ID_NUMBER.finditer(text):
        if ric.is_valid(match.group()):
            yield match.start(), match.end(), "ID_NUMBER"


def _cards(text: str) -> Iterator[Span]:
    """Luhn-valid numbers with a card issuer's prefix, or any Luhn-valid number after 卡号 / card."""
    for match in _CARD.finditer(text):
        digits = re.sub(r"[ -]", "", match.group())
        cued = _CARD_CUE.search(text[max(0, match.start() - 16) : match.start()]) is not None
        if luhn.is_valid(digits) and (cued or _CARD_PREFIX.match(digits)):
            yield match.start(), match.end(), "BANK_CARD"


def _phones(text: str) -> Iterator[Span]:
    if _PHONE_RUN.search(text) is None:  # the matcher is slow; most texts hold no digit run
        return
    for region in PHONE_REGIONS:
        for match in phonenumbers.PhoneNumberMatcher(text, region, leniency=phonenumbers.Leniency.VALID):
            yield match.start, match.end, "PHONE"


def _ips(text: str) -> Iterator[Span]:
    for pattern in (_IPV4, _IPV6):
        for match in pattern.finditer(text):
            if pattern is _IPV4 and _VERSION_CUE.search(text[max(0, match.start() - 10) : match.start()]):
                continue  # v1.2.3.4, 版本 10.0.0.1
            try:
                ipaddress.ip_address(match.group())
            except ValueError:
                continue
            yield match.start(), match.end(), "IP"


def _patterns(kind: str, *patterns: re.Pattern[str]) -> Callable[[str], Iterator[Span]]:
    def find(text: str) -> Iterator[Span]:
        for pattern in patterns:
            for match in pattern.finditer(text):
                group = "name" if "name" in pattern.groupindex else 0
                yield match.start(group), match.end(group), kind

    return find


DETECTORS: tuple[Callable[[str], Iterator[Span]], ...] = (
    _urls,
    _emails,
    _id_numbers,
    _cards,
    _phones,
    _ips,
    _patterns("ADDRESS", _ADDRESS_ZH, _ADDRESS_EN),
    _patterns("NAME", _NAME_ZH, _NAME_EN),
)


# ---------------------------------------------------------------- redaction


def find_spans(text: str) -> list[Span]:
    """Non-overlapping spans, in text order; of overlapping ones the earlier detector's wins."""
    chosen: list[Span] = []
    for detector in DETECTORS:
        for start, end, kind in detector(text):
            if all(end <= s or start >= e for s, e, _ in chosen):
                chosen.append((start, end, kind))
    return sorted(chosen)


def redact_text(text: str, counts: Counter[str] | None = None) -> str:
    """`text` with every span found replaced by its `[TYPE]` placeholder; counts by type."""
    spans = find_spans(text)
    if not spans:
        return text
    pieces, last = [], 0
    for start, end, kind in spans:
        pieces += [text[last:start], f"[{kind}]"]
        last = end
        if counts is not None:
            counts[kind] += 1
    return "".join(pieces) + text[last:]


def redact_conversation(conversation: Conversation, counts: Counter[str]) -> Conversation:
    turns = tuple(
        LogTurn(t.role, redact_text(t.text, counts), t.time, t.feedback) for t in conversation.turns
    )
    return Conversation(conversation.cid, turns)
