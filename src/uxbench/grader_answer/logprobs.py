"""P(good) from logprobs, read at the token the verdict was read from (docs/protocol.md#grm-scoring).

One reading for the GRM grader (Tasks 2/3, `grader_check`) and Task 1's judges. The text
readers (`uxbench.grader_answer.reading.verdict_at`,
`uxbench.judge_answer.calibration.verdict_offset`) say where in the answer the verdict's label
starts; this module finds the generated token that holds that character and reads the labels'
probabilities there:

    P(good) = P(good label) / (P(good label) + P(bad label))

each label's probability being that of its whole spelling after the text before it. A label of
one token is read from that position's alternatives; a label spelled over several tokens (a
Chinese character as byte tokens) is followed along the generated path, and the other label is
read where its spelling leaves that path. §5's one-sided cases stay: only the good label among
the alternatives → P(good label); only the bad → 1 − P(bad label).

Where the logprobs do not give the model's own ratio the score is absent, with the reason
(`Reading.problem`), never the first token's or 0 / 1 by accident: the verdict's character not
found among the tokens (the answer's text and its tokens disagree); the verdict's own tokens not
spelled out (vLLM sends a partial-byte token as "" with empty `bytes`; `token_id:N` spellings);
the other label reachable only through a token whose continuation was not returned (a partial
character) or through an alternative the server did not spell.
`uxbench.grader_answer.prompt_logprobs` then reads both labels from the server's prompt logprobs
instead (vLLM's `prompt_logprobs`), when asked to.

Servers spell tokens differently, so every token is turned into its bytes first: the `bytes`
field when it says more than the token text, OpenAI's `bytes:\\xe5\\xa5` spelling, SentencePiece
byte fallback `<0xE5>` and `▁` space marker, and GPT-2 byte-level text (`Ġ`, `å¥½`).

Odd numbers from a provider: a logprob of −inf is probability 0; NaN, +inf, none at all
(null), or one above 0 (JSON `true` arrives as 1.0) means that token has no usable logprob
(`Reading.usable` False), except that a value within 1e-6 above 0 is float rounding and read as
0. A token listed twice among one position's alternatives (same bytes) counts once.

Work is linear in the answer's tokens.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from inspect_ai.model import GenerateConfig, Logprob, TopLogprob

GOOD, BAD = "good", "bad"
Labels = Mapping[str, Sequence[str]]

_OPENAI_BYTES = re.compile(r"^bytes:((?:\\x[0-9a-fA-F]{2})+)$")
_TOKEN_ID = re.compile(r"^token_id:\d+$")
_SENTENCEPIECE_BYTE = re.compile(r"^<0x([0-9a-fA-F]{2})>$")
_SENTENCEPIECE_SPACE = "▁".encode()
_WIDE_SPACES = ("\u3000".encode(), "\u00a0".encode())
ROUNDING = 1e-6  # a logprob this little above 0 is float rounding of 0
MASKED = -9999.0  # vLLM's floor for a logprob: a token the server's constraint ruled out
CONSTRAINT_KEY = "structured_outputs"  # vLLM ≥ 0.11's request field (`guided_choice` before)

NOT_LOCATED = "the verdict's character is not among the answer's tokens"
NOT_SPELLED = "the server did not spell out the verdict's tokens (partial bytes or token ids)"
OTHER_HIDDEN = "the other label continues past the returned alternatives (a label of several tokens)"
UNSPELLED_ALTERNATIVE = "an alternative the server did not spell could begin the other label"
UNUSABLE = "a logprob the labels need is not a probability (NaN, +inf, null or above 0)"
NEITHER = "neither label is among the alternatives"


@dataclass(frozen=True)
class Reading:
    """The labels' log probabilities at the verdict, or why there are none."""

    good: float | None = None  # log P(good label); None when it is not among the alternatives
    bad: float | None = None
    usable: bool = True  # False when a logprob the reading needs is NaN, +inf, null or above 0
    problem: str | None = None  # why P(good) cannot be read (the score is then absent and counted)
    # the alternatives at the verdict's first token: (token, logprob or None when not finite)
    alternatives: tuple[tuple[str, float | None], ...] = ()

    @property
    def score(self) -> float | None:
        return None if self.problem or not self.usable else score_of(self.good, self.bad)

    @property
    def missing(self) -> str | None:
        """Why there is no score, in words (None when there is one)."""
        if not self.usable:
            return UNUSABLE
        if self.problem:
            return self.problem
        return NEITHER if self.score is None else None


