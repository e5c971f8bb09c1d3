"""Invariants of the redactor on generated input (Hypothesis), patterns alone (what CI has):
no digit run of a planted value survives; a checksum-valid identifier is caught in any template;
redaction is idempotent; a near-miss of each kept class is untouched; the dry run writes no
value that a redactor call removes."""

from __future__ import annotations

import json
import re
import tempfile
from http import HTTPStatus
from pathlib import Path

import pytest
from helpers.pipeline import dry_run
from helpers.redaction import PATTERNS, redact
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from stdnum import ean, luhn, verhoeff
from stdnum.ca import sin
from stdnum.cn import ric
from stdnum.ie import vat as ie_vat
from stdnum.in_ import aadhaar

from uxbench.pipeline.tools.synth import write_synth

set_hypothesis_home_dir(tempfile.mkdtemp(prefix="uxbench-hypothesis-"))  # its caches, not in the tree
ZH_NUMERALS = "零一二三四五六七八九"


@st.composite
def mobiles(draw: st.DrawFn) -> str:
    digits = draw(st.sampled_from("3456789")) + draw(st.text("0123456789", min_size=9, max_size=9))
    value = "1" + digits
    shape = draw(st.sampled_from(("plain", "spaced", "dashed", "numerals", "wide", "zero-width")))
    if shape == "spaced":
        return f"{value[:3]} {value[3:7]} {value[7:]}"
    if shape == "dashed":
        return f"{value[:3]}-{value[3:7]}-{value[7:]}"
    if shape == "numerals":
        return "".join(ZH_NUMERALS[int(d)] for d in value)
    if shape == "wide":
        return value.translate({ord(d): 0xFF10 + int(d) for d in "0123456789"})
    if shape == "zero-width":
        return value[:5] + "\u200b" + value[5:]
    return value


@st.composite
def resident_ids(draw: st.DrawFn) -> str:
    area = draw(st.sampled_from(("110105", "310104", "440305", "510107")))
    born = draw(st.dates(min_value=__import__("datetime").date(1940, 1, 1))).strftime("%Y%m%d")
    body = area + born + draw(st.text("0123456789", min_size=3, max_size=3))
    return body + ric.calc_check_digit(body + "0")  # it reads the 18-digit form


@st.composite
def cards(draw: st.DrawFn) -> str:
    body = draw(st.sampled_from(("4", "51", "62"))) + draw(st.text("0123456789", min_size=13, max_size=13))
    body = body[:15]
    value = body + luhn.calc_check_digit(body)
    return draw(st.sampled_from((value, " ".join(value[i : i + 4] for i in range(0, 16, 4)))))


@st.composite
def hk_ids(draw: st.DrawFn) -> str:
    """A Hong Kong identity card number with its check digit (one or two letters, six digits)."""
    letters = draw(st.text("ABCDEGHKMPRVYZ", min_size=1, max_size=2))
    digits = draw(st.text("0123456789", min_size=6, max_size=6))
    values = [36] * (2 - len(letters)) + [ord(c) - 55 for c in letters] + [int(d) for d in digits]
    check = (11 - sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True)) % 11) % 11
    return f"{letters}{digits}({'A' if check == 10 else check})"


@st.composite
def sins(draw: st.DrawFn) -> str:
    """A Canadian SIN, Luhn-valid, grouped as people write it."""
    body = draw(st.sampled_from("1234567")) + draw(st.text("0123456789", min_size=7, max_size=7))
    value = body + luhn.calc_check_digit(body)
    assert sin.is_valid(value)
    separator = draw(st.sampled_from(" -"))
    return separator.join((value[:3], value[3:6], value[6:]))


