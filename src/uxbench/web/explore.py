"""`uxbench explore DATA`: browse the four sets, and exclude records with a reason.

Any `-T data=` source works (hub, sample, a directory, one file). The page counts records by
set, failure dimension, success pattern, scenario and difficulty (each count under the other
filters), filters and searches them, shows a record's conversation as chat, and appends an
exclusion (cid, reason, who, when) to the exclusion file that the tasks read with
`-T exclude=FILE`. Records that cannot be used are listed, not dropped silently.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from uxbench.data.dataset import Row, TaskName, data_source, record_hash, source_rows
from uxbench.data.exclusions import Exclusion, append_exclusion, applying, read_exclusions
from uxbench.data.labels import DIFFICULTIES, english
from uxbench.data.records import (
    EvalRecord,
    JudgeRecord,
    RecordError,
    RecoveryRecord,
    Turn,
    eval_record,
    judge_record,
    recovery_record,
)
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError
from uxbench.web.server import BAD_REQUEST_HANDLERS, json_object, static_dir

SETS = {
    "task1_good": "Task 1 · liked",
    "task1_bad": "Task 1 · disliked",
    "task2": "Task 2 · eval",
    "task3": "Task 3 · recovery",
}
FACETS = ("set", "failure_dimension", "success_pattern", "scenario", "difficulty")
NONE = "(none)"
PAGE = 50


@dataclass(frozen=True)
class Entry:
    """One record as the explorer shows it: its set, labels and conversation (the last turns marked)."""

    set: str
    cid: str
    turns: list[dict[str, str]]
    labels: dict[str, Any]
    text: str = field(repr=False)  # lowercased, for search
    record_hash: str = ""  # written with an exclusion, so it never removes another source's record

    @property
    def key(self) -> str:
        return f"{self.set}:{self.cid}"

    def facet(self, name: str) -> str:
        value = self.set if name == "set" else self.labels.get(name)
        return NONE if value in (None, "") else str(value)


def _chat(history: Iterable[Turn], *tail: tuple[str, str, str]) -> list[dict[str, str]]:
    turns = [{"role": t.role, "text": t.content, "mark": ""} for t in history]
    return turns + [{"role": role, "text": text, "mark": mark} for role, text, mark in tail]


def task_of(raw: dict[str, Any]) -> TaskName:
    """Which task a lone file's record belongs to, by the fields only that task has."""
    if "failed_response" in raw:
        return "task3"
    if "agent_response_full" in raw or "response" in raw:
        return "task1"
    return "task2"


def entry(task: TaskName, row: Row) -> Entry:
    """A raw row as an Entry; RecordError when the task's normaliser rejects it."""
    raw = row.raw or {}
    record: JudgeRecord | EvalRecord | RecoveryRecord
    if task == "task1":
        record = j = judge_record(raw, row.file_label)
        turns = _chat(j.history, ("user", j.query, "query"), ("assistant", j.response, "judged reply"))
        name = "task1_good" if j.liked else "task1_bad"
    elif task == "task2":
        record = e = eval_record(raw)
        turns = _chat(e.history, ("user", e.query, "query"))
        name = "task2"
    else:
        record = r = recovery_record(raw)
        failed = ("assistant", r.failed_response, "failed reply")
        turns = _chat(r.history, failed, ("user", r.complaint, "complaint"))
        name = "task3"
    text = " ".join([record.cid, *(t["text"] for t in turns)]).lower()
    return Entry(name, record.cid, turns, record.labels, text, record_hash(record))


def load_entries(data: str, revision: str | None = None) -> tuple[list[Entry], list[str]]:
    """Every usable record of the source, and a line per record or set that could not be read."""
    entries: list[Entry] = []
    problems: list[str] = []
    lone_file = data not in ("hub", "sample") and Path(data).expanduser().is_file()
    for task in ("task1",) if lone_file else ("task1", "task2", "task3"):
        try:
            rows = list(source_rows(task, data, revision))
        except DataError as error:  # a set the source lacks; the same message for each set is said once
            if str(error) not in problems:
                problems.append(str(error))
            continue
        for row in rows:
            cid = str((row.raw or {}).get("cid") or "?")
            try:
                if row.problem:
                    raise RecordError("-", row.problem)
                entries.append(entry(task_of(row.raw or {}) if lone_file else task, row))
            except RecordError as error:
                problems.append(f"{row.source}:{row.line} (cid {cid}): {row.problem or error}")
    if not entries:
        raise DataError(f"data={data!r} holds no usable records" + "".join(f"\n  {p}" for p in problems[:10]))
    return entries, problems


def _facet_order(name: str) -> Callable[[tuple[str, int]], tuple[int, int, str]]:
    """Sets and difficulties in their own order, other labels by count (most first)."""
    fixed = {"set": list(SETS), "difficulty": [*DIFFICULTIES, NONE]}.get(name)
    if fixed is None:
        return lambda item: (0, -item[1], item[0])
    return lambda item: (fixed.index(item[0]) if item[0] in fixed else len(fixed), 0, item[0])


