"""Both labels re-scored from a server's prompt logprobs, read by token identity and verified.

With `constrain` (docs/graders.md#an-open-model-as-the-grader) the server is asked twice for the
prompt logprobs of the conversation followed by an assistant turn `prefix + label` that it
continues (vLLM's `continue_final_message`); each label's log probability is the sum over the
label's own tokens. Which tokens those are is decided by what they spell, never by comparing
logprob values (a batched bfloat16 server gives one shared token different logprobs in two
requests):

* every position after the first holds an entry: a token (its id and text) with a numeric
  `logprob`; a position listing several tokens names its prompt token by `rank` (vLLM lists
  the rank-1 token beside a prompt token of lower rank), else by vLLM's order (first);
* the last tokens of each request spell exactly that request's label: nothing after it (a
  server that closed the turn appended an end-of-turn token), nothing of the text before it
  inside its first token (a merge), a leading space allowed (SentencePiece's `▁`); vLLM prints
  a character split over several byte tokens at its last one (`""`, `""`, `"好"`), so up to
  that character's bytes less one tokens printed `""` just before it belong to the label;
* the tokens before the labels are the same in both requests, position by position (ids
  where the server sent them, else text);
* every label token's logprob is a probability (`usable`).

Anything else gives no P(good) but a `Reading.problem` naming the reason (counted in
`score_skipped`). The entries are read from the response body itself (the provider's
`on_response` hook, `keep_prompt_logprobs`): Inspect's parser drops null entries, takes the
first token of a position for the prompt's and stops the call at an entry without `logprob`.
A provider without that hook is read from Inspect's parsed `prompt_logprobs`, which passes
the same checks where it can.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ContentReasoning,
    GenerateConfig,
    Logprobs,
    Model,
    ModelOutput,
)

from uxbench.grader_answer.logprobs import (
    BAD,
    CONSTRAINT_KEY,
    GOOD,
    NOT_LOCATED,
    Labels,
    Reading,
    strip_leading_space,
    token_bytes,
    usable,
)

# vLLM's switches for a request whose last message is an assistant turn to be scored, not answered
CONTINUE = {"add_generation_prompt": False, "continue_final_message": True}

NO_PROMPT_LOGPROBS = "the server returned no prompt logprobs for the labels"
REASONING_APART = (
    "the answer's reasoning came apart from its text, so the labels cannot be re-scored after it"
)
NULL_ENTRY = "a prompt-logprob entry after the first is null (the server did not score that token)"
MISSING_ENTRY = "the server sent fewer or more prompt-logprob entries than the prompt has tokens (its usage)"
MALFORMED_ENTRY = "a prompt-logprob entry is not a token with a numeric logprob"
AMBIGUOUS_ENTRY = "a prompt-logprob entry lists several tokens, and their ranks do not name the prompt's"
AFTER_LABEL = "the prompt's last token is not the label's (the server added tokens after it: a closed turn?)"
NOT_THE_LABEL = "the prompt's last tokens do not spell the label"
MERGED = "the label's first token also holds text before the label (the tokenizer merged them)"
PREFIX_APART = "the two scoring requests' tokens before the labels differ"
UNUSABLE_LABEL = "a label token's logprob is not a probability (NaN, +inf or above 0)"
SKIP_REASONS = (
    NO_PROMPT_LOGPROBS,
    NULL_ENTRY,
    MISSING_ENTRY,
    MALFORMED_ENTRY,
    AMBIGUOUS_ENTRY,
    AFTER_LABEL,
    NOT_THE_LABEL,
    MERGED,
    PREFIX_APART,
    UNUSABLE_LABEL,
)


@dataclass(frozen=True)
class Position:
    """One prompt token as the server scored it."""

    text: str  # as the server decoded it ("" for part of a character)
    logprob: float
    token_id: str | None = None  # None when the server sent none (Inspect's parsed logprobs)


class Unreadable(ValueError):
    """Prompt logprobs that cannot be read; the message is one of the reasons above."""


# ---------------------------------------------------------------- the entries


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Unreadable(MALFORMED_ENTRY)
    return float(value)


def _prompt_token(entry: Any) -> Position:
    """A position's prompt token: the only one listed, else the one whose rank puts it below the
    listed alternatives (with n tokens listed, rank ≥ n), else vLLM's first when no ranks."""
    if not isinstance(entry, dict) or not entry:
        raise Unreadable(MALFORMED_ENTRY)
    listed = []
    for token_id, info in entry.items():
        if not isinstance(info, dict) or "logprob" not in info:
            raise Unreadable(MALFORMED_ENTRY)
        text = info.get("decoded_token", "")
        if not isinstance(text, str):
            raise Unreadable(MALFORMED_ENTRY)
        listed.append((Position(text, _number(info["logprob"]), str(token_id)), info.get("rank")))
    if len(listed) == 1:
        return listed[0][0]
    ranks = [rank for _, rank in listed]
    if all(rank is None for rank in ranks):
        return listed[0][0]
    if not all(isinstance(rank, int) and not isinstance(rank, bool) for rank in ranks):
        raise Unreadable(MALFORMED_ENTRY)
    below = [position for position, rank in listed if rank >= len(listed)]
    if len(below) != 1:
        raise Unreadable(AMBIGUOUS_ENTRY)
    return below[0]


