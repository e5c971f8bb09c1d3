"""The data loader and the exclusion file at their edges (issue 24): blank-line and gzip caps,
byte-order marks where files were joined, exclusion reasons capped."""

from __future__ import annotations

import codecs
import gzip
import json
from pathlib import Path

import pytest

from uxbench.data.dataset import uxbench_dataset
from uxbench.data.exclusions import append_exclusion, read_exclusions
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

RECORD = {"cid": "e1", "messages": [{"role": "user", "content": "hi"}], "query": "天气怎么样？"}


def line(cid: str, query: str = "天气怎么样？") -> bytes:
    return (json.dumps({**RECORD, "cid": cid, "query": query}, ensure_ascii=False) + "\n").encode("utf-8")


def load_error(path: Path) -> str:
    with pytest.raises(DataError) as raised:
        uxbench_dataset("task2", str(path), None, True)
    return str(raised.value)


@pytest.mark.parametrize(
    ("name", "content", "caps", "problem"),
    [
        (
            "gzipped_blank_lines",  # 4 GiB of them packed in 4 MB loaded forever
            gzip.compress(line("e1") + b"\n" * 100_001),
            {},
            "more than 100,000 blank lines in a row (at line 100002); not a line-per-record file?",
        ),
        (
            "blank_lines_of_spaces",
            line("e1") + b"   \r\n" * 100_001,
            {},
            "more than 100,000 blank lines in a row (at line 100002); not a line-per-record file?",
        ),
        (
            "blank_lines_in_all",
            (line("e1") + b"\n\n\n") * 5,
            {"MAX_BLANK_LINES": 10},
            "more than 10 blank lines (at line 15); not a line-per-record file?",
        ),
        (
            "gzip_past_its_ratio",
            gzip.compress(b"".join(line(f"e{i}", "好" * 30_000) for i in range(20))),
            {"MIN_GZIP_CAP": 10_000},
            "unpacks to more than {cap:,} bytes, the cap for a gzip file (100× its packed size, at least "
            "10,000); a gzip bomb?",
        ),
    ],
)
def test_the_loader_caps_blank_lines_and_unpacked_bytes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    content: bytes,
    caps: dict[str, int],
    problem: str,
) -> None:
    for cap, value in caps.items():
        monkeypatch.setattr(userfiles, cap, value)
    path = tmp_path / "records.jsonl.gz"
    path.write_bytes(content)
    cap = max(caps.get("MIN_GZIP_CAP", 0), 100 * len(content))
    assert load_error(path) == f"{path}: {problem.format(cap=cap)}"


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE)],
)
def test_files_joined_with_their_byte_order_marks_load_whole(
    tmp_path: Path, encoding: str, bom: bytes
) -> None:
    """`cat a.jsonl b.jsonl`: the second file's mark starts a line in the middle."""
    part = [line(f"e{i}").decode("utf-8") for i in range(3)]
    path = tmp_path / "joined.jsonl"
    path.write_bytes(bom + "".join(part[:2]).encode(encoding) + bom + part[2].encode(encoding))
    dataset, facts = uxbench_dataset("task2", str(path), None, False)
    assert (facts["records"], facts["skipped_records"]) == (3, 0)
    assert [s.id for s in dataset] == ["e0", "e1", "e2"]


def test_an_exclusion_reason_over_the_cap_is_refused_when_written(tmp_path: Path) -> None:
    path = tmp_path / "ex.jsonl"
    with pytest.raises(DataError) as raised:
        append_exclusion(path, "e1", "x" * 10_001, "me")
    assert str(raised.value) == "the reason is 10,001 characters, over the cap of 10,000 for a reason"
    assert not path.exists()
    append_exclusion(path, "e1", "x" * 10_000, "me")
    assert len(read_exclusions(path)["e1"].reason) == 10_000


def test_an_eight_megabyte_exclusion_reason_is_refused_when_read(tmp_path: Path) -> None:
    path = tmp_path / "ex.jsonl"
    path.write_text(json.dumps({"cid": "e1", "reason": "x" * 8_000_000}) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as raised:
        read_exclusions(path)
    assert str(raised.value) == (
        f"{path}:1: field 'reason': 8,000,000 characters, over the cap of 10,000 for a reason"
    )


def test_a_symlink_loop_among_the_release_files_is_named_a_loop(tmp_path: Path) -> None:
    loop = tmp_path / "uxbench_task2_eval_4900.jsonl"
    loop.symlink_to(loop.name)
    assert (
        load_error(tmp_path) == f"{loop}: is a symlink loop (its links lead back to themselves), not a file"
    )
