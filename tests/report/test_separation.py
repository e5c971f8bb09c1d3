"""The report's "which differences are real" block on runs with known differences (no logs read)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from uxbench.report import html, markdown
from uxbench.report.grid import markdown as grid_markdown
from uxbench.report.leaderboard_json import as_json
from uxbench.report.logs import Run
from uxbench.report.samples import Counts, Evidence, Judgment
from uxbench.report.sections import leaderboard
from uxbench.report.separation import UNPAIRED, separation_grid
from uxbench.stats.pairwise import INDEPENDENT_BOOTSTRAP, MCNEMAR, PAIRED_BOOTSTRAP

RECORDS = 400


def _run(model: str, task: str, good_pct: float) -> Run:
    metric = "avg_acc" if task == "task1_judge" else "good_pct"
    return Run(
        log=f"{model}.eval", name=f"{model}.eval", task=task, model=model,
        grader=None if task == "task1_judge" else "g", graders=() if task == "task1_judge" else ("g",),
        settings={}, explicit=frozenset(), dataset_revision=None, created="2026-01-01",
        samples=RECORDS, total=RECORDS, partial=None, metrics={metric: good_pct},
    )  # fmt: skip


class _Known(Evidence):
    """Judgments made up per run: `outcomes[log]` is its 0/1 per record, on records `ids[log]`."""

    def __init__(self, outcomes: dict[str, list[int]], ids: dict[str, list[int]], task1: bool) -> None:
        super().__init__()
        self.outcomes, self.ids, self.task1 = outcomes, ids, task1

    def judgments(self, run: Run) -> list[Judgment]:
        return [
            Judgment(i, 1, "good" if i % 2 else "bad", None, None, None, None, correct=float(v))
            if self.task1
            else Judgment(i, 1, None, "good" if v else "bad", None, None, None)
            for i, v in zip(self.ids[run.log], self.outcomes[run.log], strict=True)
        ]

    def counts_of(self, run: Run) -> Counts:
        return Counts(run.samples, {}, {})

    def deltas(self, run: Run) -> list[float]:
        return []


def _outcomes(share: float, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [int(rng.random() < share) for _ in range(RECORDS)]


def _section(task: str, same_records: bool = True):
    strong = _outcomes(0.8, 1)
    outcomes = {"a.eval": strong, "b.eval": list(strong), "c.eval": _outcomes(0.3, 2)}
    ids = {log: list(range(RECORDS)) for log in outcomes}
    if not same_records:
        ids["c.eval"] = list(range(RECORDS, 2 * RECORDS))
    runs = [_run(m, task, sum(outcomes[f"{m}.eval"]) / RECORDS) for m in "abc"]
    board = leaderboard(runs, [], ["x"], "", [], _Known(outcomes, ids, task == "task1_judge"))
    return board, board.tables[0].sections[0]


def test_identical_models_share_a_letter_and_a_far_one_does_not() -> None:
    for task, test in (("task2_eval", MCNEMAR), ("task1_judge", PAIRED_BOOTSTRAP)):
        board, section = _section(task)
        item = section.separation
        assert item is not None and item.result.test == test
        assert [row.run.model for row in item.rows] == ["a", "b", "c"]
        assert item.result.letters == ["a", "a", "b"]
        assert item.result.separability == 2 / 3
        assert (
            item.summary()
            == f"Separability 67% (2 of 3 pairs differ; {test} on {RECORDS} records, Holm, α = 0.05)"
        )
        grid = grid_markdown(separation_grid(item, section.id))
        assert grid[0] == "| Model | Rank | First epoch % | Group | 95% rank interval |"
        assert grid[-2].startswith("| c | 3 |") and grid[-2].endswith("| b | 3 |")
        data = json.loads(json.dumps(as_json(board)))
        shown = data["tasks"][task]["sections"][0]["separation"]
        assert shown["separability"] == 2 / 3 and shown["paired"] is True
        assert [m["letters"] for m in shown["models"]] == ["a", "a", "b"]


def test_runs_on_different_records_say_so() -> None:
    _, section = _section("task2_eval", same_records=False)
    item = section.separation
    assert item is not None and item.result.test == INDEPENDENT_BOOTSTRAP and not item.result.paired
    assert UNPAIRED in item.summary()


def test_a_ranked_model_without_outcomes_is_named() -> None:
    runs = [_run(m, "task2_eval", 0.5) for m in "abc"]
    outcomes = {"a.eval": _outcomes(0.8, 1), "b.eval": _outcomes(0.3, 2), "c.eval": []}
    ids = {"a.eval": list(range(RECORDS)), "b.eval": list(range(RECORDS)), "c.eval": []}
    item = leaderboard(runs, [], ["x"], "", [], _Known(outcomes, ids, False)).tables[0].sections[0].separation
    assert item is not None and [row.run.model for row in item.rows] == ["a", "b"]
    assert item.summary().endswith("; left out, no per-record outcome: c")


def test_a_single_ranked_model_has_no_block() -> None:
    runs = [_run("a", "task2_eval", 0.5)]
    board = leaderboard(runs, [], ["x"], "", [], _Known({"a.eval": [1] * RECORDS}, {"a.eval": []}, False))
    assert board.tables[0].sections[0].separation is None


def test_both_pages_show_the_block(tmp_path: Path) -> None:
    board, section = _section("task2_eval")
    text = markdown.page(board, [], {})
    assert "#### Which differences are real" in text and "Separability 67%" in text
    page = html.page(board, [], {}, tmp_path)
    assert f'id="{section.id}-real"' in page and f'id="{section.id}-separation"' in page
