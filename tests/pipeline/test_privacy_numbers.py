"""Numbers as people type them: cards in any grouping, IDs of more schemes and with their word after
them, phones glued to a messenger's name or read out in numerals, a value given in two parts,
e-mails with spaces or spelt words around the at-sign. Each class in the four languages, with
generated variants (Hypothesis) and the near-misses beside them kept."""

from __future__ import annotations

import ipaddress
import re
import tempfile

import pytest
from helpers.redaction import redact
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from stdnum import luhn
from stdnum.au import tfn
from stdnum.jp import in_ as my_number
from stdnum.th import pin

set_hypothesis_home_dir(tempfile.mkdtemp(prefix="uxbench-hypothesis-"))
WIDE = {ord(c): ord(c) + 0xFEE0 for c in "0123456789-"} | {ord(" "): "\u3000"}
KO_NUMERALS = "공일이삼사오육칠팔구"
ZH_NUMERALS = "零幺二三四五六七八九"


def _caught(text: str, value: str) -> bool:
    """No four digits of `value` in a row survive (full-width ones read as digits)."""
    redacted = redact(text).translate({0xFF10 + i: str(i) for i in range(10)})
    plain = value.translate({0xFF10 + i: str(i) for i in range(10)})
    return not any(run in redacted for run in re.findall(r"\d{4,}", plain)) and "[" in redacted


def _luhn(body: str) -> str:
    return body + luhn.calc_check_digit(body)


def _grouped(number: str, sizes: tuple[int, ...], separator: str) -> str:
    parts, at = [], 0
    for size in sizes:
        parts.append(number[at : at + size])
        at += size
    return separator.join(parts)


# ------------------------------------------------------------------ cards

CARD_CUES = (
    "信用卡",
    "收款卡号：",
    "the card is",
    "my visa",
    "クレカは",
    "カード番号",
    "체크카드",
    "카드 번호는",
)


@pytest.mark.parametrize(
    "text",
    [
        "信用卡 4012  8888  8888  1881 户名张三",  # double spaces
        "my amex is 3782  822463  10005, exp soon",  # Amex 4-6-5
        "工资卡621483－0000000000003怎么查余额",  # UnionPay 6-13 with a full-width dash
        "クレカは４０１２\u3000８８８８\u3000８８８８\u3000１８８１です",  # full width, ideographic spaces
        "환불은 이 카드로 해주세요 6214 8300 0000 0000 006",  # 4-4-4-4-3
        "card no. 4012 8888 8888\n1881 name on card Lee",  # a line break inside
    ],
)
def test_a_card_in_any_grouping_after_its_cue_is_caught(text: str) -> None:
    assert "[BANK_CARD]" in redact(text), redact(text)


