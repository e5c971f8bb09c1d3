"""What the three agent stages share: items, prompts, structured answers with re-asks, and
reading results back out of Inspect logs.

An *item* is one JSON row a stage works on (it carries its own `id`, `cid`, `track` and the
conversation `turns`); it rides along in the sample metadata, so a log alone is enough to
export a stage. The validated answer is kept in the sample store and the score metadata.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from pydantic import BaseModel, ValidationError

from uxbench.data.templates import fence
from uxbench.pipeline.stages.rows import SignalRow, valid_rows
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError
from uxbench.runtime.surrogates import replace_in, replace_lone_surrogates

RESULT_KEY = "pipeline_result"
ATTEMPTS_KEY = "pipeline_attempts"
ERRORS_KEY = "pipeline_errors"
REPLACED_KEY = "pipeline_replaced_surrogates"  # half characters in the answers, read as U+FFFD
_CODE_FENCE_OPEN = re.compile(r"```[a-zA-Z]*")

ValidationContext = Callable[[dict[str, Any]], dict[str, Any]]
SchemaOf = Callable[[dict[str, Any]], type[BaseModel]]


# ---------------------------------------------------------------- prompts

# Our own probe conversation: each stage's prompt rendered on it is part of the run's identity
# (runtime/identity.py), so a resume notices a change in how the code renders prompts. It holds
# what rendering must keep (braces, a heading, a fence-like line, a rating, a reaction).
PROBE_ITEM: dict[str, Any] = {
    "id": "probe",
    "cid": "probe",
    "turns": [
        {"role": "user", "text": "帮我改得礼貌些：{conversation} ### turn 9 · assistant"},
        {"role": "assistant", "text": "好的：\n```\n请问能否明天前答复？\n```", "feedback": "disliked"},
        {"role": "user", "text": "</turn> 太长了"},
    ],
    "signals": {"reactions": [{"turn": 2, "reaction": "complaint", "interrupted": False}]},
}


def load_prompt(name: str, path: str | None = None) -> str:
    """A built-in prompt file (`prompts/pipeline_<name>.txt`) or the user's replacement."""
    source = (
        Path(path).expanduser()
        if path
        else Path(str(resources.files("uxbench") / "prompts" / f"pipeline_{name}.txt"))
    )
    return userfiles.read_text(source, "prompt")


def fill(template: str, **values: str) -> str:
    """Replace `{name}` for the given names only (JSON braces in the prompt stay), in one pass:
    a conversation that holds `{case}` is never filled in again."""
    if not values:
        return template
    names = re.compile("\\{(" + "|".join(map(re.escape, values)) + ")\\}")
    return names.sub(lambda match: values[match.group(1)], template)


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, cutting the middle and saying so."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters cut ...]\n{text[-half:]}"


def render_conversation(item: dict[str, Any], turn_chars: int = 3000) -> str:
    """The conversation with turn numbers, ratings and the reaction read from the next user turn,
    each turn's text fenced (`uxbench.data.templates.fence`): a turn that writes `### turn 9 ·
    assistant · rated liked` cannot add a turn or a rating of its own."""
    reactions = {r["turn"]: r for r in item.get("signals", {}).get("reactions", [])}
    blocks = []
    for i, turn in enumerate(item["turns"]):
        head = [f"turn {i}", turn["role"]]
        if turn.get("feedback"):
            head.append(f"rated {turn['feedback']}")
        reaction = reactions.get(i)
        if reaction is not None:
            head.append(
                f"user reaction: {reaction['reaction']}"
                + (" (interrupted reply)" if reaction["interrupted"] else "")
            )
        blocks.append(f"### {' · '.join(head)}\n{fence('turn', clip(turn['text'], turn_chars))}")
    return "\n\n".join(blocks)


def label_list(table: dict[str, str]) -> str:
    return "\n".join(f"- {zh} ({en})" for zh, en in table.items())


# ---------------------------------------------------------------- structured answers


class AnswerError(ValueError):
    """The model's answer is not the JSON object asked for; the message goes back to it."""


def _without_code_fence(text: str) -> str:
    """The answer without the code fence around it (one pass: a regex ending in `\\s*```$`
    rescans a long run of spaces from each of its characters)."""
    body = text.strip()
    if opening := _CODE_FENCE_OPEN.match(body):
        body = body[opening.end() :]
    return body.removesuffix("```").strip()


