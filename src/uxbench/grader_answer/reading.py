"""Read a GRM grader's answer: verdict from the text, score from the logprobs (docs/protocol.md#grm-scoring).

Verdict: the first non-whitespace characters of the answer (after any `<think>…</think>`
block) name a label (好 → good, 差 → bad); anything else is `failed`. Score: P(好) / (P(好) +
P(差)) read at the token the verdict was read from (`uxbench.grader_answer.logprobs`), with §5's
one-sided cases; absent, with the reason in `Judgment.problem`, when that token or the labels'
probabilities there cannot be read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from inspect_ai.model import ModelOutput
from pydantic import ValidationError

from uxbench.grader_answer.logprobs import BAD, GOOD, Reading, reading_at, score_of

FAILED = "failed"
Verdict = Literal["good", "bad", "failed"]
DEFAULT_LABELS: dict[str, tuple[str, ...]] = {GOOD: ("好",), BAD: ("差",)}
__all__ = ["BAD", "DEFAULT_LABELS", "FAILED", "GOOD", "Judgment", "judge", "score_of", "verdict_of"]

THINK_END = re.compile(r"</think>", re.IGNORECASE)


def reasoning_end(text: str) -> int:
    """Where an answer starts: after the last `</think>` (a reasoning model's thoughts set aside)."""
    return max((m.end() for m in THINK_END.finditer(text)), default=0)


@dataclass(frozen=True)
class Judgment:
    """What one grader answer says about one reply."""

    verdict: Verdict
    score: float | None  # P(good) as §5 defines it; None when not computable
    logprob_good: float | None
    logprob_bad: float | None
    has_logprobs: bool  # False when the provider returned none, or none usable (score is then None)
    # the alternatives at the verdict's first token: (token, logprob or None when not finite)
    alternatives: tuple[tuple[str, float | None], ...] = ()
    problem: str | None = None  # why a good/bad verdict with logprobs has no score (counted in score_skipped)

    def scored(self, reading: Reading) -> Judgment:
        """This verdict with the score `reading` gives (a good/bad verdict only)."""
        if not reading.usable:
            return Judgment(
                self.verdict, None, None, None, has_logprobs=False, alternatives=reading.alternatives
            )
        problem = reading.problem if self.verdict != FAILED else None
        return Judgment(
            self.verdict,
            reading.score,
            reading.good,
            reading.bad,
            has_logprobs=True,
            alternatives=reading.alternatives,
            problem=problem,
        )


def verdict_at(text: str, labels: Mapping[str, Sequence[str]] = DEFAULT_LABELS) -> tuple[Verdict, int | None]:
    """The verdict and the character of `text` it was read at (None for an empty answer).

    The answer is what follows the last `</think>`; its first visible characters must spell a
    label as a word of its own. A `failed` answer is read at its first character too (§5 scores it there).
    """
    start = answer_start(text, reasoning_end(text))
    answer = text[start:]
    for name in (GOOD, BAD):
        if answer and any(spells_label(answer, s) for s in labels[name]):
            return name, start  # type: ignore[return-value]
    return FAILED, start if answer else None


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
    return verdict_at(text, labels)[0]


def unreadable_logprobs(error: BaseException) -> bool:
    """Inspect could not read a provider's logprobs: a null logprob fails its validation."""
    return isinstance(error, ValidationError) and any(
        "logprob" in str(part) for detail in error.errors() for part in detail["loc"]
    )


def judge(output: ModelOutput, labels: Mapping[str, Sequence[str]] = DEFAULT_LABELS) -> Judgment:
    """Verdict and score of one grader answer (a reply without choices is `failed`)."""
    verdict, offset = verdict_at(output.completion, labels) if output.choices else (FAILED, None)
    logprobs = output.choices[0].logprobs if output.choices else None
    judgment = Judgment(verdict, None, None, None, has_logprobs=False)
    if logprobs is None:
        return judgment
    return judgment.scored(reading_at(logprobs.content, output.completion, offset, labels))
