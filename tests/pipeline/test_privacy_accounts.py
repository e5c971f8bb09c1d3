"""Handles, plates and device ids by the grammar of how people write them: a cue before the value
across a gap of words (`有问题微信找我…`, `my snap is now …`), a cue after it (`… <- that's my rego`,
`…\\n↑微信`, `… 이게 제 S/N예요`), cue words misspelt (`disocrd`, `plaet`), and the near-misses
(models, versions, orders, student numbers) that stay. Patterns alone, as CI runs them."""

from __future__ import annotations

import uuid

import pytest
from helpers.redaction import PATTERNS, untouched
from hypothesis import given, settings
from hypothesis import strategies as st
from stdnum import luhn


def _covered(text: str, value: str, kind: str | None = None) -> bool:
    """Whether one span (of `kind`, None: any) holds the whole value."""
    start = text.index(value)
    spans = PATTERNS.find_spans(text)
    return any(s <= start and start + len(value) <= e and kind in (k, None) for s, e, k in spans)


# ------------------------------------------------------------------ examples of each class
@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a cue, then words or a verb, then the value
        ("有事微信联系我 lemon_tree88 就行", "lemon_tree88"),
        ("抖音号改成了 hanazono.77", "hanazono.77"),
        ("ディスコ pandaroll で登録してね", "pandaroll"),
        ("インスタやってるよ、@kumo_sora だよ", "@kumo_sora"),
        ("카톡 아이디로 연락해 bluewhale", "bluewhale"),
        ("텔레그램은 moonrabbit77 이에요", "moonrabbit77"),
        ("please update my telegram to greenfinch", "greenfinch"),
        ("follow me on snap olivepit lol", "olivepit"),
        ("Please find my discord below:\nquietharbor", "quietharbor"),
        # the value first, its cue after
        ("ironkettle9\n↑绿泡泡", "ironkettle9"),
        ("marblefox <- that's my insta", "marblefox"),
        ("tidepool_2\n위에 거 디코임", "tidepool_2"),
        ("saltmoon\nこれがツイ垢です", "saltmoon"),
        # misspelt or abbreviated names
        ("add me on disocrd velvetcrow", "velvetcrow"),
        ("qq nubmer: 20418833", "20418833"),
        ("sc: paperlantern", "paperlantern"),
        ("加我IG frostbyte_3", "frostbyte_3"),
    ],
)
def test_a_handle_is_caught_whatever_stands_between_it_and_its_cue(text: str, value: str) -> None:
    assert _covered(text, value, "HANDLE")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("停车场登记車牌號碼：琼B•7KQ2M", "琼B•7KQ2M"),
        ("我的车 苏E·K3PZQ 被贴了罚单", "苏E·K3PZQ"),
        ("足立　500　さ　・・12の車です", "足立　500　さ　・・12"),
        ("KLM 4412 <- that's my rego", "KLM 4412"),
        ("P-QR 512\nこれがナンバープレートです", "P-QR 512"),
        ("WDX 3310\n↑车牌号", "WDX 3310"),
        ("BX-220-KM 이게 제 차량번호예요", "BX-220-KM"),
        ("please find my numbre plate below:\nHJ 7", "HJ 7"),
        ("ZT-PA 99 차가 제 자리에 주차했어요", "ZT-PA 99"),
        ("KT 5这辆车又挡路了", "KT 5"),
    ],
)
def test_a_plate_is_caught_by_its_cue_before_or_after_it(text: str, value: str) -> None:
    assert _covered(text, value, "PLATE")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("公司要登记电脑的SN码，我的是K7QD2M9PXF3", "K7QD2M9PXF3"),
        ("先方にシリアル番号を伝えたいので→QX81ZT55LMA0", "QX81ZT55LMA0"),
        ("C02ZK9LQMD6T 이게 제 일련번호예요", "C02ZK9LQMD6T"),
        ("my sreial no. is FK2P0093TQ", "FK2P0093TQ"),
        ("HT55RQ0Z1K\nthat's the s/n", "HT55RQ0Z1K"),
        ("S/NVK72PP19QA", "VK72PP19QA"),
        ("帮我查一下mac0a-1b-2c-3d-4e-5f是不是正品", "0a-1b-2c-3d-4e-5f"),
        ("맥 어드레스는 3c7a9e01bd44 입니다", "3c7a9e01bd44"),
        ("0e44c1a2b3f6\n↑mac地址", "0e44c1a2b3f6"),
    ],
)
def test_a_serial_or_a_mac_is_caught_by_its_cue_before_or_after_it(text: str, value: str) -> None:
    assert _covered(text, value, "DEVICE")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("模型是 SM-X670B，微信上问一下", "SM-X670B"),
        ("微信支付不了，RTX4090怎么办", "RTX4090"),
        ("SN码在哪看？型号是ILCE-7RM5", "ILCE-7RM5"),
        ("4H2KQ9ZT0P\n위에 거 S/N임\n모델명 WH-1000XM5", "WH-1000XM5"),
        ("iPhone X 64GB 还有货吗", "64GB"),
        ("Telegram is down again", "down"),
        ("my tiktok froze twice", "froze"),
        ("we talked on WhatsApp yesterday", "yesterday"),
        ("my discord is broken since 2.3.1", "2.3.1"),
        ("카톡 업데이트했어요 버전 10.4.2", "10.4.2"),
        ("微信\n学号 2023104455 选课进不去", "2023104455"),
        ("查一下粤B 12345有没有违章，我买的是ZK0475-R这款", "ZK0475-R"),
        ("住民登録番号として正しい？\nJK3301AXの国内版", "JK3301AX"),
        ("https://github.com/python/cpython", "python"),
    ],
)
def test_a_model_version_or_student_number_near_a_cue_is_kept(text: str, value: str) -> None:
    assert untouched(text, value)


