"""Who the user is: email addresses (also internationalised ones, 用户@例子.中国), names where
the text introduces them, street addresses with a door number. Names and addresses are found
by pattern only: no library recognises Chinese and English names offline from PyPI alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

Span = tuple[int, int, str]

_CJK = r"\u4e00-\u9fff"
_LATIN = r"A-Za-z0-9À-ɏ"
_EMAIL = re.compile(
    rf"(?:(?<![{_LATIN}._%+\-])[{_LATIN}][{_LATIN}._%+\-]*|[^\x00-\x7f\W]+)@"
    rf"(?:(?:[{_LATIN}\-]+|[^\x00-\x7f\W]+)[.。．])+"  # a label in one script: not `comです。`
    r"(?:(?:[a-z]{2,24}|[A-Z][a-z]{1,23}|[A-Z]{2,24})(?![A-Za-z])|xn--[A-Za-z0-9\-]+|"
    r"中国|中國|公司|网络|網絡|在线|商城|网址|香港|台湾|台灣|新加坡|рф|укр|срб|بھارت|भारत|한국|日本)"
)

_SURNAMES = (
    "欧阳|司马|诸葛|上官|东方|皇甫|令狐|慕容|端木|公孙|尉迟|长孙|夏侯|"
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖萧田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
_SURNAME = "(?:" + "|".join(_SURNAMES.split("|")[:-1]) + "|[" + _SURNAMES.split("|")[-1] + "])"
# what may follow a name: not a Chinese character, or a word that starts a new clause
_ZH_AFTER = (
    rf"(?=$|[^{_CJK}]|今年|是|的|在|住|电话|手机|来自|想|要|和|，|我|"
    r"现在|目前|需要|请|有|收|先生|女士|这|那|谢|麻烦|在线|急)"
)
# surname-initial words that follow 我是 / 本人 and are no name (我是高中生, 本人方便)
_NOT_NAME = (
    "高中|高一|高二|高三|程序|白领|马上|万一|任何|于是|周末|方便|金融|石油|黄金|江苏|苏州|武汉|毛病|龙岩|钱包"
)
_NAME_ZH = re.compile(
    r"(?:我叫|我的名字(?:是|叫)|名字(?:是|叫)|姓名\s*[:：]?|联系人\s*[:：]?|收件人\s*[:：]?|收货人\s*[:：]?|"
    r"持卡人\s*[:：]?|户名\s*[:：]?|开户名\s*[:：]?|签名\s*[:：]?|(?:我的)?英文名字?(?:是|叫)?)\s*"
    rf"(?:(?P<name>{_SURNAME}[{_CJK}]{{1,2}}?){_ZH_AFTER}|(?P<latin>[A-Za-z]+(?: [A-Za-z]+){{0,2}})"
    # any two to four characters that end the clause: a name of no Chinese surname (收件人：中村香織)
    rf"|(?P<other>[{_CJK}]{{2,4}}(?:[ \u3000][{_CJK}]{{1,3}})?)(?=$|[，。,.!！?？、;；\n]))"
    + rf"|(?:我是|本人(?:是|叫)?|这里是|——|--)\s*(?!{_NOT_NAME})(?P<weak>{_SURNAME}[{_CJK}]{{1,2}}?)"
    + r"(?<![人生员者族控迷粉师长们])"
    + _ZH_AFTER
    + r"|(?:谢谢|此致敬礼|此致|敬礼|祝好|敬上)[！!。，,~～]*\s*\n\s*"
    + rf"(?P<signed>{_SURNAME}[{_CJK}]{{1,2}})\s*(?=$|\n)"
)

# words that end a lower-case name (my name is john and i …)
_STOP = (
    "and|or|but|i|im|i'm|am|is|are|was|here|from|to|the|a|an|of|in|on|at|for|with|my|me|please|thanks|thank|"
    "need|want|have|has|had|can|could|would|will|just|so|and|nice|hello|hi|btw|by|not|it|this|that|your|you|"
    "we|they|he|she|our|help|again|too|also|sorry|now|today|calling|writing|asking|looking|trying|going|using|"
    "best|regards|cheers|thanks|sincerely|team"
)
_UP, _LOW = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"  # Latin letters with accents (José, Jürgen)
_WORD = rf"(?!(?:{_STOP})(?![A-Za-z0-9]))[{_UP}{_LOW}][{_LOW}'’-]*[{_LOW}]"
_NOT_TITLE = (
    "Sir|Madam|Sirs|Team|All|Customer|Customers|Support|Colleagues|Friends?|Manager|Hiring|Valued|Member|"
    "Members|User|Users|Editor|Admin|Recruiter|Service|Everyone|Staff|Reader|Client|Sorry|Not|Just|Very|Here|"
    "Back|Done|Fine|Glad|Afraid|Sure|Trying|Going|Using|Working|Looking|New|The|A|An|So|Really|Still|Happy|"
    "Also|Calling|Writing|Asking|Google|Microsoft|Apple|Python|Chrome|Windows|ChatGPT|Good|Okay|Ok|Ready|Free|"
    "Busy|Confused|Stuck|Lost|Tired|Interested|Curious|Chinese|American|British|English|Canadian|Japanese|"
    "Korean|Indian|German|French|Australian|Russian|Spanish|Italian|Mexican|Brazilian|Vietnamese|Thai|Asian|"
    "European|African|Muslim|Christian|Jewish|Buddhist"
)
_TITLES = re.compile(rf"(?:{_NOT_TITLE})(?:\s+(?:{_NOT_TITLE}))*")
_TITLE = rf"(?!(?:{_NOT_TITLE})(?![A-Za-z0-9]))[{_UP}][{_LOW}'’-]*[{_LOW}]"
_NAME_EN = re.compile(
    # a strong introduction: the name in any case, up to three words
    r"(?i:(?<![A-Za-z0-9])my\s+(?:chinese\s+|english\s+|full\s+|real\s+|first\s+|last\s+)?name(?:'s|’s|\s+is)|"
    r"(?<![A-Za-z0-9])name\s*[:：]|(?<![A-Za-z0-9])i\s+am\s+called|(?<![A-Za-z0-9])i'm\s+called|(?<![A-Za-z0-9])signed,?)\s*"
    rf"(?P<name>(?i:{_WORD})(?:[ -](?i:{_WORD})){{0,2}}|[{_CJK}]{{2,4}}|[가-힣]{{2,4}}(?![가-힣]))"
    # a weak one: two capitalised words (I'm John Smith, This is Sarah Connor), or one before punctuation
    rf"|(?i:(?<![A-Za-z0-9])i'm|(?<![A-Za-z0-9])i’m|(?<![A-Za-z0-9])i\s+am|(?<![A-Za-z0-9])this\s+is|(?<![A-Za-z0-9])it's|(?<![A-Za-z0-9])it’s)\s+"
    rf"(?P<weak>{_TITLE}(?:\s+[{_UP}][{_LOW}'’-]*[{_LOW}]){{1,2}}|{_TITLE}(?=\s*(?:[,.!;\n]|$|here(?![A-Za-z0-9]))))"
    # a letter's greeting and a title
    rf"|(?:(?<![A-Za-z0-9])[Dd]ear|(?<![A-Za-z0-9])DEAR|(?<![A-Za-z0-9])(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?)\s+(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?"
    rf"(?P<dear>{_TITLE}(?:[ -][{_UP}][{_LOW}'’-]*[{_LOW}]){{0,2}})"
    # a signature on its own line: Thanks,\nJohn Smith
    rf"|(?i:(?<![A-Za-z0-9])(?:thanks|thank\s+you|thx|regards|best\s+regards|kind\s+regards|warm\s+regards|best|cheers|"
    rf"sincerely|yours(?:\s+truly)?|br))\s*[,!.]?[ \t]*\n\s*(?:[-—]+\s*)?"
    rf"(?P<signed>(?i:{_WORD})(?:[ -](?i:{_WORD})){{0,2}})[ \t]*(?=$|\n)"
    # a dash signature: — John Smith
    rf"|(?m:^)[ \t]*[-—]{{1,2}}[ \t]*(?P<dash>[A-Z][a-z]+(?:\s+[A-Z][a-z]+){{0,2}})[ \t]*$",
    re.MULTILINE,
)

# a third person named where a person is expected: 帮我给黄波写, 请转告常建国明天, 昨天沈文欽跟我说
_SURNAMES_WIDE = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖萧田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
    "温常康赖牛施易乔文庞樊兰殷葛饶凌柴柳单洪包章岳齐宁鲁苗翟申邢安霍左裴焦耿涂卞甘关祝谷欧舒阮车聂柯"
    "代卜成东伍佟全冉刁古吉同向吴吕官宫宗岑巫席庄房明晏景景曲杭柏栾桂池游满瞿祁穆童纪练缪罗艾荣蓝蒲虞"
    "褚许诸谈费邬邸郎郁鄢钮闵阎随雍靳韩项颜骆鲍麦黄齐龙鄭陳劉楊張趙吳週孫馬許鄧蘇盧陸葉蔣謝韓馮錢嚴"
    "龔賴湯賀顧黃羅鍾鐘譚閻鄒蕭簡莊賈詹藍塗溫範閆歐聶廣畢龐饒魯淩蔡廖邱"
    "呂季喻解柯俞倪滕鄔盛臧計伏成戚謝鄒喬賀尤華金魏陶姜嚴衛蔣沈韓楊朱秦許何呂施張孔曹嚴華金"
    "司尚农查毕丘卓蔺屈冷阚晋皮苟粟母敖党荆揭戈习竺郜仇邝路应师辛姬佘阳桑娄廉禹卫鲍宦归海边符尤华"
    "卢米郑邰鞠伊时和商国柴麻宿嵇贝储丰封芦隋韶郦逯桑蒙谷鲁洪龚巩花仲窦钭印璩管霍都聂岑"
)
_THIRD_ZH = re.compile(
    r"(?:给|給|转告|轉告|告诉|告訴|通知|问一下|問一下|问问|找|联系|聯繫|发给|發給|抄送|和|跟|同事|叫|名叫|"
    r"收件人|联系人|昨天|今天)\s*"
    rf"(?P<third>[{_SURNAMES_WIDE}][{_CJK}]{{1,2}})"
    r"(?=的|老师|老師|先生|女士|经理|經理|总|說|说|跟|和|明天|今天|昨天|一起|审|審|写|寫|在|打|发|發|回|，|。|、|！|？|\s|$)"
    r"|(?:^|[。！？；;.!?\n])\s*(?!谢谢|謝謝)"
    rf"(?P<opens>[{_SURNAMES_WIDE}][{_CJK}]{{1,2}})"
    r"(?=的电话|的電話|的手机|的手機|的邮箱|的郵箱|跟我说|跟我說|说|說|老师|老師|先生|女士)"
)
# Korean surnames (the 60 most common cover 99% of people; 남궁, 황보, 제갈, 선우, 독고 have two
# syllables): a Korean name is one and one or two syllables more
KO_SURNAMES = (
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄채원천방공현"
    "함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉"
)
_KO_NAME = rf"(?:남궁|황보|제갈|선우|독고|[{KO_SURNAMES}])[가-힣]{{1,2}}"
_NAME_KO = re.compile(
    # before its honorific: 씨 follows only a name; 님 follows titles too (선생님), so a full name
    rf"(?<![가-힣])(?:(?P<ssi>{_KO_NAME})(?=\s?씨)|(?P<nim>(?:남궁|황보|제갈|선우|독고|[{KO_SURNAMES}])[가-힣]{{2}})(?=\s?님))"
    # after a word that introduces one: 이름, 성함, 받는 사람, 담당자는, 예금주
    r"|(?:이름|성함|받는\s?(?:사람|분)|보내는\s?(?:사람|분)|수령인|수취인|예금주|담당자|작성자|신청인)(?:은|는|이|가)?\s*[:：]?\s*"
    rf"(?P<named>{_KO_NAME})(?=입니다|이에요|예요|이고|님|씨|[\s,.!?)]|$)"
)
# a Japanese name after a word that introduces one (お名前：, 担当は, 宛名：), or with a space between
# its parts before an honorific (、田中 春香さん)
_NAME_JA = re.compile(
    r"(?:お名前|名前|氏名|宛名|担当者?|署名|差出人|受取人|名義人?)\s*(?:は|：|:)\s*"
    r"(?P<ja>(?=[\u4e00-\u9fff]{2}|[\u4e00-\u9fff][ \u3000])"  # two characters at least: not 担当は私です
    r"[\u4e00-\u9fff]{1,4}(?:[ \u3000]?[\u4e00-\u9fff\u3041-\u3093\u30a1-\u30f6]{1,4}?)??)"
    r"(?=です|様|さん|さま|[。、,.!?！？\n]|$)"
    r"|(?<![\u4e00-\u9fff])(?P<spaced>[\u4e00-\u9fff]{1,3}[ \u3000][\u4e00-\u9fff\u3041-\u3093]{1,3})"
    r"(?=さん|様|さま|氏|先生|くん|ちゃん)"
)
# a name of any script after a Chinese verb of address, whose left edge the verb gives: a Japanese
# name with its space (问候一下田中 直子), a Latin one (跟Bertrand Lee约了), a Korean one (跟김윤서约了),
# or any two to four characters that end the clause after a verb that only a person takes (转告…)
_ADDRESSED_ZH = re.compile(
    r"(?:给|給|转告|轉告|告诉|告訴|通知|问候(?:一下)?|問候(?:一下)?|联系|聯繫|发给|發給|抄送|跟)\s*"
    rf"(?:(?P<spaced>[{_CJK}]{{1,3}}[ \u3000][{_CJK}]{{1,3}})(?![{_CJK}]{{2}}[^{_CJK}])"
    rf"|(?P<latin>[A-ZÀ-Þ][\w'’-]+(?: [A-ZÀ-Þ][\w'’-]+){{1,2}})(?![\w'’-])"
    rf"|(?P<korean>(?:남궁|황보|제갈|선우|독고|[{KO_SURNAMES}])[가-힣]{{1,2}})(?![가-힣]))"
    rf"|(?:转告|轉告|告诉|告訴|问候(?:一下)?|問候(?:一下)?)\s*(?P<clause>[{_CJK}]{{2,4}})(?=$|[，。！？；,.!?;\n])"
)
_HAS_CJK = re.compile(f"[{_CJK}]")
_CJK_NAME = re.compile(f"[{_CJK}]{{2,4}}")
_BEFORE_MEASURE = set("这那一两几每哪各某本该此這兩幾該")
# two or three capitalised words, not at the start of a clause that a common word opens
_NOT_FIRST = (
    "I|I'm|I’m|I'll|I've|I'd|Can|Could|Would|Will|Please|My|Our|Your|His|Her|Hi|Hello|Hey|Dear|Thanks|Thank|The|This|That|These|"
    "Those|What|When|Where|Why|How|Who|Is|Are|Was|Do|Does|Did|If|In|On|At|For|From|To|And|But|Or|It|We|You|"
    "He|She|They|Visa|Mastercard|Tel|Email|Address|Order|Version|Monday|Tuesday|Wednesday|Thursday|Friday|"
    "Saturday|Sunday|New|Visual|"
    "January|February|March|April|May|June|July|August|September|October|November|December"
)
_NOT_LATER = "Thanks|Regards|Happy|Sorry|Team|Support|Customer|Service"
_CAP = rf"(?!(?:{_NOT_FIRST}|{_NOT_LATER})(?![\w'’-]))[{_UP}][\w'’-]*[{_LOW}]"
_PARTICLE = r"(?:(?:von|van|de|der|den|del|della|da|di|du|le|la|zu|y|bin|ibn|al) )"
_PAIR_EN = re.compile(rf"(?<![\w'’-]){_CAP}(?:[ -]{_PARTICLE}?{_CAP}){{1,2}}(?![\w'’-])")
_BEFORE_PERSON = re.compile(
    r"(?i:(?<![A-Za-z])(?:tell|ask|cc|ping|e-?mail|message|text|call|thank|meet|met|with|to|contact|remind|"
    r"inform|invite|introduce|from|by|and))\s+$"
)
_AFTER_PERSON = re.compile(
    r"\s+(?:will|would|said|says|is|was|has|had|asked|wrote|called|told|joined|agreed|signed|sent|can|could|"
    r"did|does|and\s+I)(?![A-Za-z])|['’]s(?![A-Za-z])"
)
_HANGUL = re.compile("[가-힣]")

_ZH_STREET = (
    rf"[{_CJK}]{{1,5}}(?:路|街|大道|大街|巷|弄|胡同)\s*\d{{1,5}}(?:\s*[-之]\s*\d{{1,4}})?\s*号(?:院)?"
)
_ZH_ESTATE = (
    rf"[{_CJK}]{{2,6}}(?:小区|花园|公寓|大厦|家园|新村|苑|园|广场|村)\s*\d{{1,4}}\s*(?:号楼|栋|幢|座|期)"
)
_ADDRESS_ZH = re.compile(
    rf"(?:{_ZH_STREET}|{_ZH_ESTATE})(?:\s*[{_CJK}]{{0,6}}?\s*\d{{1,4}}\s*(?:栋|幢|座|号楼|单元|楼|层|室|号|户))*"
)
_STREET_TYPES = (
    "street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|parkway|pkwy|"
    "highway|hwy|circle|cir|square|sq"
)
_UNIT = r"(?i:,?\s*(?:apt|apartment|suite|ste|unit|flat|room|#)\.?\s*#?\s*[a-z0-9-]+)"
_CITY = r"(?i:,\s*[a-z][a-z .]+,\s*[a-z]{2}\s+\d{5}(?:-\d{4})?)?"
_ADDRESS_EN = re.compile(
    # capitalised: 221 Baker Street, Apt 2B
    rf"(?<![A-Za-z0-9])\d{{1,5}}[A-Za-z]?\s+(?:{_TITLE}\s+){{1,3}}"
    rf"(?:{'|'.join(t.capitalize() for t in _STREET_TYPES.split('|'))})(?![A-Za-z0-9])\.?{_UNIT}?{_CITY}"
    # in lower case: with a unit, or where the street ends the clause (not "3 new road bikes")
    rf"|(?i:(?<![A-Za-z0-9])\d{{1,5}}[a-z]?\s+(?:{_WORD}\s+){{1,3}}(?:{_STREET_TYPES})(?![A-Za-z0-9])\.?)"
    rf"(?:{_UNIT}{_CITY}|{_CITY}"
    rf"(?=\s*(?:$|[,.;:!?)\n]|[{_CJK}\u3000-\u303f\uff00-\uffef]|[A-Z]|(?i:in|near|and|please|thanks|today)(?![A-Za-z0-9]))))"
)


def emails(text: str) -> Iterator[Span]:
    for match in _EMAIL.finditer(text):
        yield match.start(), match.end(), "EMAIL"


def titles_only(words: str) -> bool:
    """Whether `words` are salutations and titles only (`Madam`, `Sir`, `Customer Support`): what
    a model may call a person, and no one's name."""
    return _TITLES.fullmatch(words.strip()) is not None


