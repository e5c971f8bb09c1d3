"""Replay the published per-model outputs through the unchanged Tasks 1–3.

- `--model uxbench/replay/<model>` answers each sample with `<model>`'s published output for the
  sample's cid: on Task 1 its verdict (好 or 差, or a non-label answer where its judgment
  failed), on Tasks 2/3 its reply (an empty reply where its generation failed).
- `--model-role grader=uxbench/replay-grm/<model>` answers each grading request with UXBench-GRM's
  published verdict of `<model>`'s reply (好, 差, or a non-label answer for a failed grade)
  and, when logprobs are asked for, the published 好/差 log probabilities (or ones made from
  the published score where those are missing), so the GRM scorer computes the published
  score.

A record without a row in the published file is answered with `NO_ROW_ANSWER`, which the
scorers count as a failed judgment (not good, not right), as the paper counts a missing
grade; each is logged as a warning and the report counts them per run. So
`inspect eval uxbench/task2_eval --model uxbench/replay/<m> --model-role grader=uxbench/replay-grm/<m>` gives
the paper's Good% of `<m>`, and Task 1 its Avg-Acc: a check of the task, the data and the
scoring, not of any model. Both read the root of the user's own copy of the outputs
(docs/protocol.md#published-per-model-outputs) from `-M outputs=DIR` (a role:
`model_args: {outputs: DIR}`) or the `UXBENCH_OUTPUTS` environment variable. The running
sample's task says which file answers; `task=task1|task2|task3` names it for other tasks.
"""

from __future__ import annotations

import logging
import math
import os
from pathlib import Path
from typing import Any, Generic, TypeVar

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelAPI,
    ModelOutput,
    TopLogprob,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from uxbench.qualification.published import (
    BAD,
    FAILED_ANSWER,
    GOOD,
    NO_ROW_ANSWER,
    TASK_DIRS,
    PublishedGrade,
    PublishedReply,
    PublishedVerdict,
    file_stem,
    judge_path,
    read_grades,
    read_replies,
    read_verdicts,
    responses_path,
    verdicts_path,
)
from uxbench.runtime._inspect import sample_active
from uxbench.runtime.errors import DataError

__all__ = ["FAILED_ANSWER", "NO_ROW_ANSWER", "ReplayAPI", "ReplayGraderAPI", "grade_logprobs", "grade_output"]

logger = logging.getLogger(__name__)

OUTPUTS_ENV = "UXBENCH_OUTPUTS"
GOOD_TOKEN, BAD_TOKEN = "好", "差"
# the UXBench task a sample belongs to → the published files that answer it
RUN_TASKS = {"task1_judge": "task1", "task2_eval": "task2", "task3_recovery": "task3"}
NO_REPLIES = "none"  # -M replies=none: replay the grades of reply files that are Git LFS pointers
STAND_IN_REPLY = "(the published reply is not loaded: replayed with -M replies=none)"

T = TypeVar("T")
Published = PublishedReply | PublishedVerdict


def active_sample() -> tuple[str, str | None]:
    """The running sample's id (the record's cid) and its task's published files (task1/2/3, or None)."""
    active = sample_active()
    if active is None:
        raise DataError("replay models answer samples of a running eval only")
    return str(active.sample.id), RUN_TASKS.get(active.task.rsplit("/", 1)[-1])


def outputs_root(outputs: str | None, name: str) -> Path:
    value = outputs or os.environ.get(OUTPUTS_ENV)
    if not value:
        raise DataError(
            f"{name}: where is your copy of the published outputs? Pass -M outputs=DIR (for a model "
            f"role: model_args: {{outputs: DIR}}) or set {OUTPUTS_ENV}=DIR"
        )
    root = Path(value).expanduser()
    if not root.is_dir():
        raise DataError(f"{name}: outputs={value!r} is not a directory")
    return root


