"""`uxbench explore DATA`: serve the data explorer (uxbench.web.explore) until Ctrl-C."""

from __future__ import annotations

import getpass
from pathlib import Path

import click

DEFAULT_EXCLUDE = "uxbench-exclusions.jsonl"


@click.command("explore")
@click.argument("data")
@click.option("--revision", default=None, help="Hub commit or tag.")
@click.option(
    "--exclude",
    default=DEFAULT_EXCLUDE,
    help=f"Exclusion file to append to (default: ./{DEFAULT_EXCLUDE}); tasks read it: -T exclude=FILE.",
)
@click.option("--who", default=getpass.getuser, help="Your name in the exclusions (default: login name).")
@click.option("--port", type=int, default=0, help="Port on 127.0.0.1 (default: a free one).")
def explore(data: str, revision: str | None, exclude: str, who: str, port: int) -> int:
    """Browse the test sets and exclude records with a reason.

    Browse the four sets of DATA (hub, sample, a directory holding the release files, or one
    .jsonl file): counts by label, filters, search, conversations as chat; exclude records with
    a reason, and the tasks leave them out with -T exclude=FILE.
    """
    from uxbench.runtime.errors import DataError
    from uxbench.web.explore import Explorer, explore_app, load_entries
    from uxbench.web.server import LocalServer

    try:
        entries, problems = load_entries(data, revision)
        exclusions = Path(exclude).expanduser().absolute()  # resolve() fails on a symlink loop
        explorer = Explorer(entries, problems, exclusions, who, data)
        server = LocalServer(explore_app(explorer), port, name="uxbench-explore").start()
    except DataError as error:
        print(f"uxbench explore: {error}")
        return 2
    unusable = f" ({len(problems)} unusable, listed on the page)" if problems else ""
    print(f"uxbench explore: {len(entries)} records from {data}{unusable}; exclusions go to {exclusions}")
    print(f"open {server.url}   (Ctrl-C stops)", flush=True)
    server.wait()
    return 0
