"""`uxbench pipeline run --workers 2` stopped by signals ends in bounded time, finished work kept.

One Ctrl-C used to exit in seconds, a second one to hang for minutes: the interpreter waited at
exit for the worker pools it had shut down without waiting, and swallowed each KeyboardInterrupt.
The run is a subprocess in its own process group, so a Ctrl-C reaches it and its workers as a
terminal's does; the model is a local server answering as the dry-run model, slowly, so the
agent stages are mid-chunk when the signals come. (A killed worker: test_pipeline_parallel.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.localserver import OpenAIServer, Reply, prompt_text
from inspect_ai.log import read_eval_log

from uxbench.pipeline.run.mock import answer_for

pytestmark = pytest.mark.integration


BOUND = 90  # seconds from the first signal to the exit: a 10 s grace for the chunks in flight, the exit
# itself (about 5 s alone, several times that on a loaded 2-core machine); the old hang was endless


def as_from_a_terminal() -> None:
    """Ctrl-C's default disposition in the run, as a terminal gives it: a shell's background job
    (CI under `nohup … &`, say) starts with SIGINT ignored, and Python then never raises
    KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def respond(request: dict) -> Reply:
    return Reply(text=json.dumps(answer_for(prompt_text(request)), ensure_ascii=False))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("signals", "code"),
    [(("INT", "INT"), 130), (("INT", "INT", "INT", "INT"), 130), (("TERM",), 143), (("TERM", "INT"), 130)],
    ids=["two Ctrl-C", "four Ctrl-C", "SIGTERM", "SIGTERM then Ctrl-C"],
)
def test_interrupts_end_in_bounded_time(
    signals: tuple[str, ...], code: int, pipeline_raw: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-m", "uxbench.cli", "pipeline", "run", str(pipeline_raw), "--out", str(out)]
    command += ["--model", "openai-api/local/m", "--workers", "2", "--no-progress", "--chunk-size", "10"]
    with OpenAIServer(respond, latency=0.3) as server:
        env = {**os.environ, "LOCAL_BASE_URL": server.url, "LOCAL_API_KEY": "local-key-0000"}
        run = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            preexec_fn=as_from_a_terminal,
        )
        try:
            deadline = time.monotonic() + 120
            while len(server.requests) < 6 and run.poll() is None and time.monotonic() < deadline:
                time.sleep(0.2)
            assert run.poll() is None, run.communicate()[1][-2000:]
            started = time.monotonic()
            for name in signals:
                if name == "INT":
                    os.killpg(run.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the run and its workers
                else:
                    os.kill(run.pid, signal.SIGTERM)  # as `kill PID`: the run only
                time.sleep(1.0)
            _, stderr = run.communicate(timeout=BOUND)
            took = time.monotonic() - started
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.communicate()
    assert run.returncode == code, stderr[-2000:]
    assert took < BOUND
    assert "interrupted; finished work is kept" in stderr and "Exception ignored" not in stderr
    # the stages finished before are kept, and every chunk log of the one stopped still reads
    assert (out / "02_prefilter.jsonl").is_file()
    logs = list(out.glob("*.work/logs/*/*.eval"))
    assert logs and all(read_eval_log(str(log), header_only=True) for log in logs)
