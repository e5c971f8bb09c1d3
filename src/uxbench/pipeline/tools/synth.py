"""Synthetic raw feedback logs for tests, demos and benchmarks (all text written for this project).

`synth_conversations(n, seed)` yields raw-log lines in both accepted spellings, Chinese and
English, liked and disliked, with the situations the pipeline must recognise: complaints
(and praise that looks like one), repeats, rephrasings, dismissals, consent to an offer,
skim-reading, silent dislikes, recovery attempts with every outcome, unrated and one-turn
conversations, interrupted replies, unsafe requests, exact and near duplicates. With
`pii > 0`, that share of conversations also carries made-up personal data (emails at
example.com / example.org, mobile numbers, ID and card numbers with valid check digits, IP
addresses, names) in a user turn and an assistant turn, to test the redaction.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from stdnum import luhn
from stdnum.cn import ric

from uxbench.pipeline.read.files import write_rows

_START = datetime(2025, 1, 1, tzinfo=UTC).timestamp()
_CITIES = ("北京", "上海", "成都", "杭州", "西安", "广州", "武汉", "南京", "重庆", "厦门", "青岛", "昆明")
_CITIES_EN = (
    "Lisbon",
    "Osaka",
    "Denver",
    "Toronto",
    "Krakow",
    "Melbourne",
    "Nairobi",
    "Seville",
    "Hanoi",
    "Oslo",
)
_THINGS = (
    "笔记本电脑",
    "降噪耳机",
    "电动牙刷",
    "空气炸锅",
    "跑步鞋",
    "机械键盘",
    "投影仪",
    "扫地机器人",
    "电饭煲",
    "平板",
)
_THINGS_EN = (
    "laptop",
    "e-reader",
    "rice cooker",
    "standing desk",
    "trail shoes",
    "webcam",
    "air purifier",
    "tent",
)


@dataclass(frozen=True)
class Topic:
    scenario: str
    zh: tuple[str, ...]  # query templates; {city} {thing} {n} are filled in
    en: tuple[str, ...]
    facts_zh: tuple[str, ...]
    facts_en: tuple[str, ...]


TOPICS = (
    Topic(
        "信息与知识查询",
        (
            "{city}冬天一般多冷？需要穿羽绒服吗",
            "为什么天空是蓝色的，能讲得通俗一点吗",
            "光合作用的过程是怎样的，{n}岁孩子能听懂的那种",
            "黑洞是怎么形成的",
            "{city}有哪些值得一看的历史遗迹",
        ),
        (
            "How cold does {city} get in winter?",
            "Why is the sky blue, in plain words?",
            "How does a vaccine train the immune system?",
            "What happened to the Library of Alexandria?",
        ),
        (
            "这和大气对短波长光的散射有关。",
            "冬季平均气温大约在零下{n}度到五度之间。",
            "关键在于叶绿体把光能转化为化学能。",
            "大质量恒星燃料耗尽后核心坍缩，就可能形成黑洞。",
            "当地的老城区保存了不少明清时期的建筑。",
            "早晚温差较大，建议分层穿衣。",
            "这个过程分为光反应和暗反应两个阶段。",
            "科学家通过观测引力波间接证实了这一点。",
        ),
        (
            "Short wavelengths scatter more in the air, so blue light reaches us from every direction.",
            "Average January lows sit around {n} degrees below freezing.",
            "The body learns to recognise a harmless piece of the pathogen.",
            "Layers work better than one heavy coat.",
            "Historians still argue about how gradual the decline was.",
            "Memory cells stay on guard for years afterwards.",
        ),
    ),
    Topic(
        "创意内容与生成",
        (
            "帮我写一首关于{city}秋天的七言诗",
            "给我的咖啡店想{n}个有创意的名字",
            "写一段{n}字左右的科幻小说开头",
            "帮我写一句生日祝福，送给认识{n}年的朋友",
        ),
        (
            "Write a short poem about autumn in {city}",
            "Give me {n} names for a bakery that sells only bread",
            "Draft the opening paragraph of a mystery set on a night train",
        ),
        (
            "秋风吹过古城墙，落叶铺满青石巷。",
            "可以考虑“慢煮时光”“豆语”“街角七分”这样的名字。",
            "飞船在第{n}天醒来时，舱外一片寂静。",
            "愿你所行皆坦途，所遇皆温柔。",
            "整体风格偏温暖，适合做招牌。",
            "如果想要更俏皮，也可以加入谐音梗。",
        ),
        (
            "Leaves drift down the old stone stairs while the trams hum below.",
            "Try names like Crumb Theory or Rise & Rye.",
            "The conductor noticed the compartment had one passenger too many.",
            "The tone stays warm but a little wistful.",
            "Each line ends on an image rather than a statement.",
        ),
    ),
    Topic(
        "娱乐消遣",
        (
            "推荐几部类似《星际穿越》的电影",
            "给我讲个冷笑话",
            "周末在{city}有什么好玩的",
            "有什么适合{n}个人玩的桌游",
        ),
        (
            "Recommend films like Interstellar",
            "Tell me a clean joke about cats",
            "What board games work for {n} players?",
        ),
        (
            "可以看看《降临》和《火星救援》，都偏硬科幻。",
            "为什么海水是咸的？因为鱼太多会出汗。",
            "周末可以去老街逛逛，顺便尝尝小吃。",
            "《卡坦岛》和《璀璨宝石》上手都很快。",
            "如果喜欢烧脑剧情，《信条》也值得一看。",
        ),
        (
            "Arrival and The Martian are good next picks.",
            "Why did the cat sit on the computer? To keep an eye on the mouse.",
            "Codenames handles large groups well.",
            "Ticket to Ride is easy to teach in ten minutes.",
        ),
    ),
    Topic(
        "私密与生活决策辅助",
        (
            "我该不该辞职去{city}发展",
            "预算{n}元买什么{thing}比较好",
            "和室友因为作息吵架了怎么办",
            "三十岁转行做程序员还来得及吗",
        ),
        (
            "Should I move to {city} for a new job?",
            "Which {thing} should I buy for under {n} dollars?",
            "How do I tell my roommate their music is too loud?",
        ),
        (
            "先把两个选择的收入、成本和成长空间列出来比较。",
            "这个价位建议优先看做工和售后。",
            "找一个双方都不着急的时间坦诚聊一聊。",
            "转行的关键是先用业余时间验证兴趣。",
            "可以先在{city}短住一段时间再做决定。",
            "列一个清单，把必须要的和可有可无的分开。",
        ),
        (
            "List what each option costs you and what it gives you.",
            "At this price, build quality matters more than specs.",
            "Pick a calm moment and describe the problem, not the person.",
            "A trial month in the new city lowers the risk.",
        ),
    ),
    Topic(
        "产品与服务咨询",
        (
            "{thing}连不上蓝牙怎么办",
            "手机套餐每月{n}G流量够用吗",
            "信用卡逾期{n}天会影响征信吗",
            "怎么申请退货退款",
        ),
        (
            "My {thing} won't connect over Bluetooth, what can I try?",
            "Is {n} GB of mobile data a month enough?",
            "How do I cancel a subscription that renews automatically?",
        ),
        (
            "先在设置里删除配对记录，再重新配对一次。",
            "如果只是日常刷视频，{n}G基本够用。",
            "短期逾期及时还款，通常影响有限。",
            "在订单页面点击申请售后，按提示上传凭证即可。",
            "也可以尝试恢复出厂设置。",
            "建议联系官方客服确认具体政策。",
        ),
        (
            "Forget the device in your settings and pair it again.",
            "Streaming video is what eats most data.",
            "Most shops let you cancel from the account page.",
            "A factory reset is the last thing to try.",
        ),
    ),
    Topic(
        "情绪与心理支持",
        (
            "最近工作压力好大，晚上睡不着",
            "和男朋友分手了，很难过",
            "考试没考好，觉得自己很失败",
            "一个人在{city}工作，很孤独",
        ),
        (
            "I feel overwhelmed at work and can't sleep",
            "My best friend moved away and I feel lonely",
            "I failed an exam and feel useless",
        ),
        (
            "听起来你这段时间真的很辛苦。",
            "难过是很正常的，给自己一点时间。",
            "一次考试并不能定义你是谁。",
            "睡前可以试试放下手机，做几次深呼吸。",
            "如果情绪持续低落，也可以考虑找专业的心理咨询师聊聊。",
            "可以找信任的朋友说说心里话。",
        ),
        (
            "That sounds exhausting, and it makes sense you feel this way.",
            "One exam does not define you.",
            "A short walk and a fixed bedtime can help a little.",
            "Talking to a counsellor is a sign of strength.",
        ),
    ),
    Topic(
        "办公与效率",
        (
            "帮我把这段话改得更正式一点：明天开会别迟到",
            "Excel怎么把两列合并成一列",
            "写一封请假{n}天的邮件",
            "怎么提高开会效率",
        ),
        (
            "Make this email more polite: send me the report now",
            "How do I merge two columns in Excel?",
            "Summarise these meeting notes into {n} bullet points",
        ),
        (
            "可以改为：请各位准时参加明天的会议。",
            "可以用公式 =A1&B1，然后向下填充。",
            "邮件开头写明请假原因和起止日期。",
            "会前发议程，会上控制时间，会后发纪要。",
            "也可以用 CONCAT 函数完成同样的事。",
            "结尾记得感谢对方的理解。",
        ),
        (
            "Could you send me the report when you have a moment?",
            'Use =A1&" "&B1 and fill down.',
            "Start with the decision, then the owners and deadlines.",
            "Keep each bullet under fifteen words.",
        ),
    ),
)

_COMPLAINTS_ZH = (
    "不对，答非所问",
    "你到底会不会",
    "太啰嗦了，说重点",
    "这明显错了",
    "跑题了吧",
    "不是我要的",
    "离谱",
    "我问的是{city}",
)
_COMPLAINTS_EN = (
    "That's wrong.",
    "That's not what I asked",
    "Too long, get to the point",
    "You didn't answer my question",
)
_PRAISE_ZH = ("不错，谢谢", "没错，就是这个", "错不了，很清楚", "太棒了", "明白了，谢谢你")
_PRAISE_EN = ("Thanks, that's great!", "Not bad at all", "Perfect, exactly what I needed")
_DISMISS_ZH = ("算了", "哦", "行吧", "呵呵", "无语")
_DISMISS_EN = ("whatever", "never mind", "ok", "meh")
_OFFERS_ZH = ("需要我帮你整理成表格吗？", "要不要我再详细展开讲讲？")
_OFFERS_EN = ("Would you like me to put this in a table?", "Shall I go into more detail?")
_CONSENT_ZH = ("好", "好的", "可以")
_CONSENT_EN = ("ok", "yes please", "sure")
_BAD_OPENERS_ZH = (
    "这是一个很好的问题。",
    "关于这个问题，可以从多个角度来看。",
    "首先，我们需要了解一些背景知识。",
)
_BAD_OPENERS_EN = (
    "That is a great question.",
    "There are many ways to look at this.",
    "First, some background.",
)
_UNSAFE = ("教我怎么制作冰毒", "how to make meth at home", "自杀方法有哪些", "找点色情视频网站")


class _Writer:
    """Builds one conversation's turns with plausible timestamps."""

    def __init__(self, rng: random.Random, zh: bool, plain: bool) -> None:
        self.rng, self.zh, self.plain = rng, zh, plain
        self.clock = _START + rng.uniform(0, 330 * 86400)
        self.turns: list[dict[str, Any]] = []

    def user(self, text: str, gap: float | None = None) -> None:
        last = self.turns[-1]["text"] if self.turns else ""
        self.clock += gap if gap is not None else 3 + len(last) * self.rng.uniform(0.2, 0.5) + len(text) * 0.4
        self.turns.append({"role": "user", "text": text, "time": self.clock})

    def assistant(self, text: str, feedback: str | None = None) -> None:
        self.clock += self.rng.uniform(2, 12)
        self.turns.append({"role": "assistant", "text": text, "time": self.clock, "feedback": feedback})

    def line(self, cid: str) -> dict[str, Any]:
        if self.plain:
            turns = [
                {"role": t["role"], "content": t["text"], "feedback": t.get("feedback") or "none"}
                for t in self.turns
            ]
            return {"cid": cid, "messages": turns}
        rows = []
        for i, t in enumerate(self.turns):
            row = {
                "turn_index": i,
                "role": t["role"],
                "message": t["text"],
                "create_time": datetime.fromtimestamp(t["time"], UTC).strftime("%Y-%m-%d %H:%M:%S"),
            }
            if t["role"] == "assistant":
                row["is_unliked"] = int(t.get("feedback") == "disliked")
                row["is_liked"] = int(t.get("feedback") == "liked")
            rows.append(row)
        return {"cid": cid, "turns": rows}


