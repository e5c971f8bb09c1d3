"""The third held-out PII corpus: user turns in zh, en, ja and ko, made without reading the redactor,
its documentation, its results or the other corpora's templates and makers, and frozen (committed)
before any redactor read it. Change it only to fix a wrong label, never because a redactor misses
something: its worth is that nobody tuned on it.

How it was made, and how it differs from the other corpora:
- sentence templates written for this module alone, in the register people type into a chat
  assistant: requests ("帮我写一封信给…", "translate this for me:", "この住所を英語に…",
  "이 번호로 …"), values at the start, the end or glued to words, quoted or bracketed, given in
  two parts or across a line break (each part a span), two values in one turn; literal text then
  gets typos, dropped punctuation, line breaks and emoji (never inside a value);
- a cue word chosen for the exact form of the value (a Korean RRN is called 주민번호, a Singapore
  NRIC "IC no."), in each language's own spellings (vx / 威信 / 扣扣, ラインID, 카톡 아이디, …);
- values from hand-written makers with real check digits where one exists (mainland, Hong Kong and
  Taiwan IDs, Korean RRN, Japanese My Number, US SSN, Canadian SIN, Singapore NRIC, Australian TFN,
  Thai ID, Luhn cards and IMEIs, EAN barcodes), phones valid by libphonenumber's metadata in 18
  regions, written with every separator, `00` / `+` / `(+86)` prefixes, full-width digits, Chinese
  and Korean numerals; e-mails with the at-sign and dot written out (`艾特`, `[at]`, `골뱅이`,
  `アットマーク`, `(dot)`, `#` "换成@", …);
- Faker only in locales no other corpus used (en_TH, en_PK, en_KE, en_NG, id_ID for names and
  user names, en_MS and en_BD for addresses); Chinese, Japanese and Korean names and addresses
  (mainland, Hong Kong, Macau, Taiwan, Japan, Korea, Singapore, in their scripts and romanised)
  from word lists written here;
- near-misses (values that only look personal and must be kept) in about `near_share` of turns,
  one near-miss kind after another per language.

`turns(n, seed)` gives `HeldTurn`s: turn i is in `LANGS[i % 4]` and plants a value of kind
`(STRICT_KINDS + LOOSE_KINDS)[i % 9]` (sometimes a second value of another kind); every personal
value is a `(start, end, kind)` span in `pii`, every near-miss a `(start, end, near_kind)` span in
`near`, each covering the value alone (no cue, no bracket, no `@` before a user name).
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable
from functools import cache

import phonenumbers
from faker import Faker
from stdnum import ean, luhn
from stdnum.au import tfn
from stdnum.cn import ric
from stdnum.jp import in_ as my_number
from stdnum.kr import rrn
from stdnum.my import nric
from stdnum.th import pin
from stdnum.us import ssn

from helpers.heldout_pii import LANGS, LOOSE_KINDS, NEAR_KINDS, STRICT_KINDS, HeldTurn

__all__ = ["LANGS", "LOOSE_KINDS", "NEAR_KINDS", "STRICT_KINDS", "HeldTurn", "turns"]

KINDS = STRICT_KINDS + LOOSE_KINDS
Value = tuple[str, ...]  # labelled parts at even indices, the text between them at odd ones
Made = tuple[Value, str]  # a value and the cue word for its exact form, in the turn's language
Cues = dict[str, tuple[str, ...]]
UPPER = "ABCDEFGHJKLMNPRSTUVWXYZ"  # no I, O, Q: what plates and many codes leave out
LOWER_ALNUM = string.ascii_lowercase + string.digits


def _d(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


def _nz(rng: random.Random, n: int) -> str:
    """n digits, the first not 0."""
    return rng.choice("123456789") + _d(rng, n - 1)


def _letters(rng: random.Random, n: int, alphabet: str = UPPER) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _cue(rng: random.Random, lang: str, cues: Cues) -> str:
    return rng.choice(cues[lang])


def _full_width(text: str) -> str:
    """Digits, letters and ASCII punctuation in their full-width forms, as CJK IMEs type them."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in text)


@cache
def _faker(locale: str) -> Faker:
    return Faker(locale)


def _fake(rng: random.Random, locale: str, what: str) -> str:
    """One Faker value, seeded from the corpus's generator so a seed gives the same corpus."""
    faker = _faker(locale)
    faker.seed_instance(rng.getrandbits(32))
    return str(getattr(faker, what)())


# ------------------------------------------------------------------ identity numbers

CN_AREAS = (
    "110108",
    "310104",
    "440304",
    "330102",
    "510104",
    "420102",
    "320106",
    "370212",
    "350203",
    "610113",
)


def _birth(rng: random.Random, first: int, last: int) -> tuple[int, int, int]:
    return rng.randint(first, last), rng.randint(1, 12), rng.randint(1, 28)


def _cn_ric(rng: random.Random) -> str:
    y, m, d = _birth(rng, 1950, 2007)
    body = f"{rng.choice(CN_AREAS)}{y}{m:02d}{d:02d}{_d(rng, 3)}"
    number = body + ric.calc_check_digit(body + "0")  # stdnum drops the last character
    if number[-1] == "X" and rng.random() < 0.3:
        number = number[:-1] + "x"
    style = rng.random()
    if style < 0.2:
        return f"{number[:6]} {number[6:14]} {number[14:]}"
    return number


def _hk_check(head: str) -> str:
    values = ([36] if len(head) == 7 else []) + [ord(c) - 55 if c.isalpha() else int(c) for c in head]
    check = (11 - sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True)) % 11) % 11
    return "A" if check == 10 else str(check)


def _hkid(rng: random.Random) -> str:
    head = _letters(rng, rng.choice((1, 1, 1, 2)), "ABCDEGHKMPRVWXYZ") + _d(rng, 6)
    check = _hk_check(head)
    return rng.choice((f"{head}({check})", f"{head}（{check}）", f"{head}{check}", f"{head} ({check})"))


def _macau(rng: random.Random) -> str:
    return f"{rng.choice('157')}{_d(rng, 6)}({_d(rng, 1)})"


TW_CODES = "ABCDEFGHJKLMNPQRSTUVXYWZIO"


def _tw_check(head: str) -> str:
    code = TW_CODES.index(head[0]) + 10
    weights = (8, 7, 6, 5, 4, 3, 2, 1)
    total = code // 10 + code % 10 * 9 + sum(int(c) * w for c, w in zip(head[1:], weights, strict=True))
    return str((10 - total % 10) % 10)


def _twid(rng: random.Random) -> str:
    head = rng.choice("ABCDEFGHKMNPQTUVWXZ") + rng.choice("12") + _d(rng, 7)
    return head + _tw_check(head)


def _kr_rrn(rng: random.Random) -> str:
    y, m, d = _birth(rng, 1955, 2012)
    sex = rng.choice("12") if y < 2000 else rng.choice("34")
    body = f"{y % 100:02d}{m:02d}{d:02d}{sex}{rng.randint(0, 95):02d}{_d(rng, 3)}"  # birth place ≤ 96
    number = body + rrn.calc_check_digit(body)
    return rng.choice(
        (f"{number[:6]}-{number[6:]}", f"{number[:6]}-{number[6:]}", number, f"{number[:6]} {number[6:]}")
    )


def _my_number(rng: random.Random) -> str:
    body = _nz(rng, 11)
    number = body + my_number.calc_check_digit(body)
    sep = rng.choice(("", " ", "-", " "))
    return sep.join((number[:4], number[4:8], number[8:]))


def _residence_card(rng: random.Random) -> str:
    return _letters(rng, 2, string.ascii_uppercase) + _d(rng, 8) + _letters(rng, 2, string.ascii_uppercase)


def _passport(rng: random.Random) -> str:
    forms = (
        lambda: "E" + _d(rng, 8),  # mainland, older
        lambda: "E" + rng.choice(UPPER) + _d(rng, 7),  # mainland, newer
        lambda: rng.choice(("TK", "TR", "TZ", "MZ")) + _d(rng, 7),  # Japan
        lambda: "M" + _d(rng, 8),  # Korea
        lambda: "M" + _d(rng, 3) + rng.choice("ABCDEFGHJK") + _d(rng, 4),  # Korea, 2021 on
        lambda: rng.choice("ACEG") + _d(rng, 8),  # United States, next generation
        lambda: _letters(rng, 2, "ABCGHJKLMNPRSTWXYZ") + _d(rng, 6),  # Canada
        lambda: rng.choice(("PA", "PB", "PE", "RA")) + _d(rng, 7),  # Australia
        lambda: "K" + _d(rng, 7) + rng.choice(UPPER),  # Singapore
        lambda: rng.choice("AH") + _d(rng, 8),  # Malaysia
        lambda: "K" + _d(rng, 8),  # Hong Kong SAR
    )
    return rng.choice(forms)()


def _ssn(rng: random.Random) -> str:
    while True:
        number = f"{rng.randint(1, 665):03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
        if ssn.is_valid(number):
            break
    sep = rng.choice(("-", "-", " ", ""))
    return sep.join((number[:3], number[3:5], number[5:]))


def _nino(rng: random.Random) -> str:
    while True:
        prefix = rng.choice("ABCEGHJKLMNOPRSTWXYZ") + rng.choice("ABCEGHJKLMNPRSTWXYZ")
        if prefix not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
            break
    digits = _d(rng, 6)
    suffix = rng.choice("ABCD")
    if rng.random() < 0.5:
        return f"{prefix} {digits[:2]} {digits[2:4]} {digits[4:]} {suffix}"
    return f"{prefix}{digits}{suffix}"


def _sin(rng: random.Random) -> str:
    body = rng.choice("1234567") + _d(rng, 7)
    number = body + luhn.calc_check_digit(body)
    sep = rng.choice((" ", "-", ""))
    return sep.join((number[:3], number[3:6], number[6:]))


NRIC_TABLES = {"ST": "JZIHGFEDCBA", "FG": "XWUTRQPNMLK"}


def _nric_letter(number: str) -> str:
    total = sum(int(c) * w for c, w in zip(number[1:8], (2, 7, 6, 5, 4, 3, 2), strict=True))
    total += 4 if number[0] in "TG" else 0
    table = NRIC_TABLES["ST" if number[0] in "ST" else "FG"]
    return table[total % 11]


def _sg_nric(rng: random.Random) -> str:
    head = rng.choice("STFG") + _d(rng, 7)
    return head + _nric_letter(head)


def _tfn(rng: random.Random) -> str:
    while True:
        number = _nz(rng, 9)
        if tfn.is_valid(number):
            break
    sep = rng.choice((" ", "", " "))
    return sep.join((number[:3], number[3:6], number[6:]))


def _mykad(rng: random.Random) -> str:
    while True:
        y, m, d = _birth(rng, 1960, 2005)
        state = rng.choice(("01", "05", "07", "08", "10", "12", "13", "14"))
        number = f"{y % 100:02d}{m:02d}{d:02d}{state}{_d(rng, 4)}"
        if nric.is_valid(number):
            break
    if rng.random() < 0.7:
        return f"{number[:6]}-{number[6:8]}-{number[8:]}"
    return number


def _thai_id(rng: random.Random) -> str:
    body = rng.choice("1235") + _d(rng, 11)
    number = body + pin.calc_check_digit(body)
    if rng.random() < 0.6:
        return f"{number[0]}-{number[1:5]}-{number[5:10]}-{number[10:12]}-{number[12]}"
    return number


