"""Credentials never reach a log, the console, Inspect's trace file, an error message or a report.

Providers that echo the key in a 401 body are played by a local server (`OpenAIServer` with
`api_key`, or a responder that answers 401). Every member of the .eval zip is read as raw
bytes, so nothing escapes through a field the log reader would not show.
"""

from __future__ import annotations

import errno
import gzip
import io
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers.localserver import OpenAIServer, Reply
from helpers.secrets import found, log_leaks, report_leaks
from inspect_ai import eval
from inspect_ai.log import EvalError, EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import Model, get_model

from uxbench.cli import main as uxbench_main
from uxbench.runtime import credentials
from uxbench.runtime.credentials import CredentialScrubber, is_credential_name, looks_secret, url_credentials
from uxbench.runtime.hooks import RedactingStream

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from synth import write_release  # noqa: E402

ACCEPTED = "sk-accepted-key-0000"  # the key the servers accept; never echoed
LONG_KEY = "sk-proj-" + "AbCd0123" * 18  # 152 characters: folded across lines on an 80-column console


# ------------------------------------------------------------------ the rules


@pytest.mark.parametrize(
    ("name", "credential"),
    [
        ("OPENAI_API_KEY", True),
        ("HF_TOKEN", True),
        ("AWS_SECRET_ACCESS_KEY", True),
        ("LOCAL_CLIENT_SECRET", True),
        ("DB_PASSWORD", True),
        ("TOKEN", True),
        ("LOCAL_BASE_URL", False),
        ("TOKENIZERS_PARALLELISM", False),
        ("INSPECT_EVAL_MAX_TOKENS", False),
        ("MYTOKEN", False),
    ],
)
def test_credential_names(name: str, credential: bool) -> None:
    assert is_credential_name(name) is credential


@pytest.mark.parametrize(
    ("value", "secret"),
    [
        ("", False),
        ("abc", False),
        ("EMPTY", False),
        ("test-key", True),  # 8 characters, letters and punctuation
        ("password", False),  # a word
        ("changeme", False),
        ("12345678", False),  # a number
        ("abcdefghijklmnopqrst", True),  # 20 letters
        ("hf_abcdefgh", True),
    ],
)
def test_values_that_look_secret(value: str, secret: bool) -> None:
    assert looks_secret(value) is secret


@pytest.mark.parametrize(
    ("url", "credentials"),
    [
        ("https://alice:pw-1234abcd@host/v1", ["alice:pw-1234abcd", "pw-1234abcd"]),
        ("ssh://git@host/repo", ["git"]),
        ("https://host/v1?api_key=qk-uxb-0016&model=m", ["qk-uxb-0016"]),
        ("https://tok@host/v1?token=t-2&page=3", ["tok", "t-2"]),
        ("https://host/v1?page=3", []),
    ],
)
def test_url_credentials(url: str, credentials: list[str]) -> None:
    assert url_credentials(url) == credentials


