"""Read the published per-model outputs: each model's Task 1 verdicts, its Task 2/3 replies and
UXBench-GRM's grade of each, and recognise the replay models that serve them.

Layout and field rules: docs/protocol.md#published-per-model-outputs. The files are under a
research-only licence, so they are only ever read at run time from the user's own copy;
nothing here writes or caches them. Values that arrive as strings (`"1"`, `"0.53"`,
`"True"`, `"null"`) are coerced; a value that cannot be read stops with its file, line,
`cid` and field.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from uxbench.data.dataset import read_jsonl
from uxbench.runtime import userfiles
from uxbench.runtime.docs import docs_url
from uxbench.runtime.errors import DataError

PublishedTask = Literal["task2", "task3"]
TASK_DIRS: dict[str, str] = {"task2": "task2_ux_eval", "task3": "task3_ux_recovery"}
VERDICTS_DIR = "task1_ux_judge"  # Task 1: one verdict per record and model, no grades
REPLY_FIELDS = ("generated_response", "recovery_response")  # Task 3 files of other versions use the second
JUDGE_PREFIX = "judge_"
GOOD, BAD, FAILED = 1, -1, 0
_LFS_POINTER = b"version https://git-lfs.github.com/spec/"
PUBLISHED_DOCS = docs_url("protocol.md#published-per-model-outputs")
_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")


@dataclass(frozen=True)
class PublishedReply:
    """One model's reply to one record; `text` is None when its generation failed."""

    cid: str
    text: str | None
    error: str | None = None


@dataclass(frozen=True)
class PublishedVerdict:
    """One model's Task 1 verdict on one record: 1 good, -1 bad, 0 failed (null in the file)."""

    cid: str
    verdict: int
    ground_truth: int | None  # the user's label as the file gives it: 1 liked, -1 disliked


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


def verdicts_path(root: Path, model: str) -> Path:
    return root / VERDICTS_DIR / "responses" / f"{model}.jsonl"


def file_stem(model: str) -> str:
    """The file name stem of a model: the release spells `gpt-5.5` as `gpt_5_5`."""
    return re.sub(r"[-.\s]+", "_", model.strip().lower())


# ---------------------------------------------------------------- replay model names

# the replay providers, under their current and their `uxbench/` names
REPLAY_PROVIDERS = ("replay", "uxbench/replay")
REPLAY_GRADER_PROVIDERS = ("replay-grm", "uxbench/replay-grm")
PUBLISHED_GRADER = "UXBench-GRM (published grades)"
# what the replay models answer for a record the published files lack, or whose judgment failed
# there; neither begins with or holds a label, so the scorers count it a failed judgment
NO_ROW_ANSWER = "(this record has no row in the published file)"
FAILED_ANSWER = "(the published judgment failed)"


def _replayed(name: str, providers: tuple[str, ...]) -> str | None:
    for provider in providers:
        model = name.removeprefix(provider + "/")
        if model != name and "/" not in model and model:
            return file_stem(model)
    return None


def replayed_model(name: str) -> str | None:
    """The published model that `replay/<model>` (or `uxbench/replay/<model>`) replays, else None."""
    return _replayed(name, REPLAY_PROVIDERS)


def replayed_grader(name: str) -> str | None:
    """The model whose published grades `replay-grm/<model>` (or `uxbench/replay-grm/…`) serves."""
    return _replayed(name, REPLAY_GRADER_PROVIDERS)


def published_grading(model: str, graders: tuple[str, ...]) -> bool:
    """Whether a run is a replay graded by UXBench-GRM's published grades of its own replies:
    model `replay/<m>`, one grader `replay-grm/<m>`. Such runs rank together as UXBench-GRM's."""
    replayed = replayed_model(model)
    return replayed is not None and len(graders) == 1 and replayed_grader(graders[0]) == replayed


def check_root(root: Path, task: str) -> None:
    """Fail early, saying what a published-outputs directory holds, when `root` is not one."""
    if not (task_dir(root, task) / "judge").is_dir():
        raise DataError(
            f"{root}: no {TASK_DIRS[task]}/judge/ directory. Point at the root of your copy of the "
            f"published per-model outputs ({TASK_DIRS[task]}/responses/<model>.jsonl and "
            f"{TASK_DIRS[task]}/judge/judge_<model>.jsonl; {PUBLISHED_DOCS})"
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
        raise DataError(f"{path}: no such file ({PUBLISHED_DOCS})")
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


def verdict_of(raw: dict[str, Any], where: str) -> PublishedVerdict:
    """One line of a Task 1 responses file; a null verdict is a failed judgment."""
    verdict = FAILED if _absent(raw.get("verdict")) else as_int(raw["verdict"], "verdict", where)
    if verdict not in (GOOD, BAD, FAILED):
        raise DataError(f"{where}: field 'verdict' must be 1, -1, 0 or null, got {raw['verdict']!r}")
    truth = None if _absent(raw.get("ground_truth")) else as_int(raw["ground_truth"], "ground_truth", where)
    if truth not in (GOOD, BAD, None):
        raise DataError(f"{where}: field 'ground_truth' must be 1 or -1, got {raw['ground_truth']!r}")
    return PublishedVerdict(raw["cid"], verdict, truth)


def read_verdicts(root: Path, model: str) -> dict[str, PublishedVerdict]:
    """cid → the model's published Task 1 verdict, in file order."""
    path = verdicts_path(root, model)
    return {raw["cid"]: verdict_of(raw, _where(path, line, raw)) for line, raw in _rows(path)}


def read_replies(root: Path, task: str, model: str) -> dict[str, PublishedReply]:
    """cid → reply, in file order."""
    path = responses_path(root, task, model)
    return {raw["cid"]: reply_of(raw, _where(path, line, raw)) for line, raw in _rows(path)}


def read_grades(root: Path, task: str, model: str) -> dict[str, PublishedGrade]:
    """cid → UXBench-GRM's grade, in file order."""
    path = judge_path(root, task, model)
    return {raw["cid"]: grade_of(raw, _where(path, line, raw)) for line, raw in _rows(path)}


def published_good_pct(grades: dict[str, PublishedGrade], records: int | None = None) -> float:
    """A model's published Good% (Task 3: Recovery Rate): verdict-1 records over `records` (the
    task's records: a record without a row counts as not good, as in the paper), by default
    over the rows of its judge file."""
    total = len(grades) if records is None else records
    return sum(g.verdict == GOOD for g in grades.values()) / total if total else math.nan


def published_avg_acc(verdicts: dict[str, PublishedVerdict], labels: dict[str, int]) -> float:
    """Task 1's Avg-Acc of a model's published verdicts on the records `labels` gives (cid → 1
    liked, −1 disliked): a failed verdict or a record without a row counts as wrong."""
    rates = []
    for label in (GOOD, BAD):
        cids = [cid for cid, truth in labels.items() if truth == label]
        right = sum(cid in verdicts and verdicts[cid].verdict == label for cid in cids)
        rates.append(right / len(cids) if cids else math.nan)
    return sum(rates) / 2
