"""`uxbench pipeline run`: every stage in order, resumable, with a progress display.

Each stage writes its output into the run directory atomically and then its `.stats.json`
sidecar; a stage whose sidecar exists is finished and skipped on the next run. Agent stages
also resume inside the stage (see `agentrun`). The build stage is cheap and always rerun.
`pipeline.json` records the input's fingerprint, so a directory is never resumed on other data.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.model import Model

from uxbench.errors import DataError
from uxbench.pipeline.agentrun import AGENT_STAGES, run_agent_stage
from uxbench.pipeline.build import BuildConfig, build
from uxbench.pipeline.files import read_stats, stats_path, write_json
from uxbench.pipeline.stages import prefilter_stage, signals_stage

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


def fingerprint(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _count_lines(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(block.count(b"\n") for block in iter(lambda: handle.read(1 << 20), b""))


def _check_manifest(raw: Path, out: Path, options: RunOptions) -> None:
    manifest = out / "pipeline.json"
    current = {"input": str(raw.resolve()), "sha256": fingerprint(raw), "options": _jsonable(options)}
    if manifest.exists():
        import json

        previous = json.loads(manifest.read_text(encoding="utf-8"))
        if previous.get("sha256") != current["sha256"]:
            raise DataError(
                f"{out} holds a run on different input ({previous.get('input')}); "
                "use a new --out directory for this one"
            )
    write_json(manifest, current)


def _jsonable(options: RunOptions) -> dict[str, Any]:
    data = asdict(options)
    data["eval_args"] = {k: v for k, v in options.eval_args.items() if isinstance(v, (str, int, float, bool))}
    return data


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
    model: str | Model,
    options: RunOptions | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Run (or resume) the whole pipeline on `raw` into `out`; returns the stats."""
    options = options or RunOptions()
    raw, out = Path(raw), Path(out)
    if not raw.is_file():
        raise DataError(f"{raw}: no such raw log file")
    out.mkdir(parents=True, exist_ok=True)
    _check_manifest(raw, out, options)
    files = {name: out / file for name, file in STAGE_FILES.items()}
    display = Progress(progress)

    def finished(name: str) -> bool:
        if stats_path(files[name]).exists() and files[name].exists():
            display.note(f"{name}: finished earlier, skipped")
            return True
        return False

    with display.running():
        if not finished("signals"):
            advance = display.stage("signals", _count_lines(raw))
            signals_stage(raw, files["signals"], options.skip_bad, advance=advance)
        if not finished("prefilter"):
            advance = display.stage("prefilter", read_stats(files["signals"])["signals"]["conversations"])
            prefilter_stage(
                files["signals"],
                files["prefilter"],
                out / "02_prefilter.rejected.jsonl",
                options.near_threshold,
                options.unsafe_terms,
                advance=advance,
            )
        previous = files["prefilter"]
        for name in ("miner", "judge", "qa"):
            if not finished(name):
                bar = display.lazy_stage(name)
                run_agent_stage(
                    AGENT_STAGES[name],
                    previous,
                    files[name],
                    model,
                    options.chunk_size,
                    {"log_realtime": False, **options.eval_args},
                    advance=bar.advance,
                    on_items=bar.start,
                )
            previous = files[name]
        return build(files["qa"], out, options.build)