def introduced(text: str) -> Iterator[Span]:
    """Names the text introduces (`我叫…`, `my name is …`, a letter's greeting or signature,
    `받는 사람: …`, `お名前：…`) or honours (`이서현 씨`, `田中 春香さん`)."""
    patterns = [_NAME_ZH, _NAME_EN] if may_name(text) else []
    if _HANGUL.search(text):
        patterns.append(_NAME_KO)
    if _HAS_CJK.search(text):
        patterns += [_NAME_JA, _ADDRESSED_ZH]
    for pattern in patterns:
        for match in pattern.finditer(text):
            group = match.lastgroup or 0
            yield match.start(group), match.end(group), "NAME"


def addressed(text: str) -> Iterator[Span]:
    """Capitalised pairs where a person stands: after a verb of address (`tell`, `cc`, `ask`,
    `thank`, `to`, `with`) or before a person's verb (`… will join`, `… said`). For the learned
    detector, whose English model misses names it calls an organisation (`Roland Pages`); a
    product in the same place (`on Visual Studio Code`) has no such verb."""
    for match in _PAIR_EN.finditer(text):
        if _BEFORE_PERSON.search(text, 0, match.start()) or _AFTER_PERSON.match(text, match.end()):
            yield match.start(), match.end(), "NAME"


