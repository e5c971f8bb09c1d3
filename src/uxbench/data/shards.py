"""One shard of a task's records (`-T shard=K/N`): a run split over N processes (docs/scale.md#shards).

A record's shard is set by its identity, the sample id (the record's cid, or grader_check's
model/cid), hashed: never by its position. So the N shards are disjoint and together cover the
records, and a record stays in its shard when the records are reordered, others are excluded
(`-T exclude=`), or the run has several epochs. Inspect's `--limit` applies to the shard's
samples (shard first, then limit): `--limit 10` with `shard=1/2` runs 10 records of shard 1.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from uxbench.runtime.errors import DataError

_FORM = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Shard:
    index: int  # K, 1-based
    count: int  # N

    @classmethod
    def parse(cls, value: object) -> Shard:
        """`K/N` with 1 ≤ K ≤ N, or a one-line DataError naming the value."""
        match = _FORM.match(str(value))
        if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
            raise DataError(f"shard={value!r}: give K/N with 1 <= K <= N (e.g. shard=1/4)")
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, sample_id: str | int | None) -> bool:
        """True when the record of this id belongs to this shard (a hash of the id, mod N)."""
        digest = hashlib.sha256(str(sample_id).encode()).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


def shard_samples(samples: list[Sample], shard: str | None) -> tuple[list[Sample], dict[str, Any]]:
    """The samples of `shard` (all when None), in their order, and the facts for the task's
    metadata: the shard and how many records the whole run has (the report pools shards by them)."""
    if shard is None:
        return samples, {}
    chosen = Shard.parse(shard)
    kept = [s for s in samples if chosen.holds(s.id)]
    if not kept:
        raise DataError(f"shard={chosen}: none of the {len(samples)} records falls in this shard; use fewer")
    return kept, {"shard": str(chosen), "shard_records": len(kept), "unsharded_records": len(samples)}


def shard_dataset(
    dataset: MemoryDataset, facts: dict[str, Any], shard: str | None
) -> tuple[MemoryDataset, dict[str, Any]]:
    """`shard_samples` on a task's dataset and load facts: unchanged when no shard is given."""
    if shard is None:
        return dataset, facts
    samples, found = shard_samples(list(dataset), shard)
    return MemoryDataset(samples, name=dataset.name, location=dataset.location), {**facts, **found}
