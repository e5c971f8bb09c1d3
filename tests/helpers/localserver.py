"""Small provider servers on 127.0.0.1, one per wire format Inspect speaks to the common APIs.

Tests, demos and the load benchmark use them to exercise a real provider path without a
network: a `responder` function maps each request body to a `Reply` (text, optional
per-token logprobs, or an HTTP error), and the server spells it the way its API does.

| server | endpoint | Inspect model names that reach it |
|---|---|---|
| `OpenAIServer` | `POST /v1/chat/completions` | `openai-api/<service>/<model>`, `openai/gpt-4o`-style names |
| `ResponsesServer` | `POST /v1/responses` | `openai/gpt-5*`, o-series, unrecognised names (Inspect 0.3.285) |
| `AnthropicServer` | `POST /v1/messages` | `anthropic/<model>` (no logprobs in this API) |

`OpenAIServer(spelling="vllm")` spells tokens the way vLLM does: a token that is part of a
character (given as bytes) is sent as "" with empty `bytes` until the token that completes
the character, which is sent as the whole character (`""`, `""`, `"好"`), a request with
`return_tokens_as_token_ids` gets `token_id:N`, and a reply's `prompt_logprobs` (asked for
with `prompt_logprobs` in the body) come at the response's top level, one
`{id: {logprob, rank, decoded_token}}` per prompt token after a leading null. A reply's
`reasoning` goes in the message's `reasoning_content`, as a vLLM reasoning parser puts it.

A request to any other path is answered 404, so a test notices when Inspect takes a
different path than it expects. `AnthropicServer` also streams (server-sent events), as
Anthropic's SDK does for requests with a large `max_tokens`; the others refuse `stream`.
With `api_key`, a server checks the bearer token and answers a wrong one with a 401 that
echoes the `Authorization` header back, as some providers do (the redaction tests need that).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Literal

# One generated token: (token, logprob, [(alternative, logprob), ...]). A token given as
# bytes (part of a character) is sent the way OpenAI spells those: "bytes:\\xe5\\xa5".
TokenLogprob = tuple[str | bytes, float, list[tuple[str | bytes, float]]]
RESPONSES_LOGPROBS = "message.output_text.logprobs"  # the Responses API's `include` switch
Spelling = Literal["openai", "vllm"]


class QuietHandler(BaseHTTPRequestHandler):
    """The test servers' request handler: HTTP/1.1 keep-alive, no access log on the test output."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send(self, status: int, kind: str, data: bytes, headers: dict[str, str] | None = None) -> None:
        """One whole response with its length (the client keeps the connection)."""
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


@dataclass
class Reply:
    text: str = ""
    logprobs: list[TokenLogprob] | None = None
    status: int = 200
    error: str | None = None  # message of an error body (status >= 400)
    headers: dict[str, str] = field(default_factory=dict)
    prompt_logprobs: list[TokenLogprob] | None = None  # the prompt's tokens, for `prompt_logprobs` requests
    reasoning: str | None = None  # sent as the message's `reasoning_content` (chat completions)


Responder = Callable[[dict[str, Any]], Reply]


def _text(content: Any) -> str:
    """Text of a content field: a string, or a list of parts/blocks that carry `text`."""
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


def prompt_text(request: dict[str, Any]) -> str:
    """All message text of a request in any of the three formats, joined (what a responder
    usually inspects): chat `messages`, Responses `instructions` + `input`, Anthropic
    `system` + `messages`."""
    items = request.get("messages") or request.get("input") or []
    if isinstance(items, str):  # Responses: a bare string input
        items = [{"content": items}]
    parts = [_text(request.get(key)) for key in ("system", "instructions") if request.get(key)]
    parts += [_text(item.get("content")) for item in items if isinstance(item, dict)]
    return "\n".join(parts)


def token_id(token: str | bytes) -> int:
    """A stable id for a token (its bytes read as a number), as `token_id:N` spellings need."""
    data = token if isinstance(token, bytes) else token.encode("utf-8")
    return int.from_bytes(data or b"\0", "big") % 1_000_003


def _decoded(token: str | bytes, pending: bytes = b"") -> str:
    """What vLLM's detokenizer prints for a token after the `pending` bytes of a character not yet
    printed: "" while the character is incomplete, then the whole character at its last token."""
    data = pending + (token if isinstance(token, bytes) else token.encode("utf-8"))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return ""


