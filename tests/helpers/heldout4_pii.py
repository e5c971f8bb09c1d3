"""The fourth held-out PII corpus (heldout4): written apart from the redactor and from the other
corpora, and never used to tune the redactor. Frozen: change a template or a maker here only to
fix a wrong label, never because the redactor misses it.

How it was made: every sentence template (at least 75 per language, zh / en / ja / ko) was
written for this module alone, in the register of people typing to a chat assistant (complaints,
forms to fill, letters to write, "is this valid?", pasted form fields, multi-line pastes, values
glued to CJK text, cues after the value or on the line before, no cue at all, mixed languages,
typos in cues, emoji). Values come from:
- mimesis (not Faker, which made the earlier corpora) in the locales de, es, pt-br, it, nl, pl,
  sv, tr, cs (Latin names, user names, street and city names) and zh / ja / ko (given names);
- hand-written lists here for Chinese, Japanese and Korean names (rare and compound surnames,
  katakana / hangul renderings of foreign names, lower-case romanisations) and addresses
  (mainland, Hong Kong, Taiwan, Japan, Korea, CJK addresses written in English, Germany, Spain,
  Brazil, Turkey, Poland, Italy);
- makers of our own with real check digits: mainland / Taiwan / Hong Kong / Korean / Japanese /
  Singapore / Spanish / Brazilian / Polish / Turkish / Indian (Verhoeff) / Australian /
  Canadian ids, passports and driving licences; phones of 24 regions checked with
  `phonenumbers.is_valid_number`; Luhn-valid cards of eight schemes; IMEIs; Singapore plates with
  their check letter; EAN-13 / UPC-A barcodes (near-misses) with theirs.

How it differs from the earlier held-out corpora: other generator (mimesis) and other locales,
other templates, more forms (CJK numerals in Chinese, Korean and Japanese, `00` prefixes,
extensions, obfuscated e-mails such as `小老鼠` / `アットマーク` / `골뱅이` / `。com`, cards of
the 2-series Mastercard, 19-digit UnionPay, Diners and Maestro, Discord / Skype / Zalo / LINE /
Kakao handles, public IPv4 addresses).

Labelling choices: a span covers the value alone: no cue word, no surrounding bracket or quote,
no `@` before a user name, no `t.me/` or `facebook.com/` before it, no honorific; a phone's
extension (`ext. 12`, `转 8021`) is left outside. An obfuscated e-mail is labelled as written
(`li.na [at] qq dot com`), an HKID with its `(7)`, a Skype id with its `live:.cid.` prefix, a
Discord name with its `#1234`. Kind `device` covers MACs, IMEI / MEID, serial numbers, Android ids,
advertising ids and the public IPv4 address of the user's home connection (never a private one:
those are `router_ip` near-misses); no IPv6 is planted. An Alipay account may be a phone number or
an e-mail and is still labelled `handle`. A value given in two parts is two spans of one kind.
"""

from __future__ import annotations

import random
import re
import string
import unicodedata
from dataclasses import dataclass

import phonenumbers
from mimesis import Address, Locale, Person

from helpers.heldout_pii import LANGS, LOOSE_KINDS, NEAR_KINDS, STRICT_KINDS, HeldTurn

__all__ = ["LANGS", "LOOSE_KINDS", "NEAR_KINDS", "STRICT_KINDS", "HeldTurn", "TEMPLATES", "turns"]

KINDS = STRICT_KINDS + LOOSE_KINDS
ZW = ("\u200b", "\u200c", "\u200d", "\u2060")
LATIN_LOCALES = ("de", "es", "pt-br", "it", "nl", "pl", "sv", "tr", "cs")


def _t(block: str) -> tuple[str, ...]:
    """One template a line; `\\n` inside a line stands for a line break in the turn."""
    return tuple(line.strip().replace("\\n", "\n") for line in block.strip().splitlines() if line.strip())


