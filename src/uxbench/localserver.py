"""A small OpenAI-compatible chat-completions server on 127.0.0.1.

Tests, demos and the load benchmark use it to exercise the real provider path
(`--model openai-api/<service>/<model>`) without a network: a `responder` function maps
each request body to a `Reply` (text, optional per-token logprobs, or an HTTP error). With
`api_key`, it also checks the bearer token and answers a wrong one with a 401 that echoes
the `Authorization` header back, as some providers do (the redaction tests need that).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# One generated token: (token, logprob, [(alternative, logprob), ...]). A token given as
# bytes (part of a character) is sent the way OpenAI spells those: "bytes:\\xe5\\xa5".
TokenLogprob = tuple[str | bytes, float, list[tuple[str | bytes, float]]]


@dataclass
class Reply:
    text: str = ""
    logprobs: list[TokenLogprob] | None = None
    status: int = 200
    error: str | None = None  # message of an error body (status >= 400)
    headers: dict[str, str] = field(default_factory=dict)


Responder = Callable[[dict[str, Any]], Reply]


def prompt_text(request: dict[str, Any]) -> str:
    """All message text of a chat request, joined (what a responder usually inspects)."""
    parts = []
    for message in request.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        parts.append(str(content or ""))
    return "\n".join(parts)


def _token(token: str | bytes, logprob: float) -> dict[str, Any]:
    if isinstance(token, bytes):
        spelled = "bytes:" + "".join(f"\\x{b:02x}" for b in token)
        return {"token": spelled, "logprob": logprob, "bytes": list(token)}
    return {"token": token, "logprob": logprob, "bytes": list(token.encode("utf-8"))}


def completion_body(request: dict[str, Any], reply: Reply) -> dict[str, Any]:
    choice: dict[str, Any] = {
        "index": 0,
        "message": {"role": "assistant", "content": reply.text},
        "finish_reason": "stop",
        "logprobs": None,
    }
    if reply.logprobs is not None and request.get("logprobs"):
        top_n = int(request.get("top_logprobs") or 0)
        choice["logprobs"] = {
            "content": [
                {**_token(tok, lp), "top_logprobs": [_token(t, p) for t, p in tops[:top_n]]}
                for tok, lp, tops in reply.logprobs
            ]
        }
    prompt_tokens = max(1, len(prompt_text(request)) // 2)
    completion_tokens = max(1, len(reply.text) // 2)
    return {
        "id": f"chatcmpl-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "local"),
        "choices": [choice],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class OpenAIServer:
    """`with OpenAIServer(responder) as server:` serves `server.url` until the block ends."""

    def __init__(self, responder: Responder, latency: float = 0.0, api_key: str | None = None) -> None:
        self.responder = responder
        self.latency = latency
        self.api_key = api_key
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> OpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                request = json.loads(body or b"{}")
                with server._lock:
                    server.requests.append(request)
                if server.latency:
                    time.sleep(server.latency)
                authorization = self.headers.get("Authorization", "")
                if server.api_key is not None and authorization != f"Bearer {server.api_key}":
                    reply = Reply(status=401, error=f"Incorrect API key provided: {authorization}")
                else:
                    reply = server.responder(request)
                if reply.status >= 400:
                    payload = {"error": {"message": reply.error or "error", "type": "invalid_request_error"}}
                else:
                    payload = completion_body(request, reply)
                data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler
