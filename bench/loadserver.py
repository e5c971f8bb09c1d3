"""An asyncio OpenAI-compatible server for load and fault runs.

`helpers.localserver` (a thread per connection) is enough for unit tests; at hundreds of
concurrent connections a benchmark needs a server whose own cost is negligible, so this
one speaks just enough HTTP/1.1 (keep-alive, Content-Length bodies) on a single event
loop, and measures its CPU. It reuses localserver's `Reply` and response bodies, adds
a deterministic responder that plays both the model under test and the GRM grader, and
injects faults at given rates: 429 with Retry-After, 500/503, hangs past the client's
timeout, dropped connections, malformed JSON and grader replies without logprobs.

    python bench/loadserver.py --port 8765 --latency 2 --faults 429=0.05,500=0.02

runs it standalone until SIGINT/SIGTERM, then prints its counters as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import signal
import sys
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

# the corpora and servers the tests use live in tests/helpers
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.localserver import Reply, Responder, completion_body  # noqa: E402

# Fault names as written on the command line (`--faults 429=0.05,drop=0.01`).
FAULT_NAMES = ("429", "500", "503", "timeout", "drop", "malformed", "no_logprobs")
# Marker of a Task 1 judging prompt: the built-in templates list the options as 好 / 差.
VERDICT_MARKER = "好 / 差"
_FILLER = "这是模拟的回复内容，用来让日志和解析的工作量接近真实的回答。" * 80


@dataclass(frozen=True)
class Faults:
    """Per-request fault probabilities (each in [0, 1], summed at most 1) and their knobs."""

    rate_429: float = 0.0
    rate_500: float = 0.0
    rate_503: float = 0.0
    rate_timeout: float = 0.0
    rate_drop: float = 0.0
    rate_malformed: float = 0.0
    rate_no_logprobs: float = 0.0  # applies to grader requests only
    retry_after: float = 1.0  # seconds, sent with 429 and 503
    hang: float = 30.0  # seconds a timeout fault holds the request before dropping it
    once: bool = False  # fault each distinct request at most once, so its first retry succeeds
    seed: int = 0

    @classmethod
    def parse(cls, spec: str, **knobs: Any) -> Faults:
        """`429=0.05,500=0.01,timeout=0.01` → Faults; unknown names are an error."""
        rates: dict[str, float] = {}
        for item in filter(None, (part.strip() for part in spec.split(","))):
            name, _, value = item.partition("=")
            if name not in FAULT_NAMES:
                raise ValueError(f"unknown fault {name!r}; choose from {', '.join(FAULT_NAMES)}")
            rates[f"rate_{name}"] = float(value)
        faults = cls(**rates, **knobs)
        if sum(faults.rates().values()) > 1:
            raise ValueError(f"fault rates sum to more than 1: {spec}")
        return faults

    def rates(self) -> dict[str, float]:
        return {f.name[5:]: getattr(self, f.name) for f in fields(self) if f.name.startswith("rate_")}


def _digest(request: dict[str, Any]) -> int:
    """A stable number for a request's content, so replies survive retries and resumes."""
    messages = request.get("messages") or [{}]
    return zlib.crc32(json.dumps(messages[-1], ensure_ascii=False, sort_keys=True).encode("utf-8"))


def bench_responder(request: dict[str, Any]) -> Reply:
    """Deterministic replies: a GRM verdict with logprobs when logprobs are requested, a
    one-character verdict for a Task 1 judging prompt, otherwise a reply of realistic length."""
    digest = _digest(request)
    if request.get("logprobs"):
        p_good = (digest % 49 + 0.5) / 49  # coarse, like the released GRM scores
        top = [("好", math.log(0.98 * p_good)), ("差", math.log(0.98 * (1 - p_good))), ("中", math.log(0.01))]
        top.sort(key=lambda item: -item[1])
        return Reply(text=top[0][0], logprobs=[(top[0][0], top[0][1], top)])
    messages = request.get("messages") or [{}]
    if VERDICT_MARKER in str(messages[-1].get("content", "")):
        return Reply(text="好" if digest % 100 < 60 else "差")
    length = 200 + digest % 1300
    start = digest % 40
    return Reply(text=_FILLER[start : start + length])


def _response(status: int, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    reason = {200: "OK", 429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable"}
    lines = [
        f"HTTP/1.1 {status} {reason.get(status, 'Error')}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        *(f"{name}: {value}" for name, value in (headers or {}).items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def _error(status: int, message: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": "server_error", "code": status}}).encode()


