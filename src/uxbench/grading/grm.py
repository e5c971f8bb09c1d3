"""Read a GRM grader's answer: verdict from the text, score from the logprobs (docs/protocol.md#grm-scoring).

Verdict: the first non-whitespace characters of the answer name a label (好 → good,
差 → bad); anything else is `failed`. Score: P(好) / (P(好) + P(差)) at the first
non-whitespace token position; only 好 seen → P(好); only 差 seen → 1 − P(差); neither →
no score.

Servers spell tokens differently, so every token is turned into its bytes first: the
`bytes` field when it says more than the token text, OpenAI's `bytes:\\xe5\\xa5` spelling,
SentencePiece byte fallback `<0xE5>` and `▁` space marker, and GPT-2 byte-level text
(`Ġ`, `å¥½`). A Chinese character split over several byte tokens is followed along the
generated path: the alternatives at a later position are conditioned on the bytes already
generated, so their probability is the path's times their own.

Odd numbers from a provider: a logprob of −inf is probability 0; NaN, +inf, none at all
(null), or one above 0 (a probability above 1; JSON `true` arrives as 1.0) means that token
has no usable logprob, except that a value within 1e-6 above 0 is float rounding and read as
0. When a token the score depends on has none, the answer is read as one without logprobs
(verdict from the text, no score), so a mean never turns into NaN or a probability past 1.
A token listed twice among one position's alternatives (same bytes) counts once, at its
first listing: summing both would count its probability twice.

Work is linear in the answer's tokens; the label search stops once the generated text has
left every label's spelling.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from inspect_ai.model import Logprob, ModelOutput, TopLogprob
from pydantic import ValidationError

GOOD, BAD, FAILED = "good", "bad", "failed"
Verdict = Literal["good", "bad", "failed"]
DEFAULT_LABELS: dict[str, tuple[str, ...]] = {GOOD: ("好",), BAD: ("差",)}

_OPENAI_BYTES = re.compile(r"^bytes:((?:\\x[0-9a-fA-F]{2})+)$")
_SENTENCEPIECE_BYTE = re.compile(r"^<0x([0-9a-fA-F]{2})>$")
_SENTENCEPIECE_SPACE = "▁".encode()
_WIDE_SPACES = ("\u3000".encode(), "\u00a0".encode())


@dataclass(frozen=True)
class Judgment:
    """What one grader answer says about one reply."""

    verdict: Verdict
    score: float | None  # P(good) as §5 defines it; None when not computable
    logprob_good: float | None
    logprob_bad: float | None
    has_logprobs: bool  # False when the provider returned none, or none usable (score is then None)
    # the alternatives at the first answer position: (token, logprob or None when not finite)
    alternatives: tuple[tuple[str, float | None], ...] = ()


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


def _strip_leading_space(data: bytes) -> bytes:
    """The bytes after any leading ASCII, ideographic or no-break spaces (one pass, linear)."""
    start = 0
    while True:
        while start < len(data) and data[start : start + 1].isspace():
            start += 1
        wide = next((space for space in _WIDE_SPACES if data.startswith(space, start)), None)
        if wide is None:
            return data[start:]
        start += len(wide)


def _is_space(data: bytes) -> bool:
    return not _strip_leading_space(data)


# ---------------------------------------------------------------- verdict and score


# what shows as nothing: zero-width spaces and joiners, byte-order marks, soft hyphens, direction marks
INVISIBLE = "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
_BLANK = re.compile(rf"[\s{INVISIBLE}]*")


def answer_start(text: str, position: int = 0) -> int:
    """Where the answer's first visible character is, from `position`: past whitespace and
    invisible characters (a BOM or a zero-width space before 好 hides nothing)."""
    match = _BLANK.match(text, position)
    return match.end() if match else position


def spells_label(answer: str, spelling: str) -> bool:
    """Whether `answer` starts with `spelling` as a word of its own: 好 in `好。` or `好 (…)`, not
    in `好的，差` (okay, bad) or `差不多`."""
    spelling = spelling.lower()
    if not answer.lower().startswith(spelling):
        return False
    after = answer[len(spelling) : len(spelling) + 1]
    return not (after and after.isalnum() and spelling[-1:].isalnum())


def verdict_of(text: str, labels: Mapping[str, Sequence[str]] = DEFAULT_LABELS) -> Verdict:
    """good / bad when the answer's first visible characters spell that label as a word."""
    answer = text[answer_start(text) :]
    for name in (GOOD, BAD):
        if any(spells_label(answer, s) for s in labels[name]):
            return name  # type: ignore[return-value]
    return FAILED