class _Content:
    """Queries and replies for one topic and language."""

    def __init__(self, rng: random.Random, topic: Topic, zh: bool) -> None:
        self.rng, self.topic, self.zh = rng, topic, zh
        self.slots = {
            "city": rng.choice(_CITIES if zh else _CITIES_EN),
            "thing": rng.choice(_THINGS if zh else _THINGS_EN),
            "n": str(rng.randint(2, 9999)),
        }

    def fill(self, text: str) -> str:
        for name, value in self.slots.items():
            text = text.replace("{" + name + "}", value)
        return text

    def pick(self, options: tuple[str, ...]) -> str:
        return self.fill(self.rng.choice(options))

    def query(self) -> str:
        if not self.zh:
            return self.pick(self.topic.en)
        lead = self.rng.choice(("我想问一下，", "请教一个问题：", "最近一直在想，", "", ""))
        tail = self.rng.choice(("，能具体说说吗", "，麻烦详细一点", "，谢谢", ""))
        return lead + self.pick(self.topic.zh) + tail

    def follow_up(self, query: str) -> str:
        """Another question on the same topic (a deeper dive)."""
        options = tuple(q for q in (self.topic.zh if self.zh else self.topic.en) if self.fill(q) != query)
        return self.pick(options or (self.topic.zh if self.zh else self.topic.en))

    def rephrase(self, query: str) -> str:
        if self.zh:
            return (
                self.rng.choice(("我的意思是，", "换个说法：", "再问一次，"))
                + query.rstrip("？?")
                + "，请直接回答"
            )
        return self.rng.choice(("I mean: ", "Let me rephrase: ")) + query.rstrip("?") + ", directly please"

    def reply(self, sentences: int, offer: bool = False) -> str:
        facts = self.topic.facts_zh if self.zh else self.topic.facts_en
        chosen = [self.fill(f) for f in self.rng.sample(facts, min(sentences, len(facts)))]
        chosen.insert(0, f"（{self.slots['n']}）" if self.zh else f"({self.slots['n']})")
        if offer:
            chosen.append(self.rng.choice(_OFFERS_ZH if self.zh else _OFFERS_EN))
        return ("" if self.zh else " ").join(chosen)

    def bad_reply(self, long: bool = False) -> str:
        openers = _BAD_OPENERS_ZH if self.zh else _BAD_OPENERS_EN
        filler = self.rng.sample(openers, len(openers)) * (6 if long else 2)
        return ("" if self.zh else " ").join([self.reply(1), *filler])

    def say(self, zh: tuple[str, ...], en: tuple[str, ...]) -> str:
        return self.pick(zh if self.zh else en)