ID_TEMPLATES = (
    "{v}",
    "here's my ID, {v} - is it valid?",
    "SIN: {v}",
    "身份证 {v} 丢了",
    "番号は{v}です",
    "번호는 {v}입니다",
    "by the way {v}, thanks",
)
CUES = ("我的手机号是{v}，有事打我", "身份证{v}", "卡号 {v}", "call me on {v}", "{v}", "号码：{v}。谢谢")
NEAR = (
    ("订单号 {v} 还没发货", st.text("0123456789", min_size=8, max_size=18)),
    (
        "升级到 {v} 以后就闪退",
        st.lists(st.integers(0, 30), min_size=2, max_size=4).map(lambda p: ".".join(map(str, p))),
    ),
    ("价格是¥{v}", st.integers(1, 99999).map(str)),
    (
        "客服电话 400-{v} 一直占线",
        st.text("0123456789", min_size=7, max_size=7).map(lambda d: d[:3] + "-" + d[3:]),
    ),
    ("型号 {v} 的电脑", st.from_regex(r"M[A-Z][0-9]{3}(CH|LL)/A", fullmatch=True)),
    ("gateway 192.168.{v}.1 is down", st.integers(0, 255).map(str)),
    # an HTTP status line: a code with its own reason phrase (not a name: `Bad Gateway`)
    *(
        (template, st.sampled_from(list(HTTPStatus)).map(lambda s, p=prefix: f"{p}{s.value} {s.phrase}"))
        for template in ("the page says {v} again", "网页显示{v}", "APIが{v}を返す", "{v} 오류가 떠요")
        for prefix in ("", "HTTP/1.1 ")
    ),
    # a North American toll-free hotline (8XX, X repeated), written as such
    *(
        (
            template,
            st.tuples(st.sampled_from("0345678"), st.text("0123456789", min_size=7, max_size=7)).map(
                lambda p: f"1-8{p[0]}{p[0]}-{p[1][:3]}-{p[1][3:]}"
            ),
        )
        for template in ("I called {v} twice", "打了{v}没人接", "{v}に電話しました")
    ),
    # an EAN-13 barcode, check digit valid, after a barcode word or none
    *(
        (template, st.text("0123456789", min_size=12, max_size=12).map(lambda b: b + ean.calc_check_digit(b)))
        for template in (
            "条形码{v}扫不出来",
            "バーコード{v}が読めない",
            "바코드 {v} 인식 안 됨",
            "barcode {v} won't scan",
        )
    ),
    # a product: capitalised words and a model designator, or after a determiner
    (
        "my {v} keeps crashing",
        st.tuples(
            st.from_regex(r"[A-Z][a-z]{3,8}", fullmatch=True),
            st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True),
            st.from_regex(r"[0-9]{1,3}|[A-Z]|[A-Z][0-9]{1,2}", fullmatch=True),
        ).map(" ".join),
    ),
)


@given(value=st.one_of(mobiles(), resident_ids(), cards()), template=st.sampled_from(CUES))
@example(value="44030519800401284X", template="卡号 {v}")  # an area stdnum's table lacks, after a card cue
@settings(max_examples=300, deadline=None, database=None)
def test_no_digit_run_of_a_planted_value_survives(value: str, template: str) -> None:
    redacted = redact(template.replace("{v}", value))
    digits = re.sub(r"\D", "", value.translate({0xFF10 + i: str(i) for i in range(10)}))
    for run in re.findall(r"\d{4,}", value):
        assert run not in redacted
    assert digits not in re.sub(r"\D", "", redacted) or not digits


@given(value=st.one_of(hk_ids(), sins()), template=st.sampled_from(ID_TEMPLATES))
@settings(max_examples=200, deadline=None, database=None)
def test_a_checksum_valid_identifier_is_caught_in_any_template(value: str, template: str) -> None:
    text = template.replace("{v}", value)
    start = text.index(value)
    assert any(s <= start and start + len(value) <= e for s, e, _ in PATTERNS.find_spans(text))


@given(
    st.text(alphabet=st.sampled_from(list("0123456789 -.@:：，。abcXYZ手机号身份证卡一三九")), max_size=60)
)
@settings(max_examples=300, deadline=None, database=None)
def test_redaction_is_idempotent(text: str) -> None:
    once = redact(text)
    assert redact(once) == once


@given(near=st.sampled_from(NEAR).flatmap(lambda t: st.tuples(st.just(t[0]), t[1])))
@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_near_miss_is_untouched(near: tuple[str, str]) -> None:
    template, value = near
    text = template.replace("{v}", value)
    assert PATTERNS.find_spans(text) == []


@pytest.mark.integration
@given(values=st.lists(st.one_of(mobiles(), resident_ids(), cards()), min_size=3, max_size=6))
@settings(
    max_examples=3, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_the_dry_run_writes_no_value_a_redactor_call_removes(tmp_path: Path, values: list[str]) -> None:
    run = tmp_path / f"run{len(list(tmp_path.iterdir()))}"
    run.mkdir()
    raw = run / "raw.jsonl"
    write_synth(raw, 20, seed=7)
    lines = [json.loads(line) for line in raw.read_text(encoding="utf-8").splitlines()]
    removed = set()
    for line, value in zip(lines, values, strict=False):
        key, field = ("turns", "message") if "turns" in line else ("messages", "content")
        turn = next(t for t in line[key] if t["role"] == "user")
        turn[field] = f"{turn[field]} 我的号码是{value}"
        removed |= {turn[field][s:e] for s, e, _ in PATTERNS.find_spans(turn[field])}
    raw.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    assert dry_run(raw, run / "out", "--chunk-size", "1000") == 0
    written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in (run / "out").rglob("*.json*"))
    leaked = [v for v in removed if len(v) >= 7 and v in written]
    assert leaked == []


