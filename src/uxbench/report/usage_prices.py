"""`uxbench report --prices FILE`: each role's cost computed from its tokens in the log at the
file's prices, for the roles whose every model the file prices.

A role with a model the file does not price keeps the log's cost (Inspect's, from its model
database or `--model-cost-config` at run time) or none: never 0, and never a sum of priced and
unpriced parts. Each cost keeps its source (`cost_source`), which the report prints beside it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from uxbench.report.logs import Run
from uxbench.report.token_usage import PRICE_FILE, RoleUsage, RunUsage
from uxbench.runtime.prices import Price, price_of, read_prices


def priced_role(usage: RoleUsage, prices: dict[str, Price]) -> RoleUsage:
    """`usage` with its cost at `prices` when they price every model of the role, else as it was."""
    found = [None if t.model is None else price_of(prices, t.model) for t in usage.tokens]
    if not found or any(price is None for price in found):
        return usage
    cost = sum(
        price.cost(t.input, t.output, t.cache_write, t.cache_read)
        for price, t in zip(found, usage.tokens, strict=True)
        if price is not None
    )
    return dataclasses.replace(usage, cost=cost, cost_source=PRICE_FILE)


def priced_run(usage: RunUsage | None, prices: dict[str, Price]) -> RunUsage | None:
    """Both roles of a run priced by `priced_role`."""
    if usage is None:
        return None
    model, grader = (None if r is None else priced_role(r, prices) for r in (usage.model, usage.grader))
    return RunUsage(model, grader)


@dataclass(frozen=True)
class PriceFile:
    """The prices of `uxbench report --prices`, read (and checked) before any log is."""

    path: Path
    prices: dict[str, Price]

    @classmethod
    def read(cls, path: Path) -> PriceFile:
        return cls(path, read_prices(path))

    def runs(self, runs: list[Run]) -> list[Run]:
        return [dataclasses.replace(run, usage=priced_run(run.usage, self.prices)) for run in runs]

    def note(self, show_paths: bool) -> str:
        """The page's word on where its costs come from."""
        name = str(self.path) if show_paths else self.path.name
        return (
            f"Costs marked 'price file' are computed from the logs' tokens at the prices in {name} "
            f"({len(self.prices)} model(s)); the others are the logs' own (Inspect's), blank where "
            "the run had no price."
        )
