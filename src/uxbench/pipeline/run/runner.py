"""`uxbench pipeline run`: every stage in order, resumable, with a progress display.

Each stage writes its output into the run directory atomically and then its `.stats.json`
sidecar; a stage whose sidecar exists is finished and skipped on the next run, unless it
left failed items (they are retried) or an earlier stage ran again. Agent stages also
resume inside the stage (see `agentrun`). The build stage is cheap and always rerun.
`pipeline.json` records the input's fingerprint, so a directory is never resumed on other
data, and the settings of every stage, so it is not resumed with other ones unless forced.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from uxbench.pipeline.read.files import Location, location, read_stats, stats_path
from uxbench.pipeline.read.mapping import Fields, load_mapping
from uxbench.pipeline.read.readers import check_input, detect_format, input_files
from uxbench.pipeline.run.agentrun import AGENT_STAGES, check_sendable, run_agent_stage, stage_settings
from uxbench.pipeline.run.drivers import prefilter_stage, signals_stage
from uxbench.pipeline.run.executors import Executor, make_executor
from uxbench.pipeline.run.manifest import read_manifest, settle
from uxbench.pipeline.run.models import ModelLike, resolve
from uxbench.pipeline.run.parallel import default_workers
from uxbench.pipeline.stages.build import BuildConfig, build
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

STAGE_FILES = {
    "signals": "01_signals.jsonl",
    "prefilter": "02_prefilter.jsonl",
    "miner": "03_miner.jsonl",
    "judge": "04_judge.jsonl",
    "qa": "05_qa.jsonl",
}


@dataclass
class RunOptions:
    chunk_size: int = 100
    skip_bad: bool = False
    near_threshold: float = 0.8
    unsafe_terms: str | None = None
    build: BuildConfig = field(default_factory=BuildConfig)
    eval_args: dict[str, Any] = field(default_factory=dict)  # passed on to inspect_ai.eval
    stage_eval_args: dict[str, dict[str, Any]] = field(
        default_factory=dict
    )  # per agent stage, over eval_args
    force: bool = False  # resume even when the settings differ from the recorded ones
    mapping: str | None = None  # --map FILE.yaml: which input fields hold what
    redact: bool = True  # replace personal data by typed placeholders before any stage sees it
    workers: int = 1  # processes for agent-stage chunks (Ray: chunks in flight, 0 = the cluster's CPUs)
    executor: str = "local"  # local | ray
    ray_address: str | None = None  # auto, or HOST:PORT of the Ray cluster

    def stage_args(self, name: str) -> dict[str, Any]:
        return {**self.eval_args, **self.stage_eval_args.get(name, {})}


Models = ModelLike | dict[str, ModelLike]  # one model for every agent stage, or one per stage


def stage_models(model: Models) -> dict[str, ModelLike]:
    return dict(model) if isinstance(model, dict) else dict.fromkeys(AGENT_STAGES, model)


def _count_lines(path: Path) -> int:
    with userfiles.open_binary(path, gunzip=False) as handle:
        return sum(block.count(b"\n") for block in iter(lambda: handle.read(1 << 20), b""))


def input_fingerprint(raw: Path, fields: Fields) -> str:
    """SHA-256 of the input file (of its files joined, for a ChatGPT export with its feedback)."""
    files = input_files(raw, detect_format(raw, fields))
    if len(files) == 1:
        return userfiles.file_sha256(files[0])
    return hashlib.sha256("".join(userfiles.file_sha256(f) for f in files).encode()).hexdigest()


def run_settings(model: Models, options: RunOptions, fields: Fields | None = None) -> dict[str, Any]:
    """Per stage, what its output depends on; chunk size, connections and the build's targets
    do not count (the build always runs again)."""
    terms: Any = options.unsafe_terms
    if terms and Path(terms).is_file():
        terms = {"path": str(terms), "sha256": userfiles.file_sha256(terms, "--unsafe-terms")}
    models = stage_models(model)
    fields = fields or load_mapping(options.mapping)
    return {
        "signals": {"skip_bad": options.skip_bad, "redact": options.redact, **fields.settings()},
        "prefilter": {"near_threshold": options.near_threshold, "unsafe_terms": terms},
        **{
            name: stage_settings(stage, models[name], options.stage_args(name))
            for name, stage in AGENT_STAGES.items()
        },
    }


def _check_manifest(raw: Path, out: Location, model: Models, options: RunOptions, fields: Fields) -> set[str]:
    """Refuse other input; refuse other settings unless forced. Returns the stages whose settings changed."""
    manifest = out / "pipeline.json"
    sha256 = input_fingerprint(raw, fields)
    previous = read_manifest(manifest)
    if previous and previous.get("sha256") != sha256:
        raise DataError(
            f"{out} holds a run on different input ({previous.get('input')}); "
            "use a new --out directory for this one"
        )
    run = {k: v for k, v in asdict(options).items() if k in ("chunk_size", "build", "workers", "executor")}
    run["eval_args"] = {k: v for k, v in options.eval_args.items() if isinstance(v, (str, int, float, bool))}
    facts = {"input": str(raw.resolve()), "sha256": sha256, "run": run}
    return settle(manifest, run_settings(model, options, fields), options.force, **facts)


class Progress:
    """A rich progress bar per stage (or nothing, for tests and pipes)."""

    def __init__(self, enabled: bool) -> None:
        self._progress: Any = None
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            # a console of our own: Inspect manages the global one around each eval
            self._progress = Progress(
                TextColumn("{task.description:<10}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
            )

    @contextmanager
    def running(self) -> Iterator[None]:
        if self._progress is None:
            yield
            return
        with self._progress:
            yield

    def stage(self, name: str, total: int | None, done: int = 0) -> Callable[[int], None]:
        if self._progress is None:
            return lambda n: None
        task = self._progress.add_task(name, total=total, completed=done)
        return lambda n: self._progress.advance(task, n)

    def lazy_stage(self, name: str) -> _LazyBar:
        """A bar whose total is known only once the stage has counted its items."""
        return _LazyBar(self, name)

    def note(self, text: str) -> None:
        if self._progress is not None:
            self._progress.console.print(text)


class _LazyBar:
    def __init__(self, progress: Progress, name: str) -> None:
        self._progress, self._name = progress, name
        self._advance: Callable[[int], None] = lambda n: None

    def start(self, total: int, done: int) -> None:
        self._advance = self._progress.stage(self._name, total, done)

    def advance(self, n: int) -> None:
        self._advance(n)


def run_pipeline(
    raw: str | Path,
    out: str | Path,
    model: Models,
    options: RunOptions | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Run (or resume) the whole pipeline on `raw` into `out` with one model for every agent
    stage or one per stage (`{"miner": ..., "judge": ..., "qa": ...}`); returns the stats."""
    options = options or RunOptions()
    # the raw log is read here; the run directory may be on storage every worker reaches
    raw, out = Path(raw), location(out)
    check_input(raw)
    fields = load_mapping(options.mapping)
    models = stage_models(model)
    for each in models.values():
        resolve(each)  # a model that cannot be set up stops the run before any stage
    with make_executor(options.executor, options.workers, options.ray_address) as executor:
        for each in models.values():
            check_sendable(each, executor)
        out.mkdir(parents=True, exist_ok=True)
        changed = _check_manifest(raw, out, model, options, fields)
        return _run_stages(raw, out, models, options, fields, executor, changed, Progress(progress))