def parse_answer(text: str, schema: type[BaseModel], context: dict[str, Any] | None = None) -> BaseModel:
    """Validate the JSON object in a model's answer (code fences and surrounding prose tolerated)."""
    body = _without_code_fence(text)
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        raise AnswerError("no JSON object found in the answer")
    try:
        data = json.loads(body[start : end + 1])
    except ValueError as error:
        raise AnswerError(f"the JSON object does not parse: {error}") from None
    try:
        return schema.model_validate(data, context=context or {})
    except ValidationError as error:
        problems = [f"{'.'.join(str(p) for p in e['loc']) or 'answer'}: {e['msg']}" for e in error.errors()]
        raise AnswerError("; ".join(problems[:12])) from None


_REASK = (
    "Your answer could not be used: {error}\n"
    "Reply again with only the corrected JSON object, following the format and label sets given above."
)


@solver
def structured_answer(schema: SchemaOf, context: ValidationContext, max_attempts: int = 3) -> Solver:
    """Ask, validate against the item's schema, and re-ask with the validation error, up to
    `max_attempts` answers in all. Half characters (lone surrogates) in an answer are read as
    U+FFFD and counted, so the stage's rows can be written."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        item = state.metadata["item"]
        errors: list[str] = []
        attempts = replaced = 0
        for attempt in range(1, max_attempts + 1):
            attempts = attempt
            state = await generate(state)
            text, count = replace_lone_surrogates(state.output.completion)
            replaced += count
            state.store.set(REPLACED_KEY, replaced)
            try:
                answer = parse_answer(text, schema(item), context(item))
            except AnswerError as error:
                errors.append(str(error))
                if attempt < max_attempts:
                    state.messages.append(ChatMessageUser(content=_REASK.format(error=error)))
                continue
            result, count = replace_in(answer.model_dump(mode="json"))  # JSON escapes such as \ud83d
            state.store.set(REPLACED_KEY, replaced + count)
            state.store.set(RESULT_KEY, result)
            break
        state.store.set(ATTEMPTS_KEY, attempts)
        state.store.set(ERRORS_KEY, errors)
        return state

    return solve


@scorer(metrics=[accuracy()])
def valid_answer() -> Scorer:
    """CORRECT when the stage got a valid structured answer; the answer goes into the score metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        result = state.store.get(RESULT_KEY)
        errors = state.store.get(ERRORS_KEY, [])
        return Score(
            value=CORRECT if result is not None else INCORRECT,
            answer=json.dumps(result, ensure_ascii=False) if result is not None else None,
            explanation=errors[-1] if errors else None,
            metadata={
                "result": result,
                "attempts": state.store.get(ATTEMPTS_KEY, 0),
                "errors": errors,
                "replaced_surrogates": state.store.get(REPLACED_KEY, 0),
            },
        )

    return score


# ---------------------------------------------------------------- datasets and results


def item_dataset(
    items: Iterable[dict[str, Any]], prompt: Callable[[dict[str, Any]], str], name: str, location: str
) -> MemoryDataset:
    samples = [Sample(id=item["id"], input=prompt(item), metadata={"item": item}) for item in items]
    if not samples:
        raise DataError(f"{location}: no items for the {name} stage")
    return MemoryDataset(samples, name=name, location=location)


def read_items(
    path: str, expand: Callable[[dict[str, Any]], Iterable[dict[str, Any]]], row_model: type[SignalRow]
) -> list[dict[str, Any]]:
    """Items of a stage input file, each row checked against `row_model`; `expand` turns one
    input row into its items."""
    items: list[dict[str, Any]] = []
    seen: set[str] = set()
    for row in valid_rows(path, row_model):
        for item in expand(row):
            if item["id"] in seen:
                raise DataError(f"{path}: item {item['id']} occurs twice")
            seen.add(item["id"])
            items.append(item)
    return items


def sample_result(sample: EvalSample) -> dict[str, Any] | None:
    """A finished sample's item and answer, the error of a sample that failed, or None for one
    that has neither (it must run again)."""
    if sample.error is not None:
        return {"id": str(sample.id), "failed": sample.error.message.strip()}
    if not sample.scores:
        return None
    store = sample.store
    return {
        "id": str(sample.id),
        "item": sample.metadata["item"],
        "result": store.get(RESULT_KEY),
        "attempts": store.get(ATTEMPTS_KEY, 0),
        "errors": store.get(ERRORS_KEY, []),
    }


def log_results(log: EvalLog) -> list[dict[str, Any]]:
    """The finished and the failed samples of a log (a failed one has a `failed` error text)."""
    return [r for r in (sample_result(s) for s in log.samples or []) if r is not None]
