"""`uxbench explore DATA`: serve the data explorer (uxbench.web.explore) until Ctrl-C."""

from __future__ import annotations

import argparse
import getpass
from pathlib import Path

DEFAULT_EXCLUDE = "uxbench-exclusions.jsonl"


def run(args: argparse.Namespace) -> int:
    from uxbench.runtime.errors import DataError
    from uxbench.web.explore import Explorer, explore_app, load_entries
    from uxbench.web.server import LocalServer

    try:
        entries, problems = load_entries(args.data, args.revision)
        exclude = Path(args.exclude).expanduser().absolute()  # resolve() fails on a symlink loop
        explorer = Explorer(entries, problems, exclude, args.who, args.data)
        server = LocalServer(explore_app(explorer), args.port, name="uxbench-explore").start()
    except DataError as error:
        print(f"uxbench explore: {error}")
        return 2
    unusable = f" ({len(problems)} unusable, listed on the page)" if problems else ""
    print(f"uxbench explore: {len(entries)} records from {args.data}{unusable}; exclusions go to {exclude}")
    print(f"open {server.url}   (Ctrl-C stops)", flush=True)
    server.wait()
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "explore",
        help="browse the test sets in the browser and exclude records with a reason",
        description="Browse the four sets (counts by label, filters, search, conversations as chat) and "
        "exclude records with a reason; the tasks leave them out with -T exclude=FILE.",
    )
    parser.add_argument("data", help="hub, sample, a directory holding the release files, or one .jsonl file")
    parser.add_argument("--revision", default=None, help="hub commit or tag")
    parser.add_argument(
        "--exclude",
        default=DEFAULT_EXCLUDE,
        help=f"exclusion file to append to (default: ./{DEFAULT_EXCLUDE}); tasks read it: -T exclude=FILE",
    )
    parser.add_argument(
        "--who", default=getpass.getuser(), help="your name in the exclusions (default: login name)"
    )
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    parser.set_defaults(func=run)
