"""The `uxbench` command line: a click group (Inspect's own CLI library) with one command per feature.

Each feature module defines its click command (`report`, `pipeline`, `explore`, `scrub-credentials`, `people`,
`run`); heavy imports stay inside the command functions, so `uxbench --help` starts fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from uxbench.pipeline.cli import pipeline
from uxbench.qualification.people_cli import people
from uxbench.report.cli import report
from uxbench.runtime.credentials_cli import scrub_credentials
from uxbench.runtime.launch import run
from uxbench.tasks.estimate import estimate
from uxbench.web.cli import explore


@click.group(name="uxbench", context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="uxbench", prog_name="uxbench", message="%(prog)s %(version)s")
def uxbench() -> None:
    """UXBench tools for Inspect AI."""


for _command in (report, pipeline, explore, scrub_credentials, people, run, estimate):
    uxbench.add_command(_command)


def main(argv: Sequence[str] | None = None) -> int:
    """Run `uxbench ARGV...` and return its exit code (usage errors: 2, like Inspect's commands)."""
    try:
        code = uxbench.main(
            args=list(argv) if argv is not None else None, prog_name="uxbench", standalone_mode=False
        )
    except click.ClickException as error:
        error.show()
        return error.exit_code
    except click.Abort:
        click.echo("Aborted!", err=True)
        return 1
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
