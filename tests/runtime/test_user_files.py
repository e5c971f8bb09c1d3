"""Every file a user names is read by `uxbench.runtime.userfiles`: each flag or option file ×
each bad kind of file gives one exact message (issue 24, class 2), never a hang or a traceback."""

from __future__ import annotations

import gzip
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers.files import make_fifo

from uxbench.cli import main
from uxbench.data.dataset import uxbench_dataset
from uxbench.data.templates import builtin_path
from uxbench.pipeline.privacy.unsafe import UnsafeScreen
from uxbench.pipeline.read.mapping import DEFAULT_FIELDS, load_mapping
from uxbench.pipeline.run.runner import input_fingerprint
from uxbench.pipeline.run.settings import read_config
from uxbench.pipeline.tools.audit import score
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.web.explore import Explorer

EXCLUSION = '{"cid": "x1", "reason": "off topic", "who": "me", "when": "2026-01-01T00:00:00+00:00"}\n'


def pipeline_signals(path: Path) -> None:
    """`uxbench pipeline signals PATH`: its stderr line becomes the DataError it printed."""
    out = path.parent / "out" / "signals.jsonl"
    code = main(["pipeline", "signals", str(path), "--out", str(out), "--workers", "1"])
    if code != 0:
        raise DataError(f"exit {code}")


@dataclass(frozen=True)
class Entry:
    """One way a user names a file: the call that reads it, the file name, the label messages
    give it, a valid content (for the UTF-16 case) and whether it is read whole or by lines."""

    name: str
    call: Callable[[Path], object]
    file: str
    label: str | None
    valid: str | None
    whole: bool  # read whole (size cap) or by lines (blank-line caps)
    hint: str = ""  # what the loader adds after "not a regular file"
    folder: str | None = None  # the message for a directory, when the reader takes folders
    cli: bool = False
    hardened: tuple[str, ...] = ()  # kinds refused so before (pinned in tests/data/test_bad_input.py)


FOLDER = "{path}: a folder without conversations.json (give a log file or a ChatGPT export)"
ENTRIES = [
    Entry(
        "-T exclude",
        lambda p: uxbench_dataset("task1", "sample", None, False, exclude=str(p)),
        "excl.jsonl",
        "exclude",
        EXCLUSION,
        False,
    ),
    Entry(
        "-T template", lambda p: task1_judge(data="sample", template=str(p)), "t.txt", "template", "", True
    ),
    Entry(
        "-T grader_template",
        lambda p: task2_eval(data="sample", grader_template=str(p), self_grade=True),
        "g.txt",
        "template",
        "",
        True,
    ),
    Entry(
        "-T system_prompt",
        lambda p: task2_eval(data="sample", system_prompt=str(p), self_grade=True),
        "s.txt",
        "system_prompt",
        "Be kind.\n",
        True,
    ),
    Entry(
        "explore --exclude",
        lambda p: Explorer([], [], p, "me", "sample"),
        "ex.jsonl",
        "--exclude",
        EXCLUSION,
        False,
    ),
    Entry(
        "pipeline input (JSONL)",
        pipeline_signals,
        "raw.jsonl",
        None,
        None,
        False,
        hint="; give a .jsonl or .jsonl.gz file",
        folder=FOLDER,
        cli=True,
        hardened=("fifo", "device", "directory"),
    ),
    Entry(
        "pipeline input (CSV)",
        pipeline_signals,
        "raw.csv",
        None,
        None,
        False,
        folder=FOLDER,
        cli=True,
        hardened=("directory",),
    ),
    Entry("--map", load_mapping, "map.yaml", "--map", "format: jsonl\n", True),
    Entry("--config", lambda p: read_config(str(p)), "c.yaml", "--config", "temperature: 0\n", True),
    Entry("--unsafe-terms", UnsafeScreen.with_file, "terms.tsv", "--unsafe-terms", "custom\tfoo\n", False),
    Entry("audit score", score, "filled.csv", "audit score", None, False),
]
ENTRIES[1] = Entry(**{**ENTRIES[1].__dict__, "valid": builtin_path("judge_default.txt").read_text("utf-8")})
ENTRIES[2] = Entry(**{**ENTRIES[2].__dict__, "valid": builtin_path("grm_pointwise.txt").read_text("utf-8")})


