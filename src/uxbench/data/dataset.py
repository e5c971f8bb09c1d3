"""Where records come from (hub, a directory, one file, the bundled sample) and how each
becomes an Inspect `Sample`.

One loader serves all three tasks: it reads raw rows with their position, normalises them
with `uxbench.data.records`, and either stops at the first unusable record with its file, line,
cid and field, or (with `skip_bad`) counts and logs what it skipped.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
import stat
from collections import Counter
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

from uxbench.data.exclusions import without_excluded
from uxbench.data.records import (
    DISLIKED,
    LIKED,
    ORIGIN_FIELD,
    ORIGINS,
    EvalRecord,
    JudgeRecord,
    NestingError,
    RecordError,
    RecoveryRecord,
    Turn,
    decode_json,
    eval_record,
    judge_record,
    recovery_record,
    shown_cid,
)
from uxbench.data.templates import Template, builtin_path, load_template
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

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
# One JSONL line, in characters (docs/scale.md#bad-input); the release's records are a few kB.
MAX_RECORD_CHARS = userfiles.MAX_LINE_CHARS
# Whole words of a file name that set the label of its Task 1 records (see label_from_name).
NAME_WORDS = {"good": LIKED, "liked": LIKED, "bad": DISLIKED, "disliked": DISLIKED}
NEGATION_WORDS = frozenset({"not", "no", "non", "un"})
# Leading bytes of files that are not JSON Lines but are often mistaken for them.
_FOREIGN_MAGIC = {
    b"PK\x03\x04": "a zip archive",
    b"BZh": "a bzip2 file",
    b"\xfd7zXZ\x00": "an xz file",
    b"\x28\xb5\x2f\xfd": "a zstd file",
    b"7z\xbc\xaf\x27\x1c": "a 7z archive",
    b"PAR1": "a Parquet file",
}
_HINT = "give a .jsonl or .jsonl.gz file"
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # what surrogateescape makes of a non-UTF-8 byte


@dataclass
class Row:
    source: str  # file path or hub config
    line: int  # 1-based line (file) or row number (hub)
    raw: dict[str, Any] | None
    file_label: int | None  # the Task 1 label the file's name or hub config gives
    problem: str | None = None  # set when the line could not even be decoded


@dataclass
class LoadReport:
    """What a load read and what it skipped, for the task's metadata."""

    records: int = 0
    skipped: list[str] = field(default_factory=list)
    unknown_fields: Counter[str] = field(default_factory=Counter)  # unread label-like fields
    dataset_revision: str | None = None  # the hub commit read; None for local data


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


