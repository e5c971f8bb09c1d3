"""Who the user is: email addresses (also internationalised ones, 用户@例子.中国), names where
the text introduces them, street addresses with a door number. Names and addresses are found
by pattern only: no library recognises Chinese and English names offline from PyPI alone.

A name is read where the text says who the person is (a role or kinship: 老师叫…, 部長の…; a
title after it: …经理, …課長, … 팀장님; an honorific: 様, さん, 께; a particle only a person
takes: 한테, 이랑), in a list after a name (AとB, A和B), or in a script other than the text's (a
Korean name in Chinese text, a Chinese or Japanese one in English), by surname lists of the
three languages; a name guessed from its context alone is no word of jieba's dictionary.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from uxbench.pipeline.privacy.context import clause_before

Span = tuple[int, int, str]

_CJK = r"\u4e00-\u9fff"
_LATIN = r"A-Za-z0-9À-ɏ"


def swapped(word: str) -> str:
    """`word` and its typings with two neighbouring letters swapped (nmae, hodler, taht): how a cue
    word is mistyped in chat, as an alternation for a pattern."""
    typed = {word} | {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    return "|".join(sorted(typed, key=len, reverse=True))


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
    "best|regards|cheers|thanks|sincerely|team|pls|plz|thx|asap|lol|ordered|booked|running|paid|kind|kindly|"
    "maybe|ok|okay|yes|no|u|ur|below|above|details|info|number|email|address"
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
    rf"(?i:(?<![A-Za-z0-9])my\s+(?:chinese\s+|english\s+|full\s+|real\s+|first\s+|last\s+)?(?:{swapped('name')})"
    r"(?:'s|’s|\s+is)(?:\s+now)?|"
    rf"(?<![A-Za-z0-9])(?:{swapped('name')})\s*[:：=]|"
    r"(?<![A-Za-z0-9])i\s+am\s+called|(?<![A-Za-z0-9])i'm\s+called|(?<![A-Za-z0-9])signed,?|"
    # whose a form's line is: the card's holder, the parcel's recipient, the form's contact
    rf"(?<![A-Za-z0-9])(?:full\s+(?:{swapped('name')})|name\s+on\s+(?:the\s+)?card|(?:account|card)\s*(?:{swapped('holder')})"
    rf"|{swapped('recipient')}|consignee|(?:{swapped('contact')})\s+person|(?:my|the)\s+(?:{swapped('contact')})|attn|attention)"
    r"(?:[ \t]+(?:is|to)(?:[ \t]+now)?(?![A-Za-z])|[ \t]*[:：=)\]])?(?!\s*\n))\s*"
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
    "连連涂凃朴"
)
_COMPOUND_ZH = "|".join(_SURNAMES.split("|")[:-1])  # 欧阳, 司马, 诸葛 …
_THIRD_ZH = re.compile(
    r"(?:给|給|转告|轉告|告诉|告訴|通知|问一下|問一下|问问|找|联系|聯繫|发给|發給|抄送|和|跟|同事|叫|名叫|"
    r"收件人|联系人|昨天|今天)\s*"
    rf"(?P<third>(?:{_COMPOUND_ZH}|[{_SURNAMES_WIDE}])[{_CJK}]{{1,2}})"
    r"(?=的|老师|老師|先生|女士|同学|同學|经理|經理|总|說|说|跟|和|明天|今天|昨天|一起|审|審|写|寫|在|打|发|發|回|，|。|、|！|？|\s|$)"
    r"|(?:^|[。！？；;.!?\n])\s*(?!谢谢|謝謝)"
    rf"(?P<opens>(?:{_COMPOUND_ZH}|[{_SURNAMES_WIDE}])[{_CJK}]{{1,2}})"
    r"(?=的电话|的電話|的手机|的手機|的邮箱|的郵箱|跟我说|跟我說|说|說|老师|老師|先生|女士)"
)
# Korean surnames (the 60 most common cover 99% of people; 남궁, 황보, 제갈, 선우, 독고 have two
# syllables): a Korean name is one and one or two syllables more
KO_SURNAMES = (
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄채원천방공현"
    "함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉"
)
_KO_SURNAME = rf"(?:남궁|황보|제갈|선우|독고|사공|서문|동방|[{KO_SURNAMES}])"
_KO_NAME = rf"{_KO_SURNAME}[가-힣]{{1,2}}"
_NAME_KO = re.compile(
    # before its honorific: 씨 follows only a name; 님 follows titles too (선생님), so a full name
    rf"(?<![가-힣])(?:(?P<ssi>{_KO_NAME})(?=\s?씨)|(?P<nim>{_KO_SURNAME}[가-힣]{{2}})(?=\s?님))"
    # after a word that introduces one: 이름, 성함, 받는 사람, 담당자는, 예금주
    r"|(?:이름|성함|성명|받는\s?(?:사람|분|이)|보내는\s?(?:사람|분|이)|수령인|수취인|수신자|수신인|발신자|예금주|담당자|작성자|"
    r"신청인|고객명)(?:은|는|이|가)?\s*[:：]?\s*"
    rf"(?P<named>{_KO_NAME})(?=입니다|이에요|예요|이고|님|씨|[\s,.!?)]|$)"
)
# a Japanese name after a word that introduces one (お名前：, 担当は, 宛名：), or with a space between
# its parts before an honorific (、田中 春香さん)
_NAME_JA = re.compile(
    r"(?:お名前|名前|氏名|宛名|担当者?|署名|差出人|受取人|名義人?)\s*(?:は|：|:)\s*"
    r"(?P<ja>(?=[\u4e00-\u9fff々]{2}|[\u4e00-\u9fff々][ \u3000])"  # two characters at least: not 担当は私です
    r"[\u4e00-\u9fff々]{1,4}(?:[ \u3000]?[\u4e00-\u9fff々\u3041-\u3093\u30a1-\u30f6]{1,4}?)??)"
    r"(?=です|様|さん|さま|[。、,.!?！？\n]|$|\s(?![\u4e00-\u9fff々\u3041-\u3093\u30a1-\u30f6]))"
    r"|(?<![\u4e00-\u9fff々])(?P<spaced>[\u4e00-\u9fff々]{1,3}[ \u3000][\u4e00-\u9fff々\u3041-\u3093]{1,3})"
    r"(?=さん|様|さま|氏|先生|くん|ちゃん)"
)
# a name of any script after a Chinese verb of address, whose left edge the verb gives: a Japanese
# name with its space (问候一下田中 直子), a Latin one (跟Bertrand Lee约了), a Korean one (跟김윤서约了),
# or any two to four characters that end the clause after a verb that only a person takes (转告…)
_ADDRESSED_ZH = re.compile(
    r"(?:给|給|转告|轉告|告诉|告訴|通知|问候(?:一下)?|問候(?:一下)?|联系|聯繫|发给|發給|抄送|跟)\s*"
    rf"(?:(?![我你他她您它])(?P<spaced>[{_CJK}]{{1,3}}[ \u3000][{_CJK}]{{1,3}})(?![{_CJK}]{{2}}[^{_CJK}])"
    rf"|(?P<latin>[A-ZÀ-Þ][\w'’-]+(?: [A-ZÀ-Þ][\w'’-]+){{1,2}})(?![\w'’-])"
    rf"|(?P<korean>{_KO_NAME})(?![가-힣]))"
    rf"|(?:转告|轉告|告诉|告訴|问候(?:一下)?|問候(?:一下)?)\s*(?P<clause>[{_CJK}]{{2,4}})(?=$|[，。！？；,.!?;\n])"
)
# Japanese surnames (the most common ~200; 佐々木 and 五十嵐 have three characters): a Japanese name is
# one and a given name of one to three kanji or kana, with or without a space between
_JA_SURNAMES = (
    "佐々木|長谷川|五十嵐|大久保|佐藤|鈴木|高橋|田中|伊藤|渡辺|渡邊|山本|中村|小林|加藤|吉田|山田|山口|松本|井上|"
    "木村|斎藤|斉藤|清水|山崎|池田|橋本|阿部|石川|山下|中島|石井|小川|前田|岡田|藤田|後藤|近藤|村上|遠藤|青木|"
    "坂本|福田|太田|西村|藤井|金子|岡本|藤原|中野|三浦|原田|中川|松田|竹内|小野|田村|中山|和田|石田|森田|上田|"
    "柴田|酒井|工藤|横山|宮崎|宮本|内田|高木|安藤|島田|谷口|大野|高田|丸山|今井|河野|藤本|村田|武田|上野|杉山|"
    "増田|小山|大塚|平野|菅原|久保|松井|千葉|岩崎|桜井|木下|野口|松尾|菊地|野村|新井|渡部|佐野|杉本|古川|大西|"
    "浜田|市川|小島|水野|北村|荒木|安田|中田|服部|吉川|小松|松岡|菅野|永井|川口|望月|本田|武藤|西田|秋山|大橋|"
    "飯田|石原|片山|土屋|中西|岩田|桑原|小池|星野|松下|川村|平田|熊谷|伊東|樋口|福島|足立|上原|吉村|早川|坂口|"
    "内藤|西川|田口|宮田|大石|松浦|栗原|高野|須藤|三宅|今村|富田|岩本|植田|北川|岡崎|黒田|川上|堀|森|林|原|辻|"
    "関|岡|南|東"
)
_JA_GIVEN = r"[\u4e00-\u9fff々\u3041-\u3093\u30a1-\u30f6]{1,3}"
_JA_NAME = rf"(?:{_JA_SURNAMES})[ \u3000]?{_JA_GIVEN}(?<![とにがをはのもへで])"  # not a particle after it
_ZH_NAME = rf"(?:{_COMPOUND_ZH}|[{_SURNAMES_WIDE}])[{_CJK}]{{1,2}}"
_LATIN_WORD = r"[A-ZÀ-Þ][a-zß-ÿ'’-]+(?:[A-Z][a-zß-ÿ'’-]+)?"  # McGinley, MacPherson
_LATIN_NAME = rf"{_LATIN_WORD}(?: {_LATIN_WORD}){{1,2}}"
# a name in katakana, its parts apart by a middle dot or a space (マリア・ガルシア, ナカムラ　ソウタ)
_KATAKANA_NAME = r"[\u30a1-\u30fa\u30fc]{2,8}(?:[・･ \u3000][\u30a1-\u30fa\u30fc]{1,8}){0,2}"
# who a person is to the writer, in Chinese and Japanese: the name that follows is the person's
_ROLES = (
    "老师|老師|同学|同學|同事|表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|哥哥|姐姐|弟弟|妹妹|朋友|室友|邻居|鄰居|"
    "客户|客戶|经理|經理|老板|老闆|领导|領導|上司|代表|审批人|審批人|负责人|負責人|对接人|對接人|经办人|經辦人|"
    "签字的是|簽字的是|签字人|担保人|擔保人|房东|房東|律师|律師|医生|醫生|师傅|師傅|"
    "部長|課長|社長|先輩|後輩|同期|同僚|友達|友人|部下|取引先|知人|担当|"
    "昨日|今日|明日|先日|先週|昨天|今天|明天|前天"
)
_ROLE = re.compile(_ROLES)
# what may follow a person's name in Chinese or Japanese: an honorific, a particle, a verb of the
# sentence, the end of the clause
_AFTER_PERSON_CJK = (
    r"(?=さん|様|さま|氏|先生|くん|君|ちゃん|殿|が|と|に|を|は|へ|の|も|"
    r"是|的|和|跟|与|說|说|还是|還是|下周|下週|明天|今天|昨天|要|也|会|會|已经|已經|刚|剛|在|把|写|寫|"
    r"加|去|来|來|都|一起|们|們|约|約|见|見|聊|谈|談|同学|同學|女士|老师|老師|总|總|"
    r"[，。、！？；,.!?;\s]|$)"
)
# a name before a title: 王建国经理, 田中部長 (a Japanese surname alone too), 김민수 과장님
_TITLES_CJK = (
    "经理|經理|总监|總監|主任|老师|老師|医生|醫生|律师|律師|教授|先生|女士|师傅|師傅|警官|"
    "部長|課長|社長|係長|専務|常務|先輩|"
    "과장|부장|차장|팀장|대리|주임|사장|이사|상무|전무|교수|원장|실장|기자|작가|선생님|대표님"
)
_KANA_DOTTED = (
    r"[\u30a1-\u30fa\u30fc]{1,8}[・･][\u30a1-\u30fa\u30fc]{1,8}"  # キム・ミンジュン: a foreign name
)
_NAMED_BY_ROLE = re.compile(
    rf"(?:{_ROLES})(?:の|叫|是|写|寫|为|為|[:：])?\s?"
    rf"(?P<role>{_JA_NAME}|{_ZH_NAME}|{_LATIN_NAME}(?![A-Za-z])|{_KANA_DOTTED})(?<![区市町村県都府国語])"
    + _AFTER_PERSON_CJK
)
# before an honorific, any name: 桜井美咲様, 董英杰さん, マリア・ガルシアさん, Lee Burkeさん, Amanda May께
_HONORIFIC = re.compile(
    f"さん|様|さま|氏|先生|くん|ちゃん|殿|께|씨|님|한테|에게|同学|同學|老师|老師|女士|总|總|{_TITLES_CJK}"
)
_HONOURED = re.compile(
    rf"(?<![\u4e00-\u9fff\u30a1-\u30fa])(?P<honoured>{_JA_NAME}|{_ZH_NAME}|{_KATAKANA_NAME}|{_JA_SURNAMES})"
    r"(?=さん|様|さま|氏|先生|くん|ちゃん|殿)"
    rf"|(?<![A-Za-z])(?P<latin>{_LATIN_NAME})(?=さん|様|さま|氏|先生|くん|ちゃん|께|씨|님|선생님|한테|에게|"
    rf"同学|同學|老师|老師|女士|先生|总|總|(?:{_TITLES_CJK}))"
)
# a Japanese speaker's own name, however they introduce themselves (私は岡田翔太と申します, 僕は鈴木です)
_SELF_JA = re.compile(
    r"(?:私|わたし|わたくし|僕|ぼく|俺|自分)(?:は|の名前は)\s*"
    rf"(?P<self>{_JA_NAME}|{_JA_SURNAMES}|{_KATAKANA_NAME}|{_LATIN_NAME})"
    r"(?=と申します|と申す|といいます|と言います|って言います|です|でございます)"
)
# a name that opens its clause before what only a person does (张三是我们部门新来的)
_OPENS_CUE = re.compile("是我|是新|昨天|今天|跟我")
_OPENS = re.compile(
    rf"(?:^|(?<=[。！？；，,.!?;\n\s]))(?P<opens>{_JA_NAME}|{_ZH_NAME}|{_LATIN_NAME})"
    r"(?=是我们|是我們|是我的|是新来|是新來|昨天|今天|跟我说|跟我說)"
)
_TITLE_CUE = re.compile(_TITLES_CJK)
_TITLED = re.compile(
    rf"(?P<titled>(?:{_JA_SURNAMES})(?:[ \u3000]?{_JA_GIVEN})?"
    rf"|(?:{_COMPOUND_ZH}|[{_SURNAMES_WIDE}])[{_CJK}]{{2}})(?=(?:{_TITLES_CJK}))"
    # a Korean name ends in no particle (not 오늘은 before 과장님)
    rf"|(?<![가-힣])(?P<titled_ko>{_KO_SURNAME}[가-힣]{{1,2}}(?=(?:{_TITLES_CJK}))|{_KO_SURNAME}[가-힣]{{2}}(?<![는를을도의에은])\s)"
    rf"(?=(?:{_TITLES_CJK})(?:님|이|가|은|는|께|에게|한테|의|[\s,.!?]|$))"
)
# one more name in a list after a name (同期のAとBを, 把A和B加到, A、B)
_AND_NAME = re.compile(
    rf"(?:と|和|與|与|、|及)\s?(?P<more>{_JA_NAME}|{_ZH_NAME})(?<![区市町村県都府国語])" + _AFTER_PERSON_CJK
)
_WHOLE_NAME = re.compile(rf"(?:{_JA_NAME}|{_ZH_NAME})" + _AFTER_PERSON_CJK)
# a name after a verb that takes a person (跟坂本知実约了, 帮我给連美華写): the patterns' guess
_AFTER_VERB = re.compile(
    rf"(?:跟|给|給|找|问|問|约|約|陪|见|見|把)\s?(?P<verb>{_JA_NAME}|{_ZH_NAME})(?<![区市町村県都府国語])"
    + _AFTER_PERSON_CJK
)
# two name-shaped words joined by 和 or 、 before what a person does (把许艳丽和田秀佳加到): a guess
_PAIR_ZH = re.compile(
    rf"(?P<first>{_ZH_NAME})(?:和|與|与|、)(?P<second>{_ZH_NAME})"
    + _AFTER_PERSON_CJK.replace("(?=", "(?=到|", 1)
)
# a name in a script other than the text's: a Korean name in Chinese, Japanese or English text, a
# Chinese or Japanese one in English or Korean text (its parts may have a space between)
_HANGUL_RUN = re.compile("[가-힣]+")
_KO_NAME_RUN = re.compile(_KO_NAME)
# a run of Han characters set apart as a word of English is: a space or the text's edge before it, a
# space or English punctuation after it (not glued to Latin letters, not in Chinese punctuation)
_HAN_RUN = re.compile(
    rf"(?:^|(?<=[\s(\"'“]))[{_CJK}々]{{1,5}}(?:[ \u3000][{_CJK}々]{{1,3}})?(?=$|[\s.,!?;:)\"'’”])"
)
_HAN_NAME = re.compile(
    rf"(?:{_JA_SURNAMES}|{_COMPOUND_ZH}|[{_SURNAMES_WIDE}])"
    rf"[ \u3000]?[{_CJK}々\u3041-\u3093]{{1,3}}"
)
_KANA_RUN = re.compile("[\u3041-\u30ff]")
_HAN_CHARS = re.compile(f"[{_CJK}々]")
_LATIN_LETTER = re.compile("[A-Za-z]")
# Korean names by a particle only a person takes (한테, 에게, 께, 이랑) or in a list before 두 분;
# not a title or a word that takes them too (선생님께, 우리한테, 고객한테)
_NOT_KO_NAME = (
    "선생|사장|부장|과장|차장|대표|고객|우리|여러|기사|직원|상담|주인|남편|아내|부모|동생|친구|이모|고모|삼촌"
)
_KO_PARTICLE_NAME = re.compile(
    rf"(?<![가-힣])(?!{_NOT_KO_NAME})(?P<ko>{_KO_SURNAME}[가-힣]{{2}})"
    r"(?=한테|에게|께서|께|이랑|하고|씨)"
    rf"|(?<![가-힣])(?P<listed>{_KO_NAME}(?:,\s?{_KO_NAME})+)(?=\s?(?:두|세|네|다섯)\s?분)"
    # a name in another script before a Korean particle or honorific: 藤田 誠한테, Amanda May께
    rf"|(?<![{_CJK}])(?P<han>[{_CJK}][{_CJK}々]{{1,4}}|[{_CJK}]{{1,3}}[ \u3000][{_CJK}々]{{1,3}})"
    r"(?=\s?(?:한테|에게|께|씨|님|이랑|랑|대표님|선생님|사장님|과장님|부장님))"
)
# A name after a word that says whose it is, in any of the four languages and any script: the card's
# holder (名义, 名義, 명의, name on card), the parcel's recipient (收货人, 受取人, 받는 사람, attn), the
# form's applicant or contact (请假人, 申込者, 신청인, contact person), a self-introduction (저는…입니다,
# 제 이름은, 私は…と申します). A word may join them (为, 写, 改成, は, って, 은, is, =, so I put) and a
# bracket or quote open the name; the name ends where a particle, a verb or punctuation does.
_CUE_WORDS = (
    "收货人|收貨人|收件人|联系人|聯繫人|聯絡人|请假人|請假人|申请人|申請人|持卡人|开户名|開戶名|户名|戶名|姓名|名字|"
    "签收人|簽收人|经办人|經辦人|负责人|負責人|收款人|付款人|寄件人|发件人|發件人|乘车人|乘机人|入住人|预订人|預訂人|"
    "账户名|帳戶名|被保险人|投保人|受益人|监护人|監護人|代理人|担保人|擔保人|业主|業主|租客|房客|"
    "名義人?|受取人|担当者|氏名|お名前|名前|宛名|差出人|申込者|契約者|予約者|代表者|送り主|届け先|口座名義|"
    r"명의|받는\s?(?:사람|분|이)|보내는\s?(?:사람|분|이)|이름|성함|성명|수령인|수취인|예금주|담당자|신청인|예약자|"
    "계약자|주문자|고객명|보호자|"
    r"저는|제\s?이름은|내\s?이름은|我叫|我名字(?:是|叫)|我的名字(?:是|叫)"
)
_JOIN = (
    r"(?:\s*(?:[:：=]|[，,]?\s*我的(?:是|叫)|是|为|為|叫|写的是|寫的是|写|寫|填的是|填|改成了?|改为|改為|换成|換成|"
    r"の欄に|の欄は|欄に|は|って|が|"
    r"(?<=[가-힣])(?:은|는|이|가|을|를)|[】」』)\]］）]))"
)
_OPEN = r"[ \t\u3000]*[「『“\"'(（【]?[ \t\u3000]*"
_KANA_NAME = r"[\u30a1-\u30fa\u30fc]{2,8}(?:[・･ \u3000][\u30a1-\u30fa\u30fc]{1,8})?"
_KO_END = "(?=입니다|이에요|예요|이고|이라고|라고|님|씨|[^가-힣]|$)"  # what ends a name in Korean
# a foreign name in hangul has two words (마이클 존슨); the second ends in no verb's or particle's syllable
_HANGUL_TWO = r"[가-힣]{1,5} [가-힣]{1,5}(?<![요다까죠네고서며면는은을를에도님])"  # 존 스미스, 다나카 히로시
_KO_END_TWO = r"(?=입니다|이에요|예요|이고|이라고|라고|님|씨|\s*(?:[^가-힣\s]|$)|\s+(?:로|으로)\s)"
_HANGUL_NAME = (
    rf"[가-힣]{{1,5}} [가-힣]{{1,5}}?(?<![요다까죠네고서며면는은을를에도]){_KO_END_TWO}|{_KO_NAME}{_KO_END}"
)
# the shapes of a name where the words around it say it is one: a Chinese or Japanese name by its
# surname (藤田 alone too), katakana in two parts, a Korean name, Latin words, a transliteration with
# its dot (约翰·史密斯)
# a word of a Latin name in any case (Chia-Hao, kang min-jun), not a stop word (`that's`) nor an acronym (RRN)
_LATIN_NAME_WORD = rf"(?!(?:{_STOP})(?![A-Za-z]))[A-Za-zÀ-ÿ][a-zß-ÿ'’]*(?:-[A-Za-z][a-zß-ÿ'’]*)?(?![A-Za-z])"
_NAME_SHAPES = (
    rf"(?:{_COMPOUND_ZH}|{_JA_SURNAMES}|[{_SURNAMES_WIDE}])[{_CJK}々\u3041-\u3093]{{0,3}}"
    rf"(?:[ \u3000][{_CJK}々\u3041-\u3093]{{1,3}})??(?<![とにがをはのもへでや])"
    r"|[\u30a1-\u30fa\u30fc]{2,8}[・･ \u3000][\u30a1-\u30fa\u30fc]{1,8}"
    rf"|{_KO_NAME}(?![가-힣])|{_LATIN_NAME_WORD}(?: {_LATIN_NAME_WORD}){{1,2}}"
    rf"|[{_CJK}]{{1,5}}[·•・][{_CJK}]{{1,6}}"
)
_CUED = re.compile(
    # after a comma only a name of a name's shape (发收件人，山田太郎，): the clause may go on otherwise
    rf"(?:{_CUE_WORDS})[，,][ \t]*(?P<comma>{_NAME_SHAPES})(?=[，,。！？!?\s]|$)|"
    rf"(?:{_CUE_WORDS}){_JOIN}{{0,2}}{_OPEN}"
    rf"(?:(?P<cued>[{_CJK}]{{1,5}}[·•・][{_CJK}]{{1,6}}"
    rf"|(?=[{_CJK}々]{{2}}|[{_CJK}][ \u3000])[{_CJK}][{_CJK}々]{{0,4}}?"
    rf"(?:[ \u3000][{_CJK}々\u3041-\u3093]{{1,3}}?)?)"
    r"(?=$|[^\u4e00-\u9fff々\u3041-\u3093]|で|って|と申|と言|といい|です|さん|様|に|が|を|の|"
    r"了|你|吧|对|對|同学|同學|收|先生|女士|谢|謝|这|這)"
    rf"|(?P<kana>{_KANA_NAME})(?![\u30a1-\u30fa\u30fc])"
    rf"|(?P<hangul>{_HANGUL_NAME})"
    rf"|(?P<latin>[A-Za-zÀ-ÿ][a-zß-ÿ'’-]*(?: [A-Za-zÀ-ÿ][a-zß-ÿ'’-]*){{1,2}}(?![A-Za-zÀ-ÿ0-9'’-])))"
)
_CUE_HINT = re.compile(rf"(?:{_CUE_WORDS})")
# a name that a note after it says whose it is (中村和也←担当者です, 이수민\n위에 거 이름임,
# 崔杰嘉 这个是我收件人, 上官程沐\n↑姓名): a line's first words, then an arrow, a line break or a
# word that points back (이게, これが, 这个是), and a cue word within a few words
_NAMED_AFTER = re.compile(
    rf"(?:^|(?<=[\n「『“\"'(（【，,、 ]))[ \t\u3000]*(?P<after>{_NAME_SHAPES}|{_HANGUL_TWO})[ \t\u3000]*"
    r"(?:(?:←|<-+|↑|\n)[ \t\u3000]*\n?[ \t\u3000]*[↑←]?|이게|これが|これは|这个是|这是|這是|這個是)"
    r"[^\n。！？!?]{0,8}?"
    rf"(?:{_CUE_WORDS.replace('저는|', '')}|(?i:name|holder|recipient|attn))"
)
# a name that opens a line or a clause before its greeting (江涵强你好, 约翰·史密斯你好, 고성진 안녕하세요,
# Ka Man Lau、お世話になっております) or that closes an address as its recipient's (…23樓B座 向桐收)
_GREETED = re.compile(
    rf"(?:^|(?<=[\n「『“\"'(（【：:，,。 ]))[ \t\u3000]*(?P<greeted>{_NAME_SHAPES}|{_HANGUL_TWO})"
    r"(?=(?:总|總|老师|老師|同学|同學|先生|女士|经理|經理)?(?:你好|您好)|[，,、\s]*お世話になっております"
    r"|\s?(?:씨|님)?\s?안녕하세요|收(?![到货貨件款费費钱錢藏集听聽入益拾])"
    # a letter to them (…にお礼状を書いて, …께 감사 편지 써줘)
    r"|(?:さん|様)?に(?:お礼状|お礼のメール|手紙)|\s?(?:씨|님)?(?:께|에게)\s?감사)"
)
# a name an arrow points to after a line's cue word (先方に担当者を伝えたい…→藤田蓮, 氏名→ナカムラダイキ)
_ARROWED = re.compile(
    rf"(?:{_CUE_WORDS})[^\n→]{{0,40}}→[ \t\u3000]*"
    rf"(?P<arrowed>{_NAME_SHAPES}|[\u30a1-\u30fa\u30fc]{{3,10}}|{_JA_SURNAMES})"
    r"(?![\u30a1-\u30fa\u30fc\u4e00-\u9fff々]|[ \u3000][\u4e00-\u9fff々])"
)
# a name on its own line before a phone or other value that was masked out (中村真由美 06-…, Mary Mutua
# +254…, 배하지 +82 …, 마이클 존슨 +86…): the line's first words, of a name's shape, and nothing but a
# space before the value
# words that label a value on a form, in the languages people paste forms from: `bank account …`,
# `codice fiscale …` before a masked value is the value's label, not a name
_LABEL_WORDS = (
    "bank|account|acct|iban|swift|routing|sort|social|security|insurance|tax|fiscal|codice|fiscale|credit|"
    "debit|licen[cs]e|driver|driving|passport|permit|residence|registration|vehicle|device|home|work|office|"
    "personal|national|citizen|identity|user(?:name)?|login|password|pin|billing|shipping|delivery|"
    "n[uú]mero|documento|nacional|cuenta|conta|steuer|nummer|kimlik|s[ée]curit[ée]|sociale|dni|nie|nif|cpf|"
    "curp|pesel|bsn|nir|ssn|nino"
)
_GREETING = re.compile("好|お世話|안녕하세요|收|お礼|手紙|감사")
_CONTACT_WORDS = re.compile(
    r"电话|電話|手机|手機|携帯|連絡|联系|聯繫|号码|號碼|番号|전화|연락|휴대|핸드폰|번호|"
    rf"(?i:(?<![a-z])(?:tel|phone|mobile|cell|call|contact|whatsapp|fax|number|no|card|id|ip|mac|imei|e?mail|"
    rf"address|plate|order|code|serial|sn|{_STOP}|{_LABEL_WORDS})(?![a-z]))"
)
_NAME_LINE = re.compile(
    rf"(?m:^)[ \t]*[「『“\"'(（]?(?P<line>{_NAME_SHAPES}|{_HANGUL_TWO})[ \t\u3000]+"
    r"(?=\x00)"
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
# in quotes too ('Ezra Njoroge'), not a word's part (O'Brien's Pub, don't)
_PAIR_EN = re.compile(rf"(?<![\w-])(?<!\w['’]){_CAP}(?:[ -]{_PARTICLE}?{_CAP}){{1,2}}(?![\w-])(?!['’]\w)")
_BEFORE_PERSON = re.compile(
    r"(?i:(?<![A-Za-z])(?:tell|ask|cc|ping|e-?mail|message|text|call|thank|meet|met|with|to|contact|remind|"
    r"inform|invite|introduce|from|by|and|(?:note|card|gift|letter|present|speech|poem)\s+for))\s+$"
    # a label that names whom a line is for or about (Attn: …, tenants: …)
    r"|(?i:(?<![A-Za-z])(?:attn|attention|tenants?|guests?|attendees?|recipients?|landlord|passengers?|"
    r"patient|owner|contact|manager|teacher|doctor|lawyer))\s*:?\s+$"
)
_AFTER_PERSON = re.compile(
    r"\s+(?:will|would|said|says|is|was|has|had|asked|wrote|called|told|joined|agreed|signed|sent|can|could|"
    r"did|does|and\s+I)(?![A-Za-z])|['’]s(?![A-Za-z])"
    # the first of two people (Christine Dalziel and Emer McGreal)
    r"|\s+and\s+[A-ZÀ-Þ][a-zß-ÿ'’-]+\s+[A-ZÀ-Þ]"
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


_TOKEN_TAIL = re.compile(r"(?:[.\-]?[A-Za-z0-9_])*")


def emails(text: str) -> Iterator[Span]:
    """E-mails, each to the end of its token: what is glued to a top-level domain (`…@qq.com138…`,
    `@a.aa0`) is no text of its own, and left out it would survive its neighbour's masking."""
    for match in _EMAIL.finditer(text):
        yield match.start(), _TOKEN_TAIL.match(text, match.end()).end(), "EMAIL"


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
        patterns += [_NAME_JA, _ADDRESSED_ZH, _SELF_JA]
    if _HANGUL.search(text):
        patterns.append(_KO_PARTICLE_NAME)
    if _ROLE.search(text):
        patterns.append(_NAMED_BY_ROLE)
    if _HONORIFIC.search(text):
        patterns.append(_HONOURED)
    if _CUE_HINT.search(text):
        patterns.append(_CUED)
    if "\x00" in text:
        patterns.append(_NAME_LINE)
    if _CUE_HINT.search(text) or "name" in text.lower():
        patterns.append(_NAMED_AFTER)
    if _GREETING.search(text):
        patterns.append(_GREETED)
    if "→" in text:
        patterns.append(_ARROWED)
    if _OPENS_CUE.search(text):
        patterns.append(_OPENS)
    if _TITLE_CUE.search(text):
        patterns.append(_TITLED)
    found = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            group = match.lastgroup or 0
            if _accepted(str(group), match.group(group)):
                found.append((match.start(group), match.end(group), "NAME"))
    found += other_script(text)
    yield from _with_lists(text, found)


