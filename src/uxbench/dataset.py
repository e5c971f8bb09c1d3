"""Where records come from (hub, a directory, one file, the bundled sample) and how each
becomes an Inspect `Sample`.

One loader serves all three tasks: it reads raw rows with their position, normalises them
with `uxbench.records`, and either stops at the first unusable record with its file, line,
cid and field, or (with `skip_bad`) counts and logs what it skipped.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
)

from uxbench.errors import DataError
from uxbench.exclusions import without_excluded
from uxbench.records import (
    DISLIKED,
    LIKED,
    EvalRecord,
    JudgeRecord,
    RecordError,
    RecoveryRecord,
    Turn,
    eval_record,
    judge_record,
    recovery_record,
)
from uxbench.templates import Template, builtin_path, load_template

logger = logging.getLogger(__name__)

HUB_REPO = "mengze-hong/UXBench"
HUB_SPLIT = "test"
RELEASE_FILES: dict[str, str] = {
    "task1_judge_bad": "uxbench_task1_judge_bad_1k.jsonl",
    "task1_judge_good": "uxbench_task1_judge_good_1k.jsonl",
    "task2_eval": "uxbench_task2_eval_4900.jsonl",
    "task3_recovery": "uxbench_task3_recovery_500.jsonl",
}
TaskName = Literal["task1", "task2", "task3"]
TASK_CONFIGS: dict[str, tuple[str, ...]] = {
    "task1": ("task1_judge_good", "task1_judge_bad"),
    "task2": ("task2_eval",),
    "task3": ("task3_recovery",),
}
CONFIG_LABEL = {"task1_judge_good": LIKED, "task1_judge_bad": DISLIKED}


@dataclass
class Row:
    source: str  # file path or hub config
    line: int  # 1-based line (file) or row number (hub)
    raw: dict[str, Any] | None
    default_label: int | None
    problem: str | None = None  # set when the line could not even be decoded


@dataclass
class LoadReport:
    """What a load read and what it skipped, for the task's metadata."""

    records: int = 0
    skipped: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- record -> Sample


def to_messages(turns: tuple[Turn, ...]) -> list[ChatMessage]:
    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}
    return [kinds[t.role](content=t.content) for t in turns]


def judge_prompt_text(record: JudgeRecord, template: Template) -> str:
    return template.render(
        history=template.history_text(record.history), query=record.query, response=record.response
    )


# Samples hold each text once, as the model sees it: Task 1's in the rendered prompt, Tasks
# 2/3's in the input messages; the metadata keeps the label facts the metrics group by.
def judge_sample(record: JudgeRecord, template: Template) -> Sample:
    label = "good" if record.liked else "bad"
    return Sample(
        id=record.cid,
        input=judge_prompt_text(record, template),
        target=label,
        metadata={"label": label, **record.labels},
    )


def eval_sample(record: EvalRecord) -> Sample:
    return Sample(
        id=record.cid,
        input=[*to_messages(record.history), ChatMessageUser(content=record.query)],
        metadata=dict(record.labels),
    )


def recovery_sample(record: RecoveryRecord) -> Sample:
    return Sample(
        id=record.cid,
        input=[
            *to_messages(record.history),
            ChatMessageAssistant(content=record.failed_response),
            ChatMessageUser(content=record.complaint),
        ],
        metadata=dict(record.labels),
    )


def converter(task: TaskName, template: Template | None) -> Callable[[Row], Sample]:
    """Row -> Sample for `task`; Task 1 renders its prompt through `template` (default: ours)."""
    if task == "task1":
        judge = template or load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad"))
        return lambda row: judge_sample(judge_record(row.raw or {}, row.default_label), judge)
    if task == "task2":
        return lambda row: eval_sample(eval_record(row.raw or {}))
    return lambda row: recovery_sample(recovery_record(row.raw or {}))


# ---------------------------------------------------------------- sources


def sample_dir() -> Path:
    return Path(str(resources.files("uxbench") / "data" / "sample"))


def label_from_name(path: Path) -> int | None:
    """Liked or disliked, as a file's name says; None when it says neither."""
    name = path.name.lower()
    if "good" in name or ("liked" in name and "disliked" not in name):
        return LIKED
    if "bad" in name or "disliked" in name:
        return DISLIKED
    return None


def read_jsonl(path: Path, default_label: int | None = None) -> Iterator[Row]:
    """Rows of a JSONL file with their line numbers; undecodable lines become problem rows."""
    try:
        handle = path.open("rb")
    except OSError as error:
        raise DataError(f"{path}: cannot read ({error.strerror})") from None
    empty = True
    with handle:
        for number, data in enumerate(handle, start=1):
            if not data.strip():
                continue
            empty = False
            try:
                raw = json.loads(data.decode("utf-8-sig"))
            except UnicodeDecodeError as error:
                yield Row(str(path), number, None, default_label, f"not UTF-8 ({error.reason})")
                continue
            except ValueError as error:
                yield Row(str(path), number, None, default_label, f"not valid JSON ({error})")
                continue
            if not isinstance(raw, dict):
                problem = f"expected a JSON object, got {type(raw).__name__}"
                yield Row(str(path), number, None, default_label, problem)
                continue
            yield Row(str(path), number, raw, default_label)
    if empty:
        raise DataError(f"{path}: the file is empty (no records)")


def _directory_rows(directory: Path, task: str) -> Iterator[Row]:
    missing = [RELEASE_FILES[c] for c in TASK_CONFIGS[task] if not (directory / RELEASE_FILES[c]).exists()]
    if missing:
        raise DataError(
            f"{directory}: missing {', '.join(missing)} (a data directory holds the release "
            f"file names: {', '.join(RELEASE_FILES.values())})"
        )
    for config in TASK_CONFIGS[task]:
        yield from read_jsonl(directory / RELEASE_FILES[config], CONFIG_LABEL.get(config))


