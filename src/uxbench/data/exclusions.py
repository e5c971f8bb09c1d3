"""Records a person has taken out of the benchmark, with the reason, in an append-only JSONL file.

One line per exclusion: `{"cid": ..., "reason": ..., "who": ..., "when": ...}` (`when` in ISO 8601,
UTC). `uxbench explore` appends to the file; every task's `-T exclude=FILE` leaves those records
out and counts them in the log's task metadata. A cid listed twice is excluded once (the first
line's reason stands); to take an exclusion back, delete its line.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from inspect_ai.dataset import Sample

from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

_append_lock = threading.Lock()
MAX_REASON_CHARS = 10_000  # a reason is a sentence or a paragraph, not a document


@dataclass(frozen=True)
class Exclusion:
    cid: str
    reason: str
    who: str
    when: str


def read_exclusions(path: str | Path, flag: str = "exclude") -> dict[str, Exclusion]:
    """Exclusions by cid; a missing file is an error (a typo must not silently exclude nothing).
    `flag` names the file in messages (`exclude` for the tasks, `--exclude` for the explorer)."""
    path = Path(path).expanduser()
    found: dict[str, Exclusion] = {}
    for number, line in userfiles.lines(path, flag):
        try:
            raw = json.loads(line)
        except ValueError as error:
            raise DataError(f"{path}:{number}: not valid JSON ({error})") from None
        cid = raw.get("cid") if isinstance(raw, dict) else None
        if not isinstance(cid, str | int) or not str(cid).strip():
            raise DataError(f"{path}:{number}: field 'cid' missing (each line is {{cid, reason, who, when}})")
        reason = str(raw.get("reason") or "")
        if len(reason) > MAX_REASON_CHARS:
            raise DataError(f"{path}:{number}: field 'reason': {_too_long(reason)}")
        cid = str(cid).strip()
        found.setdefault(cid, Exclusion(cid, reason, str(raw.get("who") or ""), str(raw.get("when") or "")))
    return found


def _too_long(reason: str) -> str:
    return f"{len(reason):,} characters, over the cap of {MAX_REASON_CHARS:,} for a reason"


def append_exclusion(path: str | Path, cid: str, reason: str, who: str) -> Exclusion:
    """Add one exclusion line (creating the file), stamped with the current time."""
    if not reason.strip():
        raise DataError("an exclusion needs a reason")
    if len(reason.strip()) > MAX_REASON_CHARS:
        raise DataError(f"the reason is {_too_long(reason.strip())}")
    when = datetime.now(timezone.utc).isoformat(timespec="seconds")
    exclusion = Exclusion(cid, reason.strip(), who, when)
    path = Path(path).expanduser()
    with _append_lock:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(asdict(exclusion), ensure_ascii=False) + "\n")
    return exclusion


def without_excluded(samples: list[Sample], path: str | Path | None) -> tuple[list[Sample], list[str]]:
    """The samples whose cid the file does not list, and the cids left out (in sample order)."""
    if path is None:
        return samples, []
    excluded = read_exclusions(path)
    kept = [s for s in samples if str(s.id) not in excluded]
    return kept, [str(s.id) for s in samples if str(s.id) in excluded]
