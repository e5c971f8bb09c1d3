"""`uxbench pipeline ...`: one click command per stage, plus inspect, export, build, audit, run
and synth.

A command is a function under `@pipeline.command(NAME)`, its options as click decorators (the
shared ones are `_model_options`, `_build_options`, ...), wrapped in `@_guarded`, which hands it
the parsed values as one `Options` and turns a `DataError` or Ctrl-C into a message and an exit code.

Exit codes: 0 done; 1 an error (bad input, other settings, an Inspect run that ended in error);
3 done, but some items failed and were left out (run again to retry them); 130 interrupted.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import click

from uxbench.runtime.errors import DataError

EXIT_FAILED_ITEMS = 3

# a command's parsed arguments and options, by parameter name
Options = SimpleNamespace


# flags passed on to inspect_ai.eval under the same names
_EVAL_FLAGS = (
    "max_connections",
    "log_level",
    "max_retries",
    "timeout",
    "attempt_timeout",
    "fail_on_error",
    "temperature",
    "max_tokens",
    "reasoning_effort",
    "reasoning_tokens",
)


def _eval_args(args: Options) -> dict[str, Any]:
    return {name: getattr(args, name) for name in _EVAL_FLAGS if getattr(args, name) is not None}


def _model_args(args: Options) -> tuple[tuple[str, str], ...]:
    model_args: list[tuple[str, str]] = []
    for pair in args.model_arg or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise DataError(f"-M {pair!r}: use KEY=VALUE")
        model_args.append((key, value))
    return tuple(model_args)


def _model(args: Options) -> Any:
    """The model of `--model` (with `--model-base-url` and `-M`), the dry-run stand-in, or None."""
    from uxbench.pipeline.run.models import ModelSpec

    if args.dry_run:
        return ModelSpec(dry_run=True)
    return ModelSpec(args.model, args.model_base_url, _model_args(args)) if args.model else None


def _setups(args: Options) -> dict[str, Any]:
    """Each agent stage's model and Inspect settings (flags, --config, INSPECT_EVAL_MODEL)."""
    from uxbench.pipeline.run.settings import STAGES, CommandLine, stage_setups

    flags = CommandLine(
        model=_model(args),
        base_url=args.model_base_url,
        model_args=_model_args(args),
        stage_models={name: getattr(args, f"{name}_model", None) for name in STAGES},
        eval_args=_eval_args(args),
        config=args.config,
        dry_run=args.dry_run,
    )
    return stage_setups(flags)


def _workers(args: Options) -> int:
    """--workers, by default this machine's cores (on Ray: 0, the cluster's CPUs)."""
    from uxbench.pipeline.run.parallel import default_workers

    if args.workers is not None:
        if args.workers < 1:
            raise DataError(f"--workers {args.workers}: give 1 or more")
        return int(args.workers)
    return 0 if getattr(args, "executor", "local") == "ray" else default_workers()


def _executor(args: Options) -> Any:
    from uxbench.pipeline.run.executors import make_executor

    return make_executor(args.executor, _workers(args), args.ray_address)


def _report_failed(failed: dict[str, int]) -> int:
    """Exit code 3, and what to do, when some items' model calls failed."""
    if not failed:
        return 0
    listing = ", ".join(f"{stage} {n}" for stage, n in failed.items())
    print(
        f"warning: {sum(failed.values())} items failed and were left out ({listing}); their errors are "
        "under `failed_examples` in the stats. Run the same command again to retry only those.",
        file=sys.stderr,
    )
    return EXIT_FAILED_ITEMS


def _build_config(args: Options) -> Any:
    from uxbench.pipeline.stages.build import BuildConfig, parse_targets

    try:
        targets = parse_targets(args.targets or "")
    except ValueError as error:
        raise DataError(f"--targets: {error}") from None
    return BuildConfig(targets, args.min_per_label, args.max_share, seed=args.seed, overlap=args.overlap)


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)


