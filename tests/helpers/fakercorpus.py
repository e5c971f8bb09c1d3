"""An independent corpus for the redactor: personal values from Faker (a library this project
did not write) in its zh_CN, zh_TW, en_US, en_GB, de_DE and es_ES generators, typed the ways
people type them, inside sentence templates of ours; near-misses (order numbers, versions,
prices, dates, product codes, code) that must survive. Seeded: the same seed gives the same
turns. Faker is a development dependency (`pip install -e .[dev]`), imported only here.

`turns(n, seed)` gives `piicorpus.Turn`s whose `pii` spans are typed by kind (`id`, `phone`,
`email`, `card`, `key`, `name`, `address`), so `piicorpus.measure` reads them as it reads the
project's own corpus.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from helpers.piicorpus import Turn

LOCALES = ("zh_CN", "zh_TW", "en_US", "en_GB")
NAME_LOCALES = (*LOCALES, "de_DE", "es_ES")  # accented Latin names: José, Jürgen
STRICT_KINDS = ("id", "phone", "email", "card", "key")  # recall goal 99.5%
LOOSE_KINDS = ("name", "address")  # recall goal 97%
NEAR_KINDS = ("order_number", "version", "price", "date", "product_code", "code")

# sentence templates: {v} is the value; ZH for Chinese locales, EN for the others
_ZH = {
    "id": (
        "我的身份证号是{v}，帮我查一下社保",
        "身份证：{v}",
        "{v}是我的身份证号码",
        "证件号码{v}，请核对",
        "这是我爸的身份证 {v} 能挂号吗",
        "{v}",
        "帮我看看{v}这个号码对不对",
    ),
    "phone": (
        "我的手机号是{v}，有事打给我",
        "电话：{v}",
        "打{v}找我",
        "联系方式{v}，晚上八点后",
        "{v}这个号码老是给我打骚扰电话",
        "有事请致电{v}",
        "他的号码是{v}",
    ),
    "email": (
        "我的邮箱是{v}",
        "发到{v}就行",
        "邮箱：{v}，谢谢",
        "请把报告抄送{v}",
        "{v}收不到验证码怎么办",
    ),
    "card": (
        "我的卡号是{v}，扣款失败了",
        "银行卡{v}被冻结了",
        "用{v}这张卡付的款",
        "信用卡 {v} 有一笔陌生消费",
    ),
    "name": (
        "帮我给{v}写一封邮件，说明天的会取消了",
        "我叫{v}，想咨询一下退货",
        "我名叫{v}",
        "请转告{v}明天开会",
        "{v}的电话打不通",
        "把这份合同发给{v}审一下",
        "昨天{v}跟我说快递丢了",
        "收件人{v}",
        "麻烦问一下{v}老师在吗",
        "我和{v}一起去的",
    ),
    "address": (
        "我家住在{v}，快递一直没到",
        "寄到{v}",
        "地址：{v}",
        "{v}",
        "收货地址改成{v}吧",
        "我搬到了{v}，需要更新信息",
    ),
}
_EN = {
    "id": (
        "My SSN is {v}, can you check my return?",
        "social security number: {v}",
        "{v} is my ID number",
        "here is my national insurance number {v}",
        "ID {v}",
        "{v}",
    ),
    "phone": (
        "call me at {v}",
        "my phone number is {v}.",
        "You can reach Jim on {v} after 5pm",
        "Tel: {v}",
        "{v} keeps calling me",
        "text me on {v} please",
        "number: {v}",
    ),
    "email": (
        "my email is {v}",
        "send it to {v} please",
        "Email: {v}",
        "cc {v} on the reply",
        "{v} doesn't get the reset link",
    ),
    "card": (
        "my card number is {v}",
        "charged twice on {v}",
        "Visa {v} exp 09/27",
        "the card {v} was declined",
    ),
    "name": (
        "Can you write an email to {v} about the delay?",
        "My name is {v}.",
        "I spoke with {v} yesterday and nothing happened",
        "{v} said the order never arrived",
        "Please forward this to {v}.",
        "I'm {v}, the account owner",
        "Dear {v},",
        "ask {v} whether the invoice is paid",
    ),
    "address": (
        "I live at {v}.",
        "ship it to {v}",
        "Address: {v}",
        "{v}",
        "we moved to {v} last month",
        "the parcel went to {v} instead",
    ),
}
_KEY_TEMPLATES = (
    "password: {v}",
    "我的密码是{v}",
    "passWord={v}",
    "AppSecret={v}",
    "AccessKeySecret: {v}",
    "SecretId={v}",
    "api_key = '{v}'",
    "token: {v}",
    "密钥：{v}",
    'export AWS_SECRET_ACCESS_KEY="{v}"',
    "client_secret={v}",
    "{{'apiKey': '{v}'}}",
)
_SCHEMES = ("postgres", "postgresql", "mysql", "mongodb", "redis", "rtsp", "amqp", "ftp", "smtp", "https")
_NEAR = {
    "order_number": ("订单号 {v} 还没发货", "order #{v} is late", "my order number is {v}", "订单{v}能退吗"),
    "version": ("升级到 {v} 以后就闪退", "after updating to version {v} it crashes", "v{v} 有这个问题吗"),
    "price": ("一共 {v}，太贵了", "it cost {v}", "价格是{v}"),
    "date": ("{v} 下的单", "ordered on {v}", "{v}之前能到吗"),
    "product_code": ("型号 {v}", "SKU {v} is out of stock", "货号{v}还有货吗", "ISBN {v}"),
    "code": ("报错在这行：{v}", "this line fails: {v}", "`{v}`"),
}


class _Maker:
    """Values of each kind from Faker, in the spellings people type."""

    def __init__(self, seed: int) -> None:
        try:
            from faker import Faker
        except ImportError:  # a development dependency
            raise SystemExit("the independent PII corpus needs Faker: pip install -e '.[dev]'") from None
        self.rng = random.Random(seed)
        self.fakers = {}
        for number, locale in enumerate(NAME_LOCALES):
            faker = Faker(locale)
            faker.seed_instance(seed * 101 + number)
            self.fakers[locale] = faker

    def pick(self, *options: str) -> str:
        return self.rng.choice(options)

    def group(self, value: str, sizes: tuple[int, ...], sep: str) -> str:
        parts, at = [], 0
        for size in sizes:
            parts.append(value[at : at + size])
            at += size
        return sep.join(p for p in [*parts, value[at:]] if p)

    def id(self, locale: str) -> str:
        value = self.fakers[locale].ssn()
        if locale == "zh_CN":
            sep = self.pick("", "", " ", "-", "/", ".")
            value = self.group(value, (6, 8), sep) if sep else value
            return value.lower() if self.rng.random() < 0.2 else value
        return value

    def phone(self, locale: str) -> str:
        value = self.fakers[locale].phone_number()
        if locale == "zh_CN" and self.rng.random() < 0.4:
            value = self.pick("+86 ", "+86-", "0086 ", "") + self.group(value, (3, 4), self.pick(" ", "-"))
        return value

    def email(self, locale: str) -> str:
        faker = self.fakers[locale]
        value = self.pick(faker.email(), faker.free_email(), faker.company_email())
        if locale.startswith("zh") and self.rng.random() < 0.3:
            user = faker.user_name()
            value = user + self.pick("@163。com", "@qq。com", "＠126.com", "@foxmail.com", "@vip.sina.com")
        return value

    def card(self, locale: str) -> str:
        value = self.fakers[locale].credit_card_number()
        sep = self.pick("", "", " ", "-")
        return self.group(value, (4, 4, 4), sep) if sep else value

    def key(self, locale: str) -> tuple[str, str]:
        """(template with {v}, value): a credential or a URL that carries one."""
        faker = self.fakers[locale]
        if self.rng.random() < 0.3:
            scheme = self.pick(*_SCHEMES)
            password = faker.password(length=self.rng.randint(8, 16), special_chars=False)
            url = f"{scheme}://{faker.user_name()}:{password}@{faker.domain_name()}:{faker.port_number()}/{self.fakers['en_US'].word()}"
            return self.pick("连接串是{v}", "DATABASE_URL={v}", "connect with {v}", "{v}"), url
        value = self.pick(
            faker.password(length=self.rng.randint(10, 20)),
            faker.sha1(),
            faker.sha256()[:40],
            faker.uuid4(),
            faker.bothify("AKIA????????????????").upper(),
            faker.password(length=24, special_chars=False),
        )
        return self.pick(*_KEY_TEMPLATES), value

    def name(self, locale: str) -> str:
        faker = self.fakers[locale]
        if locale.startswith("zh"):
            return faker.name()
        return f"{faker.first_name()} {faker.last_name()}"

    def address(self, locale: str) -> str:
        value = self.fakers[locale].address()
        if locale.startswith("en"):
            return value.replace("\n", self.pick(", ", "\n", " "))
        if locale == "zh_CN" and self.rng.random() < 0.4:  # spellings Faker lacks: 3-2-501, 村3组15号
            faker, n = self.fakers[locale], self.rng.randint
            street = faker.street_name()
            return (
                faker.province()
                + faker.city()
                + self.pick(
                    f"{street}{n(1, 300)}号{n(1, 20)}-{n(1, 6)}-{n(101, 2602)}",
                    f"{faker.last_name()}家村{n(1, 12)}组{n(1, 99)}号",
                    f"{street}{n(1, 999)}号{n(1, 30)}栋{n(101, 3002)}室",
                )
            )
        return value

    def near(self, kind: str) -> str:
        faker = self.fakers[self.pick(*LOCALES)]
        rng = self.rng
        makers: dict[str, Callable[[], str]] = {
            "order_number": lambda: faker.numerify(
                self.pick("##########", "2024############", "DD############")
            ),
            "version": lambda: ".".join(str(rng.randint(0, 20)) for _ in range(rng.choice((2, 3, 4)))),
            "price": lambda: self.pick(
                f"¥{faker.pyint(1, 9999)}.00", f"${faker.pyint(1, 99999):,}.99", f"{faker.pyint(1, 99999)}元"
            ),
            "date": lambda: self.pick(
                faker.date(), faker.date("%Y年%m月%d日"), faker.date("%m/%d/%Y"), faker.iso8601()
            ),
            "product_code": lambda: self.pick(
                faker.ean13(), faker.isbn13(), faker.bothify("??-####").upper(), faker.ean8()
            ),
            "code": lambda: self.pick(
                f"x = {faker.pyint(1000, 99999999)}",
                f"for i in range({faker.pyint(10, 100000)}):",
                f"timeout={faker.pyint(100, 600000)}",
                f"return arr[{faker.pyint(0, 99)}] * {faker.pyfloat(3, 4)}",
            ),
        }
        return makers[kind]()


def _plant(template: str, value: str) -> tuple[str, int, int]:
    before, after = template.split("{v}", 1)
    return before + value + after, len(before), len(before) + len(value)


def turns(n: int, seed: int = 0, near_share: float = 0.6) -> list[Turn]:
    """`n` user turns, each with one Faker value of the kinds in turn; `near_share` of them also
    hold a near-miss."""
    make = _Maker(seed)
    rng = make.rng
    kinds = STRICT_KINDS + LOOSE_KINDS
    out = []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        locale = rng.choice(NAME_LOCALES if kind == "name" else LOCALES)
        chinese = locale.startswith("zh")
        if kind == "key":
            template, value = make.key(locale)
        else:
            value = getattr(make, kind)(locale)
            template = rng.choice((_ZH if chinese else _EN)[kind])
        text, start, end = _plant(template.replace("{{", "{").replace("}}", "}"), value)
        turn = Turn(text, [(start, end, kind)])
        if rng.random() < near_share:
            near_kind = NEAR_KINDS[i % len(NEAR_KINDS)]
            sentence, s, e = _plant(rng.choice(_NEAR[near_kind]), make.near(near_kind))
            joint = rng.choice(("，", "。", " ", "\n", "; "))
            if rng.random() < 0.5:
                turn.near.append((len(text) + len(joint) + s, len(text) + len(joint) + e, near_kind))
                turn.text = text + joint + sentence
            else:
                shift = len(sentence) + len(joint)
                turn.pii = [(a + shift, b + shift, k) for a, b, k in turn.pii]
                turn.near.append((s, e, near_kind))
                turn.text = sentence + joint + text
        out.append(turn)
    return out
