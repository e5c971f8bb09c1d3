"""Redaction: personal data in Chinese and English text becomes typed placeholders, near-misses
survive, and a dry run on logs with injected personal data has none of it in any output."""

from __future__ import annotations

import json
import re
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import fakercorpus
from helpers.piicorpus import PII_KINDS, Turn, turns
from helpers.pipeline import dry_run
from stdnum import luhn
from stdnum.cn import ric

from uxbench.pipeline.privacy import names, redact
from uxbench.pipeline.privacy.redact import redact_cid, redact_text, redaction_note
from uxbench.pipeline.read.rawlog import Conversation, LogTurn
from uxbench.pipeline.tools.scan import scan
from uxbench.pipeline.tools.synth import write_synth

ID_NUMBER = "11010519491231002X"  # the check digit is right
ID_BODY = "11010819660915376"
CARD = "6222020200112233" + luhn.calc_check_digit("6222020200112233")
VISA = "4111 1111 1111 1111"

REDACTED = [
    # (text, redacted text)
    ("我叫张三，今年30岁，手机13812345678。", "我叫[NAME]，今年30岁，手机[PHONE]。"),
    ("邮箱是zhang.san@example.com，有事联系", "邮箱是[EMAIL]，有事联系"),
    ("电话：+86 138 1234 5678", "电话：[PHONE]"),
    ("座机 0755-86013388 或 010-6552 9988", "座机 [PHONE] 或 [PHONE]"),
    (f"身份证号{ID_NUMBER}", "身份证号[ID_NUMBER]"),
    (f"身份证{ID_BODY}{ric.calc_check_digit(ID_BODY + '0')}，", "身份证[ID_NUMBER]，"),
    (f"银行卡{CARD}被扣了两次", "银行卡[BANK_CARD]被扣了两次"),
    (f"card {VISA} expired", "card [BANK_CARD] expired"),
    ("收件人：欧阳娜娜，地址：北京市朝阳区建国路88号3栋2单元501室", "收件人：[NAME]，地址：[ADDRESS]"),
    ("服务器 58.33.12.20 连不上", "服务器 [IP] 连不上"),
    ("my IPv6 is fe80::1ff:fe23:4567:890a.", "my IPv6 is [IP]."),
    ("My name is John Smith, call +1 (415) 555-2671.", "My name is [NAME], call [PHONE]."),
    ("or 415-555-2671 or +44 20 7946 0958", "or [PHONE] or [PHONE]"),
    ("I live at 221 Baker Street, Apt 2B.", "I live at [ADDRESS]."),
    ("Dear Alice,\nthanks. Best regards,\nBob Lee", "Dear [NAME],\nthanks. Best regards,\n[NAME]"),
    ("see https://user:hunter2@example.com/x now", "see [URL] now"),
    ("https://api.example.com/cb?access_token=abc123&x=1", "[URL]"),
    ("mail a.b+tag@mail.example.org!", "mail [EMAIL]!"),
    # glued to Chinese text: no \b between 接 and h
    ("请点击链接https://example.com/reset?token=abc123XYZ然后登录", "请点击链接[URL]然后登录"),
    ("重置：https://example.com/reset/8f14e45fceea167a5a36dedd4bea2543", "重置：[URL]"),
    ("webhook https://hooks.slack.com/services/T0ABC123/B0DEF456/xyzXYZ123abc", "webhook [URL]"),
    # lower case, other introductions, signatures
    ("my name is john smith and i need help", "my name is [NAME] and i need help"),
    ("I live at 221 baker street apt 2b.", "I live at [ADDRESS]."),
    ("我是张伟，上周买的", "我是[NAME]，上周买的"),
    ("本人王芳，想退款", "本人[NAME]，想退款"),
    ("I'm John Smith, the owner", "I'm [NAME], the owner"),
    ("This is Sarah Connor from sales", "This is [NAME] from sales"),
    ("see below.\nThanks,\nJohn Smith", "see below.\nThanks,\n[NAME]"),
    # credentials pasted into chat
    ("my key sk-proj-abcDEF1234567890abcdEF1234 fails", "my key [SECRET] fails"),
    ("sk-ant-api03-AbCdEf1234567890AbCdEf1234567890-xyz", "[SECRET]"),
    ("AWS AKIAIOSFODNN7EXAMPLE here", "AWS [SECRET] here"),
    ("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVPmB92K27uhbUJU1p1r", "Bearer [SECRET]"),
    ("password: hunter2 thanks", "password: [SECRET] thanks"),
    ("密码：Abc12345，登不上", "密码：[SECRET]，登不上"),
    ("api key = 9fK2mQ7xL0pR3tZ8wV5yB1nC", "api key = [SECRET]"),
    # numbers as people type them
    (f"身份证 {ID_NUMBER[:6]} {ID_NUMBER[6:14]} {ID_NUMBER[14:]}", "身份证 [ID_NUMBER]"),
    ("老身份证 110105491231002", "老身份证 [ID_NUMBER]"),
    ("my SSN is 123-45-6789", "my SSN is [SSN]"),
    ("IBAN DE89 3704 0044 0532 0130 00 please", "IBAN [IBAN] please"),
    ("邮箱 用户@例子.中国 或 josé@bücher.de", "邮箱 [EMAIL] 或 [EMAIL]"),
    ("手机１３８１２３４５６７８", "手机[PHONE]"),
    ("zhang＠example．com，pass: 1234abcd", "[EMAIL]，pass: [SECRET]"),
    ("hf_abcdefghijklmnopqrstuvwxyz123456 and glpat-abcdefghij1234567890XY", "[SECRET] and [SECRET]"),
    ("收货人 王小明 13912345678", "收货人 [NAME] [PHONE]"),
    # a privacy decision fails closed: a number of the expected shape goes, whatever its check digit
    ("卡号 1234 5678 9012 3456", "卡号 [BANK_CARD]"),
    ("身份证号 110105194912310021", "身份证号 [ID_NUMBER]"),
    ("身份证 440305196512123456", "身份证 [ID_NUMBER]"),  # a district newer than its holder
    ("call me at 755-370-0987 or +1-460-424-7331x05329", "call me at [PHONE] or [PHONE]"),
    # names without an introduction, of any surname, and accented ones
    ("帮我给黄波写一封邮件", "帮我给[NAME]写一封邮件"),
    ("我名叫温小明，请转告常建国明天开会", "我名叫[NAME]，请转告[NAME]明天开会"),
    ("My name is José Jürgen.", "My name is [NAME]."),
    # credentials in any scheme and any case, emails and addresses as typed
    ("mysql://root:pass123@localhost/db", "[URL]"),
    ("AppSecret=Xk29dk3LmQp0aZ81, passWord=hunter2!", "AppSecret=[SECRET], passWord=[SECRET]"),
    ("邮箱 abc@163。com", "邮箱 [EMAIL]"),
    ("身份证 440305/19651212/3456", "身份证 [ID_NUMBER]"),
    ("住在光明路3号3-2-501，寄到湖南省长沙县光明村3组15号", "住在[ADDRESS]，寄到[ADDRESS]"),
    # numbers by their grouping and a cue on either side; IDs by their own cue
    ("ring me at +61.3.9123.4567 tonight", "ring me at [PHONE] tonight"),
    ("手机 139.1234 5678，谢谢", "手机 [PHONE]，谢谢"),
    ("090-1234-5678に電話してください", "[PHONE]に電話してください"),
    ("080-0123-4567に電話してください", "[PHONE]に電話してください"),  # no 0800 free dial
    ("fill in E12345678 as the passport number", "fill in [ID_NUMBER] as the passport number"),
    (
        "the first half of my ID is 4412, the rest is 87213",
        "the first half of my ID is [ID_NUMBER], the rest is [ID_NUMBER]",
    ),
    ("my handle is kyle_1990", "my handle is [HANDLE]"),
    # addresses by each country's grammar, names by a cue or an honorific
    ("東京都港区六本木6丁目10番1号 ヒルズタワー2301に住んでいます", "[ADDRESS]に住んでいます"),
    ("서울특별시 강남구 테헤란로 152 (역삼동)로 보내 주세요", "[ADDRESS]로 보내 주세요"),
    ("寄到北京市海淀区中关村大街27号1幢3单元502，谢谢", "寄到[ADDRESS]，谢谢"),
    ("deliver to 3/15 Ocean Parade, Manly, NSW, 2095 please", "deliver to [ADDRESS] please"),
    ("어제 정민호 씨를 만났어요", "어제 [NAME] 씨를 만났어요"),
    ("お名前：佐藤　健太", "お名前：[NAME]"),
]
NEAR_MISSES = [
    "订单号 202403151234567 已发货",
    "订单号：DD20240315001，快递单号 SF1234567890123",
    "日期 2024-03-15，2024年3月15日 12:30:45，15/03/2024",
    "价格¥1299.00，$1,299.99，1299元，13.5%",
    "version 1.2.3，v1.2.3.4，Python 3.11.4，版本 10.0.19041.1",
    "ISBN 978-7-111-12345-6，编号 1234567890",
    "https://docs.python.org/3/library/re.html?highlight=sub",
    "std::vector<int> a; Hello World",
    "北京明天天气怎么样，要带伞吗",
    "That's not what I asked, thanks.",
    # context decides ambiguous numbers; versions, sections and plain URLs are no personal data
    "订单号 4000123412341234 还没发货",
    "订单号 13800138000 查不到",
    "tracking no. 773012345678901 is stuck",
    "version 1.2.3.4 crashes",
    "第 1.1.1.1 节讲什么",
    "https://example.com/search?country_code=cn&page=2",
    "Dear Sir,\nhello",
    "我是高中生，想学编程",
    "my password is wrong",
    "I ordered on 2024-06-14 04:45:07",
    "refund of ¥31072.00",
    "I'm Chinese, and I'm Ready",
    "pass the salt; the build passed: yes",
    # kept on purpose: status lines, products, hotlines, barcodes, a line of code
    "the API returned HTTP/1.1 503 Service Unavailable again",
    "网页显示 404 Not Found",
    "I called 1-888-203-0199 twice, no answer",
    "条形码 6901234567892 扫不出来",
    "バーコード4801123456783が読めない",
    "my Galaxy S24 keeps crashing",
    "this line fails: x = 1",
]