# ------------------------------------------------------------------ accounts: handles, plates, devices
HANDLE_CUES = (
    "加我微信{v}，备注来意",
    "vx：{v}",
    "V信号是 {v}",
    "QQ号:{v} 验证消息写项目名",
    "电报搜@{v}",
    "my telegram is @{v}",
    "add me on insta: {v}",
    "discord {v} tonight?",
    "message me on Signal, username {v}",
    "LINEのIDは{v}です",
    "インスタ{v}フォローして！",
    "カカオトーク {v}",
    "카톡 아이디 {v}로 추가해주세요",
    "인스타 {v} 팔로우 부탁해요",
    "텔레그램 @{v}",
)


def _covered(text: str, value: str, kind: str | None) -> bool:
    """Whether one span of `kind` (None: of any kind) holds the whole value."""
    start = text.index(value)
    spans = PATTERNS.find_spans(text)
    return any(s <= start and start + len(value) <= e and kind in (k, None) for s, e, k in spans)


@given(
    value=st.from_regex(r"[a-z][a-z0-9_.]{2,14}[0-9][a-z0-9]{0,3}", fullmatch=True).filter(
        lambda v: not re.fullmatch(r"v\d+(?:\.\d+)+", v)  # `微信v0.0` names a version (the property below)
    ),
    template=st.sampled_from(HANDLE_CUES),
)
@settings(max_examples=200, deadline=None, database=None)
def test_an_id_after_any_messengers_name_is_a_handle(value: str, template: str) -> None:
    text = template.replace("{v}", value)
    assert _covered(text, value, None)  # `搜@a.aa0` may read as an e-mail: redacted all the same


@st.composite
def plates(draw: st.DrawFn) -> str:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    digits = st.text("0123456789", min_size=4, max_size=4)
    return draw(
        st.one_of(
            st.builds(  # mainland, with the separators people type
                lambda p, a, s, b: f"{p}{a}{s}{b}",
                st.sampled_from("京沪粤川藏鲁浙苏"),
                st.sampled_from(letters),
                st.sampled_from(("", "·", "-", " ")),
                st.builds(lambda x, y: x + y, st.sampled_from(letters + "0123456789"), digits),
            ),
            st.builds(  # Korean, with or without a region
                lambda r, f, h, s, b: f"{r}{f}{h}{s}{b}",
                st.sampled_from(("", "서울 ", "경기", "부산 ")),
                st.text("123456789", min_size=2, max_size=3),
                st.sampled_from("가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주하허호"),
                st.sampled_from(("", " ")),
                digits,
            ),
            st.builds(  # Japanese: office, class, kana, a number or its dots
                lambda o, c, k, n: f"{o} {c} {k} {n}",
                st.sampled_from(("品川", "名古屋", "尾張小牧", "なにわ", "横浜")),
                st.sampled_from(("300", "500", "33", "580")),
                st.sampled_from("あいうえかきくけこさすせそ"),
                st.one_of(
                    digits.map(lambda d: f"{d[:2]}-{d[2:]}"),
                    st.text("123456789", min_size=1, max_size=3).map(lambda d: "・" * (4 - len(d)) + d),
                ),
            ),
        )
    )


@given(value=plates(), template=st.sampled_from(("{v}", "停在楼下的{v}", "{v}の車", "제 차는 {v}이에요")))
@settings(max_examples=200, deadline=None, database=None)
def test_a_plate_of_its_own_shape_is_caught_anywhere(value: str, template: str) -> None:
    assert _covered(template.replace("{v}", value), value, "PLATE")


@st.composite
def macs(draw: st.DrawFn) -> str:
    octets = [f"{b:02x}" for b in draw(st.lists(st.integers(0, 255), min_size=6, max_size=6))]
    joined = "".join(octets)
    value = draw(
        st.sampled_from(
            (
                ":".join(octets),
                "-".join(octets),
                f"{joined[:4]}.{joined[4:8]}.{joined[8:]}",
                f"{joined[:4]}-{joined[4:8]}-{joined[8:]}",
                joined,
            )
        )
    )
    return value.upper() if draw(st.booleans()) else value