# ------------------------------------------------------------------ sentence templates
# {v} the value, {p} the cue word that fits the value's form (`护照号`, `IMEI`, `微信`),
# {a} / {b} the two parts of a value given in two parts (only in SPLIT)
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "id": _t("""
            帮我看看这个{p}对不对：{v}
            {v} 这是我的{p}，填表的时候放哪一栏？
            姓名：（略）\\n{p}：{v}\\n有效期：长期
            我{p}是{v}，为什么实名认证一直失败😭
            请把「{v}」翻译成英文格式写进签证表格
            客服让我报{p}，{v}，然后就挂了电话，太离谱了
            身分证号吗{v}（打错字了，是身份证）
            上一行是我的证件\\n{v}\\n帮我查下是不是合法的号码
            酒店登记要{p}，我填了{v}可是系统说格式不对
            办理手续的时候柜员把{v}输错了一位，能帮我写个投诉吗
            """),
        "phone": _t("""
            我的手机号{v}，快递员一直打不通
            联系电话：{v}
            你好，帮我写一条短信，告诉房东我换号了，新号码{v}
            {v}这个号天天给我打推销电话，能帮我写投诉信吗
            电话{v}转8021，找前台就行
            把下面这段翻译成英文：如有问题请致电{v}
            紧急联系人电话是{v}，请核对一下位数
            号码是「{v}」吗？我怕抄错了
            上周换了新卡\\n{v}\\n以后打这个
            收货人手机{v}，地址见下条
            有空回个电话给我{v}谢谢🙏
            my phone是{v}，帮我把这句翻译成英文
            ＴＥＬ：{v}（白天打）
            请问{v}是哪里的号码？打来没说话就挂了
            """),
        "email": _t("""
            我的邮箱是{v}，把简历发过去了吗
            帮我写封邮件抄送给{v}
            {v}这个邮箱收不到验证码怎么办
            发票请开到邮箱：{v}
            邮箱地址：{v}（工作日查看）
            请联系我{v}，我会尽快回复
            注册时填的是{v}，但是找回密码说账号不存在
            Email地址{v}帮我检查一下拼写
            把「{v}」这个地址加进白名单
            我妈的油箱是{v}（是邮箱，打错了）你帮我给她写个生日祝福
            """),
        "card": _t("""
            信用卡号{v}被盗刷了三笔，怎么挂失
            帮我看看这张卡{v}是什么银行的
            退款请打到这张卡上：{v}
            {v}这是我的工资卡，为什么转账被拒
            卡号：{v}\\n有效期：08/29
            我输了{v}但是页面提示卡号无效？
            刚才客服问我卡号，我说了{v}，是不是被骗了😰
            请把还款卡换成{v}
            银行卡{v}已冻结，帮我写个解冻申请
            """),
        "handle": _t("""
            加我{p}：{v}
            我的{p}号是{v}，有事直接找我
            {v}是我的{p}，备注一下来意
            帮我写个朋友圈文案，最后留一句“合作请私信{p} {v}”
            {p}账号{v}被封了怎么申诉
            同事让我加他的{p}「{v}」但是搜不到
            联系方式：\\n{p}：{v}
            转账到我的{p}：{v}就行
            报名的同学请加群主{p}{v}
            """),
        "plate": _t("""
            我的车牌{v}被贴了罚单，帮我写个申诉
            车牌号：{v}
            {v}这辆车天天占我车位，怎么投诉物业
            停车场登记的车牌是{v}，出场扣了两次费
            帮我翻译：车牌为{v}的车辆在路口逆行
            昨天看到{v}追尾了，我要不要作证
            ETC绑定的车是{v}，可以换绑吗
            租车合同上写的车牌{v}对吗
            """),
        "device": _t("""
            路由器后台显示{p}是{v}的设备一直掉线
            {p}：{v}\\n这台手机丢了，怎么定位
            我手机的{p}{v}被列入黑名单了
            帮我写个保修申请，设备{p}为{v}
            {v}是我电脑的{p}，公司网管让我报给他
            查一下{p} {v} 是不是翻新机
            家里宽带的{p}{v}被人扫描了怎么办
            这是序列号吗？{v}
            """),
        "name": _t("""
            帮我给{v}写一封道歉信
            收件人：{v}
            {v}和我吵架了，我该怎么道歉
            联系人{v}，麻烦转交
            我们部门的{v}女士下个月退休，帮我写个欢送词
            请问{v}先生的名字用英文怎么写
            我儿子{v}要转学，帮我写个申请
            上级是{v}，我想跟他提离职
            这份合同的甲方代表是{v}，有问题吗
            把“{v}同学请到办公室来”翻成英文
            我的房东叫{v}，押金一直不退
            给{v}老师写个感谢卡，简短一点
            """),
        "address": _t("""
            收货地址：{v}
            我家在{v}，最近的地铁站是哪个
            帮我把这个地址翻译成英文：{v}
            快递一直显示派送失败，地址是{v}
            {v} 这个地址写得对吗
            新家地址\\n{v}\\n帮我写个搬家通知
            请把发票邮寄到{v}
            我住在{v}楼下太吵了，怎么投诉
            房租合同上的地址是「{v}」，可以吗
            """),
    },
    "en": {
        "id": _t("""
            Is {v} a valid {p}? the form keeps rejecting it
            my {p} is {v}, can you fill this visa form for me
            {p}: {v}\\nDate of issue: see scan
            I typed {v} into the bank app and it says invalid {p} lol
            Pls check the check digit of {v}
            copying from my card -> {v}
            The clerk wrote {v} on the receipt, is that my {p} or theirs?
            {v} — that's the number on my id, where does it go on the W-8BEN?
            hi! my {p} is {v} and I lost the card 😭 what do I do
            translate to Spanish: my identification number is {v}
            """),
        "phone": _t("""
            call me at {v} when you land
            My number changed, new one is {v}. Can you write a short text to my landlord?
            {v} keeps calling me at 3am, how do I block it
            Phone: {v} ext. 12
            Can you check if {v} is a real mobile number?
            reach our office on {v} (mon-fri)
            Emergency contact\\n{v}\\nplease double check the digits
            write an email to the plumber asking him to text {v}
            "{v}" is the number on the parcel label
            my mum's cell {v} isn't getting the OTP
            pls ring {v} asap
            I got a missed call from {v}, is it a scam?
            """),
        "email": _t("""
            send the invoice to {v} please
            my email is {v} but the password reset never arrives
            Can you draft a reply to {v} saying I'll be late?
            Email: {v}
            contact me via {v} (I check it daily)
            is {v} a valid address? it bounced twice
            Please add {v} to the mailing list
            {v} <- that's my work e-mial, use it for the booking
            cc {v} on the complaint letter
            """),
        "card": _t("""
            someone charged my card {v} twice, write a dispute letter
            Card number: {v}\\nExpiry: 11/28
            is {v} a visa or mastercard?
            The refund should go back to {v}
            I entered {v} and the checkout said card declined 🙄
            my credit crad {v} got blocked abroad, help me write to the bank
            Please update my payment method to {v}
            {v} is the card I used for the hotel deposit
            """),
        "handle": _t("""
            add me on {p}: {v}
            My {p} is {v}, DM me for the files
            {v} on {p} is my account, can you write a bio for it?
            follow us on {p} {v} for updates
            {p} handle -> {v}
            I got hacked, my {p} account {v} is posting spam
            find me on {p} ({v})
            contact:\\n{p}: {v}
            my kid's {p} is {v}, is that app safe?
            """),
        "plate": _t("""
            my car {v} got towed, write an appeal
            Licence plate: {v}
            A car with plate {v} hit my mirror and drove off
            the parking app charged {v} twice
            is {v} a valid plate format?
            Vehicle registration {v}, please renew
            {v} keeps parking in my spot, how do I report it
            rental car plate {v} — is this the one on my contract?
            """),
        "device": _t("""
            my phone's {p} is {v}, the carrier wants it to unlock
            {p}: {v}\\nthe laptop was stolen yesterday
            block {p} {v} on the router please
            is {v} a real {p}? the seller sent it
            warranty claim for {p} {v}
            {v} is our home {p}, someone is scanning it
            the device with {p} {v} keeps dropping off wifi
            here is the serial: {v}
            """),
        "name": _t("""
            write a thank-you card to {v}
            Attn: {v}
            {v} and I had a fight, how should I apologise?
            my manager {v} wants the report by Friday, draft an email
            please address the letter to Dr {v}
            my son {v} needs a sick note for school
            Recipient: {v}
            Can you translate "{v} is my landlord" into German?
            contact person {v}, ask her for the keys
            write a LinkedIn recommendation for {v}
            Ms {v} is leaving the team, help me write a farewell message
            {v} owes me money, how do I ask politely
            """),
        "address": _t("""
            ship it to {v}
            My address: {v}
            I live at {v}, which bus goes to the airport?
            Delivery failed at {v}, write a complaint
            is this address complete? {v}
            new address\\n{v}\\nplease update my account
            send the documents to {v} by registered mail
            the noise comes from the flat above me at {v}
            translate this address into Chinese: {v}
            """),
    },
    "ja": {
        "id": _t("""
            {p}は{v}です。この書類のどこに書けばいいですか
            {v}って正しい{p}ですか？
            本人確認で{p}を入力したのにエラー：{v}
            {p}：{v}\\n有効期限：記載なし
            上の行が番号です\\n{v}\\nチェックデジット合ってる？
            窓口で「{v}」と書かれたけど私の{p}じゃない気がする
            ビザ申請用に{v}を英語の書式に直して
            まいなんばー{v}の通知カードを無くしました😢
            この番号{v}を申込書に転記してください
            """),
        "phone": _t("""
            電話番号は{v}です
            {v}から何回も着信があって怖い
            連絡先：{v}
            新しい番号{v}を大家さんに伝えるメールを書いて
            {v}内線203までお願いします
            携帯{v}にSMSが届きません
            この番号って本物？{v}
            緊急連絡先\\n{v}
            折り返しは「{v}」へ
            phone: {v} に連絡してもらえますか
            ＴＥＬ　{v}
            配送業者から{v}で電話がきました、詐欺かな
            """),
        "email": _t("""
            メールアドレスは{v}です
            {v}に請求書を送ってください
            {v}宛に謝罪メールを書いて
            メアド：{v}
            登録したのは{v}なのにパスワード再設定のメールが来ない
            連絡は{v}までお願いします🙇
            このアドレス合ってる？{v}
            mail→{v}でお願いします
            ccに{v}を入れておいて
            """),
        "card": _t("""
            カード番号{v}で不正利用がありました
            クレジットカード：{v}\\n有効期限：05/27
            {v}のカードが使えなくなった理由を調べて
            返金は{v}のカードにお願いします
            この番号{v}はVISA？JCB？
            カード番号を間違えたかも、{v}で合ってる？
            支払いカードを{v}に変更したい
            くれじっとかーど{v}の明細に覚えのない請求がある
            """),
        "handle": _t("""
            {p}のIDは{v}です
            {p}やってます→{v}
            {v}（{p}）に連絡ください
            {p}で{v}を検索しても出てこない
            連絡先\\n{p}：{v}
            子どもの{p}アカウント{v}が乗っ取られた
            {p}：{v} フォローお願いします✨
            {p}の{v}から変なメッセージが来た
            """),
        "plate": _t("""
            車のナンバーは{v}です
            {v}の車に当て逃げされました
            ナンバープレート：{v}
            駐車場で{v}が毎日私の区画に停めている
            {v}ってどこのナンバー？
            レンタカーのナンバー{v}で合ってるか確認して
            違反の通知が{v}宛に来たけど私の車じゃない
            """),
        "device": _t("""
            スマホの{p}は{v}です
            {p}：{v}\\n盗難にあったので止めたい
            ルーターで{v}の端末をブロックしたい
            {v}は正しい{p}？中古で買った
            修理依頼、{p}は{v}
            自宅の{p}が{v}なんだけど、外から見える？
            {p}{v}の機器が接続できない
            """),
        "name": _t("""
            {v}さんにお礼の手紙を書いてください
            担当者：{v}
            {v}様宛の送付状を作って
            {v}と喧嘩してしまった、どう謝ればいい？
            上司の{v}に退職を伝えるメール
            息子の{v}が熱を出したので欠席連絡を書いて
            宛名は{v}でお願いします
            「{v}さんは私の大家です」を英訳して
            {v}先生への年賀状の文面を考えて
            連絡先は{v}まで
            はじめまして、{v}と申します。自己紹介文を直してください
            同僚の{v}さんの送別会の挨拶を書いて
            """),
        "address": _t("""
            住所は{v}です
            お届け先：{v}
            {v}に住んでいます、最寄り駅はどこ？
            この住所を英語表記にして：{v}
            配達が{v}で不在扱いになった
            新住所\\n{v}\\n引っ越しのお知らせを書いて
            {v}って住所合ってる？
            書類を{v}まで郵送してください
            """),
    },
    "ko": {
        "id": _t("""
            제 {p}는 {v}입니다
            {v} 이거 맞는 {p}인가요?
            {p}: {v}\\n발급일: 사진 참고
            본인인증에 {v} 넣었는데 계속 실패해요ㅠㅠ
            위에 적은 번호예요\\n{v}\\n검증해 주세요
            비자 서류에 {v}를 영문 양식으로 적어 주세요
            주민번후 {v} (오타, 주민번호)
            은행 창구에서 {v}를 잘못 입력했대요, 민원 좀 써 주세요
            이 번호 {v}를 신청서에 옮겨 적어 줘
            """),
        "phone": _t("""
            제 번호는 {v}입니다
            {v}에서 계속 전화가 와요, 스팸인가요?
            연락처: {v}
            집주인한테 번호 바뀌었다고 문자 써 줘, 새 번호 {v}
            {v} 내선 305로 연결해 주세요
            휴대폰 {v}로 인증번호가 안 와요
            이 번호 진짜예요? {v}
            비상연락처\\n{v}
            회신은 "{v}"로 부탁드려요🙏
            phone: {v} 으로 연락 주세요
            ＴＥＬ {v}
            택배 기사님이 {v}로 전화했대요
            """),
        "email": _t("""
            이메일은 {v}입니다
            {v}로 견적서 보내 주세요
            {v} 앞으로 사과 메일 좀 써 줘
            메일: {v}
            가입할 때 {v}를 썼는데 비밀번호 재설정 메일이 안 와요
            문의는 {v}로 주세요
            이 주소 맞아요? {v}
            e-mail {v}로 보내주세요~
            참조에 {v} 넣어 주세요
            """),
        "card": _t("""
            카드번호 {v}로 모르는 결제가 됐어요
            신용카드: {v}\\n유효기간: 09/28
            {v} 카드가 해외에서 안 돼요
            환불은 {v} 카드로 해 주세요
            이 번호 {v}는 비자예요 마스터예요?
            결제 카드를 {v}로 바꾸고 싶어요
            카드 번홓 {v} 맞는지 봐 주세요
            체크카드 {v} 분실 신고 문구 써 줘
            """),
        "handle": _t("""
            {p} 아이디는 {v}예요
            {p} 추가해 주세요: {v}
            {v} ({p}) 로 연락 주세요
            {p}에서 {v} 검색하면 나와요
            연락처\\n{p}: {v}
            아이 {p} 계정 {v}가 해킹당했어요
            {p}: {v} 팔로우 부탁해요💕
            {p} {v}에서 이상한 메시지가 와요
            """),
        "plate": _t("""
            제 차 번호는 {v}입니다
            {v} 차량이 제 자리에 매일 주차해요
            차량번호: {v}
            {v} 차가 뺑소니쳤어요, 신고 문구 써 주세요
            렌터카 번호 {v} 맞는지 확인해 줘
            과태료 고지서가 {v}로 왔는데 제 차가 아니에요
            주차장 등록 차량은 {v}예요
            """),
        "device": _t("""
            휴대폰 {p}는 {v}입니다
            {p}: {v}\\n도난 신고하려고요
            공유기에서 {v} 기기를 차단하고 싶어요
            {v} 이거 정상 {p}인가요? 중고로 샀어요
            수리 접수, {p} {v}
            우리 집 {p}가 {v}인데 외부에서 보이나요?
            {p} {v} 기기가 와이파이에 안 붙어요
            """),
        "name": _t("""
            {v}님께 감사 편지 써 주세요
            담당자: {v}
            {v} 씨랑 싸웠는데 어떻게 사과하죠?
            팀장님 {v}에게 퇴사 메일 써 줘
            아들 {v}가 아파서 결석 사유서 부탁해요
            받는 사람: {v}
            "{v}는 제 집주인입니다"를 영어로 번역해 줘
            {v} 선생님께 드릴 카드 문구 추천해 주세요
            동료 {v} 송별회 인사말 써 줘
            연락 담당은 {v}입니다
            {v}랑 내일 만나기로 했어
            안녕하세요 저는 {v}입니다 자기소개서 첨삭해 주세요
            """),
        "address": _t("""
            주소는 {v}입니다
            배송지: {v}
            {v}에 살아요, 가까운 지하철역이 어디예요?
            이 주소 영문으로 바꿔 줘: {v}
            {v}로 배송했는데 부재중이래요
            새 주소\\n{v}\\n이사 안내문 써 주세요
            {v} 주소 맞나요?
            서류를 {v}로 보내 주세요
            """),
    },
}

# a value given in two parts: {p} the cue word, {a} and {b} the parts
SPLIT: dict[str, tuple[str, ...]] = {
    "zh": _t("""
        {p}分两段发，前半段{a}\\n后半段{b}
        {p}：{a}\\n{b}（接上一行）
        第一部分：{a}，第二部分：{b}，拼起来就是我的{p}
        """),
    "en": _t("""
        my {p} in two bits: part 1 {a}\\npart 2 {b}
        {p}: {a}\\n{b} (continued)
        first half {a} and the rest is {b}, that's my {p}
        """),
    "ja": _t("""
        {p}を二つに分けて送ります：{a}\\n続き：{b}
        {p}：{a}\\n{b}（上の続き）
        前半{a}、後半{b}、これで{p}です
        """),
    "ko": _t("""
        {p} 나눠서 보낼게요: {a}\\n나머지 {b}
        {p}: {a}\\n{b} (이어서)
        앞부분 {a}, 뒷부분 {b}, 이게 제 {p}예요
        """),
}

# a second personal value, added after the turn
SECOND: dict[str, tuple[str, ...]] = {
    "zh": _t("""
        ，另外{p}：{v}
        。{p}是{v}
        \\n{p}：{v}
        （{p} {v}）
        ，顺便记一下{v}这个{p}
        """),
    "en": _t("""
        , also my {p} is {v}
        . {p}: {v}
        \\n{p} - {v}
        ({p} {v})
        ; btw {v} is the {p}
        """),
    "ja": _t("""
        。あと{p}は{v}です
        、{p}：{v}
        \\n{p}　{v}
        （{p}{v}）
        """),
    "ko": _t("""
        . 그리고 {p}는 {v}
        , {p}: {v}
        \\n{p} {v}
        ({p} {v})
        """),
}