def completed(text: str, found: list[Span]) -> Iterator[Span]:
    """A learned detector's spans with each Chinese or Japanese name read whole where the model cut
    it short (蒋沐 of 蒋沐亦, 柴田 of 柴田 奈々), and the next name of a list after each."""
    whole = [
        (
            start,
            max(end, more.end()) if kind == "NAME" and (more := _WHOLE_NAME.match(text, start)) else end,
            kind,
        )
        for start, end, kind in found
    ]
    yield from _with_lists(text, [span for span in whole if span[2] == "NAME"])
    yield from (span for span in whole if span[2] != "NAME")


_GUESSED = {
    "role",
    "titled",
    "verb",
    "opens",
    "cued",
    "line",
    "after",
    "greeted",
    "comma",
    "arrowed",
}  # a name read from its context alone: not a word
_SHAPED = {"cued", "line", "after", "greeted", "comma", "arrowed"}  # of a name's shape by a cue or a line
_SURNAME_START = re.compile(f"(?:{_JA_SURNAMES}|{_COMPOUND_ZH})")


def _plausible(name: str) -> bool:
    """Whether a name read from its context alone may be one: not a word that starts with a
    surname's character (高中 before 老师), nor a time word and what follows (明天到 after 经理)."""
    import rjieba

    if _SURNAME_START.match(name):
        return True
    return not _word(name) and not (
        rjieba.has_word(name[:2]) and [t for _, t in rjieba.tag(name[:2])] == ["t"]
    )