ID_FORMS: tuple[tuple[Callable[[random.Random], str], Cues, dict[str, int]], ...] = (
    (
        _cn_ric,
        {
            "zh": ("身份证号", "身份证", "身份证号码", "sfz号", "证件号码", "居民身份证"),
            "en": ("Chinese ID number", "PRC ID card no.", "shenfenzheng", "resident ID"),
            "ja": ("中国の身分証番号", "身分証番号", "居民身分証の番号"),
            "ko": ("중국 신분증 번호", "신분증번호", "중국 주민증 번호"),
        },
        {"zh": 6, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        _hkid,
        {
            "zh": ("香港身份证", "香港身份證號碼", "HKID", "身份證號碼"),
            "en": ("HKID", "HK ID card no.", "Hong Kong identity card number"),
            "ja": ("香港IDカード番号", "香港の身分証番号"),
            "ko": ("홍콩 신분증 번호", "HKID 번호"),
        },
        {"zh": 3, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        _macau,
        {
            "zh": ("澳门身份证", "澳門居民身份證號碼", "澳门身份证号"),
            "en": ("Macau ID no.", "Macao resident ID"),
            "ja": ("マカオの身分証番号",),
            "ko": ("마카오 신분증 번호",),
        },
        {"zh": 1, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        _twid,
        {
            "zh": ("身分證字號", "台湾身份证号", "身分證統一編號", "臺灣身分證"),
            "en": ("Taiwan ID no.", "Taiwanese national ID"),
            "ja": ("台湾の身分証番号", "台湾身分証"),
            "ko": ("대만 신분증 번호",),
        },
        {"zh": 3, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        _kr_rrn,
        {
            "zh": ("韩国身份证号", "韩国居民登录号码", "住民登录号"),
            "en": ("Korean RRN", "resident registration number", "jumin number"),
            "ja": ("韓国の住民登録番号", "住民登録番号"),
            "ko": ("주민등록번호", "주민번호", "주민등록 번호", "주번"),
        },
        {"zh": 1, "en": 1, "ja": 1, "ko": 6},
    ),
    (
        _my_number,
        {
            "zh": ("日本个人编号", "My Number", "日本的个人番号"),
            "en": ("My Number", "Japanese individual number", "my number card no"),
            "ja": ("マイナンバー", "個人番号", "マイナンバーカードの番号", "まいなんばー"),
            "ko": ("일본 마이넘버", "마이넘버"),
        },
        {"zh": 1, "en": 1, "ja": 5, "ko": 1},
    ),
    (
        _residence_card,
        {
            "zh": ("在留卡号", "在留卡号码"),
            "en": ("residence card no.", "zairyu card number"),
            "ja": ("在留カード番号", "在留カードの番号", "在留カードNo"),
            "ko": ("재류카드 번호", "재류카드번호"),
        },
        {"zh": 1, "en": 1, "ja": 3, "ko": 1},
    ),
    (
        _passport,
        {
            "zh": ("护照号", "护照号码", "護照號碼", "passport号"),
            "en": ("passport no.", "passport number", "Passport #"),
            "ja": ("旅券番号", "パスポート番号", "パスポートNo."),
            "ko": ("여권번호", "여권 번호", "passport no"),
        },
        {"zh": 3, "en": 3, "ja": 3, "ko": 3},
    ),
    (
        _ssn,
        {
            "zh": ("美国社安号", "SSN", "社会安全号码"),
            "en": ("SSN", "social security number", "social security no"),
            "ja": ("ソーシャルセキュリティ番号", "SSN"),
            "ko": ("사회보장번호", "SSN"),
        },
        {"zh": 1, "en": 3, "ja": 1, "ko": 1},
    ),
    (
        _nino,
        {
            "zh": ("英国NI号码", "National Insurance号"),
            "en": ("NI number", "National Insurance no.", "NINO"),
            "ja": ("英国のNIナンバー",),
            "ko": ("영국 NI 번호",),
        },
        {"zh": 1, "en": 2, "ja": 1, "ko": 1},
    ),
    (
        _sin,
        {
            "zh": ("加拿大SIN号", "加拿大社会保险号"),
            "en": ("SIN", "social insurance number", "SIN #"),
            "ja": ("カナダのSIN番号",),
            "ko": ("캐나다 SIN 번호",),
        },
        {"zh": 1, "en": 2, "ja": 1, "ko": 1},
    ),
    (
        _sg_nric,
        {
            "zh": ("新加坡身份证号", "NRIC", "新加坡IC"),
            "en": ("NRIC", "IC no.", "FIN number", "NRIC/FIN"),
            "ja": ("シンガポールのNRIC",),
            "ko": ("싱가포르 NRIC",),
        },
        {"zh": 1, "en": 2, "ja": 1, "ko": 1},
    ),
    (
        _tfn,
        {
            "zh": ("澳洲税号TFN", "TFN"),
            "en": ("TFN", "tax file number", "tax file no"),
            "ja": ("オーストラリアのTFN",),
            "ko": ("호주 TFN 번호",),
        },
        {"zh": 1, "en": 2, "ja": 1, "ko": 1},
    ),
    (
        _mykad,
        {
            "zh": ("马来西亚身份证", "大马IC号码", "MyKad号码"),
            "en": ("MyKad no.", "IC number", "NRIC (MyKad)"),
            "ja": ("マレーシアのIC番号",),
            "ko": ("말레이시아 신분증 번호",),
        },
        {"zh": 1, "en": 2, "ja": 1, "ko": 1},
    ),
    (
        _thai_id,
        {
            "zh": ("泰国身份证号",),
            "en": ("Thai ID number", "Thai national ID", "citizen ID"),
            "ja": ("タイのIDカード番号",),
            "ko": ("태국 신분증 번호",),
        },
        {"zh": 1, "en": 2, "ja": 1, "ko": 1},
    ),
)


def make_id(rng: random.Random, lang: str) -> Made:
    """An ID number of one of many countries, with its check digit where it has one."""
    make, cues, weights = rng.choices(ID_FORMS, weights=[w[lang] for _, _, w in ID_FORMS])[0]
    value = make(rng)
    if lang in ("zh", "ja") and rng.random() < 0.08:
        value = _full_width(value)
    return (value,), _cue(rng, lang, cues)


# ------------------------------------------------------------------ phones

PHONE_REGIONS: dict[str, tuple[tuple[str, int, Callable[[random.Random], str]], ...]] = {
    "CN": (
        (
            "CN",
            5,
            lambda r: (
                "1" + r.choice(("38", "39", "50", "86", "77", "99", "35", "58", "81", "91", "87")) + _d(r, 8)
            ),
        ),
        (
            "CN",
            2,
            lambda r: (
                r.choice(("10", "21", "20", "755", "28", "571", "27", "25")) + r.choice("2345678") + _d(r, 7)
            ),
        ),
    ),
    "HK": (("HK", 1, lambda r: r.choice("5679") + _d(r, 7)),),
    "MO": (("MO", 1, lambda r: "6" + r.choice("2368") + _d(r, 6)),),
    "TW": (
        ("TW", 2, lambda r: "9" + _d(r, 8)),
        ("TW", 1, lambda r: "2" + r.choice("2378") + _d(r, 7)),
    ),
    "JP": (
        ("JP", 4, lambda r: r.choice("789") + "0" + r.choice("123456789") + _d(r, 7)),
        ("JP", 2, lambda r: r.choice(("3", "6")) + r.choice("3456") + _d(r, 7)),
        ("JP", 1, lambda r: r.choice(("45", "52", "92", "75", "11")) + r.choice("2345678") + _d(r, 6)),
    ),
    "KR": (
        ("KR", 5, lambda r: "10" + r.choice("23456789") + _d(r, 7)),
        ("KR", 2, lambda r: r.choice(("2", "31", "51", "53", "62")) + r.choice("2345678") + _d(r, 6)),
    ),
    "US": (
        (
            "US",
            1,
            lambda r: (
                r.choice(("212", "415", "646", "312", "206", "617", "213")) + r.choice("2345678") + _d(r, 6)
            ),
        ),
    ),
    "CA": (
        ("CA", 1, lambda r: r.choice(("604", "416", "514", "403", "613")) + r.choice("2345678") + _d(r, 6)),
    ),
    "GB": (("GB", 1, lambda r: "7" + r.choice("45789") + _d(r, 8)),),
    "AU": (("AU", 1, lambda r: "4" + _d(r, 8)),),
    "NZ": (("NZ", 1, lambda r: "2" + r.choice("12") + _d(r, 7)),),
    "SG": (("SG", 1, lambda r: r.choice("89") + _d(r, 7)),),
    "MY": (("MY", 1, lambda r: "1" + r.choice("2346789") + _d(r, 7)),),
    "PK": (("PK", 1, lambda r: "3" + r.choice("01234") + _d(r, 8)),),
    "NG": (("NG", 1, lambda r: r.choice(("803", "806", "813", "703", "905", "802")) + _d(r, 7)),),
    "KE": (("KE", 1, lambda r: "7" + r.choice("0129") + _d(r, 7)),),
    "TH": (("TH", 1, lambda r: r.choice("689") + _d(r, 8)),),
    "PH": (("PH", 1, lambda r: "9" + r.choice("1234579") + _d(r, 8)),),
}
PHONE_WEIGHTS = {
    "zh": {"CN": 10, "HK": 2, "MO": 1, "TW": 2, "SG": 1, "MY": 1, "US": 1},
    "en": {
        r: 1 for r in ("US", "CA", "GB", "AU", "NZ", "SG", "MY", "PK", "NG", "KE", "TH", "PH", "HK", "CN")
    },
    "ja": {"JP": 10, "CN": 1, "KR": 1, "US": 1, "TW": 1},
    "ko": {"KR": 10, "CN": 1, "JP": 1, "US": 1},
}
PHONE_CUES: Cues = {
    "zh": ("电话", "手机", "手机号", "联系电话", "tel", "号码", "座机", "电話", "手机号码", "电联"),
    "en": ("phone", "mobile", "cell", "tel", "phone no.", "number", "mob", "contact number", "ph"),
    "ja": ("電話番号", "携帯", "ケータイ", "TEL", "電話", "連絡先", "携帯番号"),
    "ko": ("전화번호", "휴대폰 번호", "핸드폰", "연락처", "폰번호", "번호", "HP"),
}
ZH_DIGITS = "零一二三四五六七八九"
KO_DIGITS = "공일이삼사오육칠팔구"


def _valid_phone(rng: random.Random, lang: str) -> phonenumbers.PhoneNumber:
    weights = PHONE_WEIGHTS[lang]
    region = rng.choices(list(weights), weights=list(weights.values()))[0]
    forms = PHONE_REGIONS[region]
    code, _, make = rng.choices(forms, weights=[w for _, w, _ in forms])[0]
    while True:
        number = phonenumbers.parse(make(rng), code)
        if phonenumbers.is_valid_number(number):
            return number


def _spell(rng: random.Random, text: str, digits: str) -> str:
    spelled = "".join(digits[int(c)] if c.isdigit() else c for c in text)
    if digits is ZH_DIGITS and rng.random() < 0.5:
        spelled = spelled.replace("一", "幺")
    if digits is ZH_DIGITS and rng.random() < 0.3:
        spelled = spelled.replace("零", "〇")
    return spelled


def _phone_text(rng: random.Random, lang: str) -> str:
    number = _valid_phone(rng, lang)
    home = {"zh": "CN", "en": "US", "ja": "JP", "ko": "KR"}[lang]
    national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    intl = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    e164 = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    cc = str(number.country_code)
    nsn = phonenumbers.national_significant_number(number)
    local = phonenumbers.region_code_for_number(number) == home
    style = rng.random()
    if local and style < 0.5:
        text = national
        sep = rng.choice((None, None, "-", " ", ".", "", "－", " - "))
        if sep is not None:
            text = re.sub(r"[\s\-]+", sep, text.replace("(", "").replace(")", "").strip())
    elif style < 0.65:
        text = e164
    elif style < 0.75:
        text = rng.choice(("00", "+", "(+", "+")) + cc
        text += (")" if text.startswith("(") else "") + rng.choice((" ", "-", "", " ")) + nsn
    elif style < 0.85:
        text = intl.replace(" ", rng.choice((" ", "-", ".", " ")))
    else:
        text = national if rng.random() < 0.5 else intl
    if lang == "zh" and local and rng.random() < 0.12:
        text = _spell(rng, re.sub(r"\D", "", national) if rng.random() < 0.6 else national, ZH_DIGITS)
    elif lang == "ko" and local and rng.random() < 0.08:
        text = _spell(rng, national, KO_DIGITS)
    elif lang in ("zh", "ja") and rng.random() < 0.1:
        text = _full_width(text)
    elif rng.random() < 0.05 and text.isdigit():
        text = " ".join(text)  # every digit apart, as some type to dodge filters
    return text.strip()


def make_phone(rng: random.Random, lang: str) -> Made:
    """A phone number valid by libphonenumber, written the ways people write their own."""
    return (_phone_text(rng, lang),), _cue(rng, lang, PHONE_CUES)


# ------------------------------------------------------------------ e-mail

DOMAINS = {
    "zh": (
        "qq.com",
        "163.com",
        "126.com",
        "foxmail.com",
        "sina.cn",
        "yeah.net",
        "139.com",
        "aliyun.com",
        "pku.edu.cn",
    ),
    "en": (
        "gmail.com",
        "outlook.com",
        "yahoo.com.sg",
        "hotmail.co.th",
        "proton.me",
        "bigpond.com",
        "icloud.com",
        "mail.com",
    ),
    "ja": (
        "yahoo.co.jp",
        "docomo.ne.jp",
        "ezweb.ne.jp",
        "softbank.ne.jp",
        "gmail.com",
        "i.softbank.jp",
        "nifty.com",
    ),
    "ko": ("naver.com", "daum.net", "hanmail.net", "kakao.com", "nate.com", "gmail.com", "korea.kr"),
}
AT_WAYS = {
    "zh": ("@", "@", "@", "＠", "艾特", " at ", "[at]", "(at)", "#", "圈a"),
    "en": ("@", "@", "@", " at ", " [at] ", "(at)", " AT ", "{at}", " @ "),
    "ja": ("@", "@", "＠", "アットマーク", "あっと", "[at]", "(at)"),
    "ko": ("@", "@", "@", "골뱅이", " at ", "[at]", "＠"),
}
DOT_WAYS = {
    "zh": (".", ".", ".", ".", "点", " dot ", "(dot)"),
    "en": (".", ".", ".", ".", " dot ", "(dot)", "[dot]", " . "),
    "ja": (".", ".", ".", "ドット", "(dot)", "．"),
    "ko": (".", ".", ".", ".", "점", "(dot)"),
}
EMAIL_CUES: Cues = {
    "zh": ("邮箱", "email", "电子邮箱", "邮件地址", "E-mail", "mail", "邮件"),
    "en": ("email", "e-mail", "mail", "email address", "contact email", "Email"),
    "ja": ("メールアドレス", "メアド", "メール", "アドレス", "Eメール"),
    "ko": ("이메일", "메일 주소", "이메일 주소", "메일", "E-mail"),
}
ROMAN_SYLLABLES = (
    "xiao",
    "ming",
    "jia",
    "hui",
    "yu",
    "ting",
    "ji",
    "hoon",
    "min",
    "seo",
    "yuki",
    "haru",
    "ken",
    "mai",
    "rin",
    "jun",
    "soo",
    "kai",
    "lan",
    "wen",
)


def _local_part(rng: random.Random, lang: str) -> str:
    style = rng.random()
    if lang == "zh" and style < 0.25:
        return _nz(rng, rng.randint(6, 10))  # a QQ number
    if style < 0.55:
        user = _fake(rng, rng.choice(("en_TH", "en_PK", "en_KE", "en_NG", "id_ID")), "user_name")
    else:
        user = "".join(rng.choice(ROMAN_SYLLABLES) for _ in range(rng.randint(1, 3)))
        user += rng.choice(("", ".", "_", "-")) + rng.choice(("", _d(rng, 2), _d(rng, 4), "kr", "jp"))
        user = user.strip("._-") or "mail"
    return user if rng.random() < 0.85 else user.capitalize()


def make_email(rng: random.Random, lang: str) -> Made:
    """An address, its at-sign and dots sometimes written out so filters miss them."""
    local, domain = _local_part(rng, lang), rng.choice(DOMAINS[lang])
    at = rng.choice(AT_WAYS[lang])
    if at in ("@", "＠") or rng.random() < 0.5:
        dot = "."
    else:
        dot = rng.choice(DOT_WAYS[lang])
    text = local + at + domain.replace(".", dot)
    return (text.strip(),), _cue(rng, lang, EMAIL_CUES)


# ------------------------------------------------------------------ bank cards

CARD_PREFIXES = (
    ("4", 16),
    ("51", 16),
    ("53", 16),
    ("2221", 16),
    ("2720", 16),
    ("34", 15),
    ("37", 15),
    ("6222", 19),
    ("6217", 19),
    ("6228", 19),
    ("6212", 16),
    ("3528", 16),
    ("3566", 16),
    ("9410", 16),
    ("4563", 16),
)
CARD_CUES: Cues = {
    "zh": ("银行卡号", "卡号", "信用卡", "工行卡", "储蓄卡号", "收款账号", "银行卡", "招行卡号"),
    "en": ("card number", "card no.", "credit card", "debit card", "visa", "card #", "cc"),
    "ja": ("カード番号", "クレジットカード番号", "クレカ", "口座のカード番号", "カードNo."),
    "ko": ("카드번호", "카드 번호", "신용카드 번호", "체크카드", "계좌 카드번호"),
}


def make_card(rng: random.Random, lang: str) -> Made:
    """A card number that passes Luhn, grouped the ways cards and apps print it."""
    prefix, length = rng.choice(CARD_PREFIXES)
    body = prefix + _d(rng, length - len(prefix) - 1)
    number = body + luhn.calc_check_digit(body)
    sep = rng.choice(("", " ", " ", "-", "  ", "－" if lang in ("zh", "ja") else " "))
    if length == 15:
        groups = (4, 6, 5)
    elif length == 19:
        groups = rng.choice(((4, 4, 4, 4, 3), (6, 13), (4, 4, 4, 7)))
    else:
        groups = (4, 4, 4, 4)
    parts, at = [], 0
    for size in groups:
        parts.append(number[at : at + size])
        at += size
    text = sep.join(parts)
    if lang in ("zh", "ja") and rng.random() < 0.06:
        text = _full_width(text)
    return (text,), _cue(rng, lang, CARD_CUES)


# ------------------------------------------------------------------ messenger handles


def _username(rng: random.Random, allowed: str, lo: int, hi: int) -> str:
    """A user name from Faker (our locales) or syllables, cut to a platform's rules."""
    if rng.random() < 0.5:
        base = _fake(rng, rng.choice(("en_TH", "en_PK", "en_KE", "en_NG", "id_ID")), "user_name")
    else:
        base = "".join(rng.choice(ROMAN_SYLLABLES) for _ in range(rng.randint(2, 3)))
        base += rng.choice(("", "_", ".", "")) + rng.choice(("", _d(rng, 2), _d(rng, 3), "x", "jjang"))
    base = "".join(c for c in base if c in allowed)
    base = base.strip("._-")
    while len(base) < lo:
        base += rng.choice(string.digits)
    base = base[:hi].rstrip("._-")
    if not base[0].isalpha():
        base = rng.choice(string.ascii_lowercase) + base[1:]
    return base if len(base) >= lo else base + _d(rng, lo - len(base))


def _wechat(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return "wxid_" + "".join(rng.choice(LOWER_ALNUM) for _ in range(14))
    name = _username(rng, string.ascii_letters + string.digits + "_-", 6, 20)
    return name if rng.random() < 0.7 else name.capitalize()


HANDLES: tuple[tuple[Callable[[random.Random], str], Cues, bool, dict[str, int]], ...] = (
    # maker, cues, whether an @ may come before it, weight per language
    (
        _wechat,
        {
            "zh": ("微信", "vx", "VX", "V信", "威信", "wx", "薇信", "微信号", "weixin", "绿泡泡"),
            "en": ("WeChat", "wechat id", "WeChat ID", "wx"),
            "ja": ("WeChat", "ウィーチャット", "微信ID"),
            "ko": ("위챗", "WeChat 아이디"),
        },
        False,
        {"zh": 5, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        lambda r: _nz(r, r.randint(6, 10)),
        {
            "zh": ("QQ", "qq", "扣扣", "企鹅号", "QQ号", "Q号"),
            "en": ("QQ", "QQ number"),
            "ja": ("QQ",),
            "ko": ("QQ",),
        },
        False,
        {"zh": 3, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        lambda r: _username(r, string.ascii_lowercase + string.digits + "._-", 4, 20),
        {
            "zh": ("LINE", "line号", "Line ID"),
            "en": ("LINE", "Line id", "LINE ID"),
            "ja": ("LINE", "ラインID", "LINEのID", "ライン", "LINE ID"),
            "ko": ("라인 아이디", "LINE"),
        },
        False,
        {"zh": 1, "en": 1, "ja": 4, "ko": 1},
    ),
    (
        lambda r: _username(r, string.ascii_lowercase + string.digits + "._-", 4, 15),
        {
            "zh": ("KakaoTalk", "kakao"),
            "en": ("KakaoTalk", "kakao id", "kakaotalk ID"),
            "ja": ("カカオトーク", "カカオID"),
            "ko": ("카톡 아이디", "카카오톡 ID", "카톡id", "카톡", "카카오톡 아이디", "카톡 ID"),
        },
        False,
        {"zh": 1, "en": 1, "ja": 1, "ko": 5},
    ),
    (
        lambda r: _username(r, string.ascii_letters + string.digits + "_", 5, 24),
        {
            "zh": ("Telegram", "TG", "电报", "tg"),
            "en": ("Telegram", "TG", "tg", "telegram"),
            "ja": ("テレグラム", "Telegram"),
            "ko": ("텔레그램", "텔레 아이디", "텔레그램 ID"),
        },
        True,
        {"zh": 2, "en": 2, "ja": 1, "ko": 2},
    ),
    (
        lambda r: _username(r, string.ascii_lowercase + string.digits + "._", 3, 24),
        {
            "zh": ("ins", "IG", "Instagram", "ins账号"),
            "en": ("IG", "insta", "Instagram", "ig"),
            "ja": ("インスタ", "Instagram", "インスタのアカ"),
            "ko": ("인스타", "인스타 아이디", "인스타그램", "인스타 계정"),
        },
        True,
        {"zh": 2, "en": 3, "ja": 3, "ko": 3},
    ),
    (
        lambda r: (
            _username(r, string.ascii_lowercase + string.digits + "._", 3, 24)
            if r.random() < 0.7
            else _username(r, string.ascii_letters + string.digits, 3, 14) + "#" + _d(r, 4)
        ),
        {
            "zh": ("Discord", "dc", "DC账号"),
            "en": ("Discord", "discord", "disc"),
            "ja": ("ディスコード", "Discord", "ディスコ"),
            "ko": ("디스코드", "디코"),
        },
        False,
        {"zh": 1, "en": 2, "ja": 1, "ko": 1},
    ),
    (
        lambda r: _username(r, string.ascii_letters + string.digits + "_", 4, 15),
        {
            "zh": ("推特", "X账号", "twitter"),
            "en": ("twitter", "X", "my X handle", "Twitter"),
            "ja": ("ツイッター", "X（旧Twitter）", "Xのアカウント", "ツイ垢"),
            "ko": ("트위터", "트친 계정", "X 계정"),
        },
        True,
        {"zh": 1, "en": 2, "ja": 3, "ko": 1},
    ),
    (
        lambda r: _username(r, string.ascii_lowercase + string.digits + "._-", 3, 15),
        {
            "zh": ("Snapchat", "snap"),
            "en": ("snapchat", "snap", "sc"),
            "ja": ("スナップチャット",),
            "ko": ("스냅챗",),
        },
        False,
        {"zh": 1, "en": 2, "ja": 1, "ko": 1},
    ),
    (
        lambda r: _username(r, string.ascii_lowercase + string.digits + "_", 3, 20) + "." + _d(r, 2),
        {
            "zh": ("Signal",),
            "en": ("Signal", "signal username"),
            "ja": ("Signal",),
            "ko": ("시그널",),
        },
        False,
        {"zh": 1, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        lambda r: _nz(r, 10),
        {
            "zh": ("微博UID", "微博uid", "B站UID"),
            "en": ("Weibo UID",),
            "ja": ("微博のUID",),
            "ko": ("웨이보 UID",),
        },
        False,
        {"zh": 2, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        lambda r: _username(r, string.ascii_letters + string.digits + "_.", 6, 16),
        {
            "zh": ("抖音号", "dy号", "抖音"),
            "en": ("Douyin id",),
            "ja": ("抖音ID",),
            "ko": ("더우인 아이디",),
        },
        False,
        {"zh": 2, "en": 1, "ja": 1, "ko": 1},
    ),
    (
        lambda r: _nz(r, r.choice((9, 10))),
        {
            "zh": ("小红书号", "小红书", "红薯号"),
            "en": ("Xiaohongshu ID", "RED id"),
            "ja": ("小紅書のID",),
            "ko": ("샤오홍슈 아이디",),
        },
        False,
        {"zh": 2, "en": 1, "ja": 1, "ko": 1},
    ),
)


def make_handle(rng: random.Random, lang: str) -> Made:
    """A messenger user name after its platform's cue; an `@` before it is left unlabelled."""
    make, cues, at, _ = rng.choices(HANDLES, weights=[w[lang] for *_, w in HANDLES])[0]
    name = make(rng)
    value = ("", "@", name) if at and rng.random() < 0.5 else (name,)
    return value, _cue(rng, lang, cues)


# ------------------------------------------------------------------ plates

CN_PROVINCES = "京沪粤苏浙川鄂湘鲁豫闽皖津渝陕辽吉黑晋冀赣桂琼云贵甘宁青新蒙藏"
JP_PLACES = (
    "品川",
    "練馬",
    "横浜",
    "なにわ",
    "名古屋",
    "札幌",
    "福岡",
    "湘南",
    "多摩",
    "大宮",
    "神戸",
    "世田谷",
)
JP_KANA = "あいうえかきくけこさすせそたちつてとなにぬねのはひふほまみむめもやゆよらりるろれわ"
KR_HANGUL = "가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주바사아자하허호"
KR_PLACES = ("서울", "경기", "부산", "인천", "대구")


def _cn_plate(rng: random.Random) -> str:
    head = rng.choice(CN_PROVINCES) + rng.choice(UPPER)
    roll = rng.random()
    if roll < 0.3:
        tail = rng.choice("DF") + _d(rng, 5)  # new energy, small car
    elif roll < 0.4:
        tail = _d(rng, 5) + rng.choice("DF")  # new energy, large car
    elif roll < 0.45:
        return f"粤Z{rng.choice(('·', ''))}{_letters(rng, 1)}{_d(rng, 3)}{rng.choice('港澳')}"
    else:
        tail = "".join(rng.choice(UPPER + string.digits * 3) for _ in range(5))
        if not any(c.isdigit() for c in tail):
            tail = tail[:4] + _d(rng, 1)
    return head + rng.choice(("", "", "·", " ", "-", "•")) + tail


def _jp_plate(rng: random.Random) -> str:
    number = rng.choice(
        (
            f"{_nz(rng, 2)}-{_d(rng, 2)}",
            f"・{_nz(rng, 3)}",
            f"・・{_nz(rng, 2)}",
            f"{_nz(rng, 2)}-{_d(rng, 2)}",
        )
    )
    klass = rng.choice(("300", "330", "500", "502", "580", "31", "50"))
    sep = rng.choice((" ", "", "\u3000" if rng.random() < 0.3 else " "))
    return f"{rng.choice(JP_PLACES)}{sep}{klass}{sep}{rng.choice(JP_KANA)}{sep}{number}"


def _kr_plate(rng: random.Random) -> str:
    head = _nz(rng, rng.choice((2, 3)))
    sep = rng.choice((" ", "", " "))
    plate = f"{head}{rng.choice(KR_HANGUL)}{sep}{_d(rng, 4)}"
    if rng.random() < 0.15:
        plate = f"{rng.choice(KR_PLACES)} {_nz(rng, 2)}{rng.choice(KR_HANGUL)} {_d(rng, 4)}"
    return plate


SG_PLATE = "AZYXUTSRPMLKJHGEDCB"


def _sg_plate(rng: random.Random) -> str:
    letters = "S" + _letters(rng, 2, "ABCDEFGHJKLMNPRSTUVXYZ")
    digits = _nz(rng, rng.randint(1, 4))
    values = [ord(c) - 64 for c in letters[1:]] + [int(c) for c in digits.rjust(4, "0")]
    check = SG_PLATE[sum(v * w for v, w in zip(values, (9, 4, 5, 4, 3, 2), strict=True)) % 19]
    return f"{letters} {digits} {check}" if rng.random() < 0.6 else f"{letters}{digits}{check}"


PLATE_FORMS: tuple[tuple[Callable[[random.Random], str], dict[str, int]], ...] = (
    (_cn_plate, {"zh": 8, "en": 1, "ja": 1, "ko": 1}),
    (
        lambda r: f"{_letters(r, 2, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {_nz(r, r.randint(1, 4))}",
        {"zh": 2, "en": 1, "ja": 0, "ko": 0},
    ),
    (lambda r: f"{_letters(r, 3)}-{_d(r, 4)}", {"zh": 2, "en": 1, "ja": 0, "ko": 0}),  # Taiwan car
    (lambda r: f"{_d(r, 3)}-{_letters(r, 3)}", {"zh": 1, "en": 0, "ja": 0, "ko": 0}),  # Taiwan scooter
    (_jp_plate, {"zh": 1, "en": 1, "ja": 8, "ko": 0}),
    (_kr_plate, {"zh": 0, "en": 1, "ja": 1, "ko": 8}),
    (
        lambda r: f"{r.choice('6789')}{_letters(r, 3)}{_d(r, 3)}",
        {"zh": 0, "en": 2, "ja": 0, "ko": 0},
    ),  # California
    (lambda r: f"{_letters(r, 3)}-{_d(r, 4)}", {"zh": 0, "en": 2, "ja": 0, "ko": 0}),  # New York
    (
        lambda r: (
            f"{_letters(r, 2)}{_d(r, 2)}{r.choice(('', ' '))}{_letters(r, 3, 'ABCDEFGHJKLMNPRSTUVWXY')}"
        ),
        {"zh": 0, "en": 2, "ja": 0, "ko": 0},
    ),  # United Kingdom
    (lambda r: f"{_letters(r, 3)}{_d(r, 2)}{_letters(r, 1)}", {"zh": 0, "en": 1, "ja": 0, "ko": 0}),  # NSW
    (
        lambda r: f"{_nz(r, 1)}{_letters(r, 3)}{r.choice(('', ' '))}{_d(r, 3)}",
        {"zh": 0, "en": 1, "ja": 0, "ko": 0},
    ),
    (_sg_plate, {"zh": 1, "en": 2, "ja": 0, "ko": 0}),
    (
        lambda r: f"{r.choice('WVBJPKAN')}{_letters(r, 2)} {_nz(r, 4)}",
        {"zh": 1, "en": 1, "ja": 0, "ko": 0},
    ),  # Malaysia
    (
        lambda r: f"{_letters(r, 2)}-{_d(r, 3)}-{_letters(r, 2)}",
        {"zh": 0, "en": 1, "ja": 0, "ko": 0},
    ),  # France
    (
        lambda r: f"{r.choice(('B', 'M', 'HH', 'K', 'F'))}-{_letters(r, 2)} {_nz(r, r.randint(2, 4))}",
        {"zh": 0, "en": 1, "ja": 1, "ko": 1},
    ),  # Germany
)
PLATE_CUES: Cues = {
    "zh": ("车牌", "车牌号", "车号", "牌照", "车牌號碼", "我的车"),
    "en": ("plate", "license plate", "reg", "rego", "number plate", "plate no."),
    "ja": ("ナンバー", "車のナンバー", "ナンバープレート", "車両番号"),
    "ko": ("차량번호", "차번호", "번호판", "차 번호"),
}


def make_plate(rng: random.Random, lang: str) -> Made:
    """A registration plate of a country the language's users drive in."""
    make = rng.choices([m for m, _ in PLATE_FORMS], weights=[w[lang] for _, w in PLATE_FORMS])[0]
    return (make(rng),), _cue(rng, lang, PLATE_CUES)


# ------------------------------------------------------------------ devices


def _mac(rng: random.Random) -> str:
    octets = [rng.randrange(256) for _ in range(6)]
    octets[0] &= 0xFE
    hexes = [f"{o:02x}" for o in octets]
    if rng.random() < 0.5:
        hexes = [h.upper() for h in hexes]
    style = rng.random()
    if style < 0.4:
        return ":".join(hexes)
    if style < 0.7:
        return "-".join(hexes)
    if style < 0.85:
        joined = "".join(hexes).lower()
        return ".".join((joined[:4], joined[4:8], joined[8:]))
    return "".join(hexes)


def _imei(rng: random.Random) -> str:
    body = rng.choice(("35", "86", "01", "99", "35")) + _d(rng, 12)
    number = body + luhn.calc_check_digit(body)
    if rng.random() < 0.2:
        return f"{number[:2]}-{number[2:8]}-{number[8:14]}-{number[14]}"
    if rng.random() < 0.1:
        return f"{number[:8]} {number[8:]}"
    return number


def _serial(rng: random.Random) -> str:
    style = rng.random()
    if style < 0.4:  # Apple-like
        text = _letters(rng, 12, "CDFGHJKLMNPQRTVWXY0123456789")
    elif style < 0.6:  # Samsung-like
        text = (
            "R"
            + _d(rng, 1)
            + rng.choice(UPPER)
            + rng.choice(UPPER)
            + _d(rng, 3)
            + _letters(rng, 4, UPPER + string.digits)
        )
    elif style < 0.8:  # a laptop's
        text = _letters(rng, 2) + _d(rng, 8)
    else:
        text = _letters(rng, 10, UPPER + string.digits)
    if not any(c.isdigit() for c in text):
        text = text[:-1] + "7"
    if not any(c.isalpha() for c in text):
        text = "C" + text[1:]
    return text


def _uuid(rng: random.Random) -> str:
    hexes = f"{rng.getrandbits(128):032X}"
    text = "-".join((hexes[:8], hexes[8:12], "4" + hexes[13:16], "A" + hexes[17:20], hexes[20:]))
    return text if rng.random() < 0.5 else text.lower()


DEVICE_FORMS: tuple[tuple[Callable[[random.Random], str], Cues], ...] = (
    (
        _mac,
        {
            "zh": ("MAC地址", "mac", "网卡地址", "物理地址", "MAC"),
            "en": ("MAC address", "mac addr", "MAC", "wifi mac"),
            "ja": ("MACアドレス", "マックアドレス", "MAC"),
            "ko": ("맥주소", "MAC 주소", "맥 어드레스", "MAC"),
        },
    ),
    (
        _imei,
        {
            "zh": ("IMEI", "串号", "手机串码", "imei号", "IMEI码"),
            "en": ("IMEI", "imei number", "IMEI no."),
            "ja": ("IMEI", "端末識別番号", "製造番号(IMEI)"),
            "ko": ("IMEI", "단말기 일련번호", "IMEI 번호"),
        },
    ),
    (
        _serial,
        {
            "zh": ("序列号", "SN码", "SN", "机器序列号", "S/N"),
            "en": ("serial number", "serial no.", "S/N", "SN", "serial"),
            "ja": ("シリアル番号", "製造番号", "シリアルNo.", "S/N"),
            "ko": ("시리얼 번호", "일련번호", "S/N", "시리얼넘버"),
        },
    ),
    (
        _uuid,
        {
            "zh": ("设备ID", "IDFA", "广告ID", "设备标识"),
            "en": ("device ID", "IDFA", "advertising ID", "device id"),
            "ja": ("端末ID", "IDFA", "広告ID"),
            "ko": ("기기 ID", "IDFA", "광고 ID", "디바이스 아이디"),
        },
    ),
)


def make_device(rng: random.Random, lang: str) -> Made:
    """A MAC, an IMEI, a serial number or an advertising ID, after what names it."""
    make, cues = rng.choices(DEVICE_FORMS, weights=(4, 3, 3, 1))[0]
    return (make(rng),), _cue(rng, lang, cues)


# ------------------------------------------------------------------ names

ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任卢"
    "姚沈钟姜崔谭陆范汪廖石金贾夏韦付方邹熊孟秦白江阎薛尹段雷黎史龙陶贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
ZH_COMPOUND = ("欧阳", "司马", "诸葛", "上官", "东方", "慕容", "令狐", "皇甫")
ZH_GIVEN = (
    "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉兰萍建红文辉鹏飞宇浩然梓涵子轩欣怡"
    "思远嘉怡雨桐俊熙诗琪晨阳沐辰若曦一诺锦程振国晓东"
)
JA_SURNAMES = (
    "佐藤",
    "鈴木",
    "高橋",
    "田中",
    "伊藤",
    "渡辺",
    "山本",
    "中村",
    "小林",
    "加藤",
    "吉田",
    "山田",
    "佐々木",
    "松本",
    "井上",
    "木村",
    "林",
    "清水",
    "山崎",
    "森",
    "池田",
    "橋本",
    "阿部",
    "石川",
    "前田",
    "藤田",
    "岡田",
    "長谷川",
    "村上",
    "近藤",
)
JA_GIVEN = (
    "翔太",
    "陽菜",
    "蓮",
    "結衣",
    "大輝",
    "美咲",
    "悠真",
    "さくら",
    "湊",
    "葵",
    "拓海",
    "七海",
    "健一",
    "由美子",
    "直樹",
    "恵",
    "誠",
    "あかり",
    "隼人",
    "楓",
    "和也",
    "真由美",
    "智子",
    "颯",
)
JA_ROMAN = {
    "佐藤": "Sato",
    "鈴木": "Suzuki",
    "高橋": "Takahashi",
    "田中": "Tanaka",
    "山本": "Yamamoto",
    "中村": "Nakamura",
    "小林": "Kobayashi",
    "吉田": "Yoshida",
    "松本": "Matsumoto",
    "井上": "Inoue",
}
JA_GIVEN_ROMAN = (
    "Shota",
    "Hina",
    "Ren",
    "Yui",
    "Daiki",
    "Misaki",
    "Yuma",
    "Sakura",
    "Minato",
    "Aoi",
    "Takumi",
    "Nanami",
    "Kenichi",
    "Naoki",
)
JA_KANA_SURNAMES = (
    "サトウ",
    "スズキ",
    "タカハシ",
    "タナカ",
    "ワタナベ",
    "ヤマモト",
    "ナカムラ",
    "コバヤシ",
    "カトウ",
    "ヨシダ",
)
JA_KANA_GIVEN = (
    "ショウタ",
    "ヒナ",
    "レン",
    "ユイ",
    "ダイキ",
    "ミサキ",
    "ユウマ",
    "サクラ",
    "ミナト",
    "アオイ",
)
KO_SURNAMES = (
    "김",
    "이",
    "박",
    "최",
    "정",
    "강",
    "조",
    "윤",
    "장",
    "임",
    "한",
    "오",
    "서",
    "신",
    "권",
    "황",
    "안",
    "송",
    "류",
    "홍",
    "전",
    "고",
    "문",
    "양",
    "손",
    "배",
    "백",
    "허",
    "남궁",
    "선우",
)
KO_SYLLABLES = (
    "민",
    "서",
    "지",
    "현",
    "준",
    "예",
    "하",
    "윤",
    "수",
    "도",
    "은",
    "영",
    "성",
    "우",
    "진",
    "혜",
    "승",
    "재",
    "아",
    "연",
    "태",
    "유",
    "채",
    "시",
    "호",
    "경",
    "희",
    "동",
    "상",
    "주",
)
KO_HANJA_SURNAMES = ("金", "李", "朴", "崔", "鄭", "姜", "趙", "尹")
KO_ROMAN_SURNAMES = (
    "Kim",
    "Lee",
    "Park",
    "Choi",
    "Jung",
    "Kang",
    "Cho",
    "Yoon",
    "Jang",
    "Lim",
    "Han",
    "Shin",
    "Kwon",
)
KO_ROMAN_GIVEN = (
    "Min-jun",
    "Seo-yeon",
    "Ji-ho",
    "Ha-eun",
    "Do-yun",
    "Su-bin",
    "Jiwoo",
    "Yejin",
    "Hyun-woo",
    "Eunji",
    "Taeyang",
    "Minseo",
)
ZH_ROMAN_SURNAMES = (
    "Zhang",
    "Wang",
    "Li",
    "Liu",
    "Chen",
    "Huang",
    "Zhou",
    "Wu",
    "Xu",
    "Sun",
    "Chan",
    "Wong",
    "Cheung",
    "Lau",
    "Ng",
    "Tsai",
    "Lin",
)
ZH_ROMAN_GIVEN = (
    "Wei",
    "Xiaoming",
    "Jiahui",
    "Yuting",
    "Hao",
    "Zixuan",
    "Mei Ling",
    "Ka Man",
    "Siu Ming",
    "Chia-Hao",
    "Yi-Ting",
    "Junjie",
)
KATAKANA_FOREIGN = (
    "ジョン・スミス",
    "エミリー・ブラウン",
    "マイケル・ジョンソン",
    "ソフィア・ガルシア",
    "アハメド・カーン",
    "チャン・ウェイ",
    "キム・ミンジュン",
    "オリビア・テイラー",
)
HANGUL_FOREIGN = (
    "존 스미스",
    "에밀리 브라운",
    "마이클 존슨",
    "다나카 히로시",
    "왕웨이",
    "사토 유키",
    "소피아 가르시아",
)
ZH_FOREIGN = (
    "约翰·史密斯",
    "艾米丽·布朗",
    "山田太郎",
    "金敏俊",
    "迈克尔·约翰逊",
    "佐藤健",
    "朴智妍",
    "李敏镐",
)

NAME_CUES: Cues = {
    "zh": ("姓名", "收件人", "联系人", "名字", "收货人", "户名", "申请人", "持卡人"),
    "en": ("name", "full name", "recipient", "contact", "account holder", "attn", "Name"),
    "ja": ("氏名", "名前", "お名前", "宛名", "受取人", "担当者", "名義"),
    "ko": ("이름", "성함", "수령인", "예금주", "담당자", "받는 사람", "신청인"),
}
HONORIFICS = {
    "zh": ("", "", "先生", "女士", "老师", "经理", "总", "同学", "医生"),
    "en": ("", "", ""),
    "ja": ("", "さん", "様", "先生", "くん", "ちゃん", "さま", "部長"),
    "ko": ("", "씨", " 씨", "님", "선생님", " 대리님", "과장님", "교수님"),
}
TITLES = ("", "", "", "Mr. ", "Ms. ", "Dr. ", "Prof. ", "Mrs ", "Mr ")


def _latin_name(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:
        locale = rng.choice(("en_TH", "en_PK", "en_KE", "en_NG", "id_ID"))
        return f"{_fake(rng, locale, 'first_name')} {_fake(rng, locale, 'last_name')}"  # no titles
    if roll < 0.65:
        return f"{rng.choice(ZH_ROMAN_GIVEN)} {rng.choice(ZH_ROMAN_SURNAMES)}"
    if roll < 0.8:
        surname = rng.choice(list(JA_ROMAN.values()))
        given = rng.choice(JA_GIVEN_ROMAN)
        return f"{surname} {given}" if rng.random() < 0.5 else f"{given} {surname}"
    return f"{rng.choice(KO_ROMAN_SURNAMES)} {rng.choice(KO_ROMAN_GIVEN)}"


def _zh_name(rng: random.Random) -> str:
    surname = rng.choice(ZH_COMPOUND) if rng.random() < 0.06 else rng.choice(ZH_SURNAMES)
    return surname + "".join(rng.choice(ZH_GIVEN) for _ in range(rng.choice((1, 2, 2))))


def _ja_name(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.65:
        return rng.choice(JA_SURNAMES) + rng.choice(("", " ", "\u3000", "")) + rng.choice(JA_GIVEN)
    if roll < 0.8:
        return rng.choice(JA_KANA_SURNAMES) + rng.choice((" ", "\u3000", "")) + rng.choice(JA_KANA_GIVEN)
    if roll < 0.9:
        return rng.choice(KATAKANA_FOREIGN)
    return rng.choice(JA_SURNAMES)  # the surname alone, as in 田中さん


def _ko_name(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.75:
        return rng.choice(KO_SURNAMES) + rng.choice(KO_SYLLABLES) + rng.choice(KO_SYLLABLES)
    if roll < 0.85:
        return rng.choice(HANGUL_FOREIGN)
    if roll < 0.92:
        return rng.choice(KO_SURNAMES) + rng.choice(KO_SYLLABLES)
    return rng.choice(KO_HANJA_SURNAMES) + rng.choice(ZH_GIVEN) + rng.choice(ZH_GIVEN)


def make_name(rng: random.Random, lang: str) -> Made:
    """A person's name in the language's script, or in another script inside it."""
    if rng.random() < 0.15 and lang != "en":
        name = (
            _latin_name(rng)
            if rng.random() < 0.7
            else rng.choice(ZH_FOREIGN if lang == "zh" else JA_SURNAMES)
        )
    elif lang == "zh":
        name = _zh_name(rng)
    elif lang == "ja":
        name = _ja_name(rng)
    elif lang == "ko":
        name = _ko_name(rng)
    else:
        name = _latin_name(rng)
        name = name.lower() if rng.random() < 0.08 else name
    return (name,), _cue(rng, lang, NAME_CUES)


# ------------------------------------------------------------------ addresses

ZH_CITIES = (
    ("广东省", "深圳市", ("南山区", "福田区", "宝安区")),
    ("浙江省", "杭州市", ("西湖区", "滨江区", "余杭区")),
    ("四川省", "成都市", ("武侯区", "锦江区", "高新区")),
    ("湖北省", "武汉市", ("洪山区", "江汉区")),
    ("", "上海市", ("浦东新区", "徐汇区", "静安区")),
    ("", "北京市", ("海淀区", "朝阳区", "丰台区")),
    ("江苏省", "苏州市", ("工业园区", "姑苏区")),
    ("福建省", "厦门市", ("思明区", "湖里区")),
)
ZH_ROADS = (
    "科技南十二路",
    "文三路",
    "天府大道北段",
    "珞喻路",
    "张杨路",
    "中关村大街",
    "星湖街",
    "软件园二期观日路",
    "建国路",
    "人民南路",
    "解放大道",
    "学院路",
)
ZH_ESTATES = ("阳光花园", "万科城", "碧桂园", "翠湖苑", "金地名京", "保利中央公园", "融创壹号院", "华润城")
HK_PLACES = (
    "九龍旺角彌敦道",
    "香港島銅鑼灣軒尼詩道",
    "新界沙田大圍村南道",
    "九龍觀塘開源道",
    "香港中環皇后大道中",
)
TW_PLACES = (
    "台北市大安區復興南路一段",
    "臺中市西屯區台灣大道三段",
    "新北市板橋區文化路二段",
    "高雄市苓雅區四維三路",
    "桃園市中壢區中大路",
)
MO_PLACES = ("澳門氹仔柯維納馬路", "澳門新口岸宋玉生廣場", "澳門黑沙環馬場北大馬路")
JA_PREFS = (
    ("東京都", "世田谷区", "三軒茶屋"),
    ("東京都", "新宿区", "西新宿"),
    ("大阪府", "大阪市北区", "梅田"),
    ("神奈川県", "横浜市港北区", "新横浜"),
    ("愛知県", "名古屋市中区", "栄"),
    ("福岡県", "福岡市博多区", "博多駅前"),
    ("北海道", "札幌市中央区", "北一条西"),
    ("京都府", "京都市左京区", "吉田本町"),
)
JA_BUILDINGS = ("グランドメゾン", "パークハウス", "コーポ", "ハイツ", "レジデンス", "メゾン", "シティタワー")
KO_ADDR = (
    ("서울특별시", "강남구", "테헤란로"),
    ("서울특별시", "마포구", "월드컵북로"),
    ("부산광역시", "해운대구", "센텀중앙로"),
    ("경기도 성남시", "분당구", "판교역로"),
    ("인천광역시", "연수구", "송도과학로"),
    ("대전광역시", "유성구", "대학로"),
    ("광주광역시", "서구", "상무중앙로"),
)
KO_APTS = ("래미안", "자이", "힐스테이트", "푸르지오", "e편한세상", "아이파크", "롯데캐슬")
KO_DONG = ("역삼동", "서교동", "우동", "정자동", "송도동", "궁동")
SG_STREETS = (
    "Ang Mo Kio Ave 3",
    "Tampines St 81",
    "Jurong West St 52",
    "Bedok North Rd",
    "Toa Payoh Lor 1",
    "Woodlands Dr 14",
)
EN_CN = (
    "Xuhui District, Shanghai",
    "Nanshan District, Shenzhen",
    "Haidian District, Beijing",
    "Wuhou District, Chengdu",
)
EN_CN_ROADS = ("Keji Rd", "Zhongshan Rd", "Wensan Road", "Renmin South Rd", "Jianguo Rd")
EN_JP = ("Shibuya-ku, Tokyo", "Kita-ku, Osaka", "Naka-ku, Nagoya", "Chuo-ku, Sapporo")
EN_KR = ("Gangnam-gu, Seoul", "Mapo-gu, Seoul", "Haeundae-gu, Busan", "Bundang-gu, Seongnam")
ZH_NUMERALS = "〇一二三四五六七八九"
ADDRESS_CUES: Cues = {
    "zh": ("地址", "收货地址", "住址", "寄到", "我家在", "公司地址", "现住址", "邮寄地址"),
    "en": ("address", "shipping address", "home address", "ship to", "my place is", "mailing address"),
    "ja": ("住所", "お届け先", "送り先", "現住所", "自宅", "配送先"),
    "ko": ("주소", "배송지", "집 주소", "받는 곳", "거주지", "회사 주소"),
}


def _zh_address(rng: random.Random) -> Value:
    roll = rng.random()
    if roll < 0.55:
        province, city, districts = rng.choice(ZH_CITIES)
        start = rng.choice((province + city, city, "", city))
        street = f"{rng.choice(districts)}{rng.choice(ZH_ROADS)}{rng.randint(1, 999)}号"
        room = rng.choice(
            (
                f"{rng.choice(ZH_ESTATES)}{rng.randint(1, 30)}栋{rng.randint(1, 4)}单元"
                f"{rng.randint(1, 32)}{rng.randint(1, 8):02d}室",
                f"{rng.randint(1, 12)}号楼{rng.randint(1, 28)}{rng.randint(1, 6):02d}",
                f"{rng.choice(ZH_ESTATES)}{rng.randint(1, 20)}-{rng.randint(1, 3)}-{rng.randint(101, 2804)}",
                "",
            )
        )
        if room and rng.random() < 0.2:
            return (start + street, rng.choice(("\n", " ", "，")), room)
        return (start + street + room,)
    if roll < 0.7:
        return (
            f"{rng.choice(HK_PLACES)}{rng.randint(1, 700)}號{rng.choice(('', '', '華輝大廈'))}"
            f"{rng.randint(2, 40)}樓{rng.choice('ABCDEFGH')}室",
        )
    if roll < 0.85:
        lane = rng.choice(("", f"{rng.randint(1, 300)}巷", f"{rng.randint(1, 80)}巷{rng.randint(1, 20)}弄"))
        floor = rng.choice((f"{rng.randint(2, 20)}樓", f"{rng.randint(2, 15)}樓之{rng.randint(1, 6)}", ""))
        return (f"{rng.choice(TW_PLACES)}{lane}{rng.randint(1, 500)}號{floor}",)
    return (f"{rng.choice(MO_PLACES)}{rng.randint(1, 400)}號{rng.randint(1, 30)}樓{rng.choice('ABCDEF')}座",)


def _ja_address(rng: random.Random) -> Value:
    pref, city, town = rng.choice(JA_PREFS)
    a, b, c = rng.randint(1, 9), rng.randint(1, 30), rng.randint(1, 25)
    block = rng.choice(
        (f"{a}-{b}-{c}", f"{a}丁目{b}-{c}", f"{a}丁目{b}番{c}号", f"{_full_width(f'{a}-{b}-{c}')}")
    )
    if rng.random() < 0.12:
        block = f"{ZH_NUMERALS[a]}丁目{ZH_NUMERALS[b % 10]}番{ZH_NUMERALS[c % 10]}号"
    building = rng.choice(
        (
            "",
            "",
            f"{rng.choice(JA_BUILDINGS)}{town}{rng.randint(1, 12)}{rng.randint(1, 9):02d}号室",
            f" {rng.choice(JA_BUILDINGS)}{rng.randint(101, 1208)}",
        )
    )
    postal = rng.choice(("", "", f"〒{rng.randint(100, 999)}-{_d(rng, 4)} "))
    start = rng.choice((pref + city, city, pref + city))
    if building and rng.random() < 0.2:
        return (postal + start + town + block, "\n", building.strip())
    return (postal + start + town + block + building,)


def _ko_address(rng: random.Random) -> Value:
    city, gu, road = rng.choice(KO_ADDR)
    if rng.random() < 0.75:
        base = f"{city} {gu} {road} {rng.randint(1, 400)}"
        if rng.random() < 0.3:
            base += f"번길 {rng.randint(1, 60)}"
    else:
        base = f"{city} {gu} {rng.choice(KO_DONG)} {rng.randint(1, 999)}-{rng.randint(1, 60)}"
    unit = rng.choice(
        (
            "",
            f", {rng.randint(101, 120)}동 {rng.randint(1, 25)}0{rng.randint(1, 4)}호",
            f" {rng.choice(KO_APTS)} {rng.randint(101, 115)}동 {rng.randint(1, 30)}0{rng.randint(1, 6)}호",
            f" {rng.randint(2, 15)}층",
        )
    )
    if unit and rng.random() < 0.2:
        return (base, "\n", unit.lstrip(", "))
    return (base + unit,)


def _en_address(rng: random.Random) -> Value:
    roll = rng.random()
    if roll < 0.25:
        line = _fake(rng, rng.choice(("en_MS", "en_BD")), "address").replace("\n", ", ")
        return (line,)
    if roll < 0.45:
        unit = f"#{rng.randint(2, 25):02d}-{rng.randint(1, 999):02d}"
        street = f"Blk {rng.randint(100, 999)} {rng.choice(SG_STREETS)}"
        postal = f"Singapore {rng.randint(100000, 829999)}"
        if rng.random() < 0.3:
            return (f"{street}, {unit}", "\n", postal)
        return (f"{street} {unit} {postal}",)
    if roll < 0.6:
        room = rng.choice(
            (
                f"Room {rng.randint(101, 2808)}, ",
                f"Rm {rng.randint(1, 30)}0{rng.randint(1, 8)}, Bldg {rng.randint(1, 20)}, ",
                "",
            )
        )
        return (f"{room}No. {rng.randint(1, 999)} {rng.choice(EN_CN_ROADS)}, {rng.choice(EN_CN)}",)
    if roll < 0.75:
        apt = rng.choice(("", f" Apt {rng.randint(101, 905)}", f" #{rng.randint(201, 1205)}"))
        return (
            f"{rng.randint(1, 9)}-{rng.randint(1, 30)}-{rng.randint(1, 20)} Jingumae{apt}, "
            f"{rng.choice(EN_JP)} {rng.randint(100, 999)}-{_d(rng, 4)}",
        )
    if roll < 0.88:
        return (f"{rng.randint(1, 500)} Teheran-ro, {rng.choice(EN_KR)}, Unit {rng.randint(101, 2001)}",)
    streets = ("Jalan Ampang", "Moi Avenue", "Sukhumvit Soi 23", "Adeola Odeku Street", "Shahrah-e-Faisal")
    cities = ("Kuala Lumpur 50450", "Nairobi", "Bangkok 10110", "Victoria Island, Lagos", "Karachi 75350")
    i = rng.randrange(len(streets))
    return (
        f"{rng.choice(('Unit ', 'Flat ', 'Suite ', ''))}{rng.randint(1, 40)}{rng.choice(('', 'B'))}, "
        f"{rng.randint(1, 300)} {streets[i]}, {cities[i]}",
    )


def make_address(rng: random.Random, lang: str) -> Made:
    """A full or partial postal address; some given on two lines (each line a span)."""
    if lang == "en" or rng.random() < 0.1:
        value = _en_address(rng)
    else:
        value = {"zh": _zh_address, "ja": _ja_address, "ko": _ko_address}[lang](rng)
    return value, _cue(rng, lang, ADDRESS_CUES)


MAKERS: dict[str, Callable[[random.Random, str], Made]] = {
    "id": make_id,
    "phone": make_phone,
    "email": make_email,
    "card": make_card,
    "handle": make_handle,
    "plate": make_plate,
    "device": make_device,
    "name": make_name,
    "address": make_address,
}


# ------------------------------------------------------------------ near-misses (to be kept)


def _not_luhn(rng: random.Random, first: str, length: int) -> str:
    """All digits yet no card: a number that fails Luhn, as order numbers mostly do."""
    while True:
        number = first + _d(rng, length - len(first))
        if not luhn.is_valid(number):
            return number


def _product_code(rng: random.Random, lang: str) -> str:
    forms = (
        lambda: (
            f"M{_letters(rng, 1, 'KLNPQRTUVWXY')}{_d(rng, 3)}"
            f"{rng.choice(('CH', 'J', 'KH', 'LL', 'ZP', 'TA', 'X', 'ZA'))}/A"
        ),
        lambda: f"SM-{rng.choice('SFAGX')}{_d(rng, 3)}{rng.choice(('0', 'N', 'B', 'U', '0'))}",
        lambda: f"WH-1000XM{rng.randint(3, 5)}",
        lambda: f"KJ-{rng.choice(('55', '65', '75'))}X{rng.randint(80, 95)}{rng.choice('KLJ')}",
        lambda: (
            f"OLED{rng.choice(('55', '65', '77'))}C{rng.randint(1, 4)}{rng.choice(('KNA', 'PJA', 'PUA'))}"
        ),
        lambda: f"{_d(rng, 4)}{_letters(rng, 3)}{_d(rng, 2)}{rng.choice('CGIL')}",
        lambda: f"A{rng.randint(2100, 3100)}",
        lambda: f"ILCE-{rng.choice(('7M4', '7CM2', '6700', '7RM5'))}",
        lambda: f"RTX{rng.choice(('4060', '4070', '4090', '3080'))}",
    )
    return rng.choice(forms)()


def _version(rng: random.Random, lang: str) -> str:
    parts = rng.choice((4, 4, 3))
    if parts == 4:
        return rng.choice(
            (
                f"10.0.{rng.randint(19041, 26100)}.{rng.randint(100, 4500)}",
                f"{rng.randint(110, 131)}.0.{rng.randint(5000, 6800)}.{rng.randint(10, 250)}",
                f"{rng.randint(1, 9)}.{rng.randint(0, 9)}.{rng.randint(0, 60)}.{rng.randint(1, 3000)}",
            )
        )
    return f"{rng.randint(1, 18)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}"


BRANDS = {
    "zh": (
        "李宁",
        "周大福",
        "张小泉",
        "王老吉",
        "老干妈",
        "马应龙",
        "杨国福麻辣烫",
        "钟薛高",
        "陈克明",
        "中山公园",
        "黄鹤楼",
        "维多利亚港",
        "乔丹体育",
    ),
    "en": (
        "Ted Baker",
        "Tommy Hilfiger",
        "Calvin Klein",
        "Ralph Lauren",
        "Jo Malone",
        "Tim Hortons",
        "Ben Nevis",
        "Jackson Hole",
        "Marks & Spencer",
        "Victoria Peak",
        "Alexander Wang",
        "Wendy's",
        "Dr. Martens",
    ),
    "ja": (
        "無印良品",
        "松本清",
        "吉野家",
        "本田技研",
        "豊田市",
        "ユニクロ",
        "丸亀製麺",
        "亀田製菓",
        "山崎パン",
        "北野天満宮",
        "大塚製薬",
        "伊右衛門",
        "渡辺通",
    ),
    "ko": (
        "설화수",
        "정관장",
        "김가네",
        "이니스프리",
        "박승철헤어",
        "윤선생",
        "조선호텔",
        "이마트",
        "신세계",
        "김포공항",
        "정동진",
        "한성대입구역",
        "홍대입구",
    ),
}


def _hotline(rng: random.Random, lang: str) -> str:
    forms = {
        "zh": (
            f"400-{_d(rng, 3)}-{_d(rng, 4)}",
            f"400{_d(rng, 7)}",
            f"800-{_d(rng, 3)}-{_d(rng, 4)}",
            rng.choice(("95588", "95533", "12306", "10086", "12315", "95555")),
        ),
        "en": (
            f"1-800-{_d(rng, 3)}-{_d(rng, 4)}",
            f"1800 {_d(rng, 3)} {_d(rng, 3)}",
            f"13 {_d(rng, 2)} {_d(rng, 2)}",
            f"0800 {_d(rng, 3)} {_d(rng, 3)}",
        ),
        "ja": (
            f"0120-{_d(rng, 3)}-{_d(rng, 3)}",
            f"0120-{_d(rng, 2)}-{_d(rng, 4)}",
            f"0570-{_d(rng, 3)}-{_d(rng, 3)}",
            f"0800-{_d(rng, 3)}-{_d(rng, 4)}",
        ),
        "ko": (
            f"1588-{_d(rng, 4)}",
            f"1577-{_d(rng, 4)}",
            f"1544-{_d(rng, 4)}",
            f"1600-{_d(rng, 4)}",
            f"1899-{_d(rng, 4)}",
        ),
    }
    return rng.choice(forms[lang])


def _router_ip(rng: random.Random, lang: str) -> str:
    return rng.choice(
        (
            "192.168.0.1",
            "192.168.1.1",
            "192.168.31.1",
            "10.0.0.1",
            "172.16.0.1",
            f"192.168.{rng.randint(0, 255)}.{rng.choice((1, 254, 100))}",
            f"10.{rng.randint(0, 255)}.0.1",
        )
    )


def _student_no(rng: random.Random, lang: str) -> str:
    year = rng.randint(2018, 2025)
    forms = {
        "zh": (f"{year}{_d(rng, 6)}", f"U{year}{_d(rng, 5)}", f"{year % 100}{_d(rng, 6)}"),
        "en": (f"s{_d(rng, 7)}", f"A0{_d(rng, 6)}{rng.choice(UPPER)}", f"{year}{_d(rng, 5)}"),
        "ja": (
            f"{year % 100}{rng.choice('BTMEL')}{_d(rng, 4)}",
            f"{year % 100}{_d(rng, 6)}",
            f"B{year % 100}{_d(rng, 5)}",
        ),
        "ko": (f"{year}{_d(rng, 5)}", f"{year}-{_d(rng, 5)}", f"{year % 100}{_d(rng, 6)}"),
    }
    return rng.choice(forms[lang])


def _barcode(rng: random.Random, lang: str) -> str:
    prefix = rng.choice(
        {
            "zh": ("690", "692", "693", "695", "489", "471"),
            "en": ("93", "955", "888", "885", "50"),
            "ja": ("45", "49"),
            "ko": ("880",),
        }[lang]
    )
    body = prefix + _d(rng, 12 - len(prefix))
    return body + ean.calc_check_digit(body)


def _order_number(rng: random.Random, lang: str) -> str:
    stamp = f"{rng.randint(23, 25)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    forms = {
        "zh": (
            _not_luhn(rng, rng.choice("123"), 19),
            _not_luhn(rng, "2", 12),
            f"{stamp}-{_d(rng, 15)}",
            f"JD{_d(rng, 12)}",
        ),
        "en": (
            f"{rng.choice(('111', '112', '113', '114'))}-{_d(rng, 7)}-{_d(rng, 7)}",
            f"{stamp}{_letters(rng, 4)}{_d(rng, 4)}",
            f"W{_d(rng, 11)}",
        ),
        "ja": (
            f"{_d(rng, 6)}-20{stamp}-{_d(rng, 10)}",
            f"{rng.choice(('249', '250', '503'))}-{_d(rng, 7)}-{_d(rng, 7)}",
            f"D{stamp}{_d(rng, 6)}",
        ),
        "ko": (_not_luhn(rng, "3", 13), _not_luhn(rng, f"20{stamp}", 15), f"ORD-{stamp}-{_d(rng, 6)}"),
    }
    return rng.choice(forms[lang])


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _date(rng: random.Random, lang: str) -> str:
    y, m, d = rng.randint(2023, 2026), rng.randint(1, 12), rng.randint(1, 28)
    forms = {
        "zh": (f"{y}年{m}月{d}日", f"{m}月{d}号", f"{y}-{m:02d}-{d:02d}", f"{m}.{d}", f"{y}/{m}/{d}"),
        "en": (
            f"{m}/{d}",
            f"{y}-{m:02d}-{d:02d}",
            f"{d} {MONTHS[m - 1]} {y}",
            f"{d}/{m}/{y}",
        ),
        "ja": (f"{y}年{m}月{d}日", f"令和{y - 2018}年{m}月{d}日", f"{m}/{d}", f"{m}月{d}日"),
        "ko": (f"{y}년 {m}월 {d}일", f"{m}월 {d}일", f"{y}.{m:02d}.{d:02d}", f"{y % 100}.{m}.{d}"),
    }
    return rng.choice(forms[lang])


def _price(rng: random.Random, lang: str) -> str:
    amount = rng.randint(9, 99999)
    forms = {
        "zh": (
            f"¥{amount:,}",
            f"￥{amount}",
            f"{amount}元",
            f"{amount // 10}块{rng.randint(1, 9)}",
            f"HK${amount:,}",
            f"NT${amount:,}",
        ),
        "en": (
            f"${amount / 100:.2f}",
            f"S${amount // 10}",
            f"RM {amount // 10}",
            f"A${amount:,}",
            f"USD {amount:,}",
        ),
        "ja": (f"{amount:,}円", f"¥{amount:,}", f"税込{amount:,}円", f"{amount}円"),
        "ko": (f"{amount * 10:,}원", f"₩{amount * 10:,}", f"{amount // 100 + 1}만원", f"{amount}원"),
    }
    return rng.choice(forms[lang])


NEAR_MAKERS: dict[str, Callable[[random.Random, str], str]] = {
    "product_code": _product_code,
    "version": _version,
    "brand": lambda rng, lang: rng.choice(BRANDS[lang]),
    "hotline": _hotline,
    "router_ip": _router_ip,
    "student_no": _student_no,
    "barcode": _barcode,
    "http_status": lambda rng, lang: rng.choice(("404", "403", "500", "502", "503", "429", "401", "504")),
    "order_number": _order_number,
    "date": _date,
    "price": _price,
}

NEAR_SENTENCES: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "product_code": ("型号是{n}的那款还有货吗", "我买的{n}国行版", "{n}和港版有啥区别"),
        "version": ("系统已经更新到{n}了", "版本号{n}，还是闪退", "装的是{n}版本"),
        "brand": ("顺便问下{n}的东西值得买吗", "刚在{n}门口", "{n}旗舰店发的货"),
        "hotline": ("打了客服{n}没人接", "官方热线{n}说要等三天", "{n}转人工太难了"),
        "router_ip": ("路由器后台{n}登不上", "浏览器输入{n}没反应"),
        "student_no": ("学号{n}", "我学号是{n}，选课系统进不去"),
        "barcode": ("条形码{n}扫不出来", "包装上的条码是{n}"),
        "http_status": ("网页一直报{n}", "接口返回{n}是什么意思", "打开就是{n}错误"),
        "order_number": ("订单号{n}", "订单编号：{n} 还没发货", "单号{n}退款进度查不到"),
        "date": ("{n}之前要寄到", "约在{n}", "截止日期{n}"),
        "price": ("原价{n}", "到手价{n}贵不贵", "{n}包邮"),
    },
    "en": {
        "product_code": (
            "it's the {n} model btw",
            "ordered a {n} last week",
            "is {n} the same as the US one?",
        ),
        "version": ("running {n} now", "after updating to {n} it crashes", "build {n}"),
        "brand": ("bought it at {n}", "a gift from {n} maybe?", "{n} had a sale"),
        "hotline": ("called {n} but nobody picked up", "their hotline is {n}", "support line {n} is useless"),
        "router_ip": ("can't open {n} in the browser", "router page at {n} won't load"),
        "student_no": ("student number {n}", "my student ID {n} doesn't work on the portal"),
        "barcode": ("barcode {n} won't scan", "the EAN on the box is {n}"),
        "http_status": ("keep getting a {n}", "site throws {n} errors", "error {n} again"),
        "order_number": ("order {n}", "order #{n} still not shipped", "ref {n}"),
        "date": ("needs to arrive by {n}", "deadline is {n}", "booked for {n}"),
        "price": ("it was {n}", "paid {n} for it", "{n} on sale"),
    },
    "ja": {
        "product_code": ("型番は{n}です", "{n}を買ったんですが", "{n}の国内版"),
        "version": ("バージョン{n}にしたら落ちる", "今{n}です", "{n}に更新済み"),
        "brand": ("{n}で買った", "{n}の近くです", "{n}のやつ"),
        "hotline": ("{n}に電話したけど繋がらない", "フリーダイヤル{n}", "サポート窓口{n}"),
        "router_ip": ("{n}にアクセスできない", "ルーターの管理画面{n}"),
        "student_no": ("学籍番号{n}", "学生番号は{n}です"),
        "barcode": ("JANコード{n}", "バーコード{n}が読めない"),
        "http_status": ("{n}エラーが出ます", "ずっと{n}", "ステータス{n}が返ってくる"),
        "order_number": ("注文番号{n}", "ご注文番号：{n}", "注文{n}がまだ届かない"),
        "date": ("{n}までに", "{n}の予約", "締め切りは{n}"),
        "price": ("{n}でした", "定価{n}", "{n}は高い？"),
    },
    "ko": {
        "product_code": ("모델명 {n}", "{n} 자급제", "{n} 샀는데요"),
        "version": ("버전 {n}인데 튕겨요", "{n}로 업데이트함", "지금 {n}"),
        "brand": ("{n}에서 샀어요", "{n} 근처예요", "{n} 거"),
        "hotline": ("고객센터 {n} 연결이 안돼요", "{n}로 전화했는데", "대표번호 {n}"),
        "router_ip": ("공유기 {n} 접속이 안돼요", "{n} 들어가면 아무것도 안 떠요"),
        "student_no": ("학번 {n}", "제 학번은 {n}이에요"),
        "barcode": ("바코드 {n} 인식이 안돼요", "상품 바코드 {n}"),
        "http_status": ("{n} 에러 떠요", "계속 {n} 나와요", "응답코드 {n}"),
        "order_number": ("주문번호 {n}", "주문번호: {n} 아직 배송 안 옴", "{n} 주문 취소"),
        "date": ("{n}까지", "{n}에 예약", "마감 {n}"),
        "price": ("{n}에 샀어요", "정가 {n}", "{n}이면 비싼가요"),
    },
}

# ------------------------------------------------------------------ sentence templates
# {c} the cue for the value's form, {v} the value, {w} a second value of its kind, {h} an
# honorific; {phone}, {email}, {name}, … a second value of another kind (labelled as that kind).

FRAMES: dict[str, tuple[str, ...]] = {
    "zh": (
        "{c}：{v}",
        "{c}{v}",
        "{c} {v}",
        "帮我写一封信给物业，说明我的{c}改成{v}了，语气客气一点",
        "我{c}是{v}你记一下",
        "麻烦把这个填进表格里 {c} {v} 谢谢啦",
        "客服让我发{c}，{v}，这样发给他们安全吗",
        "【{c}】{v}",
        "{v} 这个是我{c}",
        "{v}\n↑{c}",
        "老板说报销要{c}，我的是“{v}”，帮我整理成一段正式的话",
        "在吗 问下{c}写{v}对不对啊",
        "请将以下信息译成英文：{c}为{v}。",
    ),
    "en": (
        "{c}: {v}",
        "{c} {v}",
        "can you write a short letter to my landlord saying my {c} is now {v}",
        "my {c} is {v} pls remember it for the form",
        "{v} <- that's my {c}",
        "Dear team, please update my {c} to {v}. Kind regards",
        'the form asks for {c} so I put "{v}" is that right',
        "({c}) {v}",
        "{c} = {v}",
        "hey so my {c} is {v} can u fill the rest",
        "{v}\nthat's the {c}",
        "Please find my {c} below:\n{v}",
        "translate to chinese: My {c} is {v}.",
    ),
    "ja": (
        "{c}は{v}です",
        "{c}：{v}",
        "{c}{v}",
        "{c} {v}で登録お願いします",
        "先方に{c}を伝えたいので丁寧な文面にしてください→{v}",
        "{v}←{c}です",
        "この{c}（{v}）を英語のメールに書きたい",
        "【{c}】{v}",
        "{c}って{v}で合ってる？",
        "申込書の{c}の欄に「{v}」って書いたんだけど大丈夫かな",
        "{v}\nこれが{c}です",
        "以下を英訳してください。{c}：{v}",
    ),
    "ko": (
        "{c}: {v}",
        "{c} {v}",
        "{c}은 {v}입니다",
        "제 {c} {v} 이걸로 신청서 작성해줘",
        "{v} 이게 제 {c}예요",
        "이 {c}({v}) 영어로 어떻게 써?",
        "{c}{v} 로 등록해주세요",
        "집주인한테 보낼 문자 써줘 {c} {v} 로 바뀌었다고",
        "[{c}] {v}",
        "{v}\n위에 거 {c}임",
        '혹시 {c} "{v}" 이렇게 쓰면 되나요',
        "다음 내용을 영어로 번역해 주세요. {c}: {v}",
    ),
}

TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "id": (
            "帮我填一下这个申请表 {c}{v} 其他的空着",
            "{c}{v}，出生日期帮我从里面读出来",
            "订机票要{c}吗？我的是{v}",
        ),
        "phone": (
            "有事打我{c}{v}",
            "我换号了新号{v}旧的不用了",
            "帮我写个寻物启事，联系电话{v}",
            "{c}{v}，备用{w}",
            "快递员打{v}找不到人是怎么回事",
            "WhatsApp{v}加我",
        ),
        "email": (
            "简历发到{v}就行",
            "{c}{v}（把#换成@）",
            "帮我写封邮件回复{v}，说周五前交稿",
            "发我{c}{v}或者{w}都行",
        ),
        "card": ("退款打到这张卡{v}上", "{c}{v}户名{name}", "工资卡{v}怎么查余额", "转账给我 {c}{v}"),
        "handle": ("加我{c}{v}", "{c}：{v} 备注一下你是谁", "有问题{c}找我{v}", "我{c}是{v}快加"),
        "plate": (
            "{c}{v}被贴罚单了，帮我写个申诉",
            "我的车{v}停在地下车库了",
            "停车场登记{c}：{v}",
            "{v}这辆车挡我家门口了",
        ),
        "device": (
            "帮我查一下{c}{v}是不是正品",
            "{c}：{v}，这台机子保修到什么时候",
            "公司要登记电脑的{c}，我的是{v}",
        ),
        "name": (
            "帮我写一封感谢信给{v}{h}",
            "请把{v}{h}加到会议邀请里",
            "{v}{h}你好，我是新来的",
            "我叫{v}，想请个假",
            "收件人：{v} {phone}",
            "帮我写个请假条，请假人{v}",
        ),
        "address": (
            "寄到{v}",
            "{c}：{v}，{name}收",
            "帮我把这个地址翻成英文：{v}",
            "我搬家了，新地址是{v}",
            "快递送到{v}就行",
            "{v}\n{name} {phone}",
        ),
    },
    "en": {
        "id": (
            "need help filling this visa form, {c} {v}",
            "is {v} a valid {c}?",
            "whats the format of a {c}, mine is {v}",
        ),
        "phone": (
            "call me on {v} anytime",
            "text me at {v}",
            "pls reach me at {v} or {w}",
            "WhatsApp me {v}",
            "new number is {v}, old one dead",
            "write a lost dog poster, contact {v}",
        ),
        "email": (
            "send the invoice to {v}",
            "reach me at {v} thx",
            "my {c} is {v} (not the gmail one)",
            "cc {v} and {w} pls",
        ),
        "card": (
            "refund to card {v} pls",
            "charge my {c} {v} exp next year",
            "is it safe to share my {c} {v} with this shop",
            "{c} {v} name on card {name}",
        ),
        "handle": ("add me on {c} {v}", "{c}: {v}", "hmu on {c} {v}", "follow me on {c} {v} lol"),
        "plate": (
            "got a parking ticket for {c} {v}, help me appeal it",
            "my car {v} got towed",
            "the car with {c} {v} hit my bike",
            "{v} is parked in my spot again",
        ),
        "device": (
            "my laptop {c} is {v}, is it still under warranty",
            "{c}: {v}",
            "how do I check if {c} {v} is blacklisted",
        ),
        "name": (
            "write a thank you note to {t}{v}",
            "please add {t}{v} to the invite",
            "hi {t}{v}, just following up",
            "my name's {v} and I need to reschedule",
            "contact person {v} {phone}",
            "{v} will pick up the parcel",
        ),
        "address": (
            "ship to {v}",
            "{c}: {v}",
            "can u translate this address into chinese: {v}",
            "we moved to {v}",
            "deliver to {v} attn {name}",
            "{v}\n{name} {phone}",
        ),
    },
    "ja": {
        "id": (
            "ビザの申請書を書いてるんですが{c}は{v}です",
            "{c}{v}を入力したらエラーになる",
            "{v}って{c}として正しい形式？",
        ),
        "phone": (
            "{v}まで電話ください",
            "何かあれば{c}{v}に",
            "番号変わりました！新しいのは{v}です",
            "{c}：{v}（日中）{w}（夜間）",
            "迷子の猫のポスター作って、連絡先{v}",
        ),
        "email": (
            "{v}に送ってください",
            "{c}：{v}（アットマークを@に変えて）",
            "{v}宛にお礼のメールを書いて",
            "{c}は{v}か{w}で",
        ),
        "card": ("返金はこのカード{v}でお願いします", "{c}{v}で払えますか", "カード番号{v}名義{name}"),
        "handle": ("{c}{v}で追加して", "{c}：{v}", "{c}やってる？{v}だよ", "連絡は{c}の{v}まで"),
        "plate": (
            "{c}{v}の車が駐車場に停まってる",
            "{v}の車で迎えに行きます",
            "月極の申込書に{c}「{v}」と書いた",
        ),
        "device": ("{c}：{v} 保証期間を調べて", "会社のPCの{c}は{v}です", "{c}{v}の端末が盗まれました"),
        "name": (
            "{v}{h}にお礼状を書いて",
            "{v}{h}、お世話になっております",
            "担当の{v}{h}に伝えてください",
            "私は{v}と申します",
            "宛名：{v} {phone}",
            "{v}{h}が明日来ます",
        ),
        "address": (
            "この住所を英語にして：{v}",
            "{c}：{v}",
            "{v}まで送ってください",
            "引っ越しました。新住所は{v}です",
            "{v}\n{name} {phone}",
        ),
    },
    "ko": {
        "id": (
            "비자 신청서 쓰는데 {c} {v} 맞게 썼나요",
            "{c} {v}로 조회가 안돼요",
            "{v} 이거 {c} 형식 맞아?",
        ),
        "phone": (
            "이 번호로 연락주세요 {v}",
            "{v}로 문자 주세요",
            "번호 바뀌었어요 {v}",
            "{c} {v} 또는 {w}",
            "강아지 찾는 전단지 만들어줘 연락처 {v}",
        ),
        "email": ("{v}로 보내주세요", "{c} {v} 입니다", "{v}한테 감사 메일 써줘", "{c}: {v} 또는 {w}"),
        "card": (
            "환불은 이 카드로 해주세요 {v}",
            "{c} {v} 유효기간은 나중에 알려드릴게요",
            "{c} {v} 명의 {name}",
        ),
        "handle": ("{c} {v} 추가해주세요", "{c}: {v}", "{c}로 연락해 {v}", "저 {c} {v}임 ㅎㅎ"),
        "plate": (
            "{c} {v} 차량 주차위반 이의신청서 써줘",
            "{v} 차가 제 자리에 주차했어요",
            "입주민 차량 등록 {c} {v}",
        ),
        "device": ("{c} {v} 보증기간 확인해줘", "회사 노트북 {c}는 {v}입니다", "도난당한 폰 {c} {v}"),
        "name": (
            "{v}{h}께 감사 편지 써줘",
            "{v}{h} 안녕하세요",
            "저는 {v}입니다",
            "담당자 {v}{h} 연락처 {phone}",
            "{v}{h}한테 전해주세요",
            "받는 사람 {v}",
        ),
        "address": (
            "이 주소 영어로 바꿔줘: {v}",
            "{c}: {v}",
            "{v}로 보내주세요",
            "이사했어요 새 주소는 {v}",
            "{v}\n{name} {phone}",
        ),
    },
}

REQUESTS = {
    "zh": ("帮我翻译成英文：\n", "帮我润色一下这段话\n", "把下面这段改得正式一点：", "这段话有没有错别字\n"),
    "en": (
        "translate this for me:\n",
        "fix the grammar pls: ",
        "can u make this sound more polite\n",
        "summarise this email:\n",
    ),
    "ja": (
        "この文を英語に訳して：\n",
        "以下を敬語に直してください\n",
        "これ自然な日本語？\n",
        "要約して：\n",
    ),
    "ko": ("이거 영어로 번역해줘:\n", "맞춤법 좀 봐줘\n", "좀 더 공손하게 바꿔줘\n", "이 문장 자연스러워?\n"),
}
EMOJI = ("😂", "🙏", "😅", "👍", "🥺", "✨", "😭", "🙇", "🤔", "💦", "!!", "??")
TAILS = {
    "zh": ("哈哈哈", "谢谢", "急", "～"),
    "en": ("lol", "thx", "pls", "asap"),
    "ja": ("w", "よろしく", "笑", "〜"),
    "ko": ("ㅋㅋㅋ", "ㅠㅠ", "감사합니다", "ㅎㅎ"),
}
SPLITS = {
    "zh": ("\n", "，后面是", " 后几位 ", "\n"),
    "en": ("\n", " then ", " ... ", "\n"),
    "ja": ("\n", "、続きは", " / ", "\n"),
    "ko": ("\n", " 그리고 ", " 뒤에는 ", "\n"),
}
PUNCT = re.compile(r"[，。！？、：,.!?:]")
SLOT = re.compile(r"\{(\w+)\}")
Piece = tuple[str, str, str]  # text, "pii" / "near" / "" (literal), kind


def _pieces(template: str, fill: Callable[[str], list[Piece]]) -> list[Piece]:
    """A template cut at its slots, each slot replaced by the pieces `fill` gives for it."""
    out: list[Piece] = []
    for i, part in enumerate(SLOT.split(template)):
        out += fill(part) if i % 2 else [(part, "", "")]
    return out


def _value_pieces(value: Value, kind: str, label: str = "pii") -> list[Piece]:
    return [
        (part, label if i % 2 == 0 else "", kind if i % 2 == 0 else "")
        for i, part in enumerate(value)
        if part
    ]


def _split(rng: random.Random, value: Value, lang: str) -> Value:
    """A one-part value given in two parts, cut at one of its own separators."""
    if len(value) != 1:
        return value
    cuts = [
        m
        for m in re.finditer(r"[ \-－\u3000]+", value[0])
        if sum(c.isdigit() for c in value[0][: m.start()]) >= 4  # not a lone country code
    ]
    if not cuts:
        return value
    at = rng.choice(cuts)
    return (value[0][: at.start()], rng.choice(SPLITS[lang]), value[0][at.end() :])


def _noisy(rng: random.Random, lang: str, pieces: list[Piece]) -> list[Piece]:
    """Typing habits, applied to literal text only so no value changes: punctuation dropped,
    commas turned into line breaks, lower case and typos in English."""
    drop, breaks = rng.random() < 0.25, rng.random() < 0.12
    lower, typo = lang == "en" and rng.random() < 0.35, lang == "en" and rng.random() < 0.25
    out: list[Piece] = []
    for text, label, kind in pieces:
        if not label and text:
            if breaks:
                text = re.sub(r"[，,]\s?", "\n", text)
            if drop:
                kept = PUNCT.sub(" " if lang in ("en", "ko") else "", text)
                text = kept if kept.strip() or not text.strip() else " "
            if lower:
                text = text.lower()
            if typo:
                words = [w for w in re.findall(r"[a-z]{4,}", text)]
                if words:
                    word = rng.choice(words)
                    i = rng.randrange(len(word) - 1)
                    text = text.replace(word, word[:i] + word[i + 1] + word[i] + word[i + 2 :], 1)
                    typo = False
        out.append((text, label, kind))
    return out


def _glue_guard(pieces: list[Piece]) -> list[Piece]:
    """A space between a value and a word where both sides are Latin letters (or both digits):
    glued, nobody could tell where the value ends, so no label could be exact."""
    out: list[Piece] = []
    for text, label, kind in pieces:
        if not text:
            continue
        if out:
            a, b = out[-1][0][-1], text[0]
            if (out[-1][1] or label) and a.isascii() and b.isascii():
                if (
                    (a.isalpha() and b.isalpha())
                    or (a.isdigit() and b.isdigit())
                    or (a in "_.-" or b in "_.-@")
                ):
                    out.append((" ", "", ""))
        out.append((text, label, kind))
    return out


def _turn(rng: random.Random, lang: str, kind: str, near_kind: str | None) -> HeldTurn:
    value, cue = MAKERS[kind](rng, lang)
    if kind in ("id", "phone", "card") and rng.random() < 0.06:
        value = _split(rng, value, lang)
    own = TEMPLATES[lang][kind]
    template = rng.choice(own) if rng.random() < 0.55 else rng.choice(FRAMES[lang])

    def fill(slot: str) -> list[Piece]:
        if slot == "v":
            return _value_pieces(value, kind)
        if slot == "w":
            return _value_pieces(MAKERS[kind](rng, lang)[0], kind)
        if slot == "c":
            return [(cue, "", "")]
        if slot == "h":
            return [(rng.choice(HONORIFICS[lang]), "", "")]
        if slot == "t":
            return [(rng.choice(TITLES), "", "")]
        return _value_pieces(MAKERS[slot](rng, lang)[0], slot)

    pieces = _pieces(template, fill)
    if rng.random() < 0.1:
        quote = rng.choice(("“”", '""', "「」", "『』", "''") if lang != "en" else ('""', "“”", "''"))
        pieces = [(quote[0], "", ""), *pieces, (quote[1], "", "")]
    if near_kind is not None:
        sentence = rng.choice(NEAR_SENTENCES[lang][near_kind])
        near = _pieces(sentence, lambda _: [(NEAR_MAKERS[near_kind](rng, lang), "near", near_kind)])
        joint = rng.choice(("\n", "，", "。", " ") if lang in ("zh", "ja") else ("\n", ". ", ", ", " "))
        pieces = (
            [*pieces, (joint, "", ""), *near] if rng.random() < 0.6 else [*near, (joint, "", ""), *pieces]
        )
    if rng.random() < 0.12:
        pieces = [(rng.choice(REQUESTS[lang]), "", ""), *pieces]
    pieces = _noisy(rng, lang, pieces)
    if rng.random() < 0.3:
        tail = rng.choice(EMOJI + TAILS[lang])
        pieces.append(((" " if tail.isascii() else rng.choice(("", " "))) + tail, "", ""))
    text, pii, nears = "", [], []
    for part, label, what in _glue_guard(pieces):
        if label:
            (pii if label == "pii" else nears).append((len(text), len(text) + len(part), what))
        text += part
    return HeldTurn(text=text, pii=pii, near=nears, lang=lang)


def turns(n: int, seed: int = 0, near_share: float = 0.6) -> list[HeldTurn]:
    """n turns, deterministic for a seed: turn i in `LANGS[i % 4]` plants a `KINDS[i % 9]` value
    (languages and kinds coprime, so every pair comes every 36 turns); a near-miss, one kind after
    another per language, in about `near_share` of them."""
    rng = random.Random(f"heldout3/{seed}")
    out = []
    for i in range(n):
        lang, kind = LANGS[i % len(LANGS)], KINDS[i % len(KINDS)]
        near_kind = NEAR_KINDS[(i // len(LANGS)) % len(NEAR_KINDS)] if rng.random() < near_share else None
        out.append(_turn(rng, lang, kind, near_kind))
    return out
