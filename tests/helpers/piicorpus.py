"""A seeded corpus of user turns that hold personal data and near-misses, to measure the redactor
(bench/pii.py) and to inject every kind into test logs. All sentences and values are made up
for this project; values carry valid check digits where their kind has them (resident IDs,
cards, IBANs, SSNs, phone numbers valid by libphonenumber's metadata) and come in the
spellings people type: grouped by spaces or dashes, upper and lower case, full-width digits,
glued to Chinese text, inside URLs.

`turns(n, seed)` gives `Turn`s with the character spans of every planted value: `pii` spans
must be redacted, `near` spans (order and tracking numbers, versions, dates, …) must survive.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import phonenumbers
from stdnum import iban, luhn
from stdnum.cn import ric
from stdnum.us import ssn

Value = tuple[str, str]  # (value as typed, its kind)


@dataclass
class Turn:
    text: str
    pii: list[tuple[int, int, str]] = field(default_factory=list)
    near: list[tuple[int, int, str]] = field(default_factory=list)


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


def _chars(rng: random.Random, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if any(c.isalpha() for c in value) and any(c.isdigit() for c in value):
            return value


def _group(value: str, sizes: tuple[int, ...], sep: str) -> str:
    parts, at = [], 0
    for size in sizes:
        parts.append(value[at : at + size])
        at += size
    if at < len(value):
        parts.append(value[at:])
    return sep.join(p for p in parts if p)


_WIDE = str.maketrans(string.digits, "０１２３４５６７８９")


def _valid_phone(rng: random.Random, make: Callable[[], str], region: str | None) -> str:
    for _ in range(1000):
        number = make()
        if phonenumbers.is_valid_number(phonenumbers.parse(number, region)):
            return number
    raise ValueError(f"no valid {region} number from {make()!r} in 1,000 tries")


# ---------------------------------------------------------------- personal data


def cn_mobile(rng: random.Random) -> str:
    prefixes = [f"13{d}" for d in range(10)] + ["150", "151", "152", "155", "158", "159", "177", "186", "188"]
    number = _valid_phone(rng, lambda: rng.choice(prefixes) + _digits(rng, 8), "CN")
    spaced = _group(number, (3, 4, 4), " ")
    forms = (spaced, _group(number, (3, 4, 4), "-"), "+86 " + spaced, number.translate(_WIDE))
    prefixed = rng.choice(("+86-", "+86", "0086 ", "(+86) ")) + number
    return rng.choice((number, number, number, prefixed, *forms))


def cn_landline(rng: random.Random) -> str:
    area = rng.choice(("10", "21", "20", "755", "571", "28", "27", "25", "22", "532"))
    number = _valid_phone(rng, lambda: "0" + area + rng.choice("2345678") + _digits(rng, 7), "CN")
    local = number[len(area) + 1 :]
    halves = f"{local[:4]} {local[4:]}"
    return rng.choice((f"0{area}-{local}", f"(0{area}) {halves}", f"+86 {area} {halves}", number))


def intl_phone(rng: random.Random) -> str:
    if rng.random() < 0.6:
        area = rng.choice(("212", "415", "646", "312", "617", "206", "303", "512", "213", "305"))
        n = _valid_phone(rng, lambda: area + rng.choice("23456789") + _digits(rng, 2) + _digits(rng, 4), "US")
        a, b, c = n[:3], n[3:6], n[6:]
        return rng.choice(
            (f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"+1 {a} {b} {c}", f"1-{a}-{b}-{c}")
        )
    country, make = rng.choice(
        (
            ("GB", lambda: "+44 20 7" + _digits(rng, 3) + " " + _digits(rng, 4)),
            ("GB", lambda: "+44 7911 " + _digits(rng, 6)),
            ("JP", lambda: "+81 3-" + _digits(rng, 4) + "-" + _digits(rng, 4)),
            ("DE", lambda: "+49 30 " + rng.choice("23456789") + _digits(rng, 7)),
            ("FR", lambda: "+33 1 " + " ".join(_digits(rng, 2) for _ in range(4))),
        )
    )
    return _valid_phone(rng, make, country)


_AREAS = ("110105", "310104", "440305", "510107", "330106", "420102", "320102", "610113", "370202", "500103")


def _birth(rng: random.Random, first: int, last: int) -> str:
    return f"{rng.randint(first, last)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"


def resident_id(rng: random.Random) -> str:
    while True:  # an area code is valid only for the years its county existed
        body = rng.choice(_AREAS) + _birth(rng, 1950, 2005) + _digits(rng, 3)
        number = body + ric.calc_check_digit(body + "0")
        if ric.is_valid(number):
            break
    odd = number.lower() if number.endswith("X") else number.translate(_WIDE)
    grouped = (
        _group(number, (6, 8, 4), " "),
        _group(number, (6, 8, 4), "-"),
        _group(number, (6, 4, 4, 4), " "),
    )
    return rng.choice((number, number, odd, *grouped))


def old_resident_id(rng: random.Random) -> str:
    number = rng.choice(_AREAS) + _birth(rng, 1940, 1998)[2:] + _digits(rng, 3)
    return _group(number, (6, 6, 3), rng.choice(" -")) if rng.random() < 0.3 else number


def bank_card(rng: random.Random) -> str:
    prefix, length, sizes = rng.choice(
        (
            ("6222", 16, (4, 4, 4, 4)),
            ("6217", 19, (4, 4, 4, 4, 3)),
            ("4", 16, (4, 4, 4, 4)),
            ("5" + rng.choice("12345"), 16, (4, 4, 4, 4)),
            ("37", 15, (4, 6, 5)),
        )
    )
    body = prefix + _digits(rng, length - len(prefix) - 1)
    number = body + luhn.calc_check_digit(body)
    return rng.choice((number, _group(number, sizes, " "), _group(number, sizes, "-")))


def us_ssn(rng: random.Random) -> str:
    while True:
        number = f"{rng.randint(1, 899):03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
        if ssn.is_valid(number):
            return _group(number, (3, 2, 4), rng.choice("- "))


def bank_iban(rng: random.Random) -> str:
    while True:
        country, bban = rng.choice(
            (
                ("DE", lambda: _digits(rng, 18)),
                ("GB", lambda: rng.choice(("NWBK", "BARC", "HBUK", "LOYD")) + _digits(rng, 14)),
                ("NL", lambda: rng.choice(("ABNA", "INGB", "RABO")) + _digits(rng, 10)),
                ("CH", lambda: _digits(rng, 17)),
                ("AT", lambda: _digits(rng, 16)),
            )
        )
        body = bban()
        number = country + iban.calc_check_digits(country + "00" + body) + body
        if iban.is_valid(number):
            break
    form = rng.randrange(3)
    if form == 0:
        return _group(number, (4,) * 8, " ")
    return number if form == 1 else number.lower()


def ip_address(rng: random.Random) -> str:
    if rng.random() < 0.25:
        groups = [f"{rng.randint(1, 65535):x}" for _ in range(6)]
        return "2001:db8:" + (":".join(groups) if rng.random() < 0.5 else ":" + ":".join(groups[:2]))
    first = rng.choice((10, 172, 192, 47, 58, 101, 120, 203, 8, 61))
    return ".".join(str(x) for x in (first, rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254)))


_HOSTS = ("shop.example.com", "app.example.cn", "portal.example.org", "login.example.net", "example.com.cn")


def token_url(rng: random.Random) -> str:
    host, token = rng.choice(_HOSTS), _chars(rng, rng.randint(20, 40))
    return rng.choice(
        (
            f"https://{host}/reset?token={token}",
            f"https://{host}/oauth/callback?code={token}&state=xyz",
            f"https://{host}/cb#access_token={token}&expires_in=3600",
            f"https://{host}/reset-password/{token}",
            f"https://{host}/share/{token}/view",
            f"https://admin:{_chars(rng, 10)}@{host}/",
            f"www.{host}/login?sessionid={token}",
            f"https://{host}/api?api_key={token}&lang=zh",
        )
    )


def webhook(rng: random.Random) -> str:
    upper = string.ascii_uppercase + string.digits
    if rng.random() < 0.7:
        return (
            f"https://hooks.slack.com/services/T{_chars(rng, 8, upper)}/B{_chars(rng, 10, upper)}/"
            f"{_chars(rng, 24)}"
        )
    secret = _chars(rng, 60, string.ascii_letters + "-_" + string.digits)
    return f"https://discord.com/api/webhooks/{_digits(rng, 18)}/{secret}"


def api_key(rng: random.Random) -> str:
    b64 = string.ascii_letters + string.digits + "-_"
    return rng.choice(
        (
            lambda: "sk-proj-" + _chars(rng, 48, b64),
            lambda: "sk-" + _chars(rng, 48),
            lambda: "sk-ant-api03-" + _chars(rng, 86, b64) + "AA",
            lambda: "AKIA" + _chars(rng, 16, string.ascii_uppercase + string.digits),
            lambda: "ghp_" + _chars(rng, 36),
            lambda: "AIza" + _chars(rng, 35, b64),
            lambda: "sk_live_" + _chars(rng, 24),
            lambda: "xoxb-" + _digits(rng, 12) + "-" + _digits(rng, 12) + "-" + _chars(rng, 24),
        )
    )()


def _b64(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def jwt(rng: random.Random) -> str:
    header = _b64({"alg": rng.choice(("HS256", "RS256")), "typ": "JWT"})
    payload = _b64({"sub": _digits(rng, 8), "name": "user", "iat": 1700000000 + rng.randint(0, 10**7)})
    return f"{header}.{payload}.{_chars(rng, 43, string.ascii_letters + string.digits + '-_')}"


def password(rng: random.Random) -> str:
    return rng.choice(
        (
            lambda: _chars(rng, rng.randint(8, 14)),
            lambda: (
                rng.choice(("Summer", "Dragon", "Monkey", "Shadow")) + _digits(rng, 4) + rng.choice("!@#$%")
            ),
            lambda: _digits(rng, rng.randint(6, 8)),
            lambda: rng.choice(("hunter", "qwerty", "iloveyou", "letmein")) + _digits(rng, 2),
        )
    )()


def secret_token(rng: random.Random) -> str:
    return _chars(
        rng, rng.randint(24, 40), string.ascii_letters + string.digits + rng.choice(("", "+/", "-_"))
    )


_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗郑梁谢宋唐韩冯邓曹彭曾萧田董潘蒋蔡余杜叶程魏吕丁"
    "沈姚卢姜崔钟谭陆汪范金廖贾夏韦方白邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵万钱严武戴莫孔汤"
)
_COMPOUND = ("欧阳", "司马", "诸葛", "上官", "慕容")
_GIVEN = "伟芳娜敏静磊洋婷强军杰涛明超秀英华丽平刚桂兰玉萍红娟建国志勇艳霞鹏飞宇轩子涵梓晨浩然欣怡思雨嘉"


def name_zh(rng: random.Random) -> str:
    surname = rng.choice(_COMPOUND) if rng.random() < 0.08 else rng.choice(_SURNAMES)
    return surname + "".join(rng.choice(_GIVEN) for _ in range(rng.choice((1, 2, 2))))


_FIRST = (
    "James Mary John Patricia Robert Jennifer Michael Linda David Elizabeth William Barbara Richard Susan "
    "Joseph Jessica Thomas Sarah Charles Karen Daniel Nancy Matthew Lisa Anthony Betty Mark Sandra Steven "
    "Ashley Paul Emily Andrew Donna Joshua Michelle Kevin Carol Brian Amanda George Melissa Timothy Deborah "
    "Priya Wei Aiko Mateo Sofia Lucas Amara Omar Elena Ivan Chloe Noah Olivia Liam Emma Ethan Ava Mia"
).split()
_LAST = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez "
    "Wilson "
    "Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis "
    "Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall "
    "Rivera Campbell Mitchell Carter Roberts Okafor Natarajan Lindqvist Moreau Tanaka Kowalski Connor Haddad"
).split()


def name_en(rng: random.Random) -> str:
    return f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"


_ROADS = ("建国", "中山", "人民", "解放", "长江", "南京东", "淮海中", "科技", "文一西", "天府")
_ESTATES = ("望京花园", "阳光小区", "锦绣家园", "翠湖新村", "万科城市花园", "碧桂园")


def address_zh(rng: random.Random) -> str:
    room = f"{rng.randint(1, 30)}0{rng.randint(1, 8)}室"
    if rng.random() < 0.5:
        number = rng.randint(1, 999)
        street = (
            f"{rng.choice(_ROADS)}路{number}号"
            if rng.random() < 0.7
            else f"{rng.choice(_ROADS)}路 {number} 号"
        )
        return street + rng.choice((f"{rng.randint(1, 20)}栋{rng.randint(1, 6)}单元{room}", room, ""))
    return f"{rng.choice(_ESTATES)}{rng.randint(1, 40)}号楼{rng.randint(1, 6)}单元{room}"


_STREETS = (
    "Baker",
    "Maple",
    "Oak",
    "Elm",
    "Sunset",
    "Lincoln",
    "Washington",
    "Cedar Hill",
    "Park",
    "Lake View",
)
_TYPES = ("Street", "St", "Avenue", "Ave", "Road", "Rd", "Lane", "Drive", "Blvd", "Court")


def address_en(rng: random.Random) -> str:
    text = f"{rng.randint(1, 9999)} {rng.choice(_STREETS)} {rng.choice(_TYPES)}"
    if rng.random() < 0.4:
        text += rng.choice((", Apt 2B", " apt 4c", ", Suite 210", ", Unit 7"))
    if rng.random() < 0.2:
        text += rng.choice((", Springfield, IL 62704", ", Austin, TX 78701"))
    return text.lower() if rng.random() < 0.35 else text


def email(rng: random.Random) -> str:
    return rng.choice(
        (
            f"{rng.choice(('li.wei', 'zhang_min', 'a.moreau', 'Dan.O'))}{rng.randint(1, 99)}@example.com",
            f"{rng.choice(('chen', 'wang.fang'))}{rng.randint(1, 99)}@mail.example.cn",
            f"{rng.choice(('USER', 'Support.Team'))}{rng.randint(1, 99)}@EXAMPLE.ORG",
            rng.choice(("用户", "张伟", "客服"))
            + "@"
            + rng.choice(("例子.中国", "bücher.de", "example.com")),
            f"josé{rng.randint(1, 99)}@bücher.de",
            f"a.b+tag{rng.randint(1, 99)}@sub.example.co.uk",
        )
    )


# the sentences of each kind, one a line ({v}: the value, {vl}: in lower case, \\n: a line break);
# those with Chinese characters in them are the Chinese ones
_PII_SENTENCES = """
[email]
我的邮箱是{v}，请发到这里
邮箱{v}有问题吗
请发邮件至 {v} 谢谢
联系我：{v}
email me at {v} please
My email is {v}.
send it to {v}, thanks
contact: {v}
[phone_cn_mobile]
我的手机号是{v}，有事打给我
手机{v}
打这个电话 {v} 就行
联系方式：{v}，微信同号
you can reach me on {v}
my cell is {v}
text {v} when it ships
[phone_cn_landline]
公司座机{v}，工作日在
请拨打 {v} 转人工
电话：{v}
our office line is {v}
call {v} during office hours
[phone_intl]
我在国外，电话是 {v}
请打 {v} 联系我
call me at {v} after 6pm
My number is {v}.
phone: {v}
[resident_id]
我的身份证号{v}，帮我查一下
身份证：{v}
证件号码是 {v} 对吗
这是我的身份证{v}
my Chinese ID number is {v}
ID: {v}
[resident_id_15]
老身份证号是{v}，还能用吗
身份证 {v} 是十五位的
my old 15-digit ID is {v}
[bank_card]
银行卡{v}被扣了两次
卡号：{v}
我的信用卡 {v} 过期了
退款到这张卡{v}
my card {v} was charged twice
card number {v}
refund it to {v} please
[us_ssn]
我的美国社保号是 {v}
my SSN is {v}
social security number {v}
here is my ssn: {v}
use {v} for the tax form
[iban]
请汇款到 {v}
我的IBAN是{v}
please wire it to {v}
IBAN: {v}
my account is {v} at the bank
[ip]
服务器 {v} 连不上
我这边的IP是{v}
访问{v}报错
my IP is {v}
the server at {v} times out
ping {v} fails
[url_token]
请点击链接{v}然后登录
重置密码的链接是 {v} ，打不开
这个{v}能用吗
click {v} to reset
the link {v} does not work
see {v}
[webhook]
我们的机器人地址{v}不推送了
webhook：{v}
our Slack webhook {v} stopped posting
webhook url: {v}
[api_key]
我的key是{v}，为什么报401
用这个 {v} 调接口失败
配置里写的{v}
here is my key {v} why 401
export OPENAI_API_KEY={v}
I pasted {v} into the config
[jwt]
请求头里带了 {v} 还是报错
登录后拿到{v}
Authorization: Bearer {v}
the token {v} expired
decode this: {v}
[password]
我的密码是{v}，登不上
密码：{v}
登录密码 {v}
wifi密码{v}
账号 zhangsan 密码 {v}
my password is {v}
password: {v}
pwd={v}
login with password {v}
[secret_token]
密钥：{v}
我的令牌是{v}
token={v}
api key: {v}
my token is {v}
secret = {v}
aws_secret_access_key = {v}
[name_zh]
我叫{v}，今年三十岁
我是{v}，上周下的单
本人{v}，想咨询退款
收件人：{v}
联系人{v}，电话稍后发
姓名：{v}
好的，谢谢！\\n{v}
my Chinese name is {v}
[name_en]
我的英文名是 {v}
my name is {v}
my name is {vl} and i need help
hi my name is {vl}
I'm {v}, the account owner
This is {v} from sales
Thanks,\\n{v}
Best regards,\\n{v}
Dear {v},\\nplease check my order
Hi, my name's {v}.
[address_zh]
我住在{v}，快递放门口
收货地址：北京市朝阳区{v}
地址{v}，麻烦送上门
ship it to {v} in Shanghai
[address_en]
寄到 {v}
I live at {v}.
ship to {v}, thanks
my address is {v}
deliver to {v} and ring twice
"""


# ---------------------------------------------------------------- near-misses that must survive


def _luhn_number(rng: random.Random, prefix: str, length: int) -> str:
    body = prefix + _digits(rng, length - len(prefix) - 1)
    return body + luhn.calc_check_digit(body)


def order_number(rng: random.Random) -> str:
    return rng.choice(
        (
            lambda: _luhn_number(rng, rng.choice(("4", "62", "51")), 16),
            lambda: cn_mobile(rng).replace(" ", "").replace("-", "")[-11:],
            lambda: "2024" + _digits(rng, 11),
            lambda: "DD" + _digits(rng, 12),
        )
    )()


def tracking_number(rng: random.Random) -> str:
    return rng.choice(
        (
            lambda: "SF" + _digits(rng, 13),
            lambda: "YT" + _digits(rng, 13),
            lambda: _digits(rng, rng.choice((12, 13, 15))),
            lambda: "1Z" + _chars(rng, 16, string.ascii_uppercase + string.digits),
            lambda: "JDVA" + _digits(rng, 11),
        )
    )()


def version(rng: random.Random) -> str:
    return ".".join(str(rng.randint(0, 12)) for _ in range(4))


def section(rng: random.Random) -> str:
    return ".".join(str(rng.randint(1, 9)) for _ in range(rng.choice((3, 4))))


def date_time(rng: random.Random) -> str:
    y, m, d = rng.randint(2019, 2026), rng.randint(1, 12), rng.randint(1, 28)
    return rng.choice(
        (
            f"{y}-{m:02d}-{d:02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}",
            f"{y}年{m}月{d}日",
            f"{m:02d}/{d:02d}/{y}",
            f"{d:02d}.{m:02d}.{y}",
            f"{y}{m:02d}{d:02d}",
        )
    )


def price(rng: random.Random) -> str:
    amount = rng.randint(1, 99999)
    return rng.choice(
        (
            f"¥{amount}.00",
            f"${amount:,}.99",
            f"{amount:,}元",
            f"€ {amount},90",
            f"{amount} 元",
            f"RMB {amount}",
        )
    )


def product_code(rng: random.Random) -> str:
    return rng.choice(
        (
            lambda: rng.choice(("XR", "ZX", "MB", "HW")) + "-" + _digits(rng, rng.choice((4, 5))),
            lambda: "A" + _digits(rng, 4),
            lambda: _digits(rng, 12),
            lambda: "978-7-" + _digits(rng, 3) + "-" + _digits(rng, 5) + "-" + _digits(rng, 1),
        )
    )()


def plain_url(rng: random.Random) -> str:
    return rng.choice(
        (
            "https://docs.python.org/3/library/re.html",
            f"https://example.com/search?country_code=cn&page={rng.randint(1, 9)}",
            f"https://item.jd.com/{_digits(rng, 12)}.html",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
            f"https://github.com/python/cpython/issues/{rng.randint(1000, 99999)}",
            f"https://example.org/products?lang=zh-CN&code=cn&sort=price&id={rng.randint(1, 9999)}",
            "https://zh.wikipedia.org/wiki/Python",
            f"https://shop.example.com/cart?key=shoes&size={rng.randint(36, 45)}",
        )
    )


def quantity(rng: random.Random) -> str:
    return rng.choice(
        (
            f"{rng.choice((1280, 1920, 2560, 3840))} x {rng.choice((720, 1080, 1440, 2160))}",
            f"{rng.randint(1, 999)} GB",
            f"{rng.randint(100, 99999)} 步",
            f"3.{_digits(rng, 6)}",
            f"{rng.randint(1, 50)}.{rng.randint(0, 9)} km",
        )
    )


def ticket_number(rng: random.Random) -> str:
    return rng.choice((f"2024{_digits(rng, 8)}", _digits(rng, 8), f"INC{_digits(rng, 7)}"))


def no_value(rng: random.Random) -> str:
    """The sentence is the near-miss (我是高中生, "Dear Sir")."""
    return ""


_NEAR_SENTENCES = """
[order_number]
订单号 {v} 还没发货
订单号：{v}
订单编号{v}一直显示待付款
我的订单 {v} 能退吗
order no. {v} has not shipped
order #{v} is late
my order number is {v}
[tracking_number]
快递单号 {v} 三天没更新
运单号：{v}
物流单号{v}查不到
tracking number {v} shows nothing
tracking no. {v}
waybill {v} is stuck
[version]
升级到 {v} 之后闪退
版本 {v} 有这个问题吗
固件版本号{v}
after updating to version {v} it crashes
v{v} breaks the build
build {v} fixed it
[section]
第 {v} 节讲的是什么
请看第{v}条
合同第 {v} 款
see section {v} of the manual
step {v} fails
§ {v} says otherwise
[date_time]
我{v}下的单
预约在 {v}
到期日是{v}
I ordered on {v}
due {v}
[price]
价格{v}，贵了
花了 {v} 买的
退款{v}到账了吗
it cost {v}
refund of {v}
[product_code]
型号 {v} 有货吗
货号{v}
SKU {v} 缺货
ISBN {v} 这本书
model number {v} is out of stock
part no. {v}
SKU {v}
ISBN {v}
[plain_url]
文档在{v}这里
看这个 {v} 的说明
the docs at {v} say
see {v}
[quantity]
分辨率 {v} 够吗
今天走了{v}
resolution {v} is enough?
about {v}
[non_name]
我是高中生，想学编程
我是程序员，问个问题
本人方便的时候再打
我是北京人
我是新手
I'm sorry, that was wrong
I'm not sure
This is Python code
Dear Sir or Madam,\\nhello
Dear Customer Support,
I'm Happy with it
Thanks,\\nbest
[password_talk]
忘记密码了怎么办
密码错误是什么原因
密码是什么意思
修改密码的入口在哪
my password is wrong
password reset does not work
the token count is 4096
what is an api key
[ticket_number]
工单号 {v} 没人处理
发票号{v}
流水号：{v}
ticket #{v} is open
invoice no. {v}
case number {v}
"""

Kind = tuple[str, Callable[[random.Random], str], tuple[str, ...], tuple[str, ...]]


def _kinds(text: str, makers: tuple[Callable[[random.Random], str], ...]) -> tuple[Kind, ...]:
    """(kind, value maker, Chinese sentences, English sentences) from a sentence table."""
    sections = re.findall(r"^\[(\w+)\]\n((?:(?!\[).*\n?)*)", text.strip() + "\n", re.MULTILINE)
    assert len(sections) == len(makers), "one value maker per kind, in the table's order"
    kinds = []
    for (kind, body), make in zip(sections, makers, strict=True):
        sentences = [line.replace("\\n", "\n") for line in body.splitlines() if line]
        zh = tuple(t for t in sentences if re.search("[\u4e00-\u9fff]", t.replace("{v}", "")))
        kinds.append((kind, make, zh, tuple(t for t in sentences if t not in zh)))
    return tuple(kinds)


PII_KINDS = _kinds(
    _PII_SENTENCES,
    (
        email,
        cn_mobile,
        cn_landline,
        intl_phone,
        resident_id,
        old_resident_id,
        bank_card,
        us_ssn,
        bank_iban,
        ip_address,
        token_url,
        webhook,
        api_key,
        jwt,
        password,
        secret_token,
        name_zh,
        name_en,
        address_zh,
        address_en,
    ),
)
NEAR_KINDS = _kinds(
    _NEAR_SENTENCES,
    (
        order_number,
        tracking_number,
        version,
        section,
        date_time,
        price,
        product_code,
        plain_url,
        quantity,
        no_value,
        no_value,
        ticket_number,
    ),
)


_LEADS = ("", "hi, ", "hello! ", "请问", "你好，", "急！", "btw ", "还有，")
_FILLERS_ZH = ("麻烦尽快处理。", "谢谢。", "在线等。", "", "这是第二次问了。")
_FILLERS_EN = (" Thanks.", " Please hurry.", "", " This is the second time I ask.", " Any idea?")


def _plant(rng: random.Random, sentences: tuple[str, ...], value: str) -> tuple[str, int, int]:
    """A sentence with the value in it (`{vl}`: in lower case): (text, start, end) of the value."""
    template = rng.choice(sentences)
    if "{vl}" in template:
        template, value = template.replace("{vl}", "{v}"), value.lower()
    if "{v}" not in template:
        return template, 0, len(template)
    before, after = template.split("{v}", 1)
    return before + value + after, len(before), len(before) + len(value)


def turns(n: int, seed: int = 0, near_share: float = 0.6) -> list[Turn]:
    """`n` user turns, each with one planted personal value of the kinds in turn, and with
    `near_share` of them a near-miss too; the same for the same seed."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind, make, zh, en = PII_KINDS[i % len(PII_KINDS)]
        chinese = rng.random() < 0.5
        text, start, end = _plant(rng, zh if chinese else en, make(rng))
        lead = rng.choice(_LEADS)
        turn = Turn(lead + text, [(len(lead) + start, len(lead) + end, kind)])
        signature = end == len(text) and "\n" in text  # a signature ends the message
        if not signature:
            turn.text += rng.choice(_FILLERS_ZH if chinese else _FILLERS_EN)
        if rng.random() < near_share:
            near_kind, near_make, near_zh, near_en = NEAR_KINDS[(i // len(PII_KINDS) + i) % len(NEAR_KINDS)]
            value = near_make(rng)
            sentence, s, e = _plant(rng, near_zh if rng.random() < 0.5 else near_en, value)
            joint = rng.choice(("，", " ", "\n", "；"))
            if rng.random() < 0.5 and not signature:
                offset = len(turn.text) + len(joint)
                turn.text += joint + sentence
            else:
                offset = 0
                turn.pii = [
                    (a + len(sentence) + len(joint), b + len(sentence) + len(joint), k)
                    for a, b, k in turn.pii
                ]
                turn.text = sentence + joint + turn.text
            turn.near.append((offset + s, offset + e, near_kind))
        out.append(turn)
    return out


# ---------------------------------------------------------------- measuring a redactor


@dataclass
class Tally:
    """Per kind: planted values and how many the redactor got right (personal data covered
    whole; near-misses untouched)."""

    planted: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)
    misses: dict[str, list[str]] = field(default_factory=dict)  # kind → a few wrong texts
    spans: int = 0  # spans the redactor found
    spans_on_pii: int = 0  # of them, those that touch a planted personal value

    def add(self, kind: str, ok: bool, text: str) -> None:
        self.planted[kind] += 1
        self.right[kind] += ok
        if not ok and len(self.misses.setdefault(kind, [])) < 5:
            self.misses[kind].append(text)


def _covered(start: int, end: int, spans: list[tuple[int, int, str]]) -> bool:
    """Every character of [start, end) inside a span (spans do not overlap)."""
    need = start
    for s, e, _ in spans:
        if s <= need < e:
            need = e
        if need >= end:
            return True
    return False


def _touched(start: int, end: int, spans: list[tuple[int, int, str]]) -> bool:
    return any(s < end and start < e for s, e, _ in spans)


def measure(corpus: list[Turn], find_spans: Callable[[str], list[tuple[int, int, str]]]) -> Tally:
    """How a span finder does on a corpus: recall per personal-data kind, survival per near-miss."""
    tally = Tally()
    for turn in corpus:
        spans = find_spans(turn.text)
        tally.spans += len(spans)
        tally.spans_on_pii += sum(any(s < b and a < e for a, b, _ in turn.pii) for s, e, _ in spans)
        for start, end, kind in turn.pii:
            tally.add(kind, _covered(start, end, spans), turn.text)
        for start, end, kind in turn.near:
            tally.add(kind, not _touched(start, end, spans), turn.text)
    return tally
