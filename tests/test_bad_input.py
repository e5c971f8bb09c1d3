"""Malformed input: every user mistake stops the load with file, line and field, or (with
`skip_bad`) becomes a counted skip; nothing is dropped silently and nothing prints a traceback.

Each case writes one broken line as line 2 of a release file whose other lines are fine.
"""

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import judge_records, write_jsonl
from grm_helpers import eval_records, recovery_records
from inspect_ai.log import read_eval_log

from uxbench.dataset import RELEASE_FILES, uxbench_dataset
from uxbench.errors import DataError

GOOD, BAD = judge_records(3, 3)
TASK_FILES = {"task1": "task1_judge_bad", "task2": "task2_eval", "task3": "task3_recovery"}
RECORDS = {"task1": BAD, "task2": eval_records(3), "task3": recovery_records(3)}


def dump(record: dict) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode("utf-8")


def changed(task: str, **fields: object) -> bytes:
    """Line 2 of the task's file with some fields replaced (a value of ... deletes the field)."""
    record = {k: v for k, v in {**RECORDS[task][1], **fields}.items() if v is not ...}
    return dump(record)


@dataclass(frozen=True)
class Case:
    name: str
    task: str
    line: Callable[[], bytes]  # the broken line 2
    error: str  # regex the message must match after "file:2 (cid ...): "


CASES = [
    Case("truncated_line", "task1", lambda: dump(BAD[1])[:40], r"not valid JSON"),
    Case("invalid_utf8", "task1", lambda: dump(BAD[1]).replace("追问".encode(), b"\xff\xfe"), r"not UTF-8"),
    Case("not_an_object", "task1", lambda: b"[1, 2, 3]", r"expected a JSON object, got list"),
    Case("ground_truth_type", "task1", lambda: changed("task1", ground_truth="yes"), r"field 'ground_truth'"),
    Case(
        "history_type",
        "task1",
        lambda: changed("task1", selected_history=42),
        r"field 'selected_history': expected a list of turns, got int",
    ),
    Case(
        "turn_text_type",
        "task1",
        lambda: changed("task1", selected_history=[{"role": "user", "message": 7}]),
        r"field 'selected_history\[0\]\.message': expected text, got int",
    ),
    Case(
        "turn_role_unknown",
        "task1",
        lambda: changed("task1", selected_history=[{"role": "bot", "message": "hi"}]),
        r"field 'selected_history\[0\]\.role': unknown role 'bot'",
    ),
    Case(
        "response_type",
        "task1",
        lambda: changed("task1", agent_response_full=["a", 1]),
        r"field 'agent_response_full': expected text, got list",
    ),
    Case(
        "missing_response",
        "task1",
        lambda: changed("task1", agent_response_full=...),
        r"field 'agent_response_full': missing \(accepted names: agent_response_full, response\)",
    ),
    Case("missing_cid", "task1", lambda: changed("task1", cid=...), r"field 'cid': missing"),
    Case(
        "duplicate_cid",
        "task1",
        lambda: changed("task1", cid=BAD[0]["cid"]),
        r"field 'cid': duplicate of .*bad_1k.jsonl:1",
    ),
    Case(
        "missing_messages",
        "task2",
        lambda: changed("task2", messages=..., history=...),
        r"field 'messages': missing \(accepted names: messages, history\)",
    ),
    Case("query_type", "task2", lambda: changed("task2", query=12), r"field 'query': expected text, got int"),
    Case(
        "empty_complaint",
        "task3",
        lambda: changed("task3", user_complaint=" "),
        r"field 'user_complaint': is empty",
    ),
    Case(
        "failed_response_type",
        "task3",
        lambda: changed("task3", failed_response=5),
        r"field 'failed_response': expected text, got int",
    ),
]


def write_case(directory: Path, case: Case) -> Path:
    """The task's release files with `case.line` as line 2 of its file."""
    directory.mkdir(exist_ok=True)
    write_jsonl(directory / RELEASE_FILES["task1_judge_good"], GOOD)
    for task, config in TASK_FILES.items():
        lines = [dump(r) for r in RECORDS[task]]
        if task == case.task:
            lines[1] = case.line()
        (directory / RELEASE_FILES[config]).write_bytes(b"\n".join(lines) + b"\n")
    return directory


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_error_names_file_line_and_field(tmp_path: Path, case: Case) -> None:
    write_case(tmp_path, case)
    with pytest.raises(DataError) as error:
        uxbench_dataset(case.task, str(tmp_path), None, skip_bad=False)
    first_line = str(error.value).splitlines()[0]
    assert f"{RELEASE_FILES[TASK_FILES[case.task]]}:2 (cid " in first_line
    assert re.search(case.error, first_line), first_line
    assert "skip_bad=true" in str(error.value)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_skip_bad_counts_the_skip(tmp_path: Path, case: Case) -> None:
    write_case(tmp_path, case)
    dataset, facts = uxbench_dataset(case.task, str(tmp_path), None, skip_bad=True)
    total = len(RECORDS[case.task]) + (len(GOOD) if case.task == "task1" else 0)
    assert len(dataset) == total - 1 == facts["records"]
    assert facts["skipped_records"] == 1
    assert f"{RELEASE_FILES[TASK_FILES[case.task]]}:2" in facts["skipped"][0]