class Explorer:
    """The records, the exclusion file and who is excluding: the page's queries as plain methods."""

    def __init__(
        self, entries: list[Entry], problems: list[str], exclude: Path, who: str, source: str
    ) -> None:
        self.entries = entries
        self.by_key = {e.key: e for e in entries}
        self.problems = problems
        self.exclude = exclude
        self.who = who
        self.source = source
        self._lock = threading.Lock()
        self.data = data_source(source)
        hashes = {e.cid: e.record_hash for e in entries}
        found = read_exclusions(exclude, "--exclude") if userfiles.check_path(exclude, "--exclude") else {}
        self.excluded: dict[str, Exclusion] = applying(found, self.data, hashes)

    def summary(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "records": len(self.entries),
            "exclude_file": str(self.exclude),
            "who": self.who,
            "sets": SETS,
            "problems": self.problems[:200],
            "problem_count": len(self.problems),
        }

    def _matches(
        self, e: Entry, filters: dict[str, str], words: list[str], excluded: str, skip: str = ""
    ) -> bool:
        if any(e.facet(name) != value for name, value in filters.items() if name != skip):
            return False
        if excluded == "hide" and e.cid in self.excluded or excluded == "only" and e.cid not in self.excluded:
            return False
        return all(w in e.text for w in words)

    def query(self, params: dict[str, str]) -> dict[str, Any]:
        """Records under the filters (`FACETS`, `excluded`=all|hide|only, `q` words), a page of them,
        and per facet the counts under every other filter."""
        filters = {name: params[name] for name in FACETS if params.get(name)}
        words = params.get("q", "").lower().split()
        excluded = params.get("excluded", "all")
        offset = max(0, int(params.get("offset") or 0))
        with self._lock:
            hits = [e for e in self.entries if self._matches(e, filters, words, excluded)]
            counts = {
                name: [
                    [value, n, SETS.get(value) or english(value)]
                    for value, n in sorted(
                        Counter(
                            e.facet(name)
                            for e in self.entries
                            if self._matches(e, filters, words, excluded, skip=name)
                        ).items(),
                        key=_facet_order(name),
                    )
                ]
                for name in FACETS
            }
            items = [self._brief(e) for e in hits[offset : offset + PAGE]]
        return {"total": len(hits), "offset": offset, "page": PAGE, "counts": counts, "items": items}

    def _brief(self, e: Entry) -> dict[str, Any]:
        last = next((t["text"] for t in reversed(e.turns) if t["mark"]), "")
        return {
            "key": e.key,
            "cid": e.cid,
            "set": e.set,
            "preview": last[:160],
            "labels": {name: e.facet(name) for name in FACETS[1:]},
            "excluded": e.cid in self.excluded,
        }

    def record(self, key: str) -> dict[str, Any] | None:
        e = self.by_key.get(key)
        if e is None:
            return None
        with self._lock:
            exclusion = self.excluded.get(e.cid)
        return {
            "key": e.key,
            "cid": e.cid,
            "set": e.set,
            "turns": e.turns,
            "labels": {k: v for k, v in e.labels.items() if v not in (None, "", [])},
            "exclusion": None if exclusion is None else exclusion.as_line(),
        }

    def exclude_record(self, cid: str, reason: str) -> Exclusion:
        found = next((e for e in self.entries if e.cid == cid), None)
        if found is None:
            raise DataError(f"no record has cid {cid!r}")
        with self._lock:
            if cid in self.excluded:
                return self.excluded[cid]
            exclusion = append_exclusion(self.exclude, cid, reason, self.who, self.data, found.record_hash)
            self.excluded[cid] = exclusion
            return exclusion


def explore_app(explorer: Explorer) -> Starlette:
    """The page and its JSON API: summary, records (filtered), record, exclude."""

    async def page(request: Request) -> Response:
        return FileResponse(static_dir() / "explore.html")

    async def summary(request: Request) -> Response:
        return JSONResponse(explorer.summary())

    async def records(request: Request) -> Response:
        return JSONResponse(explorer.query(dict(request.query_params)))

    async def record(request: Request) -> Response:
        found = explorer.record(request.query_params.get("key", ""))
        return JSONResponse(found or {"error": "no such record"}, status_code=200 if found else 404)

    async def exclude(request: Request) -> Response:
        body = await json_object(request)
        try:
            exclusion = explorer.exclude_record(str(body.get("cid", "")), str(body.get("reason", "")))
        except DataError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse(exclusion.__dict__)

    return Starlette(
        exception_handlers=BAD_REQUEST_HANDLERS,
        routes=[
            Route("/", page),
            Route("/api/summary", summary),
            Route("/api/records", records),
            Route("/api/record", record),
            Route("/api/exclude", exclude, methods=["POST"]),
            Mount("/static", StaticFiles(directory=static_dir()), name="static"),
        ],
    )
