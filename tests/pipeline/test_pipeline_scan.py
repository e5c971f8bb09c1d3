"""`uxbench pipeline scan`: residual personal data per kind in files of every shape a set has,
values masked in the report, unreadable files named, exit code 1 when anything is found."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from uxbench.cli import main
from uxbench.pipeline.tools.scan import mask, render, scan

PHONE, EMAIL, KEY = "13812345678", "li.wei@example.com", "sk-proj-abcDEF1234567890abcdEF1234"


def _set(folder: Path) -> Path:
    folder.mkdir()
    rows = [
        {"cid": "c1", "turns": [{"role": "user", "text": f"手机{PHONE}"}]},
        {"cid": "c2", "note": "[PHONE]"},
    ]
    (folder / "task2_eval.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n"
    )
    (folder / "audit.csv").write_text(f"cid,text\nc1,mail {EMAIL}\n", encoding="utf-8")
    (folder / "stats.md").write_text("- redacted: PHONE: 3\n", encoding="utf-8")
    with zipfile.ZipFile(folder / "run.eval", "w") as archive:
        archive.writestr("samples/c1.json", json.dumps({"input": f"my key {KEY} fails", "id": "c1"}))
    (folder / "model.bin").write_bytes(b"\xff\xfe\x00binary")
    return folder


def test_scan_counts_per_kind_in_every_file_shape(tmp_path: Path) -> None:
    report = scan(_set(tmp_path / "set"))
    assert report.found == {"PHONE": 1, "EMAIL": 1, "SECRET": 1}
    assert report.files == {"PHONE": 1, "EMAIL": 1, "SECRET": 1}
    assert report.examples["SECRET"] == ["run.eval:samples/c1.json:input: sk…34"]
    assert report.examples["PHONE"][0].startswith("task2_eval.jsonl:line 1.turns[0].text: 13…78")
    assert list(report.skipped) == ["model.bin"] and len(report.scanned) == 4


def test_the_report_never_shows_a_whole_value(tmp_path: Path) -> None:
    report = scan(_set(tmp_path / "set"))
    shown = render(report, tmp_path) + json.dumps(report.to_json())
    assert not any(value in shown for value in (PHONE, EMAIL, KEY))
    assert "| PHONE | 1 | 1 |" in shown and "not read: 1 files (model.bin" in shown
    assert mask("abc") == "…" and mask(PHONE) == "13…78"


@pytest.mark.integration
def test_cli_exit_code_says_whether_anything_was_found(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    folder = _set(tmp_path / "set")
    assert main(["pipeline", "scan", str(folder)]) == 1
    assert "| EMAIL | 1 | 1 |" in capsys.readouterr().out
    clean = tmp_path / "clean.jsonl"
    clean.write_text(json.dumps({"text": "我叫[NAME]，手机[PHONE]，订单号 4000123412341234"}) + "\n")
    assert main(["pipeline", "scan", str(clean), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["found"] == {}
    assert main(["pipeline", "scan", str(tmp_path / "missing")]) == 1
    assert "no such file or directory" in capsys.readouterr().err


def test_the_second_opinion_finds_what_a_redactor_may_miss_and_skips_tool_ids(tmp_path: Path) -> None:
    rows = [
        {"id": "5STR4Ed4KZiGLSk95f85Xe", "completed_at": "2026-12-03T14:40:10.123495+00:00"},
        {"text": "connect with mysql://root:pass123@db.example.com/app"},
        {"text": "邮箱 abc@163。com，电话 +1-460-424-7331x05329"},
        {"text": "帮我给赖晓峰写一封邮件，他住在湖南省长沙县光明村3组15号"},
        {"text": "I spoke with Ryan Gallagher, 6858 Shaw Camp, West Stevenmouth, PW 50310"},
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    found = scan(path).found
    # +1-460-424-7331x05329: an area code libphonenumber does not know, caught by the number net
    assert {"URL", "EMAIL", "NUMBER", "NAME", "ADDRESS"} <= set(found)
    assert "SECRET" not in found  # the tool's own ids are not read


@pytest.mark.parametrize(
    "text",
    [
        "2026-12-03T17:24:16.004138+00:00",  # a log's timestamp: its digits once read as a phone
        "2026-12-03T17:24:16Z",
        "ANNOTATED CASE\n<case-253686581194>\n{}\n</case-253686581194>",  # a fence id of digits only
        "<turn-123456789012>\n好的\n</turn-123456789012>",
    ],
)
def test_a_logs_timestamps_and_fence_lines_are_no_values(tmp_path: Path, text: str) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps({"input": text}) + "\n", encoding="utf-8")
    assert scan(path).found == {}


def test_a_value_beside_a_timestamp_or_inside_a_fence_is_still_found(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    texts = [
        f"2026-12-03T17:24:16.004138+00:00 {PHONE}",
        f"<turn-123456789012>\n手机{PHONE}\n</turn-123456789012>",
    ]
    rows = "".join(json.dumps({"input": t}, ensure_ascii=False) + "\n" for t in texts)
    path.write_text(rows, encoding="utf-8")
    assert scan(path).found == {"PHONE": 2}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("抄送一份给nwalker艾特qq.com", "EMAIL"),
        ("my email is bob at gmail dot com", "EMAIL"),
        ("MAC地址86-ac-b7-43-0b-6a", "DEVICE"),
        ("我的车是湘S·S8080", "PLATE"),
        ("차량번호 32도 9653", "PLATE"),
        ("打我手机一八三五三一四六五六九", "NUMBER"),
        ("加我微信：wxid_123456a", "HANDLE"),
        ("어제 이서현 씨를 만났어요", "NAME"),
        ("宛名：高橋里佳様", "NAME"),
    ],
)
def test_the_second_opinion_names_each_kind_it_finds(tmp_path: Path, text: str, kind: str) -> None:
    """Its own nets, not the redactor's normal form and models: what the redactor let through shows."""
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "out.jsonl").write_text(json.dumps({"text": text}, ensure_ascii=False) + "\n", encoding="utf-8")
    assert kind in scan(folder).found
