"""Pick the logs a report is built from: the newest successful log per experiment (task,
model, grader, settings and dataset revision; see run_settings.py), the newest successful
grader_check per grader, task and template (the qualifications that correct Task 2/3 rows),
the shard logs of one experiment pooled (pooling.py), and say why every other log was left out.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from uxbench.qualification.match import GRADER_CHECK
from uxbench.report.logs import CheckLog, Run, Skipped, log_paths, read_runs
from uxbench.report.pooling import pool_shards
from uxbench.report.workers import pmap


def _read_runs(entry: tuple[str, str]) -> list[Run | CheckLog | Skipped]:
    return read_runs(*entry)


def _newest_checks(found: list[CheckLog], skipped: list[Skipped]) -> list[CheckLog]:
    """The newest check per grader, task, reference and template; older ones are skipped."""
    chosen: dict[tuple[str, ...], CheckLog] = {}
    for item in sorted(found, key=lambda c: (c.check.created, c.check.location), reverse=True):
        check = item.check
        key = (str(check.grader), check.task, check.reference, str(check.template))
        if key in chosen:
            newer = chosen[key].name
            reason = f"an older grader_check of the same grader, task and template; the newer {newer} is used"
            skipped.append(Skipped(check.location, item.name, GRADER_CHECK, check.grader.model, reason))
        else:
            chosen[key] = item
    return sorted(chosen.values(), key=lambda c: (str(c.check.grader), c.check.task))


def _newest_scoring(runs: list[Run], skipped: list[Skipped]) -> list[Run]:
    """One file per run: `inspect score --output-file` writes a re-scored copy of a log, with the
    same eval id; only the file written last (the newest scoring) is reported, the others skipped."""
    newest: dict[str, Run] = {}
    for run in runs:
        kept = newest.get(run.eval_id)
        if kept is None or (run.written, run.log) > (kept.written, kept.log):
            newest[run.eval_id] = run
    shown = []
    for run in runs:
        latest = newest[run.eval_id]
        if not run.eval_id or latest.log == run.log:
            shown.append(run)
        else:
            reason = f"the same run as {latest.name}, re-scored later (inspect score); that scoring is shown"
            skipped.append(Skipped(run.log, run.name, run.task, run.model, reason))
    return shown


def collect(
    log_dirs: list[str | Path], partial: bool = True, pool_dir: Path | None = None
) -> tuple[list[Run], list[CheckLog], list[Skipped]]:
    """The runs to report (one file per run, the newest scoring; the newest per experiment; a
    complete run before a partial one; the shard logs of one experiment pooled into one run, its
    log written under `pool_dir`, see shards.py), the grader checks (the newest per grader, task
    and template) and the logs left out, with reasons."""
    found: list[Run | CheckLog] = []
    skipped: list[Skipped] = []
    for item in (found for items in pmap(_read_runs, list(log_paths(log_dirs).items())) for found in items):
        if isinstance(item, Skipped):
            skipped.append(item)
        else:
            found.append(item)
    if any(item.shard for item in found):
        if pool_dir is None:
            raise ValueError("shard logs are pooled into new logs: give collect() a pool_dir")
        found, left_out = pool_shards(found, pool_dir)
        skipped += left_out
    runs: list[Run] = []
    checks = [item for item in found if isinstance(item, CheckLog)]
    for item in (item for item in found if isinstance(item, Run)):
        if item.partial and not partial:
            reason = f"partial: {item.partial} (--complete-only)"
            skipped.append(Skipped(item.log, item.name, item.task, item.model, reason))
        else:
            runs.append(item)
    chosen: dict[str, Run] = {}
    runs = _newest_scoring(runs, skipped)
    for run in sorted(runs, key=lambda r: (r.partial is None, r.created, r.log), reverse=True):
        shown = chosen.get(run.key)
        if shown is None:
            chosen[run.key] = run
        elif run.partial and not shown.partial:
            reason = f"partial: {run.partial}; a complete run of the same settings is shown ({shown.name})"
            skipped.append(Skipped(run.log, run.name, run.task, run.model, reason))
        else:
            reason = f"an older run of the same settings; the newer {shown.name} is shown"
            skipped.append(Skipped(run.log, run.name, run.task, run.model, reason))
    checks = _newest_checks(checks, skipped)
    shown = _resumed(list(chosen.values()), runs, skipped)
    return sorted(shown, key=lambda r: (r.task, r.model)), checks, skipped


def _resumed(shown: list[Run], runs: list[Run], skipped: list[Skipped]) -> list[Run]:
    """A paused log is listed as "paused by <person>, resumed in <log>" (its retry keeps its task
    id), and the row its retry gives says it resumed that log."""
    for index, item in enumerate(skipped):
        retry = next((r for r in runs if item.paused_by and item.task_id and r.task_id == item.task_id), None)
        if retry is None:
            continue
        reason = f"paused by {item.paused_by}, resumed in {retry.name}"
        skipped[index] = dataclasses.replace(item, reason=reason)
        shown = [
            dataclasses.replace(r, resumed_from=item.name) if r.task_id == item.task_id else r for r in shown
        ]
    return shown