# ---------------------------------------------------------------- token spellings


@cache
def _byte_level_alphabet() -> dict[str, int]:
    """GPT-2's byte-to-printable-character table, inverted (character → byte)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    printable += list(range(ord("®"), ord("ÿ") + 1))
    table = {byte: chr(byte) for byte in printable}
    extra = 0
    for byte in range(256):
        if byte not in table:
            table[byte] = chr(256 + extra)
            extra += 1
    return {char: byte for byte, char in table.items()}


def _byte_level(token: str) -> bytes | None:
    """Bytes of a GPT-2 byte-level token (`Ġ好` is spelled `Ġå¥½`), or None if it is not one."""
    alphabet = _byte_level_alphabet()
    if not token or token.isascii() or any(char not in alphabet for char in token):
        return None
    return bytes(alphabet[char] for char in token)


def token_bytes(token: str, raw: Sequence[int] | None = None) -> bytes:
    """The bytes a token stands for, whichever way the server spelled it."""
    spelled = _OPENAI_BYTES.match(token)
    if spelled:
        return bytes(int(h, 16) for h in spelled.group(1).split("\\x") if h)
    if raw is not None and bytes(raw) != token.encode("utf-8"):
        return bytes(raw)
    single = _SENTENCEPIECE_BYTE.match(token)
    if single:
        return bytes([int(single.group(1), 16)])
    byte_level = _byte_level(token)
    if byte_level is not None:
        return byte_level
    return token.encode("utf-8").replace(_SENTENCEPIECE_SPACE, b" ")


def spelled_bytes(token: Logprob | TopLogprob) -> bytes | None:
    """A token's bytes, or None when the server did not spell them: vLLM's "" with empty `bytes`
    for a partial character, and `token_id:N` (`return_tokens_as_token_ids`)."""
    if _TOKEN_ID.match(token.token) or (not token.token and not token.bytes):
        return None
    return token_bytes(token.token, token.bytes)


def strip_leading_space(data: bytes) -> bytes:
    """The bytes after any leading ASCII, ideographic or no-break spaces (one pass, linear)."""
    start = 0
    while True:
        while start < len(data) and data[start : start + 1].isspace():
            start += 1
        wide = next((space for space in _WIDE_SPACES if data.startswith(space, start)), None)
        if wide is None:
            return data[start:]
        start += len(wide)


# ---------------------------------------------------------------- numbers


def usable(logprob: float | None) -> bool:
    """A logprob that means a probability: at most 0 (give or take rounding), or −inf (probability 0)."""
    return logprob is not None and not math.isnan(logprob) and logprob <= ROUNDING


def _probability_log(logprob: float) -> float:
    """A usable logprob, rounding above 0 read as 0."""
    return min(logprob, 0.0)


def score_of(logprob_good: float | None, logprob_bad: float | None) -> float | None:
    """P(good) / (P(good) + P(bad)), with §5's one-sided cases; None when it is 0 / 0."""
    if logprob_good is not None and logprob_bad is not None:
        top = max(logprob_good, logprob_bad)
        if top == -math.inf:
            return None
        good, bad = math.exp(logprob_good - top), math.exp(logprob_bad - top)
        return good / (good + bad)
    if logprob_good is not None:
        return min(1.0, math.exp(logprob_good))
    if logprob_bad is not None:
        return max(0.0, 1.0 - math.exp(logprob_bad))
    return None


def _logsumexp(values: list[float]) -> float | None:
    if not values:
        return None
    top = max(values)
    if top == -math.inf:
        return top
    return top + math.log(sum(math.exp(v - top) for v in values))


# ---------------------------------------------------------------- where the verdict is


def token_at(content: Sequence[Logprob], text: str, offset: int) -> tuple[int, int] | None:
    """(index of the token holding character `offset` of `text`, bytes of that token before it),
    the tokens matched against the text's end (`_from_the_end`) or, when a provider sent logprobs
    for only the first tokens, its start; None when neither matches up to the offset."""
    data = text.encode("utf-8", "surrogatepass")
    target = len(text[:offset].encode("utf-8", "surrogatepass"))
    return _from_the_end(content, data, target) or _from_the_start(content, data, target)


