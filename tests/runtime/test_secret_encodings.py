"""A known credential is blanked out in whatever encoding a provider echoes it, and text that
holds no known credential is left exactly as it was — in the `.eval` file, on the console and
in `uxbench report`'s pages.

One `inspect eval` (a subprocess, so the console is what a user sees) runs Task 1 against one
local server for every case at once: each case is a model name, and the server answers that
model's requests with a 401 whose message is the case's `echo`. Then one `uxbench report` reads
all the logs. Each (case, place) is its own test with one exact outcome.
"""

from __future__ import annotations

import base64
import html
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from helpers.localserver import OpenAIServer, Reply
from helpers.secrets import REPORT_FILES, found, log_leaks, report_leaks
from inspect_ai.log import read_eval_log

pytestmark = pytest.mark.integration


sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from synth import write_release  # noqa: E402

KEY = "sk-uxb/Enc+0042/canary+Zq9"  # a key with `/` and `+`, the characters encoders rewrite
PROXY = "admin:hunter2"  # the user-info of PROXIED_BASE_URL: a known credential


def b64(text: str, urlsafe: bool = False) -> str:
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    return encode(text.encode()).decode()


def lower_hex(text: str) -> str:
    return text.replace("%2F", "%2f").replace("%2B", "%2b")


@dataclass(frozen=True)
class Case:
    id: str  # also the model's name: openai-api/<service>/<id>
    echo: str  # the provider's 401 message
    expected: str  # that message as every output must show it
    absent: tuple[str, ...]  # in no output at all
    service: str = "local"


def case(id: str, echo: str, expected: str, *absent: str, service: str = "local") -> Case:
    return Case(id, echo, expected, (KEY, *absent), service)


M = "[REDACTED:LOCAL_API_KEY]"
CASES = [
    case("percent", f"key {quote(KEY, safe='')} invalid", f"key {M} invalid", quote(KEY, safe="")),
    case(
        "percent-lower-hex",
        f"key {lower_hex(quote(KEY, safe=''))}",
        f"key {M}",
        lower_hex(quote(KEY, safe="")),
    ),
    case("percent-keeps-slash", f"key {quote(KEY)} invalid", f"key {M} invalid", quote(KEY)),
    case(
        "percent-twice", f"key {quote(quote(KEY, safe=''), safe='')}", f"key {M}", quote(quote(KEY, safe=""))
    ),
    case(
        "percent-in-query",
        f"GET https://api.test/v1?key={quote_plus(KEY)}&v=2 denied",
        f"GET https://api.test/v1?key={M}&v=2 denied",
        quote_plus(KEY),
    ),
    case(
        "base64-user-key",
        f"credentials {b64('alice:' + KEY)} refused",
        f"credentials {M} refused",
        b64("alice:" + KEY),
    ),
    case("base64-key-colon", f"Basic {b64(KEY + ':')}", f"Basic {M}", b64(KEY + ":")),
    case(
        "base64-urlsafe",
        f"session {b64('bob:' + KEY, True)} expired",
        f"session {M} expired",
        b64("bob:" + KEY, True),
    ),
    case(
        "json-escaped-slash",
        json.dumps({"key": KEY}).replace("/", "\\/"),
        json.dumps({"key": M}),
        KEY.replace("/", "\\/"),
    ),
    case(
        "json-unicode-escapes",
        '{"key": "' + KEY.replace("+", "\\u002b").replace("/", "\\u002F") + '"}',
        json.dumps({"key": M}),
        KEY.replace("+", "\\u002b").replace("/", "\\u002F"),
    ),
    case(
        "percent-inside-json",
        json.dumps({"url": f"https://api.test/v1?key={quote(KEY, safe='')}"}).replace("/", "\\/"),
        json.dumps({"url": f"https://api.test/v1?key={M}"}).replace("/", "\\/"),
        quote(KEY, safe=""),
    ),
    case(
        "html-character-references",
        f"<p>key {KEY.replace('/', '&#x2F;').replace('+', '&#43;')} invalid</p>",
        f"<p>key {M} invalid</p>",
        KEY.replace("/", "&#x2F;").replace("+", "&#43;"),
    ),
    case(
        "html-of-json",
        html.escape(json.dumps({"key": KEY}).replace("/", "\\/")),
        html.escape(json.dumps({"key": M})),
        KEY.replace("/", "\\/"),
    ),
    case(
        "percent-inside-html",
        f'<a href="/v1?user=alice&amp;key={quote(KEY, safe="")}">retry</a>',
        f'<a href="/v1?user=alice&amp;key={M}">retry</a>',
        quote(KEY, safe=""),
    ),
    case(
        "proxy-user-info",
        f"proxy {b64(PROXY)} at http://{quote(PROXY, safe=':')}@db.test/x refused",
        "proxy [REDACTED:PROXIED_BASE_URL] at http://[REDACTED:PROXIED_BASE_URL]@db.test/x refused",
        PROXY,
        b64(PROXY),
        service="proxied",
    ),
    # text holding no known credential: exactly as the provider wrote it
    case(
        "ssh-user-name",
        "cannot clone ssh://git@git.test/org/repo.git",
        "cannot clone ssh://git@git.test/org/repo.git",
    ),
    case(
        "unknown-password",
        "db postgres://admin:hunter3@db.test/x down",
        "db postgres://admin:hunter3@db.test/x down",
    ),
]
PLACES = ("eval", "console", "report")


