"""`uxbench/human`: a person answers in the browser, as an Inspect model.

    inspect eval uxbench/task1_judge --model uxbench/human -M annotator=rater1 -T data=sample --limit 50

prints a link to a page on 127.0.0.1 that shows one item at a time, blind: the conversation and
the reply read back out of the prompt the model is given (no label, no model name, no cid), the
prompt's own question and answer spellings as buttons. The answer is returned as the model's
output, spelled as the template asks (好, 差, 中, or `{"verdict": 1}`), so the task scores it
unchanged; bound as a grader (`--model-role 'grader={model: uxbench/human, model_args: {annotator:
rater1}}'`) the person grades Task 2/3 replies through the GRM prompt in the same way.

Model args: `annotator` (required: it names the person in the log's model args and in every
answer's metadata), `port` (default: a free one), `undo_seconds` (how long the last answer can
be undone when nothing else is waiting, default 4), `template` (your own judge or GRM template,
which must be read back like the built-ins). A study of several people adds `team` (everyone's
names; the task keeps this person's share), `overlap` (the share of records all of them judge),
`seed`, `gold` (a file of records with known answers, mixed in blind: Task 1) and `guidelines`
(a text file shown before the first item, kept in the log). The page is described in docs/human.md.
"""

from __future__ import annotations

import math
import sys
import weakref
from pathlib import Path
from typing import Any

import anyio
from inspect_ai.hooks import Hooks, RunEnd, SampleEnd, TaskStart, hooks
from inspect_ai.log import EvalSpec
from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from inspect_ai.tool import ToolChoice, ToolInfo
from inspect_ai.util import display_counter, display_type

from uxbench.data.assignment import Study
from uxbench.data.templates import load_template
from uxbench.judge_answer.prompt import (
    JudgePrompt,
    builtin_templates,
    history_turns,
    read_judge_prompt,
    verdict_text,
)
from uxbench.providers.paused import tidy_paused_log
from uxbench.runtime._inspect import sample_active, stop_task
from uxbench.runtime.errors import DataError
from uxbench.runtime.roles import HUMAN
from uxbench.runtime.userfiles import check_regular, read_text
from uxbench.web.judging import Desk, Paused, judging_app
from uxbench.web.server import LocalServer

MODEL = HUMAN
MAX_GUIDELINES_BYTES = 256 * 1024  # a page of instructions, not a book
MEANING = {"good": "the user liked it", "bad": "the user did not", "neutral": "can't tell"}
_desks: weakref.WeakSet[Desk] = weakref.WeakSet()
_task_ids: dict[str, str] = {}  # eval id -> Inspect's task id, to end a paused run


def item_view(prompt: JudgePrompt) -> dict[str, Any]:
    """What the page shows for one prompt: its wording, the conversation as turns, the reply, the answers."""
    fields = prompt.fields
    note, turns = history_turns(fields.get("history", ""), prompt.template)
    chat = [{"role": turn.role, "text": turn.content} for turn in turns]
    for name, role in (("failed_response", "assistant"), ("complaint", "user"), ("query", "user")):
        if fields.get(name):
            chat.append({"role": role, "text": fields[name]})
    answers = [
        {"label": name, "spelling": prompt.template.labels[name][0], "meaning": MEANING.get(name, name)}
        for name in prompt.offered()
    ]
    return {
        "instructions": prompt.instructions,
        "note": note,
        "turns": chat,
        "reply": fields.get("response", ""),
        "question": prompt.question,
        "answers": answers,
    }


def planned(spec: EvalSpec) -> list[tuple[str, int]]:
    """The (sample id, epoch) order Inspect runs an eval's samples in: epoch by epoch."""
    ids = [str(i) for i in spec.dataset.sample_ids or []]
    return [(sample_id, epoch) for epoch in range(1, (spec.config.epochs or 1) + 1) for sample_id in ids]


def uses_human(spec: EvalSpec) -> bool:
    roles = spec.model_roles or {}
    return spec.model == MODEL or any(role.model == MODEL for role in roles.values())