def record_hash(record: JudgeRecord | EvalRecord | RecoveryRecord) -> str:
    """A stable hash of the normalised record (its cid, label, texts and labels): two records
    with one cid but other content (the bundled sample and the release, an edited copy) differ."""
    text = json.dumps(dataclasses.asdict(record), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _stamped(sample: Sample, record: JudgeRecord | EvalRecord | RecoveryRecord) -> Sample:
    sample.metadata = {**(sample.metadata or {}), "record_hash": record_hash(record)}
    return sample


def converter(
    task: TaskName, template: Template | None, judged: Callable[[JudgeRecord], Sample] | None = None
) -> Callable[[Row], Sample]:
    """Row -> Sample for `task`, its metadata stamped with the record's hash; Task 1 renders its
    prompt through `template` (default: ours), unless `judged` builds its samples instead
    (grader_check grades the judged replies)."""
    parse: Callable[[Row], Any]
    build: Callable[[Any], Sample]
    if task == "task1":
        judge = template or load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad"))
        parse, build = (
            (lambda row: judge_record(row.raw or {}, row.file_label)),
            (judged or (lambda record: judge_sample(record, judge))),
        )
    elif task == "task2":
        parse, build = (lambda row: eval_record(row.raw or {})), eval_sample
    else:
        parse, build = (lambda row: recovery_record(row.raw or {})), recovery_sample
    return lambda row: _stamped(build(record := parse(row)), record)


# ---------------------------------------------------------------- sources


def sample_dir() -> Path:
    return Path(str(resources.files("uxbench") / "data" / "sample"))


def label_from_name(path: Path) -> int | None:
    """Liked or disliked, as a file's name says in whole words; None when it says neither.

    The name's words are its runs of letters and digits: `good` or `liked` mark liked records,
    `bad` or `disliked` disliked ones. A name with words of both kinds, or with `not`, `no`,
    `non` or `un`, says nothing (`not_liked.jsonl`, `a_unliked.jsonl`); `goodbye` is not `good`.
    """
    words = set(re.split(r"[\W_]+", path.name.lower()))
    labels = {NAME_WORDS[word] for word in words & NAME_WORDS.keys()}
    if len(labels) != 1 or words & NEGATION_WORDS:
        return None
    return labels.pop()


def read_jsonl(path: Path, file_label: int | None = None) -> Iterator[Row]:
    """Rows of a JSONL file with their line numbers; undecodable lines become problem rows.

    The file is read by `uxbench.runtime.userfiles` (gzip, byte-order marks, CR/LF/CRLF, caps).
    Problems with the whole file (not a regular file, a corrupt stream) raise DataError:
    skipping cannot make sense of the rest.
    """
    _check_not_foreign(path)
    empty = True
    for number, line in userfiles.record_lines(
        path, max_chars=MAX_RECORD_CHARS, escape_bad_bytes=True, hint=_HINT
    ):
        empty = False
        if line is None:
            problem = (
                f"longer than {MAX_RECORD_CHARS:,} characters, the cap for one record "
                "(not JSON Lines, or a file without line breaks?)"
            )
            yield Row(str(path), number, None, file_label, problem)
            continue
        raw, problem = _decode_line(line)
        yield Row(str(path), number, raw, file_label, problem)
    if empty:
        raise DataError(f"{path}: the file is empty (no records)")


def _check_not_foreign(path: Path) -> None:
    """Refuse archives and binary formats often mistaken for JSON Lines, by their first bytes."""
    with userfiles.open_binary(path, hint=_HINT) as binary:
        head = userfiles.peek(binary, 8)
    foreign = next((kind for magic, kind in _FOREIGN_MAGIC.items() if head.startswith(magic)), None)
    if foreign:
        raise DataError(f"{path}: is {foreign}, not JSON Lines; unpack or convert it first")


def _decode_line(line: str) -> tuple[dict[str, Any] | None, str | None]:
    """A line's record, or why it has none."""
    if "\x00" in line:
        return None, "contains NUL characters (a UTF-16 or UTF-32 file without a byte-order mark?)"
    escaped = _ESCAPED_BYTE.search(line)
    if escaped:
        byte = ord(escaped.group()) - 0xDC00
        return None, f"not UTF-8 (byte 0x{byte:02x} at character {escaped.start() + 1}; save it as UTF-8)"
    try:
        raw = decode_json(line)
    except NestingError as error:
        return None, str(error)
    except ValueError as error:
        return None, f"not valid JSON ({error})"
    if not isinstance(raw, dict):
        return None, f"expected a JSON object, got {type(raw).__name__}"
    return raw, None


def release_file(directory: Path, config: str) -> Path | None:
    """The config's release file in `directory`, plain or gzipped; None when absent."""
    plain = directory / RELEASE_FILES[config]
    present = [p for p in (plain, plain.with_name(plain.name + ".gz")) if userfiles.check_path(p)]
    if len(present) > 1:
        raise DataError(f"{directory}: holds both {present[0].name} and {present[1].name}; keep one")
    return present[0] if present else None


def _directory_rows(directory: Path, task: str) -> Iterator[Row]:
    found = {config: path for config in TASK_CONFIGS[task] if (path := release_file(directory, config))}
    missing = [RELEASE_FILES[config] for config in TASK_CONFIGS[task] if config not in found]
    if missing:
        raise DataError(
            f"{directory}: missing {', '.join(missing)} (a data directory holds the release "
            f"file names, optionally gzipped: {', '.join(RELEASE_FILES.values())})"
        )
    for config, path in found.items():
        yield from read_jsonl(path, CONFIG_LABEL.get(config))


def _hub_rows(task: str, revision: str | None, report: LoadReport) -> Iterator[Row]:
    """Hub rows, every config read at one commit, which goes into `report.dataset_revision`."""
    check_hub(revision)
    from datasets import load_dataset_builder

    for config in TASK_CONFIGS[task]:
        # The first config resolves `revision` (a branch, tag or None for main) to a commit; the
        # others are read at that commit. `hash` is the commit the builder reads, online or from
        # the offline cache (which ignores `revision`, so a different cached commit is caught here).
        builder = load_dataset_builder(HUB_REPO, config, revision=report.dataset_revision or revision)
        commit = str(builder.hash)
        expected = report.dataset_revision or (revision if _is_commit(revision) else None)
        if expected is not None and commit != expected:
            raise DataError(
                f"{HUB_REPO}:{config}: read commit {commit}, not {expected} (an offline cache holding "
                "another version?); download the wanted revision or pass it with -T revision="
            )
        report.dataset_revision = commit
        builder.download_and_prepare()
        for number, raw in enumerate(builder.as_dataset(split=HUB_SPLIT), start=1):
            # Arrow fills a field a row lacks with null; drop those so "absent" stays absent.
            present = {key: value for key, value in raw.items() if value is not None}
            yield Row(f"{HUB_REPO}:{config}", number, present, CONFIG_LABEL.get(config))


def _is_commit(revision: str | None) -> bool:
    return revision is not None and re.fullmatch(r"[0-9a-f]{40}", revision) is not None


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
    return _rows(task, data, revision, LoadReport())


def _rows(task: str, data: str, revision: str | None, report: LoadReport) -> Iterator[Row]:
    if data == "hub":
        yield from _hub_rows(task, revision, report)
        return
    path = sample_dir() if data == "sample" else Path(data).expanduser()
    found = userfiles.check_path(path)  # a symlink loop is named as one
    if found is not None and stat.S_ISDIR(found.st_mode):
        yield from _directory_rows(path, task)
    elif found is not None:  # a file, or something posing as one: read_jsonl says which
        yield from read_jsonl(path, label_from_name(path) if task == "task1" else None)
    else:
        raise DataError(
            f"data={data!r}: no such file or directory (use hub, sample, a directory holding "
            "the release files, or one .jsonl or .jsonl.gz file)"
        )


# ---------------------------------------------------------------- loading


def load_samples(
    task: TaskName,
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    template: Template | None = None,
    judged: Callable[[JudgeRecord], Sample] | None = None,
) -> tuple[list[Sample], LoadReport]:
    """All samples of a task; bad records stop the load unless `skip_bad` (`judged`: see `converter`)."""
    convert = converter(task, template, judged)
    report = LoadReport()
    samples: list[Sample] = []
    seen: dict[str, str] = {}
    for row in _rows(task, data, revision, report):
        where = f"{row.source}:{row.line} (cid {shown_cid((row.raw or {}).get('cid'))})"
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
        report.unknown_fields.update(list((sample.metadata or {}).get("unknown_fields", ())))
    report.records = len(samples)
    if report.skipped:
        logger.warning(
            "uxbench: skipped %d bad record(s) of %d:\n%s",
            len(report.skipped),
            len(report.skipped) + len(samples),
            "\n".join(report.skipped[:20]),
        )
    if report.unknown_fields:
        logger.warning(
            "uxbench: fields that look like labels but are not read (kept in each sample's "
            "unknown_fields metadata): %s",
            ", ".join(
                f"{name} in {n} record{'s' * (n != 1)}" for name, n in report.unknown_fields.most_common()
            ),
        )
    if not samples:
        raise DataError(f"data={data!r} holds no usable {task} records")
    return samples, report


def data_source(data: str) -> str:
    """The kind of source records came from: the bundled `sample`, the `hub`, or `local` files."""
    return data if data in ("hub", "sample") else "local"


def data_hash(samples: list[Sample]) -> str:
    """One hash of the records a task runs on (their cids and record hashes, in cid order):
    runs with equal hashes ran on the same records, whatever their source was called."""
    pairs = sorted(f"{s.id}\t{(s.metadata or {}).get('record_hash', '')}" for s in samples)
    return hashlib.sha256("\n".join(pairs).encode()).hexdigest()[:16]


def record_origins(samples: list[Sample]) -> dict[str, int]:
    """How many records say they are synthetic or stand-ins (`{}`: all the benchmark's own)."""
    found = Counter(str((s.metadata or {}).get(ORIGIN_FIELD)) for s in samples)
    return {origin: found[origin] for origin in ORIGINS if found[origin]}


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
    judged: Callable[[JudgeRecord], Sample] | None = None,
    exclude: str | None = None,
) -> tuple[MemoryDataset, dict[str, Any]]:
    """The task's dataset and the load facts that go into the task's metadata."""
    samples, report = load_samples(task, data, revision, skip_bad, template, judged)
    samples, excluded = without_excluded(samples, exclude, data_source(data))
    if not samples:
        raise DataError(f"exclude={exclude}: every {task} record of data={data!r} is excluded")
    if task == "task1":
        samples = interleave(samples)
    name = f"uxbench_{task}"
    location = data if data in ("hub", "sample") else str(Path(data).expanduser().resolve())
    facts = {
        "data": location,
        "data_source": data_source(data),  # with dataset_revision and data_hash: which data (report)
        "data_hash": data_hash(samples),
        "revision": revision,  # as asked; dataset_revision is the hub commit actually read
        "dataset_revision": report.dataset_revision,
        "records": report.records,
        "record_origins": record_origins(samples),
        "skipped_records": len(report.skipped),
        "skipped": report.skipped[:100],
        "unknown_fields": dict(report.unknown_fields),
        "exclude": str(Path(exclude).expanduser().resolve()) if exclude else None,
        "excluded_records": len(excluded),
        "excluded": excluded[:100],
    }
    return MemoryDataset(samples, name=name, location=location), facts