@pytest.mark.parametrize(("text", "expected"), REDACTED)
def test_personal_data_becomes_typed_placeholders(text: str, expected: str) -> None:
    assert redact_text(text) == expected


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_survive(text: str) -> None:
    assert redact_text(text) == text


def test_counts_by_type_and_idempotence() -> None:
    counts: Counter[str] = Counter()
    text = redact_text("我叫李伟，手机13812345678，邮箱li@example.com，备用 13912345678", counts)
    assert counts == {"NAME": 1, "PHONE": 2, "EMAIL": 1}
    assert redact_text(text) == text


# what synth --pii injects, found independently of the redactor (hex digests are not numbers)
PII = re.compile(
    r"@example\.(?:com|org)|7946 0\d{3}|"
    r"(?<![0-9a-f])(?:1[3589]\d{9}|6222\d{12}|1101\d{13}[0-9X])(?![0-9a-f])"
)


def leaks(folder: Path) -> list[str]:
    """Injected values anywhere in a run directory: stage files, test sets, stats, Inspect logs."""
    found = []
    for path in folder.rglob("*"):
        if path.suffix == ".eval":
            with zipfile.ZipFile(path) as archive:
                texts = [archive.read(name).decode("utf-8", "replace") for name in archive.namelist()]
        elif path.is_file():
            texts = [path.read_text(encoding="utf-8", errors="replace")]
        else:
            continue
        found += [f"{path.name}: {m.group()}" for text in texts for m in PII.finditer(text)]
    return found


