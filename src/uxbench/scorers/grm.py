"""The GRM scorer: ask the `grader` model role whether the user would like the reply.

The protocol: docs/protocol.md#grm-scoring.

Reusable by any suite as `uxbench/grm`: the conversation comes from the sample's input
(everything before the last user message is context, that message is the question) and the
graded reply is the model's output. Inputs the grader cannot fit are retried down a
truncation ladder, and the rung used is recorded. Several graders bound as `grader`,
`grader_2`, … judge as a panel (`uxbench.grader_answer.panel`).

Grader calls obey the run's `--attempt-timeout`, `--timeout`, `--max-retries`, `--batch` and
`--cache` like the model under test's calls (a grader role bound with its own values keeps
them). A grader error is never a verdict (`uxbench.grader_answer.faults`): a reply that is no
answer — an HTTP 200 error body, no choices, a choice without a message — is retried like a
5xx under those limits, and when it persists the sample errors with the provider's message, so
`inspect eval-retry` redoes it; an error every call repeats (401/403/404, an unknown model,
logprobs refused) ends the run at the first sample with one message. A reply whose logprobs are
null is asked again without logprobs (a verdict without a score). `grade` turns one prompt into
a Judgment on its own, for any solver or scorer that needs a grader's verdict.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, Literal

from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
    model_roles,
)
from inspect_ai.scorer import Metric, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import collect
from pydantic import ValidationError

from uxbench.data.records import ROLES, Turn
from uxbench.data.templates import Template, load_template, template_path
from uxbench.grader_answer.faults import configuration, context_length, provider_message, reply_problem
from uxbench.grader_answer.logprobs import constrained
from uxbench.grader_answer.panel import grader_agreement, panel_verdict
from uxbench.grader_answer.prompt_logprobs import rescore
from uxbench.grader_answer.reading import (
    BAD,
    FAILED,
    GOOD,
    Judgment,
    judge,
    reasoning_end,
    unreadable_logprobs,
    verdict_at,
)
from uxbench.grader_prompt.addressing import addresses_grader
from uxbench.qualification.published import replayed_grader
from uxbench.runtime._inspect import OpenAIResponseError, key_cache_by_epoch, run_config
from uxbench.runtime.docs import docs_url
from uxbench.runtime.errors import DataError
from uxbench.runtime.roles import grader_roles
from uxbench.runtime.surrogates import replace_lone_surrogates
from uxbench.scorers.metrics import (
    bad_score_mean,
    breakdown,
    delta_score,
    fail_rate,
    good_pct,
    good_pct_stderr,
    good_pct_valid,
    good_score_mean,
    headline_stderr,
    no_logprob_rate,
    score_mean,
    score_median,
    score_skipped,
)
from uxbench.scorers.shown import shown_raw

GRADER_ROLE = "grader"
# §5: one deterministic short answer with the five most likely alternatives per token. A grader
# role bound with its own generate config (`--model-role 'grader={model: ..., max_tokens: 64}'`,
# e.g. for a reasoning model) overrides these; the task's generation flags never do.
GRM_CONFIG = GenerateConfig(temperature=0, max_tokens=4, logprobs=True, top_logprobs=5)
# what a call without logprobs changes (a provider whose logprobs Inspect cannot read)
NO_LOGPROBS = {"logprobs": False, "top_logprobs": None}
ANSWER_CHARS = 100  # of the graded reply, in the score's `answer` (the sample list of `inspect view`)
GROUP_KEYS = ["scenario", "failure_dimension", "difficulty"]
DEFAULT_TEMPLATE = "grm_pointwise.txt"
CUT_MARK = "……（后文已截断）"
OMITTED_TURNS = "（更早的 {n} 轮对话已省略）"

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rung:
    """How much of the conversation one grading attempt keeps (None = all of it)."""

    turns: int | None = None  # last N context turns
    context_chars: int | None = None  # characters of each context turn
    query_chars: int | None = None
    response_chars: int | None = None

    def describe(self) -> str:
        """What the grader saw at this rung, in words."""
        parts = [
            f"{label} {value:,}{unit}"
            for label, value, unit in (
                ("the last", self.turns, " context turns"),
                ("each context turn cut to", self.context_chars, " characters"),
                ("the question cut to", self.query_chars, " characters"),
                ("the reply cut to", self.response_chars, " characters"),
            )
            if value is not None
        ]
        return ", ".join(parts) or "the whole conversation"


# §5 ladders. Task 2: (history turns, reply chars). Task 3: (failed-reply chars, complaint
# chars, reply chars); its turn limits only matter when the grader sees the full history.
LADDERS: dict[str, tuple[Rung, ...]] = {
    "eval": (Rung(), Rung(turns=6, response_chars=4000), Rung(turns=3, response_chars=2000)),
    "recovery": (
        Rung(),
        Rung(turns=6, context_chars=4000, query_chars=1000, response_chars=4000),
        Rung(turns=3, context_chars=2000, query_chars=500, response_chars=2000),
    ),
}


def grm_metrics(headline: Metric | None = None, baseline: bool = False) -> list[Metric]:
    """The GRM metric family; `headline` replaces good_pct (Task 3 names it recovery_rate)."""
    metrics = [
        headline or good_pct(),
        headline_stderr("good_pct"),
        good_pct_valid(),
        fail_rate(),
        score_mean(),
        score_median(),
        good_score_mean(),
        bad_score_mean(),
        good_pct_stderr(),
        no_logprob_rate(),
        score_skipped(),
        breakdown(GROUP_KEYS),
        grader_agreement(),
    ]
    return [*metrics, delta_score()] if baseline else metrics


@dataclass(frozen=True)
class Graded:
    judgment: Judgment
    raw: str  # the grader's answer, or the error that ended the ladder
    rung: int | None  # ladder rung that got an answer; None when none did
    answered: bool
    replaced: int = 0  # half characters (lone surrogates) in the grader's answer, read as U+FFFD


def missing_grader() -> DataError:
    """The one line that says which flag binds a grader."""
    return DataError(
        "no grader model: bind one with --model-role grader=<model> (for example "
        "grader=vllm/mengze-hong/UXBench-GRM or grader=openai-api/<service>/<model>), or pass "
        "-T self_grade=true to let the model under test grade its own replies (judges favour "
        f"their own family, {docs_url('protocol.md#grm-scoring')})"
    )


def grader_model(self_grade: bool = False) -> Model:
    """The `grader` role's model; the model under test only on explicit opt-in."""
    if self_grade:
        return get_model()  # inspect-evals-lint: ignore[IEBP001] -- per sample: require_grader, grm
    if GRADER_ROLE not in model_roles():
        raise missing_grader()
    return get_model(role=GRADER_ROLE, required=True)  # inspect-evals-lint: ignore[IEBP001] -- per sample