def _place_named(name: str) -> bool:
    """Whether a name of a cue's or a line's shape is a two-character word jieba knows as a place
    (黄洋, 江城): many names are, and there the words around it say it is a name; a longer place word
    is a place (王府井). Not for a guess from a
    role or a verb (`_GUESSED_ALONE`), where a place is more often meant."""
    import rjieba

    return len(name) == 2 and all(tag == "ns" for _, tag in rjieba.tag(name))


def _accepted(group: str, name: str) -> bool:
    """Whether a pattern's name stands: one read from its context alone must be plausible; one of a
    cue's or a line's shape may be a place's word too; a contact line's first words name no contact
    word (電話, phone)."""
    if group == "line" and _CONTACT_WORDS.search(name):
        return False
    if group not in _GUESSED:
        return True
    return _plausible(name) or (group in _SHAPED and _place_named(name))


def _word(run: str) -> bool:
    """Whether `run` is a word, not a name: one jieba's dictionary holds as no person's (文档), or a
    doubled character (谢谢, 哈哈; jieba tags 谢谢 a person)."""
    import rjieba

    return (len(run) == 2 and run[0] == run[1]) or (
        bool(rjieba.has_word(run)) and not all(tag.startswith("nr") for _, tag in rjieba.tag(run))
    )


def _with_lists(text: str, found: list[Span]) -> Iterator[Span]:
    """The names found, and the next name of a list after each (同期のAとBを, 把A和B加到)."""
    yield from found
    for _, end, _ in found:
        if more := _AND_NAME.match(text, end):
            yield more.start("more"), more.end("more"), "NAME"


