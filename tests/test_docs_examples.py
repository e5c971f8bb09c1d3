"""Commands the docs give people to copy (issue 24): an `eval-retry` example passes `--log-dir`,
since without it the resumed log goes to `./logs` of wherever the command is run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RETRY = re.compile(r"inspect eval-retry [^`\n]*")


def test_every_eval_retry_example_passes_the_log_directory() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    examples = [
        (page.name, example) for page in pages for example in RETRY.findall(page.read_text(encoding="utf-8"))
    ]
    assert examples  # the docs do show how to resume
    assert [(page, example) for page, example in examples if "--log-dir" not in example] == []
