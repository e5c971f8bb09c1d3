"""Shared test helpers: release-shaped data directories written on the fly, and a run that
leaves the working tree as it found it (logs go to a temporary directory; a changed
`git status` fails the run)."""

import os
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.records import judge_records, write_jsonl
from helpers.vllmserver import PYTHON_ENV, Served, serve

import uxbench
from uxbench.data.dataset import RELEASE_FILES
from uxbench.runtime.offline import ensure_tiktoken_cache

ensure_tiktoken_cache()  # mockllm counts tokens with tiktoken; keep the suite offline
# Hypothesis keeps its example database and constants cache outside the tree (read at first use)
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tempfile.gettempdir()) / "uxbench-hypothesis"))

ROOT = Path(__file__).resolve().parent.parent
if os.environ.get("UXBENCH_TEST_INSTALLED") and Path(uxbench.__file__).resolve().is_relative_to(ROOT):
    raise pytest.UsageError(f"UXBENCH_TEST_INSTALLED is set, but uxbench is the tree's: {uxbench.__file__}")
# What a test run may create in the tree: bytecode and pytest's cache (and a CI virtualenv).
CACHES = (":(exclude).venv", ":(exclude)**/__pycache__", ":(exclude).pytest_cache")
TREE_BEFORE = pytest.StashKey[list[str] | None]()
TREE_CHANGES = pytest.StashKey[list[str]]()


def tree_state() -> list[str] | None:
    """Every changed, untracked and ignored file of the checkout (None outside a git checkout)."""
    command = ["git", "status", "--porcelain", "--ignored", "--untracked-files=all", "--", ".", *CACHES]
    try:
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.splitlines() if result.returncode == 0 else None


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller, not a pytest-xdist worker
        session.config.stash[TREE_BEFORE] = tree_state()


def pytest_sessionfinish(session: pytest.Session) -> None:
    before = session.config.stash.get(TREE_BEFORE, None)
    after = tree_state() if before is not None else None
    if after is not None and set(after) != set(before or []):
        session.config.stash[TREE_CHANGES] = sorted(set(after) ^ set(before or []))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    changes = terminalreporter.config.stash.get(TREE_CHANGES, [])
    if changes:
        terminalreporter.section("the tests changed the working tree (write under tmp_path)", red=True)
        for line in changes:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session", autouse=True)
def inspect_log_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where an eval that a test runs without `log_dir=` writes (Inspect's default is ./logs)."""
    path = tmp_path_factory.mktemp("inspect-logs")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_LOG_DIR", str(path))
        yield path


@pytest.fixture
def judge_dir(tmp_path: Path) -> Callable[[int, int], Path]:
    """A directory with the two Task 1 release files."""

    def make(n_good: int = 4, n_bad: int = 4) -> Path:
        good, bad = judge_records(n_good, n_bad)
        write_jsonl(tmp_path / RELEASE_FILES["task1_judge_good"], good)
        write_jsonl(tmp_path / RELEASE_FILES["task1_judge_bad"], bad)
        return tmp_path

    return make


@pytest.fixture(scope="session")
def pipeline_raw(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """100 synthetic raw conversations for the pipeline tests."""
    from uxbench.pipeline.tools.synth import write_synth

    path = tmp_path_factory.mktemp("pipeline_raw") / "raw.jsonl"
    write_synth(path, 100, seed=11)
    return path


@pytest.fixture(scope="session")
def pipeline_reference(pipeline_raw: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted dry run on `pipeline_raw` (one chunk per stage) to compare other runs with."""
    from helpers.pipeline import dry_run

    out = tmp_path_factory.mktemp("pipeline_reference")
    assert dry_run(pipeline_raw, out, "--chunk-size", "1000") == 0
    return out


@pytest.fixture(scope="session")
def vllm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The embedded model on a real vLLM server (127.0.0.1, a free port), served as `smol`:
    its `base_url`, `model` and `api_key`; stopped by its process group after the session.
    Skipped unless $UXBENCH_VLLM_PYTHON names the vLLM environment's python (.ci/vllm-lane)."""
    python = os.environ.get(PYTHON_ENV)
    if not python:
        pytest.skip(f"no vLLM environment: set {PYTHON_ENV} to its python (.ci/vllm-lane builds one)")
    from uxbench.providers.weights import check_installed, ensure_converted
    from uxbench.runtime.errors import DataError

    try:
        check_installed()
    except DataError as error:
        pytest.skip(str(error))
    log = tmp_path_factory.mktemp("vllm") / "server.log"
    with serve(python, ensure_converted(), log) as served:
        print(f"\nvLLM ready in {served.start_seconds} s at {served.base_url} (pid {served.pid})")
        yield served
