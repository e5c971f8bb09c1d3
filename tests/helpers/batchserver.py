"""Provider batch APIs on 127.0.0.1: OpenAI's (files + batches) and Anthropic's (message batches).

`inspect eval --batch` sends a run's calls through these instead of one request per call.
`BatchServer(responder)` speaks both, next to the direct endpoints of `helpers.localserver`
(a call Inspect does not batch still reaches `POST /v1/chat/completions` or `/v1/messages`):

- OpenAI: `POST /v1/files` (multipart JSONL), `POST /v1/batches`, `GET /v1/batches/{id}`,
  `POST /v1/batches/{id}/cancel`, `GET /v1/files/{id}/content`;
- Anthropic: `POST /v1/messages/batches`, `GET /v1/messages/batches/{id}`,
  `GET /v1/messages/batches/{id}/results`.

A batch is answered `ready_after` seconds after it is created (its status is `in_progress`
until then). `outcomes` scripts what the next batches, in the order they are created, come to
(taken off the list one per batch; once it is empty: `completed`):

- `completed`: every request answered by the responder;
- `failed`: the batch is rejected whole (OpenAI: status `failed` with `errors`; Anthropic: every
  request `errored`);
- `expired`: only the first half of its requests answered, the rest `batch_expired` in OpenAI's
  error file, `expired` results in Anthropic's;
- `partial`: the batch ends, but the results leave out the second half of its requests (no line
  for them at all: a provider bug or a truncated download).

`calls` counts the requests answered (in batches and directly): what a run would pay for.
"""

from __future__ import annotations

import email.parser
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal

from helpers.localserver import (
    AnthropicServer,
    OpenAIServer,
    QuietHandler,
    Reply,
    Responder,
    completion_body,
    messages_body,
)

Outcome = Literal["completed", "failed", "expired", "partial"]


@dataclass
class BatchJob:
    id: str
    api: Literal["openai", "anthropic"]
    requests: list[dict[str, Any]]  # OpenAI: {custom_id, body, url}; Anthropic: {custom_id, params}
    outcome: Outcome
    created: float = field(default_factory=time.time)
    results: list[dict[str, Any]] | None = None  # answered lines, once the batch has ended
    errors: list[dict[str, Any]] | None = None  # OpenAI's error file lines


