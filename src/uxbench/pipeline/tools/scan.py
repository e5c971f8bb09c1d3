"""`uxbench pipeline scan PATH`: the personal data a finished set still holds, per kind.

Reads every file under PATH: each string of a JSON or JSONL file (keys and values), each cell
of a CSV, each JSON member of an Inspect `.eval` log (a zip), and the lines of any other text
file. Each string gets a second opinion (`privacy.wide`: libphonenumber's matcher,
detect-secrets, jieba's tags and a wider net of shapes), not the redactor's own detectors, so
what the redactor missed is found. Values are shown masked (`13…78`), never whole.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from uxbench.pipeline.privacy.wide import findings
from uxbench.runtime.errors import DataError

TEXT_SUFFIXES = {".md", ".txt", ".html", ".htm", ".yaml", ".yml", ".log", ".tsv", ".xml"}
EXAMPLES = 5  # masked examples kept per kind
# what Inspect and the pipeline make (eval_id, span_id, uuid, completed_at, a commit): no one's data
_TOOL_ID = re.compile(r"(?:^|[.:\]])(?:(?:\w+_)?(?:id|uuid)|\w+_at|commit|created|timestamp)$")


@dataclass
class ScanReport:
    found: Counter[str] = field(default_factory=Counter)  # kind → values found
    files: Counter[str] = field(default_factory=Counter)  # kind → files holding one
    examples: dict[str, list[str]] = field(default_factory=dict)  # kind → "file:where: 13…78"
    scanned: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # file → why it was not read
    strings: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "found": dict(self.found.most_common()),
            "files": dict(self.files),
            "examples": self.examples,
            "files_scanned": len(self.scanned),
            "strings_scanned": self.strings,
            "skipped": self.skipped,
        }


def mask(value: str) -> str:
    """Enough of a value to find it again, not enough to use it."""
    return f"{value[:2]}…{value[-2:]}" if len(value) > 6 else "…"


def _strings(item: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(item, str):
        yield where, item
    elif isinstance(item, dict):
        for key, value in item.items():
            yield from _strings(key, where)
            yield from _strings(value, f"{where}.{key}" if where else str(key))
    elif isinstance(item, list):
        for i, value in enumerate(item):
            yield from _strings(value, f"{where}[{i}]")


def _json_text(text: str) -> Iterator[tuple[str, str]]:
    try:
        yield from _strings(json.loads(text), "")
        return
    except json.JSONDecodeError:
        pass
    for number, line in enumerate(text.splitlines(), start=1):  # JSONL, or text that is no JSON
        try:
            yield from _strings(json.loads(line), f"line {number}")
        except json.JSONDecodeError:
            yield f"line {number}", line


def _file_strings(path: Path) -> Iterator[tuple[str, str]]:
    """(where, string) of one file; ValueError when its kind is not read."""
    suffix = path.suffix.lower()
    if suffix == ".eval":
        with zipfile.ZipFile(path) as archive:
            for member in archive.namelist():
                text = archive.read(member).decode("utf-8", "replace")
                for where, value in _json_text(text):
                    yield f"{member}:{where}", value
        return
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    if suffix in (".json", ".jsonl"):
        yield from _json_text(text)
    elif suffix == ".csv":
        for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            for cell in row:
                yield f"row {number}", cell
    elif suffix in TEXT_SUFFIXES or not suffix:
        for number, line in enumerate(text.splitlines(), start=1):
            yield f"line {number}", line
    else:
        raise ValueError(f"a {suffix} file is not read")


@lru_cache(maxsize=1 << 16)
def _spans(value: str) -> tuple[tuple[int, int, str], ...]:
    """Logs repeat their strings (keys, the prompt in every event): each is read once."""
    return tuple(findings(value)) if len(value) >= 4 else ()


def scan_file(path: Path, report: ScanReport, label: str | None = None) -> None:
    label = label or str(path)
    kinds: set[str] = set()
    try:
        for where, value in _file_strings(path):
            report.strings += 1
            if _TOOL_ID.search(where):
                continue
            for start, end, kind in _spans(value):
                report.found[kind] += 1
                kinds.add(kind)
                examples = report.examples.setdefault(kind, [])
                if len(examples) < EXAMPLES:
                    examples.append(f"{label}:{where}: {mask(value[start:end])}")
    except (ValueError, zipfile.BadZipFile, OSError) as error:
        report.skipped[label] = str(error) or type(error).__name__
        return
    report.scanned.append(label)
    report.files.update(kinds)


def scan(path: str | Path) -> ScanReport:
    """The personal data in a file, or in every file under a directory."""
    root = Path(path)
    if not root.exists():
        raise DataError(f"{root}: no such file or directory")
    report = ScanReport()
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
    for file in files:
        scan_file(file, report, str(file.relative_to(root)) if file != root else str(file))
    return report


def render(report: ScanReport, path: str | Path) -> str:
    lines = [f"scanned {len(report.scanned)} files ({report.strings:,} strings) under {path}"]
    if report.skipped:
        lines.append(f"not read: {len(report.skipped)} files ({', '.join(sorted(report.skipped)[:5])} …)")
    if not report.found:
        lines.append("no personal data found")
        return "\n".join(lines)
    lines += ["", "| kind | found | files | examples (masked) |", "|---|---:|---:|---|"]
    for kind, n in report.found.most_common():
        shown = "<br>".join(report.examples.get(kind, []))
        lines.append(f"| {kind} | {n} | {report.files[kind]} | {shown} |")
    return "\n".join(lines)