def _hub_rows(task: str, revision: str | None) -> Iterator[Row]:
    check_hub(revision)
    from datasets import load_dataset

    for config in TASK_CONFIGS[task]:
        table = load_dataset(HUB_REPO, config, split=HUB_SPLIT, revision=revision)
        for number, raw in enumerate(table, start=1):
            yield Row(f"{HUB_REPO}:{config}", number, dict(raw), CONFIG_LABEL.get(config))


_HUB_HELP = (
    "Download it once where you have access (accept the licence on the dataset page first):\n"
    "  hf auth login\n"
    f"  hf download {HUB_REPO} --repo-type dataset --local-dir uxbench-data\n"
    "then point the task at the copy with -T data=uxbench-data (a directory holding the "
    "release files), or try the bundled synthetic records with -T data=sample."
)


def check_hub(revision: str | None) -> None:
    """Fail in seconds, with instructions, when the dataset cannot be reached."""
    import os

    from huggingface_hub import HfApi
    from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError

    if os.environ.get("HF_HUB_OFFLINE") or os.environ.get("HF_DATASETS_OFFLINE"):
        return  # offline mode: datasets reads its local cache or says it has none
    try:
        HfApi().dataset_info(HUB_REPO, revision=revision, timeout=10)
    except GatedRepoError:
        raise DataError(f"{HUB_REPO} is gated and this account has no access.\n{_HUB_HELP}") from None
    except RepositoryNotFoundError:
        raise DataError(
            f"{HUB_REPO} (revision {revision or 'main'}) was not found or needs a login.\n{_HUB_HELP}"
        ) from None
    except Exception as error:  # network: DNS, proxy, timeout
        raise DataError(
            f"cannot reach the Hugging Face hub for {HUB_REPO} ({type(error).__name__}).\n{_HUB_HELP}"
        ) from None


def source_rows(task: TaskName, data: str, revision: str | None = None) -> Iterator[Row]:
    """A task's raw rows in source order, for tools that show records (`uxbench explore`)."""
    return _rows(task, data, revision)


def _rows(task: str, data: str, revision: str | None) -> Iterator[Row]:
    if data == "hub":
        yield from _hub_rows(task, revision)
        return
    path = sample_dir() if data == "sample" else Path(data).expanduser()
    if path.is_dir():
        yield from _directory_rows(path, task)
    elif path.is_file():
        yield from read_jsonl(path, label_from_name(path) if task == "task1" else None)
    else:
        raise DataError(
            f"data={data!r}: no such file or directory (use hub, sample, a directory holding "
            "the release files, or one .jsonl file)"
        )


# ---------------------------------------------------------------- loading


def load_samples(
    task: TaskName,
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    template: Template | None = None,
) -> tuple[list[Sample], LoadReport]:
    """All samples of a task; bad records stop the load unless `skip_bad`."""
    convert = converter(task, template)
    report = LoadReport()
    samples: list[Sample] = []
    seen: dict[str, str] = {}
    for row in _rows(task, data, revision):
        cid = str((row.raw or {}).get("cid") or "?")
        where = f"{row.source}:{row.line} (cid {cid})"
        try:
            if row.problem:
                raise RecordError("-", row.problem)
            sample = convert(row)
            if str(sample.id) in seen:
                raise RecordError("cid", f"duplicate of {seen[str(sample.id)]}")
        except RecordError as error:
            problem = row.problem or str(error)
            if not skip_bad:
                raise DataError(
                    f"{where}: {problem}\n(-T skip_bad=true skips and counts such records)"
                ) from None
            report.skipped.append(f"{where}: {problem}")
            continue
        seen[str(sample.id)] = where
        samples.append(sample)
    report.records = len(samples)
    if report.skipped:
        logger.warning(
            "uxbench: skipped %d bad record(s) of %d:\n%s",
            len(report.skipped),
            len(report.skipped) + len(samples),
            "\n".join(report.skipped[:20]),
        )
    if not samples:
        raise DataError(f"data={data!r} holds no usable {task} records")
    return samples, report


def interleave(samples: list[Sample]) -> list[Sample]:
    """Alternate liked and disliked samples so that `--limit N` sees both classes."""
    good = [s for s in samples if s.target == "good"]
    bad = [s for s in samples if s.target != "good"]
    mixed: list[Sample] = []
    for i in range(max(len(good), len(bad))):
        mixed.extend(group[i] for group in (good, bad) if i < len(group))
    return mixed


def uxbench_dataset(
    task: TaskName,
    data: str,
    revision: str | None,
    skip_bad: bool,
    template: Template | None = None,
    exclude: str | None = None,
) -> tuple[MemoryDataset, dict[str, Any]]:
    """The task's dataset and the load facts that go into the task's metadata."""
    samples, report = load_samples(task, data, revision, skip_bad, template)
    samples, excluded = without_excluded(samples, exclude)
    if not samples:
        raise DataError(f"exclude={exclude}: every {task} record of data={data!r} is excluded")
    if task == "task1":
        samples = interleave(samples)
    name = f"uxbench_{task}"
    location = data if data in ("hub", "sample") else str(Path(data).expanduser().resolve())
    facts = {
        "data": location,
        "revision": revision,
        "records": report.records,
        "skipped_records": len(report.skipped),
        "skipped": report.skipped[:100],
        "exclude": str(Path(exclude).expanduser().resolve()) if exclude else None,
        "excluded_records": len(excluded),
        "excluded": excluded[:100],
    }
    return MemoryDataset(samples, name=name, location=location), facts
