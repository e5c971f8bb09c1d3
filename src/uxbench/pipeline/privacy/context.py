"""The words just before a number, which decide what an ambiguous number is.

A Luhn-valid 16-digit number after 订单号 is an order number, after 卡号 a card; an 11-digit
number after "tracking no." is a parcel, after 手机 a phone. The nearest cue word before the
number in the same clause wins, so `订单号 123，手机 13812345678` still redacts the phone and
`卡丢了，身份证号 …` reads the ID as an ID.
"""

from __future__ import annotations

import re

CUE_WINDOW = 16  # characters before the number that are read for a cue

_KEEP_ZH = (
    r"订单(?:号|编号)?|单号|工单|流水号|发票号?|编号|型号|货号|批次|序列号|条形?码|商品码|版本号?|"
    r"第(?=\s*\d)|固件|升级到|更新到|价格|金额|[¥$€£]|运单号?|快递单号?|学号|學號|工号|客服(?:电话|热线)?|热线|"
    r"注文番号|追跡番号|型番|学籍番号|学生番号|バーコード|주문번호|송장번호|운송장|학번|바코드|상품\s*코드|고객센터|サポート"
)
_KEEP_EN = (
    r"order(?:\s*(?:no\.?|number|num|id|#))?|tracking(?:\s*(?:no\.?|number|id|#))?|waybill|"
    r"invoice(?:\s*(?:no\.?|number|#))?|ticket\s*(?:no\.?|number|#)|ref(?:erence)?\s*(?:no\.?|number|#)|"
    r"serial(?:\s*(?:no\.?|number))?|model(?:\s*(?:no\.?|number))?|part\s*(?:no\.?|number)|"
    r"case\s*(?:no\.?|number|#)|sku|isbn|asin|version|ver\.?|v(?=\s*\d)|build|release|firmware|"
    r"rmb|usd|cny|eur|price|cost|section|chapter|clause|step|upgrade(?:d)?\s+to|update(?:d)?\s+to|"
    r"student\s*(?:no\.?|number|id|#)|employee\s*(?:no\.?|number|id)|hotline|helpline|toll[- ]free|"
    r"ean|upc|barcode"
)
# cue words of personal numbers, by what they name
_CUES_ZH = {
    "card": "卡|账号|账户|カード|카드|银联|銀聯|维萨|萬事達|万事达|运通|運通|ビザ|マスター|アメックス|"
    "비자|마스터|아멕스",
    "phone": "手机|电话|座机|联系方式|联系我|致电|拨|打给|打我|请打|微信|(?<![证證])号码|"
    "電話|携帯|連絡先|전화|연락처|휴대폰|핸드폰",
    "id": "身份证|身份證|证件|證件|身分証|マイナンバー|個人番号|주민|신분증",
}
_CUES_EN = {
    "card": "card|account|acct|iban|visa|mastercard|master|amex|unionpay|jcb|discover|diners|maestro",
    "phone": r"phone|mobile|cell|tel|call|text|txt|whatsapp|viber|sms|reach|ring|contact|"
    r"my\s+numb?e?r(?:'s|’s)?",
    "id": r"ssn|social\s*security|id|ip",
}


_LAST_DIGIT = re.compile(r"\d(?!.*\d)", re.DOTALL)
# where a clause ends: a cue word names a number in its own clause only (`卡丢了，身份证号…`)
_CLAUSE_END = re.compile(r"[，。；;！？!?\n]|,\s", re.DOTALL)


def _words(english: str) -> str:
    """English cue words only as whole words (`tip` holds no `ip`)."""
    return rf"(?<![a-z])(?:{english})(?![a-z])"


_CUE = re.compile(
    "|".join(
        [rf"(?P<keep>{_KEEP_ZH}|§|{_words(_KEEP_EN)})"]
        + [rf"(?P<{kind}>{_CUES_ZH[kind]}|{_words(_CUES_EN[kind])})" for kind in _CUES_ZH]
    ),
    re.IGNORECASE,
)


def clause_before(text: str, start: int, window: int = CUE_WINDOW) -> str:
    """The `window` characters before `start`, cut at the end of the clause before them."""
    before = text[max(0, start - window) : start]
    ends = list(_CLAUSE_END.finditer(before))
    return before[ends[-1].end() :] if ends else before


def clause_after(text: str, end: int, window: int = CUE_WINDOW) -> str:
    """The `window` characters after `end`, cut where their clause ends: a cue that follows its
    value (`fill in PA1234567 as the passport no.`, `080-1234-5678に電話`)."""
    after = text[end : end + window]
    stop = _CLAUSE_END.search(after)
    return after[: stop.start()] if stop else after


def cue_before(text: str, start: int, window: int = CUE_WINDOW) -> str | None:
    """`keep`, `card`, `phone`, `id` or None: the kind of the last cue word in the `window`
    characters before `start` within its clause, after the last digit there (a cue names the
    number after it)."""
    before = clause_before(text, start, window)
    digit = _LAST_DIGIT.search(before)
    if digit is not None:
        before = before[digit.end() :]
    last = None
    for match in _CUE.finditer(before + text[start : start + 1]):  # the number's first digit for `第(?=\d)`
        last = match.lastgroup
    return last


def keeps(text: str, start: int) -> bool:
    """An order, tracking, version or section number by the words before it: not personal data."""
    return cue_before(text, start) == "keep"