@given(
    prefix=st.sampled_from(("4", "51", "2221", "3528", "6222", "6217")),
    body=st.text("0123456789", min_size=18, max_size=18),
    length=st.sampled_from((16, 19)),
    sizes=st.sampled_from(((4, 4, 4, 4, 3), (6, 13), (4, 4, 4, 7), (4, 4, 4, 4))),
    separator=st.sampled_from((" ", "  ", "-", "－", "\u3000")),
    cue=st.sampled_from(CARD_CUES),
    after=st.sampled_from(("", " 谢谢", " pls", "で払えますか", " 로 해주세요", "\n版本 3.2.1")),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_luhn_card_in_any_grouping_is_caught(
    prefix: str, body: str, length: int, sizes: tuple[int, ...], separator: str, cue: str, after: str
) -> None:
    number = _luhn((prefix + body)[: length - 1])
    if sum(sizes) != length:
        sizes = (4, 4, 4, 4) if length == 16 else (4, 4, 4, 4, 3)
    value = _grouped(number, sizes, separator)
    space = " " if cue[-1].isascii() else ""  # a Latin word glued to digits is a code, not a cue
    assert _caught(f"{cue}{space}{value}{after}", value)


@pytest.mark.parametrize(
    "text",
    [
        "卡号 4012 8888 8888 1881\n627元包邮",  # a price on the next line
        "カード番号 4012-8888-8888-1881\n2026.03.02まで",  # a date on the next line
        "card 4012 8888 8888 1881 then 10.0.0.1 stopped loading",  # a router after `then`
    ],
)
def test_what_follows_a_card_on_the_next_line_is_no_part_of_it(text: str) -> None:
    redacted = redact(text)
    assert "[BANK_CARD]" in redacted
    assert any(kept in redacted for kept in ("627元", "2026.03.02", "10.0.0.1")), redacted


# ------------------------------------------------------------------ identity numbers


def _thai(body: str) -> str:
    return body + pin.calc_check_digit(body)


@pytest.mark.parametrize(
    ("template", "value"),
    [
        ("泰国身份证号{v}，出生日期", "1-2345-67890-12-1"),
        ("my thai national id is {v} pls", "1234567890121"),
        ("{v}\nこれがタイのIDカード番号です", "1-2345-67890-12-1"),
        ("태국 신분증 번호 {v} 로 바뀌었다고", "1234567890121"),
    ],
)
def test_a_thai_id_is_caught_by_its_grouping_or_its_words(template: str, value: str) -> None:
    assert pin.is_valid(value)
    assert _caught(template.replace("{v}", value), value)


@pytest.mark.parametrize(
    "template",
    [
        "澳洲税号TFN{v} 其他的空着",  # glued to its word
        "{v} 이거 호주 TFN 번호 형식 맞아?",  # its word after it
        "whats the format of a tax file number, mine is {v}",  # the word in the clause before `mine is`
        "{v}\nこれがオーストラリアのTFNです",  # on the next line, pointing back
    ],
)
def test_a_tax_file_number_is_caught_with_its_word_anywhere_in_its_clause(template: str) -> None:
    value = "123 456 782"
    assert tfn.is_valid(value)
    assert _caught(template.replace("{v}", value), value)


@given(
    body=st.text("0123456789", min_size=11, max_size=11).filter(lambda b: b[0] != "0"),
    separator=st.sampled_from(("", " ", "-", "\u3000")),
    template=st.sampled_from(
        (
            "日本个人编号{v} 其他的空着",
            "My Number{v}，出生日期",
            "{v} 这个是我日本的个人番号",
            "제 일본 마이넘버 {v} 이걸로 신청서 작성해줘",
            "{v}ってまいなんばーとして正しい形式？",
            "is {v} a valid japanese individual number?",
        )
    ),
    wide=st.booleans(),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_my_number_is_caught_with_its_word_before_or_after_it(
    body: str, separator: str, template: str, wide: bool
) -> None:
    number = body + my_number.calc_check_digit(body)
    value = _grouped(number, (4, 4, 4), separator)
    value = value.translate(WIDE) if wide else value
    assert _caught(template.replace("{v}", value), value)


@pytest.mark.parametrize(
    "text",
    [
        "whats the format of a passport #, mine is H14168851",
        "MJ586045ってパスポート番号として正しい形式",
        "客服让我发护照号码，E31665228，这样发给他们安全吗",
        "K38149032 이게 제 여권 번호예요",
        "BH249606\n↑护照号码",
        "ソーシャルセキュリティ番号は267228209です",
        "加拿大SIN号５５８６８７５６２ 其他的空着",
        "응답코드 502 주번 7003032242818로 조회가 안돼요",
    ],
)
def test_a_document_number_is_caught_with_its_word_before_or_after_it(text: str) -> None:
    assert "[ID_NUMBER]" in redact(text) or "[SSN]" in redact(text), redact(text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "the ean on the box is 5064767944019 . whats the format of a passport no., mine is TZ8413803",
            "5064767944019",
        ),
        (
            "フリーダイヤル0570-745-129 ビザの申請書を書いてるんですがパスポートNo.はK46208759です",
            "0570-745-129",
        ),
        ("3136373984734 주문 취소 일본 마이넘버 7989-9820-5540로 조회가 안돼요", "3136373984734"),
        ("中国の身分証番号420102196306201352をホテルで書く欄がない JANコード4990334302061", "4990334302061"),
        ("모델명 WH-1000XM5 여권번호 ET4280670", "WH-1000XM5"),
    ],
)
def test_a_cue_between_two_numbers_names_the_one_after_it(text: str, kept: str) -> None:
    redacted = redact(text)
    assert kept in redacted and "[ID_NUMBER]" in redacted, redacted


# ------------------------------------------------------------------ phones


@pytest.mark.parametrize(
    "text",
    [
        "WhatsApp+8613812345678加我",
        "何かあればTEL+81 90-1234-5678に",
        "TEL070－1234－5678まで",
        "HP010-1234-5678 로 등록해주세요",
        "call me, mobile+447911123456",
    ],
)
def test_a_phone_glued_to_a_messengers_name_is_caught(text: str) -> None:
    assert "[PHONE]" in redact(text), redact(text)


@given(
    digits=st.sampled_from(("01012345678", "0212345678", "01098765432")),
    separator=st.sampled_from(("-", " ")),
    template=st.sampled_from(
        ("이 번호로 연락주세요 {v}", "폰번호은 {v}입니다", "{v} 이게 제 핸드폰예요", "HP{v} 로")
    ),
)
@settings(max_examples=100, deadline=None, database=None)
def test_a_korean_number_read_out_in_numerals_is_caught(digits: str, separator: str, template: str) -> None:
    sizes = (3, 4, 4) if digits.startswith("010") else (2, 4, 4)
    value = _grouped("".join(KO_NUMERALS[int(d)] for d in digits), sizes, separator)
    assert value not in redact(template.replace("{v}", value))