@hooks(
    name="human_desk",
    description="Keeps a person's run blind (no live scores) and tells the uxbench/human page its plan.",
)
class HumanRuns(Hooks):
    """Feeds each live desk the run plans (for "item 4 of 50"), the logged samples (a pause waits for
    them) and the runs' ends (for the last screen); turns off the live scores of a person's run."""

    def enabled(self) -> bool:
        return len(_desks) > 0

    async def on_task_start(self, data: TaskStart) -> None:
        if uses_human(data.spec):
            # Inspect reads this setting just after the hook, to decide whether its display shows
            # running metrics: a person must not see avg_acc move after each answer.
            data.spec.config.score_display = False
            _task_ids[data.eval_id] = data.spec.task_id
            for desk in list(_desks):
                desk.run_started(data.eval_id, planned(data.spec))

    async def on_sample_end(self, data: SampleEnd) -> None:
        for desk in list(_desks):
            desk.sample_ended(data.eval_id, str(data.sample.id), data.sample.epoch)

    async def on_run_end(self, data: RunEnd) -> None:
        # The run's end, not each task's: a task that fails (a pause) has no task-end event.
        for log in data.logs:
            paused_by = [desk.annotator for desk in list(_desks) if desk.paused(log.eval.eval_id)]
            if paused_by and log.status == "error":
                tidy_paused_log(log, paused_by[0])  # before the page hears the end: the log is final
            for desk in list(_desks):
                desk.run_ended(log.eval.eval_id, log.status, log.location)


def _number(name: str, value: object, kind: type[float] | type[int]) -> Any:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or math.isnan(number) or (kind is int and not number.is_integer()):
        raise DataError(f"{MODEL}: {name}={value!r}: give {'a whole' if kind is int else 'a'} number")
    return kind(number)


def study_of(
    annotator: str,
    team: str | list[str] | None,
    overlap: object,
    seed: object,
    gold: str | None,
    guidelines: str | None,
) -> Study:
    """The study settings from the model args, files checked now: a wrong path stops before any page."""
    names = team.split(",") if isinstance(team, str) else [str(n) for n in team or []]
    if gold is not None:
        check_regular(Path(str(gold)).expanduser(), "gold")
    text = None
    if guidelines is not None:
        text = read_text(Path(str(guidelines)).expanduser(), "guidelines", limit=MAX_GUIDELINES_BYTES)
        if not text.strip():
            raise DataError(f"{MODEL}: guidelines={guidelines}: the file is empty")
    return Study(
        annotator,
        tuple(n.strip() for n in names if n.strip()),
        _number("overlap", overlap, float),
        _number("seed", seed, int),
        str(Path(str(gold)).expanduser().resolve()) if gold is not None else None,
        str(Path(str(guidelines)).expanduser().resolve()) if guidelines is not None else None,
        text,
    )


