"""Exclusion files, `-T exclude=FILE` in all three tasks, and the explorer's data layer and command."""

import json
from pathlib import Path

import pytest
from helpers.records import write_jsonl
from inspect_ai import eval

from uxbench.cli import main
from uxbench.data.dataset import RELEASE_FILES, sample_dir
from uxbench.data.exclusions import append_exclusion, read_exclusions
from uxbench.runtime.errors import DataError
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery
from uxbench.web.explore import Explorer, load_entries


def cids(name: str) -> list[str]:
    lines = (sample_dir() / RELEASE_FILES[name]).read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["cid"] for line in lines if line.strip()]


def test_exclusions_append_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "x.jsonl"
    first = append_exclusion(path, "c1", "  duplicate of c2 ", "ann")
    append_exclusion(path, "c1", "second reason", "bob")
    assert first.reason == "duplicate of c2" and first.when.endswith("+00:00")
    found = read_exclusions(path)
    assert list(found) == ["c1"] and found["c1"].who == "ann"  # the first line's reason stands
    with pytest.raises(DataError, match="needs a reason"):
        append_exclusion(path, "c2", " ", "ann")


@pytest.mark.parametrize(
    ("line", "problem"),
    [("{not json", r"x.jsonl:2: not valid JSON"), ('{"reason": "r"}', r"x.jsonl:2: field 'cid'")],
)
def test_bad_exclusion_lines_name_the_file_and_line(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"cid": "a", "reason": "r"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=problem):
        read_exclusions(path)
    with pytest.raises(DataError, match="cannot read"):
        read_exclusions(tmp_path / "missing.jsonl")


@pytest.mark.integration
def test_all_three_tasks_leave_excluded_records_out_and_count_them(tmp_path: Path) -> None:
    good, eval_cid, recovery_cid = (
        cids("task1_judge_good")[0],
        cids("task2_eval")[0],
        cids("task3_recovery")[0],
    )
    path = tmp_path / "exclude.jsonl"
    for cid in (good, eval_cid, recovery_cid, "not_in_the_data"):
        append_exclusion(path, cid, "test", "t")
    for task, n, cid in ((task2_eval, 12, eval_cid), (task3_recovery, 12, recovery_cid)):
        built = task(data="sample", exclude=str(path), self_grade=True)
        assert len(built.dataset) == n - 1 and cid not in {s.id for s in built.dataset}
        assert built.metadata["excluded_records"] == 1 and built.metadata["excluded"] == [cid]
    log = eval(
        task1_judge(data="sample", exclude=str(path)),
        model="mockllm/model",
        log_dir=str(tmp_path),
        display="none",
    )[0]
    assert log.status == "success" and len(log.samples) == 23
    assert log.eval.metadata["excluded_records"] == 1 and log.eval.metadata["exclude"] == str(path.resolve())
    assert good not in {s.id for s in log.samples}


@pytest.mark.integration
def test_excluding_everything_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "all.jsonl"
    path.write_text("".join(json.dumps({"cid": c, "reason": "r"}) + "\n" for c in cids("task2_eval")))
    with pytest.raises(DataError, match="every task2 record"):
        task2_eval(data="sample", exclude=str(path), self_grade=True)


# ---------------------------------------------------------------- the explorer's data


def test_explorer_reads_the_four_sets_filters_counts_and_searches(tmp_path: Path) -> None:
    entries, problems = load_entries("sample")
    explorer = Explorer(entries, problems, tmp_path / "x.jsonl", "ann", "sample")
    assert problems == [] and explorer.summary()["records"] == 48
    everything = explorer.query({})
    assert dict((v, n) for v, n, _ in everything["counts"]["set"]) == {
        "task1_good": 12,
        "task1_bad": 12,
        "task2": 12,
        "task3": 12,
    }
    bad = explorer.query({"set": "task1_bad"})
    assert bad["total"] == 12 and all(item["set"] == "task1_bad" for item in bad["items"])
    # a facet's counts ignore its own filter, so the other sets stay one click away
    assert len(bad["counts"]["set"]) == 4
    assert sum(n for _, n, _ in bad["counts"]["failure_dimension"]) == 12
    target = bad["items"][0]
    found = explorer.query({"q": target["cid"].upper()})
    assert [item["key"] for item in found["items"]] == [target["key"]]
    record = explorer.record(target["key"])
    assert record["turns"][-1]["mark"] == "judged reply" and record["turns"][-2]["mark"] == "query"


