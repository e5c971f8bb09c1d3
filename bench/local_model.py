"""Benchmark the embedded model (`uxbench/smollm2`): load times, tokens per second, peak memory.

Run by hand (it takes a few minutes; the cold load converts the GGUF into a fresh cache):

    python bench/local_model.py [--out bench/results_local_model.md] [--tokens 128]

Each measurement runs in its own Python process, so load times include importing torch
and transformers, and peak RSS is that process's own. The cold load uses an empty
temporary UXBENCH_CACHE (conversion included); warm loads reuse it. Generation is
measured with the default torch threads and with OMP_NUM_THREADS=1, since a busy
2-core machine can be much faster with one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

STORY = [{"role": "user", "content": "Write a long story about a lighthouse keeper and a storm."}]
# about 500 prompt tokens of mixed English and Chinese, like a GRM grading prompt
LONG_PROMPT = [
    {
        "role": "user",
        "content": ("用户问：这个周末去哪里玩比较好？助手答：可以去公园散步，也可以看一场电影。" * 12)
        + "\nWould the user be satisfied? Answer 好 or 差.",
    }
]


def child(mode: str, tokens: int) -> dict[str, Any]:
    """One measurement, in this process: load, then (unless only loading) generate."""
    started = time.perf_counter()
    from uxbench.providers.decoding import Sampling
    from uxbench.providers.runtime import local_model
    from uxbench.providers.weights import converted_dir, is_converted

    converted_before = is_converted(converted_dir())
    model = local_model()
    result: dict[str, Any] = {
        "load_s": time.perf_counter() - started,
        "converted": not converted_before,
    }
    if mode == "generate":
        import torch

        result["torch_threads"] = torch.get_num_threads()
        model.complete(STORY, Sampling(max_tokens=4, temperature=0))  # warm-up
        begun = time.perf_counter()
        first = model.complete(STORY, Sampling(max_tokens=1, temperature=0))
        prefill_short = time.perf_counter() - begun
        begun = time.perf_counter()
        story = model.complete(STORY, Sampling(max_tokens=tokens, temperature=0))
        total = time.perf_counter() - begun
        result["decode_tokens"] = story.output_tokens
        result["decode_tok_s"] = (story.output_tokens - 1) / max(total - prefill_short, 1e-9)
        begun = time.perf_counter()
        graded = model.complete(LONG_PROMPT, Sampling(max_tokens=1, temperature=0, top_logprobs=5))
        prefill = time.perf_counter() - begun
        result["prefill_tokens"] = graded.input_tokens
        result["prefill_tok_s"] = graded.input_tokens / prefill
        result["short_prompt_tokens"] = first.input_tokens
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def run_child(mode: str, cache: Path, tokens: int, threads: int | None = None) -> dict[str, Any]:
    env = {**os.environ, "UXBENCH_CACHE": str(cache), "HF_HUB_OFFLINE": "1"}
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    command = [sys.executable, __file__, "--child", mode, "--tokens", str(tokens)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def machine() -> dict[str, str]:
    def read(command: list[str]) -> str:
        try:
            return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "unknown"

    cpu = next(
        (line.split(":", 1)[1].strip() for line in read(["lscpu"]).splitlines() if "Model name" in line),
        platform.processor() or "unknown",
    )
    memory = next(
        (
            line.split()[1]
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        "0",
    )
    import torch
    import transformers

    return {
        "nproc": read(["nproc"]),
        "memory": f"{int(memory) / 1024 / 1024:.1f} GiB",
        "cpu": cpu,
        "load average (1/5/15 min, at start)": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
    }


def report(facts: dict[str, str], results: dict[str, dict[str, Any]], command: str) -> str:
    cold, warm, default, single = (results[k] for k in ("cold", "warm", "default", "one thread"))
    lines = [
        "# Embedded model benchmark (`uxbench/smollm2`)",
        "",
        f"Command: `{command}` — each row is a separate Python process (times include importing torch).",
        "The machine may be shared: the load averages show how much else ran at the same time.",
        "",
        "| machine | |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in facts.items()),
        "",
        "| measurement | value |",
        "|---|---|",
        f"| cold load, converting the GGUF into an empty cache | {cold['load_s']:.1f} s |",
        f"| peak RSS, cold load | {cold['peak_rss_mb']:.0f} MB |",
        f"| warm load (converted copy in the cache) | {warm['load_s']:.1f} s |",
        f"| peak RSS, warm load | {warm['peak_rss_mb']:.0f} MB |",
    ]
    for name, row in (("default threads", default), ("OMP_NUM_THREADS=1", single)):
        lines += [
            f"| generation, {name} ({row['torch_threads']} torch threads), greedy, "
            f"{row['decode_tokens']} tokens | {row['decode_tok_s']:.1f} tokens/s |",
            f"| prompt processing, {name}, {row['prefill_tokens']}-token prompt | "
            f"{row['prefill_tok_s']:.0f} tokens/s |",
            f"| peak RSS, load + generation, {name} | {row['peak_rss_mb']:.0f} MB |",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_local_model.md")))
    parser.add_argument("--tokens", type=int, default=128, help="tokens to generate per measurement")
    parser.add_argument("--child", choices=["load", "generate"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.tokens)))
        return
    facts = machine()
    cache = Path(tempfile.mkdtemp(prefix="uxbench-bench-"))
    try:
        results = {
            "cold": run_child("load", cache, args.tokens),
            "warm": run_child("load", cache, args.tokens),
            "default": run_child("generate", cache, args.tokens),
            "one thread": run_child("generate", cache, args.tokens, threads=1),
        }
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    assert results["cold"]["converted"] and not results["warm"]["converted"]
    facts["load average (1/5/15 min, at end)"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    command = "python bench/local_model.py" + (f" --tokens {args.tokens}" if args.tokens != 128 else "")
    text = report(facts, results, command)
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
