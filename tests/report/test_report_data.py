"""The report compares like with like: runs on other data (another source, revision or record
content) are never ranked or paired with the task's main rows, and say why they stand apart.

The "release" here is the bundled sample with every record's text changed but its cid kept, so
that cids collide on purpose: only the record hashes tell the two apart.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from uxbench.data.dataset import RELEASE_FILES, TASK_CONFIGS, sample_dir
from uxbench.report import build_report
from uxbench.report.charts import chart_jobs
from uxbench.report.logs import Run
from uxbench.report.paired import compare
from uxbench.report.samples import Counts, Evidence, Judgment
from uxbench.report.section_grids import breakdown_grid
from uxbench.report.sections import leaderboard
from uxbench.tasks.task1_judge import task1_judge


def release_copy(directory: Path) -> Path:
    """The sample's Task 1 files with the judged replies changed and the cids kept."""
    directory.mkdir()
    for config in TASK_CONFIGS["task1"]:
        lines = (sample_dir() / RELEASE_FILES[config]).read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines if line.strip()]
        for record in records:
            for name in ("response", "agent_response_full"):
                if name in record:
                    record[name] = f"{record[name]} (release version)"
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        (directory / RELEASE_FILES[config]).write_text(text, encoding="utf-8")
    return directory


def run(data: str, model: str, log_dir: Path, **kwargs: Any) -> EvalLog:
    (log,) = eval(task1_judge(data=data), model=model, log_dir=str(log_dir), display="none", **kwargs)
    assert log.status == "success", log.error
    return log


def as_person(log: EvalLog, path: Path, annotator: str) -> None:
    """The log as if a person had judged it at the desk (`uxbench/human -M annotator=…`)."""
    copy = read_eval_log(log.location)
    copy.eval.model, copy.eval.model_args = "uxbench/human", {"annotator": annotator}
    write_eval_log(copy, str(path))


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("data")
    release = str(release_copy(tmp / "release"))
    logs = tmp / "logs"
    run(release, "baseline/always-good", logs)
    run(release, "baseline/always-bad", logs)
    run("sample", "baseline/length", logs)
    as_person(run("sample", "baseline/always-bad", tmp / "person", limit=8), logs / "person.eval", "rater1")
    out = tmp / "report"
    build_report([logs], out)
    return json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))


def test_sample_and_release_runs_are_never_ranked_together(board: dict[str, Any]) -> None:
    task = board["tasks"]["task1_judge"]
    sections = {s["id"]: s for s in task["sections"]}
    assert [s["apart"] for s in task["sections"]] == [None, "different data: sample"]
    rows = {sid: [r for r in task["rows"] if r["section"] == sid] for sid in sections}
    main, apart = (rows[s["id"]] for s in task["sections"])
    assert sorted(r["model"] for r in main) == ["baseline/always-bad", "baseline/always-good"]
    assert sorted(r["rank"] for r in main) == [1, 1]  # both at 50.0 Avg-Acc on a balanced set
    assert sorted(r["model"] for r in apart) == ["baseline/length", "uxbench/human"]
    assert [r["rank"] for r in apart if r["model"] == "baseline/length"] == [1]  # first of its own ranking
    assert "Task 1 · UX Judge · different data: sample" in [s["title"] for s in task["sections"]]


def test_a_person_on_the_sample_is_paired_only_with_sample_runs(board: dict[str, Any]) -> None:
    pairs = board["paired"]
    assert [(p["first"]["annotator"], p["second"]["model"]) for p in pairs] == [("rater1", "baseline/length")]
    assert pairs[0]["records"] == 8


def judgment(cid: str, record_hash: str | None) -> Judgment:
    return Judgment(
        cid, 1, "good", None, None, None, None, correct=1.0, answer="good", record_hash=record_hash
    )


def test_one_cid_with_two_contents_is_not_a_shared_record() -> None:
    same = compare({"c": judgment("c", "aa")}, {"c": judgment("c", "aa")})
    assert same is not None and same.records == 1
    assert compare({"c": judgment("c", "aa")}, {"c": judgment("c", "bb")}) is None


# ---------------------------------------------------------------- breakdowns the data cannot fill


class _Counted(Evidence):
    """Evidence of 2,000 records that carry no scenario label and two failure dimensions."""

    def counts_of(self, run: Run) -> Counts:
        return Counts(
            2000, {"good": 1000, "bad": 1000}, {"failure_dimension": {"冗余啰嗦": 600, "事实性错误": 4}}
        )

    def deltas(self, run: Run) -> list[float]:
        return []


def judge_run(breakdown: dict[str, dict[str, float | None]]) -> Run:
    return Run(
        log="j.eval", name="j.eval", task="task1_judge", model="openai/gpt-5", grader=None, graders=(),
        settings={}, explicit=frozenset(), dataset_revision=None, created="2026-01-01", samples=2000,
        total=2000, partial=None, metrics={"avg_acc": 0.7, "good_acc": 0.8, "bad_acc": 0.6},
        breakdown=breakdown,
    )  # fmt: skip


def test_empty_breakdown_cells_show_no_count_and_unusable_heatmaps_are_dropped() -> None:
    run = judge_run(
        {
            "scenario": {"办公与效率": None},  # the records lack the label
            "failure_dimension": {"冗余啰嗦": 0.5, "事实性错误": 0.25, "逻辑错误": None},
            "difficulty": {"hard": 0.25},
        }
    )
    (section,) = leaderboard([run], [], ["x"], "", [], _Counted()).tables[0].sections
    assert "scenario" not in section.breakdown_keys()
    cells = section.breakdown("failure_dimension")
    assert cells["逻辑错误"] == [(None, None)] and cells["冗余啰嗦"] == [(0.5, 600)]
    shown = {
        row[0].text.split(" · ")[0]: row[1].text for row in breakdown_grid(section, "failure_dimension").rows
    }
    assert shown == {"冗余啰嗦": "50.0 (600)", "事实性错误": "25.0 (4)", "逻辑错误": "–"}
    assert section.breakdown("difficulty")["hard"] == [(0.25, None)]  # the counts lack the label: no n
    jobs = [(kind, key) for kind, _, key, _ in chart_jobs(section, {}) if kind == "heatmap"]
    assert jobs == [("heatmap", "failure_dimension")]
