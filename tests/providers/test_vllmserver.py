"""Starting and stopping the vLLM server, with a stand-in for the vLLM environment's python.

The stand-in takes vLLM's command line, starts a child of its own (as vLLM starts its engine)
and answers /health; the real server is exercised by the `vllm` lane (test_vllm.py).
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.vllmserver import command, serve

from uxbench.runtime.errors import DataError

FAKE = """#!{python}
import http.server, os, subprocess, sys, time
args = sys.argv
port = int(args[args.index("--port") + 1])
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
open(os.environ["FAKE_CHILD"], "w").write(str(child.pid))
print("fake vllm: loading", flush=True)
if os.environ["FAKE_MODE"] == "crash":
    child.kill()
    sys.exit("fake vllm: boom")
if os.environ["FAKE_MODE"] == "never":
    time.sleep(300)

class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" else 404)
        self.end_headers()
    def log_message(self, *args):
        pass

http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""


def fake_python(tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    path = tmp_path / "python"
    path.write_text(FAKE.format(python=sys.executable), encoding="utf-8")
    path.chmod(0o755)
    child = tmp_path / "child.pid"
    monkeypatch.setenv("FAKE_MODE", mode)
    monkeypatch.setenv("FAKE_CHILD", str(child))
    return str(path), child


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not alive(pid)


@pytest.mark.integration
def test_serves_on_loopback_and_stops_its_process_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, child = fake_python(tmp_path, "serve", monkeypatch)
    with serve(python, tmp_path, tmp_path / "server.log", timeout=60) as served:
        assert served.base_url.startswith("http://127.0.0.1:") and served.base_url.endswith("/v1")
        assert served.model == "smol" and served.api_key
        engine = int(child.read_text())
        assert alive(served.pid) and alive(engine)
    assert gone(served.pid) and gone(engine)  # the engine too: the group was ended


@pytest.mark.integration
@pytest.mark.parametrize(
    ("mode", "timeout", "error"),
    [
        ("crash", 60, r"(?s)vLLM exited with 1 before it was ready.*boom"),
        ("never", 3, r"(?s)vLLM was not ready after 3 s.*fake vllm: loading"),
    ],
)
def test_a_server_that_is_not_ready_is_reported_with_its_log(
    mode: str, timeout: float, error: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, child = fake_python(tmp_path, mode, monkeypatch)
    with pytest.raises(RuntimeError, match=error):
        with serve(python, tmp_path, tmp_path / "server.log", timeout=timeout):
            pass
    assert gone(int(child.read_text()))  # stopped with its group


@pytest.mark.integration
def test_a_missing_python_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="UXBENCH_VLLM_PYTHON=.*no such python"):
        with serve(str(tmp_path / "nope"), tmp_path, tmp_path / "server.log"):
            pass


def test_the_command_line() -> None:
    argv = command("py", Path("/m"), 8000, ("smol", "grm"), extra=["--enforce-eager"])
    assert argv[:3] == ["py", "-m", "vllm.entrypoints.openai.api_server"]
    assert argv[argv.index("--host") + 1] == "127.0.0.1"
    assert argv[argv.index("--served-model-name") + 1 : argv.index("--host")] == ["smol", "grm"]
    assert "--max-logprobs" in argv and argv[-1] == "--enforce-eager"


@pytest.mark.integration
def test_the_server_dies_with_the_process_that_started_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test run killed outright (no fixture teardown) leaves no server behind."""
    python, _ = fake_python(tmp_path, "serve", monkeypatch)
    pid_file = tmp_path / "server.pid"
    starter = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from helpers.vllmserver import serve\n"
        f"with serve({python!r}, Path('.'), Path({str(tmp_path / 'server.log')!r}), timeout=60) as s:\n"
        f"    Path({str(pid_file)!r}).write_text(str(s.pid))\n"
        "    os._exit(0)\n"
    )
    tests = str(Path(__file__).resolve().parents[1])  # where `helpers` lives
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")]))}
    subprocess.run([sys.executable, "-c", starter], check=True, timeout=120, env=env)
    pid = int(pid_file.read_text())
    assert gone(pid)
    os.killpg(pid, signal.SIGKILL)  # the stand-in's own child (vLLM's front process ends its engine)
