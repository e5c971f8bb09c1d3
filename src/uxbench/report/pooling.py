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
import json
from pathlib import Path

from inspect_ai.log import read_eval_log, recompute_metrics, write_eval_log

from uxbench.data.shards import Shard
from uxbench.qualification.match import GRADER_CHECK
from uxbench.report.logs import CheckLog, Run, Skipped, read_runs
from uxbench.report.usage import RunUsage
from uxbench.report.workers import pmap

SHARD_FACTS = ("shard", "shard_records", "unsharded_records")
# fields of a sample no number of the report reads (most of a sample's size)
_HEAVY_FIELDS = {"events", "attachments", "store", "messages"}


@dataclasses.dataclass(frozen=True)
class Member:
    """A shard's log as the pooling sees it: a run (one score of a Task 1–3 log) or a grader check."""

    item: Run | CheckLog
    key: str  # the experiment; with N, the pool it belongs to
    shard: Shard
    log: str
    name: str
    task: str
    model: str
    created: str
    partial: str | None

    @classmethod
    def of(cls, item: Run | CheckLog) -> Member:
        shard = Shard.parse(item.shard)
        if isinstance(item, Run):
            run = item
            return cls(run, run.key, shard, run.log, run.name, run.task, run.model, run.created, run.partial)
        check = item.check
        key = json.dumps([str(check.grader), check.task, check.reference, str(check.template), check.kind])
        model = check.grader.model
        return cls(item, key, shard, check.location, item.name, GRADER_CHECK, model, check.created, None)


@dataclasses.dataclass(frozen=True)
class Pool:
    """The shard logs pooled into one run (in shard order), and what the pool lacks."""

    members: tuple[Member, ...]
    count: int  # N
    missing: tuple[int, ...]
    target: str  # the pooled log's path

    @property
    def name(self) -> str:
        shards = ", ".join(str(member.shard.index) for member in self.members)
        return f"{self.members[0].name} (pooled: shards {shards} of {self.count})"

    @property
    def partial(self) -> str | None:
        """Why the pooled run does not cover its data: missing shards, or partial shard logs."""
        reasons = [f"shard {k}/{self.count} missing" for k in self.missing]
        reasons += [f"shard {m.shard}: {m.partial}" for m in self.members if m.partial]
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


def _pools(members: list[Member], directory: Path, skipped: list[Skipped]) -> list[Pool]:
    """The shard logs grouped by experiment and N; a shard run twice is pooled once."""
    groups: dict[tuple[str, int], dict[int, list[Member]]] = {}
    for member in members:
        groups.setdefault((member.key, member.shard.count), {}).setdefault(member.shard.index, []).append(
            member
        )
    pools = []
    for (_, count), by_index in groups.items():
        chosen = []
        for index in sorted(by_index):
            newest, *older = sorted(
                by_index[index], key=lambda m: (m.partial is None, m.created, m.log), reverse=True
            )
            chosen.append(newest)
            reason = f"shard {index}/{count} ran again; the newer {newest.name} is pooled"
            skipped += [Skipped(m.log, m.name, m.task, m.model, reason) for m in older]
        logs = "\n".join(member.log for member in chosen)
        target = directory / f"{hashlib.sha1(logs.encode()).hexdigest()[:16]}.eval"
        missing = tuple(k for k in range(1, count + 1) if k not in by_index)
        pools.append(Pool(tuple(chosen), count, missing, str(target)))
    return pools


def _pooled(pool: Pool, skipped: list[Skipped]) -> list[Run | CheckLog]:
    """The pooled log's runs (the score the shards' runs report), or its grader check; a grader
    check needs every shard whole (it has no partial form): else its shard logs are skipped."""
    first = pool.members[0].item
    if isinstance(first, CheckLog):
        if pool.partial:
            reason = f"a grader_check in shards, not all of them usable ({pool.partial}); not used"
            skipped += [Skipped(m.log, m.name, m.task, m.model, reason) for m in pool.members]
            return []
        return [c for c in read_runs(pool.target, pool.name) if isinstance(c, CheckLog)]
    found = [r for r in read_runs(pool.target, pool.name) if isinstance(r, Run) and r.scorer == first.scorer]
    usage = RunUsage.total([m.item.usage for m in pool.members if isinstance(m.item, Run)])
    return [dataclasses.replace(run, partial=pool.partial, usage=usage) for run in found]


def pool_shards(items: list[Run | CheckLog], directory: Path) -> tuple[list[Run | CheckLog], list[Skipped]]:
    """`items` with the shard logs of each experiment (or grader check) replaced by one pooled run
    or check (its log written under `directory`), and the shard logs left out, with reasons."""
    skipped: list[Skipped] = []
    pools = _pools([Member.of(item) for item in items if item.shard], directory, skipped)
    directory.mkdir(parents=True, exist_ok=True)
    jobs = {pool.target: (tuple(m.log for m in pool.members), pool.target) for pool in pools}
    pmap(pool_log, list(jobs.values()))
    pooled = [found for pool in pools for found in _pooled(pool, skipped)]
    return [item for item in items if not item.shard] + pooled, skipped
