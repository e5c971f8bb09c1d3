"""Reading the published per-model outputs, the grader_check sample builders and the replay answers (pure)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from inspect_ai.dataset import Sample

from uxbench.grader_answer.reading import judge
from uxbench.providers.replay import FAILED_ANSWER, grade_logprobs, grade_output
from uxbench.qualification.published import (
    PublishedGrade,
    PublishedReply,
    as_bool,
    as_float,
    as_int,
    graded_models,
    published_good_pct,
    read_grades,
    read_replies,
)
from uxbench.runtime.errors import DataError
from uxbench.tasks.grader_check import model_names, model_samples, round_robin, seeded_subset


def write(path: Path, rows: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8"
    )
    return path


# ---------------------------------------------------------------- coercion


@pytest.mark.parametrize(
    "value, expected", [(1, 1), ("1", 1), ("-1", -1), (" 0 ", 0), ("1.0", 1), (-1.0, -1)]
)
def test_integers_from_strings(value: object, expected: int) -> None:
    assert as_int(value, "verdict", "f:1") == expected


@pytest.mark.parametrize("value", ["good", True, None, "0.5", [1]])
def test_not_integers(value: object) -> None:
    with pytest.raises(DataError, match="f:1: field 'verdict' must be an integer"):
        as_int(value, "verdict", "f:1")


@pytest.mark.parametrize(
    "value, expected",
    [("0.53", 0.53), (0.53, 0.53), (1, 1.0), (None, None), ("null", None), ("", None), ("NaN", None)],
)
def test_floats_from_strings(value: object, expected: float | None) -> None:
    assert as_float(value, "score", "f:1") == expected


def test_minus_infinity_is_a_log_probability_of_zero_chance() -> None:
    assert as_float("-Infinity", "bad_logprob", "f:1") == -math.inf
    with pytest.raises(DataError, match="field 'score' must be a number or null, got 'high'"):
        as_float("high", "score", "f:1")


@pytest.mark.parametrize(
    "value, expected", [("True", True), ("false", False), (1, True), ("0", False), (None, True)]
)
def test_booleans_from_strings(value: object, expected: bool) -> None:
    assert as_bool(value, "ok", "f:1", default=True) is expected


def test_not_a_boolean() -> None:
    with pytest.raises(DataError, match="field 'ok' must be true or false, got 'maybe'"):
        as_bool("maybe", "ok", "f:1", default=True)


# ---------------------------------------------------------------- files


def test_reading_a_model_with_every_spelling(tmp_path: Path) -> None:
    write(
        tmp_path / "task3_ux_recovery" / "responses" / "m.jsonl",
        [
            {"cid": "a", "model": "m", "recovery_response": "修好了", "ok": "True"},
            {"cid": "b", "model": "m", "generated_response": None, "ok": False, "error": "timeout"},
            {"cid": "c", "model": "m", "generated_response": "  ", "ok": True},
        ],
    )
    write(
        tmp_path / "task3_ux_recovery" / "judge" / "judge_m.jsonl",
        [
            {"cid": "a", "verdict": "1", "score": "0.7", "good_logprob": "-0.4", "bad_logprob": None},
            {"cid": "b", "verdict": 0, "score": None, "grm_ok": "False"},
            {"cid": "c", "verdict": -1, "score": 0.2, "good_logprob": -1.7, "bad_logprob": -0.25},
        ],
    )
    assert graded_models(tmp_path, "task3") == ["m"]
    assert read_replies(tmp_path, "task3", "m") == {
        "a": PublishedReply("a", "修好了"),
        "b": PublishedReply("b", None, "timeout"),
        "c": PublishedReply("c", None, "no reply text"),
    }
    grades = read_grades(tmp_path, "task3", "m")
    assert grades["a"] == PublishedGrade("a", 1, 0.7, -0.4, None)
    assert grades["b"].verdict == 0 and grades["b"].score is None
    assert published_good_pct(grades) == pytest.approx(1 / 3)


def test_bad_files_stop_with_file_line_and_field(tmp_path: Path) -> None:
    judge_file = tmp_path / "task2_ux_eval" / "judge" / "judge_m.jsonl"
    write(judge_file, [{"cid": "a", "verdict": 1}, {"cid": "b", "verdict": 2}])
    with pytest.raises(DataError, match=r"judge_m.jsonl:2 \(cid b\): field 'verdict' must be 1, -1 or 0"):
        read_grades(tmp_path, "task2", "m")
    write(judge_file, [{"cid": "a", "verdict": 1}, {"cid": "a", "verdict": -1}])
    with pytest.raises(DataError, match=r"judge_m.jsonl:2 \(cid a\): duplicate of line 1"):
        read_grades(tmp_path, "task2", "m")
    write(judge_file, [{"cid": "a", "score": 0.3}])
    with pytest.raises(DataError, match=r"judge_m.jsonl:1 \(cid a\): field 'verdict' is missing"):
        read_grades(tmp_path, "task2", "m")
    write(judge_file, ['{"cid": "a", "verdict":'])
    with pytest.raises(DataError, match=r"judge_m.jsonl:1: not valid JSON"):
        read_grades(tmp_path, "task2", "m")
    write(judge_file, ["version https://git-lfs.github.com/spec/v1", "oid sha256:abc", "size 12"])
    with pytest.raises(DataError, match="is a Git LFS pointer.*git lfs pull"):
        read_grades(tmp_path, "task2", "m")
    with pytest.raises(DataError, match=r"m.jsonl: no such file"):
        read_replies(tmp_path, "task2", "m")


def test_a_directory_that_is_not_the_outputs(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no task2_ux_eval/judge/ directory"):
        graded_models(tmp_path, "task2")
    with pytest.raises(DataError, match="task='task1': the published outputs cover task2, task3"):
        graded_models(tmp_path, "task1")


# ---------------------------------------------------------------- grader_check samples


def conversation(cid: str) -> Sample:
    return Sample(id=cid, input=f"问题 {cid}", metadata={"scenario": "办公与效率"})


def test_model_samples_leave_out_and_count() -> None:
    grades = {
        "a": PublishedGrade("a", 1, 0.8, None, None),
        "b": PublishedGrade("b", 0, None, None, None),  # generation failed, so did its grade
        "c": PublishedGrade("c", 0, None, None, None),  # grade failed
        "d": PublishedGrade("d", -1, 0.1, None, None),  # no reply line
        "e": PublishedGrade("e", -1, 0.2, None, None),  # not in the data
        "f": PublishedGrade("f", -1, 0.3, None, None),
    }
    replies = {cid: PublishedReply(cid, f"回复 {cid}") for cid in "acef"} | {"b": PublishedReply("b", None)}
    samples, left_out = model_samples("m", {c: conversation(c) for c in "abcdf"}, replies, grades)
    assert [s.id for s in samples] == ["m/a", "m/f"]
    assert left_out == {"failed_reply": 1, "failed_grade": 1, "no_reply": 1, "not_in_data": 1}
    first = samples[0]
    assert first.input == "问题 a" and first.target == "good"
    assert first.metadata == {
        "scenario": "办公与效率",
        "cid": "a",
        "judged_model": "m",
        "reference_verdict": "good",
        "reference_score": 0.8,
        "reply": "回复 a",
    }


def test_seeded_subset_is_repeatable_and_in_order() -> None:
    samples = [Sample(id=i, input="x") for i in range(50)]
    first = seeded_subset(samples, 10, 7, "m")
    assert first == seeded_subset(samples, 10, 7, "m") and len(first) == 10
    assert [s.id for s in first] == sorted(s.id for s in first)
    assert first != seeded_subset(samples, 10, 8, "m") and first != seeded_subset(samples, 10, 7, "other")
    assert seeded_subset(samples, None, 7, "m") == samples == seeded_subset(samples, 99, 7, "m")


def test_round_robin_and_model_names(tmp_path: Path) -> None:
    a, b = [Sample(id=f"a{i}", input="x") for i in range(3)], [Sample(id="b0", input="x")]
    assert [s.id for s in round_robin([a, b])] == ["a0", "b0", "a1", "a2"]
    assert model_names(None, ["x", "y"], tmp_path) == ["x", "y"]
    assert model_names("y", ["x", "y"], tmp_path) == model_names(["y"], ["x", "y"], tmp_path) == ["y"]
    with pytest.raises(DataError, match="no judge file for z .*found: x, y"):
        model_names("x,z", ["x", "y"], tmp_path)


# ---------------------------------------------------------------- replayed grader answers


@pytest.mark.integration
@pytest.mark.parametrize(
    "grade, score",
    [
        (PublishedGrade("a", 1, 0.6, math.log(0.57), math.log(0.38)), 0.6),  # the published pair
        (PublishedGrade("a", -1, 0.25, math.log(0.2), math.log(0.6)), 0.25),
        (PublishedGrade("a", 1, 0.9, None, None), 0.9),  # made from the score
        (PublishedGrade("a", 1, 1.0, math.log(0.99), None), 1.0),  # one-sided: from the score
        (PublishedGrade("a", -1, 0.0, None, None), 0.0),
        (PublishedGrade("a", -1, None, None, None), None),  # no score: no logprobs
    ],
)
def test_the_replayed_answer_gives_the_published_score(grade: PublishedGrade, score: float | None) -> None:
    judgment = judge(grade_output("m", grade, logprobs=True))
    assert judgment.verdict == ("good" if grade.verdict == 1 else "bad")
    assert judgment.score == (pytest.approx(score, abs=1e-12) if score is not None else None)


def test_failed_grades_and_calls_without_logprobs() -> None:
    failed = grade_output("m", PublishedGrade("a", 0, None, None, None), logprobs=True)
    assert failed.completion == FAILED_ANSWER and judge(failed).verdict == "failed"
    plain = grade_output("m", PublishedGrade("a", 1, 0.6, -0.5, -0.9), logprobs=False)
    assert plain.completion == "好" and plain.choices[0].logprobs is None
    assert grade_logprobs(PublishedGrade("a", 1, 0.6, -0.5, -0.9)) == (-0.5, -0.9)