REDACTIONS = [
    # (environment, text, redacted text)
    ({"LOCAL_API_KEY": "sk-abc-123456"}, "key sk-abc-123456 bad", "key [REDACTED:LOCAL_API_KEY] bad"),
    ({"A_TOKEN": "", "B_API_KEY": "abc", "C_SECRET": "password"}, "abc password ok", "abc password ok"),
    ({"HF_TOKEN": 'hf_"quoted"\\x'}, '{"m": "hf_\\"quoted\\"\\\\x"}', '{"m": "[REDACTED:HF_TOKEN]"}'),
    ({"LOCAL_API_KEY": LONG_KEY}, f"provided: {LONG_KEY[:30]}…", "provided: [REDACTED:LOCAL_API_KEY]…"),
    ({"LOCAL_API_KEY": "sk-abc-123456"}, "sk-abc-12345 cut short", "sk-abc-12345 cut short"),
    ({}, "Authorization: Bearer tok_8f3a9c2e1d", "Authorization: Bearer [REDACTED]"),
    ({}, "use Bearer authentication", "use Bearer authentication"),
    ({}, "Basic YWxpY2U6cHc=", "Basic [REDACTED]"),
    ({}, "base_url=https://alice:pw1@host:8000/v1", "base_url=https://alice:pw1@host:8000/v1"),  # not known
    (
        {"LOCAL_BASE_URL": "https://alice:pw1@host:8000/v1"},
        "base_url=https://alice:pw1@host:8000/v1",
        "base_url=https://[REDACTED:LOCAL_BASE_URL]@host:8000/v1",
    ),
    ({}, "see http://host/a@b and mail@example.com", "see http://host/a@b and mail@example.com"),
    # a URL's user-info is blanked out only where it is a known credential
    ({"LOCAL_API_KEY": "sk-abc-123456"}, "ssh://git@host/r.git", "ssh://git@host/r.git"),
    (
        {"DB_PASSWORD": "pw-4f9a/2b"},
        "postgres://admin:pw-4f9a%2F2b@db/x",
        "postgres://admin:[REDACTED:DB_PASSWORD]@db/x",
    ),
    (
        {"GITHUB_TOKEN": "ghp_abc123def456"},
        "https://ghp_abc123def456@github.com/o/r",
        "https://[REDACTED:GITHUB_TOKEN]@github.com/o/r",
    ),
    (
        {"HTTPS_PROXY": "http://bob:s3cret-pw@proxy:3128"},
        "via bob:s3cret-pw@proxy",
        "via [REDACTED:HTTPS_PROXY]@proxy",
    ),
    ({"HTTPS_PROXY": "http://bob:s3cret-pw@proxy:3128"}, "pw s3cret-pw", "pw [REDACTED:HTTPS_PROXY]"),
    ({"OPENAI_BASE_URL": "ssh://git@host/x"}, "ssh://git@host/y", "ssh://git@host/y"),  # a user name alone
    # the forms a page writes: Markdown-escaped (leaderboard.md), HTML character references
    ({"HF_TOKEN": "hf_a*b_c~d|e"}, r"token hf\_a\*b\_c\~d\|e", "token [REDACTED:HF_TOKEN]"),
    ({"HF_TOKEN": "hf_a/b+c/d+e"}, "hf_a&#x2f;b&#43;c&#47;d&#x2B;e", "[REDACTED:HF_TOKEN]"),
    (
        {"X_TOKEN": "tok-123456789"},
        "tok-123456789 and tok-123456789",
        "[REDACTED:X_TOKEN] and [REDACTED:X_TOKEN]",
    ),
]


@pytest.mark.parametrize(("environ", "text", "expected"), REDACTIONS)
def test_redact(environ: dict[str, str], text: str, expected: str) -> None:
    redactor = CredentialScrubber.from_environ(environ)
    assert redactor.redact(text) == expected
    assert redactor.redact(expected) == expected


def test_console_text_folded_across_lines_and_coloured() -> None:
    redactor = CredentialScrubber.from_environ({"LOCAL_API_KEY": LONG_KEY})
    folded = (
        f"│ Error: Bearer {LONG_KEY[:60]} │\n│ {LONG_KEY[60:140]}  │\n│ \x1b[1m{LONG_KEY[140:]}\x1b[0m rest │"
    )
    assert redactor.redact_rendered(folded) == (
        "│ Error: Bearer [REDACTED:LOCAL_API_KEY] │\n│   │\n│ \x1b[1m\x1b[0m rest │"
    )


# ------------------------------------------------------------------ runs against echoing servers


@dataclass(frozen=True)
class Case:
    id: str
    env: dict[str, str]  # here and in model_args, "{url}" is the server's URL, "{host}" its host:port
    expected: dict[str, str]  # log field (see `field_value`) → its exact value
    absent: tuple[str, ...]  # in no output at all
    accept: str | None = ACCEPTED  # the bearer token the server accepts (None: no check)
    reply: Callable[[dict[str, str]], Reply] | None = None  # the server's answer, given the env
    task: str = "uxbench/task1_judge"
    model_args: dict[str, str] = field(default_factory=dict)
    grader_args: dict[str, str] | None = None  # a grader role built with these model arguments
    refusal: str = "Incorrect API key provided: {authorization}"  # the server's 401 for another key