def raw_positions(raw: Any, prompt_tokens: Any = None) -> list[Position]:
    """vLLM's `prompt_logprobs` body (null first, then `{token_id: {logprob, rank,
    decoded_token}}` per position), checked entry by entry and, when the response's usage
    gives the prompt's length (`prompt_tokens`), one entry per token (Unreadable says why)."""
    if not isinstance(raw, list) or len(raw) < 2:
        raise Unreadable(NO_PROMPT_LOGPROBS)
    if isinstance(prompt_tokens, int) and not isinstance(prompt_tokens, bool) and prompt_tokens != len(raw):
        raise Unreadable(MISSING_ENTRY)
    head = [] if raw[0] is None else [_prompt_token(raw[0])]
    if any(entry is None for entry in raw[1:]):
        raise Unreadable(NULL_ENTRY)
    return head + [_prompt_token(entry) for entry in raw[1:]]


def parsed_positions(logprobs: Logprobs | None) -> list[Position]:
    """Inspect's parsed `prompt_logprobs` (no ids: the tokens are compared by text)."""
    if logprobs is None or not logprobs.content:
        raise Unreadable(NO_PROMPT_LOGPROBS)
    return [Position(t.token, t.logprob) for t in logprobs.content]


# ---------------------------------------------------------------- the label's tokens


def _spelled(position: Position) -> bytes:
    return token_bytes(position.text) if position.text else b""


def label_start(positions: Sequence[Position], label: str, prefix: str = "") -> int:
    """Index of the label's first token: the last tokens spell exactly `label` (Unreadable says
    why not). A leading space in that token is the tokenizer's (`▁好`) unless `prefix`, the
    text before the label, ends in one."""
    target = label.encode("utf-8")
    if not positions or not _spelled(positions[-1]):  # a character is printed at its last token
        raise Unreadable(AFTER_LABEL)
    tail, index = b"", len(positions)
    while len(tail) < len(target):
        index -= 1
        if index < 0:
            raise Unreadable(NOT_THE_LABEL)
        tail = _spelled(positions[index]) + tail
        if target.endswith(tail):
            continue
        if strip_leading_space(tail) == target and not prefix[-1:].isspace():
            break
        if tail.endswith(target):
            raise Unreadable(MERGED)
        raise Unreadable(AFTER_LABEL if index == len(positions) - 1 else NOT_THE_LABEL)
    first_char = len(label[:1].encode("utf-8"))
    unprinted = 0  # tokens printed "" just before: the first character's earlier bytes
    while index > 0 and not positions[index - 1].text and unprinted < first_char - 1:
        index -= 1
        unprinted += 1
    return index


def _same(a: Position, b: Position) -> bool:
    if a.token_id is not None and b.token_id is not None:
        return a.token_id == b.token_id and a.text == b.text
    return a.text == b.text


def label_reading(
    good: Sequence[Position], bad: Sequence[Position], labels: Labels, prefix: str = ""
) -> Reading:
    """Each label's log probability after `prefix`: the sum over its own tokens, after checking
    both requests agree on every token before them; a `problem` instead of a number when
    anything is off."""
    try:
        starts = [label_start(good, labels[GOOD][0], prefix), label_start(bad, labels[BAD][0], prefix)]
    except Unreadable as why:
        return Reading(problem=str(why))
    before = zip(good[: starts[0]], bad[: starts[0]], strict=True) if starts[0] == starts[1] else None
    if before is None or not all(_same(a, b) for a, b in before):
        return Reading(problem=PREFIX_APART)
    sums = []
    for positions, start in zip((good, bad), starts, strict=True):
        values = [p.logprob for p in positions[start:]]
        if not all(usable(v) for v in values):
            return Reading(problem=UNUSABLE_LABEL)
        sums.append(sum(min(v, 0.0) for v in values))
    return Reading(sums[0], sums[1])


