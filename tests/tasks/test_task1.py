"""Task 1 end to end: mockllm in-process, and the real provider path over HTTP."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.localserver import OpenAIServer, Reply, prompt_text
from inspect_ai import eval
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import ModelOutput, get_model

from uxbench.runtime.errors import DataError
from uxbench.tasks.task1_judge import task1_judge

pytestmark = pytest.mark.integration


CLI_ENV = {**os.environ, "LOCAL_API_KEY": "test-key", "NO_COLOR": "1"}


def mock_judge(answer_for):
    """A mockllm whose answer depends on the rendered judge prompt."""

    def outputs(messages, tools, tool_choice, config):
        return ModelOutput.from_content("mockllm", answer_for(messages[-1].text))

    return get_model("mockllm/model", custom_outputs=outputs)


def metrics(log) -> dict[str, float]:
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def test_eval_with_mockllm(judge_dir) -> None:
    # approves everything except half of the disliked replies: the paper's approval bias in miniature
    def answer(prompt: str) -> str:
        return "**差**" if "BADREPLY 0" in prompt or "BADREPLY 1" in prompt else "好。回复不错"

    [log] = eval(task1_judge(data=str(judge_dir(4, 4))), model=mock_judge(answer), display="none")
    assert log.status == "success"
    values = metrics(log)
    assert values["good_acc"] == 1.0
    assert values["bad_acc"] == 0.5
    assert values["avg_acc"] == 0.75
    assert values["parse_fail_rate"] == 0.0
    assert values["failure_dimension:冗余啰嗦"] == 0.5
    assert values["difficulty:easy"] == 1.0
    sample = log.samples[1]
    score = sample.scores["judge_verdict"]
    assert score.metadata["raw"] and score.metadata["parse"] in {"exact", "first_line"}
    assert "the user" in score.explanation
    assert log.eval.metadata["records"] == 8


def test_three_class_and_cot_prompt(judge_dir) -> None:
    def answer(prompt: str) -> str:
        assert "答案：好" in prompt and "答案：中" in prompt
        return "用户意图不明确，回复也一般。\n答案：中"

    task = task1_judge(data=str(judge_dir(2, 2)), prompt="cot", labels="three_class")
    [log] = eval(task, model=mock_judge(answer), display="none")
    values = metrics(log)
    assert values["neutral_rate"] == 1.0 and values["avg_acc"] == 0.0 and values["parse_fail_rate"] == 0.0


def test_user_json_template(judge_dir, tmp_path) -> None:
    template = tmp_path / "mine.txt"
    template.write_text(
        '---\nanswer: json\nlabels: {good: [1], bad: [0]}\n---\nReply: {response}\nJSON {"verdict": 0|1}\n',
        encoding="utf-8",
    )

    def answer(prompt: str) -> str:
        return '{"verdict": 1}' if "GOODREPLY" in prompt else '{"verdict": 0}'

    [log] = eval(task1_judge(data=str(judge_dir(2, 3)), template=str(template)), model=mock_judge(answer))
    assert metrics(log)["avg_acc"] == 1.0
    assert log.eval.metadata["template"] == str(template)


def test_paper_generation_defaults_and_flags_override(judge_dir, tmp_path) -> None:
    seen: list[tuple[float | None, int | None]] = []

    def outputs(messages, tools, tool_choice, config):
        seen.append((config.temperature, config.max_tokens))
        return ModelOutput.from_content("mockllm", "好")

    model = get_model("mockllm/model", custom_outputs=outputs)
    data = str(judge_dir(1, 1))
    eval(task1_judge(data=data), model=model, display="none", log_dir=str(tmp_path))
    assert set(seen) == {(0.2, 4096)}  # the paper's Task 1 settings
    seen.clear()
    eval(
        task1_judge(data=data),
        model=model,
        temperature=0.9,
        max_tokens=64,
        display="none",
        log_dir=str(tmp_path),
    )
    assert set(seen) == {(0.9, 64)}  # Inspect's --temperature / --max-tokens win


def test_parse_modes(judge_dir, tmp_path) -> None:
    # English verdicts under the Chinese template: the careful reader reads them, strict does not
    def answer(prompt: str) -> str:
        return "Bad: the reply misses the point." if "BADREPLY" in prompt else "Good."

    model = mock_judge(answer)
    data = str(judge_dir(2, 2))
    [careful] = eval(task1_judge(data=data), model=model, display="none", log_dir=str(tmp_path))
    [strict] = eval(
        task1_judge(data=data, parse="strict"), model=model, display="none", log_dir=str(tmp_path)
    )
    assert metrics(careful)["avg_acc"] == 1.0 and metrics(careful)["parse_fail_rate"] == 0.0
    assert metrics(strict)["avg_acc"] == 0.0 and metrics(strict)["parse_fail_rate"] == 1.0
    assert {s.scores["judge_verdict"].metadata["parse"] for s in careful.samples} == {"other_language"}
    assert "other_language" in careful.samples[0].scores["judge_verdict"].explanation
    assert (careful.eval.metadata["parse"], strict.eval.metadata["parse"]) == ("careful", "strict")
    with pytest.raises(DataError, match="parse='lenient': choose one of careful, strict"):
        task1_judge(data=data, parse="lenient")  # type: ignore[arg-type]


@pytest.mark.parametrize("prompt", ["default", "user_modeling", "few_shot"])
def test_builtin_prompts_render(judge_dir, prompt: str) -> None:
    seen: list[str] = []

    def answer(text: str) -> str:
        seen.append(text)
        return "好"

    eval(task1_judge(data=str(judge_dir(1, 1)), prompt=prompt), model=mock_judge(answer), display="none")
    assert seen and all("{" not in t and ("BADREPLY" in t or "GOODREPLY" in t) for t in seen)


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "inspect_ai", "eval", *args, "--display", "plain"]
    return subprocess.run(command, capture_output=True, text=True, env=env or CLI_ENV, timeout=300)


def test_cli_against_openai_compatible_server(judge_dir, tmp_path: Path) -> None:
    """The release-file directory judged over HTTP reproduces hand-computed accuracies."""
    data = judge_dir(5, 4)

    def respond(request: dict) -> Reply:
        prompt = prompt_text(request)
        # approve all liked replies but one, and only disliked reply 3
        if "GOODREPLY 4" in prompt or "BADREPLY 3" in prompt:
            return Reply(text="差")
        return Reply(text="好")

    with OpenAIServer(respond) as server:
        env = {**CLI_ENV, "LOCAL_BASE_URL": server.url}
        result = run_cli(
            "uxbench/task1_judge", "--model", "openai-api/local/judge", "-T", f"data={data}",
            "--max-tokens", "512", "--log-dir", str(tmp_path / "logs"), env=env,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert len(server.requests) == 9  # one judgment per record
        # the task's temperature 0.2 is sent; the --max-tokens flag overrides the task's 4,096
        assert {
            (r["temperature"], r.get("max_completion_tokens", r.get("max_tokens"))) for r in server.requests
        } == {(0.2, 512)}

    log = read_eval_log(list_eval_logs(str(tmp_path / "logs"))[0])
    assert log.status == "success"
    good_acc, bad_acc = 4 / 5, 1 / 4  # by hand from the responder's answers
    values = metrics(log)
    assert values["good_acc"] == pytest.approx(good_acc)
    assert values["bad_acc"] == pytest.approx(bad_acc)
    assert values["avg_acc"] == pytest.approx((good_acc + bad_acc) / 2)


@pytest.mark.slow
def test_cli_sample_data_with_mockllm(tmp_path: Path) -> None:
    """The README's offline command: bundled records, mockllm, no network."""
    result = run_cli(
        "uxbench/task1_judge", "--model", "mockllm/model", "-T", "data=sample",
        "--log-dir", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    log = read_eval_log(list_eval_logs(str(tmp_path))[0])
    assert log.status == "success"
    assert {"good_acc", "bad_acc", "avg_acc"} <= set(metrics(log))
    assert len(log.samples) >= 24


def test_cli_user_mistake_has_no_traceback(tmp_path: Path) -> None:
    result = run_cli("uxbench/task1_judge", "--model", "mockllm/model", "-T", "prompt=fancy")
    output = result.stdout + result.stderr
    assert "prompt='fancy': choose one of default, user_modeling, cot, few_shot" in output
    assert "Traceback" not in output
