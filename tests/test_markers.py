"""Our pytest configuration with pytest-inspect-evals installed: plain `pytest` runs the default
tier only (no `slow`, `integration`, `browser` or `vllm` test), and a tier asked for by `-m` runs:
pytest-inspect-evals' `slow` gate stays open (it would skip them)."""

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


def test_plain_pytest_runs_the_default_tier(tmp_path: Path) -> None:
    assert outcome(tmp_path).startswith("1 passed") and "skipped" not in outcome(tmp_path)


def test_a_tier_asked_for_runs(tmp_path: Path) -> None:
    assert outcome(tmp_path, "-m", "slow").startswith("1 passed")
    summary = outcome(tmp_path, "-m", "not vllm")  # every tier, as CI runs them
    assert summary.startswith("2 passed") and "skipped" not in summary
