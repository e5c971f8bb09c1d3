"""`uxbench people export LOG... --out FILE.jsonl`: a person's verdicts as a grader_check reference."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.group("people")
def people() -> None:
    """A person's verdicts from their uxbench/human runs."""


@people.command("export")
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path), metavar="LOG...")
@click.option(
    "--out",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="FILE.jsonl",
    help="The reference file to write (one JSON object per reply).",
)
@click.option("--force", is_flag=True, help="Overwrite FILE.jsonl if it exists.")
def export(logs: tuple[Path, ...], out: Path, force: bool) -> int:
    """Write a person's verdicts as a grader_check reference.

    Read the Inspect logs LOG... of one person (uxbench/human as the model of task1_judge, or
    as the grader of task2_eval / task3_recovery) and write one row per reply they called good
    or bad, for `inspect eval uxbench/grader_check -T reference=FILE.jsonl`. Skips, neutral
    answers, failed grades, errored and unfinished samples are counted, not written.
    """
    from uxbench.qualification.people_reference import export_logs
    from uxbench.runtime.errors import DataError
    from uxbench.runtime.userfiles import replace_file

    if out.exists() and not force:
        raise click.BadParameter(f"{out} exists; pass --force to overwrite it", param_hint="'--out'")
    found = export_logs(logs)
    if not found.rows:
        raise DataError(f"no good or bad verdicts in the {len(logs)} log(s) given ({found.summary()})")
    text = "".join(json.dumps(row.as_json(), ensure_ascii=False) + "\n" for row in found.rows)
    replace_file(out, lambda temp: temp.write_text(text, encoding="utf-8"))
    tasks = sorted({row.task for row in found.rows})
    print(f"wrote {out}: {found.summary()} ({', '.join(found.annotators)}; {', '.join(tasks)})")
    return 0
