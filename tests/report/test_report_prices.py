"""`uxbench report --prices FILE` on a real log: the roles of the models the file prices are
costed from the log's tokens (cache reads and writes included), the others keep the log's cost
or none, and leaderboard.md, leaderboard.json and index.html all say where each cost is from."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.evals import run_eval
from helpers.grm import grader_output
from helpers.logs import rewritten
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelUsage, get_model

from uxbench.cli import uxbench
from uxbench.tasks.task2_eval import task2_eval

pytestmark = pytest.mark.integration

MODEL, GRADER = "mockllm/model", "mockllm/grm"
# the model under test: full-rate, output, cache-read and cache-write tokens; the grader: a log cost
MODEL_USAGE = ModelUsage(input_tokens=1000, output_tokens=500, input_tokens_cache_read=200,
                         input_tokens_cache_write=100, total_tokens=1800)  # fmt: skip
GRADER_USAGE = ModelUsage(input_tokens=3000, output_tokens=12, total_tokens=3012, total_cost=0.5)
PRICED = (1000 * 2.0 + 500 * 8.0 + 200 * 0.5 + 100 * 2.5) / 1e6


def with_usage(log: EvalLog) -> None:
    log.stats.model_usage = {MODEL: MODEL_USAGE, GRADER: GRADER_USAGE}
    log.stats.role_usage = {"grader": GRADER_USAGE}


def self_graded(log: EvalLog) -> None:
    """The model under test bound as its own grader: its usage holds the grader's calls too."""
    log.eval.model_roles = None
    log.stats.model_usage = {MODEL: MODEL_USAGE}
    log.stats.role_usage = {
        "grader": ModelUsage(input_tokens=400, output_tokens=20, input_tokens_cache_read=50)
    }


@pytest.fixture(scope="module")
def raw(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """One Task 2 run of three records (its usage is set by each test)."""
    return run_eval(
        task2_eval(data="sample"),
        tmp_path_factory.mktemp("priced"),
        model=MODEL,
        model_roles={"grader": get_model(GRADER, custom_outputs=lambda *_: grader_output("好", 0.9, 0.1))},
        limit=3,
    )


def report(
    tmp_path: Path, log: EvalLog, change: Callable[[EvalLog], None], *options: str
) -> tuple[str, dict, str]:
    """leaderboard.md, leaderboard.json and index.html of the report of `log` changed by `change`."""
    rewritten(log, tmp_path / "logs" / "run.eval", change)
    out = tmp_path / "report"
    result = CliRunner().invoke(uxbench, ["report", str(tmp_path / "logs"), "--out", str(out), *options])
    assert result.exit_code == 0, result.output
    board = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    md = (out / "leaderboard.md").read_text(encoding="utf-8")
    return md, board, (out / "index.html").read_text(encoding="utf-8")


def usage(board: dict) -> dict:
    [row] = [row for task in board["tasks"].values() for row in task.get("rows", [])]
    return row["usage"]


def prices(tmp_path: Path) -> str:
    path = tmp_path / "prices.yaml"
    path.write_text(
        f"{MODEL}: {{input: 2.0, output: 8.0, input_cache_read: 0.5, input_cache_write: 2.5}}\n",
        encoding="utf-8",
    )
    return str(path)


def test_priced_roles_are_costed_from_the_file_and_say_so(tmp_path: Path, raw: EvalLog) -> None:
    md, board, page = report(tmp_path, raw, with_usage, "--prices", prices(tmp_path))
    found = usage(board)
    assert found["model"]["cost"] == pytest.approx(PRICED) and found["model"]["cost_source"] == "price file"
    assert found["model"]["input_tokens"] == 1300 and found["model"]["output_tokens"] == 500
    assert found["model"]["per_1000_records"]["cost"] == pytest.approx(PRICED * 1000 / 3)
    # the grader's model is not in the file: the log's cost, marked as the log's
    assert (found["grader"]["cost"], found["grader"]["cost_source"]) == (0.5, "log")
    assert any("prices.yaml" in note for note in board["notes"])
    shown = f"{PRICED:,.4f}"
    for text in (md, page):
        assert shown in text and "price file" in text and "prices.yaml" in text and "Cost from" in text
    assert f"| {shown} | price file |" in md and "| 0.5000 | log |" in md


def test_without_a_price_file_the_costs_are_the_logs(tmp_path: Path, raw: EvalLog) -> None:
    md, board, _ = report(tmp_path, raw, with_usage)
    found = usage(board)
    assert (found["model"]["cost"], found["model"]["cost_source"]) == (None, None)  # null, never 0
    assert (found["grader"]["cost"], found["grader"]["cost_source"]) == (0.5, "log")
    assert "| price file |" not in md and "| 0.5000 | log |" in md


def test_a_self_graded_run_prices_each_role_on_its_own_tokens(tmp_path: Path, raw: EvalLog) -> None:
    """The grader's calls are taken out of the model under test's, every kind of token alike."""
    _, board, _ = report(tmp_path, raw, self_graded, "--prices", prices(tmp_path))
    found = usage(board)
    grader = (400 * 2.0 + 20 * 8.0 + 50 * 0.5) / 1e6
    assert found["grader"]["cost"] == pytest.approx(grader)
    assert found["model"]["cost"] == pytest.approx(PRICED - grader)
    assert found["model"]["input_tokens"] == 1300 - 450 and found["model"]["output_tokens"] == 480
