"""The judging desk: items waiting for a person's verdict, and the page that shows them one at a time.

Inspect asks `uxbench/human` for a verdict per sample; each request becomes an `Item` on the
desk, and its future resolves with the person's `Answer`. The last answer is held back, so it
can still be undone, for as long as the person is looking at another item; when nothing else is
waiting (the last item, or `--max-connections 1`) it is sent after `undo_seconds`, or at once
with "send now". Pausing sends the held answer and fails every waiting item with `Paused`, which
ends the run with those samples unanswered for `inspect eval-retry` — but only once every
answered sample has been logged (`sample_ended`): a run torn down earlier would drop a sample
whose answer was just sent, still being scored.

The desk is plain threaded Python (the provider waits on it from Inspect's event loop, the page
from uvicorn's), so its rules are tested without a browser.
"""

from __future__ import annotations

import itertools
import shlex
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from uxbench.data.assignment import guidelines_hash
from uxbench.web.server import BAD_REQUEST_HANDLERS, BadRequest, json_object, static_dir

_ids = itertools.count(1)
PAUSE_WAIT = 30.0  # seconds a pause waits for answered samples to be logged before ending the run


class Paused(RuntimeError):
    """The person paused the run; the sample is left for `inspect eval-retry`."""


@dataclass(frozen=True)
class Answer:
    label: str | None  # None: skipped
    seconds: float  # time the item was on screen before this answer


@dataclass
class Run:
    """One eval as the desk knows it: its planned (sample id, epoch) order and how it ended."""

    planned: list[tuple[str, int]] = field(default_factory=list)
    location: str | None = None
    status: str | None = None  # set when the run has ended


@dataclass
class Item:
    view: dict[str, Any]  # what the page shows: conversation, reply, answers (JSON-ready)
    eval_id: str | None
    number: int  # neutral position in the run (1-based), never the record's cid
    total: int | None
    sample: tuple[str | None, int] = (None, 1)  # (sample id, epoch): to know when it is logged
    id: int = field(default_factory=lambda: next(_ids))
    future: Future[Answer] = field(default_factory=Future)
    shown: float | None = None  # when it became the item on screen
    spent: float = 0.0  # seconds on screen before an undone answer