@pytest.mark.integration
def test_dry_run_on_logs_with_personal_data_has_none_in_its_outputs(tmp_path: Path) -> None:
    raw, out = tmp_path / "raw.jsonl", tmp_path / "run"
    write_synth(raw, 60, seed=4, pii=0.5)
    injected = PII.findall(raw.read_text(encoding="utf-8"))
    assert len(injected) > 40
    assert dry_run(raw, out, "--chunk-size", "1000") == 0
    assert leaks(out) == []
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    # which detectors redacted the run, or the one line that says the learned one is missing and its cost
    assert stats["signals"]["redaction"] == redaction_note() and redaction_note().startswith("on: ")
    assert {"EMAIL", "PHONE", "NAME"} <= stats["signals"]["redacted"].keys()
    assert "- redacted: PHONE:" in (out / "stats.md").read_text(encoding="utf-8")


@pytest.mark.integration
def test_no_redact_keeps_the_text(tmp_path: Path) -> None:
    from uxbench.cli import main

    raw = tmp_path / "raw.jsonl"
    write_synth(raw, 30, seed=4, pii=1.0)
    assert main(["pipeline", "signals", str(raw), "--out", str(tmp_path / "s.jsonl"), "--no-redact"]) == 0
    kept = (tmp_path / "s.jsonl").read_text(encoding="utf-8")
    assert PII.search(kept) and "[EMAIL]" not in kept
    stats = json.loads((tmp_path / "s.stats.json").read_text(encoding="utf-8"))["signals"]
    assert (stats["redaction"], stats["redacted"]) == ("off (--no-redact)", {})


def _inject_every_kind(raw: Path, corpus: Callable[..., list[Turn]] = turns) -> tuple[set[str], set[str]]:
    """Corpus turns (every kind of personal data) added to the user and assistant turns of a
    synthetic log, a phone number in some cids, a bad line that quotes a value; the values
    injected and their kinds."""
    lines = [json.loads(line) for line in raw.read_text(encoding="utf-8").splitlines()]
    planted = corpus(2 * len(lines), seed=11)
    values, kinds = set(), set()
    for i, line in enumerate(lines):
        key, text = ("turns", "message") if "turns" in line else ("messages", "content")
        for role, turn in (("user", planted[2 * i]), ("assistant", planted[2 * i + 1])):
            target = next(t for t in line[key] if t["role"] == role)
            target[text] = f"{target[text]} {turn.text}"
            values.update(turn.text[s:e] for s, e, _ in turn.pii)
            kinds.update(k for _, _, k in turn.pii)
        if i % 10 == 0:
            line["cid"] = f"user_1391234{i:04d}"
            values.add(line["cid"][5:])
    bad = {"cid": "bad_1", "turns": [f"call me on {planted[0].text}"]}
    raw.write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in [*lines, bad]) + "\n", encoding="utf-8"
    )
    return values, kinds


