"""Messenger accounts, vehicle plates and device identifiers: values that name one person's
account, car or phone.

A messenger id has no shape of its own (`wxid_123abc`, `susan_91`, `@kyle`, a QQ number), so it is
the token a messenger's name names, however users write it (微信, vx, 绿泡泡, QQ, dy号, LINE, ライン,
카톡, tg, インスタのアカ, ツイ垢, 디코, dc, …; a Latin name also with two neighbouring letters swapped,
`disocrd`), or an account's own word (handle, username, 用户名, 아이디). Every kind here is read by one
grammar of cue and value: the value after its cue across a gap of words (`有问题微信找我…`, `公司要登记
电脑的SN，我的是…`, `やってる？…だよ`, `my snap is now …`, `find my plate no below:\n…`), or before
it across a pointer (`… <- that's my rego`, `…\n↑微信`, `… 이게 제 S/N예요`, `…\nこれがIMEIです`). An
ordinary word there (`Discord server`, `Telegram is down`, `微信APP`) names no account; a name that is
also an English word (LINE, Signal, snap, tg, X, dc) needs a linking word, a frame or an `@`. Plates
are read by shape where the shape is a plate's alone (mainland, Korean, Japanese), else by a
vehicle cue (plate, rego, 车牌, 번호판, ナンバー) or a parking word after them (`… has parking fines`).
A MAC address is read in any notation (`aa:bb:…`, `AA-BB-…`, Cisco's `aabb.ccdd.eeff`, Huawei's
`aabb-ccdd-eeff`, twelve bare hex digits); an IMEI is 15 digits, grouped anyhow, with a Luhn check;
a serial number or a device id (MEID, checked; IDFA, advertising ID, UDID) is the token its cue
names. A model's code, a version or a student number near a cue stays (`SN的问题，我买的WH-1000XM3`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from stdnum import imei, meid

from uxbench.pipeline.privacy.context import clause_after, clause_before, keeps

Span = tuple[int, int, str]

# ------------------------------------------------------------------ cue words as people misspell them
# the Latin cue words, read through one swap of neighbouring letters (`disocrd`, `kkaaotalk`, `plaet`,
# `sreial`): the text keeps its length, so every span found on the spelled text is the user's
_CUE_SPELLINGS = (
    "kakaotalk kakao telegram instagram insta twitter discord snapchat whatsapp wechat weixin signal "
    "douyin weibo tiktok facebook skype viber line snap plate number username handle advertising "
    "license licence registration serial device towed parked that imei"
).split()
_NOT_TYPOS = frozenset("lien ergo snpa form from".split())  # swaps that are words of their own


def _swaps(word: str) -> dict[str, int]:
    return {word[:i] + word[i + 1] + word[i] + word[i + 2 :]: i for i in range(len(word) - 1)}


_TYPOS = {
    typo: i
    for word in _CUE_SPELLINGS
    for typo, i in _swaps(word).items()
    if typo not in _CUE_SPELLINGS and typo not in _NOT_TYPOS
}
_LATIN_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{4,12}(?![A-Za-z])")


def _unswap(match: re.Match[str]) -> str:
    word = match.group()
    i = _TYPOS.get(word.lower())
    return word if i is None else word[:i] + word[i + 1] + word[i] + word[i + 2 :]


@functools.lru_cache(maxsize=8)
def spelled(text: str) -> str:
    """`text` with its misspelt cue words spelled right, letter for letter in place."""
    return _LATIN_WORD.sub(_unswap, text)


# ------------------------------------------------------------------ a value and the cue that names it
# what may stand between a cue and its value: signs, CJK words (`，我的是`, `を伝えたいので…→`, `로
# 연락해`), one line break, and the English words of a form (`is now`, `below:`, `so I put "`); no
# other Latin word, no digit, no sentence's end
_GAP_WORDS = (
    r"(?:is|now|to|below|so|i|put|it'?s|was|as|on|at|via|in|my|the|here|number|no\.?|id|uid|"
    r"handle|user\s*name|user|account)(?![A-Za-z0-9_.\-])"
)
_GAP = rf"(?:[^A-Za-z0-9\x00。！!.;；@#+↑←⇐]|{_GAP_WORDS}){{0,24}}"
_GAP_MAX_LINES = 1
# what points from a value to its cue after it: an arrow, a line break, `that's my`, `这个是我`,
# `이게 제`, `위에 거`, `これが`, `は私の`
_POINTER = (
    r"[ \t]*(?:<-{1,2}|←|⇐|↑|\n[ \t]*↑?)?[ \t]*"
    r"(?:(?:that'?s|that\s+is|this\s+is|it'?s|is)\s+(?:the|my)\s+|这个?是我的?|这是我的?|就?是我的?|"
    r"[はが]私の|これが|これは|(?:이게|이건|가|이|는|은)\s*(?:제|내)\s*|위에\s*[거꺼]\s*)?"
)
_POINTED = re.compile(r"<-|←|⇐|↑|\n|[^\s]")  # a pointer is more than a space


# across a line break, a gap is a few words on either side (`…的SN\n我的是…`, `… below:\n…`), not sentences
_BEFORE_BREAK, _AFTER_BREAK = 12, 4


def _gap_ok(link: str) -> bool:
    """Whether a gap keeps to one line break, with a few words (no English) on its second line."""
    lines = link.split("\n")
    if len(lines) == 1:
        return True
    first, last = lines[0].strip(), lines[-1].strip()
    return (
        len(lines) <= _GAP_MAX_LINES + 1
        and not first.endswith(("?", "？"))  # a question ends its sentence
        and len(first) <= _BEFORE_BREAK
        and len(last) <= _AFTER_BREAK
        and not any(c.isascii() and c.isalpha() for c in last)
    )


def _points(text: str, start: int, link: str) -> bool:
    """Whether a pointer points from the value at `start` to the cue after it: an arrow or words,
    or a line break from a line that is nothing but the value (`kyle_92\n↑微信`)."""
    if _POINTED.search(link.replace("\n", " ")):
        return True
    return "\n" in link and (start == 0 or text[start - 1] == "\n")


Cued = tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]


def _cued(cue: str, value: str) -> Cued:
    """The cue alone (most texts have none: nothing more is read), the value after its cue (across
    a `_GAP`) and the value before its cue (across a `_POINTER`)."""
    after = re.compile(rf"(?P<cue>{cue})(?P<link>{_GAP})(?P<value>{value})", re.IGNORECASE)
    before = re.compile(
        rf"(?<![A-Za-z0-9_.\-@#:/])(?P<value>{value})(?P<link>{_POINTER})(?P<cue>{cue})", re.IGNORECASE
    )
    return re.compile(cue, re.IGNORECASE), after, before


def _named(text: str, patterns: Cued) -> Iterator[tuple[re.Match[str], bool]]:
    """Each value a cue names, with whether the cue comes after it."""
    cue, after, before = patterns
    if cue.search(text) is None:
        return
    at = 0  # a cue inside another's gap names its own value (`카카오뱅크 고객센터\n카카오톡: …`)
    while match := after.search(text, at):
        at = match.end("cue")
        if _gap_ok(match.group("link")):
            yield match, False
    for match in before.finditer(text):
        if _points(text, match.start(), match.group("link")):
            yield match, True


# ------------------------------------------------------------------ messenger handles
# names that are nothing but a messenger's or a social network's, as users write them
_MESSENGERS = (
    r"微信号?|微信の|威信|薇信|[vV]信|vx|wx|wechat|weixin|qq|扣扣|企鹅号|[qQ]号|飞机号|飛機號|纸飞机|紙飛機|"
    r"绿泡泡|綠泡泡|ウィーチャット|위챗|"
    r"ライン|라인|kakao(?:\s*talk)?|카카오톡|카카오|카톡|カカオ(?:トーク)?|"
    r"telegram|电报|電報|テレグラム|텔레그램|텔레|instagram|insta|インスタ(?:グラム)?(?:のアカ(?:ウント)?)?|"
    r"인스타(?:그램)?|twitter|推特|ツイッター|ツイ垢|트위터|discord|ディスコ(?:ード)?|디스코드|디코|"
    r"whatsapp|ワッツアップ|왓츠앱|シグナル|시그널|"
    r"skype|スカイプ|스카이프|snapchat|スナップチャット|스냅챗|facebook|脸书|臉書|フェイスブック|페이스북|"
    r"tiktok|ティックトック|틱톡|抖音号?|dy号|douyin|더우인|weibo|微博|웨이보|小红书号?|小紅書|红薯号?|"
    r"xiaohongshu|샤오홍슈|bilibili|b站|"
    r"threads|mastodon|github|steam|viber|zalo|reddit|[vV微威薇][❤♥💗]|"
    r"(?:t\.me|(?:www\.)?(?:instagram|twitter|x|facebook|fb|tiktok|weibo|github|threads)\.(?:com|net)|linkedin\.com/in)/@?|"
    r"(?:my|your|his|her|their|our)\s+(?:handle|user\s*name|screen\s*name|user\s*id)|"
    r"用户名|用戶名|ユーザー名|ユーザーID|아이디|계정"
)
# names that are also ordinary words (a line of code, a weak signal, an X-ray, a disc, DC): an
# account only with a linking word, an `@`, a frame (`add me on`, `my … is`) or CJK around them
_MESSENGERS_AMBIGUOUS = (
    r"(?-i:LINE|Line)|line(?=\s*(?:id|号|號|[:：]|is\s))|(?<=on )x|x(?=\s+handle)|"
    r"(?-i:Signal|SIGNAL)|signal|snap|tg|ig|ins|fb|dc|disc|sc|red(?=\s*id)|"
    r"(?<![\u4e00-\u9fff])(?-i:X)(?:\s*[(（](?:旧|舊|former(?:ly)?)?\s*Twitter[)）])?|"
    r"handle|user\s*name|screen\s*name|user\s*id"
)
_WORD_END = r"(?:(?<![A-Za-z])|(?![A-Za-z]))"  # an English name ends its word (wx is not wxid's start)
_HANDLE_VALUE = r"@?(?:live:\.?)?[A-Za-z0-9_][A-Za-z0-9_.\-]{2,40}(?<![.\-])(?:#\d{4})?(?![A-Za-z0-9@#_/]|:/)"
_HANDLE_CUE = (
    rf"(?<![A-Za-z0-9_\-])(?:(?P<strong>{_MESSENGERS})|(?P<weak>{_MESSENGERS_AMBIGUOUS})){_WORD_END}"
    r"(?P<account>\s*(?:id|uid|号|號|账号|帳號|アカウント|アカ|のID|ID|아이디|계정)(?![A-Za-z0-9_]))?"
)
_HANDLES = _cued(_HANDLE_CUE, _HANDLE_VALUE)
# the names in lower case, to test a lowered text for any (a case-blind search of them costs twice)
_ANY_CUE_LOWER = re.compile(f"{_MESSENGERS}|{_MESSENGERS_AMBIGUOUS}".lower())
# an @-mention on its own, between spaces, punctuation or CJK: a handle when it is not an ordinary word
# (`@property`, `@media`); not a package, a call or a piece of a password (`@types/node`, `r#@Mx9)`)
_MENTION = re.compile(
    r"(?<![^\s(（\[「【,，:：、\u3000-\uffff])@[A-Za-z0-9][A-Za-z0-9_.]{2,30}(?<!\.)(?![^\s,，。.!?！？、;；)）\]」】\u3000-\uffff])"
)
# an English frame that says an account follows: `add me on`, `hmu on`, `my … is`, `update my … to`
_FRAME_BEFORE = re.compile(
    r"(?:(?:add|hmu|follow|find|dm|message|msg|ping|contact|reach|hit|text)\s+(?:me\s+)?(?:up\s+)?"
    r"(?:on|at|via|in)\s+(?:my\s+)?|(?P<own>(?:my|your|his|her|their|our)\s+)|[(（\[【「『])$",
    re.IGNORECASE,
)
_VOWEL = re.compile("[aeiou]", re.IGNORECASE)  # a run of consonants (`nfpnlpk`) is no word
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_VERSION = re.compile(r"v?\d+(?:[.\-]\d+)+", re.IGNORECASE)
_PRODUCT_LIKE = re.compile(r"[a-z][A-Z]|^(?=[A-Z0-9\-/+]*[0-9])(?=[A-Z0-9\-/+]*[A-Z])[A-Z0-9\-/+]+$")
_NEXT_WORD = re.compile(r"[ \t]*[A-Za-z]")  # an English word goes on after the value: a sentence's
# what follows a messenger's name and is part of it, not an account (微信APP, LINE Pay, 카톡 PC버전),
# the English words that follow one in a sentence (`Telegram is down`, `my snap is broken`), and the
# cue words of other kinds (`X 这个是我plate`: the plate's cue, after it)
_PLATFORM_WORDS = frozenset(
    "app apps pay web pc mac ios android ipad windows group groups call calls video live official "
    "bot bots store id ok chat chats channel channels server servers account accounts api sdk pro plus "
    "lite mini premium business nitro beta vlog plog dou message messages post posts story stories reel "
    "reels feed profile page link links notification notifications follower followers friend friends "
    "contact contacts status update updates desktop version login password code number voice sticker "
    "stickers emoji community team and or but if when because then than too also please pls plz now "
    "today tomorrow tonight later soon instead first again already still just only really very mostly "
    "the this that these those there here what where which who how why not never always sometimes "
    "down up broken dead slow fast great good bad fine okay full empty private public banned blocked "
    "locked hacked deleted gone new old same different better worse weird laggy buggy free open closed "
    "available active inactive verified working offline online back out off over with without for from "
    "about into onto like more less much many some any all every each other another one two three "
    "yet anymore either neither both well thanks thank sorry yes yeah nope maybe weak strong busy lost "
    "poor low high bars noisy quiet clear plate plates rego registration serial imei idfa "
    "after before around until till since during between within while once tonight weekend morning "
    "evening night later asap anytime sometime whenever instead yesterday lately recently daily "
    "weekly everyday often usually anyway though dm dms mods admins users ads earlier got".split()
)


def may_handle(text: str) -> bool:
    """Whether a messenger's name or an `@` is in the text at all: most turns have neither."""
    return "@" in text or _ANY_CUE_LOWER.search(spelled(text).lower()) is not None