def other_script(text: str) -> Iterator[Span]:
    """Names in a script other than the text's, which a text of that language holds for a name
    only: a Korean name in Chinese, Japanese or English text (韩国客户이예찬明天到), a Chinese or
    Japanese one in English text (my landlord 方梓海, contact is 山崎　悠真)."""
    hangul = _HANGUL_RUN.findall(text)
    latin = len(_LATIN_LETTER.findall(text))
    if hangul and (_HAS_CJK.search(text) or _KANA_RUN.search(text) or latin >= 3 * sum(map(len, hangul))):
        if all(_KO_NAME_RUN.fullmatch(run) for run in hangul):
            for match in _HANGUL_RUN.finditer(text):
                yield match.start(), match.end(), "NAME"
    if not hangul and not _KANA_RUN.search(text) and (han := _HAN_CHARS.findall(text)):
        # every Han character of the text in a name: English text, not Chinese mixed with English
        runs = [
            run
            for run in _HAN_RUN.finditer(text)
            if _HAN_NAME.fullmatch(run.group()) and not _word(run.group())
        ]
        if len(han) == sum(len(_HAN_CHARS.findall(run.group())) for run in runs) and latin > 2 * len(han):
            for run in runs:
                yield run.start(), run.end(), "NAME"


def addressed(text: str) -> Iterator[Span]:
    """Capitalised pairs where a person stands: after a verb of address (`tell`, `cc`, `ask`,
    `thank`, `to`, `with`) or before a person's verb (`… will join`, `… said`). For the learned
    detector, whose English model misses names it calls an organisation (`Roland Pages`); a
    product in the same place (`on Visual Studio Code`) has no such verb."""
    for match in _PAIR_EN.finditer(text):
        if _BEFORE_PERSON.search(text, 0, match.start()) or _AFTER_PERSON.match(text, match.end()):
            yield match.start(), match.end(), "NAME"


