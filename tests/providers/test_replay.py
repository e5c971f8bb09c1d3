"""Replaying published per-model outputs through Tasks 1–3 and into the report.

Our own files in the published layout, for two models named like published ones (the
numbers are synthetic): each lacks some rows (a Task 1 verdict, Task 2/3 grades) and has
failed judgments. The replay must give, per task, exactly the number the files give with
a missing row counted as a failed judgment, count the missing rows, and the report must rank
both models together in one ranking graded by UXBench-GRM (published grades).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from html import escape
from pathlib import Path

import pytest
from helpers.grm import metric_values, write_data
from helpers.published import judge_cids, lines, write_published, write_verdicts
from helpers.records import judge_records, write_jsonl
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import get_model

from uxbench.data.dataset import RELEASE_FILES
from uxbench.qualification.published import (
    NO_ROW_ANSWER,
    PUBLISHED_GRADER,
    TASK_DIRS,
    published_avg_acc,
    published_good_pct,
    published_grading,
    read_grades,
    read_verdicts,
    replayed_grader,
    replayed_model,
)
from uxbench.report import build_report
from uxbench.report.leaderboard_row import Row
from uxbench.report.section_grids import section_grid
from uxbench.report.sections import Leaderboard
from uxbench.report.trust import NOT_APPLICABLE, STAND_IN
from uxbench.runtime.errors import DataError
from uxbench.scorers.grm import PUBLISHED_GRADE
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

N_GOOD, N_BAD, N2, N3 = 10, 10, 30, 20
MODELS = ("gpt_5", "claude_opus_4_6")
# per model: Task 1 (right on liked, right on disliked, failed cids, omitted cids), omitted Task 2/3 grades
LABELS = judge_cids(N_GOOD, N_BAD)
CIDS = list(LABELS)
TASK1 = {
    "gpt_5": (9, 6, (CIDS[0], CIDS[12]), (CIDS[3], CIDS[15], CIDS[16])),
    "claude_opus_4_6": (7, 8, (), ()),
}
HEADLINES = [("task1_judge", "avg_acc"), ("task2_eval", "good_pct"), ("task3_recovery", "recovery_rate")]
OMITTED = {"gpt_5": {"task2": (4, 9), "task3": (2,)}, "claude_opus_4_6": {"task2": (), "task3": (0, 5, 6)}}


@dataclass
class Replayed:
    root: Path
    data: Path
    logs: dict[tuple[str, str], EvalLog]  # (model, task) → log
    board: Leaderboard


def write_task1_data(directory: Path) -> None:
    good, bad = judge_records(N_GOOD, N_BAD)
    write_jsonl(directory / RELEASE_FILES["task1_judge_good"], good)
    write_jsonl(directory / RELEASE_FILES["task1_judge_bad"], bad)


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Replayed:
    tmp = tmp_path_factory.mktemp("replay")
    root, data = tmp / "outputs", write_data(tmp / "data", task2=N2, task3=N3)
    write_task1_data(data)
    for model in MODELS:
        right_good, right_bad, failed, omitted = TASK1[model]
        write_verdicts(root, model, LABELS, right_good, right_bad, failed, omitted)
        write_published(root, model, lines(model, N2, failed_grades=11), omit_grades=OMITTED[model]["task2"])
        records = lines(model, N3, "task3", failed_grades=9)
        write_published(root, model, records, task="task3", omit_grades=OMITTED[model]["task3"])
    logs = {key: log for model in MODELS for key, log in replay(root, data, model, tmp / "logs").items()}
    board = build_report([tmp / "logs"], tmp / "report")
    return Replayed(root, data, logs, board)


def replay(root: Path, data: Path, model: str, log_dir: Path, shard: str | None = None) -> dict:
    """The model's three tasks replayed (one shard of each, when given): (model, task) → log."""
    args = {"data": str(data), **({"shard": shard} if shard else {})}  # an explicit shard=None is refused
    done = eval(
        [task1_judge(**args), task2_eval(**args), task3_recovery(**args)],
        model=get_model(f"replay/{model}", outputs=str(root)),
        model_roles={"grader": get_model(f"replay-grm/{model}", outputs=str(root))},
        display="none",
        log_dir=str(log_dir),
        max_connections=32,
    )
    return {(model, log.eval.task.rsplit("/", 1)[-1]): log for log in done}


def paper_number(root: Path, model: str, task: str) -> float:
    """The number the files give, a missing row counted as a failed judgment."""
    if task == "task1_judge":
        return published_avg_acc(read_verdicts(root, model), LABELS)
    published, records = ("task2", N2) if task == "task2_eval" else ("task3", N3)
    return published_good_pct(read_grades(root, published, model), records)