@pytest.mark.parametrize(
    "text",
    ["联系电话零二七 五七八一 二二七八谢谢", "电话幺三五 三四二八 九七六三", "手机一九九 六一九八 九二九七"],
)
def test_a_chinese_number_read_out_in_groups_is_caught(text: str) -> None:
    assert "[PHONE]" in redact(text), redact(text)


@pytest.mark.parametrize(
    "text",
    ["이사 사이 공사 일이", "一二三四五六七", "오일 이사", "三四月份 五六个人", "공사 중 일일 점검"],
)
def test_words_of_numerals_are_no_number(text: str) -> None:
    assert redact(text) == text or "[PHONE]" not in redact(text)


# ------------------------------------------------------------------ values in two parts

JOINTS = {
    "zh": ("\n", " 后几位 ", "，后面是", " 续 "),
    "en": ("\n", " then ", " ... ", " / "),
    "ja": ("\n", "、続きは", " / "),
    "ko": ("\n", " 그리고 ", " 뒤에는 "),
}


@given(
    case=st.sampled_from(
        (
            ("电话 {v}", "138 0013", "8000"),
            ("contact +44 {v} anytime", "7911", "123456"),
            ("携帯 {v}で登録お願いします", "090-1234", "5678"),
            ("이 번호로 연락주세요 {v} 감사합니다", "010-1234", "5678"),
            ("card no. {v} name on card Lee", "4012 8888", "8888 1881"),
            ("TFN {v} pls", "123 456", "782"),
        )
    ),
    lang=st.sampled_from(tuple(JOINTS)),
    data=st.data(),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_value_given_in_two_parts_is_caught_whole(
    case: tuple[str, str, str], lang: str, data: st.DataObject
) -> None:
    template, first, second = case
    joint = data.draw(st.sampled_from(JOINTS[lang]))
    text = template.replace("{v}", first + joint + second)
    redacted = redact(text)
    assert first not in redacted and second not in redacted, redacted


@pytest.mark.parametrize(
    "text",
    [
        "신용카드: 4012 8888 8888 1881, 그리고 422 에러가 떠요",
        "연락처 +82 10-8125-5365\n504 에러 떠요",
        "학번 2021\n2025년 3월 입학",
        "the EAN on the box is 8884877103758\n47 Moi Avenue",
    ],
)
def test_the_number_after_a_whole_value_or_a_near_miss_joins_nothing(text: str) -> None:
    redacted = redact(text)
    assert any(kept in redacted for kept in ("422", "504", "2025년", "8884877103758")), redacted


# ------------------------------------------------------------------ e-mails


@given(
    local=st.from_regex(r"[a-z][a-z0-9]{2,10}([._-][a-z0-9]{1,4})?", fullmatch=True),
    at=st.sampled_from((" @ ", " AT ", " at ", "あっと", "골뱅이", "[at]", "＠")),
    dot=st.sampled_from((".", " . ", "점", "(dot)", "ドット")),
    domain=st.sampled_from(("gmail.com", "yahoo.com.sg", "naver.com", "docomo.ne.jp", "hotmail.co.th")),
    template=st.sampled_from(
        ("email {v} thx", "メールアドレス：{v}（アットマークを@に変えて）", "이메일 {v} 입니다", "邮箱{v}")
    ),
)
@settings(max_examples=300, deadline=None, database=None)
def test_an_email_with_spaces_or_words_around_its_signs_is_caught(
    local: str, at: str, dot: str, domain: str, template: str
) -> None:
    value = local + at + domain.replace(".", dot)
    redacted = redact(template.replace("{v}", value))
    assert "[EMAIL]" in redacted and local not in redacted, redacted


@pytest.mark.parametrize(
    "text",
    ["ping me @ 3pm. I am at home. Me and him", "I was at home . Me too", "see you at the store 점심 먹고"],
)
def test_an_at_or_a_dot_between_words_is_no_email(text: str) -> None:
    assert "[EMAIL]" not in redact(text)


# ------------------------------------------------------------------ versions and builds


@pytest.mark.parametrize(
    "text",
    [
        "버전 4.6.8.80인데 튕겨요",
        "バージョン3.6.54.36にしたら落ちる",
        "9.4.46.252로 업데이트함",
        "running 7.1.10.188 now",
        "after updating to 130.0.6379.246 it crashes",
        "지금 10.0.22631.2861",
    ],
)
def test_a_version_of_an_ips_or_a_phones_shape_is_kept(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    ["my ip is now 10.43.125.177", "the server at 10.43.125.177 is down", "서버 10.43.125.177에서 에러"],
)
def test_an_ip_that_no_version_word_names_is_caught(text: str) -> None:
    assert "[IP]" in redact(text)


NETWORK_FRAMES = (
    "网关{ip}打不开",
    "内网{ip}的打印机连不上",
    "社内LANの{ip}につながらない",
    "ルーターの管理画面は{ip}です",
    "공유기 {ip} 접속이 안돼요",
    "the router admin page at {ip} won't load",
    "my NAS on the LAN is {ip}",
    "{ip} is the gateway, right?",
)


@given(
    st.sampled_from(NETWORK_FRAMES),
    st.sampled_from(("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")),
    st.integers(min_value=0, max_value=2**16 - 1),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_private_address_its_clause_calls_a_networks_is_kept(frame: str, network: str, offset: int) -> None:
    """A private address names a network, not a person, when its clause says so; a public one after
    the same words is still the user's."""
    base = ipaddress.ip_network(network)
    private = str(base.network_address + offset % base.num_addresses)
    assert redact(frame.format(ip=private)) == frame.format(ip=private)
    assert "[IP]" in redact(frame.format(ip="58.33.2.17"))


@pytest.mark.parametrize(
    "text",
    [
        "カードNo4012888888881881で払えますか",  # `No` glued to a card
        "加拿大社会保险号，我的是“046 454 286”，帮我整理一下",  # `mine is` then a quote
        "is R3532665 a valid HK ID card no",
        "BH249606\n↑护照号码 29696元包邮",  # the price after the cue is no number it names
        "K59055175\n↑护照号 学号U202401846",  # nor one that a word of its own names
        "캐나다 SIN 번호 046-454-286 118.0.6384.95로 업데이트함",  # a version after it is no group of it
        "연락처 (+82)1056787655 . 1544-2357로 전화했는데",
    ],
)
def test_more_forms_of_ids_cards_and_phones_are_caught(text: str) -> None:
    assert re.search(r"\[(ID_NUMBER|BANK_CARD|PHONE|SSN)\]", redact(text)), redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "快递员打5193 2644找不到人",  # 打 before digits calls
        "说明我的电話改成5902 0872了",  # 电話 typed half simplified
        "new number is 9123 4567, old one dead",
        "电话1 3 8 0 0 1 3 8 0 0 0",  # every digit apart
        "田中 0 9 0 1 2 3 4 5 6 7 8 まで",
    ],
)
def test_a_phone_after_a_calling_word_or_with_every_digit_apart_is_caught(text: str) -> None:
    assert "[PHONE]" in redact(text), redact(text)