@dataclass(frozen=True)
class Outcome:
    logs: dict[str, Path]  # case id → its log
    console: str
    report: Path


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    work = tmp_path_factory.mktemp("encodings")
    data = write_release(work / "data", task1=2, task2=0, task3=0)
    echoes = {c.id: c.echo for c in CASES}
    with OpenAIServer(lambda request: Reply(status=401, error=echoes[request["model"]])) as server:
        host = server.url.removeprefix("http://")
        env = {
            **os.environ,
            "LOCAL_API_KEY": KEY,
            "LOCAL_BASE_URL": server.url,
            "PROXIED_API_KEY": "unused-by-the-server",
            "PROXIED_BASE_URL": f"http://{PROXY}@{host}",
            "NO_COLOR": "1",
        }
        env.pop("UXBENCH_REDACT_ALL", None)
        models = ",".join(f"openai-api/{c.service}/{c.id}" for c in CASES)
        command = [sys.executable, "-m", "inspect_ai", "eval", "uxbench/task1_judge", "-T", f"data={data}"]
        command += ["--model", models, "--max-retries", "0", "--max-tasks", str(len(CASES))]
        command += ["--display", "plain", "--log-dir", str(work / "logs")]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    (work / "console.txt").write_text(result.stdout + result.stderr, encoding="utf-8")
    logs = {
        read_eval_log(str(p), header_only=True).eval.model.rsplit("/", 1)[-1]: p
        for p in (work / "logs").glob("*.eval")
    }
    assert sorted(logs) == sorted(echoes)
    with pytest.MonkeyPatch.context() as patch:  # the report runs where the eval ran
        for name in ("LOCAL_API_KEY", "PROXIED_BASE_URL"):
            patch.setenv(name, env[name])
        assert report_leaks(work / "logs", work / "report", ()) == []
    return Outcome(logs, result.stdout + result.stderr, work / "report")


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_encoded_credentials(case: Case, place: str, outcome: Outcome) -> None:
    if place == "eval":
        log = read_eval_log(str(outcome.logs[case.id]), header_only=True)
        assert log.status == "error" and log.error is not None
        assert log.error.message == f"Error code: 401 - {case.expected}"
        assert log_leaks(outcome.logs[case.id], case.absent) == []
    elif place == "console":
        # the run's error panels: the console may fold a line, so compare without white space
        assert "".join(f"401 - {case.expected}".split()) in "".join(outcome.console.split())
        assert found(case.absent, outcome.console) == []
    else:
        [skipped] = [
            s
            for s in json.loads((outcome.report / "leaderboard.json").read_text(encoding="utf-8"))["skipped"]
            if s["model"].endswith(f"/{case.id}")
        ]
        assert skipped["reason"] == f"errored: 401: {case.expected}"
        assert [
            name for name in REPORT_FILES if found(case.absent, (outcome.report / name).read_bytes())
        ] == []