@pytest.mark.integration
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("task, headline", HEADLINES)
def test_the_replay_gives_the_files_numbers_with_missing_rows_failed(
    replayed: Replayed, model: str, task: str, headline: str
) -> None:
    log = replayed.logs[(model, task)]
    assert log.status == "success"
    assert metric_values(log)[headline] == pytest.approx(paper_number(replayed.root, model, task), abs=1e-12)


@pytest.mark.integration
def test_numbers_worked_out_by_hand(replayed: Replayed) -> None:
    # gpt_5, Task 1: liked 0–8 right, but 0 failed and 3 has no row → 7 of 10; disliked 10–15 right,
    # but 12 failed and 15 has no row → 4 of 10
    task1 = metric_values(replayed.logs[("gpt_5", "task1_judge")])
    assert (task1["good_acc"], task1["bad_acc"], task1["avg_acc"]) == pytest.approx((0.7, 0.4, 0.55))
    claude = metric_values(replayed.logs[("claude_opus_4_6", "task1_judge")])
    assert claude["avg_acc"] == pytest.approx((0.7 + 0.8) / 2)
    # a missing grade is a failed judgment: it lowers Good% over all records, not only the valid ones
    grades = read_grades(replayed.root, "task3", "claude_opus_4_6")
    good = sum(g.verdict == 1 for g in grades.values())
    assert metric_values(replayed.logs[("claude_opus_4_6", "task3_recovery")])["recovery_rate"] == good / N3


@pytest.mark.integration
@pytest.mark.parametrize("model", MODELS)
def test_missing_rows_are_counted_in_every_task(replayed: Replayed, model: str) -> None:
    expected = {
        "task1_judge": len(TASK1[model][3]),
        "task2_eval": len(OMITTED[model]["task2"]),
        "task3_recovery": len(OMITTED[model]["task3"]),
    }
    for task, count in expected.items():
        samples = replayed.logs[(model, task)].samples
        raws = [next(iter(s.scores.values())).metadata["raw"] for s in samples]
        assert raws.count(NO_ROW_ANSWER) == count, task
        assert all(s.error is None for s in samples)


@pytest.mark.integration
def test_the_report_ranks_all_replays_together_graded_by_uxbench_grm(replayed: Replayed) -> None:
    tables = {t.spec.name: t for t in replayed.board.tables}
    for task in ("task2_eval", "task3_recovery"):
        [section] = tables[task].sections
        assert section.grader == PUBLISHED_GRADER and section.paper_grader
        assert sorted(r.run.model for r in section.rows) == sorted(f"replay/{m}" for m in MODELS)
        assert [r.rank for r in section.rows] == [1, 2] or [r.rank for r in section.rows] == [1, 1]
        headlines = [r.headline for r in section.rows]
        assert headlines == sorted(headlines, reverse=True)
    [task1] = tables["task1_judge"].sections
    assert {r.run.model for r in task1.rows} == {f"replay/{m}" for m in MODELS}


@pytest.mark.integration
def test_the_report_shows_missing_row_counts(replayed: Replayed) -> None:
    tables = {t.spec.name: t for t in replayed.board.tables}
    for task, published in (("task1_judge", None), ("task2_eval", "task2"), ("task3_recovery", "task3")):
        [section] = tables[task].sections
        rows = {r.run.model.split("/")[-1]: r for r in section.rows}
        for model, row in rows.items():
            expected = len(TASK1[model][3]) if published is None else len(OMITTED[model][published])
            assert row.no_rows == expected
        lacking = [m for m, r in rows.items() if r.no_rows]
        [note] = [n for n in section.notes() if "count a record without a row" in n]
        for model in lacking:
            assert f"{model} {rows[model].no_rows} of {rows[model].run.samples}" in note
        grid = section_grid(section)
        n = grid.titles.index("n")
        shown = {row[1].sort: row[n].text for row in grid.rows}
        for model in lacking:
            assert shown[f"replay/{model}"] == f"{rows[model].run.samples} ({rows[model].no_rows} no row)"


@pytest.mark.integration
def test_the_paper_column_shows_a_dash_where_the_paper_has_no_number(replayed: Replayed) -> None:
    tables = {t.spec.name: t for t in replayed.board.tables}

    def paper_cells(task: str) -> dict[str, tuple[str, str]]:
        [section] = tables[task].sections
        grid = section_grid(section)
        column = next(i for i, title in enumerate(grid.titles) if title.startswith("Paper"))
        return {row[1].sort: (row[column].text, row[column].note) for row in grid.rows}

    task1 = paper_cells("task1_judge")
    assert task1["replay/claude_opus_4_6"] == ("–", "")  # the paper has no Task 1 number for it
    text, note = task1["replay/gpt_5"]
    assert text == "72.9" and "17 records whose published verdict failed" in note
    task3 = paper_cells("task3_recovery")
    assert task3["replay/claude_opus_4_6"][0] == "12.8" and task3["replay/gpt_5"] == ("–", "")


