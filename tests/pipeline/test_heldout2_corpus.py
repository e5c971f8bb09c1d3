"""The second held-out PII corpus is well made, without any redactor: a wrong span there would
count a redactor wrong for the corpus's fault, so each span is checked against the shape (and,
where there is one, the check digit) of what it labels."""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Callable

import pytest
from helpers import heldout2_pii, heldout_pii
from helpers.heldout2_pii import LANGS, LOOSE_KINDS, NEAR_KINDS, STRICT_KINDS, turns
from stdnum import ean, luhn
from stdnum.cn import ric
from stdnum.ie import pps
from stdnum.in_ import aadhaar, pan
from stdnum.jp import in_ as my_number
from stdnum.kr import rrn

KINDS = STRICT_KINDS + LOOSE_KINDS
SPOKEN = str.maketrans("零〇一幺二三四五六七八九", "001123456789")


def _hkid_ok(value: str) -> bool:
    """Hong Kong ID check digit: weights 9..2 over the letters (a lone letter after a space, 36)."""
    head, digit = re.sub(r"\W", "", value)[:-1], value.rstrip(")）")[-1]
    values = ([36] if len(head) == 7 else []) + [ord(c) - 55 if c.isalpha() else int(c) for c in head]
    check = (11 - sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True)) % 11) % 11
    return digit == ("A" if check == 10 else str(check))


def _twid_ok(value: str) -> bool:
    """Taiwan ID: the letter's two-digit code, then the nine digits, weighted to a multiple of ten."""
    code = "ABCDEFGHJKLMNPQRSTUVXYWZIO".index(value[0]) + 10
    weights = (8, 7, 6, 5, 4, 3, 2, 1, 1)
    total = code // 10 + code % 10 * 9 + sum(int(d) * w for d, w in zip(value[1:], weights, strict=True))
    return total % 10 == 0


def _ric_ok(value: str) -> bool:
    """Mainland ID: the check digit and the birth date (not the birth place, whose list changes)."""
    number = value.replace(" ", "").upper()
    return ric.calc_check_digit(number) == number[-1] and ric.get_birth_date(number) is not None


def _twelve_ok(value: str) -> bool:
    digits = re.sub(r"[ -]", "", value)
    return my_number.is_valid(digits) or aadhaar.is_valid(digits)


ID_SHAPES: tuple[tuple[str, Callable[[str], bool]], ...] = (
    (r"\d{6} ?\d{8} ?\d{3}[\dXx]", _ric_ok),
    (r"[A-Z]{1,2}\d{6}[(（]?[\dA][)）]?", _hkid_ok),
    (r"[157]\d{6}\(\d\)", lambda v: True),  # Macau: the shape only
    (r"[A-Z][12]\d{8}", _twid_ok),
    (r"\d{6}-?\d{7}", lambda v: rrn.is_valid(v)),
    (r"\d{4}[ -]?\d{4}[ -]?\d{4}", _twelve_ok),
    (r"[A-Z]{5}\d{4}[A-Z]", lambda v: pan.is_valid(v)),
    (r"\d{7}[A-W]A?", lambda v: pps.is_valid(v)),
    (r"\d{2}-\d{2}-\d{6}-\d{2}", lambda v: True),  # Korean driving licence
    (r"[EG]\d{8}|[MSR]\d{8}|M\d{3}[A-K]\d{4}|(TK|TR|TZ|MU|RE)\d{7}", lambda v: True),  # passports
    (r"[A-Z]{2}\d{6}|[A-Z]\d{7}[A-Z]?", lambda v: True),  # passports written in English
    (r"[A-Z]{2}\d{8}[A-Z]{2}", lambda v: True),  # Japanese residence card
)
MAC = re.compile(r"([\da-fA-F]{2}[:-]){5}[\da-fA-F]{2}|[\da-f]{4}\.[\da-f]{4}\.[\da-f]{4}|[\dA-F]{12}")
AT_SIGNS = ("@", "#", "艾特", " at ", " AT ", "[at]", "(at)", "골뱅이", "アットマーク")


def _id_ok(value: str) -> bool:
    return any(re.fullmatch(shape, value) and valid(value) for shape, valid in ID_SHAPES)


def _phone_ok(value: str) -> bool:
    plain = value.translate(SPOKEN)
    return bool(re.fullmatch(r"\(?\+?[\d()+ .\-]+", plain)) and 7 <= sum(c.isdigit() for c in plain) <= 15


def _card_ok(value: str) -> bool:
    digits = re.sub(r"[ -]", "", value)
    return digits.isdigit() and len(digits) in (15, 16, 19) and luhn.is_valid(digits)


def _device_ok(value: str) -> bool:
    digits = re.sub(r"[ -]", "", value)
    imei = digits.isdigit() and len(digits) == 15 and luhn.is_valid(digits)
    return imei or bool(MAC.fullmatch(value))


