"""A study of two people at the `uxbench/human` desk: the team split, gold items, guidelines.

Both annotators run the same command but for their name. rater1 answers "good" to everything,
so its Avg-Acc is 0.5 and its Gold-Acc 0.5; rater2 gets both gold items right and answers the
records by the length of the reply, so the two disagree on some shared records. Every count
follows from the sample data's 12 liked and 12 disliked records at overlap 0.5.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.desk import at_the_desk, human
from helpers.evals import run_eval
from helpers.records import write_jsonl
from inspect_ai import eval
from inspect_ai.log import EvalLog

from uxbench.data.assignment import GOLD_PREFIX, guidelines_hash
from uxbench.qualification.people_reference import export_logs
from uxbench.report import build_report
from uxbench.runtime.errors import DataError
from uxbench.stats.agreement import krippendorff_alpha
from uxbench.tasks.task1_judge import task1_judge
from uxbench.web.judging import Desk

GUIDELINES = "Judge the reply as the user would.\n不要猜模型是谁。\n"
TEAM = "rater1,rater2"


def gold_file(tmp: Path) -> Path:
    turn = {"history": [], "query": "一加一等于几？"}
    return write_jsonl(
        tmp / "attention.jsonl",
        [
            {"cid": "check_good", **turn, "response": "GOLD: 一加一等于二。", "ground_truth": 1},
            {"cid": "check_bad", **turn, "response": "GOLD: 我不知道。", "ground_truth": -1},
        ],
    )


def run(name: str, tmp: Path, answer: Any, items: int, **study: Any) -> EvalLog:
    desk = human(name, **study)
    thread = at_the_desk(desk, answer, items)
    try:
        log = run_eval(
            "uxbench/task1_judge", tmp / "logs", expect=None, task_args={"data": "sample"}, model=desk,
            ctl_server=False,
        )  # fmt: skip
    finally:
        desk.api.close()
    thread.join(timeout=5)
    assert log.status == "success", log.error
    return log


def says_good(item: dict) -> str:
    return "good"


def gets_gold_right(item: dict) -> str:
    if item["reply"].startswith("GOLD:"):
        return "bad" if item["reply"] == "GOLD: 我不知道。" else "good"
    return "bad" if len(item["reply"]) % 2 else "good"


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    tmp = tmp_path_factory.mktemp("study")
    (tmp / "guidelines.md").write_text(GUIDELINES, encoding="utf-8")
    guide = tmp / "guidelines.md"
    settings = {"team": TEAM, "overlap": 0.5, "gold": str(gold_file(tmp)), "guidelines": str(guide)}
    # 12 shared + 6 own records + 2 gold items each
    return {
        "rater1": run("rater1", tmp, says_good, 20, **settings),
        "rater2": run("rater2", tmp, gets_gold_right, 20, **settings),
    }


def ids(log: EvalLog, kind: str) -> set[str]:
    return {str(s.id) for s in log.samples or [] if s.metadata.get("assignment") == kind}


def test_each_person_gets_the_shared_records_and_a_share_of_the_rest(study: dict[str, EvalLog]) -> None:
    one, two = study["rater1"], study["rater2"]
    assert ids(one, "shared") == ids(two, "shared") and len(ids(one, "shared")) == 12
    assert not ids(one, "own") & ids(two, "own")
    every = {str(s.id) for s in task1_judge(data="sample").dataset}
    assert ids(one, "shared") | ids(one, "own") | ids(two, "own") == every
    facts = one.eval.metadata["study"]
    assert facts["team"] == ["rater1", "rater2"] and facts["overlap"] == 0.5
    assert (facts["records"], facts["assigned"], facts["shared"], facts["gold"]) == (24, 18, 12, 2)
    assert facts["per_annotator"] == {"rater1": 18, "rater2": 18}


def answers(log: EvalLog) -> dict[str, tuple[str, str | None, float]]:
    """Each sample's (user's label, the person's answer, score) by id."""
    return {
        str(s.id): (s.target, s.scores["judge_verdict"].answer, s.scores["judge_verdict"].value)
        for s in log.samples or []
    }


def test_gold_items_are_blind_and_counted_apart(study: dict[str, EvalLog]) -> None:
    for name, gold in (("rater1", 0.5), ("rater2", 1.0)):
        log = study[name]
        order = [str(i) for i in log.eval.dataset.sample_ids or []]  # the order items were shown in
        assert {i for i in order if i.startswith(GOLD_PREFIX)} == {"gold/check_good", "gold/check_bad"}
        assert not order[0].startswith(GOLD_PREFIX)
        metrics = log.results.scores[0].metrics
        assert metrics["gold_acc"].value == gold
        records = [v for i, v in answers(log).items() if not i.startswith(GOLD_PREFIX)]
        assert len(records) == 18
        good = [score for label, _, score in records if label == "good"]
        bad = [score for label, _, score in records if label == "bad"]
        assert metrics["good_acc"].value == pytest.approx(sum(good) / len(good))
        assert metrics["avg_acc"].value == pytest.approx((sum(good) / len(good) + sum(bad) / len(bad)) / 2)
    assert study["rater1"].results.scores[0].metrics["avg_acc"].value == 0.5


