"""A second opinion on text that should hold no personal data, for `uxbench pipeline scan`: not
the redactor's detectors asking themselves, but the field libraries and a wider net.

- phone numbers: libphonenumber's own matcher (`phonenumbers.PhoneNumberMatcher`, leniency
  VALID) for mainland China, Taiwan, North America and the UK, and any `+` number;
- credentials: detect-secrets' plugins (keywords, basic auth, provider keys, private keys, JWTs;
  not its entropy plugins, which call every word of a log a secret);
- Chinese names: every word that jieba's tagger calls a person (`nr`) and its dictionary lacks;
- and shapes: a token of 20 or more letters and digits mixed (not hex: digests and uuids
  are no secrets), any run of 7 or more digits (an ID, a card, a phone) that no order, version or
  date cue explains, an email address (also `163。com`), `user:pass@` in a URL, a capitalised
  name after a word that names a person, a Chinese address with a door number, a US state and
  ZIP code, a UK postcode; a spelt-out e-mail (`name at 163 dot com`, `name艾特qq.com`), a MAC
  address (DEVICE), a Chinese or Korean plate (PLATE), a run of Chinese numerals, the word after a
  messenger's name (HANDLE), a Korean or Japanese name before its honorific (님, 씨, さん, 様).

Placeholders (`[PHONE]`), fence lines and ISO timestamps are no values. Slower than the redactor,
and meant to be: it runs once on a finished set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import phonenumbers

from uxbench.data.templates import FENCE_ID
from uxbench.pipeline.privacy.context import keeps

Finding = tuple[int, int, str]

REGIONS = ("CN", "TW", "US", "GB")
_PLACEHOLDER = re.compile(r"\[[A-Z_]{2,12}\]")
# no values: a prompt's fence lines (`<turn-253686581194>`, the id a hash that may be all digits)
# and a log's own ISO timestamps (`2026-12-03T17:24:16.004138+00:00`, read as a phone now and then)
_NOT_VALUES = re.compile(
    rf"</?[a-z_]+-[0-9a-f]{{{FENCE_ID}}}>"
    r"|\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)?(?![\w:.])"
)
_DATE = re.compile(
    r"(?:19|20)\d\d[-/.年]\d{1,2}[-/.月]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d\d"
    r"|^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$"
)
_DIGITS = re.compile(
    r"(?<![\w.])\+?\d(?:[ ()./-]{0,2}\d){6,}(?:[Xx](?![A-Za-z0-9])|\s?(?:x|ext\.?)\s?\d{1,6})?(?![\w])"
)
_AT = r"\s*(?:\[at\]|\(at\)|艾特)\s*"
_SPELT_DOT = r"(?:\s*(?:\[dot\]|\(dot\)|点)\s*|\s+dot\s+)"
_DOT = rf"(?:{_SPELT_DOT}|\.)"
_NAME_EN = re.compile(
    r"(?:(?i:\bto|\bwith|\bask|\btell|\bcall|\bfrom|\bby|\bdear|\bname is|\bI'm|\bI am|\bthis is|\bcc)\s+)"
    r"(?P<name>[A-ZÀ-Þ][\w'’-]+(?:\s+[A-ZÀ-Þ][\w'’-]+)+)"
)
# (pattern, kind): a URL with user:pass@ before an email, which would take its pass@host
_SHAPES = (
    (re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/\s@]*:[^/\s@]+@[^\s/]+"), "URL"),
    (re.compile(r"[\w.+-]+\s?[@＠]\s?[\w-]+(?:\s?[.。．]\s?[\w-]+)*\s?[.。．]\s?[A-Za-z]{2,}"), "EMAIL"),
    (
        re.compile(
            r"[\u4e00-\u9fff]{2,}(?:路|街|巷|道|村|镇|鎮|乡|鄉|段|弄)[0-9A-Za-z之-]*\d+\s?(?:号|號|室|栋|棟|楼|樓|组|組|座)"
            r"|\b\d{1,6}[A-Za-z]?\s+[A-Z][\w'’.-]*(?:[\s,]+[A-Z][\w'’.-]*){0,8},?\s+[A-Z]{2},?\s+\d{5}(?:-\d{4})?\b"
            r"|\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b"
        ),
        "ADDRESS",
    ),
    # spelt e-mails (name[at]x.com, name艾特qq.com, name at 163 dot com), not the redactor's normal form
    (
        re.compile(
            rf"[A-Za-z0-9._+-]+{_AT}[A-Za-z0-9-]+(?:{_DOT}[A-Za-z0-9-]+)*{_DOT}[A-Za-z]{{2,}}"
            rf"|[A-Za-z0-9._+-]+\s+at\s+[A-Za-z0-9-]+(?:{_DOT}[A-Za-z0-9-]+)*{_SPELT_DOT}[A-Za-z]{{2,}}",
            re.IGNORECASE,
        ),
        "EMAIL",
    ),
    (re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}(?![0-9A-Fa-f])"), "DEVICE"),
    (
        re.compile(
            r"[京沪粤浙苏川鲁豫鄂湘闽皖津渝冀辽吉黑赣桂琼贵云陕甘青宁新蒙晋藏][A-Z]\W?[A-Z0-9]{5,6}"
            r"|\d{2,3}[\uac00-\ud7a3]\s?\d{4}"
        ),
        "PLATE",
    ),
    (re.compile(r"[零〇一二三四五六七八九幺两]{7,}"), "NUMBER"),
    (
        re.compile(
            r"(?:微信号?|(?i:wechat|telegram|whatsapp)|QQ|LINE|카카오톡|카톡)"
            r"(?:\s*(?:号|ID|id|아이디)\s*[:：是]?|\s*[:：是])\s*@?[A-Za-z0-9_.-]{5,}"
        ),
        "HANDLE",
    ),
    # names before an honorific: 이서현 씨, 高橋さん, 井上 裕美子様
    (
        re.compile(
            r"[\uac00-\ud7a3]{2,4}(?=\s?(?:님|씨))"
            r"|[\u4e00-\u9fff]{1,4}[ \u3000]?[\u4e00-\u9fff]{0,3}(?=さん|様|さま|ちゃん|君)"
        ),
        "NAME",
    ),
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_TOKEN = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=(?:[\w-]*[A-Za-z]){3})[\w-]{20,}(?![\w-])", re.ASCII)
_IDENTIFIER = re.compile(r"[a-z]+\d*(?:_(?:[a-z]+\d*|\d+))+")  # uxbench_ux_judge_0001, test_kind_i0
_NOT_NAMES = {"Customer", "Support", "Team", "Sir", "Madam", "Service", "Manager", "All", "Colleagues"}
_LOG_NAME = re.compile(r"\d{4}-\d\d-\d\dT\d\d-")  # an Inspect log's file name: 2026-12-03T14-31-44-…
_ALNUM = re.compile(r"[A-Za-z0-9]")
_HEX = re.compile(r"(?:redacted-)?[0-9a-fA-F-]+")  # digests, uuids, the redactor's cid digests
_NOT_NUMBER = re.compile(r"^\d{1,3}(?:\.\d{1,3}){2,}$|^\d+\.\d+$")  # a version or a decimal


@cache
def _secret_settings() -> list[dict[str, str]]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return [
        {"name": plugin.__name__}
        for plugin in get_mapping_from_secret_type_to_class().values()
        if "Entropy" not in plugin.__name__ and plugin.__name__ != "IPPublicDetector"
    ]


def secrets(text: str) -> Iterator[Finding]:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    with transient_settings({"plugins_used": _secret_settings()}):
        for line in text.splitlines():
            for found in scan_line(line):
                value = found.secret_value or ""
                at = text.find(value) if value else -1
                if at >= 0:
                    yield at, at + len(value), "SECRET"


def phones(text: str) -> Iterator[Finding]:
    seen: set[tuple[int, int]] = set()
    for region in REGIONS:
        for match in phonenumbers.PhoneNumberMatcher(text, region, phonenumbers.Leniency.VALID):
            inside = _ALNUM.match(text[match.start - 1 : match.start] + " ") or _ALNUM.match(
                text[match.end :] + " "
            )
            if (match.start, match.end) not in seen and not inside and not keeps(text, match.start):
                seen.add((match.start, match.end))
                yield match.start, match.end, "PHONE"


def numbers(text: str) -> Iterator[Finding]:
    """Any long run of digits: an ID, a card, a phone the matcher did not take."""
    for match in _DIGITS.finditer(text):
        value = match.group()
        if keeps(text, match.start()) or _DATE.search(value) or _NOT_NUMBER.match(value):
            continue
        yield match.start(), match.end(), "NUMBER"


def names(text: str) -> Iterator[Finding]:
    for match in _NAME_EN.finditer(text):
        if not _NOT_NAMES.intersection(match.group("name").split()):
            yield match.start("name"), match.end("name"), "NAME"
    if _CJK.search(text):
        import rjieba

        at = 0
        for word, tag in rjieba.tag(text):
            # 这张卡, 《卡坦岛》, 问一(下)
            after_measure = text[at - 1 : at] in "这那一两几每哪各某本该此這兩幾該《" or "一" in word
            if (
                tag == "nr"
                and len(word) >= 2
                and _CJK.match(word)
                and not rjieba.has_word(word)
                and not after_measure
            ):
                yield at, at + len(word), "NAME"
            at += len(word)


def shapes(text: str) -> Iterator[Finding]:
    for pattern, kind in _SHAPES:
        for match in pattern.finditer(text):
            yield match.start(), match.end(), kind
    for match in _TOKEN.finditer(text):
        value = match.group()
        if not _HEX.fullmatch(value) and not _IDENTIFIER.fullmatch(value) and not _LOG_NAME.match(value):
            yield match.start(), match.end(), "SECRET"


def findings(text: str) -> list[Finding]:
    """What survived in `text`, by kind; a value two nets find counts once, for the first."""
    for no_value in (_PLACEHOLDER, _NOT_VALUES):
        text = no_value.sub(lambda m: " " * len(m.group()), text)
    found: list[Finding] = []
    for net in (phones, shapes, secrets, numbers, names):
        for start, end, kind in net(text):
            if not any(s < end and start < e for s, e, _ in found):
                found.append((start, end, kind))
    return sorted(found)
