"""Stratified sampling of a test set (docs/protocol.md#construction-pipeline).

Invariants, given candidates in priority order (best first):
- no label holds more than `max_share` of the set: when the candidates are too skewed to
  reach the target under that cap, the set is shrunk to the largest size that respects it;
- every label holds at least `min_per_label` items (or all it has), when the size allows;
- every scenario appears, when some candidate of it fits under the cap;
- the rest is filled in proportion to what each label has to offer, best items first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class Sampled(Generic[T]):
    items: list[T]
    size: int  # the size aimed at after the share cap
    cap: int  # most items any one label may hold
    cap_relaxed: bool = False  # the candidates could not satisfy the share cap at any size
    per_label: dict[str, int] = field(default_factory=dict)


def feasible_size(available: Sequence[int], target: int, max_share: float) -> int:
    """The largest set size ≤ target that can be filled with no label above `max_share`."""
    for size in range(min(target, sum(available)), 0, -1):
        cap = int(max_share * size)
        if sum(min(a, cap) for a in available) >= size:
            return size
    return 0


def _quotas(available: dict[str, int], taken: dict[str, int], size: int, cap: int) -> dict[str, int]:
    """Per-label counts summing to `size` (when possible), ≥ taken, ≤ min(available, cap),
    otherwise proportional to availability (water filling)."""
    quota = dict(taken)
    bound = {k: min(a, cap) for k, a in available.items()}
    while True:
        remaining = size - sum(quota.values())
        open_labels = [k for k in available if quota.get(k, 0) < bound[k]]
        if remaining <= 0 or not open_labels:
            return quota
        weight = sum(available[k] for k in open_labels)
        grew = False
        for k in open_labels:
            extra = min(bound[k] - quota.get(k, 0), int(remaining * available[k] / weight))
            if extra > 0:
                quota[k] = quota.get(k, 0) + extra
                grew = True
        if not grew:  # rounding left a few slots: one each to the labels with the most on offer
            for k in sorted(open_labels, key=lambda k: -available[k])[:remaining]:
                quota[k] = quota.get(k, 0) + 1


def stratified_sample(
    candidates: Sequence[T],
    label: Callable[[T], str],
    scenario: Callable[[T], str],
    target: int,
    min_per_label: int = 5,
    max_share: float = 0.4,
) -> Sampled[T]:
    """Choose up to `target` of `candidates` (best first) under the invariants above."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(candidates):
        groups[label(item)].append(i)
    available = {k: len(v) for k, v in groups.items()}
    size = feasible_size(list(available.values()), target, max_share)
    relaxed = size == 0 and bool(candidates) and target > 0
    if relaxed:
        size = min(target, len(candidates))
    cap = size if relaxed else int(max_share * size)
    chosen: set[int] = set()
    count: dict[str, int] = defaultdict(int)

    def take(i: int) -> None:
        chosen.add(i)
        count[label(candidates[i])] += 1

    for k in sorted(groups, key=lambda k: available[k]):  # scarce labels first
        for i in groups[k][: min(min_per_label, cap)]:
            if len(chosen) < size:
                take(i)
    present = {scenario(candidates[i]) for i in chosen}
    for i, item in enumerate(candidates):
        if len(chosen) >= size:
            break
        if i not in chosen and scenario(item) not in present and count[label(item)] < cap:
            take(i)
            present.add(scenario(item))
    quota = _quotas(available, dict(count), size, cap)
    for k, members in groups.items():
        for i in members:
            if count[k] >= quota.get(k, 0):
                break
            if i not in chosen:
                take(i)
    ordered = [candidates[i] for i in sorted(chosen)]
    return Sampled(ordered, size, cap, relaxed, dict(sorted(count.items())))