# ------------------------------------------------------------------ properties of each class
HANDLE_NAMES = (
    "微信",
    "VX",
    "QQ",
    "抖音号",
    "LINE",
    "ライン",
    "インスタ",
    "카톡",
    "텔레그램",
    "Discord",
    "snapchat",
)
FORWARD = (  # a cue, the words people put between, the value
    "有问题{c}找我{v}",
    "我的{c}改成{v}了",
    "{c}やってる？{v}だよ",
    "連絡は{c}の{v}まで",
    "{c}로 연락해 {v}",
    "add me on {c} {v}",
    "my {c} is now {v} pls remember it",
    'the form asks for {c} so I put "{v}"',
    "【{c}】{v}",
    "({c}) {v}",
)
BACKWARD = (  # the value, a pointer, its cue
    "{v}\n↑{c}",
    "{v} <- that's my {c}",
    "{v}\nthat's the {c}",
    "{v} 这个是我{c}",
    "{v}\n위에 거 {c}임",
    "{v} 이게 제 {c}예요",
    "{v}\nこれが{c}です",
    "{v}←{c}です",
)
# a short run of letters alone may be a word of the sentence (`找我off`): the redactor keeps those
HANDLE_VALUES = st.from_regex(r"[a-z]{3,10}(?:[._][a-z]{1,6})?[0-9]{0,3}", fullmatch=True).filter(
    lambda v: not v.isalpha() or len(v) >= 6
)