def grading_config(
    grader: Model, self_grade: bool = False, choices: list[str] | None = None
) -> GenerateConfig:
    """One grading call's config: the run's time and retry limits, batch and cache settings, then
    §5's settings, then the grader role's own config (which wins). Self-grading skips the model's
    config: it holds the task's generation flags, which are not for grading. With `choices`, the
    server is asked to answer exactly one of them (vLLM's structured outputs, `constrain`).

    Inspect gives a model bound to another role the run's `cache` but not its `batch` or
    `attempt_timeout` (`Model._resolve_config`): passed here, `--batch` batches the grader's
    calls too and `--cache` keeps a resumed or re-scored run from paying for a grading call twice
    (docs/running.md#batch-cache-and-cost). `inspect score` sets no run config; it re-creates the
    model under test with the logged one, so batch and cache are read from it there."""
    run = run_config()
    # `inspect score` sets no run config: the run's settings are then the re-created model's
    logged = get_model().config  # inspect-evals-lint: ignore[IEBP001] -- per sample, the active model
    limits = GenerateConfig(
        attempt_timeout=run.attempt_timeout,
        timeout=run.timeout,
        max_retries=run.max_retries,
        batch=run.batch if run.batch is not None else logged.batch,
        cache=run.cache if run.cache is not None else logged.cache,
    )
    config = limits.merge(GRM_CONFIG)
    config = config if self_grade else config.merge(grader.config)
    return constrained(config, choices) if choices else config


