"""Addresses given without a lead-in word, by the grammar of each country's addresses: in Chinese
a chain of place names that holds a number (a room number after its unit: 4单元2069); in English
a run of capitalised words and numbers (a unit before the street number: 2/7) that ends in a US
state and ZIP code, a UK postcode, a Canadian or an Australian one; in Japanese a prefecture or
city down to its 丁目-番-号 (and a building with its room number after it); in Korean a road
address, a province, city or district down to its road (…로, …길, …가) and building number.
Each runs to the last room: a Chinese estate named before its building (锦绣华庭24栋1单元603室),
a Japanese building and room or floor, a Korean apartment's 동 and 호 or a floor; Korean lot
addresses (…동 483-171번지). English addresses of other countries (India, New Zealand, Ireland,
the Philippines, Singapore) by their shape: a door number or a unit, capitalised words, then a
postcode (Kozhikode-060085, Auckland 1024, 2277 Zambales, an Eircode, Dublin 6).
`names.addresses` finds street lines of their own (221 Baker Street).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from uxbench.pipeline.privacy.context import clause_before

Span = tuple[int, int, str]

_CJK = r"\u4e00-\u9fff"
# a place name: characters ending in an administrative unit, a road or an estate
_PLACE = (
    r"(?:省|自治区|自治區|特别行政区|市|州|盟|区|區|县|縣|旗|镇|鎮|乡|鄉|街道|村|"
    r"路|街|巷|弄|胡同|大道|道|段|小区|社区|社區|花园|花園|大厦|大廈|广场|廣場|公寓|新村|家园|家園|苑|园|園)"
)
_NAMED = rf"[{_CJK}]{{1,12}}?{_PLACE}"
_NEXT = rf"[{_CJK}]{{0,9}}?{_PLACE}"
# a numbered part: 26栋, 351室, 3组, H座, 5樓, 1號之1; or 3-2-501 glued to the part before
_NUMBERED = (
    r"\s?(?:[东南西北中東]\s?)?[0-9A-Za-z]{1,6}(?:[-之][0-9]{1,5})*\s?"
    r"(?:号院|号楼|號樓|号|號|座|栋|棟|幢|楼|樓|层|層|室|单元|單元|组|組|弄|巷|段|户|戶|F)(?:之\d{1,4})?"
    r"|\d{1,4}(?:-\d{1,5}){1,3}(?![\d-])"
)
_ROOM = (
    r"(?:(?<=单元)|(?<=單元)|(?<=[幢栋棟楼樓座]))\d{2,5}(?![\d号號室])"  # 4单元2069: the room after its unit
)
# an estate or a building by its own name, known as one by the numbered building after it
# (锦绣华庭24栋, 海景樓12樓, 保利香槟国际3期) or its building, unit and room (华润城12-3-982)
_ESTATE = (
    rf"\s?[{_CJK}]{{2,8}}?(?=\s?[0-9A-Za-z]{{1,4}}\s?"
    r"(?:栋|棟|幢|号楼|號樓|楼|樓|座|期|单元|單元)|\d{1,3}-\d{1,2}-\d{1,5}(?![\d-]))"
)
# a building after a comma (…大街408号，9号楼1306)
_BUILDING_AFTER = r"[，,]\s?(?=\d{1,4}\s?(?:号楼|號樓|栋|棟|幢|座))"
_ADDRESS_ZH = re.compile(
    # a postcode before (not a status after kana, ずっと503); no place name of the next line (\n中村)
    rf"(?<![0-9])(?:(?<![A-Za-z\u3041-\u30ff])(?P<post>\d{{3,6}}\s?))?(?:{_NAMED}){{1,6}}"
    rf"(?:{_NUMBERED}|[ \t]?{_NEXT}|{_ESTATE}|{_BUILDING_AFTER})*(?:{_ROOM})?"
    r"(?:\s?\d{6}(?!\d))?"
)
# what people write before an address, not part of it
_LEAD_ZH = re.compile(
    r"^(?:我家|我们家|他家|她家|家|我|我们|现)?(?:住在|住|在|寄到|送到|发到|搬到了|搬到|改成|改为|位于|地址是|是|到)"
)
_UNIT_ZH = re.compile(r"\d")

# how an English address ends: a US state and ZIP, a UK postcode, a Canadian province and postal code,
# an Australian state and postcode
_POSTCODES = (
    r"[A-Z]{2},? \d{5}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]{2},? [A-Z]\d[A-Z] ?\d[A-Z]\d|"
    r"(?:ACT|NSW|NT|QLD|SA|TAS|VIC|WA),? \d{4}"
)
_TOKEN = (
    r"(?:\d{1,6}(?:/\d{1,6})?[A-Za-z]?|[A-ZÀ-Þ][\w'’.-]*|#\d+|(?i:apt|suite|ste|unit|flat|studio|room)\.?)"
)
_ADDRESS_EN = re.compile(
    rf"(?<![\w'’.-])(?:{_TOKEN}(?:,? |,?\n\s*)){{1,10}}?"
    rf"(?:{_POSTCODES})(?![\w])"
)
_ANCHOR_EN = re.compile(_POSTCODES)

# Japanese: a prefecture, city, ward, town or village, its 丁目, 番(地) and 号 (or 1-2-3), then a
# building's name and room number (ハイツ384)
_KANA = r"\u3041-\u30ff"
_KANJI_NUMBER = "[一二三四五六七八九十]{1,3}"  # 二丁目: a chōme in kanji is not folded (a short run)
# a number of a chōme, a block or a house: digits, kanji, or the 〇 a writer puts for one unknown
_JA_NUMBER = r"(?:\d{1,4}|[一二三四五六七八九十〇○]{1,3})"
_JA_DASH = "[-−‐‑–—ー]"  # what people type between 丁目, 番 and 号: a hyphen, a minus, a long-vowel mark
# a building by the word that names one (メゾン北一条西, コーポ梅田, 〇〇ハイツ), its room number after it
_JA_BUILDING = (
    rf"[{_KANA}\u4e00-\u9fffA-Za-z]{{0,12}}?(?:ハイツ|メゾン|コーポ|レジデンス|マンション|タワー|ビル|荘|アパート|ハウス|"
    rf"パレス|コート|ヒルズ|プラザ|シティ|パーク|ヴィラ|テラス|ガーデン|寮)[{_KANA}\u4e00-\u9fffA-Za-z]{{0,10}}?"
)
# or by any name that opens with no kana particle (クレスト浅草343, 卯の里ハイツ384) on the address's line;
# not what a number of a thing is (ステータス503, 型番はOLED55, バージョン4, ずっと401)
_JA_ROOM = (
    "(?!ステータス|バージョン|エラー|コード|ダイヤル|ナンバー|型番)"
    r"[\u30a1-\u30ff\u4e00-\u9fffA-Za-z](?:(?!番号|画面)[\u3041-\u30ff\u4e00-\u9fffA-Za-zヶ々]){0,19}?"
)
_ADDRESS_JA = re.compile(
    rf"(?:〒\s?\d{{3}}{_JA_DASH}\d{{4}}[ \u3000]?)?"
    rf"[\u4e00-\u9fff]{{1,4}}?[都道府県市区町村郡][\u4e00-\u9fff{_KANA}A-Za-zヶ々]{{0,20}}?"
    rf"(?:{_JA_NUMBER}丁目(?:{_JA_NUMBER}(?:番地?|{_JA_DASH})(?:{_JA_NUMBER}号?)?)?"
    rf"|\d{{1,4}}番地?(?:の?{_JA_NUMBER}号?)?|\d{{1,4}}{_JA_DASH}\d{{1,4}}(?:{_JA_DASH}\d{{1,4}})?)"
    rf"(?:[ \u3000\n]?{_JA_BUILDING}\d{{1,5}}(?:号室?|階|F)?|[ \u3000]?{_JA_ROOM}\d{{1,5}}(?:号室?|階|F)?"
    rf"|\n{_JA_ROOM}\d{{1,5}}(?:号室|階|F))?(?![\d.\-−A-Za-z])"
)
# Korean addresses: a province, city or district (or a metropolitan city by its short name, 서울) down
# to a road and building number (테헤란로 152) or a lot (송도동 483-171번지), then an apartment's
# block and unit (래미안 105동 1403호)
_KO_CITIES = "서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|전북|전남|경북|경남|제주"
_ADDRESS_KO = re.compile(
    rf"(?:(?:[가-힣]{{1,8}}(?:특별시|광역시|특별자치시|특별자치도|도|시|군|구)|{_KO_CITIES})\s){{1,4}}"
    r"(?:[가-힣]{1,8}(?:읍|면)\s)?"
    r"(?:[가-힣0-9]{1,15}(?:로|길|가|거리)\s?(?:지하\s?)?\d{1,5}(?:-\d{1,5})?(?:\s?번(?:안)?길\s?\d{1,5}(?:-\d{1,5})?)?"
    r"|[가-힣0-9]{1,8}(?:동|리|가)\s?(?:산\s?)?\d{1,5}(?:-\d{1,5})?(?:번지)?)(?![\d])"
    r"(?:\s?\([가-힣0-9,\s]{1,20}\))?"
    r"(?:,?\s?(?:[가-힣A-Za-z0-9]{1,15}\s?)?(?:\d{1,4}동\s?\d{1,5}호|(?:지하\s?)?\d{1,3}층(?:\s?\d{1,5}호)?))?"
)
# English addresses of other countries, by their shape: from a door number or a unit (Unit 11,
# H.No. 863, PO Box 8, Block 01 Lot 92) through capitalised words and numbers to a postcode (an Indian
# PIN after its city, Kozhikode-060085; four to six digits, Auckland 1024, 2277 Zambales; an
# Eircode, H78X6A5) and the place names after it
_EN_UNIT = (
    r"(?:H\.?\s?No\.?|(?:House|Holding|Building|Plot)\s+No\.?|Unit|Flat|Apt\.?|Apartment|Suite|Studio|Room|Rm\.?|"
    r"Bldg\.?|Level|Floor|Block|Blk\.?|Lot|P\.?\s?O\.?\s+Box|Plot)"
)
_EN_NUMBER = r"\d{1,6}(?:/\d{1,6}|-[A-Z](?![\w]))?[A-Za-z]{0,2}"  # 05/884, 6415-G, 35th, 24F
_EN_WORD = rf"(?:[A-ZÀ-Þ][\w'’.-]*|{_EN_NUMBER}|#\d{{1,3}}-\d{{1,5}}|[a-z]{{1,3}}(?= [A-Z])|&|{_EN_UNIT})"
# after a postcode: its town (2197 Davao del Sur) and a state after a comma (Taman Awan, Labuan)
# (USJ 26c, Seksyen 13); Latin letters only: the Chinese after an address is no part of it
_EN_PLACE = (
    r"(?: (?:(?:de|del|de la|of) )?(?:[A-ZÀ-Þ][A-Za-zÀ-ÿ0-9'’-]*|\d{1,3}[A-Za-z]?(?![A-Za-z0-9]))){0,4}"
    r"(?:, [A-ZÀ-Þ][A-Za-zÀ-ÿ'’-]*(?: [A-ZÀ-Þ][A-Za-zÀ-ÿ'’-]*){0,2}(?![A-Za-zÀ-ÿ0-9_'’-]))?"
)
_EN_POSTCODE = (
    rf"(?:[A-ZÀ-Þ][\w'’]*-\d{{6}}|\d{{4,6}}|[A-Z]\d{{2}} ?[A-Z0-9]{{4}}|Dublin \d{{1,2}}[Ww]?){_EN_PLACE}"
)
# a door's number: 8, 27B, 1K-57, s-14-44, 3i-92 (a unit's letters, a floor and a door)
_EN_DOOR = r"(?:[A-Za-z]-?)?\d{1,4}[A-Za-z]{0,2}(?:-[A-Za-z0-9]{1,4}){0,2}"
_ADDRESS_WORLD = re.compile(
    rf"(?<![A-Za-zÀ-ÿ0-9_.,/-])(?<![A-Za-z]['’])"
    rf"(?:(?:{_EN_UNIT}|No\.?) ?{_EN_DOOR}|[A-Z]?{_EN_NUMBER}|{_EN_DOOR}(?=,))"
    rf"(?:,? {_EN_WORD}){{0,14}},? {_EN_POSTCODE}(?![A-Za-zÀ-ÿ0-9_-])(?!['’][A-Za-z])"
)
# the words that name a street or a building in the English of many countries (Marg and Salai in India)
_STREET_WORDS = (
    "Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Court|Ct|Crescent|Cres|Close|Place|Pl|"
    "Terrace|Way|Highway|Hwy|Parade|Square|Circle|Plaza|Park|Grove|Row|Mews|Quay|Walk|Village|Heights|"
    "Extension|Access|Amble|Rise|Esplanade|Building|Apartments|Residences|Tower|Towers|Mansions|"
    "Marg|Nagar|Zila|Salai|Colony|Chowk|Bagh|Gali|Sector|Phase|Barangay|Brgy|Subdivision|Homes|Estate|"
    "Jalan|Jln|Lorong|Lor|Persiaran|Lebuh|Soi|Moo|Thanon|Calle|Rua|Strasse|Straße"
)
# a run of that shape is an address by a unit first, a street word, an Indian PIN, an Eircode, a
# Dublin district or two commas
_STRONG_EN = re.compile(
    rf"^{_EN_UNIT}|\s(?:{_STREET_WORDS})\.?(?![\w])|-\d{{6}}(?![\d])|\s[A-Z]\d{{2}} ?[A-Z0-9]{{4}}(?![\w])|"
    r"Dublin \d|,.*,"
)
# a street line read whole, by its grammar rather than a postcode: the units before it (Rm 305, Bldg 15,
# No. 236), a door number (6-5-20), capitalised words to a street word or a romanised ward, road or
# district (Shibuya-ku, Teheran-ro, Gangnam-gu), then the comma-separated places, units and postcode
# after it on the same line (Nanshan District, Shenzhen; Seoul, Unit 954; Tokyo 655-7933)
_LEAD_UNIT = (
    rf"(?i:{_EN_UNIT}|No\.?)\s?#?[A-Za-z0-9]{{1,6}}"
    r"(?:-[A-Za-z0-9]{1,4})?"
)
_ROMAN_SUFFIX = "-(?:ku|gu|ro|daero|gil|dong|shi|si|cho|machi|gun|eup|myeon)"
_ROMAN_PART = rf"[A-Z][a-z]+{_ROMAN_SUFFIX}"
_LW = "A-Za-zÀ-ÿ0-9_'’"  # a Latin word's characters: the Chinese after an address is no part of it
_STREET_LINE = re.compile(
    rf"(?<![A-Za-zÀ-ÿ0-9_.,/-])(?<![A-Za-z]['’])(?:{_LEAD_UNIT},?\s){{0,3}}(?:{_LEAD_UNIT}|\d{{1,5}}(?:-\d{{1,4}}){{0,2}}[A-Za-z]?),?"
    rf"(?:,?\s(?:[A-Z][{_LW}.]*|{_LEAD_UNIT}|#\d{{1,5}}|\d{{1,4}}/\d{{1,4}}[A-Za-z]?)|,\s\d{{1,5}}[A-Za-z]?){{0,4}}"
    rf",?\s(?:(?:{_STREET_WORDS})\.?|{_ROMAN_PART})(?![{_LW}-])"
    rf"(?:\s(?:{_LEAD_UNIT}|#\d{{1,5}}|\d{{1,4}}(?![A-Za-z0-9_-])))?"
    rf"(?:,[ \t](?:{_LEAD_UNIT}|#\d{{1,3}}-\d{{1,5}}|{_ROMAN_PART}"
    rf"|[A-Z][{_LW}]*(?:[ \t][A-Z][a-z][{_LW}]*){{0,2}})"
    r"(?:[ \t]\d{3}-\d{4}|[ \t]\d{4,6})?(?![A-Za-z0-9_-])(?!['’][A-Za-z])){0,5}"
)
# what goes on after an English address, on its line or the next: a unit (#13-413) or a city and its
# postcode (Singapore 810588, Tokyo 593-3414)
_TAIL_EN = re.compile(
    r"[ \t]*,?[ \t]*(?:#\d{1,3}-\d{1,5}|\n?[ \t]*(?:[A-Z][A-Za-z'’]*[ \t]){1,3}(?:\d{4,6}|\d{3}-\d{4}))"
    r"(?![A-Za-z0-9_-])"
)
# a street line needs its street word: most texts hold none, and the line's pattern is slow to fail
_STREET_ANCHOR = re.compile(rf"\s(?:{_STREET_WORDS})\.?(?![A-Za-z])|[a-z]{_ROMAN_SUFFIX}(?![a-z])")
# or by the words before it in its clause
_ADDRESS_CUE_EN = re.compile(
    r"(?i:ad+res+(?:\s+(?:is|to))?|addr\.?|(?:ship|send|deliver|post|mail|moved?)(?:ed|ing|s)?\s+(?:it\s+)?to|"
    r"(?:live|lives|living|located|based)\s+at)\W*$"
)


_NUMBERED_PART = re.compile(r"\d|[一二三四五六七八九十〇○](?:丁目|番|号|號)")


def may_address(text: str) -> bool:
    """Whether the text holds a number an address could hold: a digit, or a kanji one before its
    unit (三丁目〇番一号, which holds no digit)."""
    return _NUMBERED_PART.search(text) is not None


def addresses(text: str) -> Iterator[Span]:
    for match in _ADDRESS_ZH.finditer(text):
        lead = _LEAD_ZH.match(match.group())
        start = match.start() + (lead.end() if lead else 0)
        numbered = _UNIT_ZH.search(text, max(start, match.end("post")), match.end())
        if numbered and match.end() - start >= 4:
            yield start, match.end(), "ADDRESS"
    english: list[tuple[int, int]] = []
    if _ANCHOR_EN.search(text):
        english += [match.span() for match in _ADDRESS_EN.finditer(text)]
    english += [
        match.span()
        for match in _ADDRESS_WORLD.finditer(text)
        if _STRONG_EN.search(match.group()) or _ADDRESS_CUE_EN.search(clause_before(text, match.start(), 24))
    ]
    if _STREET_ANCHOR.search(text):
        english += [match.span() for match in _STREET_LINE.finditer(text)]
    for start, end in english:
        while tail := _TAIL_EN.match(text, end):
            end = tail.end()
        yield start, end, "ADDRESS"
    for pattern in (_ADDRESS_JA, _ADDRESS_KO):
        for match in pattern.finditer(text):
            yield match.start(), match.end(), "ADDRESS"
