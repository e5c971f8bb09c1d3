"""A person's verdicts as a grader_check reference, on logs made here at the `uxbench/human` desk.

rater1 judges six Task 1 records of the bundled sample (good, bad, a skip, neutral, good,
good) and grades four Task 2 replies (good, a skip, bad, good). `uxbench people export`
turns each run into reference rows; `uxbench/grader_check -T reference=FILE` then compares a
scripted grader with the person, and its metrics are worked out here by hand.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers.desk import at_the_desk, human
from helpers.grm import metric_values
from helpers.logs import rewritten
from inspect_ai import eval
from inspect_ai.log import EvalError, EvalLog, read_eval_log
from inspect_ai.model import ModelOutput, get_model

from uxbench.cli import main
from uxbench.qualification.match import Check
from uxbench.qualification.people_reference import ReferenceRow, export_logs, read_reference
from uxbench.report.qualified import reference_text
from uxbench.runtime.errors import DataError
from uxbench.tasks.grader_check import REPLY_KEY, grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

TASK1_PLAN = ["good", "bad", None, "neutral", "good", "good"]  # by the record's place in the run
TASK2_PLAN = ["good", None, "bad", "good"]  # by the order the items come


@dataclass
class Logs:
    task1: EvalLog
    task2: EvalLog
    said: dict[str, str | None]  # Task 1: cid → rater1's answer
    replies: dict[str, str]  # Task 1: cid → the record's reply


def evaluate(task, model, log_dir: Path, **kwargs) -> EvalLog:
    (log,) = eval(task, model=model, log_dir=str(log_dir), display="none", ctl_server=False, **kwargs)
    assert log.status == "success", log.error
    return log


def at_desk(run: Callable, answer: Callable[[dict], str | None], items: int, annotator: str = "rater1"):
    desk = human(annotator)
    thread = at_the_desk(desk, answer, items)
    try:
        return run(desk)
    finally:
        desk.api.close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    out = tmp_path_factory.mktemp("people") / "logs"
    replies = {str(s.id): str(s.metadata[REPLY_KEY]) for s in grader_check(data="sample").dataset}
    order = [str(s.id) for s in task1_judge(data="sample").dataset][: len(TASK1_PLAN)]
    said = dict(zip(order, TASK1_PLAN, strict=True))
    cid_of = {reply: cid for cid, reply in replies.items()}
    task1 = at_desk(
        lambda desk: evaluate(task1_judge(data="sample", labels="three_class"), desk, out, limit=len(order)),
        lambda item: said[cid_of[item["reply"]]],
        len(order),
    )
    plan = iter(TASK2_PLAN)
    task2 = at_desk(
        lambda desk: evaluate(
            task2_eval(data="sample"),
            "mockllm/model",
            out,
            model_roles={"grader": desk},
            limit=len(TASK2_PLAN),
        ),
        lambda item: next(plan),
        len(TASK2_PLAN),
    )
    return Logs(task1, task2, said, replies)


# ---------------------------------------------------------------- the reader


@pytest.mark.integration
def test_task1_rows_are_the_persons_good_and_bad_labels(logs: Logs) -> None:
    found = export_logs([logs.task1.location])
    name = Path(logs.task1.location).name
    hashes = {str(s.id): s.metadata["record_hash"] for s in read_eval_log(logs.task1.location).samples}
    expected = [
        ReferenceRow("task1", cid, hashes[cid], logs.replies[cid], label, "rater1", name, None)
        for cid, label in sorted(logs.said.items())
        if label in ("good", "bad")
    ]
    assert sorted(found.rows, key=lambda r: r.cid) == expected
    assert found.skipped == Counter(skipped=1, neutral=1) and found.annotators == ["rater1"]
    assert found.summary() == "4 row(s); skipped 1 skipped, 1 neutral"


@pytest.mark.integration
def test_task2_rows_are_the_persons_grades_of_the_models_replies(logs: Logs) -> None:
    found = export_logs([logs.task2.location])
    samples = {str(s.id): s for s in read_eval_log(logs.task2.location).samples}
    assert Counter(r.verdict for r in found.rows) == Counter(good=2, bad=1)
    assert found.skipped == Counter(skipped=1)
    for row in found.rows:
        sample = samples[row.cid]
        assert (row.task, row.model, row.annotator) == ("task2", "mockllm/model", "rater1")
        assert row.reply == sample.output.completion and row.record_hash == sample.metadata["record_hash"]
        assert sample.scores["grm"].metadata["verdict"] == row.verdict


@pytest.mark.integration
def test_an_unfinished_log_gives_what_it_holds_and_counts_the_rest(logs: Logs, tmp_path: Path) -> None:
    def cut(log: EvalLog) -> None:
        log.status = "error"
        log.samples = log.samples[:4]
        log.samples[1].error = EvalError(message="the desk went away", traceback="", traceback_ansi="")

    found = export_logs([rewritten(logs.task1, tmp_path / "cut.eval", cut)])
    assert found.skipped["unfinished"] == 2 and found.skipped["errored"] == 1
    assert len(found.rows) + sum(found.skipped.values()) == len(TASK1_PLAN)


@pytest.mark.integration
def test_the_same_reply_twice(logs: Logs, tmp_path: Path) -> None:
    twice = export_logs([logs.task1.location, logs.task1.location])
    assert len(twice.rows) == 4 and twice.skipped["duplicate"] == 4

    def flip(log: EvalLog) -> None:
        for sample in log.samples:
            if sample.output.metadata["label"] == "bad":
                sample.output.metadata["label"] = "good"

    flipped = rewritten(logs.task1, tmp_path / "flipped.eval", flip)
    with pytest.raises(DataError, match=r"judged bad in log .*\.eval and good in log flipped\.eval"):
        export_logs([logs.task1.location, flipped])


@pytest.mark.integration
def test_refusals_name_the_log(logs: Logs, tmp_path: Path) -> None:
    def other_person(log: EvalLog) -> None:
        log.eval.model_args["annotator"] = "rater2"

    def not_a_person(log: EvalLog) -> None:
        log.eval.model = "openai/gpt-4o"

    def whole_history(log: EvalLog) -> None:
        log.eval.task = "uxbench/task3_recovery"
        log.eval.task_args["grm_context"] = "full"

    two = rewritten(logs.task1, tmp_path / "rater2.eval", other_person)
    with pytest.raises(DataError, match=r"one person per reference: .*rater1 .*rater2 \(rater2\.eval\)"):
        export_logs([logs.task1.location, two])
    model = rewritten(logs.task1, tmp_path / "model.eval", not_a_person)
    with pytest.raises(DataError, match=r"log model\.eval: Task 1 judged by openai/gpt-4o, not a person"):
        export_logs([model])
    full = rewritten(logs.task2, tmp_path / "full.eval", whole_history)
    with pytest.raises(DataError, match=r"log full\.eval: Task 3 graded with grm_context=full"):
        export_logs([full])
    (tmp_path / "notes.txt").write_text("not a log\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"log .*notes\.txt: not a readable Inspect log"):
        export_logs([tmp_path / "notes.txt"])
    with pytest.raises(DataError, match=r"log .*: is a directory"):
        export_logs([tmp_path])
    with pytest.raises(DataError, match=r"log .*missing\.eval: cannot read \(No such file"):
        export_logs([tmp_path / "missing.eval"])


def test_a_reference_file_line_that_is_not_a_row(tmp_path: Path) -> None:
    row = {"task": "task1", "cid": "c", "record_hash": "h", "reply": "r", "verdict": "good",
           "annotator": "a", "log": "x.eval", "model": None}  # fmt: skip
    for change, message in (
        ({"verdict": "neutral"}, r"ref\.jsonl:2: verdict 'neutral' is not good or bad"),
        ({"reply": None}, r"ref\.jsonl:2: field 'reply' is None"),
        ({"task": "task9"}, r"ref\.jsonl:2: task 'task9'"),
    ):
        path = tmp_path / "ref.jsonl"
        path.write_text(json.dumps(row) + "\n" + json.dumps({**row, **change}) + "\n", encoding="utf-8")
        with pytest.raises(DataError, match=message):
            read_reference(path)
    path.write_text(json.dumps(row) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"ref\.jsonl:2: "):
        read_reference(path)


# ---------------------------------------------------------------- the command


@pytest.mark.integration
def test_the_command_writes_refuses_to_overwrite_and_names_a_bad_file(
    logs: Logs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rater1.jsonl"
    assert main(["people", "export", logs.task1.location, "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == (
        f"wrote {out}: 4 row(s); skipped 1 skipped, 1 neutral (rater1; task1)"
    )
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["verdict"] for r in rows].count("good") == 3 and set(rows[0]) == set(
        ReferenceRow.__annotations__
    )
    assert read_reference(out) == export_logs([logs.task1.location]).rows
    before = out.read_text(encoding="utf-8")
    assert main(["people", "export", logs.task2.location, "--out", str(out)]) == 2
    assert "exists; pass --force" in capsys.readouterr().err and out.read_text(encoding="utf-8") == before
    assert main(["people", "export", logs.task2.location, "--out", str(out), "--force"]) == 0
    assert "3 row(s); skipped 1 skipped (rater1; task2)" in capsys.readouterr().out
    assert main(["people", "export", str(tmp_path / "nope.eval"), "--out", str(tmp_path / "x.jsonl")]) == 1
    assert "Error: log " in capsys.readouterr().err and not (tmp_path / "x.jsonl").exists()
    assert main(["people", "export", "--out", str(tmp_path / "x.jsonl")]) == 2  # no LOG


# ---------------------------------------------------------------- grader_check against the person


def scripted_grader(refuse: set[str]) -> Callable:
    """Says 差 to the replies in `refuse`, 好 to any other."""

    def answer(messages, tools, choice, config) -> ModelOutput:
        text = messages[-1].text
        return ModelOutput.from_content("mockllm", "差" if any(r in text for r in refuse) else "好")

    return answer


@pytest.mark.integration
def test_grader_check_against_a_persons_task1_verdicts(logs: Logs, tmp_path: Path) -> None:
    out = tmp_path / "rater1.jsonl"
    assert main(["people", "export", logs.task1.location, "--out", str(out)]) == 0
    a, b = list(logs.said)[:2]  # rater1 said good to a, bad to b; the grader refuses both
    grader = get_model("mockllm/model", custom_outputs=scripted_grader({logs.replies[a], logs.replies[b]}))
    log = evaluate(grader_check(reference=str(out), data="sample"), grader, tmp_path / "logs")
    values = metric_values(log)
    # pairs (person, grader): a (good, bad), b (bad, bad), and two more (good, good)
    # p_o = 3/4; p_e = ½·¾ + ½·¼ = ½; κ = (¾ − ½)/(1 − ½) = ½
    assert values["agreement"] == pytest.approx(0.75) and values["agreement_kappa"] == pytest.approx(0.5)
    assert values["sensitivity"] == pytest.approx(2 / 3) and values["specificity"] == pytest.approx(1.0)
    assert (values["n_reference_good"], values["n_reference_bad"]) == (3, 1)
    assert values["good_pct_gap"] == pytest.approx(0.5 - 0.75) and "avg_acc" not in values
    facts = log.eval.metadata
    assert (facts["reference"], facts["reference_kind"], facts["task"]) == (
        str(out.resolve()),
        "person",
        "task1",
    )
    assert facts["annotators"] == ["rater1"] and facts["reference_rows"] == 4
    samples = read_eval_log(log.location).samples
    assert {s.id: s.metadata["reference_verdict"] for s in samples} == {
        cid: label for cid, label in logs.said.items() if label in ("good", "bad")
    }
    assert all(s.output.completion == logs.replies[str(s.id)] for s in samples)
    check = Check.of(log)  # the report lists it, but never corrects a Good% with it
    assert check is not None and (check.reference_kind, check.published) == ("person", False)
    assert reference_text(check) == "a person · Task 1"


@pytest.mark.integration
def test_grader_check_against_a_persons_task2_grades(logs: Logs, tmp_path: Path) -> None:
    out = tmp_path / "rater1-task2.jsonl"
    assert main(["people", "export", logs.task2.location, "--out", str(out)]) == 0
    log = evaluate(grader_check(reference=str(out), data="sample"), "mockllm/model", tmp_path / "logs")
    values = metric_values(log)  # mockllm's default answer has no label: every grade failed
    assert (values["n_reference_good"], values["n_reference_bad"]) == (2, 1)
    assert values["grader_fail_rate"] == 1 and values["specificity"] == 1 and values["sensitivity"] == 0
    assert values["n_reference_good:mockllm/model"] == 2  # per model, as the published reference
    ids = {str(s.id) for s in read_eval_log(log.location).samples}
    assert ids == {f"mockllm/model/{r.cid}" for r in read_reference(out)}


@pytest.mark.integration
def test_rows_not_matching_the_data_and_mixed_tasks(logs: Logs, tmp_path: Path) -> None:
    rows = [json.dumps(r.as_json()) for r in export_logs([logs.task1.location]).rows]
    changed = json.loads(rows[0]) | {"record_hash": "0000000000000000"}
    elsewhere = json.loads(rows[1]) | {"cid": "not_a_sample_cid"}
    mine = tmp_path / "edited.jsonl"
    mine.write_text(
        "\n".join([json.dumps(changed), json.dumps(elsewhere), *rows[2:]]) + "\n", encoding="utf-8"
    )
    log = evaluate(grader_check(reference=str(mine), data="sample"), "mockllm/model", tmp_path / "logs")
    facts = log.eval.metadata
    assert (facts["left_out_record_changed"], facts["left_out_not_in_data"]) == (1, 1)
    assert len(read_eval_log(log.location).samples) == 2
    task2 = [json.dumps(r.as_json()) for r in export_logs([logs.task2.location]).rows]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join([*rows, *task2]) + "\n", encoding="utf-8")
    with pytest.raises(
        DataError, match=r"rows of several tasks \(4 task1, 3 task2\); choose one with -T task="
    ):
        grader_check(reference=str(mixed), data="sample")
    picked = grader_check(reference=str(mixed), task="task2", data="sample")
    assert picked.metadata["left_out_other_task"] == 4 and len(picked.dataset) == 3
    with pytest.raises(DataError, match="models and per_model apply to a directory"):
        grader_check(reference=str(mixed), per_model=2, data="sample")
    with pytest.raises(DataError, match=r"an Inspect log; .*: uxbench people export .*\.eval --out FILE"):
        grader_check(reference=logs.task1.location, data="sample")


@pytest.mark.integration
def test_task3_rows_are_graded_as_the_paper_grades_task3(tmp_path: Path) -> None:
    """A person's Task 3 grades are checked with the paper's context: the failed reply and the
    complaint, not the question before them (the person saw no more, grm_context=paper)."""
    records = list(task3_recovery(data="sample").dataset)[:2]
    rows = [
        ReferenceRow("task3", str(s.id), s.metadata["record_hash"], f"修好 {i}", said, "rater1", "x", "m")
        for i, (s, said) in enumerate(zip(records, ("good", "bad"), strict=True))
    ]
    path = tmp_path / "task3.jsonl"
    path.write_text("".join(json.dumps(r.as_json()) + "\n" for r in rows), encoding="utf-8")
    prompts: list[str] = []

    def grade(messages, tools, choice, config) -> ModelOutput:
        prompts.append(messages[-1].text)
        return ModelOutput.from_content("mockllm", "好")

    grader = get_model("mockllm/model", custom_outputs=grade)
    log = evaluate(grader_check(reference=str(path), data="sample"), grader, tmp_path / "logs")
    assert log.eval.metadata["task"] == "task3" and metric_values(log)["sensitivity"] == 1
    first_question = records[0].input[0].text
    assert len(prompts) == 2 and not any(first_question in p for p in prompts)
    assert any("修好 0" in p and records[0].input[-1].text in p for p in prompts)