def label_choices(template: Template) -> list[str]:
    """The good and bad labels' spellings: what a constrained grader may answer."""
    return [s for name in (GOOD, BAD) for s in template.labels[name]]


def conversation(state: TaskState) -> tuple[Turn, ...]:
    """The sample's conversation (its input, not the prompts solvers added), as turns."""
    messages: list[ChatMessage] = (
        [ChatMessageUser(content=state.input)] if isinstance(state.input, str) else list(state.input)
    )
    return tuple(Turn(m.role, m.text) for m in messages if m.role in ROLES)


def readable(turns: tuple[Turn, ...], reply: str) -> tuple[tuple[Turn, ...], str, int]:
    """The conversation and the reply with each half character (a lone surrogate, which no
    request to the grader can encode) replaced by U+FFFD, and how many were replaced."""
    text, count = replace_lone_surrogates(reply)
    kept = []
    for turn in turns:
        content, n = replace_lone_surrogates(turn.content)
        kept.append(replace(turn, content=content))
        count += n
    return tuple(kept), text, count


def split_question(turns: tuple[Turn, ...]) -> tuple[tuple[Turn, ...], str]:
    """Context and question: the last user turn is the question, the turns before it the context."""
    last_user = max((i for i, t in enumerate(turns) if t.role == "user"), default=None)
    if last_user is None:
        return turns, ""
    return turns[:last_user], turns[last_user].content


def final_reply(text: str, marker: str | None) -> tuple[str, bool]:
    """What the user reads: after any reasoning block, and after the last `marker` when one is set."""
    text = text[reasoning_end(text) :]
    if marker is None:
        return text.strip(), False
    _, found, tail = text.rpartition(marker)
    return (tail.strip().lstrip(":：").strip(), True) if found else (text.strip(), False)


def cut(text: str, limit: int | None) -> str:
    return text if limit is None or len(text) <= limit else text[:limit] + CUT_MARK


def render(template: Template, context: tuple[Turn, ...], query: str, response: str, rung: Rung) -> str:
    """The grader's prompt at one rung, with cut text and omitted turns marked."""
    kept = context[-rung.turns :] if rung.turns is not None else context
    history = template.history_text([Turn(t.role, cut(t.content, rung.context_chars)) for t in kept])
    if len(kept) < len(context):
        history = OMITTED_TURNS.format(n=len(context) - len(kept)) + "\n\n" + history
    return template.render(
        history=history, query=cut(query, rung.query_chars), response=cut(response, rung.response_chars)
    )


def _refused(grader: Model, error: BaseException) -> GraderConfigError:
    return GraderConfigError(
        f"grader {grader}: every call is refused, so the run stops: {provider_message(error)} "
        "(check the grader's --model-role binding, its API key and whether it returns logprobs)"
    )


class GraderError(DataError):
    """The grader gave no answer; the sample errors with this message (never a verdict)."""


class GraderConfigError(DataError):
    """An error every call to the grader repeats: the run stops at the first one."""


def watch_replies(grader: Model) -> Model:
    """Make an OpenAI-compatible grader raise a retryable error for a 200 body that is no answer.

    Inspect reads such a body as a TypeError (not retried, the provider's message lost). Its
    OpenRouter provider checks bodies in the `on_response` hook; this adds the same check to
    any provider that has the hook (openai-api/*, vllm/*, sglang/*, …), keeping its own.
    """
    hook = getattr(grader.api, "on_response", None)
    if hook is None or getattr(hook, "watches_replies", False):
        return grader

    def on_response(response: dict[str, Any]) -> None:
        problem = reply_problem(response)
        if problem is not None:
            raise OpenAIResponseError("server_error", problem)
        hook(response)

    on_response.watches_replies = True  # type: ignore[attr-defined]
    grader.api.on_response = on_response  # type: ignore[attr-defined]
    return grader


