"""Names and addresses by class, patterns alone (what CI has): a name after a word that says whose
it is, in any of the four languages and scripts; a name on a contact line, before the note that
names it, before a greeting; a capitalised pair only with a person's evidence; a brand named
after a person kept; addresses of other countries written in English, Japanese and Korean ones by
their grammar. Examples and properties (Hypothesis) of each class."""

from __future__ import annotations

import tempfile

import pytest
from helpers.redaction import PATTERNS, untouched
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

set_hypothesis_home_dir(tempfile.mkdtemp(prefix="uxbench-hypothesis-"))  # its caches, not in the tree


def _covered(text: str, value: str) -> bool:
    """Whether every character of `value` (its first occurrence in `text`) is inside a span."""
    start = text.index(value)
    spans = PATTERNS.find_spans(text)
    return all(
        any(s <= i < e for s, e, _ in spans)
        for i in range(start, start + len(value))
        if not text[i].isspace()
    )


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("持卡人为欧阳娜娜。", "欧阳娜娜"),
        ("请假人孔令辉，明天回来", "孔令辉"),
        ("申请人 上官婉清", "上官婉清"),
        ("收货人为玛丽亚·桑切斯。", "玛丽亚·桑切斯"),
        ("カード名義：高橋 真一", "高橋 真一"),
        ("受取人って佐々木 葵で合ってる？", "佐々木 葵"),
        ("申込書の宛名の欄に「岡本　陽菜」って書いた", "岡本　陽菜"),
        ("私はOliver Grantと申します", "Oliver Grant"),
        ("카드 명의 최지우 맞나요", "최지우"),
        ("저는 나탈리 포트만입니다", "나탈리 포트만"),
        ("예금주 데이비드 밀러 로 바꿔주세요", "데이비드 밀러"),
        ("the account holder is lee minho thanks", "lee minho"),
        ("attn farida okafor", "farida okafor"),
        ("name on card Kwame Boateng", "Kwame Boateng"),
        ("my nmae's ingrid lindqvist and i need help", "ingrid lindqvist"),
        ("account hodler: Rafael Moreau", "Rafael Moreau"),
        ("my name is now oskar novak", "oskar novak"),
        ("please find my name below:\n'Nadia Haddad'", "Nadia Haddad"),
        ("hi ms. priya castillo, following up", "priya castillo"),
        ("please add mateo brennan to the invite", "mateo brennan"),
        ("lucia kowalski will pick up the parcel", "lucia kowalski"),
    ],
)
def test_a_name_after_a_word_that_says_whose_it_is_is_redacted(text: str, name: str) -> None:
    assert _covered(text, name), PATTERNS.find_spans(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("北京市朝阳区建国路88号\n韩梅梅 13912345678", "韩梅梅"),
        ("大阪市北区梅田2-4-9\n松田 090-1234-5678", "松田"),
        ("부산광역시 해운대구 센텀중앙로 97\n남궁민 010-2345-6789", "남궁민"),
        ("12 Adeola Street, Ikeja, Lagos\nkofi mensah +233 24 123 4567", "kofi mensah"),
        ("李雷雷\n↑收件人", "李雷雷"),
        ("박서준 이게 제 예금주예요", "박서준"),
        ("小野寺 拓海←担当者です", "小野寺 拓海"),
        ("Amara Obi <- that's my name", "Amara Obi"),
        ("please see the recipient below:\nTomas Novak, thanks", "Tomas Novak"),
        ("韩梅梅你好，我是新来的", "韩梅梅"),
        ("홍길동 안녕하세요", "홍길동"),
        ("收货地址：南山区科苑路15号，周晓彤收", "周晓彤"),
        ("권나라과장님께 전해주세요", "권나라"),
        ("Mei Tanaka팀장님한테 전해주세요", "Mei Tanaka"),
        ("请把Hannah Weiss同学加到群里", "Hannah Weiss"),
        ("请把柳思远加到群里", "柳思远"),
        ("给林晓彤同学写封信", "林晓彤"),
        ("客服让我发联系人，赵一鸣，可以吗", "赵一鸣"),
        ("报销要持卡人，我的是“钱多多”", "钱多多"),
        ("寄到南山区科苑路15号，Chloe Martin收谢谢", "Chloe Martin"),
        ("小川 真司にお礼状を書いて", "小川 真司"),
        ("担当者を教えてと言われた→西村 花", "西村 花"),
        ("다니엘 리 안녕하세요", "다니엘 리"),
        ("수령인제인 오스틴 로 바꿔주세요", "제인 오스틴"),
    ],
)
def test_a_name_by_its_line_its_note_or_its_greeting_is_redacted(text: str, name: str) -> None:
    assert _covered(text, name), PATTERNS.find_spans(text)