# ---------------------------------------------------------------- asking the server

_kept: ContextVar[list[Any] | None] = ContextVar("uxbench_prompt_logprobs", default=None)
_MISSING = object()


def _body_prompt_logprobs(response: Any) -> Any:
    """(`prompt_logprobs`, usage's `prompt_tokens`) of a response body: at its top level (vLLM's
    chat completions) or in its first choice (vLLM's completions)."""
    if not isinstance(response, dict):
        return _MISSING
    usage = response.get("usage")
    tokens = usage.get("prompt_tokens") if isinstance(usage, dict) else None
    if response.get("prompt_logprobs") is not None:
        return response["prompt_logprobs"], tokens
    choices = response.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        found = choices[0].get("prompt_logprobs")
        return _MISSING if found is None else (found, tokens)
    return _MISSING


def keep_prompt_logprobs(model: Model) -> bool:
    """Have `model`'s provider hand each response body's prompt logprobs to `sequence_logprobs`
    (wrapping its `on_response` hook, keeping what it does); False when it has no such hook."""
    hook: Callable[[dict[str, Any]], None] | None = getattr(model.api, "on_response", None)
    if hook is None:
        return False
    if getattr(hook, "keeps_prompt_logprobs", False):
        return True

    def on_response(response: dict[str, Any]) -> None:
        hook(response)  # the provider's own checks first: a body they reject is not kept
        kept = _kept.get()
        if kept is not None:
            kept.append(_body_prompt_logprobs(response))

    on_response.keeps_prompt_logprobs = True  # type: ignore[attr-defined]
    on_response.watches_replies = getattr(hook, "watches_replies", False)  # type: ignore[attr-defined]
    model.api.on_response = on_response  # type: ignore[attr-defined]
    return True


def _scoring_config(config: GenerateConfig) -> GenerateConfig:
    """One scoring call: the prompt's logprobs, one token generated, no constraint."""
    extra = {k: v for k, v in (config.extra_body or {}).items() if k != CONSTRAINT_KEY}
    return config.model_copy(
        update={
            "extra_body": {**extra, **CONTINUE},
            "prompt_logprobs": 1,
            "logprobs": True,  # merging cannot unset a run's top_logprobs, which needs logprobs on
            "top_logprobs": 1,
            "max_tokens": 1,
        }
    )


async def _positions(model: Model, messages: Sequence[ChatMessage], config: GenerateConfig) -> list[Position]:
    """One scoring call's prompt tokens: from the response body when the provider's hook kept
    it (even where Inspect could not parse it), else from Inspect's parsed logprobs."""
    hooked = keep_prompt_logprobs(model)
    kept: list[Any] = []
    token = _kept.set(kept)
    try:
        output: ModelOutput | None = await model.generate(list(messages), config=config)
    except (KeyError, TypeError, ValueError):  # Inspect's parser failed on a body the hook kept
        if not kept or kept[-1] is _MISSING:
            raise
        output = None
    finally:
        _kept.reset(token)
    if hooked and kept and kept[-1] is not _MISSING:
        return raw_positions(*kept[-1])
    choices = output.choices if output is not None else []
    return parsed_positions(choices[0].prompt_logprobs if choices else None)


async def sequence_logprobs(
    model: Model, messages: Sequence[ChatMessage], prefix: str, labels: Labels, config: GenerateConfig
) -> Reading:
    """Both labels' log probabilities after `prefix`, read back from the server's prompt logprobs
    of two requests ending `prefix + label` (`label_reading`)."""
    calls = _scoring_config(config)
    read: list[list[Position]] = []
    for name in (GOOD, BAD):
        turn = ChatMessageAssistant(content=prefix + labels[name][0])
        try:
            read.append(await _positions(model, [*messages, turn], calls))
        except Unreadable as why:
            return Reading(problem=str(why))
    return label_reading(*read, labels, prefix)


async def rescore(
    model: Model,
    messages: Sequence[ChatMessage],
    output: ModelOutput,
    offset: int | None,
    labels: Labels,
    config: GenerateConfig,
) -> Reading:
    """The labels re-scored by the server after the answer's text up to the verdict (`offset`)."""
    if offset is None:
        return Reading(problem=NOT_LOCATED)
    if output.choices and any(isinstance(c, ContentReasoning) for c in output.message.content or []):
        return Reading(problem=REASONING_APART)
    return await sequence_logprobs(model, messages, output.completion[:offset], labels, config)
