"""Each solver of the tasks on its own: what it does to one sample's state."""

import asyncio
from typing import Any

import pytest
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, Logprobs, ModelOutput
from inspect_ai.solver import TaskState
from pydantic import BaseModel, ValidationError

from uxbench.pipeline.stages.agents import ATTEMPTS_KEY, ERRORS_KEY, RESULT_KEY, structured_answer
from uxbench.runtime.errors import DataError
from uxbench.tasks.grader_check import MODEL_KEY, REPLY_KEY, recorded_reply
from uxbench.tasks.solvers import add_system_prompt, generate_answer, require_grader
from uxbench.tasks.task2_eval import drop_history


def state(*messages: Any, metadata: dict[str, Any] | None = None) -> TaskState:
    return TaskState(
        model="mockllm/model",
        sample_id=1,
        epoch=1,
        input=list(messages),
        messages=list(messages),
        metadata=metadata or {},
    )


def run(solver: Any, state: TaskState, generate: Any) -> TaskState:
    return asyncio.run(solver(state, generate))


def answering(*answers: str, calls: list[dict[str, Any]] | None = None) -> Any:
    """A `generate` that answers in turn, noting the keyword arguments of each call."""
    replies = iter(answers)

    async def generate(state: TaskState, **kwargs: Any) -> TaskState:
        if calls is not None:
            calls.append(kwargs)
        state.output = ModelOutput.from_content("mockllm/model", next(replies))
        state.messages.append(state.output.message)
        return state

    return generate


def test_require_grader_stops_without_a_grader_role() -> None:
    with pytest.raises(DataError, match="no grader model"):
        run(require_grader(), state(ChatMessageUser(content="q")), answering())


def test_drop_history_keeps_the_system_turns_and_the_last_question() -> None:
    turns = [
        ChatMessageSystem(content="sys"),
        ChatMessageUser(content="first"),
        ChatMessageUser(content="last"),
    ]
    done = run(drop_history(), state(*turns), answering())
    assert [m.text for m in done.messages] == ["sys", "last"]


def test_add_system_prompt_goes_after_the_existing_system_turns() -> None:
    done = run(
        add_system_prompt("be kind"),
        state(ChatMessageSystem(content="sys"), ChatMessageUser(content="q")),
        answering(),
    )
    assert [(m.role, m.text) for m in done.messages] == [
        ("system", "sys"),
        ("system", "be kind"),
        ("user", "q"),
    ]


def test_generate_answer_asks_again_without_logprobs_when_they_cannot_be_read() -> None:
    calls: list[dict[str, Any]] = []
    inner = answering("好", calls=calls)
    first = True

    async def generate(state: TaskState, **kwargs: Any) -> TaskState:
        nonlocal first
        if first:
            first = False
            Logprobs.model_validate({"content": [{"token": "好", "logprob": None}]})  # Inspect's failure
        return await inner(state, **kwargs)

    done = run(generate_answer(), state(ChatMessageUser(content="q")), generate)
    assert done.output.completion == "好" and calls == [{"logprobs": False}]


def test_generate_answer_passes_other_validation_errors_on() -> None:
    async def generate(state: TaskState, **kwargs: Any) -> TaskState:
        ModelOutput.model_validate({"model": 1, "choices": "x"})
        return state

    with pytest.raises(ValidationError):
        run(generate_answer(), state(ChatMessageUser(content="q")), generate)


def test_recorded_reply_is_the_output_without_generating() -> None:
    sample = state(ChatMessageUser(content="q"), metadata={MODEL_KEY: "gpt-x", REPLY_KEY: "recorded answer"})
    done = run(recorded_reply(), sample, answering())
    assert done.output.completion == "recorded answer" and done.output.model == "gpt-x"
    assert done.messages[-1].text == "recorded answer"


class Verdict(BaseModel):
    label: str


def test_structured_answer_asks_again_with_the_validation_error() -> None:
    sample = state(ChatMessageUser(content="q"), metadata={"item": {}})
    done = run(
        structured_answer(lambda item: Verdict, lambda item: {}, max_attempts=3),
        sample,
        answering("not json", '{"label": "good"}'),
    )
    assert done.store.get(RESULT_KEY) == {"label": "good"} and done.store.get(ATTEMPTS_KEY) == 2
    [error] = done.store.get(ERRORS_KEY)
    assert "could not be used" in done.messages[2].text and error in done.messages[2].text
