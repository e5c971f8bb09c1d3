"""Every reader of text a model or a person wrote works in time linear in it: 1 MB of each
degenerate shape (spaces, newlines, a repeated template heading, unclosed tags) fed to each.

The prompt reader took 47 s for 200,000 spaces in one judged reply (quadratic: a lazy field
followed by whitespace-tolerant wording); with 1 MB it would take twenty minutes. A 10 s alarm
per case: the readers take well under a second here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from helpers.timing import time_limit
from pydantic import BaseModel

from uxbench.data.records import Turn
from uxbench.data.templates import builtin_path, load_template, neutralise
from uxbench.grader_answer.reading import verdict_of
from uxbench.grader_prompt.addressing import addresses_grader
from uxbench.judge_answer.prompt import builtin_templates, history_turns, read_judge_prompt
from uxbench.judge_answer.verdict import parse_verdict
from uxbench.pipeline.stages.agents import AnswerError, parse_answer
from uxbench.scorers.grm import final_reply

MB = 1_000_000
DEFAULT = load_template(builtin_path("judge_default.txt"))
GRM = load_template(builtin_path("grm_pointwise.txt"))


def _repeat(unit: str) -> str:
    return unit * (MB // len(unit))


SHAPES = {
    "spaces": _repeat(" "),
    "newlines": _repeat("\n"),
    "template heading": _repeat("【助手的回复】\n"),
    "grader heading": _repeat("\n\n【助手的最新回复】\n"),
    "speaker labels": _repeat("\n\n用户："),
    "unclosed think": _repeat("<think>"),
    "unclosed fence": _repeat("<response-0123456789ab>\n"),
}


class Answer(BaseModel):
    verdict: str


def _pipeline_answer(text: str) -> object:
    try:
        return parse_answer(text + '{"verdict": "keep"}', Answer)
    except AnswerError as error:
        return str(error)


def _rendered(text: str) -> object:
    prompt = DEFAULT.render(history=DEFAULT.history_text([Turn("user", text)]), query=text, response=text)
    read = read_judge_prompt(prompt, builtin_templates())
    assert read is not None and read.fields["response"] == neutralise(text).strip()
    return history_turns(read.fields["history"], DEFAULT)


READERS: dict[str, Callable[[str], object]] = {
    "read_judge_prompt, a rendered prompt": _rendered,
    "read_judge_prompt, any text": lambda text: read_judge_prompt(text, builtin_templates()),
    "read_judge_prompt, an unfenced prompt": lambda text: read_judge_prompt(
        DEFAULT.body.replace("{response}", text).replace("{history}", "h").replace("{query}", "q"),
        builtin_templates(),
    ),
    "history_turns": lambda text: history_turns(text, DEFAULT),
    "parse_verdict careful": lambda text: parse_verdict(text + "好", DEFAULT),
    "parse_verdict strict": lambda text: parse_verdict(text + "好", DEFAULT, "strict"),
    "GRM verdict_of": lambda text: verdict_of(text + "好"),
    "GRM final_reply": lambda text: final_reply(text, "【最终回复】"),
    "addresses_grader": lambda text: addresses_grader(text, GRM),
    "pipeline parse_answer": _pipeline_answer,
}


@pytest.fixture(autouse=True)
def alarm() -> Iterator[None]:
    # a linear reader takes about a second on 1 MB, several at load 8 on 2 cores; a quadratic one minutes
    with time_limit(60, "the reader took longer than 60 s on 1 MB"):
        yield


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("reader", READERS)
def test_reader_is_linear(reader: str, shape: str) -> None:
    READERS[reader](SHAPES[shape])