async def generate_once(model: Model, prompt: str, config: GenerateConfig) -> ModelOutput:
    """One grading call; asked again without logprobs when the reply's logprobs cannot be read.

    A reply Inspect cannot read at all (a provider without the `on_response` check) raises
    GraderError with what Inspect said.
    """
    messages: list[ChatMessage] = [ChatMessageUser(content=prompt)]
    try:
        try:
            return await model.generate(messages, config=config)
        except ValidationError as error:
            if not unreadable_logprobs(error):
                raise
        return await model.generate(messages, config=config.model_copy(update=NO_LOGPROBS))
    except (TypeError, AttributeError) as error:  # no choices or no message: Inspect cannot read it
        raise GraderError(f"grader {model}: the grader's reply could not be read ({error})") from error


async def grade(
    grader: Model,
    config: GenerateConfig,
    template: Template,
    context: tuple[Turn, ...],
    query: str,
    response: str,
    ladder: tuple[Rung, ...],
    constrain: bool = False,
) -> Graded:
    """Ask the grader, cutting the input down the ladder while it is rejected as too long.

    Only a context-length rejection climbs the ladder; any other grader error is raised (the
    sample errors), a configuration error as GraderConfigError. With `constrain` (the server
    was asked to answer a label) a good / bad verdict is scored from the server's prompt
    logprobs of both labels after the answer's text before the verdict.
    """
    problem = ""
    failed = Judgment(FAILED, None, None, None, has_logprobs=False)
    for number, rung in enumerate(ladder):
        prompt = render(template, context, query, response, rung)
        try:
            output = await generate_once(grader, prompt, config)
        except GraderError:
            raise
        except Exception as error:
            if configuration(error):
                raise _refused(grader, error) from error
            if not context_length(error):
                raise GraderError(f"grader {grader}: {provider_message(error)}") from error
            problem = provider_message(error)
            continue
        if not output.choices:
            raise GraderError(f"grader {grader}: the grader's reply had no choices")
        if output.stop_reason == "model_length":
            problem = output.completion
            continue
        text, replaced = replace_lone_surrogates(output.completion)
        if replaced:
            output = output.model_copy(deep=True)
            output.completion = text
        judgment = judge(output, template.labels)
        if constrain and judgment.verdict != FAILED:
            messages: list[ChatMessage] = [ChatMessageUser(content=prompt)]
            offset = verdict_at(text, template.labels)[1]
            try:
                judgment = judgment.scored(
                    await rescore(grader, messages, output, offset, template.labels, config)
                )
            except Exception as error:  # the scoring calls fail as the grading call would
                if configuration(error):
                    raise _refused(grader, error) from error
                raise GraderError(
                    f"grader {grader}: scoring the labels: {provider_message(error)}"
                ) from error
        return Graded(judgment, text, number, answered=True, replaced=replaced)
    return Graded(failed, f"grader rejected the input at every rung: {problem}", None, answered=False)


def _facts(graded: Graded, prefix: str = "") -> dict[str, object]:
    j = graded.judgment
    # the verdict, P(good), the grader's answer and the rung lead (inspect view lists them in order)
    return {
        f"{prefix}verdict": j.verdict,
        f"{prefix}score": j.score,
        f"{prefix}raw": shown_raw(graded.raw),
        f"{prefix}rung": graded.rung,
        f"{prefix}logprobs": j.has_logprobs if graded.answered else None,
        f"{prefix}logprob_good": j.logprob_good,
        f"{prefix}logprob_bad": j.logprob_bad,
        f"{prefix}top_logprobs": [{"token": token, "logprob": lp} for token, lp in j.alternatives],
        f"{prefix}answer_replaced_surrogates": graded.replaced,
        **({f"{prefix}score_skipped": j.problem} if j.problem else {}),
    }


