"""GRM answer reading (docs/protocol.md#grm-scoring): verdict, score, and how servers spell tokens."""

import math

import pytest
from inspect_ai.model import Logprob, Logprobs, ModelOutput, TopLogprob

from uxbench.grader_answer.logprobs import (
    OTHER_HIDDEN,
    Reading,
    read_labels,
    strip_leading_space,
    token_bytes,
)
from uxbench.grader_answer.reading import DEFAULT_LABELS, judge, score_of, verdict_of

ln = math.log


def position(token: str, p: float, alternatives: list[tuple[str, float]] | None = None, raw=None) -> Logprob:
    tops = [TopLogprob(token=t, logprob=ln(q)) for t, q in (alternatives or [])]
    return Logprob(token=token, logprob=ln(p), bytes=raw, top_logprobs=tops)


def reading(*positions: Logprob) -> Reading:
    """The labels read at the first token that is not whitespace."""
    first = next(i for i, p in enumerate(positions) if strip_leading_space(token_bytes(p.token, p.bytes)))
    return read_labels(list(positions), first, 0, DEFAULT_LABELS)


def score(*positions: Logprob) -> float | None:
    return reading(*positions).score


def output(text: str, *positions: Logprob) -> ModelOutput:
    out = ModelOutput.from_content("mockllm/model", text)
    if positions:
        out.choices[0].logprobs = Logprobs(content=list(positions))
    return out


# ---------------------------------------------------------------- verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [("好", "good"), ("差", "bad"), (" \n好。", "good"), ("\u3000差", "bad"), ("好 (回复准确)", "good")]
    + [("不好", "failed"), ("", "failed"), ("   ", "failed"), ("Good", "failed"), ("答案：好", "failed")]
    # invisible characters hide nothing; a label must be a word of its own (好的 is "okay")
    + [("\ufeff好", "good"), ("\u200b差", "bad"), ("\u200b\u2060 好", "good"), ("\ufeff", "failed")]
    + [("好的，差", "failed"), ("好的", "failed"), ("差不多", "failed"), ("好\n理由：…", "good")],
)
def test_verdict_is_the_first_visible_word(text: str, verdict: str) -> None:
    assert verdict_of(text) == verdict


def test_verdict_follows_the_template_labels() -> None:
    labels = {"good": ("good", "yes"), "bad": ("bad",)}
    assert verdict_of(" Good.", labels) == "good"
    assert verdict_of("yes", labels) == "good"
    assert verdict_of("BAD", labels) == "bad"
    assert verdict_of("好", labels) == "failed"
    assert verdict_of("goodness", labels) == "failed" and verdict_of("yes, good", labels) == "good"


# ---------------------------------------------------------------- score maths


@pytest.mark.integration
def test_both_labels_seen() -> None:
    # P(好) = 0.6, P(差) = 0.3 → 0.6 / 0.9
    assert score(position("好", 0.6, [("好", 0.6), ("差", 0.3), ("嗯", 0.1)])) == pytest.approx(2 / 3)


@pytest.mark.integration
def test_only_good_seen_is_its_probability() -> None:
    assert score(position("好", 0.8, [("好", 0.8), ("嗯", 0.1)])) == pytest.approx(0.8)


@pytest.mark.integration
def test_only_bad_seen_is_one_minus_its_probability() -> None:
    assert score(position("差", 0.7, [("差", 0.7), ("嗯", 0.2)])) == pytest.approx(0.3)


@pytest.mark.integration
def test_neither_seen_gives_no_score() -> None:
    assert score(position("嗯", 0.9, [("嗯", 0.9), ("啊", 0.05)])) is None
    assert score_of(None, None) is None


def test_verdict_bad_but_good_more_likely_is_kept_as_read() -> None:
    # the text decides the verdict, the logprobs the score; they are reported as they are
    judgment = judge(output("差", position("差", 0.45, [("好", 0.5), ("差", 0.45)])))
    assert judgment.verdict == "bad" and judgment.score == pytest.approx(0.5 / 0.95)


def test_generated_token_is_not_counted_twice() -> None:
    # the generated token is also listed among the alternatives (the usual case)
    found = reading(position("好", 0.6, [("好", 0.6), ("差", 0.3)]))
    assert math.exp(found.good) == pytest.approx(0.6)
    assert math.exp(found.bad) == pytest.approx(0.3)


@pytest.mark.integration
def test_alternatives_for_one_label_add_up() -> None:
    # "好" and " 好" are different tokens: both are the answer 好
    assert score(position("好", 0.5, [("好", 0.5), (" 好", 0.1), ("差", 0.4)])) == pytest.approx(0.6)


@pytest.mark.integration
def test_multi_character_token_counts_for_its_first_character() -> None:
    assert score(position("好的", 0.6, [("好的", 0.6), ("差", 0.2)])) == pytest.approx(0.75)


@pytest.mark.integration
def test_generated_token_outside_the_top_list_still_counts() -> None:
    assert score(position("好", 0.2, [("差", 0.6), ("嗯", 0.3)])) == pytest.approx(0.25)


def test_judge_without_logprobs_keeps_the_verdict() -> None:
    judgment = judge(output("差"))
    assert (judgment.verdict, judgment.score, judgment.has_logprobs) == ("bad", None, False)
    assert judgment.logprob_good is None and judgment.logprob_bad is None


