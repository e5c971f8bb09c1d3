"""bench/coverage.py --quick: every section runs and the report file says what it measured."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


BENCH = Path(__file__).resolve().parents[2] / "bench" / "coverage.py"


def test_quick_run_writes_every_section(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("coverage_bench", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    out = tmp_path / "coverage.md"
    assert module.main(["--quick", "--repeats", "60", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    for heading in (
        "## Summary",
        "## Good% / Recovery Rate",
        "## Avg-Acc",
        "## Δ score",
        "## GRM-equivalent",
    ):
        assert heading in text
    assert "| Jeffreys posterior |" in text and "| Fieller |" in text
    assert "PPI++ with gold labels from the run's own records" in text
    assert "| Avg-Acc | MOVER of two Jeffreys |" in text and "| Δ score | studentised bootstrap |" in text
    assert "exact McNemar" in text and "size (no difference)" in text
