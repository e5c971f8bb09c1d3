"""Inspect conventions: public APIs only, declared dependencies, and logs that Inspect's own
tools read well (`inspect view`'s log and sample lists, `inspect_ai.analysis` data frames)."""

import ast
import importlib.metadata
import math
import re
import sys
import tomllib
from pathlib import Path

import pytest
from helpers.grm import grader_output, record_number, write_data
from helpers.records import judge_records, write_jsonl
from inspect_ai import Task, eval, eval_retry
from inspect_ai._util.registry import registry_find, registry_info
from inspect_ai.analysis import SampleSummary, evals_df, samples_df
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelOutput, get_model

from uxbench.analysis import SCORE_COLUMNS
from uxbench.data.dataset import RELEASE_FILES
from uxbench.runtime.errors import DataError
from uxbench.scorers.grm import grm

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "uxbench"
PRIVATE = re.compile(r"^inspect_ai(\.\w+)*\._")
REPLY = "好的，下面是三个步骤。" * 20


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append(node.module)
    return found


def test_private_inspect_apis_only_in_one_documented_module() -> None:
    users = {
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if any(PRIVATE.match(name) for name in imports(path))
    }
    assert users == {"runtime/_inspect.py"}
    assert "reason" in (SRC / "runtime" / "_inspect.py").read_text(encoding="utf-8")


def test_data_error_is_public() -> None:
    assert not any(cls.__module__.startswith("inspect_ai") for cls in DataError.__mro__)
    assert str(DataError("prompt='x': choose one of a, b")) == "prompt='x': choose one of a, b"


# distribution names of the modules the package imports, where they differ
DISTRIBUTIONS = {
    "yaml": "pyyaml",
    "inspect_ai": "inspect-ai",
    "stdnum": "python-stdnum",
    "upath": "universal-pathlib",
}


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = [
        *project["dependencies"],
        *(s for extra in project["optional-dependencies"].values() for s in extra),
    ]
    return {re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].lower().replace("_", "-") for spec in specs}


def test_every_imported_package_is_declared() -> None:
    modules = {name.split(".")[0] for path in SRC.rglob("*.py") for name in imports(path)}
    third_party = modules - set(sys.stdlib_module_names) - {"uxbench", "__future__"}
    installed = importlib.metadata.packages_distributions()  # import name -> distributions
    wanted = {
        (installed.get(m) or [DISTRIBUTIONS.get(m, m)])[0].lower().replace("_", "-") for m in third_party
    }
    assert wanted - declared() == set()


def test_hooks_are_named_once_with_the_package_prefix() -> None:
    """Inspect prefixes a hook's name with its package: ours are `uxbench/<name>`, as it lists them."""
    import uxbench._registry  # noqa: F401  (registers the hooks)
    import uxbench.providers.human  # noqa: F401  (the desk's hook, registered when the provider loads)

    names = {registry_info(hook).name for hook in registry_find(lambda info: info.type == "hooks")}
    ours = {name for name in names if "uxbench" in name}
    assert ours == {
        "uxbench/epochs_reducer",
        "uxbench/freeze_startup_heap",
        "uxbench/redact_secrets",
        "uxbench/human_desk",
    }


# ---------------------------------------------------------------- logs for Inspect's tools


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    """Task 1 (a judge with logprobs, run with --logprobs) and Task 2, both created by the eval."""
    data = tmp_path_factory.mktemp("data")
    good, bad = judge_records(2, 2)
    write_jsonl(data / RELEASE_FILES["task1_judge_good"], good)
    write_jsonl(data / RELEASE_FILES["task1_judge_bad"], bad)
    write_data(data, task2=4)
    log_dir = tmp_path_factory.mktemp("logs")

    def judge(messages, *_) -> ModelOutput:
        liked = "GOODREPLY" in messages[-1].text
        return grader_output("好", 0.7, 0.3) if liked else grader_output("差", 0.4, 0.6)

    def grader(messages, *_) -> ModelOutput:
        return (
            grader_output("好", 0.8, 0.2)
            if record_number(messages[-1].text) % 2
            else grader_output("差", 0.3, 0.7)
        )

    [task1] = eval(
        "uxbench/task1_judge", task_args={"data": str(data)},
        model=get_model("mockllm/model", custom_outputs=judge), logprobs=True, top_logprobs=5,
        log_dir=str(log_dir), display="none",
    )  # fmt: skip
    [task2] = eval(
        "uxbench/task2_eval", task_args={"data": str(data)},
        model=get_model("mockllm/model", custom_outputs=lambda *_: ModelOutput.from_content("m", REPLY)),
        model_roles={"grader": get_model("mockllm/model", custom_outputs=grader)}, temperature=0.3,
        log_dir=str(log_dir), display="none",
    )  # fmt: skip
    assert task1.status == task2.status == "success"
    return {"task1": task1, "task2": task2}