PERSONAL: dict[str, Callable[[str], bool]] = {
    "id": _id_ok,
    "phone": _phone_ok,
    "email": lambda v: any(at in v for at in AT_SIGNS) and v[-1].isalpha(),
    "card": _card_ok,
    "handle": lambda v: bool(re.fullmatch(r"\d{5,11}|live:\.cid\.[\da-f]{16}|[A-Za-z][\w.\-]*[A-Za-z\d]", v)),
    "plate": lambda v: any(c.isdigit() for c in v) and len(v) <= 20,
    "device": _device_ok,
    "name": lambda v: bool(re.fullmatch(r"[^\W\d_]+(?:[ \u3000・'\-][^\W\d_]+)*", v)),
    "address": lambda v: any(c.isdigit() for c in v) and len(v) >= 8,
}
NEAR: dict[str, Callable[[str], bool]] = {
    "product_code": lambda v: bool(re.fullmatch(r"[A-Z\d/\-]+", v)) and re.search(r"\d", v) is not None,
    "version": lambda v: bool(re.fullmatch(r"\d+(\.\d+){2,3}", v)),
    "brand": lambda v: any(v in brands for brands in heldout2_pii.BRANDS.values()),
    "hotline": lambda v: bool(re.fullmatch(r"[\d -]+", v)),
    "router_ip": lambda v: ipaddress.ip_address(v).is_private,
    "student_no": lambda v: bool(re.fullmatch(r"[A-Z]?\d{2,4}[A-Z-]?\d{4,8}", v)),
    "barcode": lambda v: len(v) == 13 and ean.is_valid(v),
    "http_status": lambda v: bool(re.fullmatch(r"[45]\d\d", v)),
    "order_number": lambda v: bool(re.fullmatch(r"[A-Za-z\d-]{12,}", v)),
    "date": lambda v: bool(re.search(r"\d", v)) and not re.search(r"\d{5}", v),
    "price": lambda v: bool(re.search(r"\d", v)),
}


@pytest.fixture(scope="module")
def corpus() -> list[heldout2_pii.HeldTurn]:
    return turns(2400, seed=0) + turns(2400, seed=1)


def test_the_interface_lines_up_with_the_first_held_out_corpus() -> None:
    assert (LANGS, STRICT_KINDS, LOOSE_KINDS, NEAR_KINDS) == (
        heldout_pii.LANGS,
        heldout_pii.STRICT_KINDS,
        heldout_pii.LOOSE_KINDS,
        heldout_pii.NEAR_KINDS,
    )


def test_the_check_digit_readers_accept_published_examples() -> None:
    assert _hkid_ok("A123456(3)") and not _hkid_ok("A123456(4)")
    assert _twid_ok("A123456789") and not _twid_ok("A123456788")


def test_every_slot_has_a_maker() -> None:
    for lang, by_kind in heldout2_pii.TEMPLATES.items():
        assert set(by_kind) == set(KINDS), lang
        for kind, templates in by_kind.items():
            for template in templates:
                slots = re.findall(r"\{(\w+)\}", template)
                assert slots, template
                assert all(hasattr(heldout2_pii._Maker, f"{kind}_{slot}") for slot in slots), template
        assert set(heldout2_pii.NEAR_SENTENCES[lang]) == set(NEAR_KINDS)


def test_spans_point_at_the_values(corpus: list[heldout2_pii.HeldTurn]) -> None:
    for turn in corpus:
        for start, end, kind in turn.pii + turn.near:
            assert 0 <= start < end <= len(turn.text), turn
            value = turn.text[start:end]
            assert value == value.strip() and "\n" not in value, (kind, value, turn.text)
            check = PERSONAL.get(kind) or NEAR[kind]
            assert check(unicodedata.normalize("NFKC", value)), (kind, value, turn.text)


def test_every_kind_appears_in_every_language() -> None:
    sample = turns(len(LANGS) * len(KINDS) * len(NEAR_KINDS), seed=3, near_share=1.0)
    for lang in LANGS:
        mine = [t for t in sample if t.lang == lang]
        assert {k for t in mine for _, _, k in t.pii} == set(KINDS), lang
        assert {k for t in mine for _, _, k in t.near} == set(NEAR_KINDS), lang


def test_the_same_seed_gives_the_same_corpus() -> None:
    assert turns(300, seed=7) == turns(300, seed=7)
    assert [t.text for t in turns(300, seed=7)] != [t.text for t in turns(300, seed=8)]
    assert not any(t.near for t in turns(100, seed=7, near_share=0.0))


def test_near_misses_never_overlap_personal_values(corpus: list[heldout2_pii.HeldTurn]) -> None:
    for turn in corpus:
        spans = sorted(turn.pii + turn.near)
        for (_, end, kind), (start, _, other) in zip(spans, spans[1:], strict=False):
            assert end <= start, (kind, other, turn.text)