# a near-miss, added before or after the turn: {x} the value that must be kept
NEAR: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "product_code": _t("型号{x}\n买的是{x}\n机器型号：{x}"),
        "version": _t("系统版本{x}\n已经升级到{x}了\n固件{x}"),
        "brand": _t("刚从{x}出来\n在{x}买的\n昨天去了{x}"),
        "hotline": _t("打了客服热线{x}没人接\n官方电话{x}\n拨打{x}"),
        "router_ip": _t("路由器地址{x}\n后台是{x}\n网关{x}"),
        "student_no": _t("学号{x}\n我学号是{x}"),
        "barcode": _t("条形码{x}\n包装上的条码{x}"),
        "http_status": _t("页面报错{x}\n一直返回{x}\n错误代码{x}"),
        "order_number": _t("订单号{x}\n运单号：{x}\n订单编号{x}"),
        "date": _t("{x}下的单\n日期：{x}\n{x}那天"),
        "price": _t("花了{x}\n价格{x}\n退款金额{x}"),
    },
    "en": {
        "product_code": _t("model {x}\nit's the {x}\nbought a {x}"),
        "version": _t("running {x}\nupdated to {x}\nfirmware {x}"),
        "brand": _t("I was at {x}\nbought it from {x}\njust left {x}"),
        "hotline": _t("called the hotline {x}\nsupport line {x}\nI dialled {x}"),
        "router_ip": _t("router is at {x}\ngateway {x}\nadmin page {x}"),
        "student_no": _t("student no. {x}\nmy student ID {x}"),
        "barcode": _t("barcode {x}\nthe EAN on the box is {x}"),
        "http_status": _t("it throws {x}\nerror {x}\nthe API returns {x}"),
        "order_number": _t("order #{x}\ntracking number {x}\norder no. {x}"),
        "date": _t("on {x}\ndate: {x}\nsince {x}"),
        "price": _t("paid {x}\nit cost {x}\nrefund of {x}"),
    },
    "ja": {
        "product_code": _t("型番{x}\n機種は{x}\n{x}を購入"),
        "version": _t("バージョン{x}\n{x}にアップデート済み\nファームウェア{x}"),
        "brand": _t("{x}で買いました\nさっき{x}に行った\n{x}の近く"),
        "hotline": _t("サポート{x}に電話した\nフリーダイヤル{x}\n{x}に通報"),
        "router_ip": _t("ルーターは{x}\nゲートウェイ{x}\n管理画面{x}"),
        "student_no": _t("学籍番号{x}\n学生番号は{x}"),
        "barcode": _t("JANコード{x}\nバーコード{x}"),
        "http_status": _t("エラー{x}が出る\n{x}が返ってくる\nエラーコード{x}"),
        "order_number": _t("注文番号{x}\n追跡番号：{x}\nご注文番号{x}"),
        "date": _t("{x}に注文\n日付：{x}\n{x}から"),
        "price": _t("{x}払った\n値段は{x}\n返金額{x}"),
    },
    "ko": {
        "product_code": _t("모델명 {x}\n기종은 {x}\n{x} 샀어요"),
        "version": _t("버전 {x}\n{x}로 업데이트함\n펌웨어 {x}"),
        "brand": _t("{x}에서 샀어요\n방금 {x} 다녀옴\n{x} 앞에서"),
        "hotline": _t("고객센터 {x}에 전화함\n대표번호 {x}\n{x}에 신고"),
        "router_ip": _t("공유기 주소 {x}\n게이트웨이 {x}\n관리 페이지 {x}"),
        "student_no": _t("학번 {x}\n제 학번은 {x}"),
        "barcode": _t("바코드 {x}\n상품 바코드 {x}"),
        "http_status": _t("에러 {x} 떠요\n{x} 오류\n응답 코드 {x}"),
        "order_number": _t("주문번호 {x}\n송장번호: {x}\n주문 번호 {x}"),
        "date": _t("{x}에 주문\n날짜: {x}\n{x}부터"),
        "price": _t("{x} 냈어요\n가격 {x}\n환불 금액 {x}"),
    },
}

# the cue word for each kind (or form) in each language
CUE: dict[str, dict[str, tuple[str, ...]]] = {
    "zh": {
        "id": ("身份证号", "证件号码", "身份证"),
        "passport": ("护照号", "护照号码"),
        "licence": ("驾驶证号", "驾照号"),
        "phone": ("电话", "手机号", "联系电话", "手机"),
        "email": ("邮箱", "电子邮箱", "email"),
        "card": ("卡号", "银行卡号", "信用卡"),
        "plate": ("车牌", "车牌号"),
        "name": ("联系人", "收件人", "姓名"),
        "address": ("地址", "收货地址", "住址"),
    },
    "en": {
        "id": ("ID number", "national ID", "id no"),
        "passport": ("passport number", "passport no."),
        "licence": ("driving licence number", "driver's license"),
        "phone": ("phone", "mobile", "cell", "tel"),
        "email": ("email", "e-mail", "mail"),
        "card": ("card number", "credit card", "card"),
        "plate": ("plate", "licence plate", "reg"),
        "name": ("contact", "name", "recipient"),
        "address": ("address", "home address", "shipping address"),
    },
    "ja": {
        "id": ("身分証番号", "個人番号", "ID番号"),
        "passport": ("旅券番号", "パスポート番号"),
        "licence": ("免許証番号",),
        "phone": ("電話", "携帯", "電話番号", "TEL"),
        "email": ("メール", "メールアドレス", "メアド"),
        "card": ("カード番号", "クレカ"),
        "plate": ("ナンバー", "車両番号"),
        "name": ("氏名", "担当", "名前"),
        "address": ("住所", "お届け先", "所在地"),
    },
    "ko": {
        "id": ("신분증 번호", "등록번호", "ID 번호"),
        "passport": ("여권번호", "여권 번호"),
        "licence": ("운전면허 번호", "면허번호"),
        "phone": ("전화", "휴대폰", "연락처", "폰번호"),
        "email": ("이메일", "메일", "메일 주소"),
        "card": ("카드번호", "카드"),
        "plate": ("차량번호", "차 번호"),
        "name": ("이름", "담당자", "성함"),
        "address": ("주소", "배송지", "거주지"),
    },
}
# cue words of a country's own national id, per language (else the generic "id" cue)
ID_NAMES: dict[str, dict[str, str]] = {
    "zh": {
        "cn": "居民身份证号",
        "hk": "香港身份证",
        "mo": "澳门身份证",
        "tw": "台湾身份证字号",
        "kr": "韩国身份证号",
        "jp": "个人编号",
    },
    "en": {
        "cn": "Chinese ID",
        "hk": "HKID",
        "mo": "Macau ID",
        "tw": "Taiwan ID",
        "kr": "RRN",
        "jp": "My Number",
        "us": "SSN",
        "ca": "SIN",
        "gb": "NI number",
        "sg": "NRIC",
        "au": "TFN",
        "in": "Aadhaar",
        "pan": "PAN",
        "es": "DNI",
        "nie": "NIE",
        "br": "CPF",
        "it": "codice fiscale",
        "pl": "PESEL",
        "tr": "TC kimlik no",
        "de": "Steuer-ID",
    },
    "ja": {
        "jp": "マイナンバー",
        "cn": "中国の身分証番号",
        "kr": "住民登録番号",
        "hk": "香港ID",
        "tw": "台湾の身分証",
    },
    "ko": {"kr": "주민등록번호", "cn": "중국 신분증 번호", "jp": "마이넘버", "hk": "홍콩 ID", "us": "SSN"},
}
HANDLE_WORDS: dict[str, dict[str, str]] = {
    "wechat": {"zh": "微信", "en": "WeChat", "ja": "WeChat", "ko": "위챗"},
    "qq": {"zh": "QQ", "en": "QQ", "ja": "QQ", "ko": "QQ"},
    "alipay": {"zh": "支付宝", "en": "Alipay", "ja": "アリペイ", "ko": "알리페이"},
    "weibo": {"zh": "微博", "en": "Weibo", "ja": "Weibo", "ko": "웨이보"},
    "douyin": {"zh": "抖音号", "en": "Douyin", "ja": "Douyin", "ko": "더우인"},
    "line": {"zh": "LINE", "en": "LINE", "ja": "LINE", "ko": "라인"},
    "kakao": {"zh": "KakaoTalk", "en": "KakaoTalk", "ja": "カカオトーク", "ko": "카톡"},
    "telegram": {"zh": "电报", "en": "Telegram", "ja": "テレグラム", "ko": "텔레그램"},
    "instagram": {"zh": "ins", "en": "IG", "ja": "インスタ", "ko": "인스타"},
    "x": {"zh": "推特", "en": "X", "ja": "Twitter", "ko": "트위터"},
    "discord": {"zh": "Discord", "en": "discord", "ja": "Discord", "ko": "디스코드"},
    "skype": {"zh": "Skype", "en": "Skype", "ja": "Skype", "ko": "스카이프"},
    "whatsapp": {"zh": "WhatsApp", "en": "WhatsApp", "ja": "WhatsApp", "ko": "왓츠앱"},
    "zalo": {"zh": "Zalo", "en": "Zalo", "ja": "Zalo", "ko": "잘로"},
    "facebook": {"zh": "脸书", "en": "Facebook", "ja": "フェイスブック", "ko": "페이스북"},
    "github": {"zh": "GitHub", "en": "GitHub", "ja": "GitHub", "ko": "깃허브"},
}
DEVICE_WORDS: dict[str, dict[str, str]] = {
    "mac": {"zh": "MAC地址", "en": "MAC address", "ja": "MACアドレス", "ko": "MAC 주소"},
    "imei": {"zh": "IMEI", "en": "IMEI", "ja": "IMEI", "ko": "IMEI"},
    "meid": {"zh": "MEID", "en": "MEID", "ja": "MEID", "ko": "MEID"},
    "serial": {"zh": "序列号", "en": "serial number", "ja": "シリアル番号", "ko": "시리얼 번호"},
    "android": {"zh": "安卓ID", "en": "Android ID", "ja": "Android ID", "ko": "안드로이드 ID"},
    "adid": {"zh": "广告标识符", "en": "advertising ID", "ja": "広告ID", "ko": "광고 ID"},
    "ip": {"zh": "公网IP", "en": "public IP", "ja": "グローバルIP", "ko": "공인 IP"},
}


# ------------------------------------------------------------------ a value as it is written
@dataclass
class Val:
    kind: str
    text: str  # the value alone, as typed
    cue: str  # the cue word that fits its form, in the turn's language
    pre: str = ""  # typed just before it, outside the span (`@`, `t.me/`)
    post: str = ""  # typed just after it, outside the span (` ext. 12`)
    halves: tuple[str, str] | None = None  # the two parts when it is given in two parts


FULL = str.maketrans({c: chr(ord(c) + 0xFEE0) for c in string.digits + string.ascii_letters + "@.-+"})
CN_DIGITS = "零一二三四五六七八九"
JA_DIGITS = "〇一二三四五六七八九"
KO_DIGITS = ("공", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구")


def _d(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        x = int(ch) * (2 if i % 2 == 0 else 1)
        total += x - 9 if x > 9 else x
    return str((10 - total % 10) % 10)


_VD = [
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
_VP = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def _verhoeff_digit(body: str) -> str:
    c = 0
    for i, ch in enumerate(reversed(body)):
        c = _VD[c][_VP[(i + 1) % 8][int(ch)]]
    return str(_VINV[c])


def _birth(rng: random.Random) -> tuple[int, int, int]:
    return rng.randint(1950, 2008), rng.randint(1, 12), rng.randint(1, 28)


# ------------------------------------------------------------------ ids
def _cn_ric(rng: random.Random) -> str:
    y, m, d = _birth(rng)
    area = rng.choice(("110101", "110105", "110108", "310101", "310104", "310110", "120101"))
    body = f"{area}{y:04d}{m:02d}{d:02d}{_d(rng, 3)}"
    s = sum(int(ch) * (2 ** (17 - i) % 11) for i, ch in enumerate(body))
    check = "10X98765432"[s % 11]
    if check == "X" and rng.random() < 0.3:
        check = "x"
    return body + check


def _hkid(rng: random.Random) -> str:
    letter = rng.choice(string.ascii_uppercase)
    digits = _d(rng, 6)
    s = 36 * 9 + (ord(letter) - 55) * 8 + sum(int(ch) * (7 - i) for i, ch in enumerate(digits))
    r = (11 - s % 11) % 11
    check = "A" if r == 10 else str(r)
    return f"{letter}{digits}({check})"


_TW_CODES = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=False))


def _tw_id(rng: random.Random) -> str:
    letter = rng.choice("ABCDEFGHJKLMNPQRSTUVXYWZ")
    body = rng.choice("12") + _d(rng, 7)
    code = _TW_CODES[letter]
    s = code // 10 + (code % 10) * 9 + sum(int(ch) * (8 - i) for i, ch in enumerate(body))
    return f"{letter}{body}{(10 - s % 10) % 10}"


def _kr_rrn(rng: random.Random) -> str:
    y, m, d = _birth(rng)
    g = rng.choice("12") if y < 2000 else rng.choice("34")
    body = f"{y % 100:02d}{m:02d}{d:02d}{g}{rng.randint(0, 95):02d}{_d(rng, 3)}"  # place of birth 00-95
    s = sum(int(ch) * w for ch, w in zip(body, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5), strict=False))
    return f"{body[:6]}-{body[6:]}{(11 - s % 11) % 10}"