def _run_stages(
    raw: Path,
    out: Location,
    models: dict[str, ModelLike],
    options: RunOptions,
    fields: Fields,
    executor: Executor,
    changed: set[str],
    display: Progress,
) -> dict[str, Any]:
    """Every stage not finished yet, in order; `changed`: the stages whose settings changed."""
    files = {name: out / file for name, file in STAGE_FILES.items()}
    redo = False  # once a stage runs, every later one runs too (resuming what it finished)

    def due(name: str) -> bool:
        nonlocal redo
        done = stats_path(files[name]).exists() and files[name].exists()
        failed = read_stats(files[name]).get(name, {}).get("failed", 0) if done else 0
        rerun = name in changed and name not in AGENT_STAGES  # agent stages keep finished work
        if redo or not done or failed or rerun:
            if done and failed:
                display.note(f"{name}: retrying {failed} failed items")
            redo = True
            return True
        display.note(f"{name}: finished earlier, skipped")
        return False

    # the deterministic stages run on this machine's cores
    local = options.workers if options.executor == "local" else default_workers()
    with display.running():
        if due("signals"):
            total = (
                _count_lines(raw) if detect_format(raw, fields) == "jsonl" and raw.suffix != ".gz" else None
            )
            advance = display.stage("signals", total)
            counts = signals_stage(
                raw,
                files["signals"],
                options.skip_bad,
                advance=advance,
                fields=fields,
                redact=options.redact,
                workers=local,
            )
            for warning in counts["warnings"]:
                display.note(f"warning: {warning}")
        if due("prefilter"):
            advance = display.stage("prefilter", read_stats(files["signals"])["signals"]["conversations"])
            prefilter_stage(
                files["signals"],
                files["prefilter"],
                out / "02_prefilter.rejected.jsonl",
                options.near_threshold,
                options.unsafe_terms,
                advance=advance,
                workers=local,
            )
        previous = files["prefilter"]
        for name in ("miner", "judge", "qa"):
            if due(name):
                bar = display.lazy_stage(name)
                run_agent_stage(
                    AGENT_STAGES[name],
                    previous,
                    files[name],
                    models[name],
                    options.chunk_size,
                    {"log_realtime": False, **options.stage_args(name)},
                    advance=bar.advance,
                    on_items=bar.start,
                    force=options.force,
                    executor=executor,
                )
            previous = files[name]
        return build(files["qa"], out, options.build)


def failed_items(stats: dict[str, Any]) -> dict[str, int]:
    """Items each agent stage left out because their model calls failed."""
    return {name: stats[name]["failed"] for name in AGENT_STAGES if stats.get(name, {}).get("failed")}
