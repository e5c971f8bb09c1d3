"""Malformed input: every user mistake stops the load with file, line and field, or (with
`skip_bad`) becomes a counted skip; nothing is dropped silently and nothing prints a traceback.

Each case writes one broken line as line 2 of a release file whose other lines are fine.
"""

import codecs
import gzip
import json
import os
import re
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers.grm import eval_records, recovery_records
from helpers.records import judge_records, write_jsonl
from inspect_ai.log import read_eval_log

import uxbench.data.dataset as dataset_module
from uxbench.data.dataset import RELEASE_FILES, uxbench_dataset
from uxbench.runtime.errors import DataError

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

# Issue 12: input bombs, unsafe ids and labels that contradict their file. Each was a traceback
# (RecursionError, MemoryError) or a silent acceptance before.
ID_RULE = (
    "; a sample id names an entry in the .eval log, so it may hold only letters, digits and "
    "_ . - @ + = (no '..'), at most 128 characters"
)


def cid_case(name: str, task: str, cid: str, problem: str) -> Case:
    return Case(name, task, lambda: changed(task, cid=cid), re.escape(f"field 'cid': {problem}{ID_RULE}"))


HARDENING_CASES = [
    Case(
        "nested_brackets_100k",
        "task1",
        lambda: b"[" * 100_000 + b"]" * 100_000,
        re.escape("nested more than 64 levels deep (the cap for one record)"),
    ),
    Case(
        "nested_history_string",
        "task1",
        lambda: changed("task1", selected_history="[" * 100_000 + "]" * 100_000),
        re.escape("field 'selected_history': a JSON string nested more than 64 levels deep"),
    ),
    Case(
        "python_literal_memory_bomb",  # the parser's stack overflow surfaces as MemoryError
        "task1",
        lambda: changed("task1", selected_history="[" + "-" * 100_000 + "1]"),
        re.escape("field 'selected_history': a Python literal nested too deeply to parse"),
    ),
    Case(
        "python_literal_recursion_bomb",
        "task2",
        lambda: changed("task2", messages="[1" + "+1" * 100_000 + "]"),
        re.escape("field 'messages': a Python literal nested too deeply to parse"),
    ),
    Case(
        "python_literal_over_cap",
        "task3",
        lambda: changed("task3", history="[" + "{'role': 'user', 'content': 'x'}, " * 40_000 + "]"),
        re.escape(
            "field 'history': a Python literal of 1,360,002 characters, over the cap of 1,048,576 for "
            "Python-literal histories (write it as JSON, which has no such cap)"
        ),
    ),
    Case(
        "utf16_line_without_bom",
        "task2",
        lambda: json.dumps(RECORDS["task2"][1]).encode("utf-16-le"),
        re.escape("contains NUL characters (a UTF-16 or UTF-32 file without a byte-order mark?)"),
    ),
    cid_case("cid_slash", "task1", "a/b", "'a/b' contains '/'"),
    cid_case("cid_dotdot", "task2", "../../etc/passwd", "'../../etc/passwd' contains '..'"),
    cid_case("cid_control_characters", "task3", "ok\x1b[2J\nnext", "'ok\\x1b[2J\\nnext' contains '\\x1b'"),
    cid_case("cid_hundreds_of_characters", "task1", "x" * 300, f"'{'x' * 38}… is 300 characters long"),
    Case(
        "ground_truth_contradicts_file",
        "task1",
        lambda: changed("task1", ground_truth=1),
        re.escape("field 'ground_truth': 1 says liked (good), but its file holds disliked (bad) records")
        + "$",
    ),
    Case(
        "ground_truth_null_in_labelled_file",
        "task1",
        lambda: changed("task1", ground_truth=None),
        re.escape(
            "field 'ground_truth': is null in a file of disliked (bad) records (give 1 or -1, or leave the "
            "field out)"
        ),
    ),
    Case(
        "label_aliases_disagree",
        "task1",
        lambda: changed("task1", failure_dimension="冗余啰嗦", dimension="事实性错误"),
        re.escape(
            "field 'failure_dimension': '冗余啰嗦' disagrees with 'dimension' ('事实性错误') "
            "(accepted names: failure_dimension, dimension)"
        ),
    ),
]
CASES += HARDENING_CASES


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