def _token(
    token: str | bytes, logprob: float, spelling: Spelling = "openai", ids: bool = False, pending: bytes = b""
) -> dict[str, Any]:
    if spelling == "vllm":
        text = _decoded(token, pending)
        spelled = f"token_id:{token_id(token)}" if ids else text
        return {"token": spelled, "logprob": logprob, "bytes": list(text.encode("utf-8"))}
    if isinstance(token, bytes):
        spelled = "bytes:" + "".join(f"\\x{b:02x}" for b in token)
        return {"token": spelled, "logprob": logprob, "bytes": list(token)}
    return {"token": token, "logprob": logprob, "bytes": list(token.encode("utf-8"))}


def _pending(tokens: list[TokenLogprob]) -> list[bytes]:
    """Before each token, the bytes of a character that vLLM has not printed yet."""
    before, pending = [], b""
    for token, _, _ in tokens:
        before.append(pending)
        data = pending + (token if isinstance(token, bytes) else token.encode("utf-8"))
        pending = b"" if _decoded(data) else data
    return before


def _logprob_entries(
    reply: Reply, top_n: int, spelling: Spelling = "openai", ids: bool = False
) -> list[dict[str, Any]]:
    """OpenAI's per-token logprob objects (the same in Chat Completions and Responses)."""
    tokens = reply.logprobs or []
    return [
        {
            **_token(tok, lp, spelling, ids, pending),
            "top_logprobs": [_token(t, p, spelling, ids, pending) for t, p in tops[:top_n]],
        }
        for (tok, lp, tops), pending in zip(tokens, _pending(tokens), strict=True)
    ]


def prompt_logprobs_body(reply: Reply) -> list[dict[str, Any] | None]:
    """vLLM's top-level `prompt_logprobs`: null for the first token, then each token's own entry
    first and its alternatives after it."""
    tokens = reply.prompt_logprobs or []
    entries: list[dict[str, Any] | None] = [None]
    for (tok, lp, tops), pending in zip(tokens, _pending(tokens), strict=True):
        entry = {str(token_id(tok)): {"logprob": lp, "rank": 1, "decoded_token": _decoded(tok, pending)}}
        for rank, (alt, p) in enumerate(tops, start=2):
            shown = {"logprob": p, "rank": rank, "decoded_token": _decoded(alt, pending)}
            entry.setdefault(str(token_id(alt)), shown)
        entries.append(entry)
    return entries


