"""The report with qualified graders and with people, on logs made here.

Graders: a local OpenAI-compatible grader answering with the published reference flipped at
known rates (published_helpers) is qualified with `uxbench/grader_check` on Task 2 and Task
3, then grades a replayed model's replies; a person at the `uxbench/human` desk, driven
from a thread, is qualified and grades too. The report must give each Task 2/3 row the
GRM-equivalent p* and interval worked out here by hand from the two logs, or say why not.

People: two annotators judge the same 8 Task 1 records at the desk, beside a model and a
baseline run on all 24; the paired table's Avg-Acc, McNemar p, interval and κ are checked
by hand. The page is looked at in Chromium at 1400 and 390 px.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import pytest
from helpers.desk import at_the_desk, human
from helpers.grm import metric_values, write_data
from helpers.localserver import OpenAIServer
from helpers.logs import rewritten
from helpers.published import MARK, flipping_grader, lines, reference, write_published
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import Model, get_model

from uxbench.judge_answer.prompt import builtin_templates, read_judge_prompt
from uxbench.qualification.correction import Proportion, Qualification, corrected_rate
from uxbench.qualification.match import NOT_QUALIFIED, PANEL, SELF_GRADED, Check, Grader, Grading
from uxbench.report import build_report
from uxbench.report.captions import SAMPLE_NOTE
from uxbench.report.collect import collect
from uxbench.report.columns import has_grm_column
from uxbench.report.grid import md_text
from uxbench.report.logs import CheckLog, Run
from uxbench.report.paired import Table, compare
from uxbench.report.qualified import GRM_GRADED
from uxbench.report.samples import Counts, Evidence, Judgment
from uxbench.report.sections import leaderboard
from uxbench.stats.agreement import krippendorff_alpha
from uxbench.stats.intervals import bootstrap_units, mcnemar_exact, paired_difference
from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

N2, N3 = 30, 12  # published Task 2 / Task 3 replies per model
CHROMIUM = Path("/usr/bin/chromium")


def evaluate(tasks: Any, model: str | Model, log_dir: Path, **kwargs: Any) -> EvalLog:
    (log,) = eval(tasks, model=model, log_dir=str(log_dir), display="none", ctl_server=False, **kwargs)
    assert log.status == "success", log.error
    return log


# ---------------------------------------------------------------- the logs


@dataclass
class Logs:
    root: Path
    check2: EvalLog  # the local grader against UXBench-GRM on Task 2 (alpha, gamma)
    check3: EvalLog  # ... on Task 3 (alpha, beta)
    users: EvalLog  # ... against the users' thumbs on Task 1
    person_check: EvalLog  # grader1 at the desk against UXBench-GRM on Task 2
    person_answers: list[tuple[str, str]]  # (reference, grader1's verdict) per reply
    beta2: EvalLog  # Task 2, beta's replies replayed, graded by the local grader
    beta3: EvalLog  # Task 3, the same
    other: EvalLog  # Task 2 graded by an unqualified grader
    by_person: EvalLog  # Task 2 graded by grader1 (6 records)
    rater1: EvalLog  # Task 1 at the desk, 8 records
    rater2: EvalLog  # the same 8 records
    model: EvalLog  # Task 1, a mock judge on all 24 records
    baseline: EvalLog  # Task 1, uxbench/baseline/always-good


def judged_labels() -> dict[str, tuple[str, str]]:
    """The sample Task 1 set: judged reply → (cid, the user's label), for the person at the desk."""
    found = {}
    for sample in task1_judge(data="sample").dataset:
        prompt = read_judge_prompt(sample.input if isinstance(sample.input, str) else sample.input[-1].text,
                                   builtin_templates())  # fmt: skip
        found[prompt.fields["response"]] = (str(sample.id), str(sample.target))
    return found


FLIP = {"good": "bad", "bad": "good"}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    tmp = tmp_path_factory.mktemp("people")
    out = tmp / "logs"
    root, data = tmp / "outputs", write_data(tmp / "data", task2=N2, task3=N3)
    for model in ("alpha", "gamma", "beta"):
        write_published(root, model, lines(model, N2))
    for model in ("alpha", "beta"):
        write_published(root, model, lines(model, N3, "task3"), task="task3")
    with OpenAIServer(flipping_grader) as server:
        grader = get_model("openai-api/local/grader", base_url=server.url, api_key="test-key")
        other = get_model("openai-api/local/other-grader", base_url=server.url, api_key="test-key")
        check2 = evaluate(
            grader_check(reference=str(root), data=str(data), models="alpha,gamma"), grader, out
        )
        check3 = evaluate(grader_check(reference=str(root), task="task3", data=str(data)), grader, out)
        users = evaluate(grader_check(data="sample"), grader, out)  # the users' thumbs: never corrects
        replayed = get_model("uxbench/replay/beta", outputs=str(root))
        beta2 = evaluate(task2_eval(data=str(data)), replayed, out, model_roles={"grader": grader})
        beta3 = evaluate(task3_recovery(data=str(data)), replayed, out, model_roles={"grader": grader})
        unqualified = evaluate(task2_eval(data=str(data)), replayed, out, model_roles={"grader": other})

    # a person qualified as a grader: right but for the first reference-good and reference-bad reply
    answers: list[tuple[str, str]] = []

    def grade(item: dict) -> str:
        model, i = MARK.findall(item["reply"])[-1]
        truth = "good" if reference(model, int(i))[0] == 1 else "bad"
        said = FLIP[truth] if truth not in {r for r, _ in answers} else truth
        answers.append((truth, said))
        return said

    desk = human("grader1")
    thread = at_the_desk(desk, grade, 8)
    try:
        person_check = evaluate(
            grader_check(reference=str(root), data=str(data), models="alpha", per_model=8), desk, out
        )
    finally:
        desk.api.close()
    thread.join(timeout=5)
    desk = human("grader1")
    thread = at_the_desk(desk, lambda item: "good" if "beta" in item["reply"] else "bad", 6)
    try:
        by_person = evaluate(task2_eval(data=str(data)), replayed, out, model_roles={"grader": desk}, limit=6)
    finally:
        desk.api.close()
    thread.join(timeout=5)

    # two people on the same 8 Task 1 records: rater1 wrong on two of them, rater2 on three and skips one
    truth = judged_labels()
    order = [str(s.id) for s in task1_judge(data="sample").dataset][:8]
    mistakes = {"rater1": {order[0], order[3]}, "rater2": {order[0], order[1], order[5]}}
    skips = {"rater1": set(), "rater2": {order[6]}}
    people = {}
    for name in ("rater1", "rater2"):

        def judge(item: dict, name: str = name) -> str | None:
            cid, label = truth[item["reply"]]
            if cid in skips[name]:
                return None
            return FLIP[label] if cid in mistakes[name] else label

        desk = human(name)
        thread = at_the_desk(desk, judge, 8)
        try:
            people[name] = evaluate(task1_judge(data="sample"), desk, out, limit=8)
        finally:
            desk.api.close()
        thread.join(timeout=5)

    def mock_judge(messages, tools, choice, config):  # says 差 to every third prompt
        from inspect_ai.model import ModelOutput

        text = messages[-1].text
        return ModelOutput.from_content("mockllm", "差" if sum(map(ord, text)) % 3 == 0 else "好")

    model = evaluate(task1_judge(data="sample"), get_model("mockllm/judge", custom_outputs=mock_judge), out)
    baseline = evaluate(task1_judge(data="sample"), "uxbench/baseline/always-good", out)
    return Logs(
        root, check2, check3, users, person_check, answers, beta2, beta3, unqualified, by_person,
        people["rater1"], people["rater2"], model, baseline,
    )  # fmt: skip


@pytest.fixture(scope="module")
def report(logs: Logs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    extra = tmp_path_factory.mktemp("variants")

    def self_graded(log: EvalLog) -> None:
        log.eval.model_roles = None
        log.eval.task_args["self_grade"] = True

    def panel(log: EvalLog) -> None:
        log.eval.model_roles = {**log.eval.model_roles, "grader_2": log.eval.model_roles["grader"]}
        for sample in log.samples or []:  # each grade names its graders, as a panel's do
            meta = sample.scores["grm"].metadata
            meta["grader"] = f"{meta['grader']}, {meta['grader']}"

    def older(log: EvalLog) -> None:
        log.eval.created = "2026-01-01T00:00:00+00:00"

    rewritten(logs.beta2, extra / "self.eval", self_graded)
    rewritten(logs.beta2, extra / "panel.eval", panel)
    rewritten(logs.check2, extra / "older-check.eval", older)
    out = tmp_path_factory.mktemp("report")
    build_report([Path(logs.beta2.location).parent, extra], out)
    return out


def board(report: Path) -> dict[str, Any]:
    return json.loads((report / "leaderboard.json").read_text(encoding="utf-8"))


def row_of(report: Path, task: str, log: EvalLog | str) -> dict[str, Any]:
    name = Path(log if isinstance(log, str) else log.location).name
    return next(r for r in board(report)["tasks"][task]["rows"] if Path(r["log"]).name == name)


# ---------------------------------------------------------------- GRM-equivalent rows


def by_hand(run: EvalLog, check: EvalLog, headline: str) -> tuple[float, float, float]:
    """The default interval (`corrected_rate`) from the six numbers the report prints: p and its SE,
    sens, spec and their bases."""
    p, se = metric_values(run)[headline], metric_values(run)["good_pct_stderr"]
    c = metric_values(check)
    q = Qualification(
        Proportion(c["sensitivity"], int(c["n_reference_good"])),
        Proportion(c["specificity"], int(c["n_reference_bad"])),
    )
    found = corrected_rate(p, se, q)
    return found.estimate, found.low, found.high


def test_a_qualified_graders_rows_get_the_grm_equivalent(logs: Logs, report: Path) -> None:
    for task, run, check, prefix in (
        ("task2_eval", logs.beta2, logs.check2, "good_pct"),
        ("task3_recovery", logs.beta3, logs.check3, "recovery_rate"),
    ):
        row = row_of(report, task, run)
        expected = by_hand(run, check, prefix)
        assert (
            row[f"{prefix}_grm_equiv"],
            row[f"{prefix}_grm_equiv_low"],
            row[f"{prefix}_grm_equiv_high"],
        ) == (pytest.approx(expected, abs=1e-12))
        assert row["grader_check_log"] == f"logs/{Path(check.location).name}"  # the newer of two copies
        assert row["grm_equiv_note"] is None
        assert row[f"{prefix}_grm_equiv_low"] < row[f"{prefix}_grm_equiv"] < row[f"{prefix}_grm_equiv_high"]
    assert "good_pct_grm_equiv" not in row_of(report, "task3_recovery", logs.beta3)  # Task 3: recovery_rate_…
    markdown = (report / "leaderboard.md").read_text(encoding="utf-8")
    value, low, high = by_hand(logs.beta2, logs.check2, "good_pct")
    assert f"| {100 * value:.1f} ({100 * low:.1f}–{100 * high:.1f}) |" in markdown
    assert "GRM-equiv. Good % (95% CI)" in markdown and "GRM-equiv. Recovery % (95% CI)" in markdown
    assert "p\\* = (p + spec − 1)/(sens + spec − 1)" in markdown


def test_rows_without_a_qualification_say_why(logs: Logs, report: Path) -> None:
    keys = ("good_pct_grm_equiv", "good_pct_grm_equiv_low", "good_pct_grm_equiv_high", "grader_check_log")
    for log, note in (
        (logs.other, NOT_QUALIFIED),
        ("self.eval", SELF_GRADED),
        ("panel.eval", PANEL),
    ):
        row = row_of(report, "task2_eval", log)
        assert [row[k] for k in keys] == [None] * 4 and row["grm_equiv_note"] == note
    markdown = (report / "leaderboard.md").read_text(encoding="utf-8")
    assert f"| *{NOT_QUALIFIED}* |" in markdown and "| *self-graded: not corrected* |" in markdown
    assert "grm_equiv_note" not in row_of(report, "task1_judge", logs.model)  # Task 1 has no grader


def test_a_person_qualified_as_a_grader(logs: Logs, report: Path) -> None:
    """`inspect eval uxbench/grader_check --model uxbench/human -M annotator=grader1 -T reference=DIR …`"""
    check = logs.person_check
    assert (check.eval.model, check.eval.model_args["annotator"]) == ("uxbench/human", "grader1")
    values = metric_values(check)
    good = [said for truth, said in logs.person_answers if truth == "good"]
    bad = [said for truth, said in logs.person_answers if truth == "bad"]
    assert len(good) >= 2 and len(bad) >= 2
    assert values["sensitivity"] == pytest.approx(good.count("good") / len(good))
    assert values["specificity"] == pytest.approx(bad.count("bad") / len(bad))
    assert values["n_reference_good"] == len(good) and "score_auroc" not in values  # no logprobs
    # the Task 2 run the same person graded is corrected with the person's own check
    row = row_of(report, "task2_eval", logs.by_person)
    assert row["grader"] == "uxbench/human · grader1" and row["kind"] == "partial"
    assert row["grader_check_log"] == f"logs/{Path(check.location).name}"
    assert row["good_pct_grm_equiv"] == pytest.approx(by_hand(logs.by_person, check, "good_pct")[0])


def test_the_grader_checks_table(logs: Logs, report: Path) -> None:
    data = board(report)
    checks = {(c["grader"], c["annotator"], c["task"]): c for c in data["grader_checks"]}
    assert set(checks) == {
        ("openai-api/local/grader", None, "task2"),
        ("openai-api/local/grader", None, "task3"),
        ("uxbench/human", "grader1", "task2"),
        ("openai-api/local/grader", None, "task1"),
    }
    users = checks[("openai-api/local/grader", None, "task1")]
    assert (users["reference"], users["corrects"], users["per_model"]) == ("users", 0, {})
    assert users["metrics"]["avg_acc"] == pytest.approx(metric_values(logs.users)["avg_acc"])
    task2 = checks[("openai-api/local/grader", None, "task2")]
    values = metric_values(logs.check2)
    assert task2["metrics"]["sensitivity"] == pytest.approx(values["sensitivity"])
    assert task2["reference"] == "published" and task2["corrects"] == 1  # beta's Task 2 row
    assert set(task2["per_model"]["specificity"]) == {"alpha", "gamma"}
    low, high = sorted(values[f"specificity:{m}"] for m in ("alpha", "gamma"))
    assert f"spec {100 * low:.0f}–{100 * high:.0f} (2 models)" in task2["spread"]
    assert str(logs.root) not in json.dumps(data)  # the reference directory by its name only
    (older,) = [s for s in data["skipped"] if s["log"].endswith("older-check.eval")]
    assert older["reason"].startswith("an older grader_check of the same grader, task and template")
    assert not any("not a UXBench task" in s["reason"] for s in data["skipped"])
    markdown = (report / "leaderboard.md").read_text(encoding="utf-8")
    assert "## Grader checks" in markdown and "| uxbench/human · grader1 | UXBench-GRM · Task 2 |" in markdown
    assert "| openai-api/local/grader | users · Task 1 |" in markdown


# ---------------------------------------------------------------- people beside models


def test_people_are_their_own_unranked_rows(logs: Logs, report: Path) -> None:
    rows = {r["annotator"]: r for r in board(report)["tasks"]["task1_judge"]["rows"] if r["annotator"]}
    assert set(rows) == {"rater1", "rater2"}
    for name, wrong in (("rater1", 2), ("rater2", 4)):  # rater2's skip counts as wrong
        row = rows[name]
        assert (row["kind"], row["rank"], row["partial"], row["samples"]) == ("human", None, None, 8)
        assert row["label"] == f"{name} (human)" and row["metrics"]["avg_acc"] == pytest.approx(1 - wrong / 8)
        # on the bundled synthetic sample: not set beside the paper's human baseline (68.0)
        assert row["published"] is None and row["paper_settings_match"]
    ranked = [r for r in board(report)["tasks"]["task1_judge"]["rows"] if r["rank"] is not None]
    assert {r["model"] for r in ranked} == {
        "mockllm/judge",
        "uxbench/baseline/always-good",
    }  # ranked among models only
    markdown = (report / "leaderboard.md").read_text(encoding="utf-8")
    assert "| – | uxbench/human · rater1 (human) |" in markdown
    task1 = markdown[markdown.index("## Task 1") : markdown.index("## Task 2")]
    assert md_text(SAMPLE_NOTE) in task1 and "Paper" not in task1 and "68.0" not in task1
    page = (report / "index.html").read_text(encoding="utf-8")
    task1 = page[page.index('id="task1_judge"') : page.index('id="task2_eval"')]
    assert escape(SAMPLE_NOTE) in task1 and "Paper" not in task1 and "68.0" not in task1
    runs, _, skipped = collect([Path(logs.rater1.location).parent], partial=False)
    assert {r.annotator for r in runs} >= {"rater1", "rater2"}  # --complete-only keeps a person's subset


def correctness(log: EvalLog) -> dict[str, tuple[str, bool, str | None]]:
    """cid → (the user's label, judged right, the verdict), read from the full log."""
    full = read_eval_log(log.location)
    scores = {str(s.id): s.scores["judge_verdict"] for s in full.samples}
    return {cid: (score.metadata["label"], score.value == 1, score.answer) for cid, score in scores.items()}


def test_the_paired_table_by_hand(logs: Logs, report: Path) -> None:
    first, second = correctness(logs.rater1), correctness(logs.model)
    shared = sorted(set(first) & set(second))
    assert len(shared) == 8
    tables = {}
    for label in ("good", "bad"):
        ids = [i for i in shared if first[i][0] == label]
        tables[label] = [
            sum(first[i][1] and second[i][1] for i in ids),
            sum(first[i][1] and not second[i][1] for i in ids),
            sum(second[i][1] and not first[i][1] for i in ids),
            sum(not first[i][1] and not second[i][1] for i in ids),
        ]
    accuracy = {
        side: sum((a + (b if side == 0 else c)) / (a + b + c + d) for a, b, c, d in tables.values()) / 2
        for side in (0, 1)
    }
    b = sum(t[1] for t in tables.values())
    c = sum(t[2] for t in tables.values())
    p = min(1.0, 2 * sum(math.comb(b + c, k) for k in range(min(b, c) + 1)) / 2 ** (b + c)) if b + c else 1.0
    parts = [((t[1] - t[2]) / sum(t), paired_difference(*t)) for t in tables.values()]
    low = sum(parts[k][0] for k in range(2)) / 2 - math.sqrt(sum((d - i[0]) ** 2 for d, i in parts)) / 2
    high = sum(parts[k][0] for k in range(2)) / 2 + math.sqrt(sum((i[1] - d) ** 2 for d, i in parts)) / 2
    (pair,) = [
        x for x in board(report)["paired"]
        if (x["first"]["annotator"], x["second"]["model"]) == ("rater1", "mockllm/judge")
    ]  # fmt: skip
    assert (pair["records"], pair["liked"], pair["disliked"]) == (8, 4, 4)
    assert (pair["first_avg_acc"], pair["second_avg_acc"]) == pytest.approx((accuracy[0], accuracy[1]))
    assert pair["difference"] == pytest.approx(accuracy[0] - accuracy[1])
    assert (pair["first_only_right"], pair["second_only_right"]) == (b, c)
    assert pair["mcnemar_p"] == pytest.approx(p) and pair["difference_ci95"] == pytest.approx([low, high])
    markdown = (report / "leaderboard.md").read_text(encoding="utf-8")
    assert "#### People beside models" in markdown


def test_two_annotators_get_cohens_kappa(logs: Logs, report: Path) -> None:
    first, second = correctness(logs.rater1), correctness(logs.rater2)
    ids = sorted(first)
    assert ids == sorted(second)
    said = [(first[i][2] or "unreadable", second[i][2] or "unreadable") for i in ids]
    observed = sum(a == b for a, b in said) / len(said)
    categories = {v for pair in said for v in pair}
    expected = (
        sum(sum(a == k for a, _ in said) * sum(b == k for _, b in said) for k in categories) / len(said) ** 2
    )
    (pair,) = [
        x
        for x in board(report)["paired"]
        if (x["first"]["annotator"], x["second"]["annotator"]) == ("rater1", "rater2")
    ]
    assert pair["kappa"] == pytest.approx((observed - expected) / (1 - expected))
    assert "unreadable" in categories  # rater2's skip is its own category
    people = [x for x in board(report)["paired"] if x["first"]["annotator"] == "rater2"]
    assert not any(x["second"]["annotator"] == "rater1" for x in people)  # each pair of people once


def test_agreement_among_people_and_their_gold_accuracy(logs: Logs, report: Path) -> None:
    first, second = correctness(logs.rater1), correctness(logs.rater2)
    units = [[first[i][2] or "unreadable", second[i][2] or "unreadable"] for i in sorted(first)]
    (found,) = board(report)["agreement"]
    assert found["task"] == "task1_judge" and found["records"] == 8
    assert found["alpha"] == pytest.approx(krippendorff_alpha(units))
    low, high = found["alpha_ci95"]
    assert low <= found["alpha"] <= high
    for who, judged in (("rater1", first), ("rater2", second)):
        (mine,) = [a for a in found["annotators"] if a["annotator"] == who]
        right = sum(ok for _, ok, _ in judged.values())
        assert (mine["gold_records"], mine["gold_accuracy"]) == (8, pytest.approx(right / 8))
        seconds = [s.output.metadata["seconds"] for s in read_eval_log(getattr(logs, who).location).samples]
        assert mine["seconds_per_item"] == pytest.approx(statistics.median(seconds))
        mean = sum(seconds) / len(seconds)
        assert mine["items_per_hour"] == (pytest.approx(3600 / mean) if mean > 0 else None)
    markdown = (report / "leaderboard.md").read_text(encoding="utf-8")
    assert "#### Agreement among people" in markdown and "Krippendorff's α = " in markdown
    assert "Agreement among people" in (report / "index.html").read_text(encoding="utf-8")


def test_krippendorffs_alpha_on_his_own_example() -> None:
    """Nominal α = 0.743 on the 4 coders × 12 units reliability data of Krippendorff (2011),
    "Computing Krippendorff's alpha-reliability", missing values left out."""
    coders = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    units = [[v for v in unit if v is not None] for unit in zip(*coders, strict=True)]
    assert krippendorff_alpha(units) == pytest.approx(0.743, abs=5e-4)
    assert math.isnan(krippendorff_alpha([["a", "a"], ["a", "a"]]))  # no variation to agree on
    assert math.isnan(krippendorff_alpha([["a"], ["b"]]))  # no unit with two values
    low, high = bootstrap_units(units, krippendorff_alpha)
    assert low < 0.743 < high and high <= 1


def test_paired_statistics_against_published_values() -> None:
    """Newcombe's method 10 on the examples of Newcombe (1998) and Fagerland et al. (2014)."""
    assert paired_difference(20, 12, 2, 16) == pytest.approx((0.0562, 0.3292), abs=5e-5)
    assert paired_difference(1, 1, 7, 12) == pytest.approx((-0.507, -0.026), abs=5e-4)
    assert paired_difference(8, 3, 1, 2) == pytest.approx((-0.1574, 0.4136), abs=5e-5)
    assert paired_difference(0, 0, 0, 0) is None
    assert mcnemar_exact(1, 7) == pytest.approx(2 * (1 + 8) / 2**8) and mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(3, 3) == 1.0
    right = Judgment("a", 1, "good", None, None, None, None, correct=1.0, answer="good")
    wrong = Judgment("a", 1, "good", None, None, None, None, correct=0.0, answer="bad")
    only_good = compare({"a": right}, {"a": wrong})
    assert only_good is not None and only_good.per_label["good"] == Table(0, 1, 0, 0)
    assert only_good.first is None and only_good.interval is None  # no disliked record: no Avg-Acc
    assert compare({"a": right}, {"b": wrong}) is None


# ---------------------------------------------------------------- the page


def test_the_page_at_two_widths(report: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The new columns and tables keep the page readable: it never scrolls sideways (tables
    scroll in their own box), and a person's rows are marked."""
    if not CHROMIUM.exists():
        pytest.skip("headless Chromium not installed (/usr/bin/chromium; apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (the dev extra)")
    shots = tmp_path_factory.mktemp("screenshots")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        for width in (1400, 390):
            tab = chromium.new_page(viewport={"width": width, "height": 900})
            tab.goto((report / "index.html").as_uri())
            assert tab.evaluate("document.documentElement.scrollWidth") <= width
            assert tab.locator("#task1_judge-people tbody tr").count() == 5
            assert tab.locator("#grader-checks-table tbody tr").count() == 4
            assert tab.locator("#task1_judge-table tr.human").count() == 2
            agreement = tab.locator("#task1_judge-people-agreement")
            sync_api.expect(agreement).to_contain_text("Krippendorff's α = ")
            assert agreement.locator("tbody tr").count() == 2
            agreement.screenshot(path=str(shots / f"agreement-{width}.png"))
            heads = tab.locator("#task2_eval table.sortable thead").first.inner_text()
            assert "GRM-equiv. Good % (95% CI)" in heads
            tab.screenshot(path=str(shots / f"people-{width}.png"), full_page=True)
            tab.close()
        chromium.close()
    print(f"screenshots: {shots}")


class _NoSamples(Evidence):
    def counts_of(self, run: Run) -> Counts:
        return Counts(run.samples, {}, {})

    def deltas(self, run: Run) -> list[float]:
        return []


def test_a_ranking_graded_by_uxbench_grm_needs_no_correction() -> None:
    grader = "openai-api/vllm/UXBench-GRM"
    run = Run(
        log="grm.eval", name="grm.eval", task="task2_eval", model="openai/gpt-5", grader=grader,
        graders=(grader,), settings={}, explicit=frozenset(), dataset_revision=None, created="2026-01-01",
        samples=100, total=100, partial=None, metrics={"good_pct": 0.4, "good_pct_stderr": 0.05},
        grading=Grading("task2", (Grader(grader),), None),
    )  # fmt: skip
    (section,) = leaderboard([run], [], ["x"], "", [], _NoSamples()).tables[0].sections
    assert section.rows[0].grm.note == GRM_GRADED and not has_grm_column(section)
    rates = {"sensitivity": 0.9, "specificity": 0.9, "n_reference_good": 500, "n_reference_bad": 500}
    check = Check("q.eval", "2026-01-02", Grader(grader), "/outputs", "task2", None, rates)
    (section,) = (
        leaderboard([run], [], ["x"], "", [], _NoSamples(), checks=[CheckLog(check, "q.eval")])
        .tables[0]
        .sections
    )
    assert section.rows[0].grm.value == pytest.approx((0.4 + 0.9 - 1) / 0.8) and has_grm_column(section)
