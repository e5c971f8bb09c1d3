"""Pydantic models for what the miner, judge and QA agents answer.

Label fields are closed sets (docs/protocol.md#label-sets): an unknown label is a validation error that
goes back to the model in a re-ask, never a silently kept string. Turn numbers are checked
against the conversation passed as validation context (`{"roles": [...]}`).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from uxbench.data.labels import (
    FAILURE_DIMENSIONS,
    SCENARIOS,
    SUCCESS_PATTERNS,
    canonical_failure,
    canonical_scenario,
    canonical_success,
)

FailureDimension = Literal[tuple(FAILURE_DIMENSIONS)]  # type: ignore[valid-type]
SuccessPattern = Literal[tuple(SUCCESS_PATTERNS)]  # type: ignore[valid-type]
Scenario = Literal[tuple(SCENARIOS)]  # type: ignore[valid-type]
Level = Literal["high", "medium", "low"]
FailureSignal = Literal[
    "dislike", "explicit_complaint", "repeat", "rephrase", "short_dismiss", "abandon", "skip_read"
]
SuccessSignal = Literal["like", "explicit_praise", "deep_dive"]
Axis = Annotated[int, Field(ge=1, le=5)]
Text = Annotated[str, Field(max_length=2000)]
Short = Annotated[str, Field(max_length=40)]
DOMAIN_FIELDS = ("scene_l1", "scene_l2", "intent_l1", "intent_l2", "sector_l1", "sector_l2")
_CJK_SPACE = re.compile(r"(?<=[\u3000-\u9fff])\s+|\s+(?=[\u3000-\u9fff])")
_SEPARATOR = re.compile(r"\s*([/|、·])\s*")
_EDGE = re.compile(
    r"^[\s\"'“”‘’「」《》()（）\[\]【】.,;:，。；：、!?！？-]+|[\s\"'“”‘’「」《》()（）\[\]【】.,;:，。；：、!?！？-]+$"
)


def normalise_domain(value: Any) -> Any:
    """An open domain label in one spelling: NFKC (full-width → half-width), no quotes or
    punctuation at the ends, one space between Latin words and none next to a CJK character,
    Latin letters in lower case (`" 编程 / Python报错。"` and `"编程/python 报错"` agree)."""
    if not isinstance(value, str):
        return value
    text = unicodedata.normalize("NFKC", value)
    text = _EDGE.sub("", " ".join(text.split()))
    return _SEPARATOR.sub(r"\1", _CJK_SPACE.sub("", text)).lower()


class _Answer(BaseModel):
    # extra keys (a model's own "total" or "tier", say) are ignored, never trusted
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


def _label(value: Any, canonical: Any) -> Any:
    """Accept English names and known variant spellings; leave the rest to the Literal check."""
    mapped, known = canonical(value)
    return mapped if known else value


def _check_turn(value: int, info: ValidationInfo, role: str) -> int:
    roles: list[str] | None = (info.context or {}).get("roles")
    if roles is None:
        return value
    if not 0 <= value < len(roles):
        raise ValueError(f"turn {value} does not exist (the conversation has turns 0-{len(roles) - 1})")
    if roles[value] != role:
        raise ValueError(f"turn {value} has role {roles[value]}, expected {role}")
    return value


class _Case(_Answer):
    query_turn: int = Field(description="user turn whose request the judged reply answers")
    scenario: Scenario
    signal_confidence: Level
    explanation: Text
    representativeness: Level
    confidence: float = Field(ge=0.0, le=1.0)
    needs_image: bool = False
    # two-level domain labels (docs/protocol.md#data): an open set, normalised
    scene_l1: Short = ""
    scene_l2: Short = ""
    intent_l1: Short = ""
    intent_l2: Short = ""
    sector_l1: Short = ""
    sector_l2: Short = ""

    @field_validator(*DOMAIN_FIELDS, mode="before")
    @classmethod
    def _domain(cls, value: Any) -> Any:
        return normalise_domain(value)

    @field_validator("scenario", mode="before")
    @classmethod
    def _scenario(cls, value: Any) -> Any:
        return _label(value, canonical_scenario)

    @field_validator("query_turn")
    @classmethod
    def _query_turn(cls, value: int, info: ValidationInfo) -> int:
        return _check_turn(value, info, "user")


class FailureCase(_Case):
    """One disliked reply, with why the user was unhappy."""

    failed_turn: int = Field(description="assistant turn the user was unhappy with")
    dimension: FailureDimension
    signal_type: FailureSignal
    sentiment: Literal["explicit", "implicit"]
    complaint: Text = ""
    recovery_attempted: bool = False
    recovery_succeeded: bool = False

    @field_validator("dimension", mode="before")
    @classmethod
    def _dimension(cls, value: Any) -> Any:
        return _label(value, canonical_failure)

    @field_validator("failed_turn")
    @classmethod
    def _failed_turn(cls, value: int, info: ValidationInfo) -> int:
        return _check_turn(value, info, "assistant")

    @model_validator(mode="after")
    def _order(self) -> FailureCase:
        if self.query_turn >= self.failed_turn:
            raise ValueError(f"query_turn {self.query_turn} must come before failed_turn {self.failed_turn}")
        return self


class SuccessCase(_Case):
    """One liked reply, with what made it work."""

    liked_turn: int = Field(description="assistant turn the user liked")
    pattern: SuccessPattern
    signal_type: SuccessSignal

    @field_validator("pattern", mode="before")
    @classmethod
    def _pattern(cls, value: Any) -> Any:
        return _label(value, canonical_success)

    @field_validator("liked_turn")
    @classmethod
    def _liked_turn(cls, value: int, info: ValidationInfo) -> int:
        return _check_turn(value, info, "assistant")

    @model_validator(mode="after")
    def _order(self) -> SuccessCase:
        if self.query_turn >= self.liked_turn:
            raise ValueError(f"query_turn {self.query_turn} must come before liked_turn {self.liked_turn}")
        return self


class FailureMining(_Answer):
    cases: list[FailureCase] = Field(max_length=20)


class SuccessMining(_Answer):
    cases: list[SuccessCase] = Field(max_length=20)


class JudgeScores(_Answer):
    """The five 1-5 axes (docs/protocol.md#construction-pipeline); `quality.tier` computes the tier."""

    query_completeness: Axis
    signal_credibility: Axis
    representativeness: Axis
    severity: Axis
    annotation_clarity: Axis
    rationale: Text = ""


class QAVerdict(_Answer):
    verdict: Literal["keep", "downgrade", "reject"]
    needs_context: bool = False
    needs_image: bool = False
    duplicate_pattern: bool = False
    corrected_label: str | None = Field(
        default=None, description="a better dimension / success pattern from the label set, or null"
    )
    reason: Text = ""

    @field_validator("corrected_label", mode="before")
    @classmethod
    def _corrected(cls, value: Any, info: ValidationInfo) -> Any:
        if value in (None, ""):
            return None
        track = (info.context or {}).get("track", "failure")
        canonical, table = (
            (canonical_failure, FAILURE_DIMENSIONS)
            if track == "failure"
            else (canonical_success, SUCCESS_PATTERNS)
        )
        mapped, known = canonical(value)
        if not known:
            raise ValueError(f"{value!r} is not in the label set: {', '.join(table)}")
        return mapped


MINING_SCHEMAS: dict[str, type[_Answer]] = {"failure": FailureMining, "success": SuccessMining}
CASE_SCHEMAS: dict[str, type[_Case]] = {"failure": FailureCase, "success": SuccessCase}