def refuse(template: str) -> Callable[[dict[str, str]], Reply]:
    """A 401 whose message names environment values (`{NAME}`, or `{NAME_HEX}`: its bytes in hex)."""
    return lambda env: Reply(
        status=401, error=template.format(**env, **{f"{k}_HEX": v.encode().hex() for k, v in env.items()})
    )


def grm_reply(env: dict[str, str]) -> Reply:
    return Reply(text="好", logprobs=[("好", -0.1, [("好", -0.1), ("差", -2.5)])])


PLACEHOLDERS = {"EMPTY_TOKEN": "", "SHORT_API_KEY": "abc", "WORD_SECRET": "password", "PIN_TOKEN": "12345678"}
CASES = [
    Case(
        "model-under-test-401",
        {"LOCAL_API_KEY": "sk-uxb-model-0001-canary"},
        {"error": "Error code: 401 - Incorrect API key provided: Bearer [REDACTED:LOCAL_API_KEY]"},
        ("sk-uxb-model-0001-canary",),
    ),
    Case(
        "grader-401",
        {"LOCAL_API_KEY": ACCEPTED, "GRM_API_KEY": "sk-uxb-grader-0002-canary", "GRM_BASE_URL": "{url}"},
        {
            "error": "grader openai-api/grm/grader-401: every call is refused, so the run stops: "
            "Error code: 401 - Incorrect API key provided: Bearer [REDACTED:GRM_API_KEY] "
            "(check the grader's --model-role binding, its API key and whether it returns logprobs)"
        },
        ("sk-uxb-grader-0002-canary",),
        task="uxbench/task2_eval",
    ),
    Case(
        "bearer-token-not-in-environment",
        {},
        {"error": "Error code: 401 - Incorrect API key provided: Bearer [REDACTED]"},
        ("tok-uxb-model-arg-0003",),
        model_args={"api_key": "tok-uxb-model-arg-0003"},
    ),
    Case(
        "model-arg-key-echoed-without-bearer",
        {},
        {"error": "Error code: 401 - bad key [REDACTED]"},
        ("tok-uxb-model-arg-0013",),
        model_args={"api_key": "tok-uxb-model-arg-0013"},
        refusal="bad key {key}",
    ),
    Case(
        "role-model-arg-key-echoed-without-bearer",
        {"LOCAL_API_KEY": ACCEPTED},
        {
            "error": "grader openai-api/grm/role-model-arg-key-echoed-without-bearer: every call is "
            "refused, so the run stops: Error code: 401 - bad key [REDACTED] (check the grader's "
            "--model-role binding, its API key and whether it returns logprobs)"
        },
        ("tok-uxb-role-arg-0014",),
        task="uxbench/task2_eval",
        grader_args={"api_key": "tok-uxb-role-arg-0014", "base_url": "{url}"},
        refusal="bad key {key}",
    ),
    Case(
        "key-echoed-in-hex",
        {"LOCAL_API_KEY": ACCEPTED, "LOCAL_CLIENT_SECRET": "cs-uxb-0015-canary"},
        {"error": "Error code: 401 - secret 0x[REDACTED:LOCAL_CLIENT_SECRET] expired"},
        (b"cs-uxb-0015-canary".hex(), b"cs-uxb-0015-canary".hex().upper()),
        reply=refuse("secret 0x{LOCAL_CLIENT_SECRET_HEX} expired"),
    ),
    Case(
        "url-user-info",
        {"LOCAL_API_KEY": ACCEPTED},
        {
            "error": "Error code: 401 - Incorrect API key provided: Basic [REDACTED]",
            "model_base_url": "http://[REDACTED]@{host}/v1",
        },
        ("pw-uxb-url-0004", "YWxpY2U6cHctdXhiLXVybC0wMDA0"),  # the password, and alice:password in base64
        model_args={"base_url": "http://alice:pw-uxb-url-0004@{host}/v1"},
    ),
    Case(
        "hf-token",
        {"LOCAL_API_KEY": ACCEPTED, "HF_TOKEN": "hf_uxbHubToken0005canary"},
        {"error": "Error code: 401 - token [REDACTED:HF_TOKEN] cannot access this model"},
        ("hf_uxbHubToken0005canary",),
        reply=refuse("token {HF_TOKEN} cannot access this model"),
    ),
    Case(
        "client-secret",
        {"LOCAL_API_KEY": ACCEPTED, "LOCAL_CLIENT_SECRET": "cs-uxb-0006-canary"},
        {"error": "Error code: 401 - client secret [REDACTED:LOCAL_CLIENT_SECRET] expired"},
        ("cs-uxb-0006-canary",),
        reply=refuse("client secret {LOCAL_CLIENT_SECRET} expired"),
    ),
    Case(
        "placeholder-values-stay",
        {"LOCAL_API_KEY": "sk-uxb-model-0007-canary", **PLACEHOLDERS},
        {
            "error": "Error code: 401 - Incorrect API key provided: [REDACTED:LOCAL_API_KEY] "
            "(empty: '', short: abc, word: password, number: 12345678)"
        },
        ("sk-uxb-model-0007-canary",),
        accept=None,
        reply=refuse(
            "Incorrect API key provided: {LOCAL_API_KEY} (empty: '{EMPTY_TOKEN}', short: {SHORT_API_KEY}, "
            "word: {WORD_SECRET}, number: {PIN_TOKEN})"
        ),
    ),
    Case(
        "key-cut-short-in-the-message",
        {"LOCAL_API_KEY": LONG_KEY},
        {"error": "Error code: 401 - key [REDACTED:LOCAL_API_KEY]... is not valid"},
        (LONG_KEY[:24],),
        accept=None,
        reply=refuse("key {LOCAL_API_KEY:.24}... is not valid"),
    ),
    Case(
        "long-key-folded-on-the-console",
        {"LOCAL_API_KEY": LONG_KEY},
        {"error": "Error code: 401 - Incorrect API key provided: Bearer [REDACTED:LOCAL_API_KEY]"},
        (LONG_KEY[:16], LONG_KEY[-16:]),
    ),
    Case(
        "key-in-a-model-reply",
        {"LOCAL_API_KEY": "sk-uxb-model-0010-canary"},
        {"output": "好 (my key is [REDACTED:LOCAL_API_KEY])"},
        ("sk-uxb-model-0010-canary",),
        accept=None,
        reply=lambda env: Reply(text=f"好 (my key is {env['LOCAL_API_KEY']})"),
    ),
]