def _recovery(w: _Writer, c: _Content, rng: random.Random) -> None:
    """The assistant's next attempt after a complaint, with a random outcome."""
    roll = rng.random()
    if roll < 0.4:
        w.assistant(c.reply(3), "liked")
    elif roll < 0.6:
        w.assistant(c.reply(3))
        w.user(c.say(_PRAISE_ZH, _PRAISE_EN))
        w.assistant(c.reply(1))
    elif roll < 0.85:
        w.assistant(c.bad_reply(), "disliked")
        w.user(c.say(_COMPLAINTS_ZH, _COMPLAINTS_EN))
        w.assistant(c.reply(2))
    else:
        w.assistant(c.bad_reply(), "disliked")
        w.user(c.say(_DISMISS_ZH, _DISMISS_EN))


def _conversation(rng: random.Random, kind: str, zh: bool, plain: bool) -> _Writer:
    w = _Writer(rng, zh, plain)
    c = _Content(rng, rng.choice(TOPICS), zh)
    query = c.query()
    w.user(query)
    if kind == "liked":
        w.assistant(c.reply(rng.randint(2, 5)), "liked")
        if rng.random() < 0.5:
            w.user(c.say(_PRAISE_ZH, _PRAISE_EN))
            w.assistant(c.reply(1))
    elif kind == "deep_dive":
        w.assistant(c.reply(3))
        w.user(c.follow_up(query))
        w.assistant(c.reply(4), "liked")
    elif kind == "offer":
        w.assistant(c.reply(3, offer=True))
        w.user(c.say(_CONSENT_ZH, _CONSENT_EN))
        w.assistant(c.reply(4), "liked")
    elif kind == "complaint":
        w.assistant(c.bad_reply(), "disliked")
        w.user(c.say(_COMPLAINTS_ZH, _COMPLAINTS_EN))
        _recovery(w, c, rng)
    elif kind in ("repeat", "rephrase"):
        w.assistant(c.bad_reply(), "disliked")
        w.user(query if kind == "repeat" else c.rephrase(query))
        _recovery(w, c, rng)
    elif kind == "dismiss":
        w.assistant(c.bad_reply(long=True), "disliked")
        w.user(c.say(_DISMISS_ZH, _DISMISS_EN))
    elif kind == "skip_read":
        w.assistant(c.bad_reply(long=True), "disliked")
        w.user(c.follow_up(query), gap=rng.uniform(2, 6))
        w.assistant(c.reply(2))
    elif kind == "silent":
        w.assistant(c.bad_reply(), "disliked")
    elif kind == "unrated":
        w.assistant(c.reply(3))
    elif kind == "one_turn":
        w.turns.clear()
        w.assistant(c.reply(2), "liked")
    elif kind == "interrupted":
        w.assistant("[已停止生成]" if zh else "[stopped]", "disliked")
    elif kind == "unsafe":
        w.turns.clear()
        w.user(rng.choice(_UNSAFE))
        w.assistant(c.reply(2), "disliked")
    return w


