"""Pydantic models of the stage files, so a hand-edited or truncated row stops with its file, line,
cid and field instead of a KeyError deep inside a later stage.

Each stage reads its input through `valid_rows` with the model of what the stage before it
writes: signal rows (stages 1-2), mined cases (3), judged cases (4), QA'd cases (5). The rows
are passed on unchanged; the models only check them, strictly (a turn number written as
"3" is an error, not a 3). The answers inside a row (`case`, `qa`) are checked against the
same schemas the agents' answers were validated with, turn numbers against the row's turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from uxbench.data.records import RecordError, refuse_lone_surrogates
from uxbench.pipeline.read.files import numbered_rows
from uxbench.pipeline.stages.quality import TIERS, mean_score, tier
from uxbench.pipeline.stages.schemas import CASE_SCHEMAS, JudgeScores, QAVerdict
from uxbench.pipeline.stages.signals import REACTIONS, RECOVERY_OUTCOMES
from uxbench.runtime.errors import DataError

Track = Literal["failure", "success"]


class _Row(BaseModel):
    # stages add their own keys; only the ones later stages read are checked
    model_config = ConfigDict(extra="allow", strict=True)


class StageTurn(_Row):
    role: Literal["user", "assistant", "system"]
    text: str
    time: float | None = None
    feedback: Literal["liked", "disliked"] | None = None


class StageReaction(_Row):
    turn: int
    reaction: Literal[REACTIONS]  # type: ignore[valid-type]
    reply_to: int | None
    next_user: int | None
    similarity: float | None = None
    praise: bool = False
    interrupted: bool = False


class StageRecovery(_Row):
    failed_turn: int
    attempts: list[int]
    outcome: Literal[RECOVERY_OUTCOMES]  # type: ignore[valid-type]


class StageSignals(_Row):
    tracks: list[Track]
    liked: list[int]
    disliked: list[int]
    reactions: list[StageReaction]
    recoveries: list[StageRecovery]


class SignalRow(_Row):
    """A conversation with its users' reactions (stages 1-2; also the miner's items)."""

    cid: str = Field(min_length=1)
    turns: list[StageTurn] = Field(min_length=1)
    signals: StageSignals
    id: str | None = None  # set on miner items
    track: Track | None = None

    @field_validator("signals")
    @classmethod
    def _turn_numbers(cls, signals: StageSignals, info: ValidationInfo) -> StageSignals:
        turns = info.data.get("turns")
        if turns is None:
            return signals  # the turns' own error is reported
        for i, r in enumerate(signals.reactions):
            for name in ("turn", "reply_to", "next_user"):
                value = getattr(r, name)
                if value is not None and not 0 <= value < len(turns):
                    raise ValueError(
                        f"reactions[{i}].{name}: turn {value} does not exist "
                        f"(the conversation has turns 0-{len(turns) - 1})"
                    )
        return signals


class MinedRow(SignalRow):
    """One mined case (the miner's output, the judge's input)."""

    id: str = Field(min_length=1)
    track: Track
    case: dict[str, Any]


class JudgedRow(MinedRow):
    """A case with its judge scores (the judge's output, QA's input); None: no valid judge answer."""

    scores: dict[str, Any] | None
    mean: float | None
    tier: Literal[TIERS] | None  # type: ignore[valid-type]


class QARow(JudgedRow):
    """A judged case with its QA verdict (QA's output, the build's input); None: no valid QA answer."""

    qa: dict[str, Any] | None


def _where(loc: tuple[int | str, ...]) -> str:
    """('turns', 3, 'role') → `turns[3].role`."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def _first_problem(error: ValidationError, prefix: tuple[int | str, ...] = ()) -> tuple[str, str]:
    first = error.errors(include_url=False)[0]
    message = str(first["msg"]).removeprefix("Value error, ")
    return _where(prefix + tuple(first["loc"])) or "row", message


def _answers(row: SignalRow) -> Iterator[tuple[str, type[BaseModel], Any, dict[str, Any]]]:
    """The agents' answers a row carries: (field, schema, value, validation context)."""
    if isinstance(row, MinedRow):
        yield "case", CASE_SCHEMAS[row.track], row.case, {"roles": [t.role for t in row.turns]}
    if isinstance(row, JudgedRow) and row.scores is not None:
        yield "scores", JudgeScores, row.scores, {}
    if isinstance(row, QARow) and row.qa is not None:
        yield "qa", QAVerdict, row.qa, {"track": row.track}


def _computed(row: SignalRow) -> tuple[str, str] | None:
    """Tier and mean are computed from the scores; a row whose values disagree was edited by hand."""
    if not isinstance(row, JudgedRow):
        return None
    expected = (tier(row.scores), round(mean_score(row.scores), 3)) if row.scores else (None, None)
    if row.tier != expected[0]:
        return "tier", f"is {row.tier!r}, but the scores give {expected[0]!r}"
    if row.mean != expected[1]:
        return "mean", f"is {row.mean!r}, but the scores give {expected[1]!r}"
    return None


def row_problem(row: dict[str, Any], model: type[SignalRow]) -> tuple[str, str] | None:
    """(field, problem) of the first thing wrong with a stage row, or None when it is fine
    (half a character, a lone surrogate, in any text included)."""
    try:
        refuse_lone_surrogates(row)
    except RecordError as error:
        return error.field, error.problem
    try:
        parsed = model.model_validate(row)
    except ValidationError as error:
        return _first_problem(error)
    for name, schema, value, context in _answers(parsed):
        try:
            schema.model_validate(value, strict=True, context=context)
        except ValidationError as error:
            return _first_problem(error, (name,))
    return _computed(parsed)


def check_row(path: str | Path, line: int, row: dict[str, Any], model: type[SignalRow]) -> None:
    """Raise DataError naming file, line, cid and field when `row` is not a `model`."""
    problem = row_problem(row, model)
    if problem is not None:
        field, text = problem
        raise DataError(f"{path}:{line} (cid {row.get('cid', '?')}): field '{field}': {text}")


def valid_rows(path: str | Path, model: type[SignalRow]) -> Iterator[dict[str, Any]]:
    """The rows of a stage file, each checked against `model`; the first bad one stops the read."""
    for line, row in numbered_rows(path):
        check_row(path, line, row, model)
        yield row
