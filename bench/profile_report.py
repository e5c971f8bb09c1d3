"""Where a profiled run's CPU went, from a py-spy raw (collapsed stacks) file.

    py-spy record -r 50 -f raw -o run.txt -- python -m inspect_ai eval ...
    python bench/profile_report.py run.txt

Each sample is charged to an owner: start-up imports, our package (`uxbench/`) when the
innermost owned frame is ours, otherwise the innermost `inspect_ai` module, otherwise
"runtime" (event loop, threads, libraries with no owner frame on the stack). Samples of
threads parked in a wait are dropped: py-spy counts some of them as active.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

_WAITING = re.compile(
    r"^(?:_worker \(concurrent/futures/thread|Condition\.wait|Event\.wait|wait \(threading)"
)
_LINE = re.compile(r":\d+\)$")


def _owner(frames: list[str]) -> str:
    if any(frame.startswith("_find_and_load ") for frame in frames):
        return "start-up imports"
    for frame in reversed(frames):
        path = frame[frame.rfind("(") + 1 :]
        if path.startswith("uxbench/") or "/uxbench/" in path:
            return "uxbench (ours)"
        if path.startswith("inspect_ai/") or "/inspect_ai/" in path:
            module = _LINE.sub("", path).removeprefix("inspect_ai/")
            return "inspect_ai/" + "/".join(module.split("/")[:2])
    return "runtime (event loop, threads, libraries)"


def owners(path: Path) -> Counter[str]:
    """Sample counts per owner."""
    counts: Counter[str] = Counter()
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, number = line.rpartition(" ")
        frames = stack.split(";")
        if not number.isdigit() or _WAITING.match(frames[-1]):
            continue
        counts[_owner(frames)] += int(number)
    return counts


def summarise(path: Path, top: int = 12) -> dict[str, float]:
    """Percent of active samples per owner: ours, imports, runtime, and the top Inspect modules."""
    counts = owners(path)
    total = sum(counts.values()) or 1
    shares = {name: round(100 * n / total, 1) for name, n in counts.most_common()}
    summary = {k: v for k, v in shares.items() if not k.startswith("inspect_ai/")}
    summary["inspect_ai (all)"] = round(sum(v for k, v in shares.items() if k.startswith("inspect_ai/")), 1)
    summary.update([(k, v) for k, v in shares.items() if k.startswith("inspect_ai/")][:top])
    summary["samples"] = total
    return summary


if __name__ == "__main__":
    for name, share in summarise(
        Path(sys.argv[1]), top=int(sys.argv[2]) if len(sys.argv) > 2 else 12
    ).items():
        print(f"{share:>8} {name}")