def _jp_mynumber(rng: random.Random) -> str:
    body = str(rng.randint(1, 9)) + _d(rng, 10)
    s = sum(int(ch) * (n + 1 if n <= 6 else n - 5) for n, ch in enumerate(reversed(body), start=1))
    r = s % 11
    num = body + str(0 if r <= 1 else 11 - r)
    return rng.choice((num, f"{num[:4]} {num[4:8]} {num[8:]}", f"{num[:4]}-{num[4:8]}-{num[8:]}"))


def _us_ssn(rng: random.Random) -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def _ca_sin(rng: random.Random) -> str:
    body = rng.choice("1234567") + _d(rng, 7)
    n = body + _luhn_digit(body)
    return rng.choice((f"{n[:3]} {n[3:6]} {n[6:]}", f"{n[:3]}-{n[3:6]}-{n[6:]}"))


def _gb_nino(rng: random.Random) -> str:
    while True:
        a = rng.choice("ABCEGHJKLMNPRSTWXYZ")
        b = rng.choice("ABCEGHJKLMNPRSTWXYZ".replace("O", ""))
        if a + b not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
            break
    n = _d(rng, 6)
    tail = rng.choice("ABCD")
    return rng.choice((f"{a}{b}{n}{tail}", f"{a}{b} {n[:2]} {n[2:4]} {n[4:]} {tail}"))


def _sg_nric(rng: random.Random) -> str:
    first = rng.choice("STFG")
    digits = _d(rng, 7)
    s = sum(int(ch) * w for ch, w in zip(digits, (2, 7, 6, 5, 4, 3, 2), strict=False)) + (
        4 if first in "TG" else 0
    )
    letters = "JZIHGFEDCBA" if first in "ST" else "XWUTRQPNMLK"
    return f"{first}{digits}{letters[s % 11]}"


def _au_tfn(rng: random.Random) -> str:
    while True:
        body = _d(rng, 8)
        s = sum(int(ch) * w for ch, w in zip(body, (1, 4, 3, 7, 5, 8, 6, 9), strict=False))
        last = (-s * 10) % 11
        if last < 10:
            n = body + str(last)
            return rng.choice((n, f"{n[:3]} {n[3:6]} {n[6:]}"))


def _in_aadhaar(rng: random.Random) -> str:
    while True:
        body = str(rng.randint(2, 9)) + _d(rng, 10)
        n = body + _verhoeff_digit(body)
        if n != n[::-1]:
            return rng.choice((f"{n[:4]} {n[4:8]} {n[8:]}", n, f"{n[:4]}-{n[4:8]}-{n[8:]}"))


def _in_pan(rng: random.Random) -> str:
    u = string.ascii_uppercase
    return (
        "".join(rng.choice(u) for _ in range(3))
        + rng.choice("PCHFATBLJG")
        + rng.choice(u)
        + _d(rng, 4)
        + rng.choice(u)
    )


def _es_dni(rng: random.Random) -> str:
    n = rng.randint(10**6, 10**8 - 1)
    return f"{n:08d}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"


def _es_nie(rng: random.Random) -> str:
    p = rng.choice("XYZ")
    n = _d(rng, 7)
    return f"{p}{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[int(str('XYZ'.index(p)) + n) % 23]}"


def _br_cpf(rng: random.Random) -> str:
    while True:
        ds = [rng.randint(0, 9) for _ in range(9)]
        if len(set(ds)) > 1:
            break
    for n in (10, 11):
        s = sum(d * w for d, w in zip(ds, range(n, 1, -1), strict=False))
        ds.append(0 if s % 11 < 2 else 11 - s % 11)
    n = "".join(map(str, ds))
    return rng.choice((f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}", n))


_CF_ODD = {
    **dict(zip("0123456789", (1, 0, 5, 7, 9, 13, 15, 17, 19, 21), strict=False)),
    **dict(
        zip(
            string.ascii_uppercase,
            (1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23),
            strict=False,
        )
    ),
}


def _it_cf(rng: random.Random) -> str:
    cons = "BCDFGHJKLMNPRSTVWZ"
    y, m, d = _birth(rng)
    day = d + (40 if rng.random() < 0.5 else 0)
    body = (
        "".join(rng.choice(cons) for _ in range(6))
        + f"{y % 100:02d}"
        + "ABCDEHLMPRST"[m - 1]
        + f"{day:02d}"
        + rng.choice(("H501", "F205", "L219", "G273", "A944", "D612"))
    )
    s = 0
    for i, ch in enumerate(body):
        if i % 2 == 0:
            s += _CF_ODD[ch]
        else:
            s += int(ch) if ch.isdigit() else ord(ch) - 65
    return body + chr(65 + s % 26)


def _pl_pesel(rng: random.Random) -> str:
    y, m, d = _birth(rng)
    mm = m + (20 if y >= 2000 else 0)
    body = f"{y % 100:02d}{mm:02d}{d:02d}{_d(rng, 4)}"
    s = sum(int(ch) * w for ch, w in zip(body, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3), strict=False))
    return body + str((10 - s % 10) % 10)


def _tr_tc(rng: random.Random) -> str:
    ds = [rng.randint(1, 9)] + [rng.randint(0, 9) for _ in range(8)]
    ds.append(((ds[0] + ds[2] + ds[4] + ds[6] + ds[8]) * 7 - (ds[1] + ds[3] + ds[5] + ds[7])) % 10)
    ds.append(sum(ds) % 10)
    return "".join(map(str, ds))


def _de_idnr(rng: random.Random) -> str:
    # ten digits, the first not 0, one digit twice (or three times), then the ISO 7064 mod 11,10 check
    while True:
        ds = rng.sample(range(10), 9)
        if ds[0] == 0:
            continue
        ds.insert(rng.randint(1, 9), ds[rng.randint(0, 8)])
        if ds[0] == 0:
            continue
        p = 10
        for x in ds:
            s = (x + p) % 10 or 10
            p = (2 * s) % 11
        check = (11 - p) % 10
        return "".join(map(str, ds)) + str(check)


def _passport(rng: random.Random, country: str) -> str:
    u = "ABCDEFGHJKLMNPRSTUVWXYZ"
    if country == "cn":
        return rng.choice(("E" + _d(rng, 8), "E" + rng.choice(u) + _d(rng, 7), "G" + _d(rng, 8)))
    if country == "jp":
        return rng.choice(("TK", "TR", "MZ", "TZ")) + _d(rng, 7)
    if country == "kr":
        return rng.choice("MS") + _d(rng, 8)
    if country == "us":
        return str(rng.randint(1, 9)) + _d(rng, 8)
    return "C" + "".join(rng.choice("CFGHJKLMNPRTVWXYZ0123456789") for _ in range(8))  # de


def _licence(rng: random.Random) -> str:
    if rng.random() < 0.5:  # UK: surname, decade, month (+5 women), day, year, initials, 9, two checks
        sur = "".join(rng.choice("BCDFGHKLMNPRSTW") for _ in range(rng.randint(3, 5))).ljust(5, "9")
        y, m, d = _birth(rng)
        mm = m + (50 if rng.random() < 0.5 else 0)
        return f"{sur}{str(y)[2]}{mm:02d}{d:02d}{str(y)[3]}{rng.choice(string.ascii_uppercase)}{rng.choice(string.ascii_uppercase)}9{rng.choice(string.ascii_uppercase)}{rng.choice(string.ascii_uppercase)}"  # noqa: E501
    return rng.choice(string.ascii_uppercase) + _d(rng, 7)  # California


ID_BY_LANG: dict[str, tuple[tuple[str, float], ...]] = {
    "zh": (
        ("cn", 5),
        ("hk", 2),
        ("mo", 1),
        ("tw", 2),
        ("pass_cn", 2),
        ("kr", 0.5),
        ("jp", 0.5),
        ("us", 0.5),
        ("licence", 0.5),
    ),
    "en": (
        ("us", 1.5),
        ("ca", 1),
        ("gb", 1),
        ("sg", 1),
        ("au", 1),
        ("in", 1),
        ("pan", 0.7),
        ("es", 0.7),
        ("nie", 0.5),
        ("br", 1),
        ("it", 0.7),
        ("pl", 0.7),
        ("tr", 0.7),
        ("de", 0.7),
        ("pass_us", 0.7),
        ("pass_de", 0.5),
        ("licence", 1),
        ("cn", 0.5),
        ("hk", 0.5),
    ),
    "ja": (("jp", 5), ("pass_jp", 2), ("cn", 1), ("kr", 1), ("hk", 0.5), ("tw", 0.5), ("licence", 0.3)),
    "ko": (("kr", 5), ("pass_kr", 2), ("cn", 1), ("jp", 0.7), ("us", 0.5), ("hk", 0.3), ("licence", 0.3)),
}


def _macau(rng: random.Random) -> str:
    return f"{rng.choice('157')}{_d(rng, 6)}({rng.randint(0, 9)})"


def make_id(rng: random.Random, lang: str) -> Val:
    forms, weights = zip(*ID_BY_LANG[lang], strict=False)
    form = rng.choices(forms, weights)[0]
    makers = {
        "cn": _cn_ric,
        "hk": _hkid,
        "mo": _macau,
        "tw": _tw_id,
        "kr": _kr_rrn,
        "jp": _jp_mynumber,
        "us": _us_ssn,
        "ca": _ca_sin,
        "gb": _gb_nino,
        "sg": _sg_nric,
        "au": _au_tfn,
        "in": _in_aadhaar,
        "pan": _in_pan,
        "es": _es_dni,
        "nie": _es_nie,
        "br": _br_cpf,
        "it": _it_cf,
        "pl": _pl_pesel,
        "tr": _tr_tc,
        "de": _de_idnr,
        "licence": _licence,
    }
    if form.startswith("pass_"):
        text, cue = _passport(rng, form[5:]), rng.choice(CUE[lang]["passport"])
    else:
        text = makers[form](rng)
        cue = ID_NAMES[lang].get(form) or rng.choice(CUE[lang]["licence" if form == "licence" else "id"])
    if form == "cn" and lang == "zh" and rng.random() < 0.15:
        text = text.translate(FULL)
    return Val("id", text, cue)


# ------------------------------------------------------------------ phones
PHONE_REGIONS = {
    "zh": ("CN", "CN", "CN", "HK", "TW", "MO", "SG", "US", "JP", "VN"),
    "en": (
        "US",
        "GB",
        "AU",
        "IN",
        "SG",
        "DE",
        "FR",
        "ES",
        "BR",
        "MX",
        "TR",
        "PL",
        "ID",
        "CA",
        "NZ",
        "IE",
        "PH",
    ),
    "ja": ("JP", "JP", "JP", "CN", "KR", "US", "TW", "DE"),
    "ko": ("KR", "KR", "KR", "CN", "JP", "US", "VN", "HK"),
}
_PN = phonenumbers.PhoneNumberType


def _phone_number(rng: random.Random, region: str) -> phonenumbers.PhoneNumber:
    kind = _PN.MOBILE if rng.random() < 0.8 else _PN.FIXED_LINE
    ex = phonenumbers.example_number_for_type(region, kind) or phonenumbers.example_number(region)
    nsn = phonenumbers.national_significant_number(ex)
    keep = min(3, len(nsn) - 4)
    for _ in range(200):
        cand = nsn[:keep] + _d(rng, len(nsn) - keep)
        num = phonenumbers.parse("+" + str(ex.country_code) + cand)
        if phonenumbers.is_valid_number(num) and phonenumbers.region_code_for_number(num) == region:
            return num
    return ex


def _regroup(rng: random.Random, digits: str, sep: str) -> str:
    out, i = [], 0
    while i < len(digits):
        k = rng.choice((2, 3, 4, 4))
        out.append(digits[i : i + k])
        i += k
    if len(out[-1]) == 1 and len(out) > 1:
        out[-2:] = [out[-2] + out[-1]]
    return sep.join(out)