def unreadable_logprobs(error: BaseException) -> bool:
    """Inspect could not read a provider's logprobs: a null logprob fails its validation."""
    return isinstance(error, ValidationError) and any(
        "logprob" in str(part) for detail in error.errors() for part in detail["loc"]
    )


ROUNDING = 1e-6  # a logprob this little above 0 is float rounding of 0


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


def answer_position(content: Sequence[Logprob]) -> int | None:
    """Index of the first token that is not whitespace, or None."""
    return next((i for i, p in enumerate(content) if not _is_space(token_bytes(p.token, p.bytes))), None)


def label_logprobs(
    content: Sequence[Logprob], labels: Mapping[str, Sequence[str]] = DEFAULT_LABELS
) -> dict[str, float | None] | None:
    """Log probability of each label at the first non-whitespace token position.

    An alternative counts for a label when the bytes generated so far plus its own start
    with one of the label's spellings, or are the start of a spelling of that label only
    (a character split into byte tokens; its unseen continuation is taken as certain).
    None when a logprob these depend on is not usable (NaN, +inf, null).
    """
    spellings = {name: [s.lower().encode("utf-8") for s in labels[name]] for name in (GOOD, BAD)}
    start = answer_position(content)
    found: dict[str, list[float]] = {GOOD: [], BAD: []}
    if start is None:
        return {name: None for name in found}
    prefix, path = b"", 0.0
    for position in content[start:]:
        lead = not prefix

        def spelled(token: Logprob | TopLogprob, lead: bool = lead) -> bytes:
            data = token_bytes(token.token, token.bytes).lower()
            return _strip_leading_space(data) if lead else data

        chosen = prefix + spelled(position)
        listed = {token_bytes(position.token, position.bytes)}  # the generated token: followed below
        for alternative in position.top_logprobs or []:
            raw = token_bytes(alternative.token, alternative.bytes)
            if alternative.token == position.token or raw in listed:
                continue
            listed.add(raw)
            text = spelled(alternative)
            name = _label_of(prefix + text, spellings, partial=True) if text else None
            if name:
                if not usable(alternative.logprob):
                    return None
                found[name].append(path + _probability_log(alternative.logprob))
        name = _label_of(chosen, spellings, partial=False)
        continues = any(s.startswith(chosen) for values in spellings.values() for s in values)
        if (name or continues) and not usable(position.logprob):
            return None
        if name:
            found[name].append(path + _probability_log(position.logprob))
            break
        if not continues:
            break  # the generated text has left every label
        prefix, path = chosen, path + _probability_log(position.logprob)
    return {name: _logsumexp(values) for name, values in found.items()}


def alternatives(content: Sequence[Logprob]) -> tuple[tuple[str, float | None], ...]:
    """The top alternatives at the first answer position, logprobs that are not finite or above 0 as None."""
    start = answer_position(content)
    if start is None:
        return ()
    return tuple(
        (t.token, _probability_log(t.logprob) if usable(t.logprob) and t.logprob != -math.inf else None)
        for t in content[start].top_logprobs or []
    )


def _label_of(candidate: bytes, spellings: dict[str, list[bytes]], partial: bool) -> str | None:
    for name, values in spellings.items():
        if any(candidate.startswith(s) for s in values):
            return name
    if partial:
        names = [n for n, values in spellings.items() if any(s.startswith(candidate) for s in values)]
        if len(names) == 1:
            return names[0]
    return None


def judge(output: ModelOutput, labels: Mapping[str, Sequence[str]] = DEFAULT_LABELS) -> Judgment:
    """Verdict and score of one grader answer (a reply without choices is `failed`)."""
    verdict = verdict_of(output.completion, labels) if output.choices else FAILED
    logprobs = output.choices[0].logprobs if output.choices else None
    if logprobs is None:
        return Judgment(verdict, None, None, None, has_logprobs=False)
    found = label_logprobs(logprobs.content, labels)
    shown = alternatives(logprobs.content)
    if found is None:
        return Judgment(verdict, None, None, None, has_logprobs=False, alternatives=shown)
    good, bad = found[GOOD], found[BAD]
    return Judgment(verdict, score_of(good, bad), good, bad, has_logprobs=True, alternatives=shown)