class Desk:
    """Thread-safe queue of items for one annotator, with hold-back, undo and pause."""

    def __init__(self, annotator: str, undo_seconds: float = 4.0, guidelines: str | None = None) -> None:
        self.annotator = annotator
        self.undo_seconds = undo_seconds
        self.guidelines = guidelines
        self.guidelines_sha = guidelines_hash(guidelines) if guidelines is not None else None
        self._read_guidelines = guidelines is None  # the first item waits until they are read
        self._changed = threading.Condition()
        self._version = 0
        self._queue: list[Item] = []
        self._held: tuple[Item, Answer] | None = None
        self._deadline: float | None = None
        self._timer: threading.Timer | None = None
        self._runs: dict[str, Run] = {}
        self._paused: set[str | None] = set()
        self._stopping: list[Item] = []  # paused items, failed once every answered sample is logged
        self._unlogged: set[tuple[str | None, str | None, int]] = set()  # answered, not yet logged
        self._pause_timer: threading.Timer | None = None
        self._pause_command: str | None = None  # set while the page should say it is paused
        self._counter = 0  # numbers items when no run plan is known
        self._closed = False  # the page's server is going away: the page stops asking
        self.sent = 0  # answers handed to Inspect by this desk

    # ------------------------------------------------------------ runs (from Inspect's hooks)

    def run_started(self, eval_id: str, planned: list[tuple[str, int]]) -> None:
        with self._changed:
            self._runs[eval_id] = Run(planned)
            self._pause_command = None
            self._closed = False
            self._bump()

    def run_ended(self, eval_id: str, status: str, location: str | None) -> None:
        with self._changed:
            self._unlogged = {key for key in self._unlogged if key[0] != eval_id}
            self._fail_stopping()
            if eval_id in self._runs:
                self._runs[eval_id].status = status
                self._runs[eval_id].location = location or self._runs[eval_id].location
                # the last run over: `inspect eval` exits and takes the page's server with it
                self._closed = all(run.status is not None for run in self._runs.values())
                self._bump()

    def paused(self, eval_id: str) -> bool:
        """Whether the person paused this run (its log is then tidied: `providers.paused`)."""
        with self._changed:
            return eval_id in self._paused

    def sample_ended(self, eval_id: str, sample_id: str, epoch: int) -> None:
        """A sample is in the log; once no answered one is left, the paused items can fail."""
        with self._changed:
            self._unlogged.discard((eval_id, sample_id, epoch))
            self._fail_stopping()

    # ------------------------------------------------------------ the provider's side

    def add(
        self,
        view: dict[str, Any],
        eval_id: str | None = None,
        sample_id: str | None = None,
        epoch: int = 1,
        location: str | None = None,
    ) -> Item:
        """Queue a request; in a run the person paused it fails with `Paused` (see `pause`)."""
        with self._changed:
            run = self._runs.setdefault(eval_id, Run()) if eval_id is not None else None
            if run is not None and location:
                run.location = location
            number, total = self._position(run, sample_id, epoch)
            item = Item(view, eval_id, number, total, (sample_id, epoch))
            if eval_id in self._paused:
                self._stopping.append(item)
                self._fail_stopping()
                return item
            self._queue.append(item)
            if len(self._queue) == 1:
                item.shown = time.monotonic()
            self._stop_timer()  # the held answer now waits until the person moves on
            self._bump()
            return item

    def withdraw(self, item: Item) -> None:
        """Forget an item whose request ended without an answer (cancelled or paused)."""
        with self._changed:
            if item in self._queue:
                self._queue.remove(item)
                self._show_next()
                self._bump()
            if item in self._stopping:
                self._stopping.remove(item)
            item.future.cancel()

    # ------------------------------------------------------------ the person's side

    def read_guidelines(self) -> None:
        """The person has read the guidelines: the items show, the first one's clock starts now."""
        with self._changed:
            if not self._read_guidelines:
                self._read_guidelines = True
                if self._queue:
                    self._queue[0].shown = time.monotonic()
                self._bump()

    def answer(self, item_id: int, label: str | None) -> bool:
        """Answer the item on screen (None: skip); False when the page showed another item."""
        with self._changed:
            if not self._read_guidelines or not self._queue or self._queue[0].id != item_id:
                return False
            if label is not None and label not in {a["label"] for a in self._queue[0].view["answers"]}:
                return False
            item = self._queue.pop(0)
            self._send_held()
            spent = item.spent + time.monotonic() - (item.shown or time.monotonic())
            self._held = (item, Answer(label, spent))
            self._show_next()
            if not self._queue:
                self._start_timer()
            self._bump()
            return True

    def undo(self) -> bool:
        """Take back the held answer and show its item again."""
        with self._changed:
            if self._held is None:
                return False
            item, answer = self._held
            self._held = None
            self._stop_timer()
            if self._queue:  # the item on screen steps back; its time so far is kept
                self._queue[0].spent += time.monotonic() - (self._queue[0].shown or time.monotonic())
                self._queue[0].shown = None
            item.spent = answer.seconds
            item.shown = time.monotonic()
            self._queue.insert(0, item)
            self._bump()
            return True

    def send_now(self) -> None:
        with self._changed:
            self._send_held()
            self._bump()

    def pause(self) -> None:
        """Send the held answer, then fail every waiting item and the paused runs' next requests.

        The failures wait until every answered sample is logged (or `PAUSE_WAIT` seconds): the
        first `Paused` ends the run, and a sample still being scored would be lost with it.
        """
        with self._changed:
            self._send_held()
            runs = {eval_id for eval_id, run in self._runs.items() if run.status is None}
            runs |= {item.eval_id for item in self._queue}
            self._paused |= runs
            first = next((r for r in runs if r is not None and self._runs[r].location), None)
            self._stopping.extend(self._queue)
            self._queue.clear()
            self._pause_command = self._resume_command(first)
            if self._unlogged and self._pause_timer is None:
                self._pause_timer = threading.Timer(PAUSE_WAIT, self._stop_now)
                self._pause_timer.daemon = True
                self._pause_timer.start()
            self._fail_stopping()
            self._bump()

    def close(self) -> None:
        """Tell the page its server is about to stop (its eval ended or paused), so that it stops
        polling instead of reporting a lost connection (a resumed run prints a new link)."""
        with self._changed:
            self._closed = True
            self._bump()

    # ------------------------------------------------------------ what the page reads

    def state(self) -> dict[str, Any]:
        with self._changed:
            return self._state()

    def wait_state(self, version: int, timeout: float) -> dict[str, Any]:
        """The state once it differs from `version` (or after `timeout` seconds): a long poll."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != version, timeout)
            return self._state()

    # ------------------------------------------------------------ internals (lock held)

    def _state(self) -> dict[str, Any]:
        item = self._queue[0] if self._queue else None
        held = None
        if self._held is not None:
            held_item, answer = self._held
            spelled = {a["label"]: a["spelling"] for a in held_item.view["answers"]}
            held = {
                "number": held_item.number,
                "total": held_item.total,
                "label": answer.label,
                "spelling": spelled.get(answer.label or "", ""),
                "sends_in": None if self._deadline is None else max(0.0, self._deadline - time.monotonic()),
            }
        ended = [
            {"status": run.status, "location": run.location} for run in self._runs.values() if run.status
        ]
        return {
            "version": self._version,
            "annotator": self.annotator,
            "item": None
            if item is None
            else {"id": item.id, "number": item.number, "total": item.total, **item.view},
            "held": held,
            "sent": self.sent,
            "guidelines": None
            if self.guidelines_sha is None
            else {"sha256": self.guidelines_sha, "read": self._read_guidelines},
            "paused": self._pause_command,
            "running": sum(1 for run in self._runs.values() if run.status is None),
            "ended": ended,
            "closed": self._closed,
        }

    def _position(self, run: Run | None, sample_id: str | None, epoch: int) -> tuple[int, int | None]:
        self._counter += 1
        if run is None or not run.planned:
            return self._counter, None
        try:
            return run.planned.index((str(sample_id), epoch)) + 1, len(run.planned)
        except ValueError:
            return self._counter, len(run.planned)

    def _resume_command(self, eval_id: str | None) -> str:
        run = self._runs.get(eval_id) if eval_id is not None else None
        if run is None or not run.location:
            return "inspect eval-retry <the log file> --log-dir <its directory>"
        log = Path(run.location).resolve()
        # without --log-dir, eval-retry writes the new log to ./logs, wherever the person stands
        return f"inspect eval-retry {shlex.quote(str(log))} --log-dir {shlex.quote(str(log.parent))}"

    def _pause_message(self, eval_id: str | None) -> str:
        return (
            f"paused by {self.annotator}; the answers given so far are in the log. "
            f"Resume with: {self._resume_command(eval_id)}"
        )

    def _fail_stopping(self, force: bool = False) -> None:
        if self._unlogged and not force:
            return
        for item in self._stopping:
            if not item.future.done():
                item.future.set_exception(Paused(self._pause_message(item.eval_id)))
        self._stopping.clear()
        if self._pause_timer is not None:
            self._pause_timer.cancel()
            self._pause_timer = None

    def _stop_now(self) -> None:
        with self._changed:
            self._fail_stopping(force=True)

    def _show_next(self) -> None:
        if self._queue and self._queue[0].shown is None:
            self._queue[0].shown = time.monotonic()

    def _send_held(self) -> None:
        if self._held is None:
            return
        item, answer = self._held
        self._held = None
        self._stop_timer()
        if not item.future.done():
            if item.eval_id is not None and item.sample[0] is not None:
                self._unlogged.add((item.eval_id, item.sample[0], item.sample[1]))
            item.future.set_result(answer)
            self.sent += 1

    def _start_timer(self) -> None:
        self._deadline = time.monotonic() + self.undo_seconds
        self._timer = threading.Timer(self.undo_seconds, self._timer_fired)
        self._timer.daemon = True
        self._timer.start()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._deadline = None

    def _timer_fired(self) -> None:
        with self._changed:
            if threading.current_thread() is self._timer:  # not a timer stopped meanwhile
                self._send_held()
                self._bump()

    def _bump(self) -> None:
        self._version += 1
        self._changed.notify_all()


def judging_app(desk: Desk) -> Starlette:
    """The page and its JSON API: GET /api/state (long poll with ?since=), POST answer/undo/send/pause,
    GET /api/guidelines (their text) and POST it (read: the items show)."""

    async def page(request: Request) -> Response:
        return FileResponse(static_dir() / "judge.html")

    async def state(request: Request) -> Response:
        since = request.query_params.get("since")
        if since is None or not since.lstrip("-").isdigit():
            return JSONResponse(desk.state())
        snapshot = await anyio.to_thread.run_sync(desk.wait_state, int(since), 20.0, abandon_on_cancel=True)
        return JSONResponse(snapshot)

    async def answer(request: Request) -> Response:
        body = await json_object(request)
        label, item = body.get("label"), body.get("item", -1)
        if not isinstance(item, int) or isinstance(item, bool):
            raise BadRequest(f"field 'item' must be an item number, got {item!r:.40}")
        accepted = desk.answer(item, None if label == "skip" else str(label))
        return JSONResponse({"accepted": accepted, **desk.state()}, status_code=200 if accepted else 409)

    async def undo(request: Request) -> Response:
        desk.undo()
        return JSONResponse(desk.state())

    async def send(request: Request) -> Response:
        desk.send_now()
        return JSONResponse(desk.state())

    async def pause(request: Request) -> Response:
        desk.pause()
        return JSONResponse(desk.state())

    async def guidelines(request: Request) -> Response:
        if request.method == "POST":
            desk.read_guidelines()
            return JSONResponse(desk.state())
        return JSONResponse({"text": desk.guidelines})

    return Starlette(
        exception_handlers=BAD_REQUEST_HANDLERS,
        routes=[
            Route("/", page),
            Route("/api/state", state),
            Route("/api/answer", answer, methods=["POST"]),
            Route("/api/undo", undo, methods=["POST"]),
            Route("/api/send", send, methods=["POST"]),
            Route("/api/pause", pause, methods=["POST"]),
            Route("/api/guidelines", guidelines, methods=["GET", "POST"]),
            Mount("/static", StaticFiles(directory=static_dir()), name="static"),
        ],
    )