# kind -> (writes the file, the message after "<label> <path>: ", which entries it applies to)
KINDS: dict[str, tuple[Callable[[Path], object], str, Callable[[Entry], bool]]] = {
    "fifo": (
        make_fifo,
        "is a named pipe (FIFO), not a regular file (reading it could wait forever){hint}",
        lambda e: True,
    ),
    "device": (
        lambda p: p.symlink_to("/dev/null"),  # /dev/zero alike, but harmless to a reader that reads on
        "is a character device, not a regular file (reading it could wait forever){hint}",
        lambda e: True,
    ),
    "directory": (lambda p: p.mkdir(), "is a directory, not a regular file{hint}", lambda e: True),
    "symlink_loop": (
        lambda p: p.symlink_to(p.name),
        "is a symlink loop (its links lead back to themselves), not a file",
        lambda e: True,
    ),
    "not_utf8": (
        lambda p: p.write_bytes(b"caf\xe9 au lait\n"),
        "not valid UTF-8 near line 1 (invalid continuation byte); save it as UTF-8",
        lambda e: e.file != "raw.jsonl",  # the loader makes such a line one bad record instead
    ),
    "over_the_size_cap": (
        lambda p: p.write_text("x" * 20_000, "utf-8"),
        "larger than 10,000 bytes, the cap for this file",
        lambda e: e.whole,
    ),
    "blank_lines": (
        lambda p: p.write_bytes(b"\n" * 60),
        "more than 50 blank lines in a row (at line 51); not a line-per-record file?",
        lambda e: not e.whole and not e.file.endswith(".csv"),
    ),
    "gzip_bomb": (
        # under the size cap, so the unpacked bytes are what is capped
        lambda p: p.write_bytes(gzip.compress(b"x" * 9_000)),
        "unpacks to more than {cap:,} bytes, the cap for a gzip file (100× its packed size, at least "
        "1,000); a gzip bomb?",
        lambda e: True,
    ),
}
CASES = [
    pytest.param(entry, kind, id=f"{entry.name}-{kind}")
    for entry in ENTRIES
    for kind, (_, _, applies) in KINDS.items()
    if applies(entry) and kind not in entry.hardened
]


@pytest.fixture
def small_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(userfiles, "MAX_FILE_BYTES", 10_000)  # above the built-in prompts
    monkeypatch.setattr(userfiles, "MAX_BLANK_RUN", 50)
    monkeypatch.setattr(userfiles, "MIN_GZIP_CAP", 1000)


@pytest.mark.parametrize(("entry", "kind"), CASES)
@pytest.mark.usefixtures("small_caps")
def test_every_named_file_is_refused_in_one_line(
    entry: Entry, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write, problem, _ = KINDS[kind]
    path = tmp_path / entry.file
    write(path)
    shown = f"{entry.label} {path}" if entry.label else str(path)
    cap = max(1000, 100 * os.lstat(path).st_size) if kind == "gzip_bomb" else 0
    expected = f"{shown}: {problem.format(hint=entry.hint, cap=cap)}"
    if kind == "directory" and entry.folder:
        expected = entry.folder.format(path=path)
    started = time.monotonic()
    with pytest.raises(DataError) as raised:
        entry.call(path)
    if entry.cli:
        assert (str(raised.value), capsys.readouterr().err) == ("exit 1", f"error: {expected}\n")
    else:
        assert str(raised.value) == expected
    assert time.monotonic() - started < 15  # refused, not waited on (a bound that holds at load 8)


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.valid is not None], ids=lambda e: e.name)
@pytest.mark.parametrize("bom", ["utf-16", "utf-32"])
def test_a_byte_order_mark_declares_the_encoding(entry: Entry, bom: str, tmp_path: Path) -> None:
    path = tmp_path / entry.file
    path.write_bytes((entry.valid or "").encode(bom))
    entry.call(path)  # read as text, no error


def test_the_input_fingerprint_refuses_what_it_cannot_hash(tmp_path: Path) -> None:
    for name, write, problem in [
        (
            "fifo.jsonl",
            make_fifo,
            "is a named pipe (FIFO), not a regular file (reading it could wait forever)",
        ),
        (
            "device.jsonl",
            lambda p: p.symlink_to("/dev/null"),
            "is a character device, not a regular file (reading it could wait forever)",
        ),
        (
            "loop.jsonl",
            lambda p: p.symlink_to(p.name),
            "is a symlink loop (its links lead back to themselves), not a file",
        ),
    ]:
        path = tmp_path / name
        write(path)
        with pytest.raises(DataError) as raised:
            input_fingerprint(path, DEFAULT_FIELDS)
        assert str(raised.value) == f"{path}: {problem}"


def test_a_symlink_loop_as_data_is_named_a_loop(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.symlink_to(path.name)
    with pytest.raises(DataError) as raised:
        uxbench_dataset("task2", str(path), None, True)
    assert str(raised.value) == f"{path}: is a symlink loop (its links lead back to themselves), not a file"
