"""Replay the published per-model outputs through the unchanged Task 2/3 tasks.

- `--model uxbench/replay/<model>` answers each sample with `<model>`'s published reply for the
  sample's cid (an empty reply where its generation failed).
- `--model-role grader=uxbench/replay-grm/<model>` answers each grading request with UXBench-GRM's
  published verdict of `<model>`'s reply (好, 差, or a non-label answer for a failed grade)
  and, when logprobs are asked for, the published 好/差 log probabilities (or ones made from
  the published score where those are missing), so the GRM scorer computes the published
  score.

So `inspect eval uxbench/task2_eval --model uxbench/replay/<m> --model-role grader=uxbench/replay-grm/<m>`
gives the paper's Good% of `<m>` (verdict-1 records / all records): a check of the task,
the data and the scoring, not of any model. Both read the root of the user's own copy of
the outputs (docs/protocol.md#published-per-model-outputs) from `-M outputs=DIR` (a role:
`model_args: {outputs: DIR}`) or the `UXBENCH_OUTPUTS` environment variable, and both
files of a model's Task 2 and Task 3 outputs unless `task=task2|task3` picks one.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
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

from uxbench.graders.published import (
    BAD,
    GOOD,
    TASK_DIRS,
    PublishedGrade,
    PublishedReply,
    judge_path,
    read_grades,
    read_replies,
    responses_path,
)
from uxbench.runtime._inspect import active_sample_id
from uxbench.runtime.errors import DataError

OUTPUTS_ENV = "UXBENCH_OUTPUTS"
GOOD_TOKEN, BAD_TOKEN = "好", "差"
FAILED_ANSWER = "(the published grade failed)"  # begins with neither label: a failed verdict

T = TypeVar("T")


def active_cid() -> str:
    """The running sample's id, which for Tasks 2/3 is the record's cid."""
    cid = active_sample_id()
    if cid is None:
        raise DataError("replay models answer samples of a running eval only")
    return cid


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
    """A model answering from one model's published files (replies or grades) of Task 2 and/or 3.

    Subclasses say which files (`path_of`, `read`) and how a file's item becomes an answer.
    """

    provider: str
    path_of: Callable[[Path, str, str], Path]
    read: Callable[[Path, str, str], dict[str, T]]

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
        if model_args:
            raise DataError(f"{self.name}: unknown model args {', '.join(model_args)} (outputs=, task=)")
        if task is not None and task not in TASK_DIRS:
            raise DataError(f"{self.name}: task={task!r}: choose one of {', '.join(TASK_DIRS)}")
        root = outputs_root(outputs, self.name)
        self.paths = {t: self.path_of(root, t, model_name) for t in ([task] if task else TASK_DIRS)}
        self.items = {t: self.read(root, t, model_name) for t, path in self.paths.items() if path.is_file()}
        if not self.items:
            raise DataError(f"{self.name}: none of {', '.join(map(str, self.paths.values()))} exists")

    def item(self, cid: str) -> T:
        found = [items[cid] for items in self.items.values() if cid in items]
        if not found:
            files = ", ".join(str(self.paths[t]) for t in self.items)
            raise DataError(f"{self.name}: cid {cid} is not in {files} (is -T data the same release?)")
        if len(found) > 1:
            raise DataError(f"{self.name}: cid {cid} is in both tasks' files; pass task=task2 or task=task3")
        return found[0]

    def answer(self, item: T, config: GenerateConfig) -> ModelOutput:
        raise NotImplementedError

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        if tools:
            raise DataError(f"{self.name} replays recorded text and cannot call tools")
        return self.answer(self.item(active_cid()), config)


class ReplayAPI(Replay[PublishedReply]):
    """`uxbench/replay/<model>`: the published reply of `<model>` to the running sample's record."""

    provider = "replay"
    path_of = staticmethod(responses_path)
    read = staticmethod(read_replies)

    def answer(self, item: PublishedReply, config: GenerateConfig) -> ModelOutput:
        return ModelOutput.from_content(self.model_name, item.text or "")


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
    path_of = staticmethod(judge_path)
    read = staticmethod(read_grades)

    def answer(self, item: PublishedGrade, config: GenerateConfig) -> ModelOutput:
        return grade_output(self.model_name, item, bool(config.logprobs))
