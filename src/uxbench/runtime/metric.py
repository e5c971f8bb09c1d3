"""UXBench's `@metric`: Inspect's `@metric`, plus two things every UXBench metric needs.

- **No NaN in the log.** A metric can have no value on a run: Bad-Acc without disliked
  records, AUROC without logprobs, κ with one class. Inspect would write a float NaN into the
  log's JSON as a bare `NaN`, which strict JSON parsers (`jq`, JavaScript's `JSON.parse`,
  `json.loads` with `parse_constant`) refuse. Inspect leaves out the entries of a metric's
  mapping whose value is None, also when no sample was scored, so a metric without a value
  returns `{name: None}` and a grouped metric (`breakdown`, `per_model`) sets its value-less
  entries to None: the log has no such metric, and `inspect view`, `evals_df` and the report
  show it as missing (docs/running.md#metrics-without-a-value).
- **A description.** A metric's description is the first paragraph of its docstring (the
  formula); `metric_descriptions` collects those of a task's metrics for the task's metadata,
  which `inspect view` shows with the log (Inspect's results carry no text per metric).
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, TypeVar

from inspect_ai.scorer import Metric, SampleScore, Value
from inspect_ai.scorer import metric as inspect_metric

F = TypeVar("F", bound=Callable[..., Metric])


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def reported(name: str, value: Value) -> Value:
    """`value` as the log may hold it: a number that is not finite becomes None (left out)."""
    if isinstance(value, Mapping):
        kept = {key: v if not _number(v) or math.isfinite(v) else None for key, v in value.items()}
        return kept or {name: None}
    if _number(value) and not math.isfinite(value):
        return {name: None}
    return value


def metric(name: str | None = None, *, scores: Literal["auto", "reduced", "unreduced"]) -> Callable[[F], F]:
    """Inspect's `@metric(name, scores=...)` (UXBench's read each epoch's score: "unreduced"),
    whose values are `reported` and whose description is the factory's docstring."""

    def decorate(factory: F) -> F:
        metric_name = name or factory.__name__
        description = (inspect.getdoc(factory) or "").split("\n\n")[0].replace("\n", " ")
        if not description:
            raise TypeError(f"metric {metric_name}: give it a docstring (its description and formula)")

        @functools.wraps(factory)
        def make(*args: Any, **kwargs: Any) -> Metric:
            compute = factory(*args, **kwargs)

            def value(sample_scores: list[SampleScore]) -> Value:
                return reported(metric_name, compute(sample_scores))

            value.__name__, value.__doc__ = metric_name, description
            return value

        return inspect_metric(name, scores=scores)(make)  # type: ignore[return-value]

    return decorate


def metric_descriptions(metrics: Iterable[Metric]) -> dict[str, str]:
    """Each metric's name in the log (a grouped metric's group) and its description."""
    return {m.__name__: m.__doc__ or "" for m in metrics}
