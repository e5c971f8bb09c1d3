"""`uxbench pipeline ...`: one subcommand per stage, plus export, build, run and synth.

Exit codes: 0 done; 1 an error (bad input, other settings, an Inspect run that ended in error);
3 done, but some items failed and were left out (run again to retry them); 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from uxbench.runtime.errors import DataError

EXIT_FAILED_ITEMS = 3


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


def _eval_args(args: argparse.Namespace) -> dict[str, Any]:
    return {name: getattr(args, name) for name in _EVAL_FLAGS if getattr(args, name) is not None}


def _model_args(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    model_args: list[tuple[str, str]] = []
    for pair in args.model_arg or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise DataError(f"-M {pair!r}: use KEY=VALUE")
        model_args.append((key, value))
    return tuple(model_args)


def _model(args: argparse.Namespace) -> Any:
    """The model of `--model` (with `--model-base-url` and `-M`), the dry-run stand-in, or None."""
    from uxbench.pipeline.run.models import ModelSpec

    if args.dry_run:
        return ModelSpec(dry_run=True)
    return ModelSpec(args.model, args.model_base_url, _model_args(args)) if args.model else None


def _setups(args: argparse.Namespace) -> dict[str, Any]:
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


def _workers(args: argparse.Namespace) -> int:
    """--workers, by default this machine's cores (on Ray: 0, the cluster's CPUs)."""
    from uxbench.pipeline.run.parallel import default_workers

    if args.workers is not None:
        if args.workers < 1:
            raise DataError(f"--workers {args.workers}: give 1 or more")
        return int(args.workers)
    return 0 if getattr(args, "executor", "local") == "ray" else default_workers()


def _executor(args: argparse.Namespace) -> Any:
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


def _build_config(args: argparse.Namespace) -> Any:
    from uxbench.pipeline.stages.build import BuildConfig, parse_targets

    try:
        targets = parse_targets(args.targets or "")
    except ValueError as error:
        raise DataError(f"--targets: {error}") from None
    return BuildConfig(targets, args.min_per_label, args.max_share, seed=args.seed, overlap=args.overlap)


# ---------------------------------------------------------------- commands


def _synth(args: argparse.Namespace) -> None:
    from uxbench.pipeline.tools.synth import write_synth

    count = write_synth(args.out, args.n, args.seed, args.pii)
    print(f"wrote {count} synthetic conversations to {args.out}")


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)


def _signals(args: argparse.Namespace) -> None:
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


def _inspect(args: argparse.Namespace) -> int:
    from uxbench.pipeline.tools.preview import inspect_input

    text, ok = inspect_input(args.raw, args.map, args.problems)
    print(text)
    return 0 if ok else 1


def _prefilter(args: argparse.Namespace) -> None:
    from uxbench.pipeline.run.drivers import prefilter_stage

    counts = prefilter_stage(
        args.signals, args.out, args.rejected, args.near_threshold, args.unsafe_terms, workers=_workers(args)
    )
    print(
        f"prefilter: kept {counts['kept']} of {counts['conversations_in']}; "
        f"rejected {counts['rejected']} → {args.out}"
    )


def _agent(stage: str) -> Callable[[argparse.Namespace], int]:
    def command(args: argparse.Namespace) -> int:
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


def _audit_draw(args: argparse.Namespace) -> None:
    from uxbench.pipeline.tools.audit import draw

    counts = draw(args.run, args.out, args.n, args.seed)
    base = args.out.removesuffix(".jsonl").removesuffix(".csv")
    print(
        f"audit: {counts['drawn']} of {counts['cases']} cases in {len(counts['strata'])} strata → "
        f"{base}.jsonl and {base}.csv; fill in human_label and human_decision (keep / reject), then "
        f"`uxbench pipeline audit score {base}.csv`"
    )


def _audit_score(args: argparse.Namespace) -> None:
    from uxbench.pipeline.tools.audit import render_score, score, write_score

    result = score(args.filled)
    print(render_score(result))
    print(f"(also in {write_score(args.filled, result)})")


def _scan(args: argparse.Namespace) -> int:
    """Exit 0 when the set holds no personal data, 1 when it does (a script can stop a publish)."""
    import json

    from uxbench.pipeline.tools.scan import render, scan

    report = scan(args.path)
    shown = json.dumps(report.to_json(), ensure_ascii=False, indent=2) if args.json else None
    print(shown or render(report, args.path))
    return 1 if report.found else 0


def _register_scan(stages: Any) -> None:
    p = stages.add_parser("scan", help="the personal data a finished set (file or directory) still holds")
    p.add_argument("path", help="a test-set file, a run directory, an Inspect log …")
    p.add_argument("--json", action="store_true", help="the counts and masked examples as JSON")
    p.set_defaults(func=_guard(_scan))


def _export(args: argparse.Namespace) -> None:
    from uxbench.pipeline.run.agentrun import export_logs

    counts = export_logs(args.logs, args.out)
    print(f"exported {counts} → {args.out}")


def _build(args: argparse.Namespace) -> None:
    from uxbench.pipeline.stages.build import build

    stats = build(args.qa, args.out, _build_config(args))
    sizes = {name: facts["size"] for name, facts in stats["build"]["sets"].items()}
    print(f"test sets {sizes} and stats.json / stats.md written to {args.out}")


def _run(args: argparse.Namespace) -> int:
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


# ---------------------------------------------------------------- arguments


def _input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--map", help="YAML file naming the input's id, turns, role, text, time and rating fields"
    )


def _model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model", help="Inspect model for the agent stages (default: INSPECT_EVAL_MODEL), e.g. openai/gpt-4o"
    )
    parser.add_argument("--config", help="YAML file: models and Inspect settings, per stage or for all")
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
    parser.add_argument("--temperature", type=float, help="sampling temperature (default: the stage's own)")
    parser.add_argument("--max-tokens", type=int, help="most tokens per answer (default: the stage's own)")
    parser.add_argument(
        "--reasoning-effort",
        choices=("none", "minimal", "low", "medium", "high", "xhigh", "max"),
        help="reasoning effort of reasoning models",
    )
    parser.add_argument("--reasoning-tokens", type=int, help="most reasoning tokens (Anthropic models)")
    parser.add_argument("--log-level", help="Inspect console log level")
    parser.add_argument(
        "--force", action="store_true", help="resume with other settings than the recorded ones"
    )


def _redact_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-redact",
        action="store_true",
        help="keep emails, phone numbers, ID and card numbers, names … as they are (default: replace them)",
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
    parser.add_argument(
        "--overlap",
        choices=("auto", "disjoint", "shared"),
        default="auto",
        help="may a case enter several test sets: auto (only when too few fresh cases), disjoint, shared",
    )


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("pipeline", help="build UXBench test sets from your own feedback logs")
    stages = parser.add_subparsers(dest="stage", required=True)

    p = stages.add_parser("synth", help="write synthetic raw logs")
    p.add_argument("--n", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--pii", type=float, default=0.0, help="share of conversations given made-up personal data"
    )
    p.add_argument("--out", required=True)
    p.set_defaults(func=_guard(_synth))

    p = stages.add_parser("inspect", help="what a run would read from an input file (check a --map)")
    p.add_argument("raw")
    _input_options(p)
    p.add_argument("--problems", type=int, default=10, help="bad records to list")
    p.set_defaults(func=_guard(_inspect))

    p = stages.add_parser("signals", help="stage 1: user reactions of every conversation, then redaction")
    p.add_argument("raw")
    p.add_argument("--out", required=True)
    p.add_argument("--skip-bad", action="store_true", help="skip and count bad lines instead of stopping")
    _input_options(p)
    _redact_option(p)
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

    _register_scan(stages)

    p = stages.add_parser("export", help="Inspect logs of an agent stage → the next stage's JSONL")
    p.add_argument("logs", nargs="+")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_guard(_export))

    p = stages.add_parser("build", help="QA'd cases → the four test-set files and the stats report")
    p.add_argument("qa")
    p.add_argument("--out", required=True)
    _build_options(p)
    p.set_defaults(func=_guard(_build))

    p = stages.add_parser("audit", help="check the annotators against a person: draw cases, score agreement")
    audit = p.add_subparsers(dest="audit", required=True)
    a = audit.add_parser("draw", help="a stratified sample of a run's QA'd cases to annotate (JSONL and CSV)")
    a.add_argument("run", help="the run directory (holds 05_qa.jsonl)")
    a.add_argument("--out", required=True, help="file name; .jsonl and .csv are written")
    a.add_argument("--n", type=int, default=100, help="cases to draw")
    a.add_argument("--seed", type=int, default=0)
    a.set_defaults(func=_guard(_audit_draw))
    a = audit.add_parser("score", help="κ and confusion matrices from a filled annotation file")
    a.add_argument("filled", help="the filled .jsonl or .csv")
    a.set_defaults(func=_guard(_audit_score))

    p = stages.add_parser("run", help="every stage in order; run again to resume")
    p.add_argument("raw")
    p.add_argument("--out", required=True)
    p.add_argument("--skip-bad", action="store_true", help="skip and count bad raw lines instead of stopping")
    p.add_argument("--no-progress", action="store_true", help="no progress display")
    _input_options(p)
    _redact_option(p)
    for stage in ("miner", "judge", "qa"):
        p.add_argument(f"--{stage}-model", help=f"Inspect model of the {stage} stage (default: --model)")
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
