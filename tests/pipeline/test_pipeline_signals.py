"""Every reaction rule of the signal stage, with Chinese and English cases."""

from __future__ import annotations

import pytest

from uxbench.pipeline.read.rawlog import Conversation, LogTurn
from uxbench.pipeline.stages.signals import (
    asks_question,
    conversation_signals,
    is_complaint,
    is_dismissal,
    is_interrupted,
    recovery_outcome,
    similarity,
    turn_reactions,
)

LONG_REPLY = "这是一个非常详细的回答。" * 10  # 120 characters


def chat(*turns: tuple) -> Conversation:
    """Turns as (role, text[, seconds[, feedback]])."""
    return Conversation(
        "c",
        tuple(LogTurn(t[0], t[1], t[2] if len(t) > 2 else None, t[3] if len(t) > 3 else None) for t in turns),
    )


def reaction(query: str, reply: str, follow: str, gap: float | None = None) -> str:
    times = (0.0, 10.0, 10.0 + gap) if gap is not None else (None, None, None)
    conversation = chat(("user", query, times[0]), ("assistant", reply, times[1]), ("user", follow, times[2]))
    return turn_reactions(conversation)[0].reaction


@pytest.mark.parametrize(
    "text",
    [
        "不对，答非所问",
        "你到底会不会",
        "这明显错了",
        "跑题了",
        "离谱",
        "That's wrong.",
        "That's not what I asked",
        "not helpful",
    ],
)
def test_complaints(text: str) -> None:
    assert is_complaint(text)
    assert reaction("北京明天天气怎么样", "上海今天晴。", text) == "complain"


@pytest.mark.parametrize(
    "text",
    ["不错", "没错", "错不了", "不错，谢谢", "没错，就是这个", "Not bad at all", "nothing wrong with it"],
)
def test_praise_is_not_a_complaint(text: str) -> None:
    assert not is_complaint(text)
    assert reaction("帮我写一首关于春天的诗", "春风拂面花自开。", text) == "satisfied"


def test_praise_is_flagged_and_never_abandon() -> None:
    conversation = chat(
        ("user", "How do I merge two columns in Excel?"),
        ("assistant", "Use =A1&B1."),
        ("user", "Thanks, that's great!"),
    )
    first = turn_reactions(conversation)[0]
    assert (first.reaction, first.praise) == ("satisfied", True)


@pytest.mark.parametrize(
    "text", ["对不对？", "这样写对不对", "What's wrong with my code?", "我的代码哪里不对"]
)
def test_questions_with_complaint_words_are_not_complaints(text: str) -> None:
    assert not is_complaint(text)


def test_long_messages_are_not_complaints() -> None:
    assert not is_complaint("我觉得" + "这段历史很有意思，" * 10 + "不过有一处不对")


@pytest.mark.parametrize("text", ["算了", "哦", "行吧", "呵呵", "whatever", "never mind", "ok"])
def test_short_dismissals(text: str) -> None:
    assert is_dismissal(text, "这是答案。")
    assert reaction("什么是量子纠缠", "这是答案。", text) == "short_dismiss"


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("我可以帮你整理成表格。需要我帮你整理成表格吗？", "好"),
        ("要不要我再详细展开讲讲？", "好的"),
        ("Would you like me to put this in a table?", "ok"),
        ("Shall I go into more detail?", "yes please"),
    ],
)
def test_consent_to_a_question_is_not_a_dismissal(reply: str, text: str) -> None:
    assert asks_question(reply)
    assert not is_dismissal(text, reply)
    assert reaction("帮我总结一下这篇文章的要点", reply, text) == "satisfied"


def test_ok_without_a_question_is_a_dismissal() -> None:
    assert is_dismissal("好", "这是全部内容。")
    assert is_dismissal("ok", "That is all.")


@pytest.mark.parametrize("query", ["北京冬天一般多冷？需要穿羽绒服吗", "How cold does Oslo get in winter?"])
def test_repeat(query: str) -> None:
    assert similarity(query, query + "?") > 0.8
    assert reaction(query, "这是一个很好的问题。", query) == "repeat"