def names(text: str) -> Iterator[Span]:
    """Introduced names, and the guesses of the patterns when no learned detector runs: a
    surname after a verb of address (`_THIRD_ZH`), capitalised word pairs, jieba's `nr` words."""
    yield from introduced(text)
    for match in _THIRD_ZH.finditer(text):
        group = match.lastgroup or 0
        yield match.start(group), match.end(group), "NAME"
    for match in _PAIR_EN.finditer(text):
        yield match.start(), match.end(), "NAME"
    if _HAS_CJK.search(text):
        yield from _tagged_names(text)


def _tagged_names(text: str) -> Iterator[Span]:
    """Person names by jieba's part-of-speech tags (`nr`, through rjieba, its Rust port): a word
    its dictionary lacks (found by its hidden Markov model) that starts with a surname and does
    not follow a demonstrative or a numeral (这张卡)."""
    import rjieba  # loads its dictionary (0.2 s) on the first Chinese text

    at = 0
    for word, tag in rjieba.tag(text):
        if (
            tag == "nr"
            and _CJK_NAME.fullmatch(word)
            and word[0] in _SURNAMES_WIDE
            and text[at - 1 : at] not in _BEFORE_MEASURE
            and not rjieba.has_word(word)
        ):
            yield at, at + len(word), "NAME"
        at += len(word)