@given(
    value=HANDLE_VALUES,
    name=st.sampled_from(HANDLE_NAMES),
    template=st.sampled_from(FORWARD + BACKWARD),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_handle_is_caught_with_its_cue_on_either_side(value: str, name: str, template: str) -> None:
    text = template.replace("{c}", name).replace("{v}", value)
    assert _covered(text, value)


def _swapped(word: str, at: int) -> str:
    at %= len(word) - 1
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


@given(
    value=st.from_regex(r"[a-z]{4,9}[0-9]{2}", fullmatch=True),
    name=st.sampled_from(("telegram", "discord", "instagram", "snapchat", "kakaotalk", "twitter")),
    at=st.integers(0, 20),
    frame=st.sampled_from(("add me on {c} {v}", "{c}: {v}", "my {c} is {v}", "{c}で{v}を追加して")),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_messenger_misspelt_by_one_swap_still_names_its_handle(
    value: str, name: str, at: int, frame: str
) -> None:
    text = frame.replace("{c}", _swapped(name, at)).replace("{v}", value)
    assert _covered(text, value)


PLATE_NAMES = (
    "车牌号",
    "車牌號碼",
    "plate",
    "rego",
    "number plate",
    "ナンバープレート",
    "차량번호",
    "번호판",
)
PLATE_VALUES = st.from_regex(r"[A-HJ-NP-Z]{2,3}[ \-][0-9]{2,4}(?: [A-HJ-NP-Z])?", fullmatch=True)


@given(
    value=PLATE_VALUES,
    name=st.sampled_from(PLATE_NAMES),
    template=st.sampled_from(
        ("{c}：{v}", "【{c}】{v}", "please find my {c} below:\n{v}", "先方に{c}を伝えたいので→{v}", *BACKWARD)
    ),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_plate_is_caught_with_its_cue_on_either_side(value: str, name: str, template: str) -> None:
    text = template.replace("{c}", name).replace("{v}", value)
    assert _covered(text, value)


SERIAL_NAMES = ("SN", "S/N", "SN码", "序列号", "serial no.", "シリアル番号", "製造番号", "일련번호")
SERIAL_VALUES = st.from_regex(r"[A-Z][A-Z0-9]{3,6}[0-9][A-Z0-9]{2,5}", fullmatch=True)


@given(
    value=SERIAL_VALUES,
    name=st.sampled_from(SERIAL_NAMES),
    template=st.sampled_from(
        ("公司要登记电脑的{c}，我的是{v}", "申込書の{c}の欄に「{v}」", "my {c} is now {v}", *BACKWARD)
    ),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_serial_is_caught_with_its_cue_on_either_side(value: str, name: str, template: str) -> None:
    text = template.replace("{c}", name).replace("{v}", value)
    assert _covered(text, value)  # `A100000000` may read as a passport's number: redacted all the same


@given(
    value=st.builds(lambda u, upper: str(u).upper() if upper else str(u), st.uuids(), st.booleans()),
    name=st.sampled_from(
        ("IDFA", "GAID", "advertising ID", "广告ID", "设备标识", "広告ID", "광고 ID", "端末ID")
    ),
    template=st.sampled_from(
        ("帮我查一下{c}{v}是不是正品", "{c}は{v}です", "my {c} is {v}", "{c} {v} 보증기간", *BACKWARD)
    ),
)
@settings(max_examples=300, deadline=None, database=None)
def test_an_advertising_id_is_caught_with_its_cue_on_either_side(
    value: str, name: str, template: str
) -> None:
    assert isinstance(uuid.UUID(value), uuid.UUID)
    text = template.replace("{c}", name).replace("{v}", value)
    assert _covered(text, value, "DEVICE")


@given(
    body=st.builds(
        str.__add__,
        st.sampled_from(("35", "86", "01", "99")),
        st.text("0123456789", min_size=12, max_size=12),
    ),
    shape=st.sampled_from(("{a}-{b}-{c}-{d}", "{ab} {cd}", "{abcd}")),
    template=st.sampled_from(
        ("公司要登记电脑的IMEI，我的是{v}", "{v}\n↑IMEI码", "{v}\nこれがIMEIです", "imie number: {v}")
    ),
)
@settings(max_examples=300, deadline=None, database=None)
def test_an_imei_is_caught_with_its_cue_on_either_side(body: str, shape: str, template: str) -> None:
    digits = body + luhn.calc_check_digit(body)
    value = shape.format(
        a=digits[:2], b=digits[2:8], c=digits[8:14], d=digits[14], ab=digits[:8], cd=digits[8:], abcd=digits
    )
    assert _covered(
        template.replace("{v}", value), value
    )  # `00-000000-…` may read as an ID: redacted all the same


MODELS = st.from_regex(
    r"(?:SM-[A-Z][0-9]{3}[A-Z]|ILCE-7[A-Z]{1,2}[0-9]|WH-1000XM[3-6]|KJ-[0-9]{2}X[0-9]{2}[A-Z])",
    fullmatch=True,
)


@given(
    model=MODELS,
    name=st.sampled_from(HANDLE_NAMES + SERIAL_NAMES + PLATE_NAMES),
    template=st.sampled_from(
        (
            "{c}在哪看？型号是{m}",
            "{c}的问题，我买的{m}国行版",
            "{c}について\n型番は{m}です",
            "{c} 확인했어요\n모델명 {m}",
            "my {c} works. it's the {m} model btw",
        )
    ),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_model_named_near_any_cue_is_kept(model: str, name: str, template: str) -> None:
    text = template.replace("{c}", name).replace("{m}", model)
    assert untouched(text, model)