def _token_counts(request: dict[str, Any], reply: Reply) -> tuple[int, int]:
    return max(1, len(prompt_text(request)) // 2), max(1, len(reply.text) // 2)


def completion_body(request: dict[str, Any], reply: Reply, spelling: Spelling = "openai") -> dict[str, Any]:
    """A Chat Completions response."""
    message = {"role": "assistant", "content": reply.text}
    if reply.reasoning is not None:
        message["reasoning_content"] = reply.reasoning
    choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}
    if reply.logprobs is not None and request.get("logprobs"):
        top_n, ids = int(request.get("top_logprobs") or 0), bool(request.get("return_tokens_as_token_ids"))
        choice["logprobs"] = {"content": _logprob_entries(reply, top_n, spelling, ids)}
    prompt_tokens, completion_tokens = _token_counts(request, reply)
    scored = (
        {"prompt_logprobs": prompt_logprobs_body(reply)}
        if spelling == "vllm" and request.get("prompt_logprobs") and reply.prompt_logprobs is not None
        else {}
    )
    if scored:  # as vLLM: one entry per prompt token
        prompt_tokens = len(scored["prompt_logprobs"])
    return {
        **scored,
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


def responses_body(request: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """A Responses API response: one output message with one `output_text` part, carrying
    logprobs when the request's `include` asks for them (`top_logprobs` alternatives each)."""
    text: dict[str, Any] = {"type": "output_text", "text": reply.text, "annotations": [], "logprobs": []}
    if reply.logprobs is not None and RESPONSES_LOGPROBS in (request.get("include") or []):
        text["logprobs"] = _logprob_entries(reply, int(request.get("top_logprobs") or 0))
    input_tokens, output_tokens = _token_counts(request, reply)
    stamp = time.monotonic_ns()
    return {
        "id": f"resp_{stamp}",
        "object": "response",
        "created_at": time.time(),
        "status": "completed",
        "model": request.get("model", "local"),
        "output": [
            {
                "type": "message",
                "id": f"msg_{stamp}",
                "role": "assistant",
                "status": "completed",
                "content": [text],
            }
        ],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "error": None,
        "incomplete_details": None,
        "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + output_tokens,
        },
    }


def messages_body(request: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """An Anthropic Messages response (the API has no logprobs; a reply's are dropped)."""
    input_tokens, output_tokens = _token_counts(request, reply)
    return {
        "id": f"msg_{time.monotonic_ns()}",
        "type": "message",
        "role": "assistant",
        "model": request.get("model", "local"),
        "content": [{"type": "text", "text": reply.text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


Answer = tuple[int, str, bytes, dict[str, str]]  # status, content type, body, extra headers


def _json(status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> Answer:
    return status, "application/json", json.dumps(payload, ensure_ascii=False).encode("utf-8"), headers or {}


class OpenAIServer:
    """`with OpenAIServer(responder) as server:` serves `server.url` until the block ends.

    Speaks OpenAI's Chat Completions; the subclasses below speak the other formats.
    """

    path: ClassVar[str] = "/v1/chat/completions"
    base_path: ClassVar[str] = "/v1"  # what a client takes as its base URL
    streams: ClassVar[bool] = False  # answers `"stream": true` requests with server-sent events

    def __init__(
        self,
        responder: Responder,
        latency: float = 0.0,
        api_key: str | None = None,
        refusal: str = "Incorrect API key provided: {authorization}",
        spelling: Spelling = "openai",
    ) -> None:
        self.responder = responder
        self.spelling = spelling
        self.latency = latency
        self.api_key = api_key
        # the 401 message for another key: `{authorization}` is the header, `{key}` the key alone
        # (providers echo it either way: `Bearer sk-…`, or `bad key sk-…`)
        self.refusal = refusal
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{self.base_path}"

    def __enter__(self) -> OpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def body(self, request: dict[str, Any], reply: Reply) -> dict[str, Any]:
        return completion_body(request, reply, self.spelling)

    def error_body(self, message: str) -> dict[str, Any]:
        return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}

    def stream(self, request: dict[str, Any], reply: Reply) -> list[tuple[str, dict[str, Any]]]:
        """The reply as server-sent events (name, data), for servers whose `streams` is set."""
        raise NotImplementedError

    def answer(self, path: str, request: dict[str, Any], authorization: str = "") -> Answer:
        """What to send back for one POST."""
        if path.split("?")[0] != self.path:
            return _json(404, self.error_body(f"{type(self).__name__} serves POST {self.path}, not {path}"))
        if request.get("stream") and not self.streams:
            return _json(400, self.error_body(f"{type(self).__name__} does not stream"))
        with self._lock:
            self.requests.append(request)
        if self.latency:
            time.sleep(self.latency)
        if self.api_key is not None and authorization != f"Bearer {self.api_key}":
            key = authorization.partition(" ")[2]
            reply = Reply(status=401, error=self.refusal.format(authorization=authorization, key=key))
        else:
            reply = self.responder(request)
        if reply.status >= 400:
            return _json(reply.status, self.error_body(reply.error or "error"), reply.headers)
        if not request.get("stream"):
            return _json(reply.status, self.body(request, reply), reply.headers)
        events = self.stream(request, reply)
        text = "".join(
            f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n" for name, data in events
        )
        return reply.status, "text/event-stream", text.encode("utf-8"), reply.headers

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                authorization = self.headers.get("Authorization", "")
                self.send(*server.answer(self.path, json.loads(body or b"{}"), authorization))

        return Handler


class ResponsesServer(OpenAIServer):
    """OpenAI's Responses API (`POST /v1/responses`)."""

    path = "/v1/responses"

    def body(self, request: dict[str, Any], reply: Reply) -> dict[str, Any]:
        return responses_body(request, reply)


class AnthropicServer(OpenAIServer):
    """Anthropic's Messages API (`POST /v1/messages`); its clients' base URL has no `/v1`."""

    path = "/v1/messages"
    base_path = ""
    streams = True

    def body(self, request: dict[str, Any], reply: Reply) -> dict[str, Any]:
        return messages_body(request, reply)

    def error_body(self, message: str) -> dict[str, Any]:
        return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}

    def stream(self, request: dict[str, Any], reply: Reply) -> list[tuple[str, dict[str, Any]]]:
        """Anthropic's event sequence (its SDK streams requests with large `max_tokens`)."""
        message = messages_body(request, reply)
        usage, text = message["usage"], message["content"][0]["text"]
        start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 0}}
        return [
            ("message_start", {"type": "message_start", "message": start}),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": usage["output_tokens"]},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
