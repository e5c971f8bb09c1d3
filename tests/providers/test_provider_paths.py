"""The common provider paths, each on its own wire format, served on 127.0.0.1.

With Inspect 0.3.285, `openai-api/<service>/<model>` (and `openai/gpt-4o`-style names) speak
Chat Completions, `openai/gpt-5*` and names Inspect does not recognise speak the Responses
API (logprobs via `include: ["message.output_text.logprobs"]` and `top_logprobs`), and
`anthropic/<model>` speaks the Messages API, which has no logprobs. The same answers, with
the same token logprobs, must give the same verdicts, GRM scores and calibration metrics
over Chat Completions and Responses; over Anthropic the verdicts are the same and the
scores take the documented no-logprob path.
"""

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.grm import metric_values, write_data
from helpers.localserver import (
    RESPONSES_LOGPROBS,
    AnthropicServer,
    OpenAIServer,
    Reply,
    ResponsesServer,
    TokenLogprob,
    prompt_text,
)
from helpers.records import judge_records, write_jsonl
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

from uxbench.data.dataset import RELEASE_FILES
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

pytestmark = pytest.mark.integration


ln = math.log
# (server, model under test, grader) for each wire format
PATHS: dict[str, tuple[type[OpenAIServer], str, str]] = {
    "chat": (OpenAIServer, "openai-api/local/m", "openai-api/local/grm"),
    "responses": (ResponsesServer, "openai/gpt-5.2", "openai/mengze-hong/UXBench-GRM"),
    "anthropic": (AnthropicServer, "anthropic/claude-sonnet-4-5", "anthropic/claude-opus-4-7"),
}
UNDER_TEST = {"m", "gpt-5.2", "claude-sonnet-4-5"}  # request["model"] of the model under test
SPLIT = {"好": (b"\xe5", b"\xa5\xbd"), "差": (b"\xe5", b"\xb7\xae")}  # UTF-8 halves, first byte shared


def labelled(n: int, p_good: float) -> tuple[str, list[TokenLogprob]]:
    """An answer preferring 好 with probability p_good, its logprobs in one of five spellings."""
    label = "好" if p_good >= 0.5 else "差"
    chosen = p_good if label == "好" else 1 - p_good
    both = [("好", ln(p_good)), ("差", ln(1 - p_good))]
    match n % 5:
        case 0:  # both labels among the alternatives
            return label, [(label, ln(chosen), both)]
        case 1:  # only the chosen label listed (one-sided score)
            return label, [(label, ln(chosen), [(label, ln(chosen)), ("嗯", ln(0.01))])]
        case 2:  # a leading space inside the token
            return label, [(" " + label, ln(chosen), [(" " + t, lp) for t, lp in both])]
        case 3:  # split into byte tokens, followed along the generated path
            tops = [(SPLIT["好"][1], ln(p_good)), (SPLIT["差"][1], ln(1 - p_good))]
            return label, [
                (SPLIT[label][0], ln(0.98), [(SPLIT[label][0], ln(0.98))]),
                (SPLIT[label][1], ln(chosen), tops),
            ]
        case _:  # a newline token before the answer
            return "\n" + label, [("\n", ln(0.9), [("\n", ln(0.9))]), (label, ln(chosen), both)]


def respond(request: dict[str, Any]) -> Reply:
    """Every server's responder: the judge's, the writer's or the grader's answer for the
    record named in the prompt; the Responses provider's one-off capability probe (no
    record in it) gets a plain answer."""
    prompt = prompt_text(request)
    judged, record = re.search(r"(GOOD|BAD)REPLY (\d+)", prompt), re.search(r"#(\d+)#", prompt)
    if judged:
        return judge_answer(int(judged.group(2)) + (1000 if judged.group(1) == "BAD" else 0))
    if record is None:
        return Reply("hello, world")
    n = int(record.group(1))
    return Reply(f"修正后的回复 #{n}#") if request["model"] in UNDER_TEST else grader_answer(n)


def judge_answer(n: int) -> Reply:
    p_good = 0.1 + 0.8 * ((n * 37) % 100) / 100 + (0.08 if n < 1000 else -0.08)
    text, logprobs = labelled(n, min(max(p_good, 0.02), 0.98))
    return Reply(text, logprobs)


def grader_answer(n: int) -> Reply:
    if n % 7 == 6:  # neither label: a failed judgment
        return Reply("嗯", [("嗯", ln(0.9), [("嗯", ln(0.9)), ("啊", ln(0.05))])])
    text, logprobs = labelled(n, 0.05 + 0.9 * ((n * 53) % 100) / 100)
    return Reply(text, logprobs)


def role(request: dict[str, Any]) -> str:
    """Which part a request plays: judge (Task 1), writer (Tasks 2/3), grader, or probe."""
    prompt = prompt_text(request)
    if re.search(r"(GOOD|BAD)REPLY", prompt):
        return "judge"
    if not re.search(r"#\d+#", prompt):
        return "probe"
    return "writer" if request["model"] in UNDER_TEST else "grader"


@dataclass
class Run:
    logs: dict[str, EvalLog]  # by task name
    requests: dict[str, list[dict[str, Any]]]  # by role


