"""The shard logs of one experiment (`-T shard=K/N`, docs/scale.md#shards) pooled into one run.

The N logs of one experiment (same task, model, grader, settings and data, and the same N) are
merged into one log: their samples together, the shard taken out of the task arguments and
metadata, and the metrics computed again by Inspect (`recompute_metrics`, the task's own
metrics and epoch reducers) over the pooled samples. Everything downstream (intervals, pairwise
tests, breakdowns) then reads that log as it reads an unsharded one, so a pooled row's numbers
are those of one run over all the records. A missing shard makes the row partial; a shard run
twice is pooled once (its newest log, complete before partial) and the other log is listed
as left out.

Only shards of one identity (runtime/identity.py: task version, settings, template and prompt
contents, the prompts as sent, data) pool. Shards of one task, model, grader and N whose
identities differ and that would together look like one run (their shard numbers do not
overlap) are the mistake to catch, a shard run before and one after an upgrade or a template
edit: the larger pool is kept (partial, naming the shard that differs), the other's logs are
listed as left out with the fields that differ. Pools whose shard numbers overlap are separate
experiments run side by side (a sweep), each shown on its own.
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
from uxbench.report.token_usage import RunUsage
from uxbench.report.workers import pmap
from uxbench.runtime.identity import Identity

SHARD_FACTS = ("shard", "shard_records", "unsharded_records")
# fields of a sample no number of the report reads (most of a sample's size)
_HEAVY_FIELDS = {"events", "attachments", "store", "messages"}


@dataclasses.dataclass(frozen=True)
class Member:
    """A shard's log as the pooling sees it: a run (one score of a Task 1–3 log) or a grader check."""

    item: Run | CheckLog
    key: str  # the experiment; with N, the pool it belongs to
    place: str  # who ran and graded what (task, model, grader, score): shards of one place may clash
    identity: Identity | None
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
            place = json.dumps([run.task, run.model, run.grader, run.scorer])
            return cls(
                run, run.key, place, run.identity, shard, run.log, run.name, run.task, run.model, run.created,
                run.partial,
            )  # fmt: skip
        check = item.check
        place = json.dumps([str(check.grader), check.task, check.reference, check.kind])
        settings = {"template": check.template}
        identity = Identity(GRADER_CHECK, None, settings, item.recorded)
        key = json.dumps([place, identity.key])
        where = (check.location, item.name, GRADER_CHECK, check.grader.model, check.created)
        return cls(item, key, place, identity, shard, *where, None)


@dataclasses.dataclass(frozen=True)
class Pool:
    """The shard logs pooled into one run (in shard order), and what the pool lacks."""

    members: tuple[Member, ...]
    count: int  # N
    missing: tuple[int, ...]
    target: str  # the pooled log's path
    differing: tuple[str, ...] = ()  # shards of this place left out as other experiments, and why

    @property
    def name(self) -> str:
        shards = ", ".join(str(member.shard.index) for member in self.members)
        return f"{self.members[0].name} (pooled: shards {shards} of {self.count})"

    @property
    def partial(self) -> str | None:
        """Why the pooled run does not cover its data: missing shards, or partial shard logs."""
        reasons = [f"shard {k}/{self.count} missing" for k in self.missing]
        reasons += [f"shard {m.shard}: {m.partial}" for m in self.members if m.partial]
        reasons += list(self.differing)
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
    return _apart(pools, skipped)


def _why(kept: Pool, other: Pool) -> str:
    """The fields in which `other`'s experiment differs from `kept`'s, in a few words."""
    mine, theirs = kept.members[0].identity, other.members[0].identity
    found = mine.differences(theirs) if mine and theirs else []
    return "; ".join(found) or "another experiment"


def _apart(pools: list[Pool], skipped: list[Skipped]) -> list[Pool]:
    """Pools of one place and N whose shards would complete each other but whose identities
    differ: the one with the most shards (then the newest) is kept, naming the others' shards,
    which are left out with the reason; pools that share a shard number stay, each on its own."""
    by_place: dict[tuple[str, int], list[Pool]] = {}
    for pool in pools:
        by_place.setdefault((pool.members[0].place, pool.count), []).append(pool)
    kept: list[Pool] = []
    for group in by_place.values():
        group.sort(key=lambda p: (len(p.members), max(m.created for m in p.members)), reverse=True)
        chosen: list[Pool] = []
        for pool in group:
            shards = {m.shard.index for m in pool.members}
            host = next(
                (i for i, c in enumerate(chosen) if shards <= set(c.missing)),
                None,
            )
            if host is None:
                chosen.append(pool)
                continue
            main = chosen[host]
            why = _why(main, pool)
            numbers = ", ".join(str(m.shard) for m in pool.members)
            note = f"shard {numbers} left out: {pool.members[0].name} is another experiment ({why})"
            chosen[host] = dataclasses.replace(main, differing=(*main.differing, note))
            reason = f"not pooled with the shards of {main.name}: another experiment ({why})"
            skipped += [Skipped(m.log, m.name, m.task, m.model, reason) for m in pool.members]
        kept += chosen
    return kept


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