def field_value(log: EvalLog, name: str) -> str | None:
    if name == "error":
        return log.error.message if log.error else None
    if name == "output":
        assert log.samples
        return log.samples[0].output.completion
    return getattr(log.eval, name)


def responder(case: Case, env: dict[str, str]) -> Callable[[dict], Reply]:
    if case.reply is not None:
        return lambda request: case.reply(env)  # type: ignore[misc]
    return lambda request: grm_reply(env) if request.get("logprobs") else Reply(text="好")


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_release(tmp_path_factory.mktemp("data"), task1=2, task2=2, task3=0)


@pytest.mark.integration
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_echoed_credentials_are_redacted(
    case: Case, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    server = OpenAIServer(lambda request: Reply(), api_key=case.accept, refusal=case.refusal)
    host = server.url.removeprefix("http://").removesuffix("/v1")
    env = {name: value.format(url=server.url, host=host) for name, value in case.env.items()}
    server.responder = responder(case, env)
    for name, value in {"LOCAL_BASE_URL": server.url, **env}.items():
        monkeypatch.setenv(name, value)
    if "LOCAL_API_KEY" not in env:
        monkeypatch.delenv("LOCAL_API_KEY", raising=False)
    model_args = {name: value.format(url=server.url, host=host) for name, value in case.model_args.items()}
    model = get_model(f"openai-api/local/{case.id}", **model_args)
    grader: str | Model | None = f"openai-api/grm/{case.id}" if "GRM_API_KEY" in env else None
    if case.grader_args is not None:
        args = {name: value.format(url=server.url) for name, value in case.grader_args.items()}
        grader = get_model(f"openai-api/grm/{case.id}", **args)
    with server:
        [log] = eval(
            case.task,
            model=model,
            model_roles={"grader": grader} if grader else None,
            task_args={"data": str(data)},
            log_dir=str(tmp_path / "logs"),
            display="plain",
            max_retries=0,
        )
    console = capfd.readouterr()
    log = read_eval_log(log.location)
    expected = {name: value.format(host=host) for name, value in case.expected.items()}
    assert {name: field_value(log, name) for name in expected} == expected
    assert log_leaks(Path(log.location), case.absent) == []
    assert found(case.absent, console.out + console.err) == []
    assert report_leaks(tmp_path / "logs", tmp_path / "report", case.absent) == []


# ------------------------------------------------------------------ reports of logs never redacted


@pytest.mark.integration
def test_report_and_redact_command_on_unredacted_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Logs from a killed run, an older version or another machine: the report redacts its own
    outputs, even where it cuts an error message short in the middle of a key, and
    `uxbench scrub-credentials` rewrites the logs themselves — with the environment's credentials and the
    base URL each log's header says its run was configured with."""
    monkeypatch.setenv("OPENAI_API_KEY", LONG_KEY)
    [log] = eval(
        "uxbench/task1_judge",
        model="mockllm/model",
        task_args={"data": "sample"},
        limit=1,
        log_dir=str(tmp_path / "run"),
        display="none",
    )
    messages = [
        f"Error code: 401 - Incorrect API key provided: Bearer {LONG_KEY}",  # cut at 200 characters
        "Connection refused: https://bob:pw-uxb-report-0011@llm.internal/v1 (Bearer tok_uxb_report_0012)",
    ]
    for number, message in enumerate(messages):
        log.status = "error"
        log.error = EvalError(message=message, traceback="", traceback_ansi="")
        log.eval.model = f"openai-api/local/m{number}"
        log.eval.model_base_url = "https://bob:pw-uxb-report-0011@llm.internal/v1" if number else None
        write_eval_log(log, str(tmp_path / "logs" / f"unredacted-{number}.eval"))
    secrets = (LONG_KEY[:16], "pw-uxb-report-0011", "tok_uxb_report_0012")
    assert log_leaks(tmp_path / "logs" / "unredacted-0.eval", secrets) == [f"header.json: {LONG_KEY[:16]}"]
    assert report_leaks(tmp_path / "logs", tmp_path / "report", secrets) == []
    markdown = (tmp_path / "report" / "leaderboard.md").read_text(encoding="utf-8")
    assert r"Incorrect API key provided: Bearer \[REDACTED:OPENAI\_API\_KEY\]" in markdown
    assert r"https://\[REDACTED\]@llm.internal/v1 (Bearer \[REDACTED\])" in markdown  # Markdown-escaped

    expected = [
        CredentialScrubber.from_environ()
        .including(read_eval_log(str(tmp_path / "logs" / f"unredacted-{n}.eval")).eval)
        .redact(m)
        for n, m in enumerate(messages)
    ]
    assert expected[1] == "Connection refused: https://[REDACTED]@llm.internal/v1 (Bearer [REDACTED])"
    capsys.readouterr()
    assert uxbench_main(["scrub-credentials", str(tmp_path / "logs"), str(tmp_path / "run")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 of 3 file(s) held credentials"
    for number in range(len(messages)):
        path = tmp_path / "logs" / f"unredacted-{number}.eval"
        assert log_leaks(path, secrets) == []
        error = read_eval_log(str(path), header_only=True).error
        assert error is not None and error.message == expected[number]


# ------------------------------------------------------------------ the command line: console and trace file


def inspect_eval(tmp_path: Path, env: dict[str, str], *args: str) -> tuple[str, Path]:
    """Run `inspect eval` with its own trace file; its console output and its log."""
    env = {**os.environ, **env, "NO_COLOR": "1", "INSPECT_TRACE_FILE": str(tmp_path / "trace.log")}
    command = [sys.executable, "-m", "inspect_ai", "eval", *args, "--display", "plain"]
    command += ["--log-dir", str(tmp_path / "logs")]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    (log_path,) = (tmp_path / "logs").glob("*.eval")
    return result.stdout + result.stderr, log_path


def trace_text(tmp_path: Path) -> str:
    """The run's trace file (gzipped when the process exits)."""
    compressed = tmp_path / "trace.log.gz"
    data = (
        gzip.decompress(compressed.read_bytes())
        if compressed.exists()
        else (tmp_path / "trace.log").read_bytes()
    )
    return data.decode("utf-8", errors="replace")


@pytest.mark.integration
@pytest.mark.slow
def test_cli_console_trace_and_log(data: Path, tmp_path: Path) -> None:
    """`inspect eval` itself: a grader whose long key comes back in every 401, retried once, so
    the key passes through the logged sample errors, the trace file and the final error panel
    (folded across lines there)."""
    env = {"LOCAL_API_KEY": ACCEPTED, "GRM_API_KEY": LONG_KEY}
    args = ["uxbench/task2_eval", "-T", f"data={data}", "--model", "openai-api/local/m"]
    args += ["--model-role", "grader=openai-api/grm/g", "--retry-on-error", "1", "--log-model-api"]
    with OpenAIServer(grm_reply, api_key=ACCEPTED) as server:
        console, log_path = inspect_eval(
            tmp_path, {**env, "LOCAL_BASE_URL": server.url, "GRM_BASE_URL": server.url}, *args
        )
    message = "Error code: 401 - Incorrect API key provided: Bearer [REDACTED:GRM_API_KEY]"
    log = read_eval_log(str(log_path))
    assert log.status == "error" and log.error is not None
    refused = "grader openai-api/grm/g: every call is refused, so the run stops: "
    assert log.error.message.startswith(refused + message)
    secrets = (LONG_KEY[:16], LONG_KEY[60:76], LONG_KEY[-16:])
    assert "Sample will be retried" in " ".join(console.split()) and "[REDACTED:GRM_API_KEY]" in console
    assert found(secrets, console) == []
    trace = trace_text(tmp_path)
    assert (
        "Incorrect API key provided: Bearer [REDACTED:GRM_API_KEY]" in trace and found(secrets, trace) == []
    )
    assert log_leaks(log_path, secrets) == []


@pytest.mark.integration
@pytest.mark.slow
def test_missing_grader_and_bad_data_messages_carry_no_secret(tmp_path: Path, data: Path) -> None:
    secrets = {"LOCAL_API_KEY": "sk-secret-123-uxbench-canary", "HF_TOKEN": "hf_secret456uxbenchcanary"}
    env = {**os.environ, **secrets, "LOCAL_BASE_URL": "http://127.0.0.1:9/v1", "NO_COLOR": "1"}
    # a missing grader and bad data both stop the task before any log, in one line (exit 1)
    runs = [
        (["uxbench/task2_eval", "-T", f"data={data}"], "--model-role grader=", 1),
        (["uxbench/task1_judge", "-T", "data=/nonexistent"], "no such file or directory", 1),
    ]
    for args, expected, code in runs:
        logs = tmp_path / args[0].replace("/", "_")
        command = [sys.executable, "-m", "inspect_ai", "eval", *args, "--model", "openai-api/local/m"]
        command += ["--log-dir", str(logs), "--display", "plain"]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        written = [read_eval_log(str(path)).error for path in logs.glob("*.eval")]
        errors = " ".join(error.message for error in written if error is not None)
        output = " ".join((result.stdout + result.stderr + errors).split())
        assert (result.returncode != 0) == bool(code) and expected in output
        assert "Traceback" not in result.stderr and found(tuple(secrets.values()), output) == []


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("given_as", ["-M", "--model-config"])
def test_cli_key_given_as_model_argument(given_as: str, data: Path, tmp_path: Path) -> None:
    """`-M api_key=…` and a --model-config file's key, echoed without `Bearer`: Inspect keeps
    neither in the log header, so the hook reads them off the task's models."""
    key = "tok-uxb-cli-arg-0017-canary"
    config = tmp_path / "model.yaml"
    config.write_text(f"api_key: {key}\n", encoding="utf-8")
    given = ["-M", f"api_key={key}"] if given_as == "-M" else ["--model-config", str(config)]
    args = ["uxbench/task1_judge", "-T", f"data={data}", "--model", "openai-api/local/m", *given]
    with OpenAIServer(grm_reply, api_key=ACCEPTED, refusal="bad key {key}") as server:
        console, log_path = inspect_eval(tmp_path, {"LOCAL_BASE_URL": server.url}, *args)
    log = read_eval_log(str(log_path))
    assert log.error is not None and log.error.message == "Error code: 401 - bad key [REDACTED]"
    assert found((key,), console) == [] and "bad key [REDACTED]" in " ".join(console.split())
    assert log_leaks(log_path, (key,)) == []
    assert report_leaks(tmp_path / "logs", tmp_path / "report", (key,)) == []


def test_console_in_a_latin1_locale() -> None:
    """The console wrapper escapes what the terminal's encoding cannot show (the Chinese metric
    names under a latin-1 locale) instead of crashing at the end of the run."""
    raw = io.BytesIO()
    console = io.TextIOWrapper(raw, encoding="latin-1")
    stream = RedactingStream(console, CredentialScrubber({"LOCAL_API_KEY": "sk-uxb-latin1-0018"}))
    assert stream.write("准确率 0.9 café sk-uxb-latin1-0018\n") == 32
    console.flush()
    assert raw.getvalue().decode("latin-1") == "\\u51c6\\u786e\\u7387 0.9 café [REDACTED:LOCAL_API_KEY]\n"


@pytest.mark.integration
def test_full_disk_leaves_the_log_whole_and_says_so(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A disk that fills while the redacted copy is written: the log stays whole (the copy is
    dropped) and a warning names it and `uxbench scrub-credentials`."""
    key = "sk-uxb-full-disk-0019"

    def full_disk(path: Path, write: Callable[[Path], object]) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(credentials, "replace_file", full_disk)
    monkeypatch.setenv("LOCAL_API_KEY", key)
    with OpenAIServer(lambda request: Reply(), api_key=ACCEPTED, refusal="bad key {key}") as server:
        monkeypatch.setenv("LOCAL_BASE_URL", server.url)
        [log] = eval(
            "uxbench/task1_judge",
            model="openai-api/local/m",
            task_args={"data": str(data)},
            log_dir=str(tmp_path / "logs"),
            display="none",
            max_retries=0,
        )
    assert read_eval_log(log.location).status == "error"  # whole: it still reads
    warnings = [r.getMessage() for r in caplog.records if "could not be blanked out" in r.getMessage()]
    assert warnings == [
        f"{log.location}: credentials could not be blanked out of this log ([Errno 28] No space left on "
        f"device); it is unchanged and may hold them: free space, then run "
        f"`uxbench scrub-credentials {log.location}`"
    ]
    assert list((tmp_path / "logs").iterdir()) == [Path(log.location)]
