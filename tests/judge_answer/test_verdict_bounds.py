"""Every verdict reader does work linear in the answer (judge_answer/verdict.py, grader_answer/reading.py).

Each answer here made the reader before this change backtrack or rescan for minutes inside the
event loop (112 kB of unclosed `<think>` took 136 s), stalling every other sample. The test
has a 20 s alarm: the readers take well under a second, the old ones far longer.
"""

from collections.abc import Iterator

import pytest
from helpers.timing import time_limit
from inspect_ai.model import Logprob, Logprobs, ModelOutput, TopLogprob

from uxbench.data.templates import builtin_path, load_template
from uxbench.grader_answer.reading import judge, verdict_of
from uxbench.judge_answer.verdict import parse_verdict
from uxbench.scorers.grm import final_reply

DEFAULT = load_template(builtin_path("judge_default.txt"))
JSON = load_template(builtin_path("judge_json_en.txt"))


@pytest.fixture(autouse=True)
def alarm() -> Iterator[None]:
    with time_limit(60, "the reader took longer than 60 s"):  # a bound that holds at load 8 on 2 cores
        yield


# (case, answer, template, mode, label, method)
CASES = [
    ("16,000 unclosed <think> (112 kB)", "<think>" * 16000, DEFAULT, "careful", None, "no_label"),
    ("16,000 unclosed <think>, strict", "<think>" * 16000, DEFAULT, "strict", None, "no_label"),
    ("unclosed <think> then the label", "<think>" * 16000 + "\n好", DEFAULT, "careful", "good", "last_line"),
    ("a label then 50,000 spaces", "好" + " " * 50000 + "x", DEFAULT, "careful", "good", "first_line"),
    ("a marker then 50,000 spaces", "答案" + " " * 50000 + "x", DEFAULT, "careful", None, "no_label"),
    ("not, 50,000 spaces, good", "not" + " " * 50000 + "good", DEFAULT, "careful", "bad", "other_language"),
    ("60,000 mentions", "很好。" * 20000, DEFAULT, "careful", "good", "mention"),
    ("60,000 mentions, strict", "很好。" * 20000, DEFAULT, "strict", "good", "mention"),
    (
        "a JSON answer after 50,000 spaces",
        " " * 50000 + '{"verdict": "bad"}',
        JSON,
        "careful",
        "bad",
        "json_verdict",
    ),
]


@pytest.mark.parametrize(("case", "answer", "template", "mode", "label", "method"), CASES)
def test_verdict_reader_is_linear(case: str, answer: str, template, mode, label, method) -> None:
    verdict = parse_verdict(answer, template, mode)
    assert (verdict.label, verdict.method) == (label, method)


def test_grm_verdict_and_reply_are_linear() -> None:
    reply = "<think>" * 16000 + "</think>" * 16000 + "最终回复"
    assert final_reply(reply, None) == ("最终回复", False)
    assert verdict_of(" " * 500_000 + "差") == "bad"


def test_grm_leading_spaces_are_read_in_one_pass() -> None:
    """A first token of 300,000 alternating ideographic and ASCII spaces, then 好."""
    spaces = "\u3000 " * 150_000
    label = Logprob(token="好", logprob=-0.1, top_logprobs=[TopLogprob(token="差", logprob=-2.3)])
    content = [Logprob(token=spaces, logprob=-0.01, top_logprobs=[]), label]
    out = ModelOutput.from_content("m", spaces + "好")
    out.choices[0].logprobs = Logprobs(content=content)
    judged = judge(out)
    assert judged.verdict == "good" and judged.has_logprobs and judged.score == pytest.approx(0.9002495)
