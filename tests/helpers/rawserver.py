"""A chat-completions server on 127.0.0.1 that sends exactly the body a test gives it.

`helpers.localserver` builds well-formed replies; the hardening tests need the malformed
ones too: non-finite or null logprobs, no `choices`, an error body (with any status, 200
included), and a body trickled one byte at a time.
"""

import copy
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from helpers.localserver import OpenAIServer, QuietHandler

# one answer token: (token, logprob, [(alternative, logprob), ...]); logprobs may be NaN, ±inf or None
Token = tuple[str, float | None, list[tuple[str, float | None]]]


@dataclass
class Raw:
    body: dict[str, Any]
    status: int = 200
    byte_delay: float = 0.0  # seconds between bytes (a trickling server)
    max_trickle: float = 30.0  # stop trickling (send the rest at once) after this many seconds


def chat_body(text: str, tokens: list[Token] | None = None, choices: bool | None = True) -> dict[str, Any]:
    """A chat completion; `choices=False` sends `"choices": []`, `choices=None` leaves the key out."""
    logprobs = None
    if tokens is not None:
        logprobs = {
            "content": [
                {"token": t, "logprob": lp, "bytes": None, "top_logprobs": [
                    {"token": a, "logprob": alp, "bytes": None} for a, alp in alts
                ]}
                for t, lp, alts in tokens
            ]
        }  # fmt: skip
    body: dict[str, Any] = {
        "id": "chatcmpl-raw",
        "object": "chat.completion",
        "created": 1,
        "model": "raw",
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    if choices is not None:
        message = {"role": "assistant", "content": text}
        body["choices"] = [{"index": 0, "message": message, "finish_reason": "stop", "logprobs": logprobs}]
        if not choices:
            body["choices"] = []
    return body


def label_tokens(first: str, p_good: float | None, p_bad: float | None) -> list[Token]:
    """The answer token `first` with 好 and 差 among its alternatives at these log probabilities."""
    chosen = p_good if first == "好" else p_bad
    return [(first, chosen, [("好", p_good), ("差", p_bad)])]


class RawServer(OpenAIServer):
    """`with RawServer(respond) as server:` serves `server.url`; `respond(request) -> Raw`."""

    def __init__(self, respond: Callable[[dict[str, Any]], Raw]) -> None:
        super().__init__(respond)  # type: ignore[arg-type]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append(request)
                raw = server.responder(request)
                body = copy.deepcopy(raw.body)
                if not request.get("logprobs"):  # as a real server: logprobs only when asked for
                    for choice in body.get("choices") or []:
                        choice["logprobs"] = None
                try:  # NaN, Infinity as JS does
                    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
                except UnicodeEncodeError:  # a lone surrogate: escaped (\ud83d), as JSON.stringify does
                    data = json.dumps(body).encode("ascii")
                self.send_response(raw.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self._send(data, raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (an attempt timeout): stop trickling

            def _send(self, data: bytes, raw: Raw) -> None:
                start = time.monotonic()
                for index in range(len(data)):
                    if not raw.byte_delay or time.monotonic() - start > raw.max_trickle:
                        self.wfile.write(data[index:])
                        return
                    self.wfile.write(data[index : index + 1])
                    self.wfile.flush()
                    time.sleep(raw.byte_delay)

        return Handler