def _ordinary(value: str) -> bool:
    """A word of a language rather than an id: letters only, in one case pattern (`server`,
    `Tonight`, `APP`)."""
    return (
        value.isalpha()
        and (value.islower() or value.istitle() or value.isupper())
        and _VOWEL.search(value) is not None
    )


def _no_id(value: str) -> bool:
    """What is never an account: a part of the messenger (`APP`, `Pay`), a word of a sentence, a
    version, a short number."""
    return (
        value.lower() in _PLATFORM_WORDS
        or bool(_VERSION.fullmatch(value))
        or value.isdigit()
        and len(value) < 5
    )


_MODEL = re.compile("모델")  # 모델명: a model's name follows (context's cues read the other languages')


_SENTENCE_BETWEEN = 6  # CJK characters between a name and a capitalised word: a sentence, not `找我`


def _kept(text: str, match: re.Match[str], backward: bool) -> bool:
    """Whether an order's, student's or model's cue names the value rather than its own cue: a
    cue word between them (`微信\n学号 2020…`), or just before a value pointed at from after."""
    if backward:
        return keeps(text, match.start("value"))
    link = match.group("link")
    return _MODEL.search(link) is not None or keeps(text[match.start("link") : match.end()], len(link))


def _handle(text: str, match: re.Match[str], backward: bool) -> bool:
    """Whether the value a messenger's name names is an account: an `@`, or a token that no word
    of a sentence, version or product is, named the stronger the weaker the name and the more
    ordinary the token."""
    value, link = match.group("value"), match.group("link")
    bare = value.lstrip("@")
    if _no_id(bare) or _kept(text, match, backward):
        return False
    if value.startswith("@"):
        return True
    words = link.strip() or match.group("account") or ""
    if match.group("weak") and not link and match.group("cue")[-1].isascii():
        return False  # a weak name glued to what follows is part of it (`X2K7`, `scp1234`)
    cjk = _CJK.search(link) is not None
    if backward:  # pointed at: `kyle_92 <- that's my snap`, `kyle_92\n↑微信`, `kyle_92 이게 제 카톡`
        return not (_ordinary(bare) and not (cjk or "\n" in link or "<" in link or "←" in link))
    frame = _FRAME_BEFORE.search(text[max(0, match.start() - 24) : match.start()])
    # `my tiktok got banned`: a possessive frames the value only with a word between (`my tg is …`)
    framed = frame is not None and (not frame.group("own") or bool(words))
    cjk_around = cjk or _CJK.search(text[max(0, match.start() - 2) : match.start()]) is not None
    between = len(_CJK.findall(link))
    if between >= 2 and _PRODUCT_LIKE.search(bare):  # 微信支付不了，RTX4090 is a product
        return False
    if between >= _SENTENCE_BETWEEN and _ordinary(bare) and not bare.islower():
        return False  # 카카오맵 쓰고 있어요 Name: a word of another sentence
    if _ordinary(bare) and not cjk_around:
        # an English word after the name: an account when a frame or a sign says so (`add me on snap
        # kyle`, `snap: kyle`), or when it ends the sentence (`discord kyle`, not `discord server is`)
        signed = any(c in ":：=＝\"'“”‘’(（)）[]【】「」『』<>→" for c in words)
        ends = _NEXT_WORD.match(text, match.end()) is None
        if match.group("weak"):
            return (
                signed
                or framed
                or ends
                and (words or match.start() == 0 or text[match.start() - 1] in "\n(（[【")
            )
        return signed or framed or ends
    if match.group("weak") and not (words or framed or cjk_around):  # `iPhone X 64GB` is a product's
        mixed = any(c.isdigit() or c in "_." for c in bare) and any(c.isalpha() for c in bare)
        return mixed and not _PRODUCT_LIKE.search(bare)
    return True


def handles(text: str) -> Iterator[Span]:
    """The token a messenger's name (or an account's word) names, before or after it, and
    `@`-mentions that are no word."""
    read = spelled(text)
    for match, backward in _named(read, _HANDLES):
        if _handle(read, match, backward):
            yield match.start("value"), match.end("value"), "HANDLE"
    for match in _MENTION.finditer(text):
        if not _ordinary(match.group()[1:]) and not _no_id(match.group()[1:]):
            yield match.start(), match.end(), "HANDLE"


# ------------------------------------------------------------------ vehicle plates
# a province's letter that ends a place's or a word's name is no plate's (北京CA1234 is a flight, 最新)
_PLACE_HEADS = "北南东西天四最更全崭创重"
_PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
# mainland plates, in either case: a province, a letter, five or six letters and digits (three digits
# at least: `_PLATE_DIGITS`) or four and a kind (学, 警, 港)
_PLATE_ZH = re.compile(
    rf"(?<![{_PLACE_HEADS}])[{_PROVINCES}] ?[A-HJ-NP-Za-hj-np-z][·•・\- ]?"
    r"(?:[A-HJ-NP-Za-hj-np-z0-9]{5,6}|[A-HJ-NP-Z0-9]{4}[学警挂领港澳试超使])"
    r"(?![0-9A-Za-z])"
)
# a plate read by shape has a digit in capitals (`琼V•3RD3Z`), three with a small letter (新MACBOOK is none)
_PLATE_DIGITS = 3
# Korean plates: the letters of the plate series only, the region (old plates) optional
_KO_REGIONS = "서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|전북|전남|경북|경남|제주"
_KO_PLATE_LETTERS = "가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주아바사자배하허호"
_PLATE_KO = re.compile(
    rf"(?:(?:{_KO_REGIONS}) ?)?(?<![0-9])\d{{2,3}} ?[{_KO_PLATE_LETTERS}] ?\d{{4}}(?![0-9])"
)
# Japanese plates: office, class number, kana, number (`12-34`, or dots for leading zeros: `・・12`)
_PLATE_JA = re.compile(
    r"(?:[\u4e00-\u9fff]{1,4}|なにわ|つくば|いわき)[ \u3000]?\d{2,3}[ \u3000]?[\u3041-\u3093][ \u3000]?"
    r"(?:\d{1,2}-\d{2}|[・·.•]{1,3}[ \u3000]?\d{1,3}|\d{4})(?![0-9])"
)
# with a vehicle cue: any plate-shaped token (letters and digits in one to five groups)
_PLATE_WORDS = (
    r"(?<![A-Za-z])(?:(?:number|licen[cs]e|registration)\s*plates?(?:\s*(?:no\.?|number))?|plates?(?:\s*no\.?)?|"
    r"registration|reg|rego|vrn|vehicle(?:\s*(?:no\.?|number|reg\w*))?|car\s*(?:no\.?|number)|"
    r"(?:my|the|his|her|their|our)\s+car(?:'s)?(?:\s+is)?)"
    r"(?![A-Za-z])|[车車]牌(?:[号號])?(?:[码碼])?|牌照|[车車][号號]|我的[车車]是?|"
    r"ナンバー(?:プレート)?|車番|車両番号|登録番号|차량\s*(?:등록\s*)?번호|차\s*번호|번호판|제\s*차는?"
)
# a plate's events name it in their clause, not across a gap (`…有没有违章，我买的是ZK0475-R` is a model)
_PLATE_CUE = re.compile(rf"{_PLATE_WORDS}|违章|違規|违停|罚单|罰單", re.IGNORECASE)
# a cue that names the value just after it across a gap (`停车场登记车牌號碼：`, `find my plate no below:\n`)
_PLATE_CUE_BEFORE = re.compile(rf"(?:{_PLATE_WORDS})(?P<link>{_GAP})$", re.IGNORECASE)
# a cue that names the value just before it across a pointer (`… <- that's my rego`, `…\n↑车牌号`)
_PLATE_CUE_POINTED = re.compile(rf"(?P<link>{_POINTER})(?:{_PLATE_WORDS})", re.IGNORECASE)
# a model's code: letters, a dash, a group of letters and digits mixed (WH-1000XM3, KJ-65X80K); a
# plate's groups after a dash are letters or digits (M-PM 2363, MC-291-XN)
_MODEL_CODE = re.compile(r"[A-Z]{1,5}-(?=[A-Z]*[0-9])(?=[0-9]*[A-Z])[A-Z0-9]+")
_PLATE_SHORT = 3  # a plate a cue names may be short (`JT 4`, Malaysia's)
# a vehicle cue after the plate: a word of parking or driving within its clause (`… has any parking
# fines`, `…加到小区门禁`), a word naming the car just after it (`…这辆车`, `…の車`, `… 차주분`)
_PLATE_CUE_AFTER = re.compile(
    r"(?<![A-Za-z])(?P<clause>park(?:ed|ing)|driveway|towed|speeding|tolls?|fastag)(?![A-Za-z])|"
    r"(?P<zh>门禁|門禁|车位|車位|停车|停車|违章|違章|违停|拖走|挪车|挪車|剐蹭|罚单|罰單)|"
    r"这辆车|這輛車|那辆车|那輛車|の車|の車両|차주|차량|차가|(?P<ko>주차)",
    re.IGNORECASE,
)
_GROUP_GAP = re.compile(r"[ \-·]")
_PLATE_ANY = re.compile(r"(?<![0-9A-Za-z\-·])[A-Z0-9]{1,10}(?:[ \-·][A-Z0-9]{1,7}){0,4}(?![0-9A-Za-z\-·])")
# up to the last value before a candidate (a digit, or a value found and masked): a cue names the
# value just after it, not a model number after the plate (`차 번호는 72더 0372입니다 RTX 4070`)
_VALUE_BEFORE = re.compile(r"^.*[\d\x00]", re.DOTALL)
_VALUE_AFTER = re.compile(r"[\d\x00].*$", re.DOTALL)  # and a cue after names the value just before it