@pytest.mark.integration
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_error_names_file_line_and_field(tmp_path: Path, case: Case) -> None:
    write_case(tmp_path, case)
    with pytest.raises(DataError) as error:
        uxbench_dataset(case.task, str(tmp_path), None, skip_bad=False)
    first_line = str(error.value).splitlines()[0]
    assert f"{RELEASE_FILES[TASK_FILES[case.task]]}:2 (cid " in first_line
    assert re.search(case.error, first_line), first_line
    assert "skip_bad=true" in str(error.value)


@pytest.mark.integration
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_skip_bad_counts_the_skip(tmp_path: Path, case: Case) -> None:
    write_case(tmp_path, case)
    dataset, facts = uxbench_dataset(case.task, str(tmp_path), None, skip_bad=True)
    total = len(RECORDS[case.task]) + (len(GOOD) if case.task == "task1" else 0)
    assert len(dataset) == total - 1 == facts["records"]
    assert facts["skipped_records"] == 1
    assert f"{RELEASE_FILES[TASK_FILES[case.task]]}:2" in facts["skipped"][0]
    assert re.search(case.error, facts["skipped"][0]), facts["skipped"][0]


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


# ------------------------------------------------------------ odd files (issue 12, class 5)

BAD_FILE = RELEASE_FILES["task1_judge_bad"]


def bad_file_bytes(separator: bytes = b"\n") -> bytes:
    return separator.join(dump(r) for r in BAD) + separator


def write_bad(directory: Path, data: bytes, name: str = BAD_FILE) -> None:
    write_jsonl(directory / RELEASE_FILES["task1_judge_good"], GOOD)
    (directory / name).write_bytes(data)


def encoded(codec: str, bom: bytes) -> Callable[[Path], None]:
    return lambda d: write_bad(d, bom + bad_file_bytes().decode("utf-8").encode(codec))


def fifo(directory: Path) -> None:
    """A FIFO named like the release file, and a writer that, should a reader block on it, frees it
    after 5 s (so old code fails instead of hanging)."""
    write_jsonl(directory / RELEASE_FILES["task1_judge_good"], GOOD)
    path = directory / BAD_FILE
    os.mkfifo(path)

    def free_a_blocked_reader() -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # ENXIO while nobody reads
                return
            except OSError:
                time.sleep(0.1)

    threading.Thread(target=free_a_blocked_reader, daemon=True).start()


def zipped(directory: Path) -> None:
    write_jsonl(directory / RELEASE_FILES["task1_judge_good"], GOOD)
    with zipfile.ZipFile(directory / BAD_FILE, "w") as archive:
        archive.writestr("records.jsonl", bad_file_bytes())


@dataclass(frozen=True)
class FileCase:
    name: str
    write: Callable[[Path], None]  # writes the Task 1 release files into the directory
    outcome: int | str  # records loaded, or a regex for the DataError (with or without skip_bad)


FILE_CASES = [
    FileCase(
        "gzip_release_file", lambda d: write_bad(d, gzip.compress(bad_file_bytes()), BAD_FILE + ".gz"), 6
    ),
    FileCase("gzip_under_the_plain_name", lambda d: write_bad(d, gzip.compress(bad_file_bytes())), 6),
    FileCase("utf16_le_bom", encoded("utf-16-le", codecs.BOM_UTF16_LE), 6),
    FileCase("utf16_be_bom", encoded("utf-16-be", codecs.BOM_UTF16_BE), 6),
    FileCase("utf32_le_bom", encoded("utf-32-le", codecs.BOM_UTF32_LE), 6),
    FileCase("utf32_be_bom", encoded("utf-32-be", codecs.BOM_UTF32_BE), 6),
    FileCase("cr_only_line_endings", lambda d: write_bad(d, bad_file_bytes(b"\r")), 6),
    FileCase(
        "fifo_named_like_release_file",
        fifo,
        re.escape(f"{BAD_FILE}: is a named pipe (FIFO), not a regular file (reading it could wait forever); ")
        + re.escape("give a .jsonl or .jsonl.gz file"),
    ),
    FileCase(
        "truncated_gzip",
        lambda d: write_bad(d, gzip.compress(bad_file_bytes())[:-12], BAD_FILE + ".gz"),
        re.escape(f"{BAD_FILE}.gz: the compressed stream is corrupt or truncated near line ")
        + r"\d+ \(Compressed file ended before the end-of-stream marker was reached\)",
    ),
    FileCase(
        "invalid_utf16_after_bom",
        lambda d: write_bad(d, codecs.BOM_UTF16_LE + "{}\n".encode("utf-16-le") + b"\x00\xd8\x41\x00"),
        re.escape(
            f"{BAD_FILE}: not valid UTF-16-LE near line 1 (illegal UTF-16 surrogate); save it as UTF-8"
        ),
    ),
    FileCase(
        "zip_named_like_release_file",
        zipped,
        re.escape(f"{BAD_FILE}: is a zip archive, not JSON Lines; unpack or convert it first"),
    ),
    FileCase(
        "plain_and_gzip_copies",
        lambda d: [write_bad(d, bad_file_bytes()), write_bad(d, gzip.compress(b"{}"), BAD_FILE + ".gz")],
        re.escape(f"holds both {BAD_FILE} and {BAD_FILE}.gz; keep one"),
    ),
]