def _guarded(body: Callable[[Options], int | None]) -> Callable[..., int]:
    """User mistakes and interruptions end with a message and an exit code, not a traceback."""

    @functools.wraps(body)
    def command(**params: Any) -> int:
        with _terminate_as_interrupt():
            return _run_guarded(body, params)

    return command


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the run is, so that it ends as a Ctrl-C does (exit 143)."""


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While a command runs in the main thread, SIGTERM ends it like Ctrl-C: finished work kept,
    the worker processes stopped, a message, no traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(number: int, frame: object) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run_guarded(body: Callable[[Options], int | None], params: dict[str, Any]) -> int:
    try:
        return body(Options(**params)) or 0
    except DataError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        if error.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        print(
            f"error: the disk is full ({error.strerror}) writing {error.filename or 'the run'}; "
            "free some space and run the same command again to resume (finished work is kept)",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt as interrupt:
        if threading.current_thread() is threading.main_thread():
            # the workers are stopped and the process is exiting: a further Ctrl-C changes nothing
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("interrupted; finished work is kept — run the same command again to resume", file=sys.stderr)
        return 143 if isinstance(interrupt, Terminated) else 130


# ---------------------------------------------------------------- options shared by several commands


def _options(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Several click options as one decorator, listed in --help in the order given."""

    def apply(function: Any) -> Any:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


def _out(text: str) -> Callable[[Any], Any]:
    return click.option("--out", required=True, help=text)


_input_options = click.option(
    "--map", help="YAML file naming the input's id, turns, role, text, time and rating fields."
)
_redact_option = click.option(
    "--no-redact",
    is_flag=True,
    help="Keep emails, phone numbers, ID and card numbers, names … as they are (default: replace them).",
)
_workers_option = click.option(
    "--workers", type=int, help="Worker processes (chunks run at once), by default the cores."
)
_model_options = _options(
    click.option(
        "--model",
        help="Inspect model for the agent stages (default: INSPECT_EVAL_MODEL), e.g. openai/gpt-4o.",
    ),
    click.option("--config", help="YAML file: models and Inspect settings, per stage or for all."),
    click.option("--model-base-url", help="Base URL of the model's API (OpenAI-compatible endpoints)."),
    click.option("-M", "model_arg", multiple=True, metavar="KEY=VALUE", help="Model argument (repeatable)."),
    click.option("--dry-run", is_flag=True, help="Answer with the built-in stand-in model (no API)."),
    click.option(
        "--chunk-size", type=int, default=100, help="Samples per Inspect run (resume unit; default: 100)."
    ),
    _workers_option,
    click.option(
        "--executor",
        type=click.Choice(("local", "ray")),
        default="local",
        help="Local processes (default), or Ray tasks.",
    ),
    click.option("--ray-address", help="Ray cluster to run on: auto (default) or HOST:PORT."),
    click.option("--max-connections", type=int, help="Concurrent model requests."),
    click.option("--max-retries", type=int, help="Retries of a failing model call (Inspect's)."),
    click.option("--timeout", type=int, help="Seconds a model call may take, retries included."),
    click.option("--attempt-timeout", type=int, help="Seconds one attempt of a model call may take."),
    click.option(
        "--fail-on-error",
        type=float,
        help="Stop a chunk once this share (< 1) or count of its samples failed (default: never; "
        "failed samples are left out and retried on the next run).",
    ),
    click.option("--temperature", type=float, help="Sampling temperature (default: the stage's own)."),
    click.option("--max-tokens", type=int, help="Most tokens per answer (default: the stage's own)."),
    click.option(
        "--reasoning-effort",
        type=click.Choice(("none", "minimal", "low", "medium", "high", "xhigh", "max")),
        help="Reasoning effort of reasoning models.",
    ),
    click.option("--reasoning-tokens", type=int, help="Most reasoning tokens (Anthropic models)."),
    click.option("--log-level", help="Inspect console log level."),
    click.option("--force", is_flag=True, help="Resume with other settings than the recorded ones."),
)
_prefilter_options = _options(
    click.option(
        "--near-threshold", type=float, default=0.8, help="MinHash Jaccard of near duplicates (default: 0.8)."
    ),
    click.option("--unsafe-terms", help="Extra unsafe terms: category<TAB>keyword[<TAB>regex] per line."),
)
_build_options = _options(
    click.option(
        "--targets",
        help="Set sizes, e.g. task1_judge_bad=1000,task1_judge_good=1000,task2_eval=4900,task3_recovery=500.",
    ),
    click.option("--min-per-label", type=int, default=5, help="Floor per dimension / pattern (default: 5)."),
    click.option(
        "--max-share", type=float, default=0.4, help="Ceiling of one label's share of a set (default: 0.4)."
    ),
    click.option("--seed", type=int, default=0, help="Tie-break seed of the sampling (default: 0)."),
    click.option(
        "--overlap",
        type=click.Choice(("auto", "disjoint", "shared")),
        default="auto",
        help="May a case enter several test sets: auto (only when too few fresh cases; default), "
        "disjoint, shared.",
    ),
)


