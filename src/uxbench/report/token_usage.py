"""Tokens and cost of a run, per role: the model under test's and the grader's.

Read from Inspect's own accounting in the log header (`EvalStats.model_usage`, per model, and
`role_usage`, per role): input tokens (full-rate plus cache reads and writes), output tokens and,
when Inspect had prices for the model (its model database, or `--model-cost-config` at run time),
the cost in dollars. A model without prices has `cost` None: shown as no value, never as 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.log import EvalLog
from inspect_ai.model import ModelUsage

from uxbench.runtime.roles import grader_roles


@dataclass(frozen=True)
class RoleUsage:
    calls_input_tokens: int  # every input token, full rate and cached
    output_tokens: int
    cost: float | None  # dollars; None when Inspect had no prices for a model of the role

    @classmethod
    def of(cls, usages: list[ModelUsage]) -> RoleUsage | None:
        if not usages:
            return None
        costs = [u.total_cost for u in usages]
        return cls(
            calls_input_tokens=sum(
                u.input_tokens + (u.input_tokens_cache_read or 0) + (u.input_tokens_cache_write or 0)
                for u in usages
            ),
            output_tokens=sum(u.output_tokens for u in usages),
            cost=None if any(c is None for c in costs) else sum(c for c in costs if c is not None),
        )

    def json(self, records: int) -> dict[str, Any]:
        """Totals and per 1,000 records."""
        per = 1000 / records if records else None
        return {
            "input_tokens": self.calls_input_tokens,
            "output_tokens": self.output_tokens,
            "cost": self.cost,
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
    costs = [p.cost for p in found]
    return RoleUsage(
        sum(p.calls_input_tokens for p in found),
        sum(p.output_tokens for p in found),
        None if any(c is None for c in costs) else sum(c for c in costs if c is not None),
    )


def run_usage(log: EvalLog) -> RunUsage:
    """The model under test's usage and every grader role's. When a grader is the model under
    test's own model (self-grading, or the same name bound as grader), Inspect counts its calls
    under that model's name too: they are taken out of the model under test's."""
    stats = log.stats
    roles = grader_roles(stats.role_usage)
    graders = [stats.role_usage[role] for role in roles]
    bound = {
        role: None if isinstance(config, list) else config.model
        for role, config in (log.eval.model_roles or {}).items()
    }
    own = stats.model_usage.get(log.eval.model)
    if own is None:
        return RunUsage(None, RoleUsage.of(graders))
    same = [stats.role_usage[role] for role in roles if bound.get(role, log.eval.model) == log.eval.model]
    model = RoleUsage.of([own])
    if same and model is not None:
        taken = RoleUsage.of(same)
        assert taken is not None
        model = RoleUsage(
            model.calls_input_tokens - taken.calls_input_tokens,
            model.output_tokens - taken.output_tokens,
            None if model.cost is None or taken.cost is None else model.cost - taken.cost,
        )
    return RunUsage(model, RoleUsage.of(graders))