@pytest.mark.parametrize("skip_bad", [False, True])
@pytest.mark.parametrize("case", FILE_CASES, ids=lambda c: c.name)
def test_odd_files(tmp_path: Path, case: FileCase, skip_bad: bool) -> None:
    case.write(tmp_path)
    started = time.monotonic()
    if isinstance(case.outcome, int):
        dataset, facts = uxbench_dataset("task1", str(tmp_path), None, skip_bad)
        assert facts["records"] == len(dataset) == case.outcome and facts["skipped_records"] == 0
        assert sorted(str(s.id) for s in dataset) == sorted(r["cid"] for r in GOOD + BAD)
        assert [s.target for s in dataset].count("bad") == len(BAD)
    else:  # a whole-file problem: skipping records cannot make sense of the rest
        with pytest.raises(DataError, match=case.outcome):
            uxbench_dataset("task1", str(tmp_path), None, skip_bad)
    assert time.monotonic() - started < 4  # a FIFO is refused, not waited on


def test_single_gzip_file_takes_its_label_from_the_name(tmp_path: Path) -> None:
    path = tmp_path / "my_bad_cases.jsonl.gz"
    path.write_bytes(gzip.compress(bad_file_bytes()))
    dataset, facts = uxbench_dataset("task1", str(path), None, False)
    assert facts["records"] == 3 and {s.target for s in dataset} == {"bad"}


def test_single_fifo_is_refused_by_name(tmp_path: Path) -> None:
    fifo(tmp_path)
    with pytest.raises(DataError, match=re.escape(f"{BAD_FILE}: is a named pipe (FIFO), not a regular file")):
        uxbench_dataset("task1", str(tmp_path / BAD_FILE), None, True)


def test_cr_only_file_keeps_line_numbers(tmp_path: Path) -> None:
    bad = [*BAD, {**BAD[0]}]  # line 4 repeats line 1's cid
    write_bad(tmp_path, b"\r".join(dump(r) for r in bad))
    message = r"bad_1k.jsonl:4 \(cid uxbench_ux_judge_1000\): field 'cid': duplicate of .*bad_1k.jsonl:1 "
    with pytest.raises(DataError, match=message):
        uxbench_dataset("task1", str(tmp_path), None, False)


@pytest.mark.integration
def test_record_over_the_size_cap_is_one_counted_skip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dataset_module, "MAX_RECORD_CHARS", 1000)
    lines = [dump(r) for r in BAD]
    lines[1] = dump({**BAD[1], "agent_response_full": "长" * 5000})  # 5,000+ characters, read in pieces
    write_bad(tmp_path, b"\n".join(lines) + b"\n")
    message = (
        f"{BAD_FILE}:2 (cid ?): longer than 1,000 characters, the cap for one record "
        "(not JSON Lines, or a file without line breaks?)"
    )
    with pytest.raises(DataError, match=re.escape(message)):
        uxbench_dataset("task1", str(tmp_path), None, False)
    dataset, facts = uxbench_dataset("task1", str(tmp_path), None, True)
    assert facts["records"] == 5 and facts["skipped_records"] == 1
    assert facts["skipped"][0].endswith(message)
    assert BAD[2]["cid"] in {s.id for s in dataset}  # the line after the long one is line 3, intact


# ------------------------------------------------------------ the same through `inspect eval`

CLI_CASES = [c for c in CASES if c.name in ("truncated_line", "missing_response", "nested_brackets_100k")]


