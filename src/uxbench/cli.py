"""The `uxbench` command line: a click group (Inspect's own CLI library) with one command per feature.

Each feature module defines its click command (`report`, `pipeline`, `explore`, `scrub-credentials`,
`people`, `run`, `estimate`). The group imports a command's module only when that command runs (or
`--help` lists them all), so `uxbench run` starts its shard processes without first importing
Inspect and every task (bench/results_shards.md).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module

import click

# command name -> "module:attribute" of its click command
COMMANDS = {
    "estimate": "uxbench.tasks.estimate:estimate",
    "explore": "uxbench.web.cli:explore",
    "people": "uxbench.qualification.people_cli:people",
    "pipeline": "uxbench.pipeline.cli:pipeline",
    "report": "uxbench.report.cli:report",
    "run": "uxbench.runtime.launch:run",
    "scrub-credentials": "uxbench.runtime.credentials_cli:scrub_credentials",
}


class LazyGroup(click.Group):
    """A group whose commands are imported by name, on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name].split(":")
        command: click.Command = getattr(import_module(module), attribute)
        return command


@click.group(name="uxbench", cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="uxbench", prog_name="uxbench", message="%(prog)s %(version)s")
def uxbench() -> None:
    """UXBench tools for Inspect AI."""


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
