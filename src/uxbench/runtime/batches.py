"""Every request of a provider batch (`--batch`) ends in its result or an error of its own.

Inspect's batchers hand each request the result line that names it. Two gaps (Inspect 0.3.285):
a request the results leave out is never answered (its sample waits for `--attempt-timeout`,
forever without one), and a line Inspect cannot read (OpenAI's `batch_expired` lines carry a
string error code where it expects an HTTP status) fails the whole batch, answered requests
included. Installed once, when Inspect loads UXBench's entry point (`uxbench._registry`, in
every Inspect process where UXBench is installed), on Inspect's batcher base class: a left-out request gets
`BatchResultMissing` and an unreadable line `BatchResultUnreadable` for its request alone.
Neither is a retryable error: the sample errors, the run counts it, and `inspect eval-retry`
redoes it (docs/running.md#batch-cache-and-cost).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from uxbench.runtime._inspect import Batcher

logger = logging.getLogger(__name__)


class BatchResultMissing(RuntimeError):
    """The provider's batch results have no line for this request."""


class BatchResultUnreadable(RuntimeError):
    """The provider's result line for this request could not be read."""


def complete_results(batch_id: str, request_ids: list[str], results: dict[str, Any]) -> dict[str, Any]:
    """`results` with a BatchResultMissing for each request of the batch it leaves out."""
    missing = [rid for rid in request_ids if rid not in results]
    if not missing:
        return results
    logger.warning("uxbench: batch %s: %d of %d requests have no result", batch_id, len(missing),
                   len(request_ids))  # fmt: skip
    error = BatchResultMissing(
        f"batch {batch_id}: the provider's results have no line for this request "
        f"({len(missing)} of {len(request_ids)} left out); inspect eval-retry runs it again"
    )
    return {**results, **dict.fromkeys(missing, error)}


def line_by_line(
    parse: Callable[[dict[str, Any]], tuple[str, Any]],
) -> Callable[[dict[str, Any]], tuple[str, Any]]:
    """`parse` of one result line, turning a line it cannot read into its request's own error."""

    @functools.wraps(parse)
    def parse_line(line: dict[str, Any]) -> tuple[str, Any]:
        try:
            return parse(line)
        except Exception as error:
            custom_id = line.get("custom_id") if isinstance(line, dict) else None
            if not custom_id:
                raise
            told = line.get("error") or error
            return str(custom_id), BatchResultUnreadable(f"batch result of request {custom_id}: {told}")

    return parse_line


def _install() -> None:
    if Batcher is None or getattr(Batcher, "_uxbench_complete", False):
        return
    resolve, init = Batcher._resolve_inflight_batch, Batcher.__init__

    async def _resolve_inflight_batch(self: Any, batch: Any, results: dict[str, Any]) -> None:
        await resolve(self, batch, complete_results(batch.id, list(batch.requests), results))

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        parse = getattr(self, "_parse_jsonl_line", None)
        if parse is not None:
            self._parse_jsonl_line = line_by_line(parse)

    Batcher._resolve_inflight_batch = _resolve_inflight_batch  # type: ignore[method-assign]
    Batcher.__init__ = __init__  # type: ignore[method-assign]
    Batcher._uxbench_complete = True  # type: ignore[attr-defined]


_install()
