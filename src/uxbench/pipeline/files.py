"""Stage files: JSONL written atomically, with a `.stats.json` sidecar that carries the
counts of every stage so far (each stage copies its input's counts and adds its own)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import yaml

from uxbench.errors import DataError


def stats_path(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(path.name.removesuffix(".jsonl") + ".stats.json")


def read_rows(path: str | Path) -> Iterator[dict[str, Any]]:
    """Rows of a stage file the pipeline wrote (a broken line names the file and line)."""
    for _, row in numbered_rows(path):
        yield row


def numbered_rows(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, row) of a stage file; a line that is not a JSON object names the file and line."""
    path = Path(path)
    try:
        handle = path.open(encoding="utf-8")
    except OSError as error:
        raise DataError(f"{path}: cannot read ({error.strerror})") from None
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as error:
                raise DataError(f"{path}:{number}: not a pipeline stage file line ({error})") from None
            if not isinstance(row, dict):
                raise DataError(f"{path}:{number}: not a pipeline stage file line (not a JSON object)")
            yield number, row


def write_rows(path: str | Path, rows: Iterable[dict[str, Any]]) -> int:
    """Write JSONL to a temporary name and move it into place, so a crash leaves no half file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    count = 0
    try:
        with partial.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
                count += 1
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:  # the rows' producer failed or was interrupted: leave no partial file
        partial.unlink(missing_ok=True)
        raise
    partial.replace(path)
    return count


def write_json(path: str | Path, data: Any) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    partial.replace(path)


def read_stats(path: str | Path) -> dict[str, Any]:
    """The stage counts recorded beside a stage file (empty when there are none)."""
    sidecar = stats_path(path)
    if not sidecar.exists():
        return {}
    return dict(json.loads(sidecar.read_text(encoding="utf-8")))


def write_stats(
    path: str | Path, upstream: str | Path | None, stage: str, counts: dict[str, Any]
) -> dict[str, Any]:
    """Record `counts` for `stage` beside `path`, after the counts of the stages before it."""
    stats = read_stats(upstream) if upstream is not None else {}
    stats[stage] = counts
    write_json(stats_path(path), stats)
    return stats


def read_yaml(path: str | Path, flag: str) -> tuple[dict[str, Any], bytes]:
    """A YAML file of settings (a mapping) and its bytes; a problem names the flag and the file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        data = yaml.safe_load(raw.decode("utf-8")) or {}
    except OSError as error:
        raise DataError(f"{flag} {path}: cannot read ({error.strerror})") from None
    except (UnicodeDecodeError, yaml.YAMLError) as error:
        raise DataError(f"{flag} {path}: not a YAML file ({error})") from None
    if not isinstance(data, dict):
        raise DataError(f"{flag} {path}: expected a mapping of settings, got {type(data).__name__}")
    return data, raw
