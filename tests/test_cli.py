"""The `uxbench` command line: click's help and usage errors, exit codes returned, not raised."""

import subprocess
import sys

import click
import pytest

from uxbench.cli import main, uxbench

pytestmark = pytest.mark.integration


def command_at(path: tuple[str, ...]) -> click.Command:
    """The command a path names (through click's API: the top group loads its commands lazily)."""
    command: click.Command = uxbench
    for name in path:
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None, path
        command = found
    return command


def commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path under GROUP, groups included."""
    found = []
    for name in group.list_commands(click.Context(group)):
        found.append((*prefix, name))
        command = command_at((*prefix, name))
        if isinstance(command, click.Group):
            found += commands(command, (*prefix, name))
    return found


def test_every_command_has_a_one_line_summary_and_helped_options(capsys: pytest.CaptureFixture[str]) -> None:
    paths = commands(uxbench)
    assert {
        ("report",),
        ("pipeline", "run"),
        ("pipeline", "audit", "score"),
        ("explore",),
        ("scrub-credentials",),
    } <= set(paths)
    for path in paths:
        assert main([*path, "--help"]) == 0
        assert capsys.readouterr().out.startswith(f"Usage: uxbench {' '.join(path)} ")
        command = command_at(path)
        summary = command.get_short_help_str(limit=80)
        assert summary.endswith(".") and not summary.endswith("..."), path
        unhelped = [p.name for p in command.params if isinstance(p, click.Option) and not p.help]
        assert unhelped == [], path


def test_usage_errors_exit_2_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "logs"]) == 2  # --out missing
    assert "Error: Missing option '--out'" in capsys.readouterr().err
    assert main(["pipeline", "run", "raw.jsonl", "--out", "o", "--executor", "slurm"]) == 2
    assert "Invalid value for '--executor'" in capsys.readouterr().err
    assert main(["nonesuch"]) == 2


def test_python_m_uxbench_cli_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "uxbench.cli", "-h"], capture_output=True, text=True, timeout=60, check=True
    )
    assert "pipeline" in done.stdout and "Build UXBench test sets" in done.stdout


def test_the_command_line_starts_light() -> None:
    """`uxbench --help` imports every command's module, none of the libraries they run on."""
    heavy = "{'torch', 'transformers', 'datasets', 'matplotlib', 'ray', 'uvicorn'}"
    code = f"import sys, uxbench.cli; uxbench.cli.main(['--help']); print(sorted({heavy} & set(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_launcher_starts_without_inspect_or_the_tasks() -> None:
    """`uxbench run` only starts `inspect` processes: it imports neither Inspect nor a task
    before them (each shard process pays for those itself; bench/results_shards.md)."""
    code = (
        "import sys, uxbench.cli; from uxbench.cli import uxbench as group; import click; "
        "group.get_command(click.Context(group), 'run'); "
        "print(sorted(m for m in sys.modules if m == 'inspect_ai' or m.startswith('uxbench.tasks')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"
