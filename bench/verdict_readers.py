"""Verdict readers on pathological answers: time at two sizes, to show the work grows linearly.

    python bench/verdict_readers.py            # writes bench/results_verdict_readers.md

Each answer doubles in size between the two columns; a linear reader's time about doubles
(the old quadratic one quadrupled: 112 kB of unclosed `<think>` took 136 s).
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from pathlib import Path

from uxbench.data.templates import builtin_path, load_template
from uxbench.judge_answer.verdict import parse_verdict

TEMPLATE = load_template(builtin_path("judge_default.txt"))
ANSWERS: dict[str, Callable[[int], str]] = {
    "unclosed `<think>` × n": lambda n: "<think>" * n,
    "a label, n spaces": lambda n: "好" + " " * (7 * n) + "x",
    "a marker, n spaces": lambda n: "答案" + " " * (7 * n) + "x",
    "not, n spaces, good": lambda n: "not" + " " * (7 * n) + "good",
    "很好。 × n": lambda n: "很好。" * n,
}
SIZES = (16_000, 32_000)


def seconds(text: str) -> float:
    start = time.perf_counter()
    parse_verdict(text, TEMPLATE, "careful")
    return time.perf_counter() - start


def main() -> None:
    rows = [
        f"| {name} | {len(answer(SIZES[0])):,} | {seconds(answer(SIZES[0])):.3f} | "
        f"{len(answer(SIZES[1])):,} | {seconds(answer(SIZES[1])):.3f} |"
        for name, answer in ANSWERS.items()
    ]
    text = "\n".join(
        [
            "# Verdict readers on pathological answers (`bench/verdict_readers.py`)",
            "",
            f"Python {platform.python_version()}, careful reading, one run each.",
            "",
            "| answer | characters | seconds | characters | seconds |",
            "|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    out = Path(__file__).with_name("results_verdict_readers.md")
    out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