@pytest.mark.parametrize(
    ("query", "follow"),
    [
        ("北京冬天一般多冷？需要穿羽绒服吗", "北京冬天一般有多冷？要穿羽绒服吗，说清楚"),
        ("How cold does Oslo get in winter?", "I mean: how cold does Oslo get in winter, directly please"),
    ],
)
def test_rephrase(query: str, follow: str) -> None:
    assert 0.45 < similarity(query, follow) <= 0.8
    assert reaction(query, "这是一个很好的问题。", follow) == "rephrase"


@pytest.mark.parametrize(
    ("query", "follow"),
    [
        ("北京冬天一般多冷？需要穿羽绒服吗", "帮我写一封请假三天的邮件"),
        ("How cold does Oslo get in winter?", "Recommend films like Interstellar"),
    ],
)
def test_abandon(query: str, follow: str) -> None:
    assert similarity(query, follow) < 0.15
    assert reaction(query, "这是一个很好的问题。", follow) == "abandon"


def test_short_unrelated_follow_up_is_not_abandon() -> None:
    assert reaction("北京冬天一般多冷？需要穿羽绒服吗", "这是答案。", "那上海") == "satisfied"


@pytest.mark.parametrize("follow", ["帮我写一封请假三天的邮件", "Recommend films like Interstellar"])
def test_skip_read(follow: str) -> None:
    assert reaction("北京冬天一般多冷？需要穿羽绒服吗", LONG_REPLY, follow, gap=5.0) == "skip_read"
    # the same message after time enough to read the reply is a topic switch
    assert reaction("北京冬天一般多冷？需要穿羽绒服吗", LONG_REPLY, follow, gap=60.0) == "abandon"


def test_skip_read_needs_timestamps_and_a_long_reply() -> None:
    assert (
        reaction("北京冬天一般多冷？需要穿羽绒服吗", "零下五度左右。", "帮我写一封请假三天的邮件", gap=1.0)
        == "abandon"
    )
    assert reaction("北京冬天一般多冷？需要穿羽绒服吗", LONG_REPLY, "帮我写一封请假三天的邮件") == "abandon"


def test_complaint_wins_over_skip_read() -> None:
    assert reaction("北京冬天一般多冷？需要穿羽绒服吗", LONG_REPLY, "太啰嗦了", gap=2.0) == "complain"


def test_no_followup_and_interrupted() -> None:
    reactions = turn_reactions(chat(("user", "写首诗"), ("assistant", "[已停止生成]")))
    assert reactions[0].reaction == "no_followup"
    assert reactions[0].interrupted
    assert is_interrupted("嗯") and is_interrupted("[stopped]")
    assert not is_interrupted("这是一个完整的回答。")


def test_similarity_is_symmetric_and_bounded() -> None:
    for a, b in [("红烧肉怎么做", "怎么做红烧肉"), ("how to cook rice", "rice cooking how to"), ("", "x")]:
        assert similarity(a, b) == similarity(b, a)
        assert 0.0 <= similarity(a, b) <= 1.0
    assert similarity("完全相同", "完全相同！") == 1.0


@pytest.mark.parametrize(
    ("classes", "outcome"),
    [
        ([], "no_recovery"),
        (["positive"], "recovered"),
        (["negative", "positive"], "recovered"),
        (["positive", "negative"], "partial_recovery"),
        (["silent"], "partial_recovery"),
        (["negative", "silent"], "user_gave_up"),
        (["negative", "leave"], "user_gave_up"),
        (["negative", "negative"], "failed_recovery"),
    ],
)
def test_recovery_outcomes(classes: list[str], outcome: str) -> None:
    assert recovery_outcome(classes) == outcome


def test_recovery_chain_in_a_conversation() -> None:
    conversation = chat(
        ("user", "北京明天天气怎么样"),
        ("assistant", "上海今天晴。", None, "disliked"),
        ("user", "不对，我问的是北京"),
        ("assistant", "北京明天多云，最高五度。", None, "liked"),
    )
    signals = conversation_signals(conversation)
    assert signals["tracks"] == ["failure", "success"]
    assert signals["recoveries"] == [{"failed_turn": 1, "attempts": [3], "outcome": "recovered"}]
    assert [r["reaction"] for r in signals["reactions"]] == ["complain", "no_followup"]