def make_phone(rng: random.Random, lang: str) -> Val:
    region = rng.choice(PHONE_REGIONS[lang])
    num = _phone_number(rng, region)
    nat = phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.NATIONAL)
    natd = re.sub(r"\D", "", nat)
    cc = str(num.country_code)
    nsn = phonenumbers.national_significant_number(num)
    r = rng.random()
    post = ""
    if r < 0.2:
        text = nat
    elif r < 0.35:
        text = phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    elif r < 0.45:
        text = phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.E164)
    elif r < 0.52:
        text = f"00{cc} {_regroup(rng, nsn, ' ')}"
    elif r < 0.62:
        text = natd
    elif r < 0.75:
        text = _regroup(rng, natd, rng.choice((".", "/", " ", "\u3000", "\u00a0", "-", "  ")))
    elif r < 0.8:
        text = f"+{cc}({nsn[:2]}){nsn[2:]}" if len(nsn) > 6 else "+" + cc + nsn
    elif r < 0.88 and region in ("CN", "JP", "KR"):
        table = {"CN": CN_DIGITS, "JP": JA_DIGITS, "KR": KO_DIGITS}[region]
        text = "".join(table[int(c)] for c in natd)
        if region == "CN" and rng.random() < 0.6:
            text = text.replace("一", "幺")
    elif r < 0.94:
        text = nat.translate(FULL)
    else:
        text = nat
        post = rng.choice(
            {
                "en": (" ext. 12", " x305"),
                "zh": (" 转8021", " 转 12"),
                "ja": (" 内線22",),
                "ko": (" 내선 12",),
            }[lang]
        )
    return Val("phone", text, rng.choice(CUE[lang]["phone"]), post=post)


# ------------------------------------------------------------------ e-mails
DOMAINS = {
    "zh": (
        "qq.com",
        "163.com",
        "126.com",
        "sina.com",
        "foxmail.com",
        "aliyun.com",
        "139.com",
        "yeah.net",
        "bytedance.com",
        "tsinghua.edu.cn",
        "hku.hk",
        "gmail.com",
        "outlook.com",
    ),
    "en": (
        "gmx.de",
        "web.de",
        "uol.com.br",
        "libero.it",
        "wp.pl",
        "seznam.cz",
        "orange.fr",
        "telefonica.es",
        "btinternet.com",
        "bigpond.com",
        "proton.me",
        "yahoo.co.uk",
        "acme-logistics.com",
        "hotmail.com",
        "gmail.com",
        "shaw.ca",
        "xs4all.nl",
        "telia.se",
    ),
    "ja": (
        "docomo.ne.jp",
        "ezweb.ne.jp",
        "softbank.ne.jp",
        "yahoo.co.jp",
        "nifty.com",
        "gmail.com",
        "icloud.com",
        "toyota-ex.co.jp",
        "keio.jp",
        "i.softbank.jp",
    ),
    "ko": (
        "naver.com",
        "daum.net",
        "hanmail.net",
        "kakao.com",
        "nate.com",
        "gmail.com",
        "samsung.com",
        "snu.ac.kr",
        "korea.kr",
        "outlook.kr",
    ),
}
ROMAN = {
    "zh": (
        "wang",
        "li",
        "zhang",
        "liu",
        "chen",
        "yang",
        "huang",
        "zhao",
        "xu",
        "sun",
        "guo",
        "he",
        "lin",
        "ouyang",
        "xiaoming",
        "jiahui",
        "haoran",
        "yuting",
        "zixuan",
        "weiwei",
    ),
    "ja": (
        "tanaka",
        "suzuki",
        "takahashi",
        "watanabe",
        "yamamoto",
        "nakamura",
        "kobayashi",
        "sato",
        "yuki",
        "haruto",
        "aoi",
        "sakura",
        "ren",
        "mei",
        "kenta",
        "daiki",
    ),
    "ko": (
        "kim",
        "lee",
        "park",
        "choi",
        "jung",
        "kang",
        "cho",
        "yoon",
        "jang",
        "lim",
        "minjun",
        "seoyeon",
        "jiwoo",
        "hayoon",
        "dohyun",
        "yerin",
    ),
}


class Gen:
    """mimesis providers, seeded from the turn generator."""

    def __init__(self, rng: random.Random) -> None:
        self.people = {
            loc: Person(Locale(loc), seed=rng.randrange(2**31)) for loc in LATIN_LOCALES + ("zh", "ja", "ko")
        }
        self.places = {loc: Address(Locale(loc), seed=rng.randrange(2**31)) for loc in LATIN_LOCALES}


def _ascii(s: str) -> str:
    s = s.lower().translate(str.maketrans({"ß": "ss", "ł": "l", "ı": "i", "ø": "o", "æ": "ae"}))
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKD", s))


def _local_part(rng: random.Random, gen: Gen, lang: str) -> str:
    r = rng.random()
    if r < 0.35 and lang in ROMAN:
        a, b = rng.sample(ROMAN[lang], 2)
        local = a + rng.choice((".", "_", "", "-")) + b
    elif r < 0.7:
        p = gen.people[rng.choice(LATIN_LOCALES)]
        first, last = _ascii(p.first_name()), _ascii(p.last_name())
        local = rng.choice((f"{first}.{last}", f"{first[0]}{last}", f"{last}_{first}", f"{first}{last[:1]}"))
    else:
        local = (
            gen.people[rng.choice(LATIN_LOCALES)]
            .username(mask=rng.choice(("l.d", "l_d", "Cd", "U_d")))
            .lower()
        )
    if rng.random() < 0.4:
        local += _d(rng, rng.randint(2, 4))
    if rng.random() < 0.1:
        local += "+" + rng.choice(("shop", "news", "work", "bank"))
    return local.strip("._-") or "mail"


def make_email(rng: random.Random, gen: Gen, lang: str) -> Val:
    local = _local_part(rng, gen, lang)
    if lang == "zh" and rng.random() < 0.25:
        local = rng.choice((_d(rng, rng.randint(6, 10)), local))
        if local.isdigit():
            local = str(rng.randint(1, 9)) + local  # a QQ mailbox
    domain = rng.choice(DOMAINS[lang] if rng.random() < 0.8 else DOMAINS[rng.choice(LANGS)])
    r = rng.random()
    at = "@"
    dom = domain
    if r < 0.55:
        pass
    elif r < 0.62:
        at = rng.choice((" @ ", "@ ", " @"))
    elif r < 0.7:
        at = rng.choice(("[at]", "(at)", " at ", " [at] ", "{at}"))
    elif r < 0.78:
        at = {
            "zh": rng.choice(("艾特", "圈a", "小老鼠")),
            "ja": "アットマーク",
            "ko": "골뱅이",
            "en": " AT ",
        }[lang]
    elif r < 0.86:
        at = rng.choice(("[at]", "@", "(at)"))
        dom = domain.replace(".", rng.choice((" dot ", "[dot]", "(dot)", " . ")))
    elif r < 0.92 and lang in ("zh", "ja"):
        dom = domain.replace(".", "。")
    elif r < 0.96:
        return Val("email", (local + "@" + domain).translate(FULL), rng.choice(CUE[lang]["email"]))
    return Val("email", local + at + dom, rng.choice(CUE[lang]["email"]))


# ------------------------------------------------------------------ cards
CARD_SCHEMES = (
    ("visa", ("4",), 16),
    ("visa", ("4",), 16),
    ("mastercard", ("51", "52", "53", "54", "55"), 16),
    ("mastercard2", ("2221", "2300", "2499", "2611", "2720"), 16),
    ("amex", ("34", "37"), 15),
    ("unionpay", ("62",), 16),
    ("unionpay19", ("62",), 19),
    ("jcb", ("3528", "3540", "3566", "3589"), 16),
    ("discover", ("6011", "65"), 16),
    ("diners", ("36", "38"), 14),
    ("maestro", ("6759", "5018", "5020"), 16),
)


def make_card(rng: random.Random, lang: str) -> Val:
    scheme, prefixes, length = rng.choice(CARD_SCHEMES)
    if lang == "zh" and rng.random() < 0.4:
        scheme, prefixes, length = rng.choice(CARD_SCHEMES[5:7])
    body = rng.choice(prefixes)
    body += _d(rng, length - 1 - len(body))
    n = body + _luhn_digit(body)
    if scheme == "amex":
        groups = [n[:4], n[4:10], n[10:]]
    elif scheme == "diners":
        groups = [n[:4], n[4:10], n[10:]]
    elif length == 19:
        groups = [n[:4], n[4:8], n[8:12], n[12:16], n[16:]] if rng.random() < 0.5 else [n[:6], n[6:]]
    else:
        groups = [n[i : i + 4] for i in range(0, 16, 4)]
    r = rng.random()
    if r < 0.35:
        text = " ".join(groups)
    elif r < 0.55:
        text = n
    elif r < 0.7:
        text = "-".join(groups)
    elif r < 0.78:
        text = "  ".join(groups)
    elif r < 0.86:
        text = " ".join(groups).translate(FULL)
    elif r < 0.93:
        text = "\u3000".join(groups) if lang in ("zh", "ja") else ".".join(groups)
    else:
        text = " ".join(groups[:-1]) + " " + groups[-1]
    return Val("card", text, rng.choice(CUE[lang]["card"]))


# ------------------------------------------------------------------ handles
HANDLE_BY_LANG = {
    "zh": ("wechat", "wechat", "qq", "alipay", "weibo", "douyin", "telegram", "x", "instagram", "github"),
    "en": (
        "telegram",
        "instagram",
        "x",
        "discord",
        "skype",
        "whatsapp",
        "facebook",
        "github",
        "wechat",
        "zalo",
    ),
    "ja": ("line", "line", "x", "instagram", "discord", "telegram", "wechat", "github"),
    "ko": ("kakao", "kakao", "instagram", "x", "line", "telegram", "discord", "github"),
}


def _user(rng: random.Random, gen: Gen, lang: str) -> str:
    r = rng.random()
    if r < 0.4 and lang in ROMAN:
        name = rng.choice(ROMAN[lang]) + rng.choice(("_", "", ".", "__")) + rng.choice(ROMAN[lang])
    elif r < 0.7:
        name = (
            _ascii(gen.people[rng.choice(LATIN_LOCALES)].first_name())
            + rng.choice(("_", "", "."))
            + rng.choice(("official", "xx", "dev", "travel", "cat", "77", "mama", "k"))
        )
    else:
        name = gen.people[rng.choice(LATIN_LOCALES)].username(mask=rng.choice(("l_d", "l.d", "ld"))).lower()
    if rng.random() < 0.35:
        name += _d(rng, rng.randint(2, 4))
    return name.strip("._") or "user"


def make_handle(rng: random.Random, gen: Gen, lang: str) -> Val:
    platform = rng.choice(HANDLE_BY_LANG[lang])
    cue = HANDLE_WORDS[platform][lang]
    user = _user(rng, gen, lang)
    pre = ""
    if platform == "wechat":
        text = rng.choice(
            (
                "wxid_" + "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(14)),
                user,
                user.capitalize() + _d(rng, 3),
            )
        )
        text = re.sub(r"^[^a-zA-Z]+", "", text) or "wx" + text
    elif platform == "qq":
        text = str(rng.randint(1, 9)) + _d(rng, rng.randint(5, 9))
    elif platform == "alipay":
        phone = phonenumbers.national_significant_number(_phone_number(rng, "CN"))
        text = rng.choice((phone, f"{_local_part(rng, gen, 'zh')}@{rng.choice(DOMAINS['zh'])}", user))
    elif platform == "douyin":
        text = rng.choice(("dy" + _d(rng, 8), user))
    elif platform in ("telegram", "instagram", "x"):
        text = user.replace("-", "_")
        if rng.random() < 0.5:
            pre = "@"
        elif platform == "telegram" and rng.random() < 0.5:
            pre = "t.me/"
        elif platform == "instagram" and rng.random() < 0.5:
            pre = "instagram.com/"
    elif platform == "discord":
        text = rng.choice((f"{user}#{rng.randint(1, 9999):04d}", user.replace("-", "_")))
    elif platform == "skype":
        text = rng.choice(("live:.cid." + "".join(rng.choice("0123456789abcdef") for _ in range(16)), user))
    elif platform in ("whatsapp", "zalo"):
        region = "VN" if platform == "zalo" else rng.choice(("BR", "IN", "ES", "DE", "MX", "ID"))
        num = _phone_number(rng, region)
        text = phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    elif platform == "facebook":
        text = user.replace("_", ".")
        pre = rng.choice(("facebook.com/", "fb.com/", "https://www.facebook.com/"))
    elif platform == "kakao":
        text = rng.choice((user, user + "_" + rng.choice(("kr", "love", "zz"))))
    elif platform == "line":
        text = rng.choice((user, user.replace("_", ".")))
        if rng.random() < 0.2:
            pre = "@"
    else:  # github, weibo
        text = user.replace("_", "-").replace(".", "-").strip("-")
        if platform == "github" and rng.random() < 0.4:
            pre = "github.com/"
    return Val("handle", text, cue, pre=pre)