# ---------------------------------------------------------------- commands


@click.group("pipeline")
def pipeline() -> None:
    """Build UXBench test sets from your own feedback logs.

    Exit codes: 0 done; 1 an error (bad input, other settings, an Inspect run that ended in error);
    3 done, but some items failed and were left out (run again to retry them); 130 interrupted.
    """


@pipeline.command("synth")
@click.option("--n", type=int, default=2000, help="Conversations to write (default: 2000).")
@click.option("--seed", type=int, default=0, help="Random seed (default: 0).")
@click.option("--pii", type=float, default=0.0, help="Share of conversations given made-up personal data.")
@_out("JSONL file to write.")
@_guarded
def synth(args: Options) -> None:
    """Write synthetic raw logs."""
    from uxbench.pipeline.tools.synth import write_synth

    count = write_synth(args.out, args.n, args.seed, args.pii)
    print(f"wrote {count} synthetic conversations to {args.out}")


@pipeline.command("inspect")
@click.argument("raw")
@_input_options
@click.option("--problems", type=int, default=10, help="Bad records to list (default: 10).")
@_guarded
def inspect(args: Options) -> int:
    """What a run would read from an input file (check a --map)."""
    from uxbench.pipeline.tools.preview import inspect_input

    text, ok = inspect_input(args.raw, args.map, args.problems)
    print(text)
    return 0 if ok else 1


@pipeline.command("signals")
@click.argument("raw")
@_out("JSONL file to write.")
@click.option("--skip-bad", is_flag=True, help="Skip and count bad lines instead of stopping.")
@_input_options
@_redact_option
@_workers_option
@_guarded
def signals(args: Options) -> None:
    """Stage 1: user reactions of every conversation, then redaction."""
    from uxbench.pipeline.read.mapping import load_mapping
    from uxbench.pipeline.run.drivers import signals_stage

    fields = load_mapping(args.map)
    counts = signals_stage(
        args.raw, args.out, args.skip_bad, fields=fields, redact=not args.no_redact, workers=_workers(args)
    )
    _warn(counts["warnings"])
    redacted = ", ".join(f"{k} {v}" for k, v in counts["redacted"].items()) or "nothing"
    print(
        f"signals: {counts['conversations']} conversations ({counts['skipped_lines']} bad lines skipped; "
        f"redacted: {redacted}) → {args.out}"
    )


@pipeline.command("prefilter")
@click.argument("signals")
@_out("JSONL file to write.")
@click.option("--rejected", help="Write the rejected cids and reasons here.")
@_prefilter_options
@_workers_option
@_guarded
def prefilter(args: Options) -> None:
    """Stage 2: rules, unsafe screen, duplicates."""
    from uxbench.pipeline.run.drivers import prefilter_stage

    counts = prefilter_stage(
        args.signals, args.out, args.rejected, args.near_threshold, args.unsafe_terms, workers=_workers(args)
    )
    print(
        f"prefilter: kept {counts['kept']} of {counts['conversations_in']}; "
        f"rejected {counts['rejected']} → {args.out}"
    )


def _agent_command(stage: str, step: str) -> click.Command:
    @pipeline.command(stage, help=f"{step}: run the {stage} agent (resumable).")
    @click.argument("input")
    @_out("JSONL file to write.")
    @_model_options
    @_guarded
    def command(args: Options) -> int:
        from uxbench.pipeline.run.agentrun import AGENT_STAGES, run_agent_stage

        setup = _setups(args)[stage]
        with _executor(args) as executor:
            counts = run_agent_stage(
                AGENT_STAGES[stage],
                args.input,
                args.out,
                setup.model,
                args.chunk_size,
                {"log_realtime": False, **setup.eval_args},
                force=args.force,
                executor=executor,
            )
        shown = {k: v for k, v in counts.items() if k != "failed_examples"}
        print(f"{stage}: {shown} → {args.out}")
        return _report_failed({stage: counts["failed"]} if counts["failed"] else {})

    return command


for _stage, _step in (("miner", "Stage 3"), ("judge", "Stage 4"), ("qa", "Stage 5")):
    _agent_command(_stage, _step)


@pipeline.command("export")
@click.argument("logs", nargs=-1, required=True)
@_out("JSONL file to write.")
@_guarded
def export(args: Options) -> None:
    """Inspect logs of an agent stage → the next stage's JSONL."""
    from uxbench.pipeline.run.agentrun import export_logs

    counts = export_logs(list(args.logs), args.out)
    print(f"exported {counts} → {args.out}")