# a word in the clause before capitalised words that says they name a person: a form's line (name on
# card, recipient, attn), a greeting (hi, hello), an invitation (add … to the invite)
_PERSON_CUE_EN = re.compile(
    rf"(?i:(?<![a-z])(?:{swapped('name')}|{swapped('holder')}|{swapped('recipient')}|{swapped('contact')}|"
    r"receiver|consignee|attn|attention|payee|sender|applicant|"
    r"addressee|guardian|beneficiary|signatory|tenant|landlord|hi|hello|hey|add|invite|cc|ping|thank|thanks|"
    r"mr|mrs|ms|miss|dr|prof)(?![a-z]))"
)
# what follows a person's name on a form: a note that says so (<- that's my name), a phone masked out
_PERSON_AFTER_EN = re.compile(
    rf"\s*(?:<-+|←)?\s*\n?\s*(?:{swapped('that')})(?:'s|’s|\s+is)\s+(?:my|the)(?![A-Za-z])|[ \t]*\x00"
)
_LINE_END = re.compile(r"[ \t]*[\"'”’]?[ \t]*(?:\n|$)")
# a line that introduces the next one as a person's (please find my contact below:)
_CUE_LINE_BEFORE = re.compile(
    r"(?i:(?<![a-z])(?:name|contact|recipient|attn|holder|person|signed|from)(?![a-z])[^\n]{0,24}:)"
    r"[ \t]*\n[ \t]*[\"'“‘(]?[ \t]*$"
)
_LINE_START = re.compile(r"(?:^|\n)[ \t]*[\"'“‘(]?[ \t]*$")