# ------------------------------------------------------------------ plates
PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
PLATE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
KO_PLATE = "가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주허하호"
KO_CITY = (
    "서울",
    "부산",
    "경기",
    "인천",
    "대구",
    "광주",
    "대전",
    "울산",
    "강원",
    "충북",
    "전남",
    "경남",
    "제주",
)
JA_PLACE = (
    "品川",
    "練馬",
    "足立",
    "横浜",
    "なにわ",
    "名古屋",
    "札幌",
    "福岡",
    "湘南",
    "つくば",
    "多摩",
    "京都",
    "神戸",
)
JA_KANA = "あいうえかきくけこさすせそたちつてとなにぬねのはひふほまみむめもやゆよらりるろれわ"


def _sg_plate(rng: random.Random) -> str:
    prefix = "S" + rng.choice("BCDEFGHJKLMNPRSTUVWXYZ") + rng.choice("ABCDEFGHJKLMNPRSTUVXYZ")
    num = rng.randint(1, 9999)
    vals = [ord(prefix[1]) - 64, ord(prefix[2]) - 64] + [int(c) for c in f"{num:04d}"]
    s = sum(v * w for v, w in zip(vals, (9, 4, 5, 4, 3, 2), strict=False))
    return f"{prefix}{num}{'AZYXUTSRPMLKJHGEDCB'[s % 19]}"


def make_plate(rng: random.Random, lang: str) -> Val:
    L = PLATE_LETTERS
    regions = {
        "zh": ("cn", "cn", "cn", "cn_ev", "hk", "tw"),
        "en": ("us", "uk", "de", "fr", "br", "sg", "hk", "cn"),
        "ja": ("jp", "jp", "jp", "kr", "us"),
        "ko": ("kr", "kr", "kr_city", "jp", "cn"),
    }[lang]
    region = rng.choice(regions)
    if region == "cn":
        tail = "".join(rng.choice(L + string.digits * 3) for _ in range(5))
        text = rng.choice(PROVINCES) + rng.choice(L) + rng.choice(("", "·", " ")) + tail
    elif region == "cn_ev":
        tail = (
            rng.choice("DF") + rng.choice(L + string.digits) + _d(rng, 4)
            if rng.random() < 0.6
            else _d(rng, 5) + rng.choice("DF")
        )
        text = rng.choice(PROVINCES) + rng.choice(L) + rng.choice(("", "·")) + tail
    elif region == "hk":
        text = rng.choice(L) + rng.choice(L) + " " + str(rng.randint(1, 9999))
    elif region == "tw":
        text = rng.choice(
            (
                f"{rng.choice(L)}{rng.choice(L)}{rng.choice(L)}-{_d(rng, 4)}",
                f"{_d(rng, 4)}-{rng.choice(L)}{rng.choice(L)}",
            )
        )
    elif region == "jp":
        text = f"{rng.choice(JA_PLACE)} {rng.randint(300, 599)} {rng.choice(JA_KANA)} {rng.randint(10, 99)}-{rng.randint(10, 99)}"  # noqa: E501
        if rng.random() < 0.3:
            text = text.replace(" ", "")
    elif region in ("kr", "kr_city"):
        front = str(rng.randint(10, 399)) if rng.random() < 0.6 else str(rng.randint(10, 99))
        text = f"{front}{rng.choice(KO_PLATE)}{rng.choice(('', ' '))}{_d(rng, 4)}"
        if region == "kr_city":
            text = rng.choice(KO_CITY) + text
    elif region == "us":
        text = rng.choice(
            (
                f"{rng.randint(1, 9)}{''.join(rng.choice(L) for _ in range(3))}{_d(rng, 3)}",
                f"{''.join(rng.choice(L) for _ in range(3))}-{_d(rng, 4)}",
                f"{''.join(rng.choice(L) for _ in range(3))} {_d(rng, 3)}",
            )
        )
    elif region == "uk":
        text = f"{rng.choice(L)}{rng.choice(L)}{rng.randint(51, 74) if rng.random() < 0.5 else rng.randint(10, 25)} {''.join(rng.choice(L) for _ in range(3))}"  # noqa: E501
    elif region == "de":
        city = rng.choice(("B", "M", "HH", "K", "F", "S", "DD", "HB"))
        text = f"{city}{rng.choice(('-', ' '))}{''.join(rng.choice(L) for _ in range(rng.randint(1, 2)))} {rng.randint(1, 9999)}"  # noqa: E501
        if rng.random() < 0.15:
            text += "E"
    elif region == "fr":
        text = f"{rng.choice(L)}{rng.choice(L)}-{_d(rng, 3)}-{rng.choice(L)}{rng.choice(L)}"
    elif region == "br":
        text = f"{''.join(rng.choice(L) for _ in range(3))}{rng.randint(0, 9)}{rng.choice(L)}{_d(rng, 2)}"
    else:
        text = _sg_plate(rng)
    return Val("plate", text, rng.choice(CUE[lang]["plate"]))


# ------------------------------------------------------------------ devices
def _public_ipv4(rng: random.Random) -> str:
    import ipaddress

    while True:
        ip = ipaddress.IPv4Address(rng.randrange(1 << 24, 224 << 24))
        if ip.is_global:
            return str(ip)


def make_device(rng: random.Random, lang: str) -> Val:
    form = rng.choice(("mac", "mac", "imei", "imei", "meid", "serial", "android", "adid", "ip"))
    if form == "mac":
        b = [rng.randrange(256) for _ in range(6)]
        b[0] &= 0xFE
        h = "".join(f"{x:02x}" for x in b)
        if rng.random() < 0.5:
            h = h.upper()
        style = rng.choice(("colon", "colon", "dash", "dot", "none"))
        text = {
            "colon": ":".join(h[i : i + 2] for i in range(0, 12, 2)),
            "dash": "-".join(h[i : i + 2] for i in range(0, 12, 2)),
            "dot": ".".join(h[i : i + 4] for i in range(0, 12, 4)),
            "none": h,
        }[style]
    elif form == "imei":
        body = rng.choice(("35", "86", "01", "99")) + _d(rng, 12)
        n = body + _luhn_digit(body)
        text = rng.choice((n, f"{n[:2]}-{n[2:8]}-{n[8:14]}-{n[14]}", f"{n[:8]} {n[8:]}"))
    elif form == "meid":
        text = rng.choice(("A0", "A1", "A2", "99")) + "".join(
            rng.choice("0123456789ABCDEF") for _ in range(12)
        )
    elif form == "serial":
        an = string.ascii_uppercase.replace("O", "").replace("I", "") + string.digits
        text = rng.choice(
            (
                rng.choice(("C02", "F2L", "DMP", "G6T")) + "".join(rng.choice(an) for _ in range(9)),
                "".join(rng.choice(an) for _ in range(10)),
                "R" + rng.choice("5F") + rng.choice("8CN") + "".join(rng.choice(an) for _ in range(8)),
            )
        )
        if not re.search(r"\d", text) or not re.search(r"[A-Z]", text):
            text = text[:-2] + rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") + rng.choice(string.digits)
    elif form == "android":
        text = "".join(rng.choice("0123456789abcdef") for _ in range(16))
    elif form == "adid":
        h = "".join(rng.choice("0123456789abcdef") for _ in range(32))
        h = h[:12] + "4" + h[13:16] + rng.choice("89ab") + h[17:]
        text = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
        if rng.random() < 0.5:
            text = text.upper()
    else:
        text = _public_ipv4(rng)
    return Val("device", text, DEVICE_WORDS[form][lang])


# ------------------------------------------------------------------ names
ZH_SURNAMES = (
    "王",
    "李",
    "张",
    "刘",
    "陈",
    "杨",
    "黄",
    "赵",
    "吴",
    "周",
    "徐",
    "孙",
    "马",
    "朱",
    "胡",
    "郭",
    "何",
    "林",
    "罗",
    "高",
    "郑",
    "梁",
    "谢",
    "宋",
    "唐",
    "韩",
    "冯",
    "邓",
    "曹",
    "彭",
    "曾",
    "萧",
    "田",
    "董",
    "潘",
    "袁",
    "禤",
    "亓",
    "冼",
    "乜",
    "笪",
    "佘",
    "郗",
    "逄",
    "巫",
    "晏",
    "靳",
    "甄",
    "覃",
    "阙",
    "蒯",
    "仉",
    "芮",
    "缪",
)
ZH_COMPOUND = ("欧阳", "司马", "上官", "诸葛", "皇甫", "令狐", "慕容", "端木", "东方", "公孙", "尉迟", "澹台")
ZH_GIVEN = (
    "子涵",
    "浩然",
    "雨桐",
    "思远",
    "梓萱",
    "宇轩",
    "欣怡",
    "俊杰",
    "佳琪",
    "明轩",
    "诗涵",
    "志强",
    "秀英",
    "建国",
    "丽娟",
    "晓东",
    "婉清",
    "一鸣",
    "若曦",
    "嘉懿",
    "沐辰",
    "语嫣",
    "昊天",
    "芷若",
    "伟",
    "芳",
    "静",
    "磊",
    "敏",
    "洋",
    "倩",
    "鑫",
    "瑾瑜",
    "嘉欣",
    "泽楷",
    "咏琪",
    "家豪",
    "淑芬",
    "志玲",
    "冠宇",
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
    "勅使河原",
    "小鳥遊",
    "四月一日",
    "長谷川",
    "五十嵐",
    "東海林",
    "一ノ瀬",
)
JA_GIVEN = (
    "翔太",
    "陽菜",
    "蓮",
    "結衣",
    "大翔",
    "さくら",
    "悠真",
    "美咲",
    "拓海",
    "葵",
    "健一",
    "由美子",
    "ひなた",
    "ゆうき",
    "あおい",
    "健太郎",
    "真由美",
    "湊",
    "凛",
    "こはる",
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
    "남궁",
    "황보",
    "제갈",
    "선우",
    "독고",
    "사공",
    "빈",
    "탁",
    "편",
    "어",
    "국",
)
KO_GIVEN = (
    "민준",
    "서연",
    "지호",
    "하은",
    "도윤",
    "서윤",
    "예준",
    "지우",
    "현우",
    "수아",
    "건우",
    "채원",
    "은서",
    "지민",
    "태양",
    "보람",
    "슬기",
    "한결",
    "나래",
    "다솜",
)
KATAKANA_FOREIGN = (
    "ジョン・スミス",
    "マイケル・ブラウン",
    "エミリー・ジョンソン",
    "アンナ・シュミット",
    "マリア・ガルシア",
    "ルーカス・ミュラー",
    "ソフィア・ロッシ",
    "ダニエル・キム",
    "オリバー・テイラー",
    "チャン・ウェイ",
)
HANGUL_FOREIGN = (
    "마이클 존슨",
    "제임스 스미스",
    "엠마 왓슨",
    "안나 슈미트",
    "마리아 가르시아",
    "루카스 뮐러",
    "소피아 로시",
    "다나카 유키",
    "왕웨이",
    "리나",
)
ZH_FOREIGN = ("约翰·史密斯", "玛丽亚·加西亚", "汉斯·穆勒", "田中美咲", "金敏俊", "朴瑞妍", "安娜·施密特")


def _latin_name(rng: random.Random, gen: Gen) -> str:
    p = gen.people[rng.choice(LATIN_LOCALES)]
    first, last = p.first_name(), p.last_name()
    r = rng.random()
    if r < 0.7:
        return f"{first} {last}"
    if r < 0.85:
        return f"{last}, {first}" if rng.random() < 0.3 else last
    return f"{first[0]}. {last}"


def _zh_name(rng: random.Random) -> str:
    sur = rng.choice(ZH_COMPOUND) if rng.random() < 0.15 else rng.choice(ZH_SURNAMES)
    return sur + rng.choice(ZH_GIVEN)