def inspect_eval(data: Path, log_dir: Path, *task_args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "inspect_ai", "eval", "uxbench/task1_judge", "-T", f"data={data}"]
    command += [*(a for arg in task_args for a in ("-T", arg)), "--model", "mockllm/model"]
    command += ["--log-dir", str(log_dir), "--display", "plain"]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run(command, capture_output=True, text=True, timeout=180, env=env)


@pytest.mark.integration
@pytest.mark.parametrize("case", CLI_CASES, ids=lambda c: c.name)
def test_inspect_eval_prints_the_error_without_traceback(tmp_path: Path, case: Case) -> None:
    write_case(tmp_path / "data", case)
    result = inspect_eval(tmp_path / "data", tmp_path / "logs")
    output = " ".join((result.stdout + result.stderr).split())  # undo the console's line wrapping
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert f"{RELEASE_FILES['task1_judge_bad']}:2" in output
    assert re.search(case.error, output), output
    assert "skip_bad=true" in output
    assert not list((tmp_path / "logs").glob("*.eval"))  # stopped before any sample ran


@pytest.mark.integration
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


# In-process `inspect_ai.eval`, as `inspect eval` runs it, on several bombs and odd files at once.
SAFE_ENTRY = re.compile(r"[\w.@+=/-]+")  # zip entry names: our safe ids under Inspect's folders


@pytest.mark.integration
def test_eval_skips_and_counts_bombs_and_unsafe_ids(tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval_in_process

    lines = [
        dump(BAD[0]),
        b"[" * 100_000 + b"]" * 100_000,
        changed("task1", cid="../../evil"),
        changed("task1", cid="tab\there", agent_response_full="x"),
        dump({**BAD[2], "selected_history": "[" + "-" * 100_000 + "1]"}),
        dump({**BAD[2], "cid": "liked_in_bad_file", "ground_truth": 1}),
    ]
    (tmp_path / "data").mkdir()
    write_bad(tmp_path / "data", b"\n".join(lines) + b"\n")
    data, logs = str(tmp_path / "data"), str(tmp_path / "logs")
    task = "uxbench/task1_judge"
    with pytest.raises(DataError, match=re.escape(f"{BAD_FILE}:2 (cid ?): nested more than 64 levels deep")):
        inspect_eval_in_process(
            task, task_args={"data": data}, model="mockllm/model", display="none", log_dir=logs
        )
    assert not list(Path(logs).glob("*.eval"))

    (log,) = inspect_eval_in_process(
        task, task_args={"data": data, "skip_bad": True}, model="mockllm/model", display="none", log_dir=logs
    )
    assert log.status == "success"
    assert log.eval.metadata["records"] == 4 and log.eval.metadata["skipped_records"] == 5
    assert [entry.split(": ", 1)[0].rsplit(":", 1)[1] for entry in log.eval.metadata["skipped"]] == [
        "2 (cid ?)",
        "3 (cid '../../evil')",
        "4 (cid 'tab\\there')",
        "5 (cid uxbench_ux_judge_1002)",
        "6 (cid liked_in_bad_file)",
    ]
    assert sorted(str(s.id) for s in log.samples) == sorted(r["cid"] for r in [*GOOD, BAD[0]])
    with zipfile.ZipFile(log.location) as archive:
        assert all(SAFE_ENTRY.fullmatch(name) for name in archive.namelist()), archive.namelist()


@pytest.mark.integration
def test_eval_reads_a_gzipped_utf16_file_with_cr_line_endings(tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval_in_process

    (tmp_path / "data").mkdir()
    text = bad_file_bytes(b"\r").decode("utf-8")
    write_bad(
        tmp_path / "data", gzip.compress(codecs.BOM_UTF16_LE + text.encode("utf-16-le")), f"{BAD_FILE}.gz"
    )
    (log,) = inspect_eval_in_process(
        "uxbench/task1_judge",
        task_args={"data": str(tmp_path / "data")},
        model="mockllm/model",
        display="none",
        log_dir=str(tmp_path / "logs"),
    )
    assert log.status == "success"
    assert log.eval.metadata["records"] == 6 and log.eval.metadata["skipped_records"] == 0
    assert sorted(str(s.id) for s in log.samples) == sorted(r["cid"] for r in GOOD + BAD)