@pytest.mark.parametrize(
    ("text", "brand"),
    [
        ("顺便问下周黑鸭的东西值得买吗", "周黑鸭"),
        ("刚在王老吉门口", "王老吉"),
        ("李宁旗舰店发的货", "李宁"),
        ("我用的是高德地图", "高德地图"),
        ("钱大妈打不开了", "钱大妈"),
        ("Hugo Boss had a sale", "Hugo Boss"),
        ("bought it at Paul Smith", "Paul Smith"),
        ("a gift from Kate Spade maybe", "Kate Spade"),
        ("Lake Louise looked lovely in May", "Lake Louise"),
        ("we hiked Ben Lomond at dawn", "Ben Lomond"),
        ("Ted Baker had a sael", "Ted Baker"),
        ("a gfit from Kate Spade", "Kate Spade"),
        ("add some salt and pepper to taste", "some salt"),
        ("can you add dark mode to the app", "dark mode"),
        ("我收到了谢谢", "收到"),
        ("联系人，我不知道怎么填", "我不知道"),
    ],
)
def test_a_brand_or_a_place_named_like_a_person_is_kept(text: str, brand: str) -> None:
    assert untouched(text, brand), PATTERNS.find_spans(text)


@pytest.mark.parametrize(
    "address",
    [
        "No. 12, Jalan Ampang 3/4, Taman Melawati, 53100 Kuala Lumpur",
        "d-3-7, Jln Kenanga 2/1, Bandar Baru, 47100 Puchong, Selangor",
        "Blk 123 Clementi Ave 3, #05-12\nSingapore 120123",
        "12B, 45 Awolowo Road, Ikoyi, Lagos",
        "House No. 7, Mirpur Road, Dhanmondi, Dhaka, 1205",
        "Rm 1203, Bldg 4, No. 88 Huaihai Rd, Xuhui District, Shanghai",
        "4-2-8 Shiba, Minato-ku, Tokyo 105-0014",
        "58 Sejong-daero, Jongno-gu, Seoul, Unit 702",
        "大阪府大阪市北区梅田三丁目〇番二号",
        "東京都港区芝五丁目3番2号\nメゾン芝浦402号室",
        "서울특별시 송파구 올림픽로 35번길 10, 101동 1202호",
        "上海市徐汇区漕溪北路88号华府12-2-1101",
        "武汉市洪山区珞喻路129号，3号楼1502",
    ],
)
def test_an_address_is_redacted_by_its_grammar(address: str) -> None:
    text = f"寄到{address}就行" if address[0] in "大東서上武" else f"ship to {address} please"
    assert _covered(text, address), PATTERNS.find_spans(text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("地址 北京市海淀区中关村大街27号 官方热线800-810-8888", "800-810-8888"),
        ("ずっと503 東京都港区芝5-3-2", "503"),
        ("東京都港区芝5-3-2\nバージョン4.2.1にしたら落ちる", "4.2.1"),
        ("Korean RRN needed? Ralph Lauren had a sale", "Ralph Lauren"),
    ],
)
def test_what_follows_an_address_or_a_name_cue_is_kept(text: str, kept: str) -> None:
    assert untouched(text, kept), PATTERNS.find_spans(text)