def _from_the_start(content: Sequence[Logprob], data: bytes, target: int) -> tuple[int, int] | None:
    """The tokens read as the text's beginning (leading whitespace tokens may have been trimmed)."""
    start = 0
    for index, token in enumerate(content):
        spelled = spelled_bytes(token)
        if spelled is None:
            return None
        if not data.startswith(spelled, start):
            if start == 0 and not spelled.strip():
                continue
            return None
        if start <= target < start + len(spelled):
            return index, target - start
        start += len(spelled)
    return None


def _from_the_end(content: Sequence[Logprob], data: bytes, target: int) -> tuple[int, int] | None:
    """The token holding byte `target` of the text, matching the tokens against its end, backwards: a
    provider may have taken reasoning off the front (`<think>` parsed out, vLLM's
    `reasoning_content`) and trimmed the whitespace around it, or only the answer's leading
    space (`▁好` sent as the text `好`), and the text does not show an end-of-turn token. A run
    of tokens the server did not spell is placed between the spelled ones around it; only its
    first token's start is then known. vLLM prints a character split over several tokens at
    its last one ("", "", "好"), so a token right after such a run is not read on its own. None
    when the text and the tokens disagree before reaching the offset.
    """
    end = len(data)
    run_head: int | None = None  # the earliest unspelled token after the current point
    for index in reversed(range(len(content))):
        spelled = spelled_bytes(content[index])
        if spelled is None:
            run_head = index
            continue
        if run_head is not None:  # the run lies between this token's last occurrence and `end`
            at = data.rfind(spelled, 0, end)
            if at < 0 or at + len(spelled) < target:
                return None
            if at + len(spelled) == target:
                return run_head, 0
            end, run_head = at + len(spelled), None
        start = end - len(spelled)
        if not data.endswith(spelled, 0, end) and not _trimmed_head(spelled, data, end):
            if end == len(data):
                continue  # a token the text does not show: an end-of-turn token, trimmed whitespace
            return None
        if start <= target < end:
            if index and spelled_bytes(content[index - 1]) is None:
                return index - 1, 0  # vLLM prints a character at its last token; the run holds its start
            return index, target - start
        end = start
        if end <= 0:
            break
    return (run_head, 0) if run_head is not None and target == 0 else None


def _trimmed_head(spelled: bytes, data: bytes, end: int) -> bool:
    """The token begins the text but its leading whitespace was trimmed off it (`▁好` as `好`)."""
    head = len(spelled) - end
    return head > 0 and end > 0 and spelled.endswith(data[:end]) and not spelled[:head].strip()


# ---------------------------------------------------------------- reading the labels


def _spellings(labels: Labels) -> dict[str, list[bytes]]:
    return {name: [s.lower().encode("utf-8") for s in labels[name]] for name in (GOOD, BAD)}


def _complete(candidate: bytes, spellings: dict[str, list[bytes]]) -> str | None:
    """The label whose spelling `candidate` begins with."""
    return next((n for n, values in spellings.items() if any(candidate.startswith(s) for s in values)), None)


def _partial(candidate: bytes, spellings: dict[str, list[bytes]]) -> set[str]:
    """The labels whose spelling `candidate` is the start of (more tokens needed)."""
    return {n for n, values in spellings.items() if any(s.startswith(candidate) for s in values)}


def _shown(content: Sequence[Logprob], index: int) -> tuple[tuple[str, float | None], ...]:
    return tuple(
        (t.token, _probability_log(t.logprob) if usable(t.logprob) and t.logprob != -math.inf else None)
        for t in content[index].top_logprobs or []
    )