@pytest.mark.parametrize("text", ["这件衣服打8折，原价1299", "rate it 5 4 3 2 1 stars", "打1200块给我"])
def test_a_discount_or_a_short_spaced_count_is_no_phone(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "mi DNI es 12345678Z, ¿está bien?",
        "帮我填一下西班牙NIE：X1234567L",
        "meu CPF é 390.533.447-05",
        "CPF 39053344705 por favor",
        "il mio codice fiscale è RCCMNL83S18D969H",
        "numer PESEL 44051401359",
        "TC kimlik no 17291716060",
        "meine Steuer-ID ist 36 574 261 809",
        "mon numéro de sécurité sociale : 2 95 10 99 126 111 93",
        "mijn BSN is 111222333",
        "CURP BOXW310820HNERXN09 멕시코 신분증이에요",
    ],
)
def test_national_numbers_of_more_countries_are_caught(text: str) -> None:
    """Each by its scheme's check (python-stdnum) and, for bare digits, its own word."""
    assert "[ID_NUMBER]" in redact(text), redact(text)


@given(st.integers(min_value=0, max_value=99_999_999), st.sampled_from(("", "X", "Y", "Z")), st.booleans())
@settings(max_examples=300, deadline=None, database=None)
def test_a_spanish_dni_or_nie_with_its_check_letter_is_caught(number: int, prefix: str, dashed: bool) -> None:
    """A NIE (X/Y/Z, seven digits, letter) anywhere; a DNI (eight digits, letter) after its word."""
    digits = f"{number % 10_000_000:07d}" if prefix else f"{number:08d}"
    letter = "TRWAGMYFPDXBNJZSQVHLCKE"[int(str("XYZ".find(prefix)) + digits if prefix else digits) % 23]
    value = f"{prefix}{digits}{'-' if dashed else ''}{letter}"
    text = f"NIE {value} para el contrato" if prefix else f"DNI: {value}, gracias"
    assert value not in redact(text)


@pytest.mark.parametrize(
    "text",
    ["order 44051401359 shipped", "주문번호 12345678Z", "invoice 36574261809", "barcode 4006381333931"],
)
def test_a_number_of_a_national_schemes_shape_without_its_word_is_kept(text: str) -> None:
    assert redact(text) == text