# a name in any case in a frame only a person fits: a greeting and a title (hi ms. nathaniel adetokunbo),
# an invitation (add nutcha lertsattayanusak to the invite), a pickup (uda utami will pick up the parcel)
_PERSON_FRAME_EN = re.compile(
    r"(?i:(?<![a-z])(?:hi|hello|hey|dear|thanks|thank\s+you|add|invite|cc)\s+(?:mr|mrs|ms|miss|dr|prof)\.?\s+)"
    rf"(?P<framed>(?i:{_WORD})(?: (?i:{_WORD})){{1,2}})(?=[\s,.!?'\"]|$)"
    rf"|(?i:(?<![a-z])(?:add|invite|cc)\s+)(?P<invited>(?i:{_WORD})(?: (?i:{_WORD})){{1,2}})"
    r"(?=\s+(?i:to\s+(?:the|my|our|this)\s+(?:invite|invitation|meeting|call|group|chat|thread|list|team|channel)))"
    rf"|(?:^|(?<=[\n.!?,;:'\"]))[ \t]*(?P<picks>(?i:{_WORD})(?: (?i:{_WORD})){{1,2}})"
    r"(?=\s+(?i:will|wlil|wil)\s+(?:pick|collect|sign|come|bring|drop))"
)


def _person(text: str, start: int, end: int) -> bool:
    """Whether the capitalised words at `start:end` are a person's name by the words around them
    (see `addressed`, `_PERSON_CUE_EN`, `_PERSON_AFTER_EN`) or as a line of their own: capitalised
    words alone are as often a brand or a place (`Jackson Hole had a sale`)."""
    before = text[max(0, start - 48) : start]
    return bool(
        _BEFORE_PERSON.search(before)
        or _AFTER_PERSON.match(text, end)
        or _PERSON_CUE_EN.search(clause_before(text, start, 48))
        or _PERSON_AFTER_EN.match(text, end)
        or (_LINE_START.search(before) and (_LINE_END.match(text, end) or _CUE_LINE_BEFORE.search(before)))
    )