def run(path: str, tasks: list[Task], log_dir: Path) -> Run:
    """The tasks, with the model under test and the grader both on `path`'s server."""
    server_type, model, grader = PATHS[path]
    with server_type(respond) as server:
        models = {name: get_model(name, base_url=server.url, api_key="test-key") for name in (model, grader)}
        logs = eval(
            tasks,
            model=models[model],
            model_roles={"grader": models[grader]},
            logprobs=True,  # Task 1's --logprobs --top-logprobs 5
            top_logprobs=5,
            max_tasks=len(tasks),
            log_dir=str(log_dir / path),
            display="none",
        )
    assert [log.status for log in logs] == ["success"] * len(tasks), [log.error for log in logs]
    by_role: dict[str, list[dict[str, Any]]] = {}
    for request in server.requests:
        by_role.setdefault(role(request), []).append(request)
    return Run({log.eval.task.split("/")[-1]: log for log in logs}, by_role)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """All three tasks on each wire format: 20 Task 1 records, 14 each for Tasks 2 and 3."""
    data = write_data(tmp_path_factory.mktemp("data"), task2=14, task3=14)
    good, bad = judge_records(10, 10)
    write_jsonl(data / RELEASE_FILES["task1_judge_good"], good)
    write_jsonl(data / RELEASE_FILES["task1_judge_bad"], bad)
    log_dir = tmp_path_factory.mktemp("logs")
    tasks = [task1_judge(data=str(data)), task2_eval(data=str(data)), task3_recovery(data=str(data))]
    return {path: run(path, tasks, log_dir) for path in PATHS}


def scores(log: EvalLog) -> dict[str, tuple[Any, ...]]:
    """Per sample: the score's value, answer and metadata (less the grader's name)."""
    by_sample = {}
    for sample in log.samples or []:
        [score] = (sample.scores or {}).values()
        metadata = {k: v for k, v in (score.metadata or {}).items() if k != "grader"}
        by_sample[str(sample.id)] = (score.value, score.answer, metadata)
    return by_sample


def same_numbers(a: dict[str, float], b: dict[str, float]) -> bool:
    return a.keys() == b.keys() and all(a[k] == pytest.approx(b[k], abs=1e-12) for k in a)


def test_task1_over_responses_equals_chat_completions(runs: dict[str, Run]) -> None:
    chat, responses = runs["chat"], runs["responses"]
    assert all(r["logprobs"] is True and r["top_logprobs"] == 5 for r in chat.requests["judge"])
    judged = responses.requests["judge"]
    assert len(judged) == 20
    assert all(RESPONSES_LOGPROBS in r["include"] and r["top_logprobs"] == 5 for r in judged)
    assert scores(responses.logs["task1_judge"]) == scores(chat.logs["task1_judge"])
    values = metric_values(chat.logs["task1_judge"])
    assert values["p_good_rate"] == 1.0 and 0.5 < values["auroc"] < 1  # every answer had a P(good)
    assert same_numbers(metric_values(responses.logs["task1_judge"]), values)


def test_task1_over_anthropic_has_verdicts_without_probabilities(runs: dict[str, Run]) -> None:
    chat, anthropic = runs["chat"].logs["task1_judge"], runs["anthropic"].logs["task1_judge"]
    assert len(runs["anthropic"].requests["judge"]) == 20
    verdicts = {k: v[:2] for k, v in scores(chat).items()}
    assert {k: v[:2] for k, v in scores(anthropic).items()} == verdicts
    values = metric_values(anthropic)
    assert values["p_good_rate"] == 0.0 and "auroc" not in values
    for name in ("avg_acc", "good_acc", "bad_acc", "mcc", "kappa"):
        assert values[name] == metric_values(chat)[name]


def test_grm_tasks_with_a_responses_grader_equal_chat_completions(runs: dict[str, Run]) -> None:
    chat, responses = runs["chat"], runs["responses"]
    graded = responses.requests["grader"]
    assert len(graded) == 28 and {r["model"] for r in graded} == {"mengze-hong/UXBench-GRM"}
    for r in graded:
        assert RESPONSES_LOGPROBS in r["include"] and r["top_logprobs"] == 5
        assert r["max_output_tokens"] == 4 and r["temperature"] == 0
    written = responses.requests["writer"]
    assert {(r["temperature"], r["max_output_tokens"]) for r in written} == {(0.7, 2048)}
    for task in ("task2_eval", "task3_recovery"):
        assert scores(responses.logs[task]) == scores(chat.logs[task])
        assert same_numbers(metric_values(responses.logs[task]), metric_values(chat.logs[task]))
    values = metric_values(chat.logs["task2_eval"])
    assert values["no_logprob_rate"] == 0.0 and 0 < values["fail_rate"] < 1


def test_grm_tasks_with_an_anthropic_grader_take_the_no_logprob_path(runs: dict[str, Run]) -> None:
    chat, anthropic = runs["chat"], runs["anthropic"]
    graded = anthropic.requests["grader"]
    assert len(graded) == 28 and all(r["max_tokens"] == 4 for r in graded)
    for task, headline in (("task2_eval", "good_pct"), ("task3_recovery", "recovery_rate")):
        ours, theirs = anthropic.logs[task], chat.logs[task]
        assert {k: v[:2] for k, v in scores(ours).items()} == {k: v[:2] for k, v in scores(theirs).items()}
        assert all(meta["score"] is None and not meta["logprobs"] for _, _, meta in scores(ours).values())
        values = metric_values(ours)
        assert values["no_logprob_rate"] == 1.0 and "score_mean" not in values
        assert values[headline] == metric_values(theirs)[headline]