class LoadServer:
    """Serve on 127.0.0.1: `with LoadServer(...) as server:` (or start_thread/stop_thread) runs
    it on a background thread; `serve_forever()` in the foreground (the benchmark's own process)."""

    def __init__(
        self,
        responder: Responder = bench_responder,
        latency: float = 0.0,
        faults: Faults | None = None,
        port: int = 0,
    ) -> None:
        self.responder = responder
        self.latency = latency
        self.faults = faults or Faults()
        self.port = port
        self.counts: Counter[str] = Counter()  # "requests", then one count per outcome
        self._rng = random.Random(self.faults.seed)
        self._faulted: set[int] = set()  # digests of requests already faulted (Faults.once)
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", self.port, backlog=4096)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for connection in list(self._connections):
            connection.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)

    def serve_forever(self) -> None:
        async def main() -> None:
            await self.start()
            print(json.dumps({"url": self.url}), flush=True)
            stop = asyncio.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                asyncio.get_running_loop().add_signal_handler(sig, stop.set)
            await stop.wait()
            await self.stop()

        asyncio.run(main())

    def start_thread(self) -> LoadServer:
        """Serve from a background thread with its own event loop (in-process use)."""

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self.start())
            self._ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        self._ready.wait()
        return self

    def stop_thread(self) -> None:
        assert self._loop is not None and self._thread is not None
        asyncio.run_coroutine_threadsafe(self.stop(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> LoadServer:
        return self.start_thread()

    def __exit__(self, *exc: object) -> None:
        self.stop_thread()

    # ------------------------------------------------------------ HTTP

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = await reader.readexactly(length) if length else b"{}"
                if head.startswith(b"GET /stats"):
                    data = _response(200, json.dumps(self.stats()).encode())
                else:
                    data = await self._answer(json.loads(body))
                if data is None:  # dropped
                    break
                writer.write(data)
                await writer.drain()
        except (
            asyncio.IncompleteReadError,
            ConnectionError,
            asyncio.LimitOverrunError,
            asyncio.CancelledError,
        ):
            pass
        finally:
            writer.close()
            self._connections.discard(task)

    def stats(self) -> dict[str, float]:
        """Counters so far and the process CPU seconds (GET /stats; the server alone when standalone)."""
        return {"cpu_seconds": round(time.process_time(), 3), **self.counts}

    def _pick_fault(self, request: dict[str, Any]) -> str | None:
        draw = self._rng.random()
        fault = None
        for name, rate in self.faults.rates().items():
            if draw < rate:
                fault = name
                break
            draw -= rate
        if fault == "no_logprobs" and not request.get("logprobs"):
            return None
        if fault and self.faults.once:
            digest = _digest(request) ^ zlib.crc32(str(request.get("model")).encode())
            if digest in self._faulted:
                return None
            self._faulted.add(digest)
        return fault

    async def _answer(self, request: dict[str, Any]) -> bytes | None:
        """The bytes to send for one request, or None to drop the connection."""
        self.counts["requests"] += 1
        fault = self._pick_fault(request)
        if fault == "timeout":
            self.counts["timeout"] += 1
            await asyncio.sleep(self.faults.hang)
            return None
        if self.latency:
            await asyncio.sleep(self.latency)
        self.counts[fault or "ok"] += 1
        retry_after = {"Retry-After": f"{self.faults.retry_after:g}"}
        if fault == "drop":
            return None
        if fault in ("429", "500", "503"):
            status = int(fault)
            headers = retry_after if status != 500 else {}
            return _response(status, _error(status, f"injected {status}"), headers)
        reply = self.responder(request)
        if fault == "no_logprobs":
            reply = replace(reply, logprobs=None)
        if reply.status >= 400:
            return _response(reply.status, _error(reply.status, reply.error or "error"), reply.headers)
        body = json.dumps(completion_body(request, reply), ensure_ascii=False).encode("utf-8")
        if fault == "malformed":
            body = body[: len(body) // 2]
        return _response(200, body, reply.headers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--faults", default="", help=f"NAME=RATE,... with NAME in {', '.join(FAULT_NAMES)}")
    parser.add_argument("--retry-after", type=float, default=1.0)
    parser.add_argument("--hang", type=float, default=30.0)
    parser.add_argument("--once", action="store_true", help="fault each distinct request at most once")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    knobs = {"retry_after": args.retry_after, "hang": args.hang, "once": args.once, "seed": args.seed}
    faults = Faults.parse(args.faults, **knobs)
    server = LoadServer(latency=args.latency, faults=faults, port=args.port)
    server.serve_forever()
    print(json.dumps(server.stats()), flush=True)


if __name__ == "__main__":
    main()
