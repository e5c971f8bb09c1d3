"""`uxbench pipeline ...`: one subcommand per stage, plus export, build, run and synth.

Exit codes: 0 done; 1 an error (bad input, other settings, an Inspect run that ended in error);
3 done, but some items failed and were left out (run again to retry them); 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from uxbench.errors import DataError

EXIT_FAILED_ITEMS = 3


def _model(args: argparse.Namespace) -> Any:
    """The model agent stages call: a named Inspect model or the built-in dry-run stand-in."""
    from uxbench.pipeline.models import ModelSpec

    if args.dry_run:
        return ModelSpec(dry_run=True)
    if not args.model:
        raise DataError("give --model (any Inspect model, e.g. openai-api/local/qwen) or --dry-run")
    model_args: list[tuple[str, str]] = []
    for pair in args.model_arg or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise DataError(f"-M {pair!r}: use KEY=VALUE")
        model_args.append((key, value))
    return ModelSpec(args.model, args.model_base_url, tuple(model_args))


# flags passed on to inspect_ai.eval under the same names
_EVAL_FLAGS = ("max_connections", "log_level", "max_retries", "timeout", "attempt_timeout", "fail_on_error")


def _eval_args(args: argparse.Namespace) -> dict[str, Any]:
    return {name: getattr(args, name) for name in _EVAL_FLAGS if getattr(args, name) is not None}


def _workers(args: argparse.Namespace) -> int:
    """--workers, by default this machine's cores (on Ray: 0, the cluster's CPUs)."""
    from uxbench.pipeline.parallel import default_workers

    if args.workers is not None:
        if args.workers < 1:
            raise DataError(f"--workers {args.workers}: give 1 or more")
        return int(args.workers)
    return 0 if getattr(args, "executor", "local") == "ray" else default_workers()


def _executor(args: argparse.Namespace) -> Any:
    from uxbench.pipeline.executors import make_executor

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


def _build_config(args: argparse.Namespace) -> Any:
    from uxbench.pipeline.build import BuildConfig, parse_targets

    try:
        targets = parse_targets(args.targets or "")
    except ValueError as error:
        raise DataError(f"--targets: {error}") from None
    return BuildConfig(targets, args.min_per_label, args.max_share, seed=args.seed)


# ---------------------------------------------------------------- commands


def _synth(args: argparse.Namespace) -> None:
    from uxbench.pipeline.synth import write_synth

    count = write_synth(args.out, args.n, args.seed)
    print(f"wrote {count} synthetic conversations to {args.out}")


def _signals(args: argparse.Namespace) -> None:
    from uxbench.pipeline.stages import signals_stage

    counts = signals_stage(args.raw, args.out, args.skip_bad, workers=_workers(args))
    print(
        f"signals: {counts['conversations']} conversations "
        f"({counts['skipped_lines']} bad lines skipped) → {args.out}"
    )


def _prefilter(args: argparse.Namespace) -> None:
    from uxbench.pipeline.stages import prefilter_stage

    counts = prefilter_stage(
        args.signals, args.out, args.rejected, args.near_threshold, args.unsafe_terms, workers=_workers(args)
    )
    print(
        f"prefilter: kept {counts['kept']} of {counts['conversations_in']}; "
        f"rejected {counts['rejected']} → {args.out}"
    )


def _agent(stage: str) -> Callable[[argparse.Namespace], int]:
    def command(args: argparse.Namespace) -> int:
        from uxbench.pipeline.agentrun import AGENT_STAGES, run_agent_stage

        with _executor(args) as executor:
            counts = run_agent_stage(
                AGENT_STAGES[stage],
                args.input,
                args.out,
                _model(args),
                args.chunk_size,
                {"log_realtime": False, **_eval_args(args)},
                force=args.force,
                executor=executor,
            )
        shown = {k: v for k, v in counts.items() if k != "failed_examples"}
        print(f"{stage}: {shown} → {args.out}")
        return _report_failed({stage: counts["failed"]} if counts["failed"] else {})

    return command


def _export(args: argparse.Namespace) -> None:
    from uxbench.pipeline.agentrun import export_logs

    counts = export_logs(args.logs, args.out)
    print(f"exported {counts} → {args.out}")


def _build(args: argparse.Namespace) -> None:
    from uxbench.pipeline.build import build

    stats = build(args.qa, args.out, _build_config(args))
    sizes = {name: facts["size"] for name, facts in stats["build"]["sets"].items()}
    print(f"test sets {sizes} and stats.json / stats.md written to {args.out}")


def _run(args: argparse.Namespace) -> int:
    from uxbench.pipeline.runner import RunOptions, failed_items, run_pipeline

    options = RunOptions(
        chunk_size=args.chunk_size,
        skip_bad=args.skip_bad,
        near_threshold=args.near_threshold,
        unsafe_terms=args.unsafe_terms,
        build=_build_config(args),
        eval_args=_eval_args(args),
        force=args.force,
        workers=_workers(args),
        executor=args.executor,
        ray_address=args.ray_address,
    )
    stats = run_pipeline(args.raw, args.out, _model(args), options, progress=not args.no_progress)
    sizes = {name: facts["size"] for name, facts in stats["build"]["sets"].items()}
    print(f"test sets {sizes}, stats.json and stats.md written to {args.out}")
    return _report_failed(failed_items(stats))


# ---------------------------------------------------------------- arguments


def _model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", help="Inspect model for the agent stages, e.g. openai-api/local/qwen")
    parser.add_argument("--model-base-url", help="base URL of the model's API (OpenAI-compatible endpoints)")
    parser.add_argument("-M", dest="model_arg", action="append", metavar="KEY=VALUE", help="model argument")
    parser.add_argument(
        "--dry-run", action="store_true", help="answer with the built-in stand-in model (no API)"
    )
    parser.add_argument("--chunk-size", type=int, default=100, help="samples per Inspect run (resume unit)")
    _workers_option(parser)
    parser.add_argument(
        "--executor", choices=("local", "ray"), default="local", help="local processes, or Ray tasks"
    )
    parser.add_argument("--ray-address", help="Ray cluster to run on: auto (default) or HOST:PORT")
    parser.add_argument("--max-connections", type=int, help="concurrent model requests")
    parser.add_argument("--max-retries", type=int, help="retries of a failing model call (Inspect's)")
    parser.add_argument("--timeout", type=int, help="seconds a model call may take, retries included")
    parser.add_argument("--attempt-timeout", type=int, help="seconds one attempt of a model call may take")
    parser.add_argument(
        "--fail-on-error",
        type=float,
        help="stop a chunk once this share (< 1) or count of its samples failed (default: never; "
        "failed samples are left out and retried on the next run)",
    )
    parser.add_argument("--log-level", help="Inspect console log level")
    parser.add_argument(
        "--force", action="store_true", help="resume with other settings than the recorded ones"
    )


def _workers_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workers", type=int, help="worker processes (chunks run at once), by default the cores"
    )


def _prefilter_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--near-threshold", type=float, default=0.8, help="MinHash Jaccard of near duplicates"
    )
    parser.add_argument(
        "--unsafe-terms", help="extra unsafe terms: category<TAB>keyword[<TAB>regex] per line"
    )


def _build_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--targets",
        help="set sizes, e.g. task1_judge_bad=1000,task1_judge_good=1000,task2_eval=4900,task3_recovery=500",
    )
    parser.add_argument("--min-per-label", type=int, default=5, help="floor per dimension / pattern")
    parser.add_argument("--max-share", type=float, default=0.4, help="ceiling of one label's share of a set")
    parser.add_argument("--seed", type=int, default=0, help="tie-break seed of the sampling")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("pipeline", help="build UXBench test sets from your own feedback logs")
    stages = parser.add_subparsers(dest="stage", required=True)

    p = stages.add_parser("synth", help="write synthetic raw logs")
    p.add_argument("--n", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    p.set_defaults(func=_guard(_synth))

    p = stages.add_parser("signals", help="stage 1: user reactions of every conversation")
    p.add_argument("raw")
    p.add_argument("--out", required=True)
    p.add_argument("--skip-bad", action="store_true", help="skip and count bad lines instead of stopping")
    _workers_option(p)
    p.set_defaults(func=_guard(_signals))

    p = stages.add_parser("prefilter", help="stage 2: rules, unsafe screen, duplicates")
    p.add_argument("signals")
    p.add_argument("--out", required=True)
    p.add_argument("--rejected", help="write the rejected cids and reasons here")
    _prefilter_options(p)
    _workers_option(p)
    p.set_defaults(func=_guard(_prefilter))

    for stage, text in (("miner", "stage 3"), ("judge", "stage 4"), ("qa", "stage 5")):
        p = stages.add_parser(stage, help=f"{text}: run the {stage} agent (resumable)")
        p.add_argument("input")
        p.add_argument("--out", required=True)
        _model_options(p)
        p.set_defaults(func=_guard(_agent(stage)))

    p = stages.add_parser("export", help="Inspect logs of an agent stage → the next stage's JSONL")
    p.add_argument("logs", nargs="+")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_guard(_export))

    p = stages.add_parser("build", help="QA'd cases → the four test-set files and the stats report")
    p.add_argument("qa")
    p.add_argument("--out", required=True)
    _build_options(p)
    p.set_defaults(func=_guard(_build))

    p = stages.add_parser("run", help="every stage in order; run again to resume")
    p.add_argument("raw")
    p.add_argument("--out", required=True)
    p.add_argument("--skip-bad", action="store_true", help="skip and count bad raw lines instead of stopping")
    p.add_argument("--no-progress", action="store_true", help="no progress display")
    _model_options(p)
    _prefilter_options(p)
    _build_options(p)
    p.set_defaults(func=_guard(_run))


def _guard(command: Callable[[argparse.Namespace], int | None]) -> Callable[[argparse.Namespace], int]:
    """User mistakes and interruptions end with a message and an exit code, not a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args) or 0
        except DataError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print(
                "interrupted; finished work is kept — run the same command again to resume", file=sys.stderr
            )
            return 130

    return run
