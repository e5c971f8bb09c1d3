"""Serve an ASGI app to this machine only: 127.0.0.1, a free port, an access token, a background thread.

The token is in the printed URL. The page and its static files accept it as `?token=` and then
from a cookie named after the port (cookies ignore ports, so two pages must not share one); the
JSON API under `/api/` accepts it only in the `X-UXBench-Token` header, which another site cannot
make a browser send. Requests naming another host are refused (DNS rebinding), and every response
forbids framing, referrers (the URL holds the token) and scripts or styles not served from here.
"""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import uvicorn
from starlette.datastructures import MutableHeaders
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from uxbench.runtime.errors import DataError

HOST = "127.0.0.1"
TOKEN_HEADER = "x-uxbench-token"
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


class BadRequest(Exception):
    """A request body the page would never send; answered 400 with the message (bad_request)."""


async def json_object(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object, or BadRequest saying what it is instead."""
    try:
        body = json.loads(await request.body())
    except ValueError as error:  # not JSON, or not UTF-8
        raise BadRequest(f"the request body is not JSON ({error})") from None
    if not isinstance(body, dict):
        raise BadRequest(f"the request body is a JSON {type(body).__name__}, not an object")
    return body


async def bad_request(request: Request, error: Exception) -> Response:
    return JSONResponse({"error": str(error)}, status_code=400)


BAD_REQUEST_HANDLERS = {BadRequest: bad_request}


def static_dir() -> Path:
    return Path(__file__).parent / "static"


class TokenGate:
    """ASGI middleware: refuse every request that does not carry the token."""

    def __init__(self, app: ASGIApp, token: str, cookie: str) -> None:
        self.app = app
        self.token = token
        self.cookie = cookie

    def _valid(self, value: str | None) -> bool:
        return value is not None and secrets.compare_digest(value.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        from_query = False
        if scope["path"].startswith("/api/"):
            allowed = self._valid(request.headers.get(TOKEN_HEADER))
        else:
            from_query = self._valid(
                parse_qs(scope.get("query_string", b"").decode()).get("token", [None])[0]
            )
            allowed = from_query or self._valid(request.cookies.get(self.cookie))
        if not allowed:
            refusal = PlainTextResponse(
                "Forbidden: open the page with the link (and its token) printed in the terminal.", 403
            )
            await refusal(scope, receive, self._with_headers(send, False))
            return
        await self.app(scope, receive, self._with_headers(send, from_query))

    def _with_headers(self, send: Send, set_cookie: bool) -> Send:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
                if set_cookie:
                    headers.append(
                        "set-cookie", f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                    )
            await send(message)

        return send_with_headers


class LocalServer:
    """One app on 127.0.0.1 in a daemon thread; `url` carries the token."""

    def __init__(self, app: ASGIApp, port: int = 0, name: str = "uxbench-web") -> None:
        self.token = secrets.token_urlsafe(16)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, port))
        except OSError as error:
            sock.close()
            raise DataError(
                f"cannot serve on {HOST}:{port} ({error.strerror}); choose another port"
            ) from None
        self.port: int = sock.getsockname()[1]
        gated = TokenGate(app, self.token, cookie=f"uxbench-{self.port}")
        hosts = TrustedHostMiddleware(gated, allowed_hosts=[HOST, "localhost"])
        # log_config=None: uvicorn must not reconfigure the process's logging (Inspect's); a short
        # graceful shutdown, as a page's long poll may hold a request open for 20 s.
        config = uvicorn.Config(
            hosts,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=0.5,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name=name, daemon=True
        )
        self._socket = sock

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/?token={self.token}"

    def start(self, timeout: float = 10.0) -> LocalServer:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the local web server on port {self.port} did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self._socket.close()

    def wait(self) -> None:
        """Serve until interrupted (Ctrl-C), for commands that only serve a page."""
        try:
            while self._thread.is_alive():
                self._thread.join(timeout=0.5)
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()
