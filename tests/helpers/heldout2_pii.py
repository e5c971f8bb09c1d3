"""A second held-out PII corpus, made independently of the first (`heldout_pii`) and of the
development corpora, and frozen before any redactor read it: change a template or a maker here
only to fix a wrong label, never because a redactor misses a value.

How it differs from the first held-out corpus:
- sentence templates written for this module alone, each naming its value's maker in the slot
  (`{ric}`, `{hkid}`, `{kata}` …) so the cue and the value agree; a slot used twice is a list of
  two values of the kind;
- generators: Faker's en_NZ, en_IN, en_IE and en_PH (none of the first corpus's locales), ja_JP and
  ko_KR only for addresses, phones and plates, with this module's own surname / given-name lists
  for Chinese, Japanese and Korean names and its own place lists for addresses;
- hand-written makers with real check digits (mainland, Hong Kong and Taiwan IDs, Korean resident
  numbers, Japanese My Number, Aadhaar, Irish PPS, Luhn cards and IMEIs); Macau IDs have the
  shape only (their check digit is not public);
- spellings people type: full-width digits and colons, Chinese numerals, `#` / `艾特` / `골뱅이` /
  `アットマーク` for the at-sign, dots and spaces inside phones, values glued to the next word.

`turns(n, seed, near_share)` gives `HeldTurn`s, languages and kinds in turn; each personal value
is a `(start, end, kind)` span and each near-miss a `(start, end, near_kind)` span.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable
from functools import partial

from faker import Faker

from helpers.heldout_pii import LANGS, LOOSE_KINDS, NEAR_KINDS, STRICT_KINDS, HeldTurn

__all__ = ["LANGS", "LOOSE_KINDS", "NEAR_KINDS", "STRICT_KINDS", "HeldTurn", "turns"]

FAKER_LOCALES = ("en_NZ", "en_IN", "en_IE", "en_PH", "ja_JP", "ko_KR")
_FULL = str.maketrans("0123456789-:@.", "０１２３４５６７８９－：＠．")
_CN_DIGITS = "零一二三四五六七八九"

# ------------------------------------------------------------------ sentence templates
# A slot `{x}` is filled by the maker `x` of the template's kind; `{v}` is the kind's default.
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "id": (
            "身份证号{ric}，麻烦帮我查下社保是不是断缴了",
            "{ric}是我身份证，实名认证一直失败咋办",
            "我妈的身份证号：{ric}（她不会用手机）",
            "高铁票乘车人证件号写错了，应该是{ric}不是别的",
            "香港身份证{hkid}可以在内地开户吗",
            "我老公是香港人，证件号码:{hkid}，帮看下格式对不对",
            "澳门居民身份证 {mo} 能办网银吗？",
            "台湾身分证字号{twid}，填到表格里一直提示错误",
            "护照号{pp_cn}，签证材料里这一栏要写全吗",
            "出国换汇要护照：{pp_cn}",
            "帮我把这两个身份证号排个版：{ric}；{ric}",
            "韩国朋友的居民登录号{rrn}能用来订酒店吗",
        ),
        "phone": (
            "我手机{v}，快递到了打我电话",
            "电话：{v}（工作日9点后）",
            "有事联系{v}找我就行",
            "电话号吗是{v}，打不通就发短信",
            "这是我新号码{v}旧的停机了",
            "客户留的是{v}，打过去是空号？？",
            "麻烦回拨一下 {v} 谢谢",
            "备用号码:{v}",
            "号码{v}、{v}都可以打",
            "把联系人电话改成【{v}】",
            "帮我写个请假条，落款留电话{v}",
        ),
        "email": (
            "简历投到{v}就行",
            "邮箱：{v}，收到请回复",
            "我的邮箱是 {v} ，发票开好了发这里",
            "发到{v}吧，别发微信了",
            "联系邮箱{v}（周末不看）",
            "抄送给{v}和{v}",
            "“{v}”这个地址为什么一直退信",
            "帮我润色一下这段话：如有疑问请致信{v}。",
        ),
        "card": (
            "我的卡号{v}，转账到这张",
            "银行卡：{v}  户名写我本人",
            "{v}这张卡被冻结了怎么解",
            "信用卡号 {v} 被盗刷了三笔",
            "退款请退到尾号不对的那张吗？卡号是{v}",
            "工资卡[{v}]需要换绑",
            "两张卡{v}和{v}哪张额度高",
            "这是我的运通卡{amex}，境外能刷吗",
            "银联卡号:{up}",
        ),
        "handle": (
            "加我微信{wx}，备注来意",
            "vx：{wx}",
            "微信号是{wx}，拉你进群",
            "不方便的话加QQ{qq}聊",
            "QQ号:{qq} 验证消息写项目名",
            "我扣扣{qq}，晚上在线",
            "微信 {wx} / QQ {qq} 都行",
            "她的LINE是{line}，你帮我翻译一下打招呼的话",
            "tg搜@{tg}就能找到我",
        ),
        "plate": (
            "车牌{v}，麻烦登记一下访客车位",
            "我的车是{v}，停在B2了",
            "违章查询：{v}有没有未处理的",
            "把{v}加到小区门禁白名单",
            "车牌号码：{v}（新能源）",
            "刚才剐蹭我的车牌是{v}！！",
            "ETC绑定的车牌【{v}】能改吗",
            "{v}这辆车是不是被拖走了",
        ),
        "device": (
            "路由器里看到陌生设备MAC {mac}，怎么拉黑",
            "我电脑的MAC地址是{mac}，帮我绑定静态IP",
            "手机串号IMEI:{imei}，丢了能定位吗",
            "IMEI：{imei}，请问是不是正品行货",
            "网卡物理地址{mac}被封了",
            "两台设备的MAC：{mac}、{mac}",
            "保修查询要填串号{imei}吗",
        ),
        "name": (
            "{v}是我们部门新来的同事",
            "帮我给{v}写一封感谢信",
            "收件人：{v}，电话见备注",
            "我表哥{v}下周结婚，帮我想个祝福语",
            "老师叫{v}，教高数的",
            "昨天{v}跟我说项目延期了",
            "请假审批人写{v}还是写我自己",
            "联系人{v}（财务）",
            "我同学{janame}是日本留学生，帮我用中文介绍她",
            "合同甲方代表是{latin}，乙方代表{v}",
            "韩国客户{koname}明天到上海",
            "把{v}和{v}加到会议邀请里",
        ),
        "address": (
            "收货地址：{v}",
            "寄到{v}，谢谢",
            "我家在{v}附近有地铁吗",
            "地址{v}，门口有个保安亭",
            "请帮我把地址改成 {v}",
            "发票邮寄地址:{v}（前台代收）",
            "我住{v}，物业费怎么算",
            "快递老是送错，正确地址是【{v}】",
        ),
    },
    "en": {
        "id": (
            "my aadhaar is {aadhaar} can u check why e-KYC fails",
            "PAN: {pan}, need to file ITR before the deadline",
            "PPS number {pps} - do I need it for the Revenue form?",
            "passport no. {pp_en} expires next month, how do i renew",
            "Can you fill this visa form? Passport: {pp_en}",
            "Hi, my HKID is {hkid} and the bank app rejects it",
            "Chinese ID card {ric} for the hotel check-in",
            "Aadhaar {aadhaar} and PAN {pan} both linked?",
            "here's my PPSN:{pps}",
            "Korean RRN {rrn} — is this needed for the visa?",
        ),
        "phone": (
            "call me on {v} after 5",
            "My number is {v}.",
            "txt me {v} when ur here",
            "Phone: {v} (mobile)",
            "Reach the landlord at {v}, he's usually around",
            "pls ring {v} not the office line",
            "my numbr is {v} cant recieve sms tho",
            "Update my contact to {v}, thanks!",
            "numbers: {v}, {v}",
            "Whatsapp {v} if you can't get through",
        ),
        "email": (
            "send it to {v} pls",
            "Email: {v}",
            "my email's {v}, reply there",
            "Could you cc {v}?",
            "contact {v} for the invoice",
            "emial me at {v} thnx",
            "write to me at {v}.",
            "both {v} and {v} should get the report",
            "Draft a polite reply and sign off with ({v})",
        ),
        "card": (
            "my card number is {v} and it got declined",
            "Card: {v} exp 09/27",
            "charge {v} for the deposit",
            "Amex {amex} was billed twice",
            "is {v} a valid card? the site says no",
            "refund to card ending... actually full number {v}",
            "cards on file: {v}; {v}",
            "Visa{v}- pls remove it from my account",
        ),
        "handle": (
            "my telegram is @{tg}",
            "add me on insta: {ig}",
            "Discord {discord} if u wanna play tonight",
            "skype id:{skype}",
            "message me on Signal, username {tg}",
            "snap: {ig} lol",
            "wechat id {wx}, my colleague in Shenzhen uses it",
            "my LINE id is {line} btw",
        ),
        "plate": (
            "my car rego is {v}",
            "Reg: {v} - silver hatchback",
            "someone in {v} blocked my driveway again",
            "can u check if {v} has any parking fines",
            "plate number {v}, parked on level 2",
            "vehicle no.{v} needs a FASTag",
            "Rego {v} expired last week oops",
        ),
        "device": (
            "the MAC address is {mac}, please whitelist it",
            "IMEI: {imei} - phone was stolen yesterday",
            "device mac {mac} keeps dropping off wifi",
            "my phone's IMEI {imei} is blacklisted?",
            "whitelist these MACs: {mac}, {mac}",
            "imei no.{imei}",
        ),
        "name": (
            "{v} is joining the team on Monday",
            "Write a birthday note for {v}",
            "my manager {v} won't approve my leave",
            "Attn: {v}",
            "can you email {v} about the delay?",
            "I met {v} at the conference, how do I follow up",
            "tenants: {v} and {v}",
            "ask {zhname} in the Shanghai office, she knows",
            "my landlord {zhname} won't return the bond",
            "Our Tokyo contact is {janame}.",
            "Dear {v},",
            "signed, {v}",
        ),
        "address": (
            "ship to {v}",
            "my address is {v}",
            "Address: {v}",
            "I moved to {v} last month",
            "pls update billing address to {v}",
            "my adress is {v} pls dont send to the old one",
            "the party's at {v}, bring snacks",
            "deliver to: {v}. leave at door",
        ),
    },
    "ja": {
        "id": (
            "マイナンバーは{mynum}です。会社に提出して大丈夫？",
            "個人番号：{mynum}",
            "パスポート番号{pp_jp}、更新はいつから？",
            "旅券番号: {pp_jp} の有効期限を確認したい",
            "在留カード番号{zairyu}の更新手続きについて",
            "中国の身分証番号{ric}をホテルで書く欄がない",
            "マイナンバー {mynum} と免許証、どっちで本人確認？",
            "韓国の住民登録番号{rrn}って日本で使う？",
            "台湾の身分証{twid}で口座開設できますか",
        ),
        "phone": (
            "電話番号は{v}です",
            "携帯：{v}",
            "{v}に折り返しお願いします",
            "連絡先{v}（平日のみ）",
            "新しい番号→{v}",
            "緊急連絡先:{v}、{v}",
            "この番号{v}から着信があったけど誰？",
            "TEL {v} まで",
            "電話{v}に変わりました。",
        ),
        "email": (
            "メールは{v}までお願いします",
            "アドレス：{v}",
            "{v}に送ってください",
            "連絡先メール {v}（返信遅めです）",
            "CCに{v}を入れて",
            "請求書は「{v}」宛てで",
            "メアド{v}です！",
        ),
        "card": (
            "カード番号{v}で決済できません",
            "クレカ：{v}",
            "JCB {jcb} の明細がおかしい",
            "{v}のカード、不正利用されたかも",
            "登録カード【{v}】を削除したい",
            "カード番号は {v} です。有効期限は12/28",
            "アメックス{amex}の年会費について",
        ),
        "handle": (
            "LINEのIDは{line}です",
            "LINE ID：{line} 追加してね",
            "インスタ{ig}フォローして！",
            "X(旧Twitter)は@{tg}です",
            "ライン{line}で連絡ください",
            "Discordは{discord}、今夜やろう",
            "微信のID{wx}、中国の取引先用",
        ),
        "plate": (
            "車のナンバーは{v}です",
            "ナンバー：{v}",
            "{v}の車が駐車場に停めっぱなし",
            "月極駐車場の登録ナンバー【{v}】を変更したい",
            "ナンバー{v}、白のプリウスです",
            "当て逃げされた！相手は{v}",
        ),
        "device": (
            "MACアドレス{mac}を登録してください",
            "端末のMAC：{mac}",
            "IMEI:{imei}、SIMロック解除できる？",
            "製造番号（IMEI）は{imei}です",
            "ルーターに知らない端末{mac}がいる",
        ),
        "name": (
            "{v}さんに資料を渡しておいて",
            "担当は{v}です。",
            "{v}様宛てにお礼状を書いて",
            "昨日{v}と打ち合わせした件",
            "部長の{v}が異動になりました",
            "宛名：{v}",
            "{kata}さんって読み方合ってる？",
            "同期の{v}と{v}を誘って飲みに行く",
            "取引先の{latin}さんに連絡",
            "中国の同僚{zhname}さんへの年賀状",
            "韓国人の友達{koname}に日本語を教えてる",
        ),
        "address": (
            "住所は{v}です",
            "送り先：{v}",
            "{v}に引っ越しました",
            "配送先を{v}に変更してください",
            "現住所:{v}",
            "実家は{v}にあります",
            "住所「{v}」で合ってますか？",
        ),
    },
    "ko": {
        "id": (
            "주민등록번호 {rrn} 입력했는데 오류나요",
            "주민번호:{rrn}",
            "제 주민번호는 {rrn}이에요",
            "여권번호 {pp_kr} 만료됐는지 확인해주세요",
            "여권 번호: {pp_kr}로 항공권 예약했어요",
            "운전면허번호 {dl_kr} 갱신 언제예요?",
            "중국 신분증 {ric}으로 가입 가능한가요",
            "주민번호{rrn}로 통장 만들 수 있어요?",
        ),
        "phone": (
            "제 번호는 {v}예요",
            "연락처: {v}",
            "{v}로 연락주세요",
            "전화번호 {v} 맞나요?",
            "핸드폰 바꿨어요 {v}",
            "번호 {v}, {v} 둘 중 하나로 해주세요",
            "급하면 {v}로 문자 ㄱㄱ",
            "사무실 전화:{v}",
        ),
        "email": (
            "이메일은 {v}입니다",
            "메일 주소: {v}",
            "{v}로 보내주세요",
            "이력서는 {v}로 제출했어요",
            "참조에 {v}도 넣어줘",
            "메일({v})로 회신 부탁드려요",
        ),
        "card": (
            "카드번호 {v} 결제 취소해주세요",
            "신용카드: {v}",
            "{v} 카드 분실신고 했어요",
            "체크카드 번호는 {v}이에요",
            "이 카드{v}로 할부 돼요?",
            "아멕스 {amex} 해외결제 막혔어요",
        ),
        "handle": (
            "카톡 아이디 {kakao}로 추가해주세요",
            "카카오톡: {kakao}",
            "카톡{kakao} ㄱㄱ",
            "인스타 {ig} 팔로우 부탁해요",
            "텔레그램 @{tg}",
            "라인 아이디는 {line}이에요",
            "디코 {discord} 들어와",
        ),
        "plate": (
            "차량번호 {v} 방문 등록해주세요",
            "제 차는 {v}이에요",
            "{v} 차주분 차 좀 빼주세요",
            "차번호:{v}",
            "주차위반 딱지 {v} 조회해줘",
            "번호판 {v} 흰색 아반떼",
        ),
        "device": (
            "MAC 주소 {mac} 등록 부탁드립니다",
            "맥주소: {mac}",
            "IMEI {imei} 분실폰 조회요",
            "단말기 IMEI:{imei}",
            "공유기에 모르는 기기 {mac}가 붙어있어요",
        ),
        "name": (
            "{v} 씨한테 전달해주세요",
            "담당자는 {v}입니다",
            "{v}님 생일 축하 메시지 써줘",
            "어제 {v}이랑 회의했어요",
            "팀장님 성함이 {v}이에요",
            "받는 사람: {v}",
            "{v}, {v} 두 분 참석하세요",
            "중국 거래처 {zhname} 대표님께 보낼 메일",
            "일본 친구 {janame}한테 선물 보내려고",
            "영어 선생님 {latin}께 감사 편지",
        ),
        "address": (
            "주소: {v}",
            "배송지 {v}로 변경해주세요",
            "저희 집 주소는 {v}예요",
            "{v}로 보내주시면 됩니다",
            "이사했어요. 새 주소 {v}",
            "택배 주소가 [{v}] 맞나요?",
        ),
    },
}

NEAR_SENTENCES: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "product_code": ("型号是{v}的那款", "我买的{v}屏幕有亮点", "{v}和上一代有啥区别"),
        "version": ("系统更新到{v}后卡顿", "客户端版本{v}闪退", "固件v{v}能降级吗"),
        "brand": ("在{v}买的", "周末去{v}玩了", "{v}的售后太差了"),
        "hotline": ("客服热线{v}打不通", "打了{v}没人接", "官方电话是{v}吗"),
        "router_ip": ("后台地址{v}打不开", "浏览器输入{v}进不去", "网关是{v}"),
        "student_no": ("学号{v}选课失败", "我学号是{v}，查不到成绩", "学号：{v}"),
        "barcode": ("条码{v}扫不出来", "商品条形码是{v}", "扫码显示{v}"),
        "http_status": ("网页一直报{v}错误", "接口返回{v}", "打开显示{v}怎么回事"),
        "order_number": ("订单号{v}还没发货", "订单编号：{v}", "{v}这个单能退吗"),
        "date": ("{v}之前要交", "预约在{v}", "发票日期写的{v}"),
        "price": ("花了{v}", "原价{v}现在降了", "到手价{v}值吗"),
    },
    "en": {
        "product_code": ("model {v} is out of stock", "got the {v} yesterday", "is {v} compatible"),
        "version": ("since updating to {v} it crashes", "running v{v}", "build {v} broke login"),
        "brand": ("bought it at {v}", "we went to {v} last weekend", "{v} support is useless"),
        "hotline": ("called {v} no answer", "their helpline {v} is closed", "free call {v}"),
        "router_ip": ("can't open {v}", "the gateway is {v}", "login page at {v} times out"),
        "student_no": ("student no {v} can't enrol", "my student ID {v} isn't found", "ID:{v}"),
        "barcode": ("barcode {v} won't scan", "EAN {v} shows the wrong item", "scanned {v}"),
        "http_status": ("the site gives {v}", "got a {v} error", "API returns {v} again"),
        "order_number": ("order #{v} never arrived", "Order ID: {v}", "refund for {v}?"),
        "date": ("due {v}", "booked for {v}", "since {v} nothing works"),
        "price": ("it was {v}", "paid {v} for it", "now only {v}"),
    },
    "ja": {
        "product_code": ("型番{v}の在庫ある？", "{v}を買いました", "品番：{v}"),
        "version": ("バージョン{v}にしたら落ちる", "Ver.{v}で直った", "{v}へのアップデート"),
        "brand": ("{v}で買った", "週末は{v}に行った", "{v}のサポートに聞いた"),
        "hotline": ("フリーダイヤル{v}に電話した", "{v}がつながらない", "問い合わせ窓口{v}"),
        "router_ip": ("{v}にアクセスできない", "管理画面は{v}", "ゲートウェイ{v}"),
        "student_no": ("学籍番号{v}で登録", "学生番号：{v}", "学籍番号は{v}です"),
        "barcode": ("JANコード{v}", "バーコード{v}が読めない", "{v}のJANで検索"),
        "http_status": ("{v}エラーが出る", "ステータス{v}が返る", "ページが{v}になる"),
        "order_number": ("注文番号{v}が届かない", "注文番号：{v}", "{v}の注文をキャンセル"),
        "date": ("{v}までに提出", "予約は{v}", "{v}に届いた"),
        "price": ("{v}でした", "価格は{v}", "{v}は高い"),
    },
    "ko": {
        "product_code": ("모델명 {v} 재고 있나요", "{v} 샀어요", "품번: {v}"),
        "version": ("{v} 업데이트 후 튕겨요", "버전 {v}", "v{v}에서 고쳐졌대요"),
        "brand": ("{v}에서 샀어요", "주말에 {v} 다녀왔어요", "{v} 고객센터 별로"),
        "hotline": ("고객센터 {v} 연결이 안 돼요", "{v}로 전화했는데", "대표번호 {v}"),
        "router_ip": ("{v} 접속이 안 돼요", "공유기 관리자 {v}", "게이트웨이는 {v}"),
        "student_no": ("학번 {v} 수강신청 오류", "학번:{v}", "제 학번은 {v}"),
        "barcode": ("바코드 {v} 인식 안 됨", "상품 바코드 {v}", "{v} 바코드 조회"),
        "http_status": ("{v} 에러가 떠요", "응답 코드 {v}", "사이트가 {v}이에요"),
        "order_number": ("주문번호 {v} 배송 언제", "주문번호:{v}", "{v} 주문 취소해주세요"),
        "date": ("{v}까지 제출", "예약일 {v}", "{v}에 도착했어요"),
        "price": ("{v} 주고 샀어요", "가격 {v}", "{v}면 싼 건가요"),
    },
}
NEAR_JOINTS = {
    "zh": ("，", "。", "！", "；另外", "\n", " "),
    "en": (". ", " ", " - ", "\n", "; also ", ", "),
    "ja": ("。", "、", "！", "\n", " "),
    "ko": (". ", " ", "\n", "! ", ", 그리고 "),
}

# ------------------------------------------------------------------ word lists of this module
ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏"
    "魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵"
)
ZH_COMPOUND = ("欧阳", "司马", "诸葛", "上官", "慕容", "皇甫", "令狐", "东方", "尉迟", "公孙", "端木", "夏侯")
ZH_GIVEN = (
    "子梓浩宇欣怡俊杰思涵雨轩晨曦佳琪博文嘉婷志强建国秀英丽娟明辉海燕"
    "春梅伟静敏磊洋艳勇军娜涛斌超霞刚兰诺若汐沐锦程佑亦凡雅琳馨铭泽睿航"
)
JA_SURNAMES = (
    "佐々木 高橋 渡辺 伊藤 中村 小林 加藤 吉田 山口 松本 井上 木村 清水 山崎 池田 橋本 阿部 石川 前田 "
    "藤田 小川 岡田 後藤 長谷川 村上 近藤 石井 坂本 遠藤 青木 藤井 西村 福田 太田 三浦 藤原 岡本 松田 "
    "中川 原田 竹内 金子 和田 中山 石田 上田 森田 柴田 酒井 工藤 横山 宮崎 宮本 内田 高木 安藤 谷口 "
    "大野 丸山 今井 河野 村田 武田 上野 杉山 増田 大塚 平野 菅原 久保 松井 千葉 岩崎 桜井 野村 森"
).split()
JA_GIVEN = (
    "翔太 陽菜 蓮 結衣 大翔 美咲 悠真 湊 葵 颯太 凛 樹 結菜 蒼 芽依 律 心春 拓海 千尋 健一 裕子 "
    "直樹 恵美 和也 由美 誠 智子 浩二 真理子 大輔 彩花 隼人 沙織 亮介 愛 航平 奈々 康介 瑞希"
).split()
JA_KATA_SURNAMES = "ナカムラ コバヤシ ワタナベ イノウエ キムラ ハヤシ マツモト オガワ フジタ イシカワ".split()
JA_KATA_GIVEN = "ハルト ユイ ソウタ ミオ リク アカリ カイト ヒナタ ユウキ サクラ".split()
JA_FOREIGN = (
    "エミリー・ブラウン ジェームズ・ウィルソン グエン・ヴァン・アン マリア・ガルシア "
    "オリバー・スミス ソフィア・ミュラー ラジ・パテル アンナ・コヴァレンコ"
).split()
KO_SURNAMES = (
    "김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 전 홍 고 문 양 손 배 백 허 유 남 심 노 "
    "하 곽 성 차 주 우 구 민 진 나 엄 채 원 천 방 공 현 함 변 염 여 추 도 석 선 설 마 길 연 위 표 명"
).split()
KO_COMPOUND = ("황보", "남궁", "제갈", "선우", "독고", "사공")
KO_FIRST = (
    "민 서 지 하 도 예 수 현 준 윤 채 유 시 은 재 승 건 우 태 혜 다 소 나 주 진 성 영 경 동 상 아 가".split()
)
KO_SECOND = "준 연 우 윤 호 현 아 린 원 빈 훈 서 은 진 율 민 희 영 수 혁 석 경 별 솔 결 찬 규 람".split()

ZH_PLACES = (
    ("广东省", "深圳市", ("南山区", "福田区", "宝安区", "龙岗区")),
    ("广东省", "广州市", ("天河区", "越秀区", "海珠区", "番禺区")),
    ("浙江省", "杭州市", ("西湖区", "余杭区", "滨江区", "拱墅区")),
    ("江苏省", "南京市", ("鼓楼区", "玄武区", "江宁区")),
    ("四川省", "成都市", ("武侯区", "锦江区", "青羊区")),
    ("湖北省", "武汉市", ("洪山区", "江汉区", "武昌区")),
    ("山东省", "青岛市", ("市南区", "崂山区", "黄岛区")),
    ("福建省", "厦门市", ("思明区", "湖里区")),
    ("陕西省", "西安市", ("雁塔区", "碑林区", "未央区")),
    ("湖南省", "长沙市", ("岳麓区", "天心区", "开福区")),
    ("", "北京市", ("朝阳区", "海淀区", "东城区", "丰台区")),
    ("", "上海市", ("浦东新区", "徐汇区", "静安区", "闵行区")),
    ("", "重庆市", ("渝中区", "江北区", "沙坪坝区")),
)
ZH_ROADS = (
    "建设",
    "人民",
    "解放",
    "中山",
    "学府",
    "科苑",
    "文三",
    "长江",
    "黄河",
    "星湖",
    "滨江",
    "金桥",
    "光华",
    "梧桐",
    "望京",
)
ZH_ROAD_ENDS = ("路", "大道", "街", "东路", "北路", "南街", "西路")
ZH_ESTATES = (
    "阳光花园",
    "锦绣华庭",
    "翠湖苑",
    "保利香槟国际",
    "万科城",
    "碧桂园凤凰城",
    "和平里小区",
    "绿地世纪城",
)
TW_PLACES = (
    ("台北市", "大安區", ("忠孝東路四段", "復興南路一段", "和平東路二段")),
    ("台北市", "信義區", ("松仁路", "基隆路一段")),
    ("新北市", "板橋區", ("文化路一段", "中山路二段")),
    ("台中市", "西屯區", ("文心路三段", "台灣大道四段")),
    ("高雄市", "苓雅區", ("四維三路", "光華一路")),
)
HK_PLACES = (
    ("九龍", "旺角", "彌敦道"),
    ("九龍", "尖沙咀", "廣東道"),
    ("香港", "銅鑼灣", "軒尼詩道"),
    ("新界", "沙田", "大涌橋路"),
)
JA_PLACES = (
    ("東京都", "世田谷区", ("三軒茶屋", "北沢", "太子堂")),
    ("東京都", "港区", ("六本木", "芝浦", "高輪")),
    ("大阪府", "大阪市北区", ("梅田", "天神橋")),
    ("神奈川県", "横浜市中区", ("山下町", "本町")),
    ("愛知県", "名古屋市中村区", ("名駅", "椿町")),
    ("福岡県", "福岡市博多区", ("博多駅前", "中洲")),
    ("北海道", "札幌市中央区", ("北一条西", "南三条西")),
    ("京都府", "京都市左京区", ("下鴨泉川町", "北白川西町")),
    ("兵庫県", "神戸市中央区", ("三宮町", "元町通")),
    ("宮城県", "仙台市青葉区", ("一番町", "国分町")),
)
JA_BUILDINGS = (
    "メゾン桜ヶ丘",
    "コーポ緑",
    "パークハイツ",
    "グランドメゾン",
    "ハイツ青葉",
    "サンシャインビル",
)
JA_KANJI_NUM = "一二三四五六七八九"
KO_PLACES = (
    ("서울특별시", "강남구", ("테헤란로", "논현로", "봉은사로"), ("역삼동", "논현동")),
    ("서울특별시", "마포구", ("월드컵북로", "양화로", "와우산로"), ("서교동", "합정동")),
    ("부산광역시", "해운대구", ("해운대해변로", "센텀중앙로"), ("우동", "중동")),
    ("인천광역시", "연수구", ("송도과학로", "컨벤시아대로"), ("송도동",)),
    ("대구광역시", "수성구", ("달구벌대로", "동대구로"), ("범어동",)),
    ("경기도", "성남시 분당구", ("판교역로", "불정로"), ("정자동", "삼평동")),
    ("경기도", "수원시 영통구", ("광교로", "매영로"), ("이의동",)),
    ("대전광역시", "유성구", ("대학로", "엑스포로"), ("궁동", "봉명동")),
)
KO_SHORT = {
    "서울특별시": "서울",
    "부산광역시": "부산",
    "인천광역시": "인천",
    "대구광역시": "대구",
    "대전광역시": "대전",
}
IE_COUNTIES = ("D", "C", "G", "KY", "L", "WW", "MH")
HK_BUILDINGS = ("豐盛大廈", "康怡花園", "海景樓")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
KO_APTS = ("래미안", "자이", "힐스테이트", "푸르지오", "e편한세상")

EMAIL_DOMAINS = {
    "zh": ("qq.com", "163.com", "126.com", "foxmail.com", "sina.cn", "aliyun.com", "outlook.com"),
    "en": (
        "gmail.com",
        "xtra.co.nz",
        "eircom.net",
        "rediffmail.com",
        "yahoo.co.in",
        "outlook.ie",
        "proton.me",
    ),
    "ja": ("yahoo.co.jp", "docomo.ne.jp", "ezweb.ne.jp", "icloud.com", "gmail.com", "nifty.com"),
    "ko": ("naver.com", "daum.net", "hanmail.net", "kakao.com", "nate.com", "gmail.com"),
}
PINYIN = (
    "xiao",
    "ming",
    "wei",
    "lin",
    "yu",
    "qi",
    "zhang",
    "hao",
    "jie",
    "chen",
    "xin",
    "yue",
    "li",
    "tao",
    "fang",
)
ROMAJI = ("haruka", "kenji", "yuki", "sato", "mori", "takumi", "aoi", "hiro", "nana", "ren", "kaito", "mio")
KO_ROMAN = (
    "minjun",
    "seoyeon",
    "jiho",
    "kim",
    "park",
    "lee",
    "hyun",
    "sol",
    "yuna",
    "doyun",
    "jiwoo",
    "choi",
)

ZH_PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
PLATE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
JA_PLATE_REGIONS = (
    "品川",
    "練馬",
    "足立",
    "多摩",
    "横浜",
    "湘南",
    "名古屋",
    "なにわ",
    "神戸",
    "京都",
    "札幌",
    "福岡",
    "仙台",
    "世田谷",
    "杉並",
    "川崎",
)
JA_PLATE_KANA = "あいうえかきくけこさすせそたちつてとなにぬねのはひふほまみむめもやゆよらりるれろわ"
KO_PLATE_HANGUL = "가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주하허호바사아자배"
KO_PLATE_REGIONS = ("서울", "경기", "부산", "인천", "대구", "광주", "대전", "울산", "충북", "전남")
CN_AREAS = (
    "110105",
    "310104",
    "440305",
    "510107",
    "330106",
    "420102",
    "320102",
    "370202",
    "610113",
    "500103",
    "350203",
)
TW_LETTERS = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))

BRANDS = {
    "zh": (
        "蔚来ES6",
        "大疆Mini 4 Pro",
        "泡泡玛特",
        "喜茶",
        "瑞幸",
        "蜜雪冰城",
        "拼多多",
        "鼓浪屿",
        "虹桥站",
        "深圳湾公园",
        "海底捞",
        "比亚迪海豹",
    ),
    "en": (
        "Kiwibank",
        "Countdown",
        "Tesco",
        "Ryanair",
        "Flipkart",
        "Zomato",
        "Jollibee",
        "Shopee",
        "Air New Zealand",
        "Galway",
        "Queenstown",
        "Cebu",
    ),
    "ja": (
        "無印良品",
        "ユニクロ",
        "セブンイレブン",
        "ニトリ",
        "ドン・キホーテ",
        "楽天モバイル",
        "新宿駅",
        "伏見稲荷",
        "羽田空港",
        "ヨドバシカメラ",
    ),
    "ko": (
        "쿠팡",
        "배달의민족",
        "다이소",
        "올리브영",
        "카카오뱅크",
        "무신사",
        "당근마켓",
        "경복궁",
        "해운대",
        "김포공항",
        "롯데월드",
    ),
}


def _luhn_digit(body: str) -> str:
    """The Luhn check digit that makes `body + digit` valid (cards, IMEIs)."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def _ean_digit(body: str) -> str:
    """EAN-13 check digit of the first twelve digits."""
    total = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(body))
    return str((10 - total % 10) % 10)


