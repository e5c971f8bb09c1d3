"""The shard logs of one experiment (`-T shard=K/N`, docs/scale.md#shards) pooled into one run.

The N logs of one experiment (same task, model, grader, settings and data, and the same N) are
merged into one log: their samples together, the shard taken out of the task arguments and
metadata, and the metrics computed again by Inspect (`recompute_metrics`, the task's own
metrics and epoch reducers) over the pooled samples. Everything downstream (intervals, pairwise
tests, breakdowns) then reads that log as it reads an unsharded one, so a pooled row's numbers
are those of one run over all the records. A missing shard makes the row partial; a shard run
twice is pooled once (its newest log, complete before partial) and the other log is listed
as left out.
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

from inspect_ai.log import read_eval_log, recompute_metrics, write_eval_log

from uxbench.data.shards import Shard
from uxbench.report.collect import Run, Skipped, read_runs
from uxbench.report.parallel import pmap

SHARD_FACTS = ("shard", "shard_records", "unsharded_records")
# fields of a sample no number of the report reads (most of a sample's size)
_HEAVY_FIELDS = {"events", "attachments", "store", "messages"}


@dataclasses.dataclass(frozen=True)
class Pool:
    """The shard logs pooled into one run (in shard order), and what the pool lacks."""

    runs: tuple[Run, ...]
    count: int  # N
    missing: tuple[int, ...]
    target: str  # the pooled log's path

    @property
    def name(self) -> str:
        shards = ", ".join(str(Shard.parse(run.shard).index) for run in self.runs)
        return f"{self.runs[0].name} (pooled: shards {shards} of {self.count})"

    @property
    def partial(self) -> str | None:
        """Why the pooled run does not cover its data: missing shards, or partial shard logs."""
        reasons = [f"shard {k}/{self.count} missing" for k in self.missing]
        reasons += [f"shard {run.shard}: {run.partial}" for run in self.runs if run.partial]
        return "; ".join(reasons) or None


def pool_log(job: tuple[tuple[str, ...], str]) -> None:
    """Merge the shard logs `paths` into one log at `target`, its metrics computed again."""
    paths, target = job
    logs = [read_eval_log(path, exclude_fields=_HEAVY_FIELDS) for path in paths]
    first = logs[0]
    metadata = dict(first.eval.metadata or {})
    whole = metadata.get("unsharded_records")
    for name in SHARD_FACTS:
        metadata.pop(name, None)
    metadata["pooled_logs"] = [Path(path).name for path in paths]
    ids = [sample_id for log in logs for sample_id in log.eval.dataset.sample_ids or ()]
    dataset = first.eval.dataset.model_copy(update={"samples": whole or len(ids), "sample_ids": ids})
    spec = first.eval.model_copy(
        update={
            "dataset": dataset,
            "metadata": metadata,
            "task_args": {k: v for k, v in first.eval.task_args.items() if k != "shard"},
            "task_args_passed": {k: v for k, v in first.eval.task_args_passed.items() if k != "shard"},
            "created": max(log.eval.created for log in logs),
        }
    )
    samples = [sample for log in logs for sample in log.samples or []]
    pooled = first.model_copy(update={"eval": spec, "samples": samples})
    recompute_metrics(pooled)
    write_eval_log(pooled, target)


def _pools(runs: list[Run], directory: Path, skipped: list[Skipped]) -> list[Pool]:
    """The shard runs grouped by experiment and N; a shard run twice is pooled once."""
    groups: dict[tuple[str, int], dict[int, list[Run]]] = {}
    for run in runs:
        shard = Shard.parse(run.shard)
        groups.setdefault((run.key, shard.count), {}).setdefault(shard.index, []).append(run)
    pools = []
    for (_, count), by_index in groups.items():
        chosen = []
        for index in sorted(by_index):
            newest, *older = sorted(
                by_index[index], key=lambda r: (r.partial is None, r.created, r.log), reverse=True
            )
            chosen.append(newest)
            reason = f"shard {index}/{count} ran again; the newer {newest.name} is pooled"
            skipped += [Skipped(r.log, r.name, r.task, r.model, reason) for r in older]
        logs = "\n".join(run.log for run in chosen)
        target = directory / f"{hashlib.sha1(logs.encode()).hexdigest()[:16]}.eval"
        missing = tuple(k for k in range(1, count + 1) if k not in by_index)
        pools.append(Pool(tuple(chosen), count, missing, str(target)))
    return pools


def pool_shards(runs: list[Run], directory: Path) -> tuple[list[Run], list[Skipped]]:
    """`runs` with the shard runs of each experiment replaced by one pooled run (its log written
    under `directory`), and the shard logs left out (a shard run twice)."""
    skipped: list[Skipped] = []
    pools = _pools([run for run in runs if run.shard], directory, skipped)
    jobs = list({pool.target: (tuple(run.log for run in pool.runs), pool.target) for pool in pools}.values())
    pmap(pool_log, jobs)
    pooled = []
    for pool in pools:
        scorer = pool.runs[0].scorer
        found = [r for r in read_runs(pool.target, pool.name) if isinstance(r, Run) and r.scorer == scorer]
        pooled += [dataclasses.replace(run, partial=pool.partial) for run in found]
    return [run for run in runs if not run.shard] + pooled, skipped