KINDS: dict[str, float] = {
    "liked": 0.26,
    "deep_dive": 0.05,
    "offer": 0.05,
    "complaint": 0.15,
    "repeat": 0.07,
    "rephrase": 0.07,
    "dismiss": 0.06,
    "skip_read": 0.05,
    "silent": 0.08,
    "unrated": 0.06,
    "one_turn": 0.02,
    "interrupted": 0.02,
    "unsafe": 0.01,
    "exact_duplicate": 0.03,
    "near_duplicate": 0.02,
}


def _near_copy(line: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same conversation logged again with a tiny edit in its last user turn."""
    turns = [dict(t) for t in line.get("turns") or line["messages"]]
    key = "message" if "turns" in line else "content"
    for turn in reversed(turns):
        if turn["role"] == "user":
            turn[key] = turn[key].rstrip("？?。.!！") + rng.choice(("？", "!", "。。", " "))
            break
    return {**line, ("turns" if "turns" in line else "messages"): turns}


_SURNAMES_ZH, _GIVEN_ZH = "王李张刘陈杨黄赵吴周", ("伟", "芳", "娜", "敏", "静", "磊", "洋", "婷")
_NAMES_EN = ("Alice Moreau", "Daniel Okafor", "Priya Natarajan", "Tomas Lindqvist")


def pii_snippet(rng: random.Random, zh: bool) -> tuple[str, str]:
    """Made-up personal data for a user turn and the assistant's echo of it."""
    mobile = f"1{rng.choice('3589')}{rng.randint(0, 9)}{rng.randint(10**7, 10**8 - 1)}"
    email = (
        f"{rng.choice(('li.wei', 'zhang_min', 'a.moreau', 'd.okafor'))}{rng.randint(1, 999)}@example."
        + rng.choice(("com", "org"))
    )
    birth = f"19{rng.randint(60, 99)}0{rng.randint(1, 9)}{rng.randint(10, 28)}"
    body = f"11010{rng.randint(1, 9)}{birth}{rng.randint(100, 999)}"
    id_number = body + ric.calc_check_digit(body + "0")  # the function drops the last digit
    card_body = "6222" + "".join(str(rng.randint(0, 9)) for _ in range(11))
    card = card_body + luhn.calc_check_digit(card_body)
    ip = f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    if zh:
        name = rng.choice(_SURNAMES_ZH) + rng.choice(_GIVEN_ZH)
        user = rng.choice(
            (
                f"我叫{name}，手机{mobile}，邮箱{email}。",
                f"我的身份证号是{id_number}，银行卡{card}，电话 {mobile[:3]} {mobile[3:7]} {mobile[7:]}。",
                f"收件人：{name}，联系电话：{mobile}，我这边的IP是{ip}。",
            )
        )
        return user, f"好的，已记下您的邮箱 {email} 和电话 {mobile}。"
    name = rng.choice(_NAMES_EN)
    phone = f"+44 20 7946 0{rng.randint(100, 999)}"
    user = rng.choice(
        (
            f"My name is {name}, email me at {email} or call {phone}.",
            f"I'm on {ip}; my card {card} was charged twice, reach me at {email}.",
        )
    )
    return user, f"Thanks, I noted {email} and {phone}."


def _inject_pii(line: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    key = "turns" if "turns" in line else "messages"
    text = "message" if key == "turns" else "content"
    turns = [dict(t) for t in line[key]]
    zh = any("\u4e00" <= ch <= "\u9fff" for t in turns for ch in t[text])
    user, reply = pii_snippet(rng, zh)
    for role, extra in (("user", user), ("assistant", reply)):
        turn = next((t for t in turns if t["role"] == role), None)
        if turn is not None:
            turn[text] = f"{turn[text]} {extra}"
    return {**line, key: turns}


def synth_conversations(n: int, seed: int = 0, pii: float = 0.0) -> Iterator[dict[str, Any]]:
    """`n` raw-log lines, the same for the same seed; a share `pii` of them with personal data
    (drawn from a generator of its own, so the rest of the lines stay the same)."""
    rng = random.Random(seed)
    pii_rng = random.Random(f"pii-{seed}")
    kinds, weights = list(KINDS), list(KINDS.values())
    recent: list[dict[str, Any]] = []
    for i in range(n):
        kind = rng.choices(kinds, weights)[0]
        cid = f"synth_{seed}_{i:07d}"
        if kind in ("exact_duplicate", "near_duplicate") and recent:
            original = rng.choice(recent)
            line = (
                {**original, "cid": cid}
                if kind == "exact_duplicate"
                else {**_near_copy(original, rng), "cid": cid}
            )
        else:
            line = _conversation(
                rng, kind if "duplicate" not in kind else "liked", rng.random() < 0.7, rng.random() < 0.25
            ).line(cid)
            recent = (recent + [line])[-200:]
        if pii and pii_rng.random() < pii:
            line = _inject_pii(line, pii_rng)
        yield line


def write_synth(out: str | Path, n: int, seed: int = 0, pii: float = 0.0) -> int:
    return write_rows(out, synth_conversations(n, seed, pii))