PUBLISHED_GRADE = "UXBench-GRM's published grade of this reply, looked up by record (the reply is not read)"


def _explain(graded: Graded, what: str, ladder: tuple[Rung, ...], grader: str = "") -> str:
    j = graded.judgment
    score = "no score" if j.score is None else f"score P(good) {j.score:.3f}"
    if j.problem:
        score += f" ({j.problem})"
    raw = shown_raw(graded.raw)
    if replayed_grader(grader) is not None:  # replay-grm: no grader read the input
        answer = f"answered {raw!r} → {j.verdict}, {score}" if graded.answered else f"{FAILED} ({raw})"
        return f"{what}: {answer}; {PUBLISHED_GRADE}"
    if graded.rung is None:
        return f"{what}: {FAILED} ({raw}; tried every rung of the truncation ladder)"
    if graded.rung == 0:
        rung = "the grader saw the whole input (truncation ladder rung 0)"
    else:
        rung = (
            f"the full input was too long for the grader, so it saw {ladder[graded.rung].describe()} "
            f"(truncation ladder rung {graded.rung})"
        )
    if not graded.answered:
        return f"{what}: {FAILED} ({raw}); {rung}"
    note = "" if j.has_logprobs else ", no usable logprobs returned"
    return f"{what}: grader answered {raw!r} → {j.verdict}, {score}{note}; {rung}"


def grader_panel(self_grade: bool = False) -> list[tuple[str, Model]]:
    """(role, model) of each grader: every bound `grader`, `grader_2`, … role, or the one grader."""
    roles = grader_roles(model_roles())
    if len(roles) < 2:
        return [(GRADER_ROLE, watch_replies(grader_model(self_grade)))]
    return [
        (
            role,
            watch_replies(get_model(role=role, required=True)),
        )  # inspect-evals-lint: ignore[IEBP001] -- per sample
        for role in roles
    ]


async def judge_reply(
    panel: list[tuple[str, Model]],
    self_grade: bool,
    template: Template,
    context: tuple[Turn, ...],
    query: str,
    response: str,
    ladder: tuple[Rung, ...],
    prefix: str = "",
    constrain: bool = False,
) -> tuple[dict[str, object], str]:
    """Score metadata and explanation of one reply: one grader's judgment, or a panel's
    (uxbench.grader_answer.panel)."""
    what = "earlier reply" if prefix else "reply"

    choices = label_choices(template) if constrain else None

    async def ask(grader: Model) -> Graded:
        config = grading_config(grader, self_grade, choices)
        return await grade(grader, config, template, context, query, response, ladder, constrain)

    if len(panel) == 1:
        graded = await ask(panel[0][1])
        return _facts(graded, prefix), _explain(graded, what, ladder, str(panel[0][1]))
    gradeds = await collect(*(ask(model) for _, model in panel))
    verdict, score = panel_verdict([(g.judgment.verdict, g.judgment.score) for g in gradeds])
    answered = [g.judgment.has_logprobs for g in gradeds if g.answered]
    members = [
        {"role": role, "grader": str(model), **_facts(g)}
        for (role, model), g in zip(panel, gradeds, strict=True)
    ]
    skipped = [
        f"{role}: {g.judgment.problem}"
        for (role, _), g in zip(panel, gradeds, strict=True)
        if g.judgment.problem
    ]
    facts = {
        f"{prefix}verdict": verdict,
        f"{prefix}score": score,
        f"{prefix}logprobs": all(answered) if answered else None,
        f"{prefix}graders": members,
        **({f"{prefix}score_skipped": "; ".join(skipped)} if skipped and score is None else {}),
    }
    lines = [
        _explain(g, f"{what} ({role})", ladder, str(model))
        for (role, model), g in zip(panel, gradeds, strict=True)
    ]
    mean = "no score" if score is None else f"mean score {score:.3f}"
    return facts, "\n".join([*lines, f"{what}: panel of {len(panel)} → {verdict}, {mean}"])