@given(
    value=macs(),
    template=st.sampled_from(("MAC地址是{v}", "device mac {v} drops", "端末のMAC：{v}", "맥주소: {v}")),
)
@settings(max_examples=200, deadline=None, database=None)
def test_a_mac_after_its_cue_is_caught_in_any_notation(value: str, template: str) -> None:
    assume(not value.isdigit())  # twelve bare decimal digits: a barcode
    assert _covered(template.replace("{v}", value), value, "DEVICE")


@given(
    body=st.text("0123456789", min_size=14, max_size=14),
    separator=st.sampled_from(("", " ", "-", ".")),
    template=st.sampled_from(("IMEI:{v}", "串号{v}", "製造番号（IMEI）は{v}です", "단말기 IMEI {v}")),
)
@settings(max_examples=200, deadline=None, database=None)
def test_an_imei_after_its_cue_is_caught_however_split(body: str, separator: str, template: str) -> None:
    number = body + luhn.calc_check_digit(body)
    value = separator.join((number[:2], number[2:8], number[8:14], number[14]))
    text = template.replace("{v}", value)
    assert _covered(text, value, None)  # a device's, or an old resident ID's


@given(
    messenger=st.sampled_from(("微信", "QQ", "LINE", "Discord", "카톡", "インスタ", "Signal")),
    rest=st.one_of(
        st.sampled_from((" APP", "Pay", " server is down", " is down", " group", "支付 35元")),
        st.from_regex(r" v?[0-9]{1,2}\.[0-9]{1,2}(\.[0-9]{1,3})?", fullmatch=True),
    ),
)
@settings(max_examples=200, deadline=None, database=None)
def test_what_follows_a_messengers_name_but_names_no_account_is_kept(messenger: str, rest: str) -> None:
    assert PATTERNS.find_spans(messenger + rest) == []


# ---------------------------------------------------------------- numbers and documents (helper num)


@st.composite
def aadhaars(draw: st.DrawFn) -> str:
    """An Aadhaar (Verhoeff check digit), grouped 4-4-4 as people write it, or whole."""
    body = draw(st.sampled_from("23456789")) + draw(st.text("0123456789", min_size=10, max_size=10))
    value = body + verhoeff.calc_check_digit(body)
    assume(aadhaar.is_valid(value))  # UIDAI issues no palindromes
    sep = draw(st.sampled_from(("", " ", "-")))
    return sep.join((value[:4], value[4:8], value[8:]))


@st.composite
def pps_numbers(draw: st.DrawFn) -> str:
    """An Irish PPS number: seven digits and the check letter."""
    digits = draw(st.text("0123456789", min_size=7, max_size=7))
    return digits + ie_vat.calc_check_digit(digits)


@st.composite
def sg_nrics(draw: st.DrawFn) -> str:
    """A Singapore NRIC / FIN with its check letter (the published weights and tables)."""
    prefix, digits = draw(st.sampled_from("STFG")), draw(st.text("0123456789", min_size=7, max_size=7))
    total = sum(int(d) * w for d, w in zip(digits, (2, 7, 6, 5, 4, 3, 2), strict=True)) + 4 * (prefix in "TG")
    return prefix + digits + ("JZIHGFEDCBA" if prefix in "ST" else "XWUTRQPNMLK")[total % 11]


OTHER_IDS = (
    (aadhaars(), ("my aadhaar is {v} can u check", "Aadhaar: {v}", "印度朋友的Aadhaar {v} 能用吗")),
    (pps_numbers(), ("PPS number {v} - do I need it", "here's my PPSN:{v}", "アイルランドのPPS番号{v}")),
    (sg_nrics(), ("{v}", "my NRIC is {v}", "新加坡身份证{v}丢了", "NRIC {v} 분실")),
    (
        st.from_regex(r"[A-Z]{2}[0-9]{8}[A-Z]{2}", fullmatch=True),
        ("在留カード番号{v}の更新", "residence card {v}", "재류카드 {v}"),
    ),
    (
        st.from_regex(r"[A-Z]{1,2}[0-9]{7,8}|M[0-9]{3}[A-Z][0-9]{4}", fullmatch=True),
        ("Passport: {v}", "护照号码{v}过期了", "パスポート番号{v}、更新は", "여권번호 {v} 만료"),
    ),
)