# ---------------------------------------------------------------- the replay in shards


@dataclass
class Sharded:
    count: int
    logs: Path
    board: Leaderboard


@pytest.fixture(scope="module", params=[2, 3], ids=["2 shards", "3 shards"])
def sharded(replayed: Replayed, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """The same replays run as N shard processes (`-T shard=K/N`), pooled by the report."""
    count = request.param
    tmp = tmp_path_factory.mktemp(f"shards{count}")
    for model in MODELS:
        for k in range(1, count + 1):
            replay(replayed.root, replayed.data, model, tmp / "logs", f"{k}/{count}")
    return Sharded(count, tmp / "logs", build_report([tmp / "logs"], tmp / "report"))


def report_rows(board: Leaderboard) -> dict[tuple[str, str], Row]:
    return {(t.spec.name, row.run.model): row for t in board.tables for s in t.sections for row in s.rows}


def shown(board: Leaderboard) -> dict[str, list[list[str]]]:
    """Every section's cells as shown, but the log's name and date."""
    grids = {s.id: section_grid(s) for t in board.tables for s in t.sections}
    return {
        key: [
            [c.text for title, c in zip(g.titles, row, strict=True) if title not in ("Log", "Date (UTC)")]
            for row in g.rows
        ]
        for key, g in grids.items()
    }


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("task, headline", HEADLINES)
def test_pooled_shards_give_every_published_number_exactly(
    replayed: Replayed, sharded: Sharded, task: str, headline: str
) -> None:
    pooled, whole = report_rows(sharded.board), report_rows(replayed.board)
    for model in MODELS:
        row, one = pooled[(task, f"replay/{model}")], whole[(task, f"replay/{model}")]
        assert f"of {sharded.count})" in row.run.name and row.run.partial is None
        assert row.run.metrics[headline] == pytest.approx(paper_number(replayed.root, model, task), abs=1e-12)
        assert row.run.metrics == pytest.approx(one.run.metrics, abs=1e-12)
        for key, groups in one.run.breakdown.items():
            assert row.run.breakdown[key] == pytest.approx(groups, abs=1e-12)
        assert (row.run.samples, row.run.total, row.no_rows, row.counts) == (
            one.run.samples,
            one.run.total,
            one.no_rows,
            one.counts,
        )
        assert row.interval == pytest.approx(one.interval, abs=1e-12)
    assert shown(sharded.board) == shown(replayed.board)


@pytest.mark.integration
@pytest.mark.slow
def test_a_missing_or_repeated_shard_is_named(sharded: Sharded, tmp_path: Path) -> None:
    logs = sorted(sharded.logs.glob("*.eval"))
    shard_of = {log: read_eval_log(str(log), header_only=True).eval.metadata["shard"] for log in logs}
    kept = [log for log in logs if not shard_of[log].startswith("2/")]
    for log in kept:
        shutil.copy(log, tmp_path / log.name)
    again = next(log for log in kept if shard_of[log].startswith("1/"))
    shutil.copy(again, tmp_path / f"again-{again.name}")
    board = build_report([tmp_path], tmp_path / "report")
    for row in report_rows(board).values():
        assert row.run.partial == f"shard 2/{sharded.count} missing" and row.rank is None
        assert row.run.samples < row.run.total
    repeated = [s for s in board.skipped if s.reason.startswith(f"shard 1/{sharded.count} ran again")]
    assert len(repeated) == 1


# ---------------------------------------------------------------- names and files


@pytest.mark.parametrize(
    "name, model, grader",
    [
        ("replay/gpt_5", "gpt_5", None),
        ("uxbench/replay/gpt-5.5", "gpt_5_5", None),
        ("replay-grm/gpt_5", None, "gpt_5"),
        ("uxbench/replay-grm/Claude-Opus-4.6", None, "claude_opus_4_6"),
        ("openai/gpt-5", None, None),
        ("replay/", None, None),
    ],
)
def test_replay_names_in_both_spellings(name: str, model: str | None, grader: str | None) -> None:
    assert replayed_model(name) == model and replayed_grader(name) == grader


def test_only_a_model_graded_by_its_own_published_grades_is_uxbench_grm() -> None:
    assert published_grading("replay/gpt_5", ("uxbench/replay-grm/gpt-5",))
    assert not published_grading("replay/gpt_5", ("replay-grm/claude_opus_4_6",))  # another model's grades
    assert not published_grading("openai/gpt-5", ("replay-grm/gpt_5",))  # grades of other replies
    assert not published_grading("replay/gpt_5", ("replay-grm/gpt_5", "replay-grm/gpt_5"))


@pytest.mark.integration
def test_lfs_reply_files_stop_task2_but_not_task1(replayed: Replayed, tmp_path: Path) -> None:
    """Reply files that are Git LFS pointers: a clear error, `-M replies=none` replays the grades."""
    root = tmp_path / "outputs"
    data = write_data(tmp_path / "data", task2=N2)
    write_task1_data(data)
    write_verdicts(root, "gpt_5", LABELS, *TASK1["gpt_5"])
    write_published(
        root, "gpt_5", lines("gpt_5", N2, failed_grades=11), omit_grades=OMITTED["gpt_5"]["task2"]
    )
    pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n"
    (root / TASK_DIRS["task2"] / "responses" / "gpt_5.jsonl").write_text(pointer, encoding="utf-8")
    grader = get_model("replay-grm/gpt_5", outputs=str(root), memoize=False)
    with pytest.raises(DataError, match=r"Git LFS pointer.*-M replies=none"):
        get_model("replay/gpt_5", outputs=str(root), task="task2", memoize=False)
    model = get_model("replay/gpt_5", outputs=str(root), memoize=False)
    task1, refused = eval(
        [task1_judge(data=str(data)), task2_eval(data=str(data))],
        model=model,
        model_roles={"grader": grader},
        display="none",
        log_dir=str(tmp_path / "logs"),
    )
    assert task1.status == "success"
    assert (
        metric_values(task1)["avg_acc"] == metric_values(replayed.logs[("gpt_5", "task1_judge")])["avg_acc"]
    )
    assert refused.status == "error" and "-M replies=none" in refused.error.message
    [stand_in] = eval(
        task2_eval(data=str(data)),
        model=get_model("replay/gpt_5", outputs=str(root), replies="none", memoize=False),
        model_roles={"grader": grader},
        display="none",
        log_dir=str(tmp_path / "logs"),
    )
    assert stand_in.status == "success"
    assert (
        metric_values(stand_in)["good_pct"]
        == metric_values(replayed.logs[("gpt_5", "task2_eval")])["good_pct"]
    )
    with pytest.raises(DataError, match="replies='all': the one choice is replies=none"):
        get_model("replay/gpt_5", outputs=str(root), replies="all", memoize=False)


# ---------------------------------------------------------------- trust checks


@pytest.mark.integration
def test_a_replay_has_no_self_family_flag(replayed: Replayed) -> None:
    """gpt_5 graded by `replay-grm/gpt_5` is a lookup of published grades by record, not a model
    grading its own family; its real replies still get the style control."""
    data = json.loads((replayed.root.parent / "report" / "leaderboard.json").read_text(encoding="utf-8"))
    for task in ("task2_eval", "task3_recovery"):
        [trust] = [t for t in data["trust"].values() if t["task"] == task]
        assert [row["self_family"] for row in trust["rows"]] == [None, None]
        assert all(row["style"] and row["left_out_of_style_fit"] is None for row in trust["rows"])


@pytest.mark.integration
def test_stand_in_replies_get_no_style_fit(tmp_path: Path) -> None:
    """`-M replies=none` replays the grades of one stand-in text: no style numbers, no flag, a
    sentence saying why; and Task 1, which it does not touch, does not list it as a setting."""
    root, data = tmp_path / "outputs", write_data(tmp_path / "data", task2=N2)
    write_task1_data(data)
    model = "claude_opus_4_6"
    write_verdicts(root, model, LABELS, *TASK1[model][:2])
    write_published(root, model, lines(model, N2))
    logs = eval(
        [task1_judge(data=str(data)), task2_eval(data=str(data))],
        model=get_model(f"replay/{model}", outputs=str(root), replies="none", memoize=False),
        model_roles={"grader": get_model(f"replay-grm/{model}", outputs=str(root), memoize=False)},
        display="none",
        log_dir=str(tmp_path / "logs"),
    )
    assert [log.status for log in logs] == ["success", "success"]
    # inspect view's explanation: the published grade, looked up by record (no grader read the input)
    explanation = logs[1].samples[0].scores["grm"].explanation
    assert PUBLISHED_GRADE in explanation and "whole input" not in explanation
    board = build_report([tmp_path / "logs"], tmp_path / "report")
    data_json = json.loads((tmp_path / "report" / "leaderboard.json").read_text(encoding="utf-8"))
    [trust] = [t for t in data_json["trust"].values() if t["task"] == "task2_eval"]
    [row] = trust["rows"]
    assert row["left_out_of_style_fit"] == STAND_IN and row["style"] is None
    assert row["self_family"] is None and trust["style_fit"] is None
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert escape(NOT_APPLICABLE) in page and "Mean length" not in page
    [task1] = [t for t in board.tables if t.spec.name == "task1_judge"]
    assert "-M replies" not in task1.sections[0].common
    assert "replies=none" not in page[page.index('id="task1_judge"') : page.index('id="task2_eval"')]