def _plate_shaped(value: str, least: int = 4) -> bool:
    """Letters and digits, four to ten of them: a plate's (`CPM 9929`, `191-WW-798`, `KA06EY7802`)."""
    chars = [c for c in value if c.isalnum()]
    return least <= len(chars) <= 10 and any(c.isdigit() for c in chars) and any(c.isalpha() for c in chars)


def _cue_after(after: str) -> bool:
    """Whether the words after a plate-shaped token name a vehicle: a word of parking or driving in
    its clause, a word naming the car just after it."""
    cue = _PLATE_CUE_AFTER.search(after)
    if cue is None:
        return False
    if cue.group("zh") or cue.group("ko"):  # no Latin word between (`SM-S396B 屏幕有亮点 我的车…`)
        return not any(c.isascii() and c.isalpha() for c in after[: cue.start()])
    return cue.group("clause") is not None or cue.start() <= 1


def plates(text: str) -> Iterator[Span]:
    """Mainland, Korean and Japanese plates by shape; other plates by a vehicle cue before or after."""
    for pattern in (_PLATE_ZH, _PLATE_KO, _PLATE_JA):
        for match in pattern.finditer(text):
            value = match.group()
            digits = sum(c.isdigit() for c in value)
            if digits >= _PLATE_DIGITS or digits and not any(c.islower() for c in value):
                yield match.start(), match.end(), "PLATE"
    text = spelled(text)
    if _PLATE_CUE.search(text) or _PLATE_CUE_AFTER.search(text):
        for match in _PLATE_ANY.finditer(text):
            found = _plate_in(text, match)
            if found is not None:
                yield found[0], found[1], "PLATE"


