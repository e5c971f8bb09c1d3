"""Benchmark what redaction adds at the end of a run: `CredentialScrubber.redact_log_file` on a Task 2 log
of full size (4,900 samples).

    python bench/redaction.py                     # writes bench/results_redaction.md
    python bench/redaction.py --samples 500 --out /tmp/results.md

The log is made by running Task 2 on 49 synthetic records against the load server's
responder (replies of realistic length, GRM logprobs), then repeating its samples under new
ids. Two timings: a log with no credential in it (every run with nothing to hide pays this
scan), and the same log with a key in every sample (scan, then rewrite).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from loadserver import bench_responder
from machine import cpu_model
from synth import write_release

# the corpora and servers the tests use live in tests/helpers
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.localserver import OpenAIServer  # noqa: E402

KEY = "sk-bench-" + "Xy12" * 10
# what a typical environment holds besides: each key is looked for in every form (docs/scale.md)
OTHERS = {
    "OPENAI_API_KEY": "sk-proj-" + "Ab9/Cd+e" * 6,
    "HF_TOKEN": "hf_" + "QwErTy12" * 4,
    "ANTHROPIC_API_KEY": "sk-ant-api03-" + "Zx_8-Yw7" * 10,
    "GRM_BASE_URL": "http://grader:pw-4f9a%2F2b@grm.internal/v1",
}


def make_log(work: Path, samples: int) -> Path:
    from inspect_ai import eval
    from inspect_ai.log import write_eval_log

    data = write_release(work / "data", task1=0, task2=49, task3=0)
    with OpenAIServer(bench_responder) as server:
        os.environ.update({"BENCH_API_KEY": "unused-by-the-server", "BENCH_BASE_URL": server.url})
        [log] = eval(
            "uxbench/task2_eval",
            model="openai-api/bench/model",
            model_roles={"grader": "openai-api/bench/grm"},
            task_args={"data": str(data)},
            log_dir=str(work / "run"),
            display="none",
        )
    assert log.samples is not None and log.status == "success"
    base = log.samples
    log.samples = [
        base[i % len(base)].model_copy(update={"id": f"{base[i % len(base)].id}-{i}"}) for i in range(samples)
    ]
    path = work / "full.eval"
    write_eval_log(log, str(path))
    return path


def with_key_in_every_sample(path: Path, out: Path) -> Path:
    """A copy whose sample members each carry KEY, as an echoed 401 would leave it."""
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.startswith("samples/"):
                data = data.replace(b'"metadata":{', f'"metadata":{{"echo":"{KEY}",'.encode(), 1)
            target.writestr(info, data)
    return out


def timed(original: Path, environ: dict[str, str]) -> tuple[float, bool, float]:
    """Redact a copy of `original` in a fresh process, with the credentials of `environ`: wall
    seconds, whether it changed, peak memory (MB)."""
    path = original.with_name(f"copy-{original.name}")
    shutil.copyfile(original, path)
    code = (
        "import re, sys, time; from uxbench.runtime.credentials import CredentialScrubber; "
        f"r = CredentialScrubber.from_environ({environ!r}); start = time.perf_counter(); "
        "changed = r.redact_log_file(sys.argv[1]); "
        # VmHWM, not ru_maxrss: the latter counts the benchmark's own memory copied by fork
        "peak = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1); "
        "print(time.perf_counter() - start, changed, peak)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    seconds, changed, rss = result.stdout.split()
    return float(seconds), changed == "True", int(rss) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=4900)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("results_redaction.md"))
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        clean = make_log(work, args.samples)
        keyed = with_key_in_every_sample(clean, work / "keyed.eval")
        one = {"BENCH_API_KEY": KEY}
        clean_seconds, clean_changed, clean_rss = timed(clean, one)
        keyed_seconds, keyed_changed, keyed_rss = timed(keyed, one)
        many_seconds, many_changed, many_rss = timed(clean, {**one, **OTHERS})
        many_keyed_seconds, many_keyed_changed, many_keyed_rss = timed(keyed, {**one, **OTHERS})
        assert not clean_changed and keyed_changed and not many_changed and many_keyed_changed
        redacted = keyed.with_name(f"copy-{keyed.name}")
        assert KEY.encode() not in b"".join(
            zipfile.ZipFile(redacted).read(name) for name in zipfile.ZipFile(redacted).namelist()
        )
        with zipfile.ZipFile(clean) as archive:
            uncompressed = sum(info.file_size for info in archive.infolist()) / 1e6
        size = clean.stat().st_size / 1e6
    load_after = os.getloadavg()
    lines = [
        "# Redaction benchmark: rewriting a full-size log at the end of a run",
        "",
        f"A Task 2 log of {args.samples:,} samples ({size:.1f} MB on disk, "
        f"{uncompressed:.0f} MB uncompressed),",
        "`CredentialScrubber.redact_log_file` with one credential to look for, then with five (keys with",
        "`/` and `+`, a base URL with a password), each in every encoding it is looked for in.",
        "",
        "Reproduce with:",
        "",
        f"    python bench/redaction.py --samples {args.samples}",
        "",
        "| log | wall time (s) | rewritten | peak memory (MB, VmHWM, imports included) |",
        "|---|---:|---|---:|",
        f"| no credential in it | {clean_seconds:.1f} | no | {clean_rss:.0f} |",
        f"| a key in every sample | {keyed_seconds:.1f} | yes | {keyed_rss:.0f} |",
        f"| no credential in it, five looked for | {many_seconds:.1f} | no | {many_rss:.0f} |",
        f"| a key in every sample, five looked for | {many_keyed_seconds:.1f} | yes | {many_keyed_rss:.0f} |",
        "",
        "Each redaction runs in a fresh process; members are read and rewritten one at a time.",
        "",
        "Machine:",
        "",
        f"- cpu: {cpu_model()}",
        f"- cores: {os.cpu_count()}",
        f"- python: {platform.python_version()}",
        f"- load average before: {' / '.join(f'{x:.2f}' for x in load_before)}",
        f"- load average after: {' / '.join(f'{x:.2f}' for x in load_after)}",
        "",
    ]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