class HumanAPI(ModelAPI):
    """A person at a local web page, answering verdicts on judge and GRM prompts."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        annotator: str | None = None,
        port: int = 0,
        undo_seconds: float = 4.0,
        template: str | None = None,
        team: str | list[str] | None = None,
        overlap: float = 1.0,
        seed: int = 0,
        gold: str | None = None,
        guidelines: str | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, config=config or GenerateConfig())
        if model_args:
            raise DataError(
                f"{MODEL}: unknown model argument(s) {', '.join(model_args)} "
                "(known: annotator, port, undo_seconds, template, team, overlap, seed, gold, guidelines)"
            )
        if annotator is None or not str(annotator).strip():
            raise DataError(
                f"{MODEL}: say who is answering with -M annotator=NAME (as a grader: "
                f"--model-role 'grader={{model: {MODEL}, model_args: {{annotator: NAME}}}}')"
            )
        self.annotator = str(annotator).strip()
        self.study = study_of(self.annotator, team, overlap, seed, gold, guidelines)
        self.templates = builtin_templates()
        if template is not None:
            self.templates = (load_template(template), *self.templates)
        self.desk = Desk(self.annotator, float(undo_seconds), self.study.guidelines_text)
        _desks.add(self.desk)
        self.server = LocalServer(judging_app(self.desk), int(port), name=f"uxbench-human-{self.annotator}")
        self.server.start()
        self._announced: set[str | None] = set()
        self._stopped: set[str | None] = set()
        if display_type() != "full":  # the full-screen display prints it in its Console tab
            print(self._link(), file=sys.stderr, flush=True)

    def _link(self) -> str:
        return f"{MODEL}: {self.annotator}, answer at {self.server.url}"

    def _announce(self, eval_id: str | None) -> None:
        """Show the link inside Inspect's display: its full-screen view hides what was printed before,
        so there (only) the link is printed now, once, into its Console tab."""
        if eval_id in self._announced:
            return
        first = not self._announced
        self._announced.add(eval_id)
        display_counter(f"{MODEL} ({self.annotator})", self.server.url)
        if first and display_type() == "full":
            print(self._link(), flush=True)  # lands in the display's Console tab

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        if tools:
            raise DataError(f"{MODEL} cannot call tools; it answers verdicts on judge and GRM prompts")
        user_turns = [m.text for m in input if m.role == "user"]
        prompt = read_judge_prompt(user_turns[-1] if user_turns else "", self.templates)
        if prompt is None:
            raise DataError(
                f"{MODEL} answers verdicts on UXBench judge and GRM prompts (Task 1, or as the "
                "grader of Tasks 2/3); this prompt is neither. For your own template pass -M template=FILE"
            )
        active = sample_active()
        self._check_planned(active)
        self._announce(active.eval_id if active else None)
        item = self.desk.add(
            item_view(prompt),
            eval_id=active.eval_id if active else None,
            sample_id=str(active.sample.id) if active else None,
            epoch=active.epoch if active else 1,
            location=active.log_location if active else None,
        )
        try:
            answer = await anyio.to_thread.run_sync(item.future.result, abandon_on_cancel=True)
        except Paused as paused:
            await self._stop(active.eval_id if active else None, str(paused))
            raise Paused(str(paused)) from None
        finally:
            self.desk.withdraw(item)
        text = verdict_text(prompt.template, answer.label) if answer.label else ""
        output = ModelOutput.from_content(self.model_name, text)
        output.time = answer.seconds
        output.metadata = {
            "annotator": self.annotator,
            "label": answer.label,
            "skipped": answer.label is None,
            "item": item.number,
            "seconds": round(answer.seconds, 1),
            **({"guidelines": self.desk.guidelines_sha} if self.desk.guidelines_sha else {}),
        }
        return output

    def _check_planned(self, active: Any) -> None:
        """Study settings need the task to have kept this person's share (and the guidelines): refuse
        to answer a record the task did not plan for (a task built before the eval never asked)."""
        if not self.study.is_set() or active is None:
            return
        if "assignment" not in (active.sample.metadata or {}):
            raise DataError(
                f"{MODEL}: team=, gold= and guidelines= need the task built inside the eval, which "
                f"then keeps {self.annotator}'s share of the records and the guidelines: run it by name "
                "(inspect eval uxbench/task1_judge …, or eval('uxbench/task1_judge', task_args=…)), "
                "not as a Task object made beforehand"
            )

    async def _stop(self, eval_id: str | None, message: str) -> None:
        """End a paused run as a cancel (one line on the console, the answers kept), not a traceback.

        Returns only when the run cannot be cancelled so: the caller then raises `Paused`.
        """
        task_id = _task_ids.get(eval_id or "")
        if task_id is None or not stop_task(task_id):
            return
        if eval_id not in self._stopped:
            self._stopped.add(eval_id)
            print(f"{MODEL}: {message}", file=sys.stderr, flush=True)
        await anyio.sleep_forever()  # the cancel ends this sample with the rest

    def max_connections(self) -> int:
        """Two: the next item is ready while the last answer can still be undone (see the desk)."""
        return 2

    def close(self) -> None:
        self.desk.close()  # the page's long poll hears it before the server stops (a graceful stop)
        self.server.stop()
        _desks.discard(self.desk)
