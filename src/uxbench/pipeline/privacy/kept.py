"""What looks like personal data and is kept on purpose, by the grammar of the thing itself
rather than a list of examples:

- an HTTP status line (`502 Bad Gateway`, `HTTP/1.1 403 Forbidden`): a code with its own reason
  phrase from the standard (`http.HTTPStatus`), which capitalised-pair name patterns and the
  learned detector read as a person (`Bad Gateway`, `Forbidden Brigitte Leroy`);
- a product's name (`Tesla Model 3`, `Xbox Series X`, `iPhone 15 Pro Max`): capitalised words
  with a model designator beside them (a number of up to four digits, a letter and digits, or a
  single capital letter), or after a determiner (`my Visual Studio Code`, `on Amazon Prime`). A
  person's name has no model number and takes no determiner, so a name candidate with either is
  a product;
- a shop, brand or place named after a person (`杨国福麻辣烫`, `钟薛高旗舰店`, `Calvin Klein had a sale`,
  `bought it at Ralph Lauren`, `我用的是陈皮`): a name candidate with a word of trade beside it
  (a shop, a store's door, its goods, a sale, buying at it, an app that will not open). People are
  not bought at, have no flagship store and do not open, so such a candidate is a brand;
- an order's number named by the words just after it (`3961…这个单能退吗`, `2024…433 주문 취소`,
  `…の注文をキャンセル`): the cue before a number is read by `context`, this one follows it.
"""

from __future__ import annotations

import re
from http import HTTPStatus

from uxbench.pipeline.privacy.names import swapped

Span = tuple[int, int, str]

_PHRASES = "|".join(str(s.value) + r"\s+" + r"\s+".join(map(re.escape, s.phrase.split())) for s in HTTPStatus)
_STATUS = re.compile(
    r"(?<![A-Za-z0-9/.])(?:HTTP(?:/\d(?:\.\d)?)?\s+)?(?:" + _PHRASES + r")(?![A-Za-z0-9'’-])",
    re.IGNORECASE,
)
# an order named after its number, in its clause: 这个单 / 订单, 주문, の注文, order
_ORDER_AFTER = re.compile(
    r"\s?(?:这个?单|這個?單|订单|訂單|注文|の注文|주문|(?i:order|purchase)(?![A-Za-z]))"
    # not the cue of the next number
    r"(?!\s*(?i:no\.?|number|#|id|号|编号|番号|번호)?\s*[:：#]?\s*[A-Za-z]{0,4}\d)"
)
_CODE = re.compile(r"\d{3}\s+[A-Za-z]")  # most texts hold no status code: skip the long pattern
_MODEL_BEFORE = re.compile(
    r"(?<![\w'’.,-])(?<!\d\s)(?:\d{1,4}[A-Za-z]?|(?i:my|your|our|their|the|a|an|this|that|on|in|via|using))"
    r"[ \t]+$"  # on the name's line: not the amount that ends the line before (RM 9040\nName …)
)
_LATIN = re.compile("[A-Za-z]")
_CAPITALS_BEFORE = re.compile(r"(?:[A-ZÀ-Þ][\w'’-]*\s+)+$")  # the name's run starts before the candidate
_MODEL = re.compile(r"[ \t](?:\d{1,4}[A-Za-z]?|(?!I\b)[A-Z]\d{0,3})(?![\w'’.,-]*\s+[A-Z][a-z])(?![\w'’-])")


_SALE = swapped("sale")  # as typed in chat too (sael, asle)
# what names a shop, a brand or an app just after its name: its store, its door, its goods, a sale
_TRADE_AFTER = re.compile(
    r"[ \t]?(?:门店|門店|分店|总店|店|门口|門口|火锅|火鍋|奶茶|"
    r"的东西|的東西|家的东西|的(?:产品|產品|衣服|鞋|包|新款)|"
    r"で買|で購入|のセール|の店|のお店|店舗|에서\s?(?:샀|구매|산)|매장|세일|"
    rf"(?i:had\s+a\s+(?:big\s+)?(?:{_SALE})|(?:is\s+)?(?:having|on)\s+(?:a\s+)?(?:{_SALE})|store|shop|outlet|boutique|"
    r"flagship|website|app(?![A-Za-z])))"
    # what no person does, said of the word the candidate is part of (高德 of 高德地图打不开了)
    r"|[\u4e00-\u9fff]{0,4}?(?:的东西值得买|的東西值得買|旗舰店|旗艦店|专卖店|專賣店|专营店|麻辣烫|麻辣燙|官网|官網|打不开|打不開|"
    r"上下的单|上下的單|上下单|上下單|上买|上買|(?i:app)(?![A-Za-z]))"
)
# what names one before it: buying there, a gift from it, using it (我用的是…, 在…上下的单), the word
# the candidate is part of read whole (张江高科 after 用的是)
_TRADE_BEFORE = re.compile(
    r"(?:(?:用的是|在用|下载了?|下載了?)[\u4e00-\u9fff]{0,4}|"
    r"(?i:(?<![a-z])(?:(?:bought|buy|purchased?|got|ordered|shop(?:ped|ping)?)(?:\s+(?:it|this|that|them|these|one))?"
    rf"\s+(?:at|from|on)|(?:{swapped('gift')})\s+from|at|near|visit(?:ed|ing)?)))\s*(?:(?i:mr|mrs|ms|dr|prof)\.?\s+)?$"
)


# the third character of a name that jieba cut to two (王娜 of 王娜超门口): no word of a clause's own
_CUT_TAIL = re.compile(r"(?![在是和跟的也都就说說到从從去来來把被给給对對向])[\u4e00-\u9fff]")


def brand(text: str, start: int, end: int) -> bool:
    """Whether the name candidate at `start:end` names a shop, a brand or an app (see the docstring)."""
    if end - start == 2 and _CUT_TAIL.match(text, end) and _TRADE_AFTER.match(text, end + 1):
        return True
    return (
        _TRADE_AFTER.match(text, end) is not None
        or _TRADE_BEFORE.search(text, max(0, start - 24), start) is not None
    )


def statuses(text: str) -> list[tuple[int, int]]:
    """The HTTP status lines in `text` (the code and its reason phrase), to be read by no detector."""
    return [m.span() for m in _STATUS.finditer(text)] if _CODE.search(text) else []


def product(text: str, start: int, end: int) -> bool:
    """Whether the capitalised words at `start:end` name a product: a digit in them, a model
    designator just after (`Tesla Model 3`) or before (`15 Pro Max`; not a version's, an amount's
    or a phone's last group, `3.0.0.255 Anna Herrera`, `call 1800 292 018 Dear Georgia Sowman`), a
    determiner before (`my Google Maps`); not a street's number after a name (`Sarah Lee 12 Baker
    Street` is a person's)."""
    if any(c.isdigit() for c in text[start:end]):
        return True
    if not _LATIN.search(text, start, end):  # a model designator follows a Latin name only (김동현 2019/7/5)
        return False
    if _MODEL.match(text, end):
        return True
    run = _CAPITALS_BEFORE.search(text, max(0, start - 40), start)
    at = run.start() if run else start
    return _MODEL_BEFORE.search(text, max(0, at - 12), at) is not None


def order_after(text: str, end: int) -> bool:
    """Whether the words just after a number at `end` name it an order's (see the docstring)."""
    return _ORDER_AFTER.match(text, end) is not None
