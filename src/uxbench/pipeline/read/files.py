"""Stage files: JSONL written atomically, with a `.stats.json` sidecar that carries the
counts of every stage so far (each stage copies its input's counts and adds its own).

Paths may be local (or NFS) paths or fsspec URLs such as `s3://bucket/run` (through
universal_pathlib, which Inspect depends on), so a run directory can live where every node
of a cluster reaches it. A local file is written under a temporary name and renamed into
place; an object store shows an object only once it is complete, so a URL is written in place.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import yaml
from upath import UPath

from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

Location = Path | UPath


def location(path: str | os.PathLike[str]) -> Location:
    """A `Path` for a local path, a `UPath` for an fsspec URL (`s3://...`, `memory://...`)."""
    if isinstance(path, (Path, UPath)):
        return path
    return UPath(path) if "://" in str(path) else Path(path)


def stats_path(path: str | Location) -> Location:
    path = location(path)
    return path.with_name(path.name.removesuffix(".jsonl") + ".stats.json")


def numbered_lines(path: str | Location) -> Iterator[tuple[int, str]]:
    """(line number, text) of the non-blank lines of a stage file."""
    path = location(path)
    if isinstance(path, Path):  # a file the user may have named: read with the loader's hardening
        for number, line in userfiles.lines(path):
            yield number, line
        return
    try:
        handle = path.open(encoding="utf-8")
    except OSError as error:
        raise DataError(f"{path}: cannot read ({error.strerror})") from None
    with handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                yield number, line


def parse_line(path: str | Location, number: int, line: str) -> dict[str, Any]:
    """One stage file line as a JSON object (or an error naming the file and line)."""
    try:
        row = json.loads(line)
    except ValueError as error:
        raise DataError(f"{path}:{number}: not a pipeline stage file line ({error})") from None
    if not isinstance(row, dict):
        raise DataError(f"{path}:{number}: not a pipeline stage file line (not a JSON object)")
    return row


def numbered_rows(path: str | Location) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, row) of a stage file; a line that is not a JSON object names the file and line."""
    for number, line in numbered_lines(path):
        yield number, parse_line(path, number, line)


def read_rows(path: str | Location) -> Iterator[dict[str, Any]]:
    """Rows of a stage file the pipeline wrote (a broken line names the file and line)."""
    for _, row in numbered_rows(path):
        yield row


def dump(row: dict[str, Any]) -> str:
    return json.dumps(row, ensure_ascii=False) + "\n"


def naming(error: OSError, path: Location) -> OSError:
    """The error of a write (a full disk, say) with the file it was for, which messages name."""
    return OSError(error.errno, error.strerror, str(path))


class RowWriter:
    """A JSONL file that appears whole or not at all: written under a temporary name and moved
    into place when the `with` block ends without an error (a URL is written in place)."""

    def __init__(self, path: str | Location) -> None:
        self.path = location(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = isinstance(self.path, Path)
        self._target = (
            self.path.with_name(f".{self.path.name}.{os.getpid()}.partial") if self._local else self.path
        )
        self._handle = self._target.open("w", encoding="utf-8")
        self.count = 0

    def write(self, row: dict[str, Any]) -> None:
        self.write_line(dump(row))

    def write_line(self, line: str) -> None:
        """A row already in JSON (as read from a stage file, say)."""
        try:
            self._handle.write(line if line.endswith("\n") else line + "\n")
        except OSError as error:  # a full disk: say which file
            raise naming(error, self.path) from None
        self.count += 1

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if kind is None and self._local:
                self._handle.flush()
                os.fsync(self._handle.fileno())
            self._handle.close()
        except OSError as failure:  # the last rows did not fit on the disk
            kind = type(failure)
            with contextlib.suppress(OSError):
                self._handle.close()
            raise naming(failure, self.path) from None
        finally:
            if kind is not None and self._local:  # failed or interrupted: leave no partial file
                self._target.unlink(missing_ok=True)
        if kind is None and self._local:
            self._target.replace(self.path)


def write_rows(path: str | Location, rows: Iterable[dict[str, Any]]) -> int:
    """Write JSONL atomically (see RowWriter); returns the number of rows."""
    with RowWriter(path) as writer:
        for row in rows:
            writer.write(row)
    return writer.count


def write_json(path: str | Location, data: Any) -> None:
    path = location(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if not isinstance(path, Path):
        path.write_text(text, encoding="utf-8")
        return
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
    except OSError as error:  # a full disk: no partial file, and say which file
        partial.unlink(missing_ok=True)
        raise naming(error, path) from None
    partial.replace(path)


def read_stats(path: str | Location) -> dict[str, Any]:
    """The stage counts recorded beside a stage file (empty when there are none)."""
    sidecar = stats_path(path)
    if not sidecar.exists():
        return {}
    return dict(json.loads(sidecar.read_text(encoding="utf-8")))


def write_stats(
    path: str | Location, upstream: str | Location | None, stage: str, counts: dict[str, Any]
) -> dict[str, Any]:
    """Record `counts` for `stage` beside `path`, after the counts of the stages before it."""
    stats = read_stats(upstream) if upstream is not None else {}
    stats[stage] = counts
    write_json(stats_path(path), stats)
    return stats


def read_yaml(path: str | Path, flag: str) -> tuple[dict[str, Any], bytes]:
    """A YAML file of settings (a mapping) and its bytes; a problem names the flag and the file."""
    path = Path(path)
    raw = userfiles.read_bytes(path, flag)
    try:
        data = yaml.safe_load(userfiles.decode(raw, path, flag)) or {}
    except yaml.YAMLError as error:
        raise DataError(f"{flag} {path}: not a YAML file ({error})") from None
    if not isinstance(data, dict):
        raise DataError(f"{flag} {path}: expected a mapping of settings, got {type(data).__name__}")
    return data, raw
