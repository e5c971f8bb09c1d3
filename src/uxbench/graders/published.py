"""Read the published per-model outputs: each model's replies and UXBench-GRM's grade of each.

Layout and field rules: docs/protocol.md#published-per-model-outputs. The files are under a
research-only licence, so they are only ever read at run time from the user's own copy;
nothing here writes or caches them. Values that arrive as strings (`"1"`, `"0.53"`,
`"True"`, `"null"`) are coerced; a value that cannot be read stops with its file, line,
`cid` and field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from uxbench.data.dataset import read_jsonl
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

PublishedTask = Literal["task2", "task3"]
TASK_DIRS: dict[str, str] = {"task2": "task2_ux_eval", "task3": "task3_ux_recovery"}
REPLY_FIELDS = ("generated_response", "recovery_response")  # Task 3 files of other versions use the second
JUDGE_PREFIX = "judge_"
GOOD, BAD, FAILED = 1, -1, 0
_LFS_POINTER = b"version https://git-lfs.github.com/spec/"
_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")


@dataclass(frozen=True)
class PublishedReply:
    """One model's reply to one record; `text` is None when its generation failed."""

    cid: str
    text: str | None
    error: str | None = None


@dataclass(frozen=True)
class PublishedGrade:
    """UXBench-GRM's grade of one reply: verdict 1 good, -1 bad, 0 failed."""

    cid: str
    verdict: int
    score: float | None
    good_logprob: float | None
    bad_logprob: float | None


def task_dir(root: Path, task: str) -> Path:
    if task not in TASK_DIRS:
        raise DataError(f"task={task!r}: the published outputs cover {', '.join(TASK_DIRS)}")
    return root / TASK_DIRS[task]


def responses_path(root: Path, task: str, model: str) -> Path:
    return task_dir(root, task) / "responses" / f"{model}.jsonl"


def judge_path(root: Path, task: str, model: str) -> Path:
    return task_dir(root, task) / "judge" / f"{JUDGE_PREFIX}{model}.jsonl"


def check_root(root: Path, task: str) -> None:
    """Fail early, saying what a published-outputs directory holds, when `root` is not one."""
    if not (task_dir(root, task) / "judge").is_dir():
        raise DataError(
            f"{root}: no {TASK_DIRS[task]}/judge/ directory. Point at the root of your copy of the "
            f"published per-model outputs ({TASK_DIRS[task]}/responses/<model>.jsonl and "
            f"{TASK_DIRS[task]}/judge/judge_<model>.jsonl; docs/protocol.md#published-per-model-outputs)"
        )


def graded_models(root: Path, task: str) -> list[str]:
    """Models with a judge file for `task`, sorted."""
    check_root(root, task)
    judge = task_dir(root, task) / "judge"
    return sorted(p.stem.removeprefix(JUDGE_PREFIX) for p in judge.glob(f"{JUDGE_PREFIX}*.jsonl"))


# ---------------------------------------------------------------- coercion


def _where(path: Path, line: int, raw: dict[str, Any]) -> str:
    return f"{path}:{line} (cid {raw.get('cid', '?')})"


def _absent(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower() in ("", "null", "none", "nan"))


def as_int(value: Any, name: str, where: str) -> int:
    try:
        number = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError):
        number = math.nan
    if not number.is_integer():
        raise DataError(f"{where}: field '{name}' must be an integer, got {value!r}")
    return int(number)


def as_float(value: Any, name: str, where: str) -> float | None:
    """A number (-inf kept: a log probability of zero chance), or None when absent or NaN."""
    if _absent(value):
        return None
    try:
        number = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError):
        raise DataError(f"{where}: field '{name}' must be a number or null, got {value!r}") from None
    return None if math.isnan(number) else number


def as_bool(value: Any, name: str, where: str, default: bool) -> bool:
    if _absent(value):
        return default
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    raise DataError(f"{where}: field '{name}' must be true or false, got {value!r}")


# ---------------------------------------------------------------- files


def _rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line, object) of a published file; undecodable lines and Git LFS pointers stop with a message."""
    if userfiles.check_path(path) is None:
        raise DataError(f"{path}: no such file (docs/protocol.md#published-per-model-outputs)")
    with userfiles.open_binary(path, gunzip=False) as handle:
        if handle.read(len(_LFS_POINTER)) == _LFS_POINTER:
            raise DataError(
                f"{path} is a Git LFS pointer, not the file: fetch the contents with `git lfs pull` "
                "in your copy of the published outputs"
            )
    rows: list[tuple[int, dict[str, Any]]] = []
    seen: dict[str, int] = {}
    for row in read_jsonl(path):
        if row.problem or row.raw is None:
            raise DataError(f"{path}:{row.line}: {row.problem}")
        cid = row.raw.get("cid")
        if _absent(cid):
            raise DataError(f"{path}:{row.line}: field 'cid' is missing")
        cid = str(cid).strip()
        if cid in seen:
            raise DataError(f"{path}:{row.line} (cid {cid}): duplicate of line {seen[cid]}")
        seen[cid] = row.line
        rows.append((row.line, {**row.raw, "cid": cid}))
    return rows


def reply_of(raw: dict[str, Any], where: str) -> PublishedReply:
    """One line of a responses file."""
    text = next((raw[f] for f in REPLY_FIELDS if isinstance(raw.get(f), str)), None)
    ok = as_bool(raw.get("ok"), "ok", where, default=True)
    error = None if _absent(raw.get("error")) else str(raw["error"])
    if not ok or text is None or not text.strip():
        return PublishedReply(raw["cid"], None, error or ("ok is false" if not ok else "no reply text"))
    return PublishedReply(raw["cid"], text, error)


def grade_of(raw: dict[str, Any], where: str) -> PublishedGrade:
    """One line of a judge file."""
    if _absent(raw.get("verdict")):
        raise DataError(f"{where}: field 'verdict' is missing")
    verdict = as_int(raw["verdict"], "verdict", where)
    if verdict not in (GOOD, BAD, FAILED):
        raise DataError(f"{where}: field 'verdict' must be 1, -1 or 0, got {raw['verdict']!r}")
    return PublishedGrade(
        cid=raw["cid"],
        verdict=verdict,
        score=as_float(raw.get("score"), "score", where),
        good_logprob=as_float(raw.get("good_logprob"), "good_logprob", where),
        bad_logprob=as_float(raw.get("bad_logprob"), "bad_logprob", where),
    )


def read_replies(root: Path, task: str, model: str) -> dict[str, PublishedReply]:
    """cid → reply, in file order."""
    path = responses_path(root, task, model)
    return {raw["cid"]: reply_of(raw, _where(path, line, raw)) for line, raw in _rows(path)}


def read_grades(root: Path, task: str, model: str) -> dict[str, PublishedGrade]:
    """cid → UXBench-GRM's grade, in file order."""
    path = judge_path(root, task, model)
    return {raw["cid"]: grade_of(raw, _where(path, line, raw)) for line, raw in _rows(path)}


def published_good_pct(grades: dict[str, PublishedGrade]) -> float:
    """A model's published Good% (Task 3: Recovery Rate): verdict-1 records / all records of its judge."""
    return sum(g.verdict == GOOD for g in grades.values()) / len(grades) if grades else math.nan