def test_the_guidelines_are_kept_in_the_log(study: dict[str, EvalLog]) -> None:
    log = study["rater1"]
    kept = log.eval.metadata["study"]["guidelines"]
    assert kept["text"] == GUIDELINES and kept["sha256"] == guidelines_hash(GUIDELINES)
    assert kept["file"].endswith("guidelines.md")
    assert {s.output.metadata["guidelines"] for s in log.samples or []} == {kept["sha256"]}


def test_no_answer_before_the_guidelines_are_read() -> None:
    desk = Desk("rater1", guidelines=GUIDELINES)
    item = desk.add({"answers": [{"label": "good", "spelling": "好"}]})
    assert desk.state()["guidelines"] == {"sha256": guidelines_hash(GUIDELINES), "read": False}
    assert not desk.answer(item.id, "good")
    desk.read_guidelines()
    assert desk.answer(item.id, "good") and desk.state()["guidelines"]["read"]


def test_the_report_gives_agreement_on_records_and_accuracy_on_gold(
    study: dict[str, EvalLog], tmp_path: Path
) -> None:
    build_report([Path(study["rater1"].location).parent], tmp_path)
    (people,) = json.loads((tmp_path / "leaderboard.json").read_text(encoding="utf-8"))["agreement"]
    assert people["records"] == 12  # the shared records; the gold items are not in α
    one, two = answers(study["rater1"]), answers(study["rater2"])
    units = [[one[i][1], two[i][1]] for i in sorted(ids(study["rater1"], "shared"))]
    assert people["alpha"] is not None and people["alpha"] == pytest.approx(krippendorff_alpha(units))
    accuracy = {
        a["annotator"]: (a["gold_records"], a["gold_kind"], a["gold_accuracy"]) for a in people["annotators"]
    }
    assert accuracy == {"rater1": (2, "gold items", 0.5), "rater2": (2, "gold items", 1.0)}
    assert "2 gold items" in (tmp_path / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"team": "rater2,rater3"}, "annotator 'rater1' is not in team=rater2,rater3"),
        ({"overlap": "most"}, "overlap='most': give a number"),
        ({"overlap": float("nan")}, "overlap=nan: give a number"),
        ({"seed": 1.5}, "seed=1.5: give a whole number"),
        ({"gold": "/nonexistent/gold.jsonl"}, "gold"),
        ({"guidelines": "/nonexistent/guide.md"}, "guidelines"),
    ],
)
def test_bad_study_settings_stop_before_any_page(settings: dict[str, Any], says: str) -> None:
    with pytest.raises(DataError, match=says):
        human("rater1", **settings)


def test_a_task_built_beforehand_is_refused(tmp_path: Path) -> None:
    desk = human("rater1", team=TEAM)
    try:
        (log,) = eval(task1_judge(data="sample"), model=desk, log_dir=str(tmp_path), display="none", limit=1)
    finally:
        desk.api.close()
    assert log.status == "error" and "built inside the eval" in str(log.error.message)


def test_gold_items_are_for_a_person_as_the_judge(tmp_path: Path) -> None:
    grader = human("rater1", gold=str(gold_file(tmp_path)))
    try:
        with pytest.raises(DataError, match="gold= applies to Task 1"):
            eval(
                "uxbench/task2_eval", task_args={"data": "sample"}, model="mockllm/model",
                model_roles={"grader": grader}, log_dir=str(tmp_path), display="none",
            )  # fmt: skip
    finally:
        grader.api.close()


def test_an_export_of_a_study_run_leaves_the_gold_items_out(study: dict[str, EvalLog]) -> None:
    found = export_logs([study["rater1"].location])
    assert len(found.rows) == 18 and found.skipped["gold"] == 2
    assert not any(row.cid.startswith(GOLD_PREFIX) for row in found.rows)


def test_a_bad_gold_file_is_named_as_the_gold_file(tmp_path: Path) -> None:
    bad = write_jsonl(tmp_path / "gold.jsonl", [{"cid": "x", "history": [], "query": "q", "response": "r"}])
    desk = human("rater1", gold=str(bad))
    try:
        with pytest.raises(DataError, match=r"uxbench/human gold=.*gold\.jsonl: .*gold\.jsonl:1"):
            eval(
                "uxbench/task1_judge", task_args={"data": "sample"}, model=desk,
                log_dir=str(tmp_path), display="none",
            )  # fmt: skip
    finally:
        desk.api.close()
