"""The `uxbench` command line: one subcommand per feature module.

Each module in COMMANDS exposes `register(subparsers)`, which adds its subcommand and sets
`func` on the parsed arguments; heavy imports stay inside the command functions.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: list[str] = [
    "uxbench.report.cli",
    "uxbench.pipeline.cli",
    "uxbench.web.cli",
    "uxbench.runtime.redact_cli",
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="uxbench", description="UXBench tools for Inspect AI")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        importlib.import_module(module).register(subparsers)
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