# names of each language, drawn from parts
_ZH_SURNAMES = ["王", "李", "张", "刘", "陈", "欧阳", "司马", "黄", "周", "吴"]
_ZH_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平桂"
_JA_NAMES = ["佐藤 健", "鈴木 美咲", "高橋 翔太", "田中 結衣", "渡辺 蓮", "中村 陽菜", "小林 大輝", "山本 葵"]
_KO_SURNAMES = "김이박최정강조윤장임한오서신권황안송"
_KO_GIVEN = "민서지우하준도윤예은수아현우채원시연"
_LATIN_FIRST = ["Amara", "Kwame", "Lucia", "Tomas", "Ingrid", "Rafael", "Nadia", "Oskar", "Priya", "Mateo"]
_LATIN_LAST = ["Okafor", "Novak", "Lindqvist", "Moreau", "Haddad", "Kowalski", "Brennan", "Castillo"]

zh_names = st.builds(
    lambda s, g: s + "".join(g),
    st.sampled_from(_ZH_SURNAMES),
    st.lists(st.sampled_from(_ZH_GIVEN), min_size=1, max_size=2),
)
ko_names = st.builds(
    lambda s, g: s + "".join(g),
    st.sampled_from(_KO_SURNAMES),
    st.lists(st.sampled_from(_KO_GIVEN), min_size=2, max_size=2),
)
latin_names = st.builds(
    lambda f, last, lower: f"{f} {last}".lower() if lower else f"{f} {last}",
    st.sampled_from(_LATIN_FIRST),
    st.sampled_from(_LATIN_LAST),
    st.booleans(),
)
# (cue template, names): the cue words and the words that join them, in each language
CUED = [
    (
        st.sampled_from(
            ["持卡人{j}{n}", "收货人{j}{n}。", "请假人{j}{n}", "户名{j}{n}", "联系人{j}{n}，谢谢"]
        ),
        zh_names,
    ),
    (
        st.sampled_from(["名義{j}{n}", "受取人{j}{n}です", "担当者{j}{n}で登録お願いします"]),
        st.sampled_from(_JA_NAMES),
    ),
    (st.sampled_from(["명의{j}{n}", "받는 사람{j}{n}", "저는 {n}입니다", "예금주{j}{n} 맞나요"]), ko_names),
    (
        st.sampled_from(["name on card{j}{n}", "account holder is {n}", "attn {n}", "full name{j}{n}"]),
        latin_names,
    ),
]