def addresses(text: str) -> Iterator[Span]:
    for pattern in (_ADDRESS_ZH, _ADDRESS_EN):
        for match in pattern.finditer(text):
            yield match.start(), match.end(), "ADDRESS"


_NAME_CUES_ZH = (
    "我叫",
    "名字",
    "姓名",
    "联系人",
    "收件人",
    "收货人",
    "持卡人",
    "户名",
    "签名",
    "英文名",
    "我是",
    "本人",
)
_NAME_CUES_ZH += ("这里是", "——", "--")
_NAME_CUES_EN = (
    "name",
    "i'm",
    "i’m",
    "i am",
    "this is",
    "it's",
    "it’s",
    "dear",
    "mr.",
    "mr ",
    "mrs",
    "ms.",
    "ms ",
)
_NAME_CUES_EN += ("dr.", "dr ", "prof", "miss ", "signed", "\n-", "\n—")


def may_name(text: str) -> bool:
    """Whether the text holds a word that introduces a name: most turns do not, and skip the patterns."""
    lowered = text.lower()
    return (
        any(cue in text for cue in _NAME_CUES_ZH)
        or any(cue in lowered for cue in _NAME_CUES_EN)
        or ("\n" in text and _SIGN_OFF.search(lowered) is not None)
    )


_SIGN_OFF = re.compile(
    r"(?:谢谢|此致|敬礼|祝好|敬上|thank|thx|regards|best|cheers|sincerely|yours|br)[a-z ]*\W*\n"
)