_VERHOEFF_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
_VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]
_VERHOEFF_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def _verhoeff_digit(body: str) -> str:
    """Verhoeff check digit (Aadhaar)."""
    c = 0
    for i, ch in enumerate(reversed(body)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[(i + 1) % 8][int(ch)]]
    return str(_VERHOEFF_INV[c])


class _Maker:
    """Value makers, one per slot name; all randomness from one `random.Random(seed)`."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.fake: dict[str, Faker] = {}
        for i, locale in enumerate(FAKER_LOCALES):
            self.fake[locale] = Faker(locale)
            self.fake[locale].seed_instance(seed * 31 + i)

    # -- small helpers
    def digits(self, n: int, first: str = string.digits) -> str:
        return self.rng.choice(first) + "".join(self.rng.choice(string.digits) for _ in range(n - 1))

    def pick(self, *options: str) -> str:
        return self.rng.choice(options)

    def maybe_full(self, value: str, share: float = 0.15) -> str:
        return value.translate(_FULL) if self.rng.random() < share else value

    def make(self, kind: str, lang: str, slot: str) -> str:
        maker: Callable[[str], str] = getattr(self, f"{kind}_{slot}")
        return maker(lang)

    # -- id
    def id_ric(self, lang: str) -> str:
        rng = self.rng
        body = (
            rng.choice(CN_AREAS)
            + f"{rng.randint(1950, 2008)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
            + self.digits(3)
        )
        weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
        check = "10X98765432"[sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11]
        if check == "X" and rng.random() < 0.3:
            check = "x"
        value = body + check
        if rng.random() < 0.15:
            value = f"{value[:6]} {value[6:14]} {value[14:]}"
        return value

    def id_hkid(self, lang: str) -> str:
        rng = self.rng
        prefix = rng.choice(string.ascii_uppercase) + (
            rng.choice(string.ascii_uppercase) if rng.random() < 0.15 else ""
        )
        number = self.digits(6)
        values = ([36] if len(prefix) == 1 else []) + [ord(c) - 55 for c in prefix] + [int(d) for d in number]
        check = (11 - sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True)) % 11) % 11
        digit = "A" if check == 10 else str(check)
        return prefix + number + rng.choice((f"({digit})", f"({digit})", digit, f"（{digit}）"))

    def id_mo(self, lang: str) -> str:
        return self.rng.choice("157") + self.digits(6) + f"({self.digits(1)})"

    def id_twid(self, lang: str) -> str:
        letter = self.rng.choice(list(TW_LETTERS))
        body = self.rng.choice("12") + self.digits(7)
        code = TW_LETTERS[letter]
        total = (
            code // 10 + (code % 10) * 9 + sum(int(d) * w for d, w in zip(body, range(8, 0, -1), strict=True))
        )
        return letter + body + str((10 - total % 10) % 10)

    def id_pp_cn(self, lang: str) -> str:
        return self.rng.choice("EG") + self.digits(8)

    def id_rrn(self, lang: str) -> str:
        rng = self.rng
        year = rng.randint(1950, 2012)
        gender = rng.choice("12" if year < 2000 else "34")
        birth = f"{year % 100:02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
        body = f"{birth}{gender}{rng.randint(0, 95):02d}{self.digits(3)}"  # place of birth ≤ 95
        weights = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
        check = (11 - sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11) % 10
        return f"{body[:6]}{rng.choice(('-', '-', '-', ''))}{body[6:]}{check}"

    def id_pp_kr(self, lang: str) -> str:
        if self.rng.random() < 0.4:  # the 2021 format: M + 3 digits + letter + 4 digits
            return "M" + self.digits(3) + self.rng.choice("ABCDEFGHJK") + self.digits(4)
        return self.rng.choice("MSR") + self.digits(8)

    def id_dl_kr(self, lang: str) -> str:
        return f"{self.rng.randint(11, 28)}-{self.digits(2)}-{self.digits(6)}-{self.digits(2)}"

    def id_mynum(self, lang: str) -> str:
        body = self.digits(11, "123456789")
        total = sum(int(body[11 - n]) * (n + 1 if n <= 6 else n - 5) for n in range(1, 12))
        check = 0 if total % 11 <= 1 else 11 - total % 11
        value = body + str(check)
        return self.pick(
            value, f"{value[:4]} {value[4:8]} {value[8:]}", f"{value[:4]}-{value[4:8]}-{value[8:]}"
        )

    def id_pp_jp(self, lang: str) -> str:
        return self.pick("TK", "TR", "TZ", "MU", "RE") + self.digits(7)

    def id_zairyu(self, lang: str) -> str:
        letters = string.ascii_uppercase
        rng = self.rng
        return (
            rng.choice(letters)
            + rng.choice(letters)
            + self.digits(8)
            + rng.choice(letters)
            + rng.choice(letters)
        )

    def id_aadhaar(self, lang: str) -> str:
        body = self.digits(11, "23456789")
        value = body + _verhoeff_digit(body)
        return self.pick(
            value, f"{value[:4]} {value[4:8]} {value[8:]}", f"{value[:4]}-{value[4:8]}-{value[8:]}"
        )

    def id_pan(self, lang: str) -> str:
        letters = string.ascii_uppercase
        rng = self.rng
        head = "".join(rng.choice(letters) for _ in range(3)) + rng.choice("PCHFAT") + rng.choice(letters)
        return head + self.digits(4) + rng.choice(letters)

    def id_pps(self, lang: str) -> str:
        body = self.digits(7)
        second = "" if self.rng.random() < 0.7 else "A"  # the 2013 form: its second letter weighs 9
        total = sum(int(d) * w for d, w in zip(body, range(8, 1, -1), strict=True)) + (9 if second else 0)
        return body + "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] + second

    def id_pp_en(self, lang: str) -> str:
        rng = self.rng
        upper = string.ascii_uppercase
        form = rng.randrange(4)
        if form == 0:  # New Zealand / Canada: two letters and six digits
            return rng.choice(upper) + rng.choice(upper) + self.digits(6)
        if form == 1:  # Australia: a letter and seven digits
            return rng.choice("NPRE") + self.digits(7)
        if form == 2:  # India: a letter and seven digits, first digit not zero
            return rng.choice(upper) + self.digits(7, "123456789")
        return rng.choice("PT") + self.digits(7) + rng.choice(upper)  # Ireland / Philippines style

    # -- phone
    def _cn_mobile(self) -> str:
        return self.pick("13", "15", "18", "17", "19", "16", "14") + self.digits(9)

    def phone_v(self, lang: str) -> str:
        rng = self.rng
        if lang == "zh":
            form = rng.randrange(13)
            m = self._cn_mobile()
            if form == 0:
                return m
            if form == 1:
                return f"{m[:3]} {m[3:7]} {m[7:]}"
            if form == 2:
                return f"{m[:3]}-{m[3:7]}-{m[7:]}"
            if form == 3:
                return f"{m[:3]}.{m[3:7]}.{m[7:]}"
            if form == 4:
                return f"+86 {m[:3]}-{m[3:7]}-{m[7:]}"
            if form == 5:
                return self.pick("0086", "+86", "(+86)", "0086 ") + m
            if form == 6:
                return m.translate(_FULL)
            if form == 7:
                spoken = "".join(_CN_DIGITS[int(d)] for d in m)
                return spoken.replace("一", "幺") if rng.random() < 0.5 else spoken
            if form == 8:
                area = self.pick("010", "021", "020", "0755", "0571", "028", "027")
                return rng.choice(
                    (
                        f"{area}-{self.digits(8, '2345678')}",
                        f"({area}){self.digits(4, '2345678')}-{self.digits(4)}",
                        f"{area} {self.digits(4, '2345678')} {self.digits(4)}",
                    )
                )
            if form == 9:
                return f"+852 {self.digits(4, '569')} {self.digits(4)}"
            if form == 10:
                local = "09" + self.digits(8)
                return self.pick(
                    f"{local[:4]}-{local[4:7]}-{local[7:]}", f"+886 {local[1:4]} {local[4:7]} {local[7:]}"
                )
            if form == 11:
                return f"{m[:3]} {m[3:7]}-{m[7:]}"
            return f"{m[:7]} {m[7:]}"
        if lang == "en":
            form = rng.randrange(7)
            if form == 0:
                return self.fake["en_NZ"].phone_number()
            if form == 1:
                return self.fake["en_IN"].phone_number()
            if form == 2:
                return self.pick(
                    f"08{rng.choice('35679')} {self.digits(3)} {self.digits(4)}",
                    f"+353 8{rng.choice('35679')} {self.digits(3)} {self.digits(4)}",
                    f"(01) {self.digits(3, '23456789')} {self.digits(4)}",
                )
            if form == 3:
                return self.pick(
                    f"+91 {self.digits(5, '6789')} {self.digits(5)}",
                    f"{self.digits(5, '6789')}-{self.digits(5)}",
                )
            if form == 4:
                return self.pick(
                    f"+63 9{self.digits(2)} {self.digits(3)} {self.digits(4)}",
                    f"09{self.digits(2)}-{self.digits(3)}-{self.digits(4)}",
                )
            if form == 5:
                return self.pick(
                    f"+1 ({self.digits(3, '2345678')}) {self.digits(3, '2345678')}-{self.digits(4)}",
                    f"+61 4{self.digits(2)} {self.digits(3)} {self.digits(3)}",
                )
            m = self._cn_mobile()
            return f"+86 {m}"
        if lang == "ja":
            form = rng.randrange(6)
            mobile = f"0{rng.choice('789')}0-{self.digits(4, '123456789')}-{self.digits(4)}"
            if form == 0:
                return self.fake["ja_JP"].phone_number()
            if form == 1:
                return mobile
            if form == 2:
                return mobile.replace("-", "")
            if form == 3:
                return mobile.translate(_FULL)
            if form == 4:
                return f"+81 {mobile[1:]}" if rng.random() < 0.5 else f"+81-{mobile[1:]}"
            return self.pick(
                f"03-{self.digits(4, '3456')}-{self.digits(4)}",
                f"06-{self.digits(4, '6')}-{self.digits(4)}",
                f"045({self.digits(3, '2345')}){self.digits(4)}",
                f"092-{self.digits(3, '47')}-{self.digits(4)}",
            )
        form = rng.randrange(7)
        mobile = f"010-{self.digits(4, '23456789')}-{self.digits(4)}"
        if form == 0:
            return mobile
        if form == 1:
            return mobile.replace("-", " ")
        if form == 2:
            return mobile.replace("-", "")
        if form == 3:
            return mobile.replace("-", ".")
        if form == 4:
            return self.pick("+82 ", "+82-", "+82 (0)") + mobile[1:]
        if form == 5:
            return self.pick(
                f"02-{self.digits(3, '2345678')}-{self.digits(4)}",
                f"02-{self.digits(4, '2345678')}-{self.digits(4)}",
                f"031-{self.digits(3, '2345678')}-{self.digits(4)}",
                f"051-{self.digits(3, '7')}-{self.digits(4)}",
            )
        while True:
            number = self.fake["ko_KR"].phone_number()
            if not number.startswith(("15", "16", "18", "080")):
                return number

    # -- email
    def email_v(self, lang: str) -> str:
        rng = self.rng
        if lang == "en" and rng.random() < 0.4:
            local = self.fake[rng.choice(("en_NZ", "en_IN", "en_IE", "en_PH"))].user_name()
        else:
            words = {"zh": PINYIN, "ja": ROMAJI, "ko": KO_ROMAN, "en": ROMAJI + KO_ROMAN}[lang]
            local = rng.choice(words) + rng.choice(("", ".", "_")) + rng.choice(words)
            if rng.random() < 0.6:
                local += str(rng.randint(1, 2009))
        if lang == "zh" and rng.random() < 0.35:
            local = self.digits(rng.randint(6, 10), "123456789")  # a QQ mailbox
            domain = "qq.com"
        else:
            domain = rng.choice(EMAIL_DOMAINS[lang])
        name, _, tld = domain.partition(".")
        spelt = rng.random()
        if spelt < 0.6:
            return f"{local}@{domain}"
        if lang == "zh":
            return rng.choice(
                (
                    f"{local}艾特{name}点{tld}",
                    f"{local}#{domain}",
                    f"{local}[at]{domain}",
                    f"{local} at {name} dot {tld}",
                    f"{local}＠{domain}",
                )
            )
        if lang == "en":
            return rng.choice(
                (
                    f"{local} at {name} dot {tld}",
                    f"{local}[at]{name}[dot]{tld}",
                    f"{local}(at){domain}",
                    f"{local} AT {domain}",
                )
            )
        if lang == "ja":
            return rng.choice(
                (
                    f"{local}＠{domain}",
                    f"{local}アットマーク{domain}",
                    f"{local}(at){domain}",
                    f"{local}[at]{domain}",
                )
            )
        return rng.choice(
            (f"{local}골뱅이{domain}", f"{local}(at){domain}", f"{local} at {domain}", f"{local}[at]{domain}")
        )

    # -- card
    def _group(self, number: str, sizes: tuple[int, ...]) -> str:
        parts, at = [], 0
        for size in sizes:
            parts.append(number[at : at + size])
            at += size
        return self.pick(" ", "-", " ", "").join(parts) if self.rng.random() < 0.7 else number

    def card_v(self, lang: str) -> str:
        rng = self.rng
        kind = rng.randrange(5)
        if kind == 3:
            return self.card_up(lang)
        if kind == 4 and lang == "ja":
            return self.card_jcb(lang)
        prefix = rng.choice(("4", "51", "52", "53", "54", "55", "2221"))
        body = prefix + self.digits(15 - len(prefix))
        value = self._group(body + _luhn_digit(body), (4, 4, 4, 4))
        return self.maybe_full(value, 0.15 if lang == "ja" else 0.03)

    def card_amex(self, lang: str) -> str:
        body = self.pick("34", "37") + self.digits(12)
        return self._group(body + _luhn_digit(body), (4, 6, 5))

    def card_up(self, lang: str) -> str:
        length = self.pick("16", "16", "19")
        body = self.pick("622202", "621700", "622848", "625807", "623668") + self.digits(int(length) - 7)
        number = body + _luhn_digit(body)
        return self._group(number, (4, 4, 4, 4, 3) if length == "19" else (4, 4, 4, 4))

    def card_jcb(self, lang: str) -> str:
        body = f"35{self.rng.randint(28, 89)}" + self.digits(11)
        return self._group(body + _luhn_digit(body), (4, 4, 4, 4))

    # -- handle
    def _word_id(self, low: int, high: int, alphabet: str) -> str:
        rng = self.rng
        length = rng.randint(low, high)
        while True:
            value = rng.choice(string.ascii_letters) + "".join(
                rng.choice(alphabet) for _ in range(length - 1)
            )
            if value[-1] not in "._-" and (any(c.isdigit() for c in value) or rng.random() < 0.3):
                return value

    def handle_wx(self, lang: str) -> str:
        if self.rng.random() < 0.25:
            return "wxid_" + "".join(
                self.rng.choice(string.ascii_lowercase + string.digits) for _ in range(14)
            )
        return self._word_id(6, 18, string.ascii_letters + string.digits + "_-")

    def handle_qq(self, lang: str) -> str:
        return self.digits(self.rng.randint(6, 11), "123456789")

    def handle_line(self, lang: str) -> str:
        return self._word_id(5, 16, string.ascii_lowercase + string.digits + "._")

    def handle_kakao(self, lang: str) -> str:
        return self._word_id(5, 14, string.ascii_lowercase + string.digits + "._")

    def handle_tg(self, lang: str) -> str:
        return self._word_id(6, 20, string.ascii_letters + string.digits + "_")

    def handle_ig(self, lang: str) -> str:
        return self._word_id(5, 18, string.ascii_lowercase + string.digits + "._")

    def handle_discord(self, lang: str) -> str:
        return self._word_id(5, 16, string.ascii_lowercase + string.digits + "_.")

    def handle_skype(self, lang: str) -> str:
        if self.rng.random() < 0.5:
            return "live:.cid." + "".join(self.rng.choice("0123456789abcdef") for _ in range(16))
        return self._word_id(6, 20, string.ascii_lowercase + string.digits + "._")

    # -- plate
    def plate_v(self, lang: str) -> str:
        rng = self.rng
        if lang == "zh":
            form = rng.randrange(6)
            head = rng.choice(ZH_PROVINCES) + rng.choice(PLATE_LETTERS)
            sep = self.pick("", "·", " ", "-", "")
            if form <= 1:
                tail = self.digits(5) if form == 0 else self.digits(4) + rng.choice(PLATE_LETTERS)
                return head + sep + tail
            if form == 2:
                tail = list(self.digits(5))
                tail[rng.randrange(5)] = rng.choice(PLATE_LETTERS)
                return head + sep + "".join(tail)
            if form == 3:  # new energy, small car
                return (
                    head + sep + rng.choice("DF") + rng.choice(PLATE_LETTERS + string.digits) + self.digits(4)
                )
            if form == 4:  # new energy, large car
                return head + sep + self.digits(5) + rng.choice("DF")
            return rng.choice(
                (
                    f"{rng.choice(PLATE_LETTERS)}{rng.choice(PLATE_LETTERS)} {self.digits(4, '123456789')}",
                    f"{''.join(rng.choice(string.ascii_uppercase) for _ in range(3))}-{self.digits(4)}",
                )
            )
        if lang == "en":
            form = rng.randrange(5)
            if form == 0:
                return self.fake["en_NZ"].license_plate()
            if form == 1:
                serial = self.digits(rng.randint(3, 5), "123456789")
                return f"{rng.randint(13, 24)}{rng.choice('12')}-{rng.choice(IE_COUNTIES)}-{serial}"
            if form == 2:
                state = rng.choice(("MH", "KA", "DL", "TN", "KL", "GJ"))
                letters = "".join(rng.choice(PLATE_LETTERS) for _ in range(2))
                spaced = rng.random() < 0.6
                return (
                    f"{state} {self.digits(2)} {letters} {self.digits(4)}"
                    if spaced
                    else f"{state}{self.digits(2)}{letters}{self.digits(4)}"
                )
            if form == 3:
                return self.fake["en_PH"].license_plate()
            return "".join(rng.choice(PLATE_LETTERS) for _ in range(3)) + " " + self.digits(4, "123456789")
        if lang == "ja":
            if rng.random() < 0.3:
                return self.fake["ja_JP"].license_plate()
            number = self.digits(4, "123456789")
            short = self.digits(3, "123456789"), self.digits(2, "123456789")
            tail = rng.choice((f"{number[:2]}-{number[2:]}", f"・{short[0]}", f"・・{short[1]}"))
            klass = rng.choice(("300", "500", "330", "580", "301", "50"))
            value = rng.choice(
                (
                    f"{rng.choice(JA_PLATE_REGIONS)} {klass} {rng.choice(JA_PLATE_KANA)} {tail}",
                    f"{rng.choice(JA_PLATE_REGIONS)}{klass}{rng.choice(JA_PLATE_KANA)}{tail}",
                )
            )
            return self.maybe_full(value, 0.2)
        if rng.random() < 0.25:
            return self.fake["ko_KR"].license_plate()
        front = self.digits(rng.choice((2, 3)), "123456789")
        core = rng.choice(
            (
                f"{front}{rng.choice(KO_PLATE_HANGUL)}{self.digits(4, '123456789')}",
                f"{front}{rng.choice(KO_PLATE_HANGUL)} {self.digits(4, '123456789')}",
            )
        )
        if rng.random() < 0.3:
            return rng.choice(KO_PLATE_REGIONS) + rng.choice(("", " ")) + core
        return core

    # -- device
    def device_mac(self, lang: str) -> str:
        rng = self.rng
        octets = [f"{rng.randrange(256):02x}" for _ in range(6)]
        octets[0] = f"{int(octets[0], 16) & 0xFC:02x}"
        form = rng.randrange(5)
        if form == 0:
            return ":".join(octets)
        if form == 1:
            return ":".join(octets).upper()
        if form == 2:
            return "-".join(octets).upper() if rng.random() < 0.6 else "-".join(octets)
        if form == 3:
            joined = "".join(octets)
            return f"{joined[:4]}.{joined[4:8]}.{joined[8:]}"
        return "".join(octets).upper()

    def device_imei(self, lang: str) -> str:
        body = self.pick("35", "86", "35", "01", "99") + self.digits(12)
        value = body + _luhn_digit(body)
        return self.pick(
            value,
            value,
            f"{value[:2]}-{value[2:8]}-{value[8:14]}-{value[14]}",
            f"{value[:2]} {value[2:8]} {value[8:14]} {value[14]}",
        )

    # -- name
    def _zh_name(self) -> str:
        rng = self.rng
        surname = rng.choice(ZH_COMPOUND) if rng.random() < 0.15 else rng.choice(ZH_SURNAMES)
        return surname + "".join(rng.choice(ZH_GIVEN) for _ in range(rng.choice((1, 2, 2))))

    def _ja_name(self) -> str:
        rng = self.rng
        return rng.choice(JA_SURNAMES) + rng.choice(("", " ", "\u3000", "")) + rng.choice(JA_GIVEN)

    def _ko_name(self) -> str:
        rng = self.rng
        if rng.random() < 0.08:
            return rng.choice(KO_COMPOUND) + rng.choice(KO_FIRST) + rng.choice(KO_SECOND)
        given = rng.choice(KO_FIRST) + (rng.choice(KO_SECOND) if rng.random() < 0.9 else "")
        return rng.choice(KO_SURNAMES) + given

    def _latin_name(self) -> str:
        fake = self.fake[self.rng.choice(("en_NZ", "en_IN", "en_IE", "en_PH"))]
        return f"{fake.first_name()} {fake.last_name()}"

    def name_v(self, lang: str) -> str:
        return {"zh": self._zh_name, "en": self._latin_name, "ja": self._ja_name, "ko": self._ko_name}[lang]()

    def name_latin(self, lang: str) -> str:
        return self._latin_name()

    def name_zhname(self, lang: str) -> str:
        return self._zh_name()

    def name_janame(self, lang: str) -> str:
        return self._ja_name()

    def name_koname(self, lang: str) -> str:
        return self._ko_name()

    def name_kata(self, lang: str) -> str:
        rng = self.rng
        if rng.random() < 0.4:
            return rng.choice(JA_FOREIGN)
        return rng.choice(JA_KATA_SURNAMES) + rng.choice((" ", "\u3000", "")) + rng.choice(JA_KATA_GIVEN)

    # -- address
    def address_v(self, lang: str) -> str:
        return getattr(self, f"_address_{lang}")()

    def _address_zh(self) -> str:
        rng = self.rng
        form = rng.randrange(5)
        if form == 3:
            city, district, roads = rng.choice(TW_PLACES)
            lane = (
                f"{rng.randint(2, 300)}巷" + (f"{rng.randint(1, 20)}弄" if rng.random() < 0.5 else "")
                if rng.random() < 0.6
                else ""
            )
            return f"{city}{district}{rng.choice(roads)}{lane}{rng.randint(1, 300)}號{rng.randint(2, 20)}樓"
        if form == 4:
            area, district, road = rng.choice(HK_PLACES)
            flat = f"{rng.randint(2, 40)}樓{rng.choice('ABCDEFGH')}室"
            return f"{area}{district}{road}{rng.randint(1, 700)}號{rng.choice(HK_BUILDINGS)}{flat}"
        province, city, districts = rng.choice(ZH_PLACES)
        head = (province if rng.random() < 0.7 else "") + city + rng.choice(districts)
        road = rng.choice(ZH_ROADS) + rng.choice(ZH_ROAD_ENDS) + f"{rng.randint(1, 999)}号"
        if form == 0:
            tail = f"{rng.choice(ZH_ESTATES)}{rng.randint(1, 30)}栋{rng.randint(1, 4)}单元"
            tail += f"{rng.randint(1, 33)}{rng.randint(1, 8):02d}室"
        elif form == 1:
            tail = f"{rng.randint(1, 20)}号楼{rng.randint(1, 25)}0{rng.randint(1, 6)}"
        else:
            tail = f"{rng.choice('ABCD')}座{rng.randint(2, 40)}{rng.randint(1, 20):02d}"
        sep = " " if rng.random() < 0.15 else ""
        return head + sep + road + tail

    def _address_en(self) -> str:
        rng = self.rng
        form = rng.randrange(5)
        if form == 0:
            fake = self.fake["en_NZ"]
            return f"{fake.street_address()}, {fake.city()} {fake.postcode()}".replace("\n", ", ")
        if form == 1:
            return self.fake["en_IN"].address().replace("\n", ", ")
        if form == 2:
            return self.fake["en_PH"].address().replace("\n", ", ")
        if form == 3:
            return self.fake["en_IE"].address().replace("\n", ", ")
        street = rng.choice(
            (
                "Griffith Avenue",
                "Harcourt Road",
                "Ponsonby Road",
                "Anna Salai",
                "Katipunan Avenue",
                "Dominion Road",
                "Lower Baggot Street",
            )
        )
        area = rng.choice(
            (
                "Drumcondra, Dublin 9",
                "Ranelagh, Dublin 6",
                "Grey Lynn, Auckland 1021",
                "Mylapore, Chennai 600004",
                "Quezon City 1108",
                "Mount Eden, Auckland 1024",
            )
        )
        flat = (
            rng.choice(("Apt ", "Flat ", "Unit ")) + str(rng.randint(1, 40)) + ", "
            if rng.random() < 0.5
            else ""
        )
        return f"{flat}{rng.randint(1, 300)} {street}, {area}"

    def _address_ja(self) -> str:
        rng = self.rng
        if rng.random() < 0.25:
            return self.fake["ja_JP"].address().replace("\n", " ")
        pref, city, towns = rng.choice(JA_PLACES)
        town = rng.choice(towns)
        chome, ban, go = rng.randint(1, 9), rng.randint(1, 30), rng.randint(1, 25)
        form = rng.randrange(4)
        if form == 0:
            rest = f"{JA_KANJI_NUM[chome - 1]}丁目{ban}番{go}号"
        elif form == 1:
            rest = f"{chome}-{ban}-{go}"
        elif form == 2:
            rest = f"{chome}丁目{ban}-{go}"
        else:
            rest = f"{rng.randint(1, 999)}番地" + (f"{rng.randint(1, 9)}" if rng.random() < 0.3 else "")
        value = (pref if rng.random() < 0.8 else "") + city + town + rest
        if rng.random() < 0.4:
            value += (
                rng.choice(("", " "))
                + f"{rng.choice(JA_BUILDINGS)}{rng.randint(1, 12)}0{rng.randint(1, 9)}"
                + rng.choice(("", "号室"))
            )
        if rng.random() < 0.25:
            value = f"〒{self.digits(3)}-{self.digits(4)} " + value
        return self.maybe_full(value, 0.1)

    def _address_ko(self) -> str:
        rng = self.rng
        if rng.random() < 0.25:
            return self.fake["ko_KR"].address().replace("\n", " ")
        city, gu, roads, dongs = rng.choice(KO_PLACES)
        city = KO_SHORT.get(city, city) if rng.random() < 0.3 else city
        if rng.random() < 0.3:  # the old lot-number form
            return f"{city} {gu} {rng.choice(dongs)} {rng.randint(1, 999)}-{rng.randint(1, 200)}번지"
        road = rng.choice(roads) + (f"{rng.randint(1, 60)}길" if rng.random() < 0.4 else "")
        value = f"{city} {gu} {road} {rng.randint(1, 400)}"
        if rng.random() < 0.5:
            value += f", {rng.choice(KO_APTS)} {rng.randint(101, 115)}동 "
            value += f"{rng.randint(1, 25)}0{rng.randint(1, 4)}호"
        return value

    # -- near-misses
    def near(self, kind: str, lang: str) -> str:
        rng = self.rng
        if kind == "product_code":
            region = {"zh": "CH/A", "en": rng.choice(("X/A", "ZP/A", "HN/A")), "ja": "J/A", "ko": "KH/A"}[
                lang
            ]
            return rng.choice(
                (
                    "M"
                    + "".join(rng.choice(PLATE_LETTERS + string.digits) for _ in range(3))
                    + f"{rng.randint(2, 4)}{region}",
                    f"WH-{rng.choice(('1000', '700', 'CH5'))}{rng.choice(('XM5', 'N', 'XM4', '20'))}",
                    f"SM-{rng.choice('SAFGN')}{self.digits(3)}{rng.choice(('0', 'N', 'B', 'U'))}",
                    f"{rng.choice(('NOH', 'ALN', 'BRA', 'CET'))}-{rng.choice(('AN00', 'AL10', 'AL00'))}",
                    f"{rng.choice(('KJ', 'XR', 'TH'))}-{rng.randrange(43, 86, 10)}"
                    + rng.choice(("X85L", "A80K", "LX900")),
                    f"TL-{rng.choice(('WDR', 'XDR', 'AX'))}{self.digits(4, '123456789')}",
                )
            )
        if kind == "version":
            parts = [str(rng.randint(1, 19)), str(rng.randint(0, 12)), str(rng.randint(0, 60))]
            if rng.random() < 0.5:
                parts.append(str(rng.randint(1, 9999)))
            return ".".join(parts)
        if kind == "brand":
            return rng.choice(BRANDS[lang])
        if kind == "hotline":
            if lang == "zh":
                return rng.choice(
                    (
                        f"400-{self.digits(3)}-{self.digits(4)}",
                        f"400 {self.digits(3)} {self.digits(4)}",
                        f"800-{self.digits(3)}-{self.digits(4)}",
                        f"95{self.digits(3)}",
                        rng.choice(("12306", "12345", "10086", "10010", "95588")),
                    )
                )
            if lang == "en":
                return rng.choice(
                    (
                        f"1-800-{self.digits(3, '2345678')}-{self.digits(4)}",
                        f"1800 {self.digits(3)} {self.digits(3)}",
                        f"0800 {self.digits(3)} {self.digits(3)}",
                        f"1800-{self.digits(3)}-{self.digits(4)}",
                    )
                )
            if lang == "ja":
                return rng.choice(
                    (
                        f"0120-{self.digits(3)}-{self.digits(3)}",
                        f"0120-{self.digits(2)}-{self.digits(4)}",
                        f"0570-{self.digits(3)}-{self.digits(3)}",
                        f"0800-{self.digits(3)}-{self.digits(4)}",
                    )
                )
            return f"{rng.choice(('1588', '1577', '1544', '1661', '1899', '1600'))}-{self.digits(4)}"
        if kind == "router_ip":
            return rng.choice(
                (
                    f"192.168.{rng.choice((0, 1, 2, 3, 8, 10, 31, 50, 100))}.{rng.choice((1, 1, 254, 253))}",
                    f"10.{rng.randint(0, 10)}.{rng.randint(0, 10)}.1",
                    f"172.{rng.choice((16, 17, 20, 31))}.{rng.randint(0, 10)}.1",
                )
            )
        if kind == "student_no":
            year = rng.randint(2019, 2025)
            return {
                "zh": f"{year}{self.digits(rng.choice((6, 8)))}",
                "en": rng.choice(
                    (f"S{self.digits(7)}", f"{year % 100}{self.digits(6)}", f"C00{self.digits(6)}")
                ),
                "ja": rng.choice(
                    (
                        f"{year % 100}{rng.choice('ABCDE')}{self.digits(5)}",
                        f"{rng.choice('ABCM')}{year % 100}-{self.digits(4)}",
                    )
                ),
                "ko": rng.choice((f"{year}{self.digits(6)}", f"{year}-{self.digits(5)}")),
            }[lang]
        if kind == "barcode":
            prefix = {
                "zh": f"69{rng.randint(0, 9)}",
                "en": rng.choice(("539", "94" + str(rng.randint(0, 9)), "890", "480")),
                "ja": rng.choice(("45", "49")) + str(rng.randint(0, 9)),
                "ko": "880",
            }[lang]
            body = prefix + self.digits(9)
            return body + _ean_digit(body)
        if kind == "http_status":
            return rng.choice(
                (
                    "400",
                    "401",
                    "403",
                    "404",
                    "405",
                    "408",
                    "409",
                    "410",
                    "413",
                    "418",
                    "422",
                    "429",
                    "500",
                    "501",
                    "502",
                    "503",
                    "504",
                )
            )
        if kind == "order_number":
            day = f"{rng.randint(2022, 2025)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
            return {
                "zh": rng.choice((self.digits(19, "23"), self.digits(12, "23"), f"DD{day}{self.digits(6)}")),
                "en": rng.choice(
                    (
                        f"{self.digits(3, '12')}-{self.digits(7)}-{self.digits(7)}",
                        f"OD{self.digits(18)}",
                        f"{day[2:]}{''.join(rng.choice(PLATE_LETTERS) for _ in range(4))}{self.digits(4)}",
                    )
                ),
                "ja": rng.choice(
                    (
                        f"{self.digits(3, '2')}-{self.digits(7)}-{self.digits(7)}",
                        f"{self.digits(6)}-{day}-{self.digits(10)}",
                        f"m{self.digits(11)}",
                    )
                ),
                "ko": rng.choice(
                    (f"{day}-{self.digits(7)}", self.digits(13, "12"), f"{day}{self.digits(6)}")
                ),
            }[lang]
        if kind == "date":
            y, m, d = rng.randint(2019, 2027), rng.randint(1, 12), rng.randint(1, 28)
            return {
                "zh": rng.choice((f"{y}-{m:02d}-{d:02d}", f"{y}年{m}月{d}日", f"{y}.{m}.{d}", f"{m}月{d}号")),
                "en": rng.choice(
                    (
                        f"{d:02d}/{m:02d}/{y}",
                        f"{d} {MONTHS[m - 1]} {y}",
                        f"{y}-{m:02d}-{d:02d}",
                    )
                ),
                "ja": rng.choice(
                    (f"{y}年{m}月{d}日", f"令和{y - 2018}年{m}月{d}日", f"{y}/{m:02d}/{d:02d}", f"{m}月{d}日")
                ),
                "ko": rng.choice((f"{y}년 {m}월 {d}일", f"{y}.{m:02d}.{d:02d}", f"{y % 100}.{m}.{d}")),
            }[lang]
        amount = rng.randint(3, 99999)
        return {
            "zh": rng.choice(
                (f"¥{amount:,}", f"{amount}元", f"￥{amount}.{rng.randint(0, 99):02d}", f"{amount}块")
            ),
            "en": rng.choice(
                (
                    f"NZ${amount}",
                    f"€{amount:,}",
                    f"₹{amount:,}",
                    f"₱{amount:,}.00",
                    f"${amount}.{rng.randint(0, 99):02d}",
                )
            ),
            "ja": rng.choice((f"{amount:,}円", f"税込{amount:,}円", f"¥{amount:,}")),
            "ko": rng.choice((f"{amount:,}원", f"₩{amount:,}", f"{rng.randint(1, 99)}만원")),
        }[lang]


_SLOT = re.compile(r"\{(\w+)\}")


def _fill(template: str, value: Callable[[str], str]) -> tuple[str, list[tuple[int, int]]]:
    """The template with each slot filled by `value(slot name)`, and the span of each filled slot."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    at = length = 0
    for slot in _SLOT.finditer(template):
        literal = template[at : slot.start()]
        filled = value(slot.group(1))
        out += [literal, filled]
        length += len(literal)
        spans.append((length, length + len(filled)))
        length += len(filled)
        at = slot.end()
    return "".join(out) + template[at:], spans