class BatchServer:
    """`with BatchServer(responder) as server:` serves OpenAI at `server.openai_url` and Anthropic
    at `server.anthropic_url` (the base URLs their clients take) until the block ends."""

    def __init__(
        self, responder: Responder, ready_after: float = 0.2, outcomes: list[Outcome] | None = None
    ) -> None:
        self.responder = responder
        self.ready_after = ready_after
        self.outcomes = list(outcomes or [])
        self.jobs: dict[str, BatchJob] = {}
        self.files: dict[str, bytes] = {}
        self.calls = 0  # requests answered, batched or direct
        self.direct = 0  # of which sent one by one (not batched)
        self._lock = threading.Lock()
        self._openai = OpenAIServer(self._count(responder))
        self._anthropic = AnthropicServer(self._count(responder))
        from http.server import ThreadingHTTPServer

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def openai_url(self) -> str:
        return f"{self.root}/v1"

    @property
    def anthropic_url(self) -> str:
        return self.root

    def __enter__(self) -> BatchServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def batched_requests(self) -> int:
        return sum(len(job.requests) for job in self.jobs.values())

    def _count(self, responder: Responder) -> Responder:
        def counted(request: dict[str, Any]) -> Reply:
            with self._lock:
                self.calls += 1
                self.direct += 1
            return responder(request)

        return counted

    def _answer(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            self.calls += 1
        return self.responder(request)

    # -- jobs ----------------------------------------------------------------------------------

    def _new_job(self, api: Literal["openai", "anthropic"], requests: list[dict[str, Any]]) -> BatchJob:
        with self._lock:
            outcome = self.outcomes.pop(0) if self.outcomes else "completed"
            job = BatchJob(f"batch_{len(self.jobs):04d}", api, requests, outcome)
            self.jobs[job.id] = job
        return job

    def _settle(self, job: BatchJob) -> bool:
        """Answer the job once it is due; True when it has ended."""
        if job.results is not None:
            return True
        if time.time() - job.created < self.ready_after:
            return False
        answered = (
            job.requests[: len(job.requests) // 2]
            if job.outcome in ("expired", "partial")
            else ([] if job.outcome == "failed" else job.requests)
        )
        missing = [r for r in job.requests if r not in answered]
        job.results = [self._result(job, r) for r in answered]
        job.errors = []
        if job.outcome == "expired":
            job.errors = [self._expired(job, r) for r in missing]
        if job.outcome == "failed" and job.api == "anthropic":
            job.errors = [self._errored(r) for r in missing]
        return True

    def _result(self, job: BatchJob, request: dict[str, Any]) -> dict[str, Any]:
        if job.api == "openai":
            body = request["body"]
            reply = self._answer(body)
            return {
                "id": f"req_{request['custom_id']}",
                "custom_id": request["custom_id"],
                "response": {"status_code": 200, "request_id": "r", "body": completion_body(body, reply)},
                "error": None,
            }
        message = messages_body(request["params"], self._answer(request["params"]))
        return {"custom_id": request["custom_id"], "result": {"type": "succeeded", "message": message}}

    @staticmethod
    def _expired(job: BatchJob, request: dict[str, Any]) -> dict[str, Any]:
        if job.api == "anthropic":
            return {"custom_id": request["custom_id"], "result": {"type": "expired"}}
        return {
            "id": f"req_{request['custom_id']}",
            "custom_id": request["custom_id"],
            "response": None,
            "error": {"code": "batch_expired", "message": "This request could not be executed before the "
                      "completion window expired."},
        }  # fmt: skip

    @staticmethod
    def _errored(request: dict[str, Any]) -> dict[str, Any]:
        error = {"type": "error", "error": {"type": "api_error", "message": "batch rejected"}}
        return {"custom_id": request["custom_id"], "result": {"type": "errored", "error": error}}

    # -- OpenAI ---------------------------------------------------------------------------------

    def _openai_batch(self, job: BatchJob) -> dict[str, Any]:
        ended = self._settle(job)
        status = "in_progress"
        extra: dict[str, Any] = {}
        if ended and job.outcome == "failed":
            status = "failed"
            data = [{"code": "invalid_request", "message": "batch rejected", "line": None, "param": None}]
            extra["errors"] = {"object": "list", "data": data}
        elif ended:
            status = "expired" if job.outcome == "expired" else "completed"
            self.files[f"{job.id}-out"] = _jsonl(job.results or [])
            extra["output_file_id"] = f"{job.id}-out"
            if job.errors:
                self.files[f"{job.id}-err"] = _jsonl(job.errors)
                extra["error_file_id"] = f"{job.id}-err"
        done = len(job.results or []) if ended else 0
        failed = len(job.errors or []) if ended else 0
        return {
            "id": job.id,
            "object": "batch",
            "endpoint": job.requests[0].get("url", "/v1/chat/completions") if job.requests else "",
            "input_file_id": f"{job.id}-in",
            "completion_window": "24h",
            "status": status,
            "created_at": int(job.created),
            "request_counts": {"total": len(job.requests), "completed": done, "failed": failed},
            **extra,
        }

    def _openai_file(self, content_type: str, body: bytes) -> dict[str, Any]:
        message = email.parser.BytesParser().parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + body
        )
        content = next(
            part.get_payload(decode=True)
            for part in message.get_payload()  # type: ignore[union-attr]
            if part.get_param("name", header="content-disposition") == "file"
        )
        with self._lock:
            file_id = f"file-{len(self.files):04d}"
            self.files[file_id] = content
        return {"id": file_id, "object": "file", "bytes": len(content), "created_at": int(time.time()),
                "filename": "batch.jsonl", "purpose": "batch", "status": "processed"}  # fmt: skip

    # -- Anthropic ------------------------------------------------------------------------------

    def _anthropic_batch(self, job: BatchJob) -> dict[str, Any]:
        ended = self._settle(job)
        lines = [*(job.results or []), *(job.errors or [])] if ended else []
        kinds = [line["result"]["type"] for line in lines]
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(job.created))
        return {
            "id": job.id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": 0 if ended else len(job.requests),
                "succeeded": kinds.count("succeeded"),
                "errored": kinds.count("errored"),
                "canceled": 0,
                "expired": kinds.count("expired"),
            },
            "created_at": stamp,
            "expires_at": stamp,
            "ended_at": stamp if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{self.root}/v1/messages/batches/{job.id}/results" if ended else None,
        }

    # -- HTTP -----------------------------------------------------------------------------------

    def get(self, path: str) -> tuple[int, str, bytes]:
        parts = path.split("?")[0].strip("/").split("/")
        match parts:
            case ["v1", "batches", batch_id] if batch_id in self.jobs:
                return _ok(self._openai_batch(self.jobs[batch_id]))
            case ["v1", "files", file_id, "content"] if file_id in self.files:
                return 200, "application/jsonl", self.files[file_id]
            case ["v1", "messages", "batches", batch_id] if batch_id in self.jobs:
                return _ok(self._anthropic_batch(self.jobs[batch_id]))
            case ["v1", "messages", "batches", batch_id, "results"] if batch_id in self.jobs:
                job = self.jobs[batch_id]
                self._settle(job)
                return 200, "application/jsonl", _jsonl([*(job.results or []), *(job.errors or [])])
        return 404, "application/json", json.dumps({"error": {"message": f"no {path}"}}).encode()

    def post(self, path: str, content_type: str, body: bytes, headers: Any) -> tuple[int, str, bytes]:
        parts = path.split("?")[0].strip("/").split("/")
        match parts:
            case ["v1", "files"]:
                return _ok(self._openai_file(content_type, body))
            case ["v1", "batches"]:
                request = json.loads(body)
                lines = self.files[request["input_file_id"]].decode().splitlines()
                return _ok(self._openai_batch(self._new_job("openai", [json.loads(x) for x in lines if x])))
            case ["v1", "batches", batch_id, "cancel"] if batch_id in self.jobs:
                return _ok(self._openai_batch(self.jobs[batch_id]))
            case ["v1", "messages", "batches"]:
                return _ok(self._anthropic_batch(self._new_job("anthropic", json.loads(body)["requests"])))
            case ["v1", "chat", "completions"]:
                status, kind, data, _ = self._openai.answer(path, json.loads(body))
                return status, kind, data
            case ["v1", "messages"]:
                status, kind, data, _ = self._anthropic.answer(path, json.loads(body))
                return status, kind, data
        return 404, "application/json", json.dumps({"error": {"message": f"no POST {path}"}}).encode()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                self.send(*server.get(self.path))

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send(*server.post(self.path, self.headers.get("Content-Type", ""), body, self.headers))

        return Handler


def _ok(payload: dict[str, Any]) -> tuple[int, str, bytes]:
    return 200, "application/json", json.dumps(payload, ensure_ascii=False).encode("utf-8")


def _jsonl(lines: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8")