def _texts(folder: Path) -> list[tuple[str, str]]:
    """(file, text) of every file a run wrote, the members of its Inspect logs included."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix == ".eval":
            with zipfile.ZipFile(path) as archive:
                found += [
                    (f"{path.name}:{m}", archive.read(m).decode("utf-8", "replace"))
                    for m in archive.namelist()
                ]
        elif path.is_file():
            found.append((path.name, path.read_text(encoding="utf-8", errors="replace")))
    return found


@pytest.mark.integration
@pytest.mark.parametrize(
    ("corpus", "every_kind"),
    [
        (turns, {k for k, *_ in PII_KINDS}),  # the project's own corpus
        (fakercorpus.turns, {*fakercorpus.STRICT_KINDS, *fakercorpus.LOOSE_KINDS}),  # values from Faker
    ],
    ids=["own", "faker"],
)
def test_dry_run_with_every_kind_injected_writes_none_of_them(
    tmp_path: Path, corpus: Callable[..., list[Turn]], every_kind: set[str]
) -> None:
    raw, out = tmp_path / "raw.jsonl", tmp_path / "run"
    write_synth(raw, 80, seed=5)
    values, kinds = _inject_every_kind(raw, corpus)
    assert kinds == every_kind
    assert dry_run(raw, out, "--chunk-size", "1000", "--skip-bad") == 0
    texts = _texts(out)
    assert any(
        name.endswith(".eval:samples") or ".eval:" in name for name, _ in texts
    )  # the prompts are read
    # a value as a token of its own: "363173" inside a float or a timestamp of the log is none
    patterns = {
        v: re.compile(rf"(?<![0-9A-Za-z.]){re.escape(v)}(?![0-9A-Za-z])") for v in values if len(v) > 1
    }
    leaked = sorted(
        {(name, v) for name, text in texts for v, p in patterns.items() if v in text and p.search(text)}
    )
    assert leaked == []
    # the second opinion finds no value of a strict kind; its wide nets for long numbers and tagged
    # names also flag near-misses (order numbers, code) by design. The leak check above is exact.
    assert set(scan(out).found) <= {"NUMBER", "NAME"}
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))["signals"]
    assert stats["skipped_lines"] == 1 and "[" in stats["skipped_examples"][0]


def test_a_failing_detector_redacts_the_whole_text_and_counts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(text: str):
        raise ValueError("a library's bug")

    monkeypatch.setattr(redact, "PATTERNS", ((broken, lambda t: True), *redact.PATTERNS))
    monkeypatch.setattr(redact, "default_redactor", lambda: redact.Redactor(ner=None))
    counts: Counter[str] = Counter()
    assert redact_text("我叫李伟，手机13812345678", counts) == "[REDACTED]"
    assert counts == {"REDACTED": 1}


def test_a_batch_reads_as_its_texts_one_by_one_and_fails_closed_text_by_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [text for text, _ in REDACTED] + NEAR_MISSES
    redactor = redact.default_redactor()
    assert redactor.find_spans_many(texts) == [redactor.find_spans(t) for t in texts]

    def broken_on_digits(text: str):
        if any(c.isdigit() for c in text):
            raise ValueError("a library's bug")
        return iter(())

    monkeypatch.setattr(redact, "PATTERNS", ((broken_on_digits, lambda t: True), *redact.PATTERNS))
    spans = redact.Redactor(ner=None).find_spans_many(["手机13812345678", "my name is John Smith"])
    assert spans[0] == [(0, 13, "REDACTED")] and spans[1] == [(11, 21, "NAME")]


def test_a_cid_with_personal_data_becomes_a_stable_digest() -> None:
    counts: Counter[str] = Counter()
    assert redact_cid("synth_0_0000012") == "synth_0_0000012"
    assert (
        redact_cid("user_13812345678_1", counts)
        == redact_cid("user_13812345678_1")
        != redact_cid("a@b.example.com")
    )
    assert redact_cid("user_13812345678_1").startswith("redacted-") and counts == {"PHONE": 1}


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (("我的手机是138", "0013 8000，记一下"), ("我的手机是[PHONE]", "[PHONE]，记一下")),
        (("身份证号110105", "19491231002X"), ("身份证号[ID_NUMBER]", "[ID_NUMBER]")),
        (("订单号 2024", "0613 到了吗"), ("订单号 2024", "0613 到了吗")),  # an order number stays split
    ],
)
def test_a_number_split_over_two_turns_of_one_speaker_is_one_number(
    monkeypatch: pytest.MonkeyPatch, parts: tuple[str, str], expected: tuple[str, str]
) -> None:
    monkeypatch.setattr(redact, "default_redactor", lambda: redact.Redactor(ner=None))
    turns_ = (LogTurn("user", parts[0]), LogTurn("user", parts[1]))
    redacted = redact.redact_conversation(Conversation("c1", turns_), Counter())
    assert tuple(t.text for t in redacted.turns) == expected
    # another speaker between them: each turn is read alone
    between = (turns_[0], LogTurn("assistant", "好的"), turns_[1])
    alone = redact.redact_conversation(Conversation("c1", between), Counter())
    assert alone.turns[0].text == (parts[0] if expected[0] != parts[0] else expected[0])


# ------------------------------------------------------------------ accounts: handles, plates, devices
PATTERNS_ONLY = redact.Redactor(ner=None)
ACCOUNTS_REDACTED = [
    # a handle after any messenger's name as users write it, with the words between
    ("加我V信 kyle_2024，备注来意", "加我V信 [HANDLE]，备注来意"),
    ("vx搜 kk_lee99", "vx搜 [HANDLE]"),
    ("不方便的话加QQ579096聊", "不方便的话加QQ[HANDLE]聊"),
    ("我扣扣856777，晚上在线", "我扣扣[HANDLE]，晚上在线"),
    ("tg搜@Xab92tDrU就能找到我", "tg搜[HANDLE]就能找到我"),
    ("飞机号 kylezz_88", "飞机号 [HANDLE]"),
    ("小红书号：xhs_9988", "小红书号：[HANDLE]"),
    ("message me on Signal, username od6eWGP4xkGXY4nt", "message me on Signal, username [HANDLE]"),
    ("snap: I2609kzym5rxjq.rl lol", "snap: [HANDLE] lol"),
    ("add me on insta: cpnyd", "add me on insta: [HANDLE]"),
    ("find me on discord: kyle#1234", "find me on discord: [HANDLE]"),
    ("skype id:live:.cid.a0f565d4ee4b3114", "skype id:[HANDLE]"),
    ("ラインUxvjqqで連絡ください", "ライン[HANDLE]で連絡ください"),
    ("X(旧Twitter)は@taro_123です", "X(旧Twitter)は[HANDLE]です"),
    ("インスタのIDはlily_22です", "インスタのIDは[HANDLE]です"),
    ("라인 아이디는 ukwpm_i5kkj이에요", "라인 아이디는 [HANDLE]이에요"),
    ("디코 t2n6mdnyuwyczfk 들어와", "디코 [HANDLE] 들어와"),
    ("kyle_92是我的微信", "[HANDLE]是我的微信"),
    ("ping @kyle_92 pls", "ping [HANDLE] pls"),
    ("follow t.me/kyle_92 or instagram.com/lily.chen_22", "follow t.me/[HANDLE] or instagram.com/[HANDLE]"),
    ("裏垢 @abc_123", "裏垢 [HANDLE]"),
    ("微信「kyle_92」, my IG is kyle.chen", "微信「[HANDLE]」, my IG is [HANDLE]"),
    # plates: by shape where it is a plate's alone, else by a vehicle cue before or after
    ("我的车是藏H-F12572，停在B2了", "我的车是[PLATE]，停在B2了"),
    ("ETC绑定的车牌【粤B·D12345】能改吗", "ETC绑定的车牌【[PLATE]】能改吗"),
    ("我的车是XB 1666，停在B2了", "我的车是[PLATE]，停在B2了"),
    ("粤b12345被贴条了", "[PLATE]被贴条了"),
    ("把WSE-8027加到小区门禁白名单", "把[PLATE]加到小区门禁白名单"),
    ("can u check if 191-WW-798 has any parking fines", "can u check if [PLATE] has any parking fines"),
    ("Rego KA06EY7802 expired last week", "Rego [PLATE] expired last week"),
    ("vehicle no.MKG2944 needs a FASTag", "vehicle no.[PLATE] needs a FASTag"),
    ("VRN AB12 CDE, PLATE KA 01 AB 1234", "VRN [PLATE], PLATE [PLATE]"),
    ("登録ナンバー【名古屋300む・・73】を変更", "登録ナンバー【[PLATE]】を変更"),
    ("なにわ 330 ぬ ・・56の車が停めっぱなし", "[PLATE]の車が停めっぱなし"),
    ("울산824가8469 차주분 차 좀 빼주세요", "[PLATE] 차주분 차 좀 빼주세요"),
    ("차량번호 부산 91무3654 방문 등록", "차량번호 [PLATE] 방문 등록"),
    # devices: a MAC in any notation, an IMEI however split, a serial number after its cue
    ("两台设备的MAC：88b6.76c8.cc58、84A871847D0F", "两台设备的MAC：[DEVICE]、[DEVICE]"),
    ("端末のMAC：141c0b6e11fd", "端末のMAC：[DEVICE]"),
    ("맥주소: 18:44:71:35:62:92", "맥주소: [DEVICE]"),
    ("IMEI 35.209900.176148.1", "IMEI [DEVICE]"),
    ("S/N: C02XK1ABJG5H", "S/N: [DEVICE]"),
    ("SN码：C02XK1ABJG5H，MAC地址 00e0-fc12-3456", "SN码：[DEVICE]，MAC地址 [DEVICE]"),
    ("*#06# 显示 352099 001761 481", "*#06# 显示 [DEVICE]"),
    ("MEID A0000012345678", "MEID [DEVICE]"),
    ("IDFA: 6D92078A-8246-4BA4-AE5B-76104861E7DC", "IDFA: [DEVICE]"),
    ("シリアル番号はC02XK1ABJG5Hです", "シリアル番号は[DEVICE]です"),
    ("製造番号 ABC123456 の修理、Viber: kyle_99", "製造番号 [DEVICE] の修理、Viber: [HANDLE]"),
]
ACCOUNTS_NEAR_MISSES = [
    "打开微信APP看看，微信8.0.47更新了",
    "抖音 DOU+ 投放; Twitter API v2; 微信 Mac版",
    "LINE Payで払った",
    "this line fails: foo_bar",
    "the Signal is weak at 5G; Signal: weak",
    "my discord is down again, Discord server too",
    "iPhone X 64GB",
    "npm install @types/node; @property",
    "我买的SM-S396B屏幕有亮点 我的车在楼下",
    "学籍番号M20-1377で登録",
    "order ABC-1234 shipped; 型号 RTX-4090",
    "commit 1a2b3c4d5e6f; 版本号 A1B2C3D4E5F6; DEADBEEF1234",
    "barcode 012345678905",
    "新ABCDEF上市了; 京东 2024; 北京 CA1234 航班; 最新A12345",
    "my Signal is weak; the LINE is busy",
    "device id 12",
    "MAC address format is XX:XX",
]


@pytest.mark.parametrize(("text", "expected"), ACCOUNTS_REDACTED)
def test_accounts_plates_and_devices_become_typed_placeholders(text: str, expected: str) -> None:
    spans = PATTERNS_ONLY.find_spans(text)
    assert redact._render(text, spans, None) == expected


@pytest.mark.parametrize("text", ACCOUNTS_NEAR_MISSES)
def test_what_only_looks_like_an_account_plate_or_device_survives(text: str) -> None:
    assert PATTERNS_ONLY.find_spans(text) == []


# ---------------------------------------------------------------- numbers and documents (helper num)

NUMBERS_REDACTED = [
    # personal numbers of other countries, by their scheme's check and their words
    (
        "Aadhaar 2345 6789 0124 and PAN ABCPD1234E both linked?",
        "Aadhaar [ID_NUMBER] and PAN [ID_NUMBER] both linked?",
    ),
    ("PPS number 1234567T - do I need it?", "PPS number [ID_NUMBER] - do I need it?"),
    ("Korean RRN 8701231777924 needed?", "Korean RRN [ID_NUMBER] needed?"),
    ("韩国朋友的居民登录号8701231777924能用吗", "韩国朋友的居民登录号[ID_NUMBER]能用吗"),
    ("在留カード番号AB12345678CDの更新", "在留カード番号[ID_NUMBER]の更新"),
    ("個人番号：1234-5678-9018 4595553021320のJAN", "個人番号：[ID_NUMBER] 4595553021320のJAN"),
    ("고객센터 별로 중국 신분증 11010519491231002X로 가입", "고객센터 별로 중국 신분증 [ID_NUMBER]로 가입"),
    # documents after their word: passports of any country's shape, driving licences
    ("Passport: P1234567A", "Passport: [ID_NUMBER]"),
    ("여권 번호: M123A4567로 예약했어요", "여권 번호: [ID_NUMBER]로 예약했어요"),
    ("운전면허번호 11-22-123456-78 갱신", "운전면허번호 [ID_NUMBER] 갱신"),
    ("驾驶证号 D12345678 过期了", "驾驶证号 [ID_NUMBER] 过期了"),
    ("fill in PA1234567 as the passport no.", "fill in [ID_NUMBER] as the passport no."),
    # an e-mail's at-sign and dot as people write them
    ("简历投到7484710184#qq.com就行", "简历投到[EMAIL]就行"),
    ("참조에 jiho_jiwoo골뱅이hanmail.net도 넣어줘", "참조에 [EMAIL]도 넣어줘"),
    ("CCにkaito.hiroアットマークdocomo.ne.jpを入れて", "CCに[EMAIL]を入れて"),
    ("mail me at choi.yuna[at]eircom[dot]net thnx", "mail me at [EMAIL] thnx"),
    ("emial me at yuna.seoyeon@xtra.co.nz thnx", "emial me at [EMAIL] thnx"),
    # phones: a country code before a grouped number, groupings of other countries, a dropped trunk 0
    ("My number is +63 901 613 1037.", "My number is [PHONE]."),
    ("txt me 72115-61520 when ur here", "txt me [PHONE] when ur here"),
    ("Reach the landlord at (04) 112 3500, he's around", "Reach the landlord at [PHONE], he's around"),
    ("90-1234-5678に折り返しお願いします", "[PHONE]に折り返しお願いします"),
    (
        "緊急連絡先:080-5135-9228 16.9.52.7542へのアップデート",
        "緊急連絡先:[PHONE] 16.9.52.7542へのアップデート",
    ),
    # a card glued to its brand
    ("Visa4111-1111-1111-1111- pls remove it", "Visa[BANK_CARD]- pls remove it"),
    ("アメックス3782-822463-10005の年会費", "アメックス[BANK_CARD]の年会費"),
]
NUMBERS_KEPT = [
    "官方电话是400 926 0434吗",
    "called 1800-282-6592 no answer",
    "free call 1800 937 809",
    "called 0800 169 986 no answer",
    "フリーダイヤル0120-96-2836に電話した",
    "대표번호 1588-9386로 전화",
    "后台地址192.168.50.254打不开",
    "ゲートウェイ192.168.10.253",
    "the gateway is 172.16.9.254",
    "注文番号：405963-20230819-6289717468",
    "3961233583195074962这个单能退吗",
    "20250727-0203728 주문 취소해주세요",
    "my student ID S9360486 isn't found",
    "ID:S2440646",
    "学籍番号19A94196で登録",
    "see #docs.com for more",
    "look at this.page",
    "passport expires 2025-07-12",
]


@pytest.mark.parametrize(("text", "expected"), NUMBERS_REDACTED)
def test_numbers_and_documents_of_every_country_are_redacted(text: str, expected: str) -> None:
    assert (
        redact.Redactor(ner=None).find_spans(text)
        and redact._render(text, redact.Redactor(ner=None).find_spans(text), None) == expected
    )


@pytest.mark.parametrize("text", NUMBERS_KEPT)
def test_hotlines_router_addresses_orders_and_student_numbers_are_kept(text: str) -> None:
    assert redact.Redactor(ner=None).find_spans(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "ring me on 4009099508 tonight",
            "ring me on [PHONE] tonight",
        ),  # the user's own, whatever its digits
        (
            "the full one is 4111111111111111 order JD5417758192094",
            "the full one is [BANK_CARD] order JD5417758192094",
        ),
        ("reach Jim on +1-888-545-0977x583 after 5pm", "reach Jim on [PHONE] after 5pm"),  # an extension
        ("ID:22104934 - I moved", "ID:22104934 - I moved"),  # a bare ID word names no country's scheme
        ("印度身份证号 2345 6789 0124 能用吗", "印度身份证号 [ID_NUMBER] 能用吗"),
    ],
)
def test_whose_number_it_is_decides(text: str, expected: str) -> None:
    redactor = redact.Redactor(ner=None)
    assert redact._render(text, redactor.find_spans(text), None) == expected


def test_a_kept_hotlines_last_group_is_no_model_number_before_a_name() -> None:
    text = "free call 1800 292 018 Dear Georgia Sowman,"
    assert redact.Redactor(ner=None).find_spans(text) == [(28, 42, "NAME")]


# --- names and addresses (helper `name`) ---

PATTERNS_ONLY = redact.Redactor(ner=None)


def _spans_of(text: str) -> list[tuple[str, str]]:
    return [(text[s:e], kind) for s, e, kind in PATTERNS_ONLY.find_spans(text)]


@pytest.mark.parametrize(
    ("text", "address"),
    [
        (
            "寄到上海市浦东新区张杨路1588号丽景苑7栋3单元1102室，谢谢",
            "上海市浦东新区张杨路1588号丽景苑7栋3单元1102室",
        ),
        ("新地址：成都市武侯区人民南路四段12号C座1808", "成都市武侯区人民南路四段12号C座1808"),
        ("【九龍旺角彌敦道610號荷李活商業中心15樓B室】", "九龍旺角彌敦道610號荷李活商業中心15樓B室"),
        (
            "住所は神奈川県川崎市中原区小杉町三丁目4番2号パークタワー2105号室です",
            "神奈川県川崎市中原区小杉町三丁目4番2号パークタワー2105号室",
        ),
        (
            "〒060-0001 北海道札幌市中央区北一条西２丁目１−１に送って",
            "〒060-0001 北海道札幌市中央区北一条西２丁目１−１",
        ),
        (
            "새 주소는 부산 해운대구 센텀중앙로 79, 더샵 201동 902호예요",
            "부산 해운대구 센텀중앙로 79, 더샵 201동 902호",
        ),
        ("대전 유성구 봉명동 532-7번지로 보내 주세요", "대전 유성구 봉명동 532-7번지"),
        (
            "ship it to Flat 4, 27 Marine Parade, Napier South, Napier 4110 thanks",
            "Flat 4, 27 Marine Parade, Napier South, Napier 4110",
        ),
        ("my address is 12/3, Gandhi Nagar, Bengaluru-560038", "12/3, Gandhi Nagar, Bengaluru-560038"),
        ("send to 14 Castle Road D04 X2K7 Sandymount please", "14 Castle Road D04 X2K7 Sandymount"),
        (
            "it's Lot 5 Block 2 Mabini Street, Lucena, 4301 Quezon",
            "Lot 5 Block 2 Mabini Street, Lucena, 4301 Quezon",
        ),
        ("Apt 9, 40 Main Street, Rathmines, Dublin 6 is mine", "Apt 9, 40 Main Street, Rathmines, Dublin 6"),
        ("寄到高雄市前鎮區中山二路7號12樓之1，謝謝", "高雄市前鎮區中山二路7號12樓之1"),
        (
            "my address is Blk 45 Tampines St 42, #11-203, Singapore 520045",
            "Blk 45 Tampines St 42, #11-203, Singapore 520045",
        ),
        (
            "送り先：福岡市博多区博多駅前二丁目3番7号 はかたビル9階",
            "福岡市博多区博多駅前二丁目3番7号 はかたビル9階",
        ),
        (
            "주소 부산광역시 해운대구 센텀동로 45 월드타워 12층",
            "부산광역시 해운대구 센텀동로 45 월드타워 12층",
        ),
    ],
)
def test_an_address_is_redacted_to_its_last_room_number(text: str, address: str) -> None:
    start = text.index(address)
    spans = PATTERNS_ONLY.find_spans(text)
    assert any(s <= start and start + len(address) <= e and kind == "ADDRESS" for s, e, kind in spans), spans


@pytest.mark.parametrize(
    "text",
    [
        "I bought 3 iPhone 15, 2024 Edition since 3 Apr 2026",
        "paid ₱70,113.00 for 2 Pro Max, 256 GB",
        "112동 1603호 is not a plate",
        "version 4.11, build 2031 Beta",
    ],
)
def test_what_only_looks_like_an_address_stays(text: str) -> None:
    assert not [span for span in _spans_of(text) if span[1] in ("ADDRESS", "PLATE")]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("我表姐诸葛青云明天来", "诸葛青云"),
        ("项目负责人是邓子轩，有问题找他", "邓子轩"),
        ("日本客户小林 健太明天到北京", "小林 健太"),
        ("課長の高橋　健一が来週来ます", "高橋　健一"),
        ("先輩の松田さくらと一緒に行った", "松田さくら"),
        ("山本美穂様へのお礼状", "山本美穂"),
        ("留学生の陈家豪さんに連絡した", "陈家豪"),
        ("取引先のMaria Lopezさんに資料を送る", "Maria Lopez"),
        ("中国人の友達박지훈に会った", "박지훈"),
        ("韩国同事김민지下周来", "김민지"),
        ("please forward it to my colleague 佐藤 美咲 today", "佐藤 美咲"),
        ("my tutor 王晓明 said yes", "王晓明"),
        ("Kim from Seoul: 최유진 will call you", "최유진"),
        ("어제 한지민이랑 밥 먹었어", "한지민"),
        ("대만 거래처 陳志明 사장님께 연락", "陳志明"),
        ("미국 친구 John Carter한테 물어봐", "John Carter"),
        ("권지수, 남궁민 두 분 오세요", "남궁민"),
        ("同期の佐藤翔と山田花子を誘った", "山田花子"),
        ("把刘洋和宋雨桐拉进群", "宋雨桐"),
        ("跟佐々木真由约了明天吃饭", "佐々木真由"),
        ("Hannah Schmidt今天把合同发过来了", "Hannah Schmidt"),
        ("アレクサンドル・デュマさんの本", "アレクサンドル・デュマ"),
        ("수신자: 황보민재\n2024.03.01 도착", "황보민재"),
        ("昨日斎藤　直人さんに会った", "斎藤　直人"),
        ("孙立新主任下午到", "孙立新"),
        ("鈴木課長に確認します", "鈴木"),
        ("최현우 팀장님께 보고했어요", "최현우"),
        ("请转告李成明天开会", "李成"),
    ],
)
def test_a_name_is_found_by_who_the_person_is_and_by_its_script(text: str, name: str) -> None:
    found = [value for value, kind in _spans_of(text) if kind == "NAME"]
    assert any(name in value for value in found), found


@pytest.mark.parametrize(
    "text",
    [
        "中村区に住んでいます",
        "森林に行った",
        "선생님께 감사 편지를 썼어요",
        "우리한테 고객한테 보내 주세요",
        "주문번호 ABC 확인해 주세요",
        "used 微信 to pay at the 北京 airport",
        "在Apple Store买的",
        "华为经理说可以",
        "高中老师很好",
        "오늘은 과장님이 안 계세요",
        "花了 $1,299.99 买的，call me later",
        "文档在https://docs.python.org/3/这里",
        "please email me 谢谢",
        "hello! 请打 +44 7911 786438 联系我 货号A6330",
    ],
)
def test_what_only_looks_like_a_name_stays(text: str) -> None:
    assert [span for span in _spans_of(text) if span[1] == "NAME"] == []


@pytest.mark.parametrize(
    ("text", "cut", "whole"),
    [
        ("把贺涵和蒋沐亦加到群里", (4, 6), "蒋沐亦"),
        ("部長の柴田 奈々が来ます", (3, 5), "柴田 奈々"),
        ("同期の宮本花子と谷口和也を誘った", (3, 7), "谷口和也"),  # the next name of the list
    ],
)
def test_a_learned_name_cut_short_is_read_whole(text: str, cut: tuple[int, int], whole: str) -> None:
    spans = list(names.completed(text, [(*cut, "NAME"), (0, 1, "ADDRESS")]))
    assert whole in [text[s:e] for s, e, kind in spans if kind == "NAME"]
    assert (0, 1, "ADDRESS") in spans


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Attn: Priya Raman", "Priya Raman"),
        ("write a thank-you card for Oscar Lindqvist", "Oscar Lindqvist"),
        ("guests: Hana Novak and Leo Brandt", "Hana Novak"),
    ],
)
def test_a_latin_name_after_a_label_or_before_another_is_found_for_the_learned_detector(
    text: str, name: str
) -> None:
    assert name in [text[s:e] for s, e, _ in names.addressed(text)]


# names and addresses (round 4): a street line read whole by its grammar, units before and places after


@pytest.mark.parametrize(
    ("text", "address"),
    [
        (
            "pls send it to Suite 12, Bldg 3, No. 18 Nguyen Hue Blvd, District One, Saigon ok",
            "Suite 12, Bldg 3, No. 18 Nguyen Hue Blvd, District One, Saigon",
        ),
        ("my flat: Flat 4B, 22 Marine Parade, Brighton thanks", "Flat 4B, 22 Marine Parade, Brighton"),
        (
            "new place 2-14-7 Ebisu, Shibuya-ku, Tokyo 150-0013 from monday",
            "2-14-7 Ebisu, Shibuya-ku, Tokyo 150-0013",
        ),
        (
            "Room 7, 45 Haeundae-ro, Haeundae-gu, Busan is where I live",
            "Room 7, 45 Haeundae-ro, Haeundae-gu, Busan",
        ),
        (
            "deliver: 12, Jalan Ampang 3/4, Taman Melawati, 53100 Kuala Lumpur, Selangor",
            "12, Jalan Ampang 3/4, Taman Melawati, 53100 Kuala Lumpur, Selangor",
        ),
    ],
)
def test_a_street_line_is_read_from_its_first_unit_to_its_last_place(text: str, address: str) -> None:
    start = text.index(address)
    spans = PATTERNS_ONLY.find_spans(text)
    assert any(s <= start and start + len(address) <= e for s, e, _ in spans), [
        text[s:e] for s, e, _ in spans
    ]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("明日は佐藤さんと打ち合わせ", "佐藤"),
        ("井上様へのお返事を書いて", "井上"),
        ("はじめまして、私は松本結衣と申します", "松本結衣"),
        ("僕は中島 蓮です、よろしく", "中島 蓮"),
    ],
)
def test_a_japanese_surname_before_its_honorific_or_a_speakers_own_name_is_found(
    text: str, name: str
) -> None:
    assert (name, "NAME") in _spans_of(text)


@pytest.mark.parametrize("text", ["私は学生です", "僕は元気です", "本日さんざんだった"])
def test_what_follows_a_japanese_self_introduction_is_no_name_unless_it_is_one(text: str) -> None:
    assert [span for span in _spans_of(text) if span[1] == "NAME"] == []