def names(text: str) -> Iterator[Span]:
    """Introduced names, and the guesses of the patterns when no learned detector runs: a
    surname after a verb of address (`_THIRD_ZH`), capitalised word pairs, jieba's `nr` words."""
    found = list(introduced(text))
    for match in _THIRD_ZH.finditer(text):
        group = match.lastgroup or 0
        if _plausible(match.group(group)):
            found.append((match.start(group), match.end(group), "NAME"))
    found += [
        (m.start(), m.end(), "NAME") for m in _PAIR_EN.finditer(text) if _person(text, m.start(), m.end())
    ]
    found += [
        (m.start(g), m.end(g), "NAME")
        for m in _PERSON_FRAME_EN.finditer(text)
        for g in ("framed", "invited", "picks")
        if m[g]
    ]
    found += [(m.start(g), m.end(g), "NAME") for m in _PAIR_ZH.finditer(text) for g in ("first", "second")]
    found += [
        (m.start("verb"), m.end("verb"), "NAME") for m in _AFTER_VERB.finditer(text) if _plausible(m["verb"])
    ]
    if _HAS_CJK.search(text) and not _KANA_RUN.search(text):  # jieba reads Chinese, not Japanese
        found += _tagged_names(text)
    yield from _with_lists(text, found)


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
            and not _word(word)
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
_NAME_CUES_EN += ("dr.", "dr ", "prof", "miss ", "signed", "\n-", "\n—", "holder", "recipient", "consignee")
_NAME_CUES_EN += ("attn", "attention")
_NAME_CUES_EN += tuple(
    typed for cue in ("name", "holder", "contact", "recipient") for typed in swapped(cue).split("|")
)


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
