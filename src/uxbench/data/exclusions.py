"""Records a person has taken out of the benchmark, with the reason, in an append-only JSONL file.

One line per exclusion: `{"cid", "reason", "who", "when", "data", "record_hash"}` (`when` in ISO
8601, UTC; `data` the source it was made on: sample, hub or local; `record_hash` the hash of the
record as it was shown, see `uxbench.data.dataset.record_hash`). `uxbench explore` appends to the
file; every task's `-T exclude=FILE` leaves those records out and counts them in the log's task
metadata. A line removes a record only when its source and hash agree with the record's: one cid
can name different records in different sources or versions, so a mismatch is a warning naming
the line, never a silent removal. Lines written before sources and hashes were recorded match by
cid, with a one-time note. A cid listed
twice is excluded once (the first line's reason stands); to take an exclusion back, delete its line.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from inspect_ai.dataset import Sample

from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

logger = logging.getLogger(__name__)
_append_lock = threading.Lock()
MAX_REASON_CHARS = 10_000  # a reason is a sentence or a paragraph, not a document


@dataclass(frozen=True)
class Exclusion:
    cid: str
    reason: str
    who: str
    when: str
    data: str = ""  # the source it was made on (sample, hub, local); "" on old lines
    record_hash: str = ""  # the record's hash when it was excluded; "" on old lines
    where: str = field(default="", compare=False)  # file:line, for messages

    def as_line(self) -> dict[str, str]:
        fields = ("cid", "reason", "who", "when", "data", "record_hash")
        return {name: getattr(self, name) for name in fields}

    def mismatch(self, data: str, record_hash: str) -> str | None:
        """Why this line does not name the record of `data` with `record_hash`, or None."""
        if self.data and self.data != data:
            return f"made on data={self.data}, this run reads data={data}"
        if self.record_hash and record_hash and self.record_hash != record_hash:
            return f"made on another version of the record (hash {self.record_hash}, now {record_hash})"
        return None


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
        text = {name: str(raw.get(name) or "") for name in ("who", "when", "data", "record_hash")}
        found.setdefault(cid, Exclusion(cid, reason, **text, where=f"{path}:{number}"))
    return found


def _too_long(reason: str) -> str:
    return f"{len(reason):,} characters, over the cap of {MAX_REASON_CHARS:,} for a reason"


def append_exclusion(
    path: str | Path, cid: str, reason: str, who: str, data: str = "", record_hash: str = ""
) -> Exclusion:
    """Add one exclusion line (creating the file), stamped with the current time."""
    if not reason.strip():
        raise DataError("an exclusion needs a reason")
    if len(reason.strip()) > MAX_REASON_CHARS:
        raise DataError(f"the reason is {_too_long(reason.strip())}")
    when = datetime.now(UTC).isoformat(timespec="seconds")
    exclusion = Exclusion(cid, reason.strip(), who, when, data, record_hash)
    path = Path(path).expanduser()
    with _append_lock:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(exclusion.as_line(), ensure_ascii=False) + "\n")
    return exclusion


def applying(
    exclusions: Mapping[str, Exclusion], data: str, hashes: Mapping[str, str]
) -> dict[str, Exclusion]:
    """The exclusions that name records of `data` (cid -> record hash): a line made on another
    source or another version of the record is a warning naming the line; lines without a
    source or hash (older files) match by cid, with one note."""
    found: dict[str, Exclusion] = {}
    unstamped = 0
    for cid, exclusion in exclusions.items():
        if cid not in hashes:
            continue
        problem = exclusion.mismatch(data, hashes[cid])
        if problem:
            logger.warning("uxbench: %s: cid %s is not excluded: %s", exclusion.where, cid, problem)
            continue
        unstamped += not (exclusion.data and exclusion.record_hash)
        found[cid] = exclusion
    if unstamped:
        where = next(iter(exclusions.values())).where.rsplit(":", 1)[0]
        logger.warning(
            "uxbench: %s: %d line(s) without a data source or record hash (an older uxbench explore) "
            "match by cid only",
            where,
            unstamped,
        )
    return found


def without_excluded(
    samples: list[Sample], path: str | Path | None, data: str = ""
) -> tuple[list[Sample], list[str]]:
    """The samples the file excludes left out (see `applying`), and the cids left out (in sample order)."""
    if path is None:
        return samples, []
    hashes = {str(s.id): str((s.metadata or {}).get("record_hash", "")) for s in samples}
    excluded = applying(read_exclusions(path), data, hashes)
    kept = [s for s in samples if str(s.id) not in excluded]
    return kept, [str(s.id) for s in samples if str(s.id) in excluded]