@pytest.mark.integration
def test_tags_tell_runs_apart(logs: dict[str, EvalLog]) -> None:
    assert set(logs["task1"].eval.tags or []) == {"logprobs=True", "top_logprobs=5"}
    assert set(logs["task2"].eval.tags or []) == {"grader=mockllm/model", "temperature=0.3"}


def test_a_task_built_before_the_eval_has_no_run_tags(tmp_path: Path) -> None:
    from uxbench.tasks.task2_eval import task2_eval

    assert task2_eval(data=str(write_data(tmp_path, task2=1))).tags == []


@pytest.mark.integration
def test_sample_list_shows_the_start_of_the_reply(logs: dict[str, EvalLog]) -> None:
    score = logs["task2"].samples[0].scores["grm"]
    assert score.answer == f"{score.metadata['verdict']}: " + REPLY[:100] + "…"
    assert score.metadata["top_logprobs"] == [
        {"token": "好", "logprob": pytest.approx(math.log(0.8 if score.value else 0.3))},
        {"token": "差", "logprob": pytest.approx(math.log(0.2 if score.value else 0.7))},
    ]
    assert "(truncation ladder rung 0)" in score.explanation


@pytest.mark.integration
def test_rung_is_explained(tmp_path: Path) -> None:
    def answer(messages, *_) -> ModelOutput:
        if len(messages[-1].text) > 5000:  # rung 0 is about 5,900 characters, rung 1 (fenced) 4,800
            return ModelOutput.from_content(
                "m", "maximum context length exceeded", stop_reason="model_length"
            )
        return grader_output("好", 0.9, 0.1)

    turns = [(ChatMessageUser if i % 2 == 0 else ChatMessageAssistant)(content=f"T{i}") for i in range(8)]
    sample = Sample(id="long", input=[*turns, ChatMessageUser(content="问题")])
    [log] = eval(
        Task(dataset=[sample], scorer=grm()),
        model=get_model(
            "mockllm/model", custom_outputs=lambda *_: ModelOutput.from_content("m", "回" * 5000)
        ),
        model_roles={"grader": get_model("mockllm/model", custom_outputs=answer)},
        log_dir=str(tmp_path),
        display="none",
    )
    assert (
        log.samples[0]
        .scores["grm"]
        .explanation.endswith(
            "; the full input was too long for the grader, so it saw the last 6 context turns, "
            "the reply cut to 4,000 characters (truncation ladder rung 1)"
        )
    )


@pytest.mark.integration
def test_evals_df_has_the_headline_stderr(logs: dict[str, EvalLog]) -> None:
    frame = evals_df([logs["task1"].location, logs["task2"].location], quiet=True)
    rows = {row.task_name: row for row in frame.itertuples()}
    task1, task2 = rows["task1_judge"], rows["task2_eval"]
    assert task1.score_headline_metric == "avg_acc" and task2.score_headline_metric == "good_pct"
    assert task1.score_headline_stderr == pytest.approx(
        logs["task1"].results.scores[0].metrics["avg_acc_stderr"].value
    )
    assert task2.score_headline_stderr == pytest.approx((0.25 / 4) ** 0.5)


@pytest.mark.integration
def test_samples_df_has_flat_score_columns(logs: dict[str, EvalLog]) -> None:
    frame = samples_df(
        [logs["task1"].location, logs["task2"].location], columns=SampleSummary + SCORE_COLUMNS, quiet=True
    )
    judged = frame[frame["label"].notna()]
    graded = frame[frame["grm_verdict"].notna()]
    assert sorted(judged["p_good"]) == pytest.approx([0.4, 0.4, 0.7, 0.7])
    assert sorted(graded["grm_score"]) == pytest.approx([0.3, 0.3, 0.8, 0.8])
    assert set(graded["grm_rung"]) == {0} and set(graded["grm_verdict"]) == {"good", "bad"}


@pytest.mark.integration
def test_eval_retry_tags_only_the_settings_given(tmp_path: Path) -> None:
    """eval-retry runs with the log's whole generate config (the task's defaults merged in):
    Task 1's own temperature=0.2 and max_tokens=4096 are not tagged, a flag the user gave is."""
    calls = 0

    def fails_once(*_) -> ModelOutput:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the provider went away")
        return ModelOutput.from_content("m", "好")

    [failed] = eval(
        "uxbench/task1_judge", task_args={"data": "sample"}, limit=2, top_p=0.9,
        model=get_model("mockllm/model", custom_outputs=fails_once), log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    assert failed.status == "error" and failed.eval.tags == ["top_p=0.9"]
    [retried] = eval_retry(failed, log_dir=str(tmp_path), display="none")
    assert retried.status == "success"
    assert retried.eval.tags == ["top_p=0.9"]
