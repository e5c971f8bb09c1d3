"""Tokens and cost of a run, per role: the model under test's and the grader's.

Read from Inspect's own accounting in the log header (`EvalStats.model_usage`, per model, and
`role_usage`, per role): input tokens (full-rate plus cache reads and writes), output tokens and,
when Inspect had prices for the model (its model database, or `--model-cost-config` at run time),
the cost in dollars. A model without prices has `cost` None: shown as no value, never as 0.
Each role keeps its tokens per model and kind, so that `uxbench report --prices` can price them
(usage_prices.py); `cost_source` says whose figure a cost is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.log import EvalLog
from inspect_ai.model import ModelUsage

from uxbench.runtime.roles import grader_roles

LOG = "log"  # the cost Inspect wrote into the log
PRICE_FILE = "price file"  # the cost `uxbench report --prices` computed (usage_prices.py)


@dataclass(frozen=True)
class Tokens:
    """One model's tokens within a role: what a price applies to."""

    model: str | None  # None: not known (a role bound to several models)
    input: int = 0  # full-rate input tokens
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0

    @classmethod
    def of(cls, model: str | None, usage: ModelUsage) -> Tokens:
        return cls(
            model,
            usage.input_tokens,
            usage.output_tokens,
            usage.input_tokens_cache_read or 0,
            usage.input_tokens_cache_write or 0,
        )

    def combined(self, other: Tokens, sign: int = 1) -> Tokens:
        """These tokens plus (`sign` -1: minus) `other`'s, of the same model."""
        return Tokens(
            self.model,
            self.input + sign * other.input,
            self.output + sign * other.output,
            self.cache_read + sign * other.cache_read,
            self.cache_write + sign * other.cache_write,
        )


def _merged(parts: list[Tokens]) -> tuple[Tokens, ...]:
    """One entry per model, its parts added up."""
    by_model: dict[str | None, Tokens] = {}
    for part in parts:
        known = by_model.get(part.model)
        by_model[part.model] = part if known is None else known.combined(part)
    return tuple(by_model.values())


@dataclass(frozen=True)
class RoleUsage:
    tokens: tuple[Tokens, ...]  # per model of the role
    cost: float | None  # dollars; None when no price was known for a model of the role
    cost_source: str | None = None  # LOG or PRICE_FILE; None with no cost

    @classmethod
    def logged(cls, tokens: list[Tokens], costs: list[float | None]) -> RoleUsage:
        """Parts of a role with the log's costs: no cost when a part has none (never a partial sum)."""
        cost = None if any(c is None for c in costs) else sum(c for c in costs if c is not None)
        return cls(_merged(tokens), cost, None if cost is None else LOG)

    @classmethod
    def of(cls, usages: list[tuple[str | None, ModelUsage]]) -> RoleUsage | None:
        """The role's usage from Inspect's, per (model, usage); None without any."""
        if not usages:
            return None
        return cls.logged([Tokens.of(model, u) for model, u in usages], [u.total_cost for _, u in usages])

    @property
    def calls_input_tokens(self) -> int:
        """Every input token, full rate and cached."""
        return sum(t.input + t.cache_read + t.cache_write for t in self.tokens)

    @property
    def output_tokens(self) -> int:
        return sum(t.output for t in self.tokens)

    def json(self, records: int) -> dict[str, Any]:
        """Totals and per 1,000 records."""
        per = 1000 / records if records else None
        return {
            "input_tokens": self.calls_input_tokens,
            "output_tokens": self.output_tokens,
            "cost": self.cost,
            "cost_source": self.cost_source,
            "per_1000_records": None
            if per is None
            else {
                "input_tokens": round(self.calls_input_tokens * per),
                "output_tokens": round(self.output_tokens * per),
                "cost": None if self.cost is None else self.cost * per,
            },
        }


@dataclass(frozen=True)
class RunUsage:
    model: RoleUsage | None
    grader: RoleUsage | None

    @classmethod
    def total(cls, runs: list[RunUsage | None]) -> RunUsage | None:
        """The usage of several logs of one run (its shards), added up."""
        if not runs or any(r is None for r in runs):
            return None
        known = [r for r in runs if r is not None]
        return cls(_added([r.model for r in known]), _added([r.grader for r in known]))

    def json(self, records: int) -> dict[str, Any]:
        return {
            role: None if usage is None else usage.json(records)
            for role, usage in (("model", self.model), ("grader", self.grader))
        }


def _added(parts: list[RoleUsage | None]) -> RoleUsage | None:
    found = [p for p in parts if p is not None]
    if not found:
        return None
    return RoleUsage.logged([t for p in found for t in p.tokens], [p.cost for p in found])


def run_usage(log: EvalLog) -> RunUsage:
    """The model under test's usage and every grader role's. When a grader is the model under
    test's own model (self-grading, or the same name bound as grader), Inspect counts its calls
    under that model's name too: they are taken out of the model under test's."""
    stats = log.stats
    roles = grader_roles(stats.role_usage)
    bound = {
        role: None if isinstance(config, list) else config.model
        for role, config in (log.eval.model_roles or {}).items()
    }
    graders = [(bound.get(role, log.eval.model), stats.role_usage[role]) for role in roles]
    own = stats.model_usage.get(log.eval.model)
    if own is None:
        return RunUsage(None, RoleUsage.of(graders))
    same = [(model, usage) for model, usage in graders if model == log.eval.model]
    model = RoleUsage.of([(log.eval.model, own)])
    taken = RoleUsage.of(same)
    if taken is not None and model is not None:
        [mine], [theirs] = model.tokens, taken.tokens
        cost = None if model.cost is None or taken.cost is None else model.cost - taken.cost
        model = RoleUsage.logged([mine.combined(theirs, -1)], [cost])
    return RunUsage(model, RoleUsage.of(graders))