def answer_text(verdict: str, reply: str) -> str:
    """The score's `answer`: the verdict and the start of the graded reply, as `inspect view` lists it."""
    text = " ".join(reply.split())
    return f"{verdict}: {text[:ANSWER_CHARS]}…" if len(text) > ANSWER_CHARS else f"{verdict}: {text}"


@scorer(metrics=grm_metrics())
def grm(
    template: str | None = None,
    ladder: Literal["eval", "recovery"] = "eval",
    context_turns: int | None = None,
    answer_marker: str | None = None,
    baseline: bool = False,
    self_grade: bool = False,
    constrain: bool = False,
) -> Scorer:
    """Grade the reply with the GRM protocol: value 1 when the grader says the user would like it.

    Args:
        template: grader prompt template: a built-in name (grm_pointwise, the default: our
            Chinese pointwise 好/差 prompt) or the path of your own.
        ladder: truncation ladder for too-long inputs: eval (Task 2) or recovery (Task 3).
        context_turns: show the grader only the last N context turns (None: all).
        answer_marker: grade only the text after the last occurrence of this marker.
        baseline: also grade the assistant reply just before the user's question, in its own
            place in the conversation (Task 3: the failed reply), for `delta_score`.
        self_grade: grade with the model under test instead of the `grader` role.
        constrain: ask the grader's server to answer only a label (vLLM's structured outputs)
            and read P(good) back from its prompt logprobs of both labels, so any open model
            served by vLLM is a well-formed grader (docs/graders.md#an-open-model-as-the-grader).
            Off: the grader is asked exactly as §5 asks UXBench-GRM.
    """
    grader_template = load_template(template_path(template or DEFAULT_TEMPLATE))
    if ladder not in LADDERS:
        raise DataError(f"ladder={ladder!r}: choose one of {', '.join(LADDERS)}")
    rungs = LADDERS[ladder]

    def shown(context: tuple[Turn, ...]) -> tuple[Turn, ...]:
        if context_turns is None:
            return context
        return context[-context_turns:] if context_turns > 0 else ()

    async def score(state: TaskState, target: Target) -> Score:
        key_cache_by_epoch(state.epoch)  # `inspect score` finds the gradings the run cached
        panel = grader_panel(self_grade)
        turns, said, replaced = readable(conversation(state), state.output.completion)
        if replaced:
            logger.warning("uxbench: sample %s: %d half character(s) in the graded text read as U+FFFD",
                           state.sample_id, replaced)  # fmt: skip
        context, query = split_question(turns)
        reply, marked = final_reply(said, answer_marker)
        metadata, explanation = await judge_reply(
            panel, self_grade, grader_template, shown(context), query, reply, rungs, constrain=constrain
        )
        metadata["grader"] = ", ".join(str(model) for _, model in panel)
        metadata["replaced_surrogates"] = replaced
        metadata["addresses_grader"] = addresses_grader(reply, grader_template)
        if answer_marker is not None:
            metadata |= {"marker_found": marked, "graded_response": reply}
        if baseline and context and context[-1].role == "assistant":
            earlier, earlier_query = split_question(context[:-1])
            previous, said = await judge_reply(
                panel,
                self_grade,
                grader_template,
                shown(earlier),
                earlier_query,
                context[-1].content,
                rungs,
                "baseline_",
                constrain,
            )
            metadata |= previous
            explanation += "\n" + said
        verdict = str(metadata["verdict"])
        return Score(
            value=1 if verdict == GOOD else 0,
            answer=answer_text(verdict, reply),
            explanation=explanation,
            metadata=metadata,
        )

    return score