@pipeline.command("build")
@click.argument("qa")
@_out("Directory to write the test sets and stats to.")
@_build_options
@_guarded
def build_command(args: Options) -> None:
    """QA'd cases → the four test-set files and the stats report."""
    from uxbench.pipeline.stages.build import build

    stats = build(args.qa, args.out, _build_config(args))
    sizes = {name: facts["size"] for name, facts in stats["build"]["sets"].items()}
    print(f"test sets {sizes} and stats.json / stats.md written to {args.out}")


@pipeline.group("audit")
def audit() -> None:
    """Check the annotators against a person.

    Draw cases to annotate, then score the agreement.
    """


@audit.command("draw")
@click.argument("run")
@_out("File name; .jsonl and .csv are written.")
@click.option("--n", type=int, default=100, help="Cases to draw (default: 100).")
@click.option("--seed", type=int, default=0, help="Random seed (default: 0).")
@_guarded
def audit_draw(args: Options) -> None:
    """A stratified sample of a run's QA'd cases to annotate (JSONL and CSV).

    RUN is the run directory (holds 05_qa.jsonl).
    """
    from uxbench.pipeline.tools.audit import draw

    counts = draw(args.run, args.out, args.n, args.seed)
    base = args.out.removesuffix(".jsonl").removesuffix(".csv")
    print(
        f"audit: {counts['drawn']} of {counts['cases']} cases in {len(counts['strata'])} strata → "
        f"{base}.jsonl and {base}.csv; fill in human_label and human_decision (keep / reject), then "
        f"`uxbench pipeline audit score {base}.csv`"
    )


@audit.command("score")
@click.argument("filled")
@_guarded
def audit_score(args: Options) -> None:
    """κ and confusion matrices from a filled annotation file.

    FILLED is the filled .jsonl or .csv.
    """
    from uxbench.pipeline.tools.audit import render_score, score, write_score

    result = score(args.filled)
    print(render_score(result))
    print(f"(also in {write_score(args.filled, result)})")


@pipeline.command("scan")
@click.argument("path")
@click.option("--json", "as_json", is_flag=True, help="The counts and masked examples as JSON.")
@_guarded
def scan_command(args: Options) -> int:
    """The personal data a finished set still holds, per kind.

    PATH is a test-set file, a run directory or an Inspect log. Exit 0 when nothing is found,
    1 when something is (so a script can stop a publish).
    """
    import json

    from uxbench.pipeline.tools.scan import render, scan

    report = scan(args.path)
    shown = json.dumps(report.to_json(), ensure_ascii=False, indent=2) if args.as_json else None
    print(shown or render(report, args.path))
    return 1 if report.found else 0


@pipeline.command("run")
@click.argument("raw")
@_out("Run directory: every stage's files, the test sets, stats.json and stats.md.")
@click.option("--skip-bad", is_flag=True, help="Skip and count bad raw lines instead of stopping.")
@click.option("--no-progress", is_flag=True, help="No progress display.")
@_input_options
@_redact_option
@_options(
    *(
        click.option(f"--{stage}-model", help=f"Inspect model of the {stage} stage (default: --model).")
        for stage in ("miner", "judge", "qa")
    )
)
@_model_options
@_prefilter_options
@_build_options
@_guarded
def run(args: Options) -> int:
    """Every stage in order; run again to resume."""
    from uxbench.pipeline.run.runner import RunOptions, failed_items, run_pipeline

    setups = _setups(args)
    options = RunOptions(
        chunk_size=args.chunk_size,
        skip_bad=args.skip_bad,
        near_threshold=args.near_threshold,
        unsafe_terms=args.unsafe_terms,
        build=_build_config(args),
        eval_args=_eval_args(args),
        stage_eval_args={name: setup.eval_args for name, setup in setups.items()},
        force=args.force,
        mapping=args.map,
        redact=not args.no_redact,
        workers=_workers(args),
        executor=args.executor,
        ray_address=args.ray_address,
    )
    models = {name: setup.model for name, setup in setups.items()}
    stats = run_pipeline(args.raw, args.out, models, options, progress=not args.no_progress)
    if args.no_progress:
        _warn(stats["signals"]["warnings"])
    sizes = {name: facts["size"] for name, facts in stats["build"]["sets"].items()}
    print(f"test sets {sizes}, stats.json and stats.md written to {args.out}")
    return _report_failed(failed_items(stats))