def make_name(rng: random.Random, gen: Gen, lang: str) -> Val:
    r = rng.random()
    halves = None
    if lang == "zh":
        if r < 0.6:
            sur = rng.choice(ZH_COMPOUND) if rng.random() < 0.15 else rng.choice(ZH_SURNAMES)
            given = rng.choice(ZH_GIVEN)
            text, halves = sur + given, (sur, given)
        elif r < 0.72:
            text = rng.choice(ZH_FOREIGN)
        elif r < 0.8:
            p = gen.people["zh"]
            text = p.last_name() + p.first_name()
        elif r < 0.9:
            text = _latin_name(rng, gen)
        else:
            a, b = rng.sample(ROMAN["zh"], 2)
            text = f"{a} {b}" if rng.random() < 0.5 else f"{a.capitalize()} {b.capitalize()}"
    elif lang == "ja":
        if r < 0.55:
            sur, given = rng.choice(JA_SURNAMES), rng.choice(JA_GIVEN)
            text, halves = sur + rng.choice(("", " ", "　")) + given, (sur, given)
            if rng.random() < 0.3:
                text = sur
        elif r < 0.68:
            text = rng.choice(KATAKANA_FOREIGN)
        elif r < 0.78:
            p = gen.people["ja"]
            text = p.last_name() + p.first_name()
        elif r < 0.88:
            text = _latin_name(rng, gen)
        else:
            a, b = rng.sample(ROMAN["ja"], 2)
            text = f"{a} {b}" if rng.random() < 0.5 else f"{a.capitalize()} {b.upper()}"
    elif lang == "ko":
        if r < 0.55:
            sur, given = rng.choice(KO_SURNAMES), rng.choice(KO_GIVEN)
            text, halves = sur + given, (sur, given)
        elif r < 0.68:
            text = rng.choice(HANGUL_FOREIGN)
        elif r < 0.78:
            p = gen.people["ko"]
            text = p.last_name() + p.first_name()
        elif r < 0.88:
            text = _latin_name(rng, gen)
        else:
            a, b = rng.sample(ROMAN["ko"], 2)
            text = f"{b} {a}" if rng.random() < 0.5 else f"{a.capitalize()} {b.capitalize()}"
    else:
        if r < 0.65:
            p = gen.people[rng.choice(LATIN_LOCALES)]
            first, last = p.first_name(), p.last_name()
            text, halves = f"{first} {last}", (first, last)
        elif r < 0.75:
            text = _latin_name(rng, gen)
        elif r < 0.85:
            text = (
                _zh_name(rng)
                if rng.random() < 0.3
                else " ".join(x.capitalize() for x in rng.sample(ROMAN["zh"], 2))
            )
        elif r < 0.93:
            text = " ".join(x.capitalize() for x in rng.sample(ROMAN[rng.choice(("ja", "ko"))], 2))
        else:
            text = " ".join(x for x in rng.sample(ROMAN[rng.choice(("zh", "ja", "ko"))], 2))
    return Val("name", text, rng.choice(CUE[lang]["name"]), halves=halves)


# ------------------------------------------------------------------ addresses
CN_PLACES = (
    ("广东省", "深圳市", "南山区"),
    ("浙江省", "杭州市", "西湖区"),
    ("四川省", "成都市", "武侯区"),
    ("湖北省", "武汉市", "洪山区"),
    ("江苏省", "南京市", "鼓楼区"),
    ("", "上海市", "浦东新区"),
    ("", "北京市", "朝阳区"),
    ("陕西省", "西安市", "雁塔区"),
    ("福建省", "厦门市", "思明区"),
    ("山东省", "青岛市", "崂山区"),
)
CN_ROADS = (
    "科技南十二路",
    "文三路",
    "人民南路",
    "珞喻路",
    "中山北路",
    "张江路",
    "建国路",
    "小寨东路",
    "湖滨南路",
    "香港中路",
    "学府路",
    "滨江大道",
)
CN_ESTATES = ("阳光花园", "翠湖小区", "金地名京", "万科城", "碧桂园", "绿城桂花园", "保利中央公园", "幸福里")
HK_STREETS = ("弥敦道", "皇后大道中", "英皇道", "青山公路", "沙田正街", "德辅道西", "荔枝角道")
HK_DISTRICTS = ("九龙旺角", "香港中环", "北角", "荃湾", "沙田", "西营盘", "深水埗")
TW_PLACES = (
    ("台北市", "大安区", "忠孝东路四段"),
    ("新北市", "板桥区", "文化路一段"),
    ("台中市", "西屯区", "台湾大道三段"),
    ("高雄市", "苓雅区", "四维三路"),
)
JP_PLACES = (
    ("東京都", "世田谷区", "三軒茶屋"),
    ("大阪府", "大阪市北区", "梅田"),
    ("神奈川県", "横浜市港北区", "日吉"),
    ("愛知県", "名古屋市中区", "栄"),
    ("北海道", "札幌市中央区", "北一条西"),
    ("福岡県", "福岡市博多区", "博多駅前"),
    ("京都府", "京都市左京区", "田中里ノ前町"),
)
JP_BUILDINGS = (
    "サンハイツ",
    "グランドメゾン",
    "パークハウス",
    "コーポ山田",
    "レオパレス",
    "ライオンズマンション",
)
KR_PLACES = (
    ("서울특별시", "강남구", "테헤란로"),
    ("서울특별시", "마포구", "월드컵북로"),
    ("부산광역시", "해운대구", "해운대로"),
    ("경기도 성남시", "분당구", "판교역로"),
    ("인천광역시", "연수구", "컨벤시아대로"),
    ("대구광역시", "수성구", "달구벌대로"),
)
KR_APTS = ("래미안아파트", "푸르지오", "힐스테이트", "자이아파트", "롯데캐슬", "e편한세상")


def _num(rng: random.Random, lo: int = 1, hi: int = 300) -> int:
    return rng.randint(lo, hi)


def make_address(rng: random.Random, gen: Gen, lang: str) -> Val:
    forms = {
        "zh": ("cn", "cn", "cn", "cn_part", "hk", "tw", "cn_en", "west"),
        "en": ("west", "west", "west", "west_part", "cn_en", "jp_en", "kr_en", "hk_en"),
        "ja": ("jp", "jp", "jp", "jp_part", "jp_en", "west"),
        "ko": ("kr", "kr", "kr", "kr_part", "kr_en", "west"),
    }[lang]
    form = rng.choice(forms)
    halves = None
    if form in ("cn", "cn_part"):
        prov, city, dist = rng.choice(CN_PLACES)
        road = f"{rng.choice(CN_ROADS)}{_num(rng)}号"
        unit = f"{rng.choice(CN_ESTATES)}{_num(rng, 1, 30)}栋{_num(rng, 1, 6)}单元{_num(rng, 1, 32)}0{_num(rng, 1, 8)}室"  # noqa: E501
        if form == "cn_part":
            text = road + rng.choice(("", f"{_num(rng, 1, 30)}栋{_num(rng, 1, 32)}0{_num(rng, 1, 8)}室"))
        else:
            line1 = f"{prov}{city}{dist}{road}"
            text, halves = line1 + unit, (line1, unit)
    elif form == "hk":
        text = f"{rng.choice(HK_DISTRICTS)}{rng.choice(HK_STREETS)}{_num(rng)}号{rng.choice(('美孚新邨', '太古城', '华富邨', ''))}{_num(rng, 2, 40)}楼{rng.choice('ABCDEFGH')}室"  # noqa: E501
    elif form == "tw":
        c, d, road = rng.choice(TW_PLACES)
        text = f"{c}{d}{road}{_num(rng)}巷{_num(rng, 1, 30)}号{_num(rng, 2, 20)}楼"
    elif form in ("jp", "jp_part"):
        pref, city, town = rng.choice(JP_PLACES)
        chome = f"{town}{_num(rng, 1, 5)}丁目{_num(rng, 1, 30)}-{_num(rng, 1, 20)}"
        bld = f"{rng.choice(JP_BUILDINGS)}{_num(rng, 1, 12)}0{_num(rng, 1, 9)}号室"
        if form == "jp_part":
            text = chome
        else:
            zipc = f"〒{_num(rng, 100, 999)}-{_d(rng, 4)} " if rng.random() < 0.5 else ""
            line1 = f"{zipc}{pref}{city}{chome}"
            text, halves = line1 + rng.choice((" ", "　", "")) + bld, (line1, bld)
    elif form in ("kr", "kr_part"):
        city, gu, road = rng.choice(KR_PLACES)
        street = f"{road} {_num(rng, 1, 500)}" + rng.choice(("", f"번길 {_num(rng, 1, 40)}"))
        if form == "kr_part":
            text = street
        else:
            apt = f"{rng.choice(KR_APTS)} {_num(rng, 101, 120)}동 {_num(rng, 1, 25)}0{_num(rng, 1, 6)}호"
            line1 = f"{city} {gu} {street}"
            text, halves = f"{line1}, {apt}", (line1, apt)
    elif form == "cn_en":
        text = rng.choice(
            (
                f"Room {_num(rng, 1, 30)}0{_num(rng, 1, 8)}, Building {_num(rng, 1, 20)}, No. {_num(rng)} Wensan Road, Xihu District, Hangzhou",  # noqa: E501
                f"No. {_num(rng)} Keji South 12th Road, Nanshan District, Shenzhen, Guangdong {_num(rng, 510, 518)}0{_d(rng, 2)}",  # noqa: E501
                f"Flat {rng.choice('ABCDEF')}, {_num(rng, 2, 40)}/F, {_num(rng)} Nathan Road, Mong Kok, Kowloon",  # noqa: E501
            )
        )
    elif form == "hk_en":
        text = f"Flat {rng.choice('ABCDEFGH')}, {_num(rng, 2, 40)}/F, Block {_num(rng, 1, 9)}, Taikoo Shing, {_num(rng, 1, 50)} Tai Koo Shing Road, Quarry Bay"  # noqa: E501
    elif form == "jp_en":
        text = f"{_num(rng, 1, 5)}-{_num(rng, 1, 30)}-{_num(rng, 1, 20)} {rng.choice(('Sangenjaya, Setagaya-ku', 'Umeda, Kita-ku', 'Hiyoshi, Kohoku-ku'))}, {rng.choice(('Tokyo', 'Osaka', 'Yokohama'))} {_num(rng, 100, 999)}-{_d(rng, 4)}"  # noqa: E501
    elif form == "kr_en":
        text = f"{_num(rng, 1, 500)} {rng.choice(('Teheran-ro, Gangnam-gu', 'Haeundae-ro, Haeundae-gu', 'Pangyoyeok-ro, Bundang-gu'))}, {rng.choice(('Seoul', 'Busan', 'Seongnam'))} {_d(rng, 5)}"  # noqa: E501
    else:
        loc = rng.choice(LATIN_LOCALES)
        a = gen.places[loc]
        street, no, city, zipc = a.street_name(), str(_num(rng, 1, 250)), a.city(), a.postal_code()
        typed = street.split(" ")[0] in (
            "Calle",
            "Avenida",
            "Rua",
            "Praça",
            "Via",
            "Viale",
            "Piazza",
            "Travessa",
            "Rotatória",
            "Alameda",
            "Paseo",
            "Plaza",
            "Camino",
            "Ronda",
            "Largo",
        )
        kind_word = {"es": "Calle ", "pt-br": "Rua ", "it": "Via "}.get(loc, "") if not typed else ""
        line1 = {
            "de": f"{street} {no}",
            "nl": f"{street} {no}",
            "pl": f"ul. {street} {no}/{_num(rng, 1, 40)}",
            "sv": f"{street} {no}",
            "cs": f"{street} {no}",
            "es": f"{kind_word}{street}, {no}, {_num(rng, 1, 9)}º",
            "pt-br": f"{kind_word}{street}, {no}, apto {_num(rng, 11, 99)}",
            "it": f"{kind_word}{street} {no}",
            "tr": f"{street} Sok. No: {no} D: {_num(rng, 1, 20)}",
        }[loc]
        if form == "west_part":
            text = line1
        else:
            line2 = f"{zipc} {city}" if loc not in ("pt-br",) else f"{city} - CEP {zipc}"
            text, halves = f"{line1}, {line2}", (line1, line2)
    return Val("address", text, rng.choice(CUE[lang]["address"]), halves=halves)