@given(
    case=st.sampled_from(OTHER_IDS).flatmap(lambda c: st.tuples(c[0], st.sampled_from(c[1]))),
)
@settings(max_examples=300, deadline=None, database=None)
def test_an_identity_number_of_any_country_is_caught_after_its_words(case: tuple[str, str]) -> None:
    value, template = case
    text = template.replace("{v}", value)
    start = text.index(value)
    assert any(s <= start and start + len(value) <= e for s, e, _ in PATTERNS.find_spans(text))


@given(
    local=st.from_regex(r"[a-z][a-z0-9_.]{2,12}[a-z0-9]", fullmatch=True),
    at=st.sampled_from(("#", "艾特", "アットマーク", "골뱅이", "[at]", "(at)", " at ", "＠")),
    domain=st.sampled_from(("qq", "163", "naver", "docomo.ne", "gmail", "xtra.co")),
    dot=st.sampled_from((".", "[dot]", "(dot)", " dot ")),
    tld=st.sampled_from(("com", "net", "jp", "nz", "kr")),
    template=st.sampled_from(
        ("简历投到{v}就行", "メールは{v}まで", "이메일은 {v}입니다", "email me at {v} thx")
    ),
)
@settings(max_examples=300, deadline=None, database=None)
def test_an_email_spelt_any_way_is_caught_whole(
    local: str, at: str, domain: str, dot: str, tld: str, template: str
) -> None:
    value = f"{local}{at}{domain}{dot}{tld}"
    text = template.replace("{v}", value)
    start = text.index(value)
    spans = PATTERNS.find_spans(text)
    assert any(s <= start and start + len(value) <= e and k == "EMAIL" for s, e, k in spans), spans


KEPT_NUMBERS = (
    # hotlines of every region, whatever word names them
    ("官方电话是{v}吗", st.from_regex(r"400[ -][0-9]{3}[ -][0-9]{4}", fullmatch=True)),
    ("called {v} no answer", st.from_regex(r"1[38]00[ -][0-9]{3}[ -][0-9]{3}", fullmatch=True)),
    ("free call {v}", st.from_regex(r"1-8(00|88|77)-[0-9]{3}-[0-9]{4}", fullmatch=True)),
    ("フリーダイヤル{v}に電話した", st.from_regex(r"0120-[0-9]{2,3}-[0-9]{3,4}", fullmatch=True)),
    ("고객센터 {v}로 전화했는데", st.from_regex(r"15(88|77|44)-[0-9]{4}", fullmatch=True)),
    # a home network's address, whatever its last number
    ("后台地址{v}打不开", st.from_regex(r"192\.168\.[0-9]{1,2}\.[0-9]{1,3}", fullmatch=True)),
    ("管理画面は{v}", st.from_regex(r"192\.168\.[0-9]{1,2}\.25[0-4]", fullmatch=True)),
    # an order named after its number
    ("{v}这个单能退吗", st.text("0123456789", min_size=12, max_size=19)),
    ("{v} 주문 취소해주세요", st.text("0123456789", min_size=12, max_size=19)),
)


@given(near=st.sampled_from(KEPT_NUMBERS).flatmap(lambda t: st.tuples(st.just(t[0]), t[1])))
@settings(max_examples=300, deadline=None, database=None)
def test_a_hotline_a_home_address_and_an_order_are_kept(near: tuple[str, str]) -> None:
    template, value = near
    text = template.replace("{v}", value)
    start = text.index(value)
    assert not any(s < start + len(value) and start < e for s, e, _ in PATTERNS.find_spans(text))


# --- names and addresses (helper `name`) ---


def _covered_as(text: str, value: str, kind: str) -> bool:
    start = text.index(value)
    return any(s <= start and start + len(value) <= e and k == kind for s, e, k in PATTERNS.find_spans(text))


_NUMBER = st.integers(1, 999).map(str)