def test_empty_file_is_an_error_naming_it(tmp_path: Path) -> None:
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_good"], GOOD)
    (tmp_path / RELEASE_FILES["task1_judge_bad"]).write_text("\n\n", encoding="utf-8")
    for skip_bad in (False, True):  # a whole file is not a record: skipping does not hide it
        with pytest.raises(DataError, match=r"bad_1k.jsonl: the file is empty"):
            uxbench_dataset("task1", str(tmp_path), None, skip_bad)


def test_unknown_labels_are_kept_and_flagged(tmp_path: Path) -> None:
    bad = [dict(r) for r in BAD]
    bad[1] |= {"failure_dimension": "全新的失败类型", "scenario": "太空旅行", "difficulty": "impossible"}
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_good"], GOOD)
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_bad"], bad)
    dataset, facts = uxbench_dataset("task1", str(tmp_path), None, skip_bad=False)
    assert facts["records"] == 6 and facts["skipped_records"] == 0
    (flagged,) = [s for s in dataset if s.id == bad[1]["cid"]]
    assert flagged.metadata["failure_dimension"] == "全新的失败类型"
    assert flagged.metadata["unknown_labels"] == [
        "failure_dimension=全新的失败类型",
        "scenario=太空旅行",
        "difficulty=impossible",
    ]
    assert all("unknown_labels" not in s.metadata for s in dataset if s.id != bad[1]["cid"])


def test_five_megabyte_record_loads_and_keeps_line_numbers(tmp_path: Path) -> None:
    bad = [dict(r) for r in BAD]
    bad[0]["agent_response_full"] = "很长的回复。" * (5 * 2**20 // 18)  # 6 chars × 3 bytes
    bad[2]["cid"] = bad[1]["cid"]  # an error after the big line still names its own line
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_good"], GOOD)
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_bad"], bad)
    assert (tmp_path / RELEASE_FILES["task1_judge_bad"]).stat().st_size > 5 * 2**20
    started = time.perf_counter()
    with pytest.raises(
        DataError, match=r"bad_1k.jsonl:3 \(cid .*\): field 'cid': duplicate of .*bad_1k.jsonl:2"
    ):
        uxbench_dataset("task1", str(tmp_path), None, skip_bad=False)
    dataset, facts = uxbench_dataset("task1", str(tmp_path), None, skip_bad=True)
    assert time.perf_counter() - started < 10
    assert facts["records"] == 5 and facts["skipped_records"] == 1
    (big,) = [s for s in dataset if s.id == bad[0]["cid"]]
    assert len(big.input) > 1_700_000


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_good"], GOOD)
    path = write_jsonl(tmp_path / RELEASE_FILES["task1_judge_bad"], BAD)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    dataset, _ = uxbench_dataset("task1", str(tmp_path), None, skip_bad=False)
    assert len(dataset) == 6


# ------------------------------------------------------------ the same through `inspect eval`

CLI_CASES = [c for c in CASES if c.name in ("truncated_line", "missing_response")]


def inspect_eval(data: Path, log_dir: Path, *task_args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "inspect_ai", "eval", "uxbench/task1_judge", "-T", f"data={data}"]
    command += [*(a for arg in task_args for a in ("-T", arg)), "--model", "mockllm/model"]
    command += ["--log-dir", str(log_dir), "--display", "plain"]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run(command, capture_output=True, text=True, timeout=180, env=env)


@pytest.mark.parametrize("case", CLI_CASES, ids=lambda c: c.name)
def test_inspect_eval_prints_the_error_without_traceback(tmp_path: Path, case: Case) -> None:
    write_case(tmp_path / "data", case)
    result = inspect_eval(tmp_path / "data", tmp_path / "logs")
    output = " ".join((result.stdout + result.stderr).split())  # undo the console's line wrapping
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert f"{RELEASE_FILES['task1_judge_bad']}:2" in output
    assert "skip_bad=true" in output
    assert not list((tmp_path / "logs").glob("*.eval"))  # stopped before any sample ran


@pytest.mark.slow
def test_inspect_eval_with_skip_bad_records_the_skip(tmp_path: Path) -> None:
    write_case(tmp_path / "data", CLI_CASES[0])
    result = inspect_eval(tmp_path / "data", tmp_path / "logs", "skip_bad=true")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    (path,) = (tmp_path / "logs").glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success"
    assert log.eval.metadata["skipped_records"] == 1 and log.eval.metadata["records"] == 5
    assert "bad_1k.jsonl:2" in log.eval.metadata["skipped"][0]
    assert len(log.samples) == 5 and len({s.id for s in log.samples}) == 5
