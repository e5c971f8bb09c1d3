"""The shared reading of logprobs (uxbench.grader_answer.logprobs): the verdict's token, labels of several
tokens, and a score that is absent with its reason rather than the first token's or 0 / 1."""

import math

import pytest
from inspect_ai.model import Logprob, Logprobs, ModelOutput, TopLogprob

from uxbench.data.templates import builtin_path, load_template
from uxbench.grader_answer.logprobs import (
    NOT_SPELLED,
    OTHER_HIDDEN,
    UNSPELLED_ALTERNATIVE,
    constrained,
    reading_at,
    token_at,
)
from uxbench.grader_answer.reading import DEFAULT_LABELS, judge, verdict_at
from uxbench.judge_answer.calibration import verdict_offset
from uxbench.judge_answer.verdict import parse_verdict

ln = math.log


def tok(token: str, p: float = 0.5, alternatives: list[tuple[str, float]] = (), raw=None) -> Logprob:
    tops = [TopLogprob(token=t, logprob=ln(q), bytes=[] if t == "" else None) for t, q in alternatives]
    return Logprob(token=token, logprob=ln(p), bytes=raw, top_logprobs=tops)


def test_token_at_finds_the_character_in_the_tokens() -> None:
    content = [tok("答案"), tok("：好"), tok("。")]
    assert token_at(content, "答案：好。", 3) == (1, 3)  # 好 is 3 bytes into "：好"
    assert token_at(content, "答案：好。", 0) == (0, 0)


def test_token_at_when_reasoning_was_taken_off_the_text() -> None:
    # vLLM's reasoning parser (or Inspect's <think> parsing) leaves the answer only
    content = [tok("<think>"), tok("好的"), tok("</think>"), tok("\n\n"), tok("差")]
    assert token_at(content, "差", 0) == (4, 0)


def test_token_at_with_trimmed_spaces_and_unspelled_runs() -> None:
    assert token_at([tok("▁好")], "好", 0) == (0, 1)  # the leading space was trimmed off the text
    assert token_at([tok("好"), tok("\n")], "好", 0) == (0, 0)  # so was a trailing newline
    # vLLM: 好 as three partial-byte tokens spelled "": the run's first token starts the label
    content = [tok("答案："), tok(""), tok(""), tok(""), tok("。")]
    assert token_at(content, "答案：好。", 3) == (1, 0)
    assert token_at([tok("x"), tok("y")], "差", 0) is None  # text and tokens disagree


def test_verdict_position_not_the_first_token() -> None:
    # the old reading took the first token's alternatives: 0.951 for a bad verdict
    content = [
        tok("好", 0.951, [("好", 0.951), ("差", 0.049)]),
        tok("的，我来看看。"),
        tok("差", 0.7, [("差", 0.7), ("好", 0.2)]),
    ]
    out = ModelOutput.from_content("m", "差")  # the reasoning went to reasoning_content
    out.choices[0].logprobs = Logprobs(content=content)
    judgment = judge(out)
    assert judgment.verdict == "bad" and judgment.score == pytest.approx(0.2 / 0.9)


def test_think_block_then_label() -> None:
    text = "<think>想一想</think>好"
    assert verdict_at(text) == ("good", text.index("好"))
    content = [tok("<think>"), tok("想一想"), tok("</think>"), tok("好", 0.6, [("好", 0.6), ("差", 0.3)])]
    assert reading_at(content, text, text.index("好"), DEFAULT_LABELS).score == pytest.approx(2 / 3)


def test_vllm_prints_a_split_character_at_its_last_token() -> None:
    # as vLLM 0.32 sent SmolLM2's constrained 好: "", "", then "好" (all three bytes) at logprob 0,
    # then the end-of-turn token the text does not show; read alone, 好 would be P(good) = 1
    content = [
        tok("", 0.45, [("", 0.45), ("", 0.37), ("", 0.19)]),
        tok("", 0.55, [("", 0.55), ("", 0.45)]),
        tok("好", 1.0, [("好", 1.0)], raw=list("好".encode())),
        tok("<|im_end|>", 1.0),
    ]
    reading = reading_at(content, "好", 0, DEFAULT_LABELS)
    assert reading.score is None and reading.problem == NOT_SPELLED


def test_unspelled_labels_and_alternatives_give_no_score() -> None:
    content = [tok(""), tok(""), tok("")]
    assert reading_at(content, "好", 0, DEFAULT_LABELS).problem == NOT_SPELLED
    ids = [tok("token_id:29"), tok("token_id:30")]
    assert reading_at(ids, "好", 0, DEFAULT_LABELS).problem == NOT_SPELLED
    # 好 read whole, but an alternative the server printed as "" might begin 差
    hidden = [tok("好", 0.6, [("好", 0.6), ("", 0.3)])]
    reading = reading_at(hidden, "好", 0, DEFAULT_LABELS)
    assert reading.score is None and reading.problem == UNSPELLED_ALTERNATIVE
    both = [tok("好", 0.6, [("好", 0.6), ("", 0.1), ("差", 0.3)])]
    assert reading_at(both, "好", 0, DEFAULT_LABELS).score == pytest.approx(2 / 3)


def test_other_label_beginning_among_the_alternatives_is_not_taken_as_certain() -> None:
    content = [
        tok("bytes:\\xe5", 0.9, [("bytes:\\xe5", 0.9)]),
        tok("bytes:\\xa5", 0.7, [("bytes:\\xa5", 0.7), ("bytes:\\xb7", 0.2)]),
        tok("bytes:\\xbd", 0.95, []),
    ]
    reading = reading_at(content, "好", 0, DEFAULT_LABELS)
    assert reading.problem == OTHER_HIDDEN and reading.score is None
    assert math.exp(reading.good) == pytest.approx(0.9 * 0.7 * 0.95)


def test_constrained_decoder_forces_the_other_labels_rest() -> None:
    # a decoder allowed only 好 or 差: the label's last byte was forced (probability 1, nothing
    # else allowed), so 差's rest after its listed second byte is forced as well
    content = [
        tok("bytes:\\xe5", 1.0, [("bytes:\\xe5", 1.0)]),
        tok("bytes:\\xa5", 0.7, [("bytes:\\xa5", 0.7), ("bytes:\\xb7", 0.3)]),
        Logprob(token="bytes:\\xbd", logprob=0.0, top_logprobs=[TopLogprob(token="<eos>", logprob=-9999.0)]),
    ]
    assert reading_at(content, "好", 0, DEFAULT_LABELS).score == pytest.approx(0.7)


@pytest.mark.parametrize(
    ("answer", "where"),
    [
        ("好，回复答到了点子上。", 0),  # first line
        ("分析：回复还不错，挺好的。\n答案：差", -1),  # marker: the last spelling
        ("<think>好不好？</think>\n答案：好", -1),
    ],
)
def test_task1_verdict_offset(answer: str, where: int) -> None:
    template = load_template(builtin_path("judge_cot.txt")).with_labels(("good", "bad"))
    verdict = parse_verdict(answer, template)
    label = template.labels[verdict.label][0]
    spots = [i for i, c in enumerate(answer) if c == label and i > answer.find("</think>")]
    assert verdict_offset(answer, verdict, template) == spots[where]


def test_constraint_keeps_other_extra_body() -> None:
    from inspect_ai.model import GenerateConfig

    config = constrained(GenerateConfig(extra_body={"top_k": 5}), ["好", "差"])
    assert config.extra_body == {"top_k": 5, "structured_outputs": {"choice": ["好", "差"]}}