@st.composite
def addresses(draw: st.DrawFn) -> tuple[str, str]:
    """An address in the grammar of one country, and a sentence that holds it."""
    n = [draw(_NUMBER) for _ in range(4)]
    form = draw(st.integers(0, 5))
    if form == 0:
        city = draw(st.sampled_from(["广东省深圳市南山区", "北京市海淀区", "浙江省杭州市西湖区"]))
        street = draw(st.sampled_from(["科技园路", "学院南路", "文一西街"]))
        estate = draw(st.sampled_from(["翠湖花园", "万科城", "阳光新苑", "金地名京"]))
        value = f"{city}{street}{n[0]}号{estate}{n[1]}栋{draw(st.integers(1, 9))}单元{n[2]}室"
        return value, f"收货地址：{value}，谢谢"
    if form == 1:
        ward = draw(st.sampled_from(["東京都渋谷区神南", "大阪府大阪市北区梅田", "京都府京都市左京区"]))
        chome = draw(st.sampled_from([str(draw(st.integers(1, 9))), "三", "七"]))
        building = draw(st.sampled_from(["", "コーポ桜", " レジデンス青山"]))
        value = f"{ward}{chome}丁目{n[0]}番{n[1]}号" + (f"{building}{n[2]}号室" if building else "")
        return value, f"住所は{value}です"
    if form == 2:
        city = draw(st.sampled_from(["서울 송파구", "경기도 성남시 분당구", "인천광역시 남동구"]))
        road = draw(st.sampled_from(["올림픽로", "판교역로", "구월로12번길"]))
        value = f"{city} {road} {n[0]}, 현대아파트 {n[1]}동 {n[2]}호"
        return value, f"배송지는 {value}입니다"
    if form == 3:
        pin = draw(st.integers(100000, 999999))
        value = f"{n[0]}, {draw(st.sampled_from(['Shastri', 'Patel', 'Rao']))} Nagar, Pune-{pin}"
        return value, f"my address is {value} pls"
    if form == 4:
        postcode = draw(st.integers(1000, 9999))
        value = f"Unit {n[0]}, {n[1]} Kingsway Road, Mount Albert, Auckland {postcode}"
        return value, f"deliver to {value}. thanks"
    postcode = draw(st.integers(1000, 9999))
    value = f"Blk {n[0]} Lot {n[1]} Rizal Street, Batangas City, {postcode} Batangas"
    return value, f"ship to {value}, ok?"


@given(addresses())
@settings(max_examples=200, deadline=None, database=None)
def test_an_address_is_redacted_whole_in_each_countrys_grammar(address: tuple[str, str]) -> None:
    value, text = address
    assert _covered_as(text, value, "ADDRESS")


_GIVEN_KANJI = st.text(alphabet="翔太美咲健一花子陽菜蓮葵大輝結衣", min_size=1, max_size=2)
_GIVEN_HAN = st.text(alphabet="伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超", min_size=1, max_size=2)
_SYLLABLE = st.sampled_from(list("민서지현수영준호하윤우진은예도연"))


@st.composite
def named_people(draw: st.DrawFn) -> tuple[str, str]:
    """A person's name in one script, and a sentence that says who the person is or honours them."""
    form = draw(st.integers(0, 4))
    if form == 0:
        space = draw(st.sampled_from(["", " ", "\u3000"]))
        name = draw(st.sampled_from(["佐藤", "高橋", "渡辺", "松本", "長谷川"])) + space + draw(_GIVEN_KANJI)
        template = draw(
            st.sampled_from(["部長の{}が来ます", "{}様宛ての手紙", "同僚の{}と話した", "昨日{}に会った"])
        )
    elif form == 1:
        name = draw(st.sampled_from(["王", "刘", "欧阳", "郭", "慕容"])) + draw(_GIVEN_HAN)
        template = draw(st.sampled_from(["我同事{}明天请假", "老师叫{}，教英语", "合同上签字的是{}"]))
    elif form == 2:
        name = draw(st.sampled_from(["김", "이", "박", "최", "제갈"])) + draw(_SYLLABLE) + draw(_SYLLABLE)
        template = draw(
            st.sampled_from(
                ["어제 {}이랑 만났어요", "韩国客户{}下周来", "友達の{}に会う", "my friend {} is here"]
            )
        )
    elif form == 3:
        name = draw(st.sampled_from(["田中", "张", "林"])) + draw(_GIVEN_HAN)
        template = draw(
            st.sampled_from(["our contact is {} in Osaka", "ask {} about it", "중국 친구 {}한테 물어봐"])
        )
    else:
        name = (
            draw(st.sampled_from(["Maria", "Rahul", "Chloe"]))
            + " "
            + draw(st.sampled_from(["Lopez", "Shah", "Dubois"]))
        )
        template = draw(
            st.sampled_from(["取引先の{}さんに連絡", "영어 선생님 {}께 편지", "合同甲方代表是{}，乙方是我"])
        )
    return name, template.format(name)


@given(named_people())
@settings(max_examples=300, deadline=None, database=None)
def test_a_named_person_is_redacted_whole(person: tuple[str, str]) -> None:
    name, text = person
    assert _covered_as(text, name, "NAME")