# ------------------------------------------------------------------ near-misses
PRODUCTS = (
    "SM-S9280",
    "A2849",
    "MQ753CH/A",
    "RTX 4070 Ti",
    "WH-1000XM5",
    "XQ-DQ44",
    "KJ-65X85L",
    "RT-AX86U",
    "MLA02CH/A",
    "SM-G9910",
    "NP-940X5N",
    "27GP850-B",
    "V2309A",
    "PGT-AN10",
    "Mate 60 Pro",
    "DCS-8000LH",
    "iPhone 15 Pro",
    "Galaxy Z Flip5",
    "ThinkPad X1 Carbon Gen 11",
    "EOS R6 Mark II",
    "MX Master 3S",
)
BRANDS = {
    "zh": (
        "海底捞",
        "周大福",
        "李宁",
        "王老吉",
        "张亮麻辣烫",
        "老干妈",
        "杨国福麻辣烫",
        "周黑鸭",
        "陈李济",
        "胡庆余堂",
        "喜茶",
        "蜜雪冰城",
        "太二酸菜鱼",
    ),
    "en": (
        "Tim Hortons",
        "Ralph Lauren",
        "Tommy Hilfiger",
        "Jack Daniel's",
        "Ben & Jerry's",
        "Dr. Pepper",
        "Hello Kitty",
        "Calvin Klein",
        "Wendy's",
        "Marks & Spencer",
        "Dr. Martens",
        "Victoria Station",
    ),
    "ja": (
        "武蔵小杉",
        "大江戸温泉",
        "金閣寺",
        "吉野家",
        "松屋",
        "ケンタッキー",
        "無印良品",
        "伊勢丹",
        "高島屋",
        "明治神宮",
    ),
    "ko": (
        "이마트",
        "배스킨라빈스",
        "파리바게뜨",
        "김밥천국",
        "홍콩반점",
        "교촌치킨",
        "이디야",
        "정관장",
        "롯데월드",
        "광화문",
    ),
}


def _ean(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.25:  # UPC-A
        body = rng.choice("0") + _d(rng, 10)
        s = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(body))
        return body + str((10 - s % 10) % 10)
    body = rng.choice(("690", "692", "693", "695", "880", "590", "760", "890", "978")) + _d(rng, 9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


def make_near(rng: random.Random, kind: str, lang: str) -> str:
    if kind == "product_code":
        return rng.choice(PRODUCTS)
    if kind == "version":
        return rng.choice(
            (
                f"{rng.randint(1, 20)}.{rng.randint(0, 9)}",
                f"{rng.randint(1, 20)}.{rng.randint(0, 12)}.{rng.randint(0, 30)}",
                f"{rng.randint(1, 9)}.{rng.randint(0, 9)}.{rng.randint(0, 99)}.{rng.randint(100, 9999)}",
                f"v{rng.randint(1, 20)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}",
                f"Build {rng.randint(19041, 26100)}.{rng.randint(100, 4999)}",
                f"iOS {rng.randint(15, 18)}.{rng.randint(0, 6)}.{rng.randint(1, 3)}",
            )
        )
    if kind == "brand":
        return rng.choice(BRANDS[lang] if rng.random() < 0.8 else BRANDS[rng.choice(LANGS)])
    if kind == "hotline":
        return rng.choice(
            {
                "zh": (
                    f"400-{_d(rng, 3)}-{_d(rng, 4)}",
                    f"800-{_d(rng, 3)}-{_d(rng, 4)}",
                    "95588",
                    "95533",
                    "12345",
                    "10086",
                    "110",
                    "119",
                    "120",
                ),
                "en": (
                    f"1-800-{_d(rng, 3)}-{_d(rng, 4)}",
                    f"1-888-{_d(rng, 3)}-{_d(rng, 4)}",
                    "911",
                    "999",
                    "112",
                    "0800 " + _d(rng, 3) + " " + _d(rng, 3),
                ),
                "ja": (
                    f"0120-{_d(rng, 3)}-{_d(rng, 3)}",
                    f"0570-{_d(rng, 3)}-{_d(rng, 3)}",
                    "110",
                    "119",
                    "#9110",
                ),
                "ko": (
                    f"1588-{_d(rng, 4)}",
                    f"1577-{_d(rng, 4)}",
                    f"1544-{_d(rng, 4)}",
                    "112",
                    "119",
                    "1330",
                ),
            }[lang]
        )
    if kind == "router_ip":
        return rng.choice(
            (
                f"192.168.{rng.randint(0, 3)}.{rng.randint(1, 254)}",
                f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                f"172.{rng.randint(16, 31)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
            )
        )
    if kind == "student_no":
        return rng.choice(
            (
                f"20{rng.randint(18, 25)}{_d(rng, 6)}",
                f"B{rng.randint(19, 25)}{_d(rng, 6)}",
                f"{rng.randint(18, 25)}S{_d(rng, 5)}",
            )
        )
    if kind == "barcode":
        return _ean(rng)
    if kind == "http_status":
        return rng.choice(
            (
                "404",
                "502 Bad Gateway",
                "500",
                "403 Forbidden",
                "0x80070005",
                "0xc000007b",
                "E1001",
                "ERR_CONNECTION_RESET",
                "429",
                "503",
            )
        )
    if kind == "order_number":
        return rng.choice(
            (
                f"{rng.randint(2023, 2025)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{_d(rng, 10)}",
                f"SF{_d(rng, 13)}",
                f"YT{_d(rng, 13)}",
                f"JD{_d(rng, 12)}",
                f"1Z{_d(rng, 3)}AA{_d(rng, 10)}",
                f"{_d(rng, 4)}-{_d(rng, 4)}-{_d(rng, 4)}",
                f"#{_d(rng, 3)}-{_d(rng, 7)}-{_d(rng, 7)}",
            )
        ).lstrip("#")
    if kind == "date":
        y, m, d = rng.randint(2019, 2026), rng.randint(1, 12), rng.randint(1, 28)
        return rng.choice(
            {
                "zh": (
                    f"{y}-{m:02d}-{d:02d}",
                    f"{y}/{m}/{d}",
                    f"{m}月{d}日",
                    f"{y}年{m}月{d}日",
                    f"{y}.{m:02d}.{d:02d}",
                ),
                "en": (
                    f"{y}-{m:02d}-{d:02d}",
                    f"{d}/{m}/{y}",
                    f"{m}/{d}/{y}",
                    f"{['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]} {d}, {y}",  # noqa: E501
                    f"{d}.{m}.{y}",
                ),
                "ja": (
                    f"{y}年{m}月{d}日",
                    f"令和{y - 2018}年{m}月{d}日",
                    f"{y}/{m:02d}/{d:02d}",
                    f"{m}月{d}日",
                ),
                "ko": (f"{y}년 {m}월 {d}일", f"{y}.{m:02d}.{d:02d}", f"{m}월 {d}일", f"{y}-{m:02d}-{d:02d}"),
            }[lang]
        )
    # price
    a = rng.randint(5, 9999)
    return rng.choice(
        {
            "zh": (f"¥{a:,}", f"{a}元", f"￥{a}.00", f"HK${a:,}", f"NT${a:,}"),
            "en": (
                f"${a:,}.99",
                f"€{a},00",
                f"£{a}",
                f"R$ {a:,},90".replace(",", ".", 1) if a >= 1000 else f"R$ {a},90",
                f"{a:,}.00 €".replace(",", "X").replace(".", ",").replace("X", "."),
                f"₹{a:,}",
            ),
            "ja": (f"¥{a:,}", f"{a:,}円", f"税込{a}円"),
            "ko": (f"₩{a * 10:,}", f"{a * 10:,}원", f"{a}만원"),
        }[lang]
    )


# ------------------------------------------------------------------ assembling a turn
def _make(kind: str, rng: random.Random, gen: Gen, lang: str) -> Val:
    if kind in ("email", "handle", "name", "address"):
        return globals()[f"make_{kind}"](rng, gen, lang)
    return globals()[f"make_{kind}"](rng, lang)


def _halves(rng: random.Random, val: Val) -> tuple[str, str] | None:
    if val.halves:
        return val.halves
    if val.kind not in ("phone", "card", "id") or val.post:
        return None
    t = val.text
    seps = [m.start() for m in re.finditer(r"[\s\-.\u3000]+", t)]
    if seps:
        cut = seps[len(seps) // 2]
        a, b = t[:cut], t[cut:]
    else:
        cut = len(t) // 2
        a, b = t[:cut], t[cut:]
    a, b = a.strip(" -.\u3000\u00a0"), b.strip(" -.\u3000\u00a0")
    return (a, b) if len(a) >= 3 and len(b) >= 3 and "(" not in b and ")" not in a else None


def _zero_width(rng: random.Random, text: str) -> str:
    if len(text) < 4:
        return text
    i = rng.randint(1, len(text) - 2)
    return text[:i] + rng.choice(ZW) + text[i:]


class _Builder:
    def __init__(self) -> None:
        self.text = ""
        self.pii: list[tuple[int, int, str]] = []
        self.near: list[tuple[int, int, str]] = []

    def fill(self, template: str, slots: dict[str, tuple[str, str | None, bool]]) -> None:
        """Append `template` with its {slots}: name -> (text, label, is_near)."""
        for piece in re.split(r"(\{[a-z]\})", template):
            slot = slots.get(piece[1:-1]) if piece.startswith("{") else None
            if slot is None:
                self.text += piece
                continue
            text, label, is_near = slot
            start = len(self.text)
            self.text += text
            if label:
                (self.near if is_near else self.pii).append((start, len(self.text), label))

    def value(self, template: str, val: Val, rng: random.Random) -> None:
        text = val.text
        if val.kind in ("phone", "card", "id", "email", "device") and rng.random() < 0.05:
            text = _zero_width(rng, text)
        # {v} is pre + value + post, the span on the value alone
        parts = re.split(r"(\{v\})", template)
        for part in parts:
            if part == "{v}":
                self.text += val.pre
                start = len(self.text)
                self.text += text
                self.pii.append((start, len(self.text), val.kind))
                self.text += val.post
            else:
                self.fill(part, {"p": (val.cue, None, False)})


def turns(n: int, seed: int = 0, near_share: float = 0.6) -> list[HeldTurn]:
    rng = random.Random(seed)
    gen = Gen(rng)
    out: list[HeldTurn] = []
    near_i = 0
    for i in range(n):
        lang = LANGS[i % 4]
        kind = KINDS[i % 9]
        val = _make(kind, rng, gen, lang)
        b = _Builder()
        halves = _halves(rng, val) if rng.random() < 0.1 else None
        near_first = rng.random() < 0.3
        near_text = near_tpl = near_kind = None
        if rng.random() < near_share:
            near_kind = NEAR_KINDS[near_i % len(NEAR_KINDS)]
            near_i += 1
            near_tpl = rng.choice(NEAR[lang][near_kind])
            near_text = make_near(rng, near_kind, lang)
        if near_kind and near_first:
            b.fill(near_tpl, {"x": (near_text, near_kind, True)})
            b.fill({"zh": "。", "ja": "。", "en": ". ", "ko": ". "}[lang] if rng.random() < 0.6 else "\n", {})
        if halves:
            b.fill(
                rng.choice(SPLIT[lang]),
                {"a": (halves[0], kind, False), "b": (halves[1], kind, False), "p": (val.cue, None, False)},
            )
        else:
            b.value(rng.choice(TEMPLATES[lang][kind]), val, rng)
        if rng.random() < 1 / 3:
            kind2 = rng.choice([k for k in KINDS if k != kind])
            val2 = _make(kind2, rng, gen, lang)
            b.value(rng.choice(SECOND[lang]), val2, rng)
        if near_kind and not near_first:
            sep = rng.choice(
                (
                    {"zh": "，", "ja": "、", "en": ", ", "ko": ", "}[lang],
                    "\n",
                    {"zh": "。", "ja": "。", "en": ". ", "ko": ". "}[lang],
                )
            )
            b.fill(sep + near_tpl, {"x": (near_text, near_kind, True)})
        if rng.random() < 0.08:
            b.fill(rng.choice(("🙏", " 😅", "！！", " thx", "～", "?")), {})
        out.append(HeldTurn(text=b.text, pii=sorted(b.pii), near=b.near, lang=lang))
    return out
