"""Prefilter rules, the unsafe screen, and exact / near-duplicate removal."""

from __future__ import annotations

from pathlib import Path

import pytest

from uxbench.pipeline.privacy.unsafe import UnsafeScreen
from uxbench.pipeline.read.files import read_rows, read_stats
from uxbench.pipeline.read.rawlog import Conversation, LogTurn
from uxbench.pipeline.run.drivers import prefilter_stage, signals_stage
from uxbench.pipeline.stages.dedup import DuplicateIndex, shingles
from uxbench.pipeline.stages.prefilter import rule_rejection
from uxbench.pipeline.stages.signals import conversation_signals
from uxbench.pipeline.tools.synth import write_synth
from uxbench.runtime.errors import DataError

QUESTION = "请帮我规划一次去成都的三天两夜旅行，预算三千元左右，想吃火锅也想看熊猫，最好不要太累"
ANSWER = "第一天上午去大熊猫繁育研究基地，下午逛宽窄巷子，晚上吃火锅。第二天去都江堰，第三天逛春熙路。" * 2


def chat(cid: str, *turns: tuple[str, str, str | None]) -> Conversation:
    return Conversation(cid, tuple(LogTurn(role, text, None, feedback) for role, text, feedback in turns))


def rejection(conversation: Conversation) -> str | None:
    return rule_rejection(conversation, conversation_signals(conversation), UnsafeScreen())


def test_rules() -> None:
    good = chat("a", ("user", QUESTION, None), ("assistant", ANSWER, "disliked"))
    assert rejection(good) is None
    assert rejection(chat("b", ("user", QUESTION, None), ("assistant", ANSWER, None))) == "no_feedback"
    assert rejection(chat("c", ("assistant", ANSWER, "liked"))) == "too_few_turns"
    assert (
        rejection(chat("d", ("user", QUESTION, None), ("assistant", "[已停止生成]", "disliked")))
        == "all_interrupted"
    )
    unsafe = chat("e", ("user", "教我怎么制作冰毒", None), ("assistant", ANSWER, "disliked"))
    assert rejection(unsafe) == "unsafe:drugs_weapons"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("找点色情网站", "sexual"),
        ("how do I kill myself", "self_harm_method"),
        ("How to make a pipe bomb", "drugs_weapons"),
        ("我最近很难过，不想活了的感觉", None),  # sadness is for emotional support, not screened out
        ("What is a bomb calorimeter?", None),
        ("我想买一把吉他", None),
    ],
)
def test_unsafe_screen(text: str, category: str | None) -> None:
    assert UnsafeScreen().match(text) == category


def test_unsafe_terms_file(tmp_path: Path) -> None:
    terms = tmp_path / "terms.tsv"
    terms.write_text("# ours\ncompetitor\tacme\nleak\tpassword\tpassword is \\w+\n", encoding="utf-8")
    screen = UnsafeScreen.with_file(terms)
    assert screen.match("Is ACME better?") == "competitor"
    assert screen.match("my password is hunter2") == "leak"
    assert screen.match("forgot my password") is None
    terms.write_text("only-one-field\n", encoding="utf-8")
    with pytest.raises(DataError, match="terms.tsv:1"):
        UnsafeScreen.with_file(terms)


def test_shingles_are_character_grams() -> None:
    assert len(shingles("春风又绿江南岸")) == 4
    assert shingles("短") == {"短".encode("utf-32-le")}


def test_exact_and_near_duplicates_keep_the_first() -> None:
    index = DuplicateIndex()
    first = chat("a", ("user", QUESTION, None), ("assistant", ANSWER, "disliked"))
    assert index.check(first) is None
    assert index.check(chat("b", ("user", QUESTION, None), ("assistant", ANSWER, "disliked"))) == (
        "duplicate_exact",
        "a",
    )
    punctuated = chat("b2", ("user", QUESTION + "！", None), ("assistant", ANSWER, "disliked"))
    assert index.check(punctuated) == ("duplicate_near", "a")
    near = chat("c", ("user", QUESTION.replace("三千", "四千"), None), ("assistant", ANSWER, "disliked"))
    assert index.check(near) == ("duplicate_near", "a")
    other = chat(
        "d",
        ("user", "How do I merge two columns in Excel without losing data?", None),
        ("assistant", "Use =A1&B1 and fill down.", "liked"),
    )
    assert index.check(other) is None


@pytest.mark.integration
def test_prefilter_stage_on_synthetic_logs(tmp_path: Path) -> None:
    raw, signals, kept, rejected = (tmp_path / n for n in ("raw.jsonl", "s.jsonl", "p.jsonl", "r.jsonl"))
    write_synth(raw, 600, seed=3)
    signals_stage(raw, signals)
    counts = prefilter_stage(signals, kept, rejected)
    reasons = counts["rejected"]
    for reason in ("no_feedback", "too_few_turns", "all_interrupted", "duplicate_exact"):
        assert reasons.get(reason, 0) > 0, reason
    assert any(r.startswith("unsafe:") for r in reasons)
    assert counts["kept"] + sum(reasons.values()) == 600
    assert len(list(read_rows(kept))) == counts["kept"]
    assert len(list(read_rows(rejected))) == sum(reasons.values())
    stats = read_stats(kept)
    assert list(stats) == ["signals", "prefilter"] and stats["signals"]["conversations"] == 600
