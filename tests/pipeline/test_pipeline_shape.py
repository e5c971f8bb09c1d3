"""Test sets shaped like the paper's: Task 3 difficulty, overlap between sets, domain labels, the
paper's label shares; and the audit of the annotators against a person."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from helpers.pipeline import CASE, SMALL_TARGETS

from uxbench.cli import main
from uxbench.data.dataset import RELEASE_FILES, load_samples
from uxbench.pipeline.read.files import read_rows
from uxbench.pipeline.stages.build import BuildConfig, build_sets
from uxbench.pipeline.stages.schemas import FailureCase, normalise_domain
from uxbench.pipeline.stages.shares import compare
from uxbench.pipeline.tools.audit import score
from uxbench.runtime.errors import DataError


@pytest.fixture(scope="module")
def qa_rows(pipeline_reference: Path) -> list[dict[str, Any]]:
    return list(read_rows(pipeline_reference / "05_qa.jsonl"))


@pytest.mark.integration
def test_task3_difficulty_is_graded(pipeline_reference: Path) -> None:
    stats = json.loads((pipeline_reference / "stats.json").read_text(encoding="utf-8"))
    difficulties = stats["build"]["sets"]["task3_recovery"]["per_difficulty"]
    assert len(difficulties) >= 2, difficulties
    records = list(read_rows(pipeline_reference / RELEASE_FILES["task3_recovery"]))
    assert {r["difficulty"] for r in records} == set(difficulties)


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["auto", "disjoint", "shared"])
def test_overlap_modes(qa_rows: list[dict[str, Any]], mode: str) -> None:
    targets = {**SMALL_TARGETS, "task1_judge_bad": 5, "task2_eval": 5, "task3_recovery": 4}
    sets, counts = build_sets(qa_rows, BuildConfig(targets=targets, overlap=mode))
    ids = {name: {(r["source_cid"], r["source_turn"]) for r in records} for name, records in sets.items()}
    shared = ids["task1_judge_bad"] & ids["task2_eval"]
    pairs = counts["overlap"]["pairs"]
    assert counts["overlap"]["mode"] == mode
    assert pairs["task1_judge_bad & task2_eval"]["cases"] == len(shared)
    if mode == "shared":
        assert shared and ids["task3_recovery"] & ids["task2_eval"]
    else:  # enough cases for these small targets: nothing shared
        assert all(p["cases"] == 0 for p in pairs.values()), pairs
        assert all(s["size"] == targets[n] for n, s in counts["sets"].items() if n != "task1_judge_good")


@pytest.mark.integration
def test_auto_overlap_tops_up_only_when_needed(qa_rows: list[dict[str, Any]]) -> None:
    failures = len({r["id"] for r in qa_rows if r["track"] == "failure"})
    targets = {**SMALL_TARGETS, "task3_recovery": 5, "task1_judge_bad": 10, "task2_eval": failures}
    auto = build_sets(qa_rows, BuildConfig(targets=targets))[1]["sets"]
    disjoint = build_sets(qa_rows, BuildConfig(targets=targets, overlap="disjoint"))[1]["sets"]
    assert auto["task2_eval"]["reused_from_other_sets"] > 0
    assert disjoint["task2_eval"]["reused_from_other_sets"] == 0
    assert disjoint["task2_eval"]["size"] < auto["task2_eval"]["size"]


def test_domain_labels_are_open_but_normalised() -> None:
    assert (
        normalise_domain(" 编程 / Python报错。") == normalise_domain("编程/python 报错") == "编程/python报错"
    )
    assert normalise_domain("「Ｔｒａｖｅｌ  Visa」") == "travel visa"
    case = FailureCase.model_validate(
        {**CASE, "scene_l1": " 旅行 ", "intent_l2": "事实查询！", "sector_l1": "New Sector"}
    )
    assert (case.scene_l1, case.intent_l2, case.sector_l1) == ("旅行", "事实查询", "new sector")


@pytest.mark.integration
def test_records_carry_two_level_labels(pipeline_reference: Path) -> None:
    fields = ("scene_l1", "scene_l2", "intent_l1", "intent_l2", "sector_l1", "sector_l2")
    for name in RELEASE_FILES.values():
        for record in read_rows(pipeline_reference / name):
            assert all(record[f] for f in fields), record["cid"]
    samples, _ = load_samples("task2", str(pipeline_reference))
    assert samples[0].metadata["domain_intent_l1"]
    stats = json.loads((pipeline_reference / "stats.json").read_text(encoding="utf-8"))
    assert sum(stats["build"]["sets"]["task2_eval"]["per_sector_l1"].values()) == len(samples)


@pytest.mark.integration
def test_paper_shares_beside_each_set(pipeline_reference: Path) -> None:
    comparison = compare(
        "task1_judge_bad", {"冗余啰嗦": 50, "指令遵循失败": 25, "格式结构问题": 15, "其他": 10}
    )
    rows = {r["group"]: r for r in comparison["groups"]}
    assert rows["Verbosity/Redundancy"] == {
        "group": "Verbosity/Redundancy",
        "paper": 34.3,
        "here": 50.0,
        "difference": 15.7,
    }
    assert rows["Instruction/Format Failure"]["here"] == 40.0  # two record labels, one headline group
    assert rows["(not in the paper's groups)"] == {
        "group": "(not in the paper's groups)",
        "paper": None,
        "here": 10.0,
        "difference": None,
    }
    assert sum(r["paper"] for r in comparison["groups"] if r["paper"]) == pytest.approx(100.0)
    assert compare("task1_judge_good", {"准确回答": 1})["total_variation"] == pytest.approx(82.6)
    report = (pipeline_reference / "stats.md").read_text(encoding="utf-8")
    assert "Beside the paper's published shares of its task1_judge_bad set" in report
    assert "| Accurate Answering | 17.4% |" in report
    assert "### Overlap between the sets (mode: auto)" in report


@pytest.mark.integration
def test_audit_draw_then_score(
    pipeline_reference: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "audit"
    assert main(["pipeline", "audit", "draw", str(pipeline_reference), "--out", str(base), "--n", "24"]) == 0
    rows = list(csv.DictReader((tmp_path / "audit.csv").open(encoding="utf-8-sig")))
    jsonl = list(read_rows(tmp_path / "audit.jsonl"))
    assert len(rows) == len(jsonl) == 24
    assert {r["pipeline_decision"] for r in rows} == {"keep", "reject"}
    assert {r["track"] for r in rows} == {"failure", "success"}
    assert all(r["human_label"] == "" and r["reply"] for r in rows)

    for i, row in enumerate(rows):  # a person who agrees with every label but the first, and keeps all
        row["human_label"] = (
            row["pipeline_label"] if i else ("事实性错误" if row["track"] == "failure" else "知识深度")
        )
        row["human_decision"] = "keep"
    if rows[0]["pipeline_label"] in ("事实性错误", "知识深度"):
        rows[0]["human_label"] = "其他" if rows[0]["track"] == "failure" else "共情支持"
    rows[1]["human_label"] = ""  # not filled in: left out of the label's κ
    filled = tmp_path / "filled.csv"
    with filled.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert main(["pipeline", "audit", "score", str(filled)]) == 0
    out = capsys.readouterr().out
    result = json.loads((tmp_path / "filled.agreement.json").read_text(encoding="utf-8"))
    assert result["label"]["n"] == 23 and result["label"]["agreement"] == round(22 / 23, 4)
    assert 0 < result["label"]["kappa"] < 1
    keep = sum(r["pipeline_decision"] == "keep" for r in rows)
    assert result["decision"]["agreement"] == round(keep / 24, 4) and result["decision"]["kappa"] == 0.0
    assert {"pipeline": "reject", "human": "keep", "count": 24 - keep} in result["decision"]["confusion"]
    assert "## label: κ = " in out and "| pipeline | person | count |" in out


@pytest.mark.integration
def test_audit_score_names_bad_rows(tmp_path: Path) -> None:
    path = tmp_path / "filled.jsonl"
    row = {
        "audit_id": "audit_0001",
        "track": "failure",
        "pipeline_label": "事实性错误",
        "pipeline_decision": "keep",
    }
    path.write_text(json.dumps({**row, "human_label": "nonsense"}, ensure_ascii=False) + "\n")
    with pytest.raises(DataError, match=r"filled.jsonl:1 \(audit_0001\): human_label 'nonsense'"):
        score(path)
    path.write_text(json.dumps({**row, "human_decision": "maybe"}, ensure_ascii=False) + "\n")
    with pytest.raises(DataError, match="human_decision 'maybe': use keep or reject"):
        score(path)
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n")
    with pytest.raises(DataError, match="no row has human_label or human_decision filled in"):
        score(path)