def test_explorer_exclusions_append_to_the_file_and_mark_the_record(tmp_path: Path) -> None:
    entries, problems = load_entries("sample")
    path = tmp_path / "x.jsonl"
    explorer = Explorer(entries, problems, path, "ann", "sample")
    cid = entries[0].cid
    exclusion = explorer.exclude_record(cid, "off-topic")
    assert read_exclusions(path)[cid] == exclusion and exclusion.who == "ann"
    assert explorer.exclude_record(cid, "again") == exclusion and len(path.read_text().splitlines()) == 1
    assert explorer.query({"excluded": "only"})["total"] == 1
    assert explorer.query({"excluded": "hide"})["total"] == 47
    assert explorer.record(entries[0].key)["exclusion"]["reason"] == "off-topic"
    with pytest.raises(DataError, match="no record has cid"):
        explorer.exclude_record("nope", "r")
    reopened = Explorer(entries, problems, path, "bob", "sample")
    assert reopened.query({"excluded": "only"})["total"] == 1


def test_a_lone_file_and_unusable_records(tmp_path: Path) -> None:
    rows = [
        json.loads(line) for line in (sample_dir() / RELEASE_FILES["task3_recovery"]).read_text().splitlines()
    ]
    path = write_jsonl(tmp_path / "recovery.jsonl", [*rows[:3], {"cid": "broken", "history": []}])
    with path.open("a") as handle:
        handle.write("{not json\n")
    entries, problems = load_entries(str(path))
    assert [e.set for e in entries] == ["task3"] * 3
    assert len(problems) == 2 and "(cid broken)" in problems[0] and ":5 " in problems[1]
    with pytest.raises(DataError, match="no usable records"):
        load_entries(str(write_jsonl(tmp_path / "bad.jsonl", [{"cid": "x"}])))


@pytest.mark.integration
def test_the_explore_command_reports_bad_data_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "/no/such/place"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("uxbench explore: data='/no/such/place' holds no usable records")
    assert out.count("no such file or directory") == 1 and "Traceback" not in out


# ---------------------------------------------------------------- source and record hash


def changed_copy(directory: Path, config: str) -> Path:
    """The sample's file of `config` with every query changed and the cids kept."""
    directory.mkdir()
    lines = (sample_dir() / RELEASE_FILES[config]).read_text(encoding="utf-8").splitlines()
    records = [{**json.loads(line), "query": f"q{i}"} for i, line in enumerate(lines) if line.strip()]
    write_jsonl(directory / RELEASE_FILES[config], records)
    return directory


@pytest.mark.integration
def test_an_exclusion_made_on_one_source_never_removes_a_record_of_another(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    entries, problems = load_entries("sample")
    path = tmp_path / "x.jsonl"
    cid = next(e.cid for e in entries if e.set == "task2")
    Explorer(entries, problems, path, "ann", "sample").exclude_record(cid, "off-topic")
    line = json.loads(path.read_text(encoding="utf-8"))
    assert line["data"] == "sample" and len(line["record_hash"]) == 16
    built = task2_eval(data="sample", exclude=str(path), self_grade=True)
    assert built.metadata["excluded"] == [cid] and len(built.dataset) == 11
    other = changed_copy(tmp_path / "release", "task2_eval")  # the same cids, other records
    with caplog.at_level("WARNING"):
        built = task2_eval(data=str(other), exclude=str(path), self_grade=True)
    assert built.metadata["excluded_records"] == 0 and len(built.dataset) == 12
    assert (
        f"x.jsonl:1: cid {cid} is not excluded: made on data=sample, this run reads data=local" in caplog.text
    )
    # a line naming the right source but another version of the record is not applied either
    path.write_text(json.dumps({**line, "data": "local"}) + "\n", encoding="utf-8")
    caplog.clear()
    with caplog.at_level("WARNING"):
        built = task2_eval(data=str(other), exclude=str(path), self_grade=True)
    assert built.metadata["excluded_records"] == 0 and "another version of the record" in caplog.text


@pytest.mark.integration
def test_old_exclusion_lines_match_by_cid_with_one_note(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "old.jsonl"
    first, second = cids("task3_recovery")[:2]
    path.write_text("".join(json.dumps({"cid": c, "reason": "r"}) + "\n" for c in (first, second)))
    with caplog.at_level("WARNING"):
        built = task3_recovery(data="sample", exclude=str(path), self_grade=True)
    assert built.metadata["excluded"] == [first, second]
    notes = [r.getMessage() for r in caplog.records if "match by cid only" in r.getMessage()]
    old = "without a data source or record hash (an older uxbench explore) match by cid only"
    assert notes == [f"uxbench: {path}: 2 line(s) {old}"]