def test_judge_reports_both_logprobs() -> None:
    judgment = judge(output("好", position("好", 0.6, [("好", 0.6), ("差", 0.3)])))
    assert judgment.verdict == "good" and judgment.has_logprobs
    assert judgment.logprob_good == pytest.approx(ln(0.6)) and judgment.logprob_bad == pytest.approx(ln(0.3))


def test_empty_logprobs_give_no_score() -> None:
    judgment = judge(output("好", *[]))
    assert judgment.score is None
    empty = output("好")
    empty.choices[0].logprobs = Logprobs(content=[])
    assert judge(empty).score is None and judge(empty).has_logprobs


# ---------------------------------------------------------------- token spellings


@pytest.mark.integration
def test_leading_whitespace_tokens_are_skipped() -> None:
    # the first token is a newline; the verdict position is the next one
    first = position("\n", 0.9, [("\n", 0.9), ("好", 0.05)])
    second = position("好", 0.7, [("好", 0.7), ("差", 0.2)])
    assert score(first, second) == pytest.approx(0.7 / 0.9)
    assert judge(output("\n好", first, second)).verdict == "good"


@pytest.mark.integration
def test_leading_space_inside_the_token() -> None:
    assert score(position(" 好", 0.6, [(" 好", 0.6), (" 差", 0.2), ("差", 0.2)])) == pytest.approx(0.6)


@pytest.mark.integration
def test_sentencepiece_markers() -> None:
    assert score(position("▁好", 0.6, [("▁好", 0.6), ("▁差", 0.3)])) == pytest.approx(2 / 3)
    lone = position("▁", 0.9, [("▁", 0.9)])
    assert score(lone, position("差", 0.8, [("差", 0.8), ("好", 0.2)])) == pytest.approx(0.2)


@pytest.mark.integration
def test_gpt2_byte_level_spelling() -> None:
    # 好 = e5 a5 bd, 差 = e5 b7 ae, space = Ġ in GPT-2's byte-to-character table
    assert token_bytes("Ġå¥½") == " 好".encode()
    assert token_bytes("å·®") == "差".encode()
    assert score(position("Ġå¥½", 0.6, [("Ġå¥½", 0.6), ("Ġå·®", 0.3)])) == pytest.approx(2 / 3)
    assert token_bytes("Ċ") == b"\n"


def test_plain_tokens_are_not_mistaken_for_byte_level() -> None:
    assert token_bytes("好") == "好".encode()
    assert token_bytes("hello") == b"hello"


@pytest.mark.integration
def test_openai_byte_tokens_follow_the_generated_path() -> None:
    # 好 split as e5 | a5 bd: P(好) = 0.9 × 0.7, P(差) = 0.9 × 0.2
    first = position("bytes:\\xe5", 0.9, [("bytes:\\xe5", 0.9), ("嗯", 0.1)])
    second = position("bytes:\\xa5\\xbd", 0.7, [("bytes:\\xa5\\xbd", 0.7), ("bytes:\\xb7\\xae", 0.2)])
    assert token_bytes("bytes:\\xe5\\xa5") == b"\xe5\xa5"
    assert score(first, second) == pytest.approx(0.63 / (0.63 + 0.18))


def test_three_byte_tokens_and_partial_alternatives() -> None:
    # e5 | a5 | bd: at the second position a5 (→ 好) and b7 (→ 差) are alternatives; b7's
    # continuation was never returned, so the ratio is unknown: no score, and the reason
    first = position("<0xE5>", 0.9, [("<0xE5>", 0.9), ("<0xE4>", 0.1)])
    second = position("<0xA5>", 0.7, [("<0xA5>", 0.7), ("<0xB7>", 0.2)])
    third = position("<0xBD>", 0.9, [("<0xBD>", 0.9)])
    found = reading(first, second, third)
    assert math.exp(found.good) == pytest.approx(0.9 * 0.7 * 0.9)
    assert found.bad is None and found.score is None
    assert found.problem == OTHER_HIDDEN


@pytest.mark.integration
def test_shared_first_byte_as_an_alternative_is_ignored() -> None:
    # an untaken e5 could become 好 or 差: it counts for neither
    chosen = position("好", 0.6, [("好", 0.6), ("bytes:\\xe5", 0.3), ("差", 0.1)])
    assert score(chosen) == pytest.approx(0.6 / 0.7)


@pytest.mark.integration
def test_bytes_field_wins_over_a_lossy_token_text() -> None:
    # servers that print a partial character as U+FFFD still send its real bytes
    first = position("\ufffd", 0.9, [("\ufffd", 0.9)], raw=[0xE5])
    second = position("\ufffd", 0.8, [("\ufffd", 0.8)], raw=[0xB7, 0xAE])
    assert token_bytes("\ufffd", [0xE5]) == b"\xe5"
    assert score(first, second) == pytest.approx(1 - 0.72)


@pytest.mark.integration
def test_generation_that_leaves_the_labels_stops_the_walk() -> None:
    first = position("答", 0.9, [("答", 0.9), ("好", 0.05)])
    second = position("好", 0.9, [("好", 0.9), ("差", 0.1)])  # "答好" is not an answer
    assert score(first, second) == pytest.approx(0.05)
