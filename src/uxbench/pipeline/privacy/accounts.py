"""Messenger accounts, vehicle plates and device identifiers: values that name one person's
account, car or phone.

A messenger id has no shape of its own (`wxid_123abc`, `susan_91`, `@kyle`, a QQ number), so it is
the word after its cue (微信, QQ, LINE ID, 카카오톡, Telegram, …, or an account's own word: handle,
username, 用户名) in the same clause. Plates and MAC
addresses have shapes of their own; an IMEI is 15 digits with a Luhn check after its cue.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from stdnum import imei

from uxbench.pipeline.privacy.context import clause_before

Span = tuple[int, int, str]

# (LINE in capitals only: `this line fails: …` names no account)
_MESSENGERS = (
    r"(?<![A-Za-z])(?:微信|微信号|wechat|weixin|QQ|企鹅号|(?-i:LINE)(?:\s*ID)?|(?-i:LINE)の?ID|카카오톡|카톡|kakao(?:talk)?|telegram|"
    r"whatsapp|skype|discord|instagram|抖音号?|微博)"
)
# an account's own word, whichever messenger it is on (`my handle is …`, ユーザー名, 用户名)
# (a possessive or a colon makes the English word one: not `the door handle is broken`)
_ACCOUNT_EN = r"(?:handle|user\s*name|screen\s*name|user\s*id)(?![A-Za-z])"
_ACCOUNT = (
    rf"(?<![A-Za-z])(?:my|your|his|her|their|our)\s+{_ACCOUNT_EN}|(?<![A-Za-z]){_ACCOUNT_EN}(?=\s*[:：=])|"
    r"用户名|用戶名|ユーザー名|ユーザーID"
)
_ANY_HANDLE_CUE = re.compile(f"{_MESSENGERS}|{_ACCOUNT}", re.IGNORECASE)
_HANDLE_CUE = re.compile(
    f"(?:{_MESSENGERS}|{_ACCOUNT})"
    + r"(?:\s*(?:号|號|id|ID|아이디|账号|帐号|handle|username|user|是|は|:|：|is|=))*\s*$",
    re.IGNORECASE,
)
_HANDLE = re.compile(r"@?[A-Za-z0-9][A-Za-z0-9_.\-]{3,31}(?<![.\-])")
_PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
_PLATE_ZH = re.compile(rf"[{_PROVINCES}][A-HJ-NP-Z][·•・ ]?[A-HJ-NP-Z0-9]{{5,6}}(?![0-9A-Za-z])")
# the closed set of a Korean plate's letters: not an apartment's block (112동 1604호)
_PLATE_KO_LETTERS = (
    "가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주아바사자배하허호육해공국합"
)
_PLATE_KO = re.compile(rf"(?<![0-9])\d{{2,3}}[{_PLATE_KO_LETTERS}] ?\d{{4}}(?![0-9])")
_PLATE_JA = re.compile(r"[\u4e00-\u9fff]{1,4} ?\d{2,3} ?[\u3041-\u3093] ?\d{1,2}-\d{2}(?![0-9])")
_PLATE_CUE = re.compile(r"plate|registration|rego|车牌|車牌|ナンバー|차량\s*번호|차\s*번호", re.I)
_PLATE_EN = re.compile(
    r"(?<![0-9A-Za-z])(?=[A-Z0-9 \-]*\d)(?=[A-Z0-9 \-]*[A-Z])[A-Z0-9]{2,4}[ -]?[A-Z0-9]{2,4}(?![0-9A-Za-z])"
)
# up to the last value before a candidate (a digit, or a value found and masked): a cue names the
# value just after it, not a model number after the plate (`차 번호는 72더 0372입니다 RTX 4070`)
_VALUE_BEFORE = re.compile(r"^.*[\d\x00]", re.DOTALL)
_HEX2 = "[0-9A-Fa-f]{2}"
_MAC = re.compile(rf"(?<![0-9A-Fa-f:\-]){_HEX2}([:-])(?:{_HEX2}\1){{4}}{_HEX2}(?![0-9A-Fa-f:\-])")
_IMEI = re.compile(r"(?<![0-9])\d{2}[ -]?\d{6}[ -]?\d{6}[ -]?\d(?![0-9])|(?<![0-9])\d{15}(?![0-9])")
_IMEI_CUE = re.compile(r"IMEI|MEID|串号|串號", re.IGNORECASE)


def may_handle(text: str) -> bool:
    """Whether a messenger's name is in the text at all: most turns have none, and skip `handles`."""
    return _ANY_HANDLE_CUE.search(text) is not None


def handles(text: str) -> Iterator[Span]:
    """The word after a messenger's cue in the same clause."""
    for match in _HANDLE.finditer(text):
        if _HANDLE_CUE.search(clause_before(text, match.start(), 24)):
            yield match.start(), match.end(), "HANDLE"


def plates(text: str) -> Iterator[Span]:
    """Chinese, Korean and Japanese plates by shape; other plates after a plate cue."""
    for pattern in (_PLATE_ZH, _PLATE_KO, _PLATE_JA):
        for match in pattern.finditer(text):
            yield match.start(), match.end(), "PLATE"
    if _PLATE_CUE.search(text):
        for match in _PLATE_EN.finditer(text):
            if _PLATE_CUE.search(_VALUE_BEFORE.sub("", clause_before(text, match.start(), 24))):
                yield match.start(), match.end(), "PLATE"


def devices(text: str) -> Iterator[Span]:
    """MAC addresses by shape; IMEIs (Luhn-checked) after their cue."""
    for match in _MAC.finditer(text):
        yield match.start(), match.end(), "DEVICE"
    if _IMEI_CUE.search(text):
        for match in _IMEI.finditer(text):
            if imei.is_valid(match.group()) and _IMEI_CUE.search(clause_before(text, match.start(), 24)):
                yield match.start(), match.end(), "DEVICE"