@given(
    case=st.sampled_from(CUED).flatmap(lambda c: st.tuples(c[0], c[1])),
    join=st.sampled_from(["：", " ", ": ", "为", "は"]),
    before=st.sampled_from(["", "帮我看看 ", "これ、", "확인해 주세요 ", "quick one: "]),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_cued_name_is_redacted_in_any_language(case: tuple[str, str], join: str, before: str) -> None:
    template, name = case
    # a language's own joining word after its own cue words only (为 after 持卡人, は after 名義)
    own = {"为": "持收请户联", "は": "名受担"}
    join = join if join not in own or template[0] in own[join] else " "
    text = before + template.format(j=join, n=name)
    assert _covered(text, name), (text, PATTERNS.find_spans(text))


@given(
    name=st.one_of(zh_names, ko_names, latin_names, st.sampled_from(_JA_NAMES)),
    phone=st.sampled_from(
        ["13912345678", "+44 7700 900123", "010-2345-6789", "090-1234-5678", "+233 24 123 4567"]
    ),
    address=st.sampled_from(
        ["北京市朝阳区建国路88号", "大阪市北区梅田2-4-9", "12 Adeola Street, Ikeja, Lagos", ""]
    ),
)
@settings(max_examples=300, deadline=None, database=None)
def test_a_name_on_its_line_before_a_phone_is_redacted(name: str, phone: str, address: str) -> None:
    text = f"{address}\n{name} {phone}" if address else f"{name} {phone}"
    assert _covered(text, name), (text, PATTERNS.find_spans(text))


_LATIN_BRANDS = st.builds(
    lambda f, last: f"{f} {last}", st.sampled_from(_LATIN_FIRST), st.sampled_from(_LATIN_LAST)
)
_ZH_TRADE = st.sampled_from(
    ["{b}旗舰店发的货", "顺便问下{b}的东西值得买吗", "刚在{b}门口", "{b}打不开了", "我用的是{b}"]
)
_EN_TRADE = st.sampled_from(["{b} had a sale", "bought it at {b}", "a gift from {b} maybe", "{b} store"])


@given(case=st.one_of(st.tuples(zh_names, _ZH_TRADE), st.tuples(_LATIN_BRANDS, _EN_TRADE)))
@settings(max_examples=300, deadline=None, database=None)
def test_a_name_with_a_word_of_trade_is_a_brand_and_kept(case: tuple[str, str]) -> None:
    brand, trade = case
    text = trade.format(b=brand)
    assert untouched(text, brand), (text, PATTERNS.find_spans(text))


_DOORS = st.sampled_from(["No. 8", "27B", "s-14-44", "3i-92", "Lot 9-5", "Suite 16B", "No. 1K-57", "Flat 19"])
_STREETS = st.sampled_from(
    ["Jln Melor 3/2", "Jalan Ampang", "Lorong Muda 4", "45 Awolowo Road", "12 Moi Avenue"]
)


@given(
    door=_DOORS,
    street=_STREETS,
    area=st.sampled_from(["Taman Melawati", "Seri Kembangan", "Victoria Island", "Ikoyi"]),
    post=st.integers(10000, 99999),
    town=st.sampled_from(["Kuala Lumpur", "USJ 26c", "Bandar Baru", "Lagos"]),
    lead=st.sampled_from(["ship to ", "寄到", "住所は", "주소 ", "'"]),
    tail=st.sampled_from(["", " thanks", "就行", "です", "'"]),
)
@settings(max_examples=300, deadline=None, database=None)
def test_an_english_address_of_any_door_shape_is_redacted_whole(
    door: str, street: str, area: str, post: int, town: str, lead: str, tail: str
) -> None:
    address = f"{door}, {street}, {area}, {post} {town}"
    text = lead + address + tail
    assert _covered(text, address), (text, PATTERNS.find_spans(text))


_KANJI = "一二三四五六七八九〇"


@given(
    chome=st.sampled_from(_KANJI[:9]),
    ban=st.sampled_from(_KANJI),
    go=st.sampled_from(_KANJI),
    city=st.sampled_from(["大阪府大阪市北区梅田", "東京都港区芝", "札幌市中央区北一条西"]),
    building=st.sampled_from(["", "\nメゾン芝浦402号室", " コーポ梅田301", "\nハイツ北203"]),
    road=st.integers(1, 400),
    gil=st.integers(1, 99),
    unit=st.sampled_from(["", " 101동 1202호", " 5층", "\n래미안 103동 602호"]),
)
@settings(max_examples=300, deadline=None, database=None)
def test_japanese_kanji_and_korean_beongil_addresses_are_redacted_whole(
    chome: str, ban: str, go: str, city: str, building: str, road: int, gil: int, unit: str
) -> None:
    japanese = f"{city}{chome}丁目{ban}番{go}号{building}"
    korean = f"서울특별시 송파구 올림픽로 {road}번길 {gil}{unit}"
    for text, address in ((f"住所：{japanese}", japanese), (f"주소는 {korean}입니다", korean)):
        assert _covered(text, address), (text, PATTERNS.find_spans(text))


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("codice fiscale RCCMNL83S18D969H", "codice fiscale"),
        ("bank account 6222 0212 3456 7890", "bank account"),
        ("social security 123-45-6789", "social security"),
    ],
)
def test_a_forms_label_before_a_masked_value_is_no_name(text: str, label: str) -> None:
    """The line-before-a-value rule reads names, not the label of the value."""
    assert untouched(text, label)