def read_labels(content: Sequence[Logprob], index: int, skip: int, labels: Labels) -> Reading:
    """Each label's log probability at token `index`, the label starting `skip` bytes into it.

    An alternative counts for a label when the bytes generated so far plus its own begin with
    the label's spelling. One that only begins a label's spelling (a partial character), or one
    the server did not spell, leaves that label open: if the label is not read elsewhere the
    ratio is unknown (`problem`). Except after a constrained decoder's choice: when every token
    of the generated label after that alternative was forced (probability 1, nothing else
    allowed), the other label's rest is forced too and the alternative's probability is its
    label's (`uxbench/smollm2-grader`, vLLM's structured outputs). An alternative that spells
    no byte of a label counts for none.
    """
    spellings = _spellings(labels)
    found: dict[str, list[float]] = {GOOD: [], BAD: []}
    open_labels: dict[str, str] = {}
    hidden: list[tuple[str, int, float]] = []  # (label, step, log P) of alternatives that only begin it
    completed: int | None = None
    shown = _shown(content, index)
    prefix, path = b"", 0.0
    head = b""
    for step, position in enumerate(content[index:]):
        chosen = spelled_bytes(position)
        if chosen is None:
            return Reading(problem=NOT_SPELLED, alternatives=shown)
        if step == 0:
            head, chosen = chosen[:skip].lower(), strip_leading_space(chosen[skip:].lower())
        else:
            chosen = chosen.lower()
        listed = {spelled_bytes(position)}
        for alternative in position.top_logprobs or []:
            raw = spelled_bytes(alternative)
            if raw is None:
                for name in found:
                    open_labels.setdefault(name, UNSPELLED_ALTERNATIVE)
                continue
            if raw in listed:
                continue
            listed.add(raw)
            rest = _after_head(raw.lower(), head) if step == 0 else raw.lower()
            if not rest:
                continue
            candidate = prefix + rest
            name = _complete(candidate, spellings)
            if name:
                if not usable(alternative.logprob):
                    return Reading(usable=False, alternatives=shown)
                found[name].append(path + _probability_log(alternative.logprob))
            partials = set() if name else _partial(candidate, spellings)
            for partial in partials:
                open_labels.setdefault(partial, OTHER_HIDDEN)
            if len(partials) == 1 and usable(alternative.logprob):
                hidden.append((*partials, step, path + _probability_log(alternative.logprob)))
        candidate = prefix + chosen
        name, continues = _complete(candidate, spellings), _partial(candidate, spellings)
        if (name or continues) and not usable(position.logprob):
            return Reading(usable=False, alternatives=shown)
        if name:
            found[name].append(path + _probability_log(position.logprob))
            completed = step
            break
        if not continues:
            break  # the generated text has left every label
        prefix, path = candidate, path + _probability_log(position.logprob)
    if completed is not None:  # a constrained decoder: where the label's rest was forced, so is the other's
        forced = [_forced(p) for p in content[index : index + completed + 1]]
        for name, step, logprob in hidden:
            if all(forced[step + 1 :]):
                found[name].append(logprob)
    good, bad = _logsumexp(found[GOOD]), _logsumexp(found[BAD])
    missing = [name for name, value in ((GOOD, good), (BAD, bad)) if value is None]
    problem = next((open_labels[name] for name in missing if name in open_labels), None)
    return Reading(good, bad, problem=problem, alternatives=shown)


def _forced(position: Logprob) -> bool:
    """A position where the server allowed one token only (a constrained decoder: probability 1,
    every other alternative masked out or not listed)."""
    chosen = spelled_bytes(position)
    return (
        usable(position.logprob)
        and position.logprob >= -ROUNDING
        and all(
            spelled_bytes(t) == chosen or (t.logprob is not None and t.logprob <= MASKED)
            for t in position.top_logprobs or []
        )
    )


def _after_head(raw: bytes, head: bytes) -> bytes:
    """An alternative to the verdict's first token, after the bytes that token holds before the label."""
    if not head.strip():  # only spaces before the label: an alternative may spell other spaces
        return strip_leading_space(raw)
    return strip_leading_space(raw[len(head) :]) if raw.startswith(head) else b""


def reading_at(content: Sequence[Logprob], text: str, offset: int | None, labels: Labels) -> Reading:
    """The labels' reading at character `offset` of the answer `text` (None: the verdict has no place)."""
    located = token_at(content, text, offset) if offset is not None else None
    if located is None:
        return Reading(problem=NOT_LOCATED)
    return read_labels(content, *located, labels)


# ---------------------------------------------------------------- asking the server


def constrained(config: GenerateConfig, choices: Sequence[str]) -> GenerateConfig:
    """`config` asking the server to answer exactly one of `choices` (vLLM's structured outputs)."""
    extra: dict[str, Any] = {**(config.extra_body or {}), CONSTRAINT_KEY: {"choice": list(choices)}}
    return config.model_copy(update={"extra_body": extra})