def turns(n: int, seed: int = 0, near_share: float = 0.6) -> list[HeldTurn]:
    """`n` user turns, languages and kinds in turn; `near_share` of them also hold a near-miss."""
    make = _Maker(seed)
    rng = make.rng
    kinds = STRICT_KINDS + LOOSE_KINDS
    out: list[HeldTurn] = []
    for i in range(n):
        lang = LANGS[i % len(LANGS)]
        kind = kinds[(i // len(LANGS)) % len(kinds)]
        text, spans = _fill(rng.choice(TEMPLATES[lang][kind]), partial(make.make, kind, lang))
        turn = HeldTurn(text, lang=lang, pii=[(s, e, kind) for s, e in spans])
        if rng.random() < near_share:
            near_kind = NEAR_KINDS[(i // len(LANGS)) % len(NEAR_KINDS)]
            sentence, ((s, e),) = _fill(
                rng.choice(NEAR_SENTENCES[lang][near_kind]), {"v": make.near(near_kind, lang)}.__getitem__
            )
            joint = rng.choice(NEAR_JOINTS[lang])
            if rng.random() < 0.5:
                shift = len(turn.text) + len(joint)
                turn.text += joint + sentence
                turn.near.append((s + shift, e + shift, near_kind))
            else:
                shift = len(sentence) + len(joint)
                turn.text = sentence + joint + turn.text
                turn.pii = [(a + shift, b + shift, k) for a, b, k in turn.pii]
                turn.near.append((s, e, near_kind))
        out.append(turn)
    return out
