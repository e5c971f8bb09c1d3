"""Our pytest configuration with pytest-inspect-evals installed: plain `pytest` still runs the
slow tests (its `slow` gate would skip them), and `-m "not slow"` is still the fast lane."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


pytest.importorskip("pytest_inspect_evals")

ROOT = Path(__file__).resolve().parent.parent


def outcome(tmp_path: Path, *args: str) -> str:
    """The summary line of a run, under our pyproject.toml, of one slow and one other test."""
    (tmp_path / "test_one.py").write_text(
        "import pytest\n\n@pytest.mark.slow\ndef test_long():\n    pass\n\ndef test_short():\n    pass\n",
        encoding="utf-8",
    )
    config = ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), "--strict-markers"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *config, *args, "test_one.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout.strip().splitlines()[-1]


def test_plain_pytest_runs_the_slow_tests(tmp_path: Path) -> None:
    summary = outcome(tmp_path)
    assert "2 passed" in summary and "skipped" not in summary


def test_not_slow_is_the_fast_lane(tmp_path: Path) -> None:
    summary = outcome(tmp_path, "-m", "not slow")
    assert "1 passed" in summary and "1 deselected" in summary