class Replay(ModelAPI, Generic[T]):
    """A model answering from one model's published files, one per task it covers.

    Subclasses say which files (`path_of`, `read`) and how a file's item becomes an answer.
    A file that cannot be read (a Git LFS pointer, say) stops only the runs that need it.
    """

    provider: str
    tasks: tuple[str, ...]

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (Inspect's ModelAPI signature)
        outputs: str | None = None,
        task: str | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        self.name = f"{self.provider}/{model_name}"
        self.options(model_args)
        if task is not None and task not in self.tasks:
            raise DataError(f"{self.name}: task={task!r}: choose one of {', '.join(self.tasks)}")
        self.task = task
        root = outputs_root(outputs, self.name)
        chosen = [task] if task else list(self.tasks)
        stem = model_name if any(self.path_of(root, t, model_name).is_file() for t in chosen) else None
        stem = stem or file_stem(model_name)
        self.paths = {t: self.path_of(root, t, stem) for t in chosen}
        self.items: dict[str, dict[str, T]] = {}
        self.unreadable: dict[str, str] = {}  # task → why its file cannot be read
        for t, path in self.paths.items():
            if path.is_file():
                try:
                    self.items[t] = self.read(root, t, stem)
                except DataError as error:
                    self.unreadable[t] = str(error)
        if task in self.unreadable:
            raise DataError(self.unreadable[task])
        if not self.items and not self.unreadable:
            raise DataError(f"{self.name}: none of {', '.join(map(str, self.paths.values()))} exists")
        self.missing: set[tuple[str, str]] = set()

    def options(self, model_args: dict[str, Any]) -> None:
        if model_args:
            raise DataError(f"{self.name}: unknown model args {', '.join(model_args)} (outputs=, task=)")

    def path_of(self, root: Path, task: str, model: str) -> Path:
        raise NotImplementedError

    def read(self, root: Path, task: str, model: str) -> dict[str, T]:
        raise NotImplementedError

    def item(self, cid: str, running: str | None) -> tuple[str | None, T | None]:
        """(task, the published item) of a record; item None when its file has no row for it."""
        task = self.task or (running if running in self.paths else None)
        if task is not None:
            if task in self.unreadable:
                raise DataError(self.unreadable[task])
            if task not in self.items:
                raise DataError(f"{self.name}: {self.paths[task]} does not exist")
            return task, self.items[task].get(cid)
        found = [(t, items[cid]) for t, items in self.items.items() if cid in items]
        if len(found) > 1:
            raise DataError(f"{self.name}: cid {cid} is in several tasks' files; pass -M task=…")
        if not found and self.unreadable:
            raise DataError("; ".join(self.unreadable.values()))
        return found[0] if found else (None, None)

    def answer(self, task: str | None, item: T, config: GenerateConfig) -> ModelOutput:
        raise NotImplementedError

    def no_row(self, cid: str, task: str | None) -> ModelOutput:
        """The answer for a record the published file lacks: a failed judgment, logged once."""
        if (cid, str(task)) not in self.missing:
            self.missing.add((cid, str(task)))
            where = self.paths[task] if task else ", ".join(map(str, self.paths.values()))
            logger.warning(f"{self.name}: cid {cid} has no row in {where}; counted as a failed judgment")
        return ModelOutput.from_content(self.model_name, NO_ROW_ANSWER)

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        if tools:
            raise DataError(f"{self.name} replays recorded text and cannot call tools")
        cid, running = active_sample()
        task, item = self.item(cid, running)
        return self.no_row(cid, task) if item is None else self.answer(task, item, config)


class ReplayAPI(Replay[Published]):
    """`uxbench/replay/<model>`: `<model>`'s published Task 1 verdict or Task 2/3 reply for the
    running sample.

    `-M replies=none` answers Tasks 2/3 with a stand-in text instead of reading the reply files
    (which are Git LFS pointers in a copy cloned without LFS): the published grades replay
    all the same, since `replay-grm` grades by record, not by reply.
    """

    provider = "replay"
    tasks = ("task1", *TASK_DIRS)

    def options(self, model_args: dict[str, Any]) -> None:
        replies = model_args.pop("replies", None)
        if replies not in (None, NO_REPLIES):
            raise DataError(f"{self.name}: replies={replies!r}: the one choice is replies={NO_REPLIES}")
        self.stand_in = replies == NO_REPLIES
        if model_args:
            raise DataError(
                f"{self.name}: unknown model args {', '.join(model_args)} (outputs=, task=, replies=)"
            )

    def path_of(self, root: Path, task: str, model: str) -> Path:
        return verdicts_path(root, model) if task == "task1" else responses_path(root, task, model)

    def read(self, root: Path, task: str, model: str) -> dict[str, Published]:
        if task == "task1":
            return dict(read_verdicts(root, model))
        if self.stand_in:
            return {}
        try:
            return dict(read_replies(root, task, model))
        except DataError as error:
            raise DataError(
                f"{self.name}: {error} (to replay the published grades without the replies, pass "
                f"-M replies={NO_REPLIES})"
            ) from None

    def item(
        self, cid: str, running: str | None
    ) -> tuple[str | None, PublishedReply | PublishedVerdict | None]:
        task = self.task or running
        if self.stand_in and task in TASK_DIRS:
            return task, PublishedReply(cid, STAND_IN_REPLY)
        return super().item(cid, running)

    def answer(self, task: str | None, item: Published, config: GenerateConfig) -> ModelOutput:
        if isinstance(item, PublishedReply):
            return ModelOutput.from_content(self.model_name, item.text or "")
        token = {GOOD: GOOD_TOKEN, BAD: BAD_TOKEN}.get(item.verdict, FAILED_ANSWER)
        return ModelOutput.from_content(self.model_name, token)


def grade_logprobs(grade: PublishedGrade) -> tuple[float | None, float | None]:
    """log P(好), log P(差) of the replayed answer: the published pair, else made from the published score."""
    if grade.good_logprob is not None and grade.bad_logprob is not None:
        return grade.good_logprob, grade.bad_logprob
    if grade.score is None:
        return grade.good_logprob, grade.bad_logprob
    chance = {GOOD_TOKEN: grade.score, BAD_TOKEN: 1 - grade.score}
    good, bad = (math.log(chance[t]) if chance[t] > 0 else None for t in (GOOD_TOKEN, BAD_TOKEN))
    return good, bad


def grade_output(model: str, grade: PublishedGrade, logprobs: bool) -> ModelOutput:
    """The grader answer that UXBench-GRM's published grade stands for."""
    if grade.verdict not in (GOOD, BAD):
        return ModelOutput.from_content(model, FAILED_ANSWER)
    token = GOOD_TOKEN if grade.verdict == GOOD else BAD_TOKEN
    output = ModelOutput.from_content(model, token)
    good, bad = grade_logprobs(grade)
    chances = [(t, lp) for t, lp in ((GOOD_TOKEN, good), (BAD_TOKEN, bad)) if lp is not None]
    if logprobs and chances:
        tops = [TopLogprob(token=t, logprob=lp) for t, lp in sorted(chances, key=lambda c: -c[1])]
        chosen = dict(chances).get(token, 0.0)
        output.choices[0].logprobs = Logprobs(
            content=[Logprob(token=token, logprob=chosen, top_logprobs=tops)]
        )
    return output


class ReplayGraderAPI(Replay[PublishedGrade]):
    """`uxbench/replay-grm/<model>`: UXBench-GRM's published grade of `<model>`'s reply to the running
    sample."""

    provider = "replay-grm"
    tasks = tuple(TASK_DIRS)

    def path_of(self, root: Path, task: str, model: str) -> Path:
        return judge_path(root, task, model)

    def read(self, root: Path, task: str, model: str) -> dict[str, PublishedGrade]:
        return read_grades(root, task, model)

    def answer(self, task: str | None, item: PublishedGrade, config: GenerateConfig) -> ModelOutput:
        return grade_output(self.model_name, item, bool(config.logprobs))