def _plate_in(text: str, match: re.Match[str]) -> tuple[int, int] | None:
    """The widest run of whole groups of a plate-shaped token that a vehicle cue names: a cue in
    capitals is no part of it (`VRN AB12 CDE`), nor a word after it (`TN 65 FS 8513 ID:…`)."""
    if _MODEL_CODE.fullmatch(match.group()):  # no part of a model's code either (1000XM3)
        return None
    gaps = [g.start() for g in _GROUP_GAP.finditer(text, *match.span())]
    starts = [match.start(), *(gap + 1 for gap in gaps)]
    ends = [match.end(), *reversed(gaps)]
    for start in starts:
        for end in ends:
            if end > start and _cued_plate(text, start, end):
                return start, end
    return None


def _cued_plate(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` is plate-shaped and a vehicle cue names it (across a gap before it,
    a pointer after it, or in its clause), and no order's, model's or student's cue."""
    if not _plate_shaped(text[start:end], _PLATE_SHORT) or keeps(text, start):
        return False
    gap = _PLATE_CUE_BEFORE.search(text, max(0, start - 48), start)
    pointed = _PLATE_CUE_POINTED.match(text, end)
    if _MODEL.search(clause_before(text, start)):
        return False
    if gap and _gap_ok(gap.group("link")) or pointed and _points(text, start, pointed.group("link")):
        return True
    car = _PLATE_CUE_AFTER.match(text, end + (text[end : end + 1] == " "))
    if car and not (car.group("clause") or car.group("zh") or car.group("ko")):
        return True  # the car named just after it (`NG 7这辆车`, `AB 3の車`, `K-JH 55 차가`)
    if not _plate_shaped(text[start:end]):
        return False
    before = _VALUE_BEFORE.sub("", clause_before(text, start, 24))
    return _PLATE_CUE.search(before) is not None or _cue_after(
        _VALUE_AFTER.sub("", clause_after(text, end, 24))
    )


# ------------------------------------------------------------------ device identifiers
_HEX2 = "[0-9A-Fa-f]{2}"
_HEX4 = "[0-9A-Fa-f]{4}"
# a MAC address: six pairs split by colons or dashes, three quads split by dots (Cisco) or dashes
# (Huawei, H3C), or twelve bare digits
_MAC_VALUE = (
    rf"(?:{_HEX2}(?P<sep>[:-])(?:{_HEX2}(?P=sep)){{4}}{_HEX2}|{_HEX4}(?P<quad>[.\-]){_HEX4}(?P=quad){_HEX4}|(?P<bare>[0-9A-Fa-f]{{12}}))"
    r"(?![0-9A-Za-z:\-]|\.[0-9A-Za-z])"
)
_MAC = re.compile(rf"(?<![0-9A-Za-z:\-.]){_MAC_VALUE}")
# the words that name a device's address (a bare run of hex digits is a MAC only after one)
_MAC_WORDS = (
    r"(?<![A-Za-z])mac(?:\s*(?:address|addr|地址|アドレス|주소|어드레스))?|物理地址|硬件地址|マックアドレス|"
    r"맥\s*(?:주소|어드레스)"
)
_MAC_CUE = re.compile(
    rf"{_MAC_WORDS}|(?<![A-Za-z])(?:macs|bssid|device|wi-?fi)(?![a-z])|網卡|网卡|设备|設備|路由器|"
    r"端末|ルーター|ハードウェアアドレス|기기|공유기|단말",
    re.IGNORECASE,
)
# a MAC glued to its cue or across a gap (`mac4A-0B-…`, `맥 어드레스은 6a3f…`), or pointed at from after
_MACS = _cued(_MAC_WORDS, _MAC_VALUE)
_HEX_WORD = re.compile("[A-F]{5}")  # DEADBEEF, CAFEBABE: a programmer's constant, not a random address
_IMEI_VALUE = r"\d(?:[ \-./]?\d){14}(?![0-9])"
_IMEI = re.compile(rf"(?<![0-9])(?<![0-9][ \-./]){_IMEI_VALUE}")
_NOT_DIGIT = re.compile(r"\D")
_NOT_HEX = re.compile("[^0-9A-Fa-f]")
_IMEI_WORDS = r"IMEI|MEID|串号|串號|製造番号|端末識別番号|단말기\s*(?:일련\s*)?번호|\*#06#"
_IMEI_CUE = re.compile(_IMEI_WORDS, re.IGNORECASE)
_IMEIS = _cued(_IMEI_WORDS, _IMEI_VALUE)
# an advertising or hardware id by its name: MEID (checked), IDFA, GAID, 广告ID, 设备标识, UDID
_DEVICE_IDS = _cued(
    r"(?<![A-Za-z])(?:(?P<meid>MEID)|IDFA|IDFV|GAID|AAID|OAID|UDID|(?:android|advertising|ad|device)\s*id)"
    r"(?![G-Zg-z])|(?:设备|設備|端末|기기|디바이스|广告|広告|광고)\s*(?:id|标识|識別碼|识别码|識別子|식별자|아이디)",
    r"[0-9A-Fa-f]{8,40}(?:-[0-9A-Fa-f]{4,40}){0,4}(?![0-9A-Za-z\-])",
)
# a serial number: the token its cue names, with a digit in it
_SERIALS = _cued(
    r"(?:(?<![A-Za-z0-9])(?:sn(?:码|碼|号|號)?(?![A-Za-z0-9/])|s/n(?:码|碼|号|號)?)|serial(?:\s*(?:no\.?|number|#))?|"
    r"序列号|序列號|序號|シリアル(?:番号|ナンバー|No\.?)?|시리얼\s*(?:번호|넘버)?|일련\s*번호|製造番号|제조\s*번호)"
    r"\s*#?",
    r"(?=[A-Za-z\-]*\d)[A-Za-z0-9][A-Za-z0-9\-]{4,29}(?<!-)(?![A-Za-z0-9\-])",
)


_RESIDENCE_CARD_SHAPE = re.compile(r"[A-Z]{2}\d{8}[A-Z]{2}")


def _mac(text: str, match: re.Match[str]) -> bool:
    """Whether a MAC-shaped run is one: pairs split by colons or dashes are; quads with a hex letter
    or after a device's cue; a bare run with a hex letter (twelve decimal digits
    are a barcode) after a device's cue, or in capitals mixed with digits and no programmer's word."""
    value = match.group()
    if match.group("sep"):  # pairs split by colons or dashes
        return True
    lettered = any(c.isalpha() for c in value)
    cued = _MAC_CUE.search(clause_before(text, match.start(), 32)) is not None
    if match.group("bare") is None:
        return lettered or cued
    return lettered and (
        cued
        or value.isupper()
        and sum(c.isdigit() for c in value) >= 3
        and not _HEX_WORD.search(value)
        and not _RESIDENCE_CARD_SHAPE.fullmatch(value)  # AB12345678CD: Japan's residence card
        and not keeps(text, match.start())
    )


def _device_id(match: re.Match[str]) -> bool:
    """A MEID that checks, or sixteen hex digits and more with a digit among them."""
    value = match.group("value")
    hexes = _NOT_HEX.sub("", value)
    return meid.is_valid(value) if match.group("meid") else len(hexes) >= 16 and not hexes.isalpha()


def _model_after_words(match: re.Match[str], backward: bool) -> bool:
    """A model's code (`WH-1000XM3`, a dash in it) words away from a serial's cue (`SN的问题，我买的…`)."""
    return not backward and "-" in match.group("value") and len(_CJK.findall(match.group("link"))) >= 2


def devices(text: str) -> Iterator[Span]:
    """MAC addresses in any notation; IMEIs (Luhn-checked), serial numbers and device ids (a MEID
    checked) by their cues, before or after them."""
    for match in _MAC.finditer(text):
        if _mac(text, match):
            yield match.start(), match.end(), "DEVICE"
    read = spelled(text)
    for match, _ in _named(read, _MACS):
        if match.group("bare") is None or any(c.isalpha() for c in match.group("value")):
            yield match.start("value"), match.end("value"), "DEVICE"
    if _IMEI_CUE.search(read):
        for match in _IMEI.finditer(text):
            if imei.is_valid(_NOT_DIGIT.sub("", match.group())) and _IMEI_CUE.search(
                clause_before(text, match.start(), 24)
            ):
                yield match.start(), match.end(), "DEVICE"
        for match, _ in _named(read, _IMEIS):
            if imei.is_valid(_NOT_DIGIT.sub("", match.group("value"))):
                yield match.start("value"), match.end("value"), "DEVICE"
    for match, backward in _named(read, _SERIALS):
        if not (_kept(read, match, backward) or _model_after_words(match, backward)):
            yield match.start("value"), match.end("value"), "DEVICE"
    for match, _ in _named(read, _DEVICE_IDS):
        if _device_id(match):
            yield match.start("value"), match.end("value"), "DEVICE"
