"""The held-out PII corpus: made differently from the development corpora (`piicorpus`,
`fakercorpus`) and never used to tune the redactor. Frozen: change a template or a maker here
only to fix a wrong label, never because the redactor misses it.

What differs from the development corpora:
- languages: zh, en, ja and ko, each with sentence templates written for this module alone;
- generators: Faker's ja_JP, ko_KR, en_AU, en_CA and fr_FR (no locale of the development
  corpus), and hand-written makers for what Faker lacks (Hong Kong / Taiwan / mainland IDs with
  their check digits, passports, plates, messenger ids, MAC / IMEI, phones in Chinese numerals,
  e-mails written `艾特` / `[at]` / `(dot)`, zero-width characters inside values, Latin, Japanese and
  Korean names inside Chinese text);
- near-misses of the kinds users really write: product codes (`MQ753CH/A`), four-part versions,
  brands, products and places, 400 hotlines and short service numbers, router IPs, student
  numbers, EAN barcodes, HTTP statuses, order numbers, dates, prices.

`turns(n, seed)` gives `piicorpus.Turn`s with a `lang` in `LANGS`; each planted value is a
`(start, end, kind)` span (a value given in two parts is two spans of one kind).
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

from helpers.piicorpus import Turn

LANGS = ("zh", "en", "ja", "ko")
STRICT_KINDS = ("id", "phone", "email", "card", "handle", "plate", "device")  # goal 99.5%
LOOSE_KINDS = ("name", "address")  # goal 97%
NEAR_KINDS = (
    "product_code",
    "version",
    "brand",
    "hotline",
    "router_ip",
    "student_no",
    "barcode",
    "http_status",
    "order_number",
    "date",
    "price",
)
FAKER_LOCALES = {"ja": "ja_JP", "ko": "ko_KR", "en": ("en_AU", "en_CA", "fr_FR"), "zh": "zh_TW"}
ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\ufeff")


@dataclass
class HeldTurn(Turn):
    lang: str = "zh"


# ------------------------------------------------------------------ sentence templates
# {v} the value; {a} / {b} the two parts of a value given in two parts
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "id": (
            "办港澳通行证要填证件号，我的是{v}",
            "香港身份证{v}丢了怎么补",
            "护照号码 {v} 过期了怎么续",
            "帮我核对下这个身份证：{v}，看是不是我爸的",
            "我的证件号前半段{a}，后半段{b}",
            "身份证号{v}。帮我写个请假条",
            "身份证上的号码是{v}吗",
        ),
        "phone": (
            "有急事打我手机{v}，随时在",
            "电话{v}，找王经理",
            "联系我：{v}（工作日）",
            "这是我香港的号码 {v}",
            "你直接拨{v}就能找到她",
            "号码是{v}，记一下",
        ),
        "email": (
            "简历发我邮箱{v}，谢谢啦",
            "你把截图发到{v}吧。我晚上看",
            "邮件地址：{v}",
            "抄送一份给{v}，别忘了",
        ),
        "card": (
            "信用卡{v}这个月被盗刷了",
            "退款退到{v}这张卡上",
            "我工资卡是{v}。能查余额吗",
        ),
        "handle": (
            "加我微信：{v}，备注来意",
            "QQ号{v}，有问题私聊",
            "我的微信号是{v}",
            "你搜一下我的QQ：{v}",
        ),
        "plate": (
            "车牌{v}的车挡住我家门口了",
            "帮我查一下{v}有没有违章",
            "我的车是{v}，停在B2层",
        ),
        "device": (
            "路由器里看到一个陌生设备，MAC地址{v}",
            "手机的IMEI是{v}，丢了能定位吗",
            "网卡地址 {v} 被拉黑了",
        ),
        "name": (
            "帮我给{v}写一封道歉信",
            "收件人：{v}",
            "跟{v}约了周五下午见面",
            "{v}昨天把方案退回来了",
            "替我问候一下{v}",
            "合同上签字的是{v}",
        ),
        "address": (
            "新家地址是{v}，麻烦改一下",
            "快递寄{v}，放门卫",
            "发票邮寄地址：{v}",
            "送货到{v}可以吗",
        ),
    },
    "en": {
        "id": (
            "my passport number is {v} and it expires soon",
            "SIN: {v}",
            "here's my ID, {v} - is it valid?",
            "the first half of my ID is {a}, the rest is {b}",
            "fill in {v} as the passport no.",
        ),
        "phone": (
            "ring me on {v} tonight",
            "mobile {v}",
            "best number to reach me: {v}",
            "please call {v} after lunch",
            "my number's {v}",
        ),
        "email": (
            "shoot me an email at {v}",
            "contact: {v}. Thanks!",
            "forward the PDF to {v}",
            "my address is {v} if you need it",
        ),
        "card": (
            "someone used my card {v} in Berlin",
            "refund it to {v}, please",
            "Mastercard ending... actually the full one is {v}",
        ),
        "handle": (
            "add me on WeChat: {v}",
            "my Telegram is {v}",
            "LINE ID {v}, message me there",
            "WhatsApp me, my handle is {v}",
        ),
        "plate": (
            "the car with plate {v} hit mine",
            "licence plate: {v}",
        ),
        "device": (
            "the MAC address is {v}",
            "IMEI {v} - the phone was stolen",
            "blocked device {v} on the router",
        ),
        "name": (
            "write a thank-you note to {v}",
            "{v} will join the call tomorrow",
            "please cc {v} on this",
            "signed, {v}",
            "Hi, this is {v} from accounts",
            "tell {v} the report is late",
        ),
        "address": (
            "deliver to {v} please",
            "my new address: {v}",
            "we're at {v} now",
            "billing address is {v}",
        ),
    },
    "ja": {
        "id": (
            "マイナンバーは{v}です",
            "パスポート番号：{v}",
            "身分証の番号{v}を入力してください",
            "番号の前半は{a}、後半は{b}です",
        ),
        "phone": (
            "電話番号は{v}です",
            "携帯：{v}までご連絡ください",
            "{v}に電話してください",
            "連絡先 {v}",
        ),
        "email": (
            "メールアドレスは{v}です",
            "{v}に送ってください",
            "連絡先メール：{v}",
        ),
        "card": (
            "カード番号{v}で支払いました",
            "クレジットカード {v} が使えません",
        ),
        "handle": (
            "LINEのIDは{v}です",
            "LINE ID：{v}で追加してね",
        ),
        "plate": (
            "ナンバープレートは{v}です",
            "車のナンバー{v}",
        ),
        "device": (
            "MACアドレス：{v}",
            "IMEIは{v}です",
        ),
        "name": (
            "{v}さんに謝罪のメールを書いてください",
            "担当は{v}です",
            "宛名：{v}様",
            "昨日{v}さんと会いました",
            "お名前：{v}",
        ),
        "address": (
            "住所は{v}です",
            "お届け先：{v}",
            "{v}に引っ越しました",
        ),
    },
    "ko": {
        "id": (
            "주민등록번호는 {v}입니다",
            "여권번호 {v} 확인 부탁드려요",
            "주민번호 앞자리는 {a}, 뒷자리는 {b}예요",
        ),
        "phone": (
            "제 전화번호는 {v}입니다",
            "연락처: {v}",
            "{v}로 전화 주세요",
            "휴대폰 {v}",
        ),
        "email": (
            "이메일은 {v}입니다",
            "{v}로 보내 주세요",
        ),
        "card": (
            "카드번호 {v} 결제가 안 돼요",
            "신용카드 {v} 분실 신고",
        ),
        "handle": (
            "카카오톡 아이디: {v}",
            "카톡 ID {v}로 연락 주세요",
        ),
        "plate": (
            "차량번호 {v} 차가 막고 있어요",
            "제 차 번호는 {v}입니다",
        ),
        "device": (
            "MAC 주소: {v}",
            "IMEI 번호는 {v}입니다",
        ),
        "name": (
            "Name: {v}",
            "{v} 님께 사과 편지를 써 주세요",
            "담당자는 {v}입니다",
            "어제 {v} 씨를 만났어요",
            "받는 사람: {v}",
        ),
        "address": (
            "주소는 {v}입니다",
            "배송지: {v}",
            "{v}로 이사했어요",
        ),
    },
}
NEAR_TEMPLATES: dict[str, tuple[str, ...]] = {
    "zh": ("顺便说一句，{v}", "另外{v}", "{v}"),
    "en": ("by the way, {v}", "also {v}", "{v}"),
    "ja": ("ちなみに{v}", "{v}"),
    "ko": ("참고로 {v}", "{v}"),
}
NEAR_SENTENCES: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "product_code": ("型号{v}的电脑保修吗", "我买的是{v}这款"),
        "version": ("系统更新到{v}后耗电快", "固件是{v}"),
        "brand": ("我用的是{v}", "在{v}上下的单", "{v}打不开了"),
        "hotline": ("客服电话{v}一直占线", "打了{v}没人接"),
        "router_ip": ("路由器后台{v}进不去", "网关是{v}"),
        "student_no": ("学号{v}的成绩查不到", "我的学号是{v}"),
        "barcode": ("条形码{v}扫不出来", "商品码{v}"),
        "http_status": ("网页显示{v}", "接口返回{v}"),
        "order_number": ("订单编号{v}还没到", "运单{v}卡住了"),
        "date": ("{v}那天下的单", "截止到{v}"),
        "price": ("花了{v}", "退款{v}还没到账"),
    },
    "en": {
        "product_code": ("I bought the {v} model", "part {v} is broken"),
        "version": ("since the {v} update it lags", "running build {v}"),
        "brand": ("my {v} keeps crashing", "I ordered it on {v}", "is {v} supported?"),
        "hotline": ("the hotline {v} never answers", "I called {v} twice"),
        "router_ip": ("I can't open {v} on my router", "gateway {v} is down"),
        "student_no": ("my student number {v} isn't found", "student ID {v}"),
        "barcode": ("barcode {v} won't scan", "EAN {v}"),
        "http_status": ("the page says {v}", "got {v} from the API"),
        "order_number": ("order {v} is missing", "tracking number {v}"),
        "date": ("ordered on {v}", "due {v}"),
        "price": ("paid {v}", "refund of {v}"),
    },
    "ja": {
        "product_code": ("型番{v}の保証は？", "{v}を買いました"),
        "version": ("{v}にアップデートしてから重い", "バージョン{v}"),
        "brand": ("{v}を使っています", "{v}で注文しました"),
        "hotline": ("サポート{v}がつながらない", "{v}に電話しました"),
        "router_ip": ("ルーターの{v}に入れない", "ゲートウェイは{v}"),
        "student_no": ("学籍番号{v}", "学生番号{v}が見つからない"),
        "barcode": ("バーコード{v}が読めない", "JAN {v}"),
        "http_status": ("{v}と表示される", "APIが{v}を返す"),
        "order_number": ("注文番号{v}が届かない", "追跡番号{v}"),
        "date": ("{v}に注文", "{v}まで"),
        "price": ("{v}払いました", "返金{v}"),
    },
    "ko": {
        "product_code": ("모델 {v} 보증 되나요", "{v} 샀어요"),
        "version": ("{v} 업데이트 후 느려요", "버전 {v}"),
        "brand": ("{v} 쓰고 있어요", "{v}에서 주문했어요"),
        "hotline": ("고객센터 {v} 연결이 안 돼요", "{v}에 전화했어요"),
        "router_ip": ("공유기 {v} 접속이 안 돼요", "게이트웨이 {v}"),
        "student_no": ("학번 {v} 성적이 안 나와요", "학번은 {v}"),
        "barcode": ("바코드 {v} 인식 안 됨", "상품 코드 {v}"),
        "http_status": ("{v} 오류가 떠요", "API가 {v} 반환"),
        "order_number": ("주문번호 {v} 배송 안 됨", "송장번호 {v}"),
        "date": ("{v}에 주문", "{v}까지"),
        "price": ("{v} 결제했어요", "환불 {v}"),
    },
}

# ------------------------------------------------------------------ value makers
_CN_AREAS = ("110105", "310104", "440305", "510107", "330106", "420111", "610113", "210102")
_SURNAMES = (
    "李王张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程苏魏吕丁任沈姚卢"
)
_COMPOUND = ("欧阳", "司马", "上官", "诸葛", "东方", "慕容")
_GIVEN = (
    "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建文辉宇浩然子涵梓萱一诺欣怡俊熙思远雨桐嘉怡"
)
_CN_PROVINCES = (
    "北京市朝阳区",
    "上海市浦东新区",
    "广东省深圳市南山区",
    "浙江省杭州市西湖区",
    "四川省成都市武侯区",
)
_CN_STREETS = ("建国路", "科苑南路", "文三路", "长寿路", "人民南路", "中山北路")
_PLATE_PROVINCES = "京沪粤浙苏川鲁豫鄂湘闽皖"
_ZH_DIGITS = "零一二三四五六七八九"
_KO_PLATE = "가나다라마거너더러머버서어저고노도로모"
_PASSPORT = re.compile("passport|护照|パスポート|여권")
_BRANDS = {
    "zh": (
        "高德地图",
        "张江高科",
        "陈皮",
        "华为Mate 60",
        "小米14",
        "iPhone 15 Pro Max",
        "特斯拉Model 3",
        "微信读书",
    ),
    "en": (
        "Xbox Series X",
        "Visual Studio Code",
        "iPhone 15 Pro Max",
        "Tesla Model 3",
        "Google Maps",
        "Amazon Prime",
        "Galaxy S24",
    ),
    "ja": ("Nintendo Switch", "楽天市場", "LINE Pay", "iPhone 15 Pro", "ユニクロ"),
    "ko": ("카카오맵", "Galaxy S24", "네이버 지도", "쿠팡", "iPhone 15 Pro"),
}


def _luhn_complete(digits: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return digits + str((10 - total % 10) % 10)


class _Maker:
    """Values of each kind per language, in the spellings people type."""

    def __init__(self, seed: int) -> None:
        from faker import Faker  # a development dependency

        self.rng = random.Random(seed + 7919)
        self.faker: dict[str, Faker] = {}
        for number, locale in enumerate(("ja_JP", "ko_KR", "en_AU", "en_CA", "fr_FR", "zh_TW")):
            self.faker[locale] = Faker(locale)
            self.faker[locale].seed_instance(seed * 31 + number + 5)

    def pick(self, *options):
        return self.rng.choice(options)

    def digits(self, n: int, first: str = string.digits) -> str:
        return self.rng.choice(first) + "".join(self.rng.choice(string.digits) for _ in range(n - 1))

    def en_faker(self):
        return self.faker[self.pick("en_AU", "en_CA", "fr_FR")]

    def zero_width(self, value: str) -> str:
        """Sometimes a zero-width character inside the value (pasted from a web page)."""
        if len(value) > 3 and self.rng.random() < 0.08:
            at = self.rng.randrange(1, len(value) - 1)
            return value[:at] + self.pick(*ZERO_WIDTH) + value[at:]
        return value

    # identifiers ------------------------------------------------------------
    def cn_id(self) -> str:
        born = f"{self.rng.randint(1950, 2005)}{self.rng.randint(1, 12):02d}{self.rng.randint(1, 28):02d}"
        body = self.pick(*_CN_AREAS) + born + self.digits(3)
        weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
        return body + "10X98765432"[sum(int(d) * w for d, w in zip(body, weights, strict=True)) % 11]

    def hk_id(self) -> str:
        letter, digits = self.pick(*"ACDEGHKPRVYZ"), self.digits(6)
        total = (
            36 * 9
            + (ord(letter) - 55) * 8
            + sum(int(d) * w for d, w in zip(digits, range(7, 1, -1), strict=True))
        )
        check = (11 - total % 11) % 11
        return f"{letter}{digits}({'A' if check == 10 else check})"

    def tw_id(self) -> str:
        codes = "ABCDEFGHJKLMNPQRSTUVXYWZIO"
        letter = self.pick(*codes[:22])
        value = codes.index(letter) + 10
        body = self.pick("1", "2") + self.digits(7)
        total = (
            value // 10
            + (value % 10) * 9
            + sum(int(d) * w for d, w in zip(body, range(8, 0, -1), strict=True))
        )
        return f"{letter}{body}{(10 - total % 10) % 10}"

    def passport(self, lang: str) -> str:
        if lang == "zh":
            return self.pick("E", "G", "EA", "EB") + self.digits(8 if self.rng.random() < 0.7 else 7)
        if lang == "ja":
            return self.pick("TK", "TR", "MZ", "TZ") + self.digits(7)
        if lang == "ko":
            return self.pick("M", "S", "R") + self.digits(8)
        return self.pick("5", "4") + self.digits(8) if self.rng.random() < 0.5 else "PA" + self.digits(7)

    def my_number(self) -> str:
        body = self.digits(11)
        total = sum(int(d) * (n + 1 if n <= 6 else n - 5) for n, d in enumerate(reversed(body), start=1))
        rest = total % 11
        value = body + str(0 if rest <= 1 else 11 - rest)
        return self.pick(
            value, f"{value[:4]} {value[4:8]} {value[8:]}", f"{value[:4]}-{value[4:8]}-{value[8:]}"
        )

    def id(self, lang: str, template: str) -> str:
        """A passport number where the template names one, another ID of the language otherwise."""
        if _PASSPORT.search(template):
            return self.passport(lang)
        if lang == "zh":
            return self.pick(self.cn_id, self.hk_id, self.tw_id)()
        if lang == "en":
            return self.pick(lambda: self.faker["en_CA"].ssn(), self.hk_id)()
        if lang == "ja":
            return self.my_number()
        return self.faker["ko_KR"].ssn()

    def id_parts(self, lang: str) -> tuple[str, str]:
        if lang == "ko":
            value = self.faker["ko_KR"].ssn()
            return value[:6], value[7:]
        if lang == "ja":
            value = self.my_number().replace(" ", "").replace("-", "")
            return value[:6], value[6:]
        value = self.cn_id() if lang == "zh" else self.faker["en_CA"].ssn().replace(" ", "")
        return value[: len(value) // 2], value[len(value) // 2 :]

    def phone(self, lang: str) -> str:
        rng = self.rng
        if lang == "zh":
            mobile = self.pick("13", "15", "17", "18", "19") + self.digits(9)
            shape = rng.random()
            if shape < 0.25:  # Chinese numerals
                spelled = "".join(_ZH_DIGITS[int(d)] for d in mobile)
                return spelled.replace("一", "幺") if rng.random() < 0.3 else spelled
            if shape < 0.45:  # Hong Kong 8 digits
                return (
                    self.pick("", "+852 ") + self.pick("5", "6", "9") + self.digits(3) + " " + self.digits(4)
                )
            if shape < 0.6:  # Taiwan mobile
                return "09" + self.digits(2) + "-" + self.digits(3) + "-" + self.digits(3)
            if shape < 0.75:
                return self.zero_width(mobile)
            return (
                self.pick("+86 ", "") + mobile[:3] + self.pick(" ", "-", ".") + mobile[3:7] + " " + mobile[7:]
            )
        if lang == "en":
            if rng.random() < 0.2:  # a bare 10-digit North American number
                return self.pick(*"23456789") + self.digits(2) + self.pick(*"23456789") + self.digits(6)
            if rng.random() < 0.15:
                return "+61." + self.pick("2", "3", "7", "8") + "." + self.digits(4) + "." + self.digits(4)
            return self.pick(self.faker["en_AU"], self.faker["en_CA"], self.faker["fr_FR"]).phone_number()
        return self.faker["ja_JP" if lang == "ja" else "ko_KR"].phone_number()

    def email(self, lang: str) -> str:
        faker = self.faker[{"ja": "ja_JP", "ko": "ko_KR"}.get(lang, "en_AU")]
        user, domain = (
            faker.user_name(),
            self.pick("163.com", "qq.com", "gmail.com", "naver.com", "yahoo.co.jp"),
        )
        shape = self.rng.random()
        if shape < 0.5:
            return self.zero_width(f"{user}@{domain}")
        if lang == "zh" and shape < 0.7:
            return f"{user}艾特{domain}"
        name, tld = domain.split(".", 1)
        return self.pick(
            f"{user} at {domain}",
            f"{user}[at]{domain}",
            f"{user}(at){name}(dot){tld}",
            f"{user} [at] {name} [dot] {tld}",
            f"{user}＠{domain}",
        )

    def card(self, lang: str) -> str:
        value = _luhn_complete(
            self.pick("4", "51", "62", "35") + self.digits(14 - 1 if self.rng.random() < 0.5 else 12)
        )
        sep = self.pick("", " ", "-")
        return sep.join(value[i : i + 4] for i in range(0, len(value), 4)) if sep else value

    def handle(self, lang: str) -> str:
        word = self.faker["en_CA"].user_name()
        return self.pick(
            f"wxid_{self.digits(6)}{self.pick(*'abcxyz')}",
            word + self.digits(2),
            self.digits(self.rng.randint(8, 10), "123456789"),
            f"{word}_{self.rng.randint(1, 99)}",
            f"@{word}",
        )

    def plate(self, lang: str) -> str:
        letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
        if lang == "zh" or (lang == "en" and self.rng.random() < 0.3):
            head = self.pick(*_PLATE_PROVINCES) + self.pick(*letters)
            tail = self.pick(*letters, *"0123456789") + self.digits(4)
            if self.rng.random() < 0.2:
                tail = self.pick("D", "F") + self.digits(5)  # new-energy
            return head + self.pick("", "·", " ") + tail
        if lang == "ko":
            return f"{self.digits(2, '123456789')}{self.pick(*_KO_PLATE)} {self.digits(4)}"
        if lang == "ja":
            office, kana = self.pick("品川", "練馬", "横浜", "大阪"), self.pick(*"あいうえかきくけ")
            return f"{office} {self.digits(3, '123456789')} {kana} {self.digits(2)}-{self.digits(2)}"
        return "".join(self.pick(*letters) for _ in range(3)) + self.pick(" ", "-") + self.digits(3)

    def device(self, lang: str, template: str) -> str:
        if "IMEI" not in template:
            octets = [f"{self.rng.randrange(256):02x}" for _ in range(6)]
            text = self.pick(":", "-").join(octets)
            return text.upper() if self.rng.random() < 0.5 else text
        return _luhn_complete(self.pick("35", "86", "01") + self.digits(12))

    # names and addresses -----------------------------------------------------
    def name(self, lang: str) -> str:
        if lang == "zh":
            shape = self.rng.random()
            if shape < 0.45:
                surname = self.pick(*_COMPOUND) if self.rng.random() < 0.1 else self.pick(*_SURNAMES)
                return surname + "".join(self.pick(*_GIVEN) for _ in range(self.rng.randint(1, 2)))
            if shape < 0.6:
                return self.faker["zh_TW"].name()
            if shape < 0.8:
                return f"{self.en_faker().first_name()} {self.en_faker().last_name()}"
            if shape < 0.9:
                return self.faker["ja_JP"].name().replace(" ", self.pick("　", " ", ""))
            return self.faker["ko_KR"].name()
        if lang == "en":
            faker = self.en_faker() if self.rng.random() < 0.8 else self.faker["ja_JP"]
            if faker is self.faker["ja_JP"]:
                return f"{faker.first_romanized_name()} {faker.last_romanized_name()}"
            return f"{faker.first_name()} {faker.last_name()}"
        if lang == "ja":
            return self.faker["ja_JP"].name().replace(" ", self.pick("　", " ", ""))
        return self.faker["ko_KR"].name()

    def address(self, lang: str) -> str:
        if lang == "zh":
            if self.rng.random() < 0.5:
                n = self.rng.randint
                return (
                    self.pick(*_CN_PROVINCES)
                    + self.pick(*_CN_STREETS)
                    + self.pick(
                        f"{n(1, 800)}弄{n(1, 40)}号{n(101, 1802)}室",
                        f"{n(1, 300)}号{self.pick('阳光', '锦绣', '翠苑')}小区{n(1, 30)}幢"
                        f"{n(1, 4)}单元{n(101, 2402)}",
                        f"{n(1, 999)}号院{n(1, 12)}号楼",
                    )
                )
            return self.faker["zh_TW"].address()
        if lang == "en":
            return self.pick(self.faker["en_AU"], self.faker["en_CA"]).address().replace("\n", ", ")
        locale = "ja_JP" if lang == "ja" else "ko_KR"
        return self.faker[locale].address().replace("\n", " ")

    # near-misses -------------------------------------------------------------
    def near(self, kind: str, lang: str) -> str:
        rng, letters = self.rng, string.ascii_uppercase
        makers = {
            "product_code": lambda: self.pick(
                f"M{self.pick(*letters)}{self.digits(3)}{self.pick('CH', 'LL', 'J', 'KH')}/A",
                f"SM-{self.pick('S', 'A', 'F')}{self.digits(3)}{self.pick('B', 'U', 'N')}",
                f"RTX {self.pick('3060', '4070', '4090')}",
                f"{self.pick(*letters)}{self.pick(*letters)}{self.digits(4)}-{self.pick(*letters)}",
            ),
            "version": lambda: self.pick(
                f"HarmonyOS {rng.randint(2, 5)}.0.0.{rng.randint(100, 300)}",
                f"iOS {rng.randint(15, 18)}.{rng.randint(0, 6)}.{rng.randint(1, 3)}",
                f"{rng.randint(1, 12)}.{rng.randint(0, 9)}.{rng.randint(0, 99)}.{rng.randint(100, 9999)}",
                f"v{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 50)}",
            ),
            "brand": lambda: self.pick(*_BRANDS[lang]),
            "hotline": lambda: self.pick(
                f"400-{self.digits(3)}-{self.digits(4)}",
                f"400{self.digits(7)}",
                f"800-{self.digits(3)}-{self.digits(4)}",
                self.pick("95588", "10086", "12315", "114", "1588-1234"),
                f"1-800-{self.digits(3)}-{self.digits(4)}",
                f"0120-{self.digits(3)}-{self.digits(3)}",
            ),
            "router_ip": lambda: self.pick(
                "192.168.1.1", "192.168.0.1", "10.0.0.1", "192.168.31.1", "127.0.0.1"
            ),
            "student_no": lambda: self.pick(
                f"20{rng.randint(15, 24)}{self.digits(7)}", f"{rng.randint(18, 24)}{self.digits(6)}"
            ),
            "barcode": lambda: self.faker["en_CA"].ean13(),
            "http_status": lambda: self.pick(
                "HTTP 404 Not Found", "500 Internal Server Error", "HTTP/1.1 403 Forbidden", "502 Bad Gateway"
            ),
            "order_number": lambda: self.pick(
                f"SF{self.digits(12)}", f"JD{self.digits(13)}", self.digits(18)
            ),
            "date": lambda: self.pick(
                f"{rng.randint(2019, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                f"{rng.randint(2019, 2026)}/{rng.randint(1, 12)}/{rng.randint(1, 28)}",
                f"{rng.randint(1, 12)}月{rng.randint(1, 28)}日",
            ),
            "price": lambda: self.pick(
                f"¥{rng.randint(10, 99999):,}",
                f"${rng.randint(1, 9999)}.{rng.randint(0, 99):02d}",
                f"{rng.randint(100, 99999)}원",
                f"{rng.randint(100, 99999)}円",
            ),
        }
        return makers[kind]()


_SLOT = re.compile(r"\{([abv])\}")


def _fill(template: str, values: dict[str, str]) -> tuple[str, list[tuple[int, int]]]:
    """The template with its slots filled, and the span of each filled slot in order."""
    out, spans, at = "", [], 0
    for slot in _SLOT.finditer(template):
        out += template[at : slot.start()]
        spans.append((len(out), len(out) + len(values[slot.group(1)])))
        out += values[slot.group(1)]
        at = slot.end()
    return out + template[at:], spans


def turns(n: int, seed: int = 0, near_share: float = 0.6) -> list[HeldTurn]:
    """`n` user turns, languages and kinds in turn; `near_share` of them also hold a near-miss."""
    make = _Maker(seed)
    rng = make.rng
    kinds = STRICT_KINDS + LOOSE_KINDS
    out: list[HeldTurn] = []
    for i in range(n):
        lang = LANGS[i % len(LANGS)]
        kind = kinds[(i // len(LANGS)) % len(kinds)]
        template = rng.choice(TEMPLATES[lang][kind])
        if "{a}" in template:
            a, b = make.id_parts(lang)
            values = {"a": a, "b": b}
        elif kind in ("id", "device"):
            values = {"v": getattr(make, kind)(lang, template)}
        else:
            values = {"v": getattr(make, kind)(lang)}
        text, spans = _fill(template, values)
        turn = HeldTurn(text, lang=lang, pii=[(s, e, kind) for s, e in spans])
        if rng.random() < near_share:
            near_kind = NEAR_KINDS[(i // len(LANGS)) % len(NEAR_KINDS)]
            sentence, (span,) = _fill(
                rng.choice(NEAR_SENTENCES[lang][near_kind]), {"v": make.near(near_kind, lang)}
            )
            sentence, near_spans = _fill(rng.choice(NEAR_TEMPLATES[lang]), {"v": sentence})
            offset = near_spans[0][0]
            joint = "，" if lang == "zh" else " " if lang != "ja" else "。"
            if rng.random() < 0.5:
                shift = len(turn.text) + len(joint)
                turn.near.append((shift + offset + span[0], shift + offset + span[1], near_kind))
                turn.text = turn.text + joint + sentence
            else:
                shift = len(sentence) + len(joint)
                turn.pii = [(a + shift, b + shift, k) for a, b, k in turn.pii]
                turn.near.append((offset + span[0], offset + span[1], near_kind))
                turn.text = sentence + joint + turn.text
        out.append(turn)
    return out
