"""Style control, self-family flags and reliability bins of the report, against hand-computed values."""

import json
import math
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from uxbench.report.family import family, self_family
from uxbench.report.output import build_report
from uxbench.report.style import Reply, fit_style, r_squared, style_features
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval

MARKDOWN = "# Title\n\nSome **bold** and __more__ text.\n\n## Part\n- one\n* two\n1. three\n2) four\n"


def test_style_features() -> None:
    length, headers, items, bold = style_features(MARKDOWN)
    assert length == len(MARKDOWN) / 1000
    assert (headers, items, bold) == (2, 4, 2)
    assert style_features("#hashtag, not a header; 3.5 is not a list")[1:] == (0, 0, 0)


def plain(chars: int, score: float) -> Reply:
    return Reply("x" * chars, "good" if score >= 0.5 else "bad", score)


@pytest.mark.integration
def test_fit_recovers_a_length_effect_within_models() -> None:
    # score = a_model + 0.1 per 1k characters; A: a 0.4 at 1k, B: a 0.6 at 1k
    replies = {
        "A": [plain(1000, 0.4), plain(2000, 0.5), plain(3000, 0.6), plain(4000, 0.7)],
        "B": [plain(1000, 0.6), plain(2000, 0.7), plain(3000, 0.8), Reply("", "failed", None)],
    }
    fit = fit_style(replies)
    assert fit is not None and fit.scored == 7
    assert fit.coefficients["length (1k chars)"] == pytest.approx(0.1)
    assert fit.coefficients["headers"] == pytest.approx(0.0)
    # mean length 16/7 k: A's adjusted scores are all 0.4 + 0.1·(16/7 − 1) = 0.529 → all good
    a, b = fit.models["A"], fit.models["B"]
    assert (a.good_pct, a.adjusted_good_pct) == (0.75, 1.0)
    assert (b.good_pct, b.adjusted_good_pct) == (0.75, 0.75)  # the unscored record stays not good
    assert a.length_r2 == pytest.approx(1.0) and a.mean_length == 2500


@pytest.mark.integration
def test_too_few_replies_and_r_squared() -> None:
    assert fit_style({"A": [plain(10, 0.5)] * 3, "B": [plain(20, 0.2)] * 3}) is None
    assert r_squared([1, 2, 3], [1, 3, 2]) == pytest.approx(0.25)
    assert math.isnan(r_squared([1, 1, 1], [0.1, 0.5, 0.9]))


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("openai/gpt-5.2", "OpenAI"),
        ("openai/o3-mini", "OpenAI"),
        ("anthropic/claude-opus-4-7", "Anthropic"),
        ("openrouter/anthropic/claude-3.5-sonnet", "Anthropic"),
        ("google/gemini-3.1-pro", "Google"),
        ("hf/Qwen/Qwen2.5-7B-Instruct", "Alibaba"),
        ("vllm/mengze-hong/UXBench-GRM", "Tencent"),
        ("uxbench/smollm2", "Hugging Face"),
        ("uxbench/baseline/length", None),
        ("mockllm/model", None),
    ],
)
def test_family(model: str, expected: str | None) -> None:
    assert family(model) == expected


def test_self_family() -> None:
    assert self_family("openai/gpt-5", ["openai/gpt-5-mini"])
    assert self_family("google/gemini-3.1-pro", ["anthropic/claude-opus-4-7", "google/gemini-2.5-flash"])
    assert not self_family("openai/gpt-5", ["anthropic/claude-opus-4-7"])
    assert not self_family("mockllm/model", ["mockllm/model"])  # unknown family: never flagged


def writer(longest: int) -> Callable[..., ModelOutput]:
    """A model under test whose replies run from 50 to `longest` characters (by prompt hash)."""

    def respond(messages: list[ChatMessage], *_: object) -> ModelOutput:
        length = 50 + zlib.crc32(messages[-1].text.encode()) % max(1, longest - 50)
        return ModelOutput.from_content("mockllm", "# 标题\n- 要点\n" + "字" * length)

    return respond


def rows_headline(data: dict, model: str) -> float:
    return next(r["headline"] for r in data["tasks"]["task2_eval"]["rows"] if r["model"] == model)


@pytest.mark.integration
def test_report_shows_the_trust_checks(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    for model in ("uxbench/baseline/length", "uxbench/baseline/always-good"):
        eval(
            task1_judge(data="sample"),
            model=model,
            logprobs=True,
            top_logprobs=5,
            log_dir=str(logs),
            display="none",
        )
    writers = {
        "mockllm/verbose": get_model("mockllm/verbose", custom_outputs=writer(900)),
        "mockllm/terse": get_model("mockllm/terse", custom_outputs=writer(300)),
        "uxbench/baseline/always-bad": "uxbench/baseline/always-bad",
    }
    for model in writers.values():
        eval(
            task2_eval(data="sample"),
            model=model,
            model_roles={"grader": "uxbench/baseline/length"},
            log_dir=str(logs),
            display="none",
        )
    panel = {"grader": "uxbench/baseline/length", "grader_2": "uxbench/baseline/always-good"}
    eval(
        task2_eval(data="sample"),
        model="uxbench/baseline/longer",
        model_roles=panel,
        log_dir=str(logs),
        display="none",
    )
    board = build_report([logs], tmp_path / "out")
    out = tmp_path / "out"
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "Style-adjusted Good %" in markdown and "Length R²" in markdown and "Self-family" in markdown
    assert "| MCC | κ | AUROC | Brier | ECE |" in markdown and "Trust checks: calibration" in markdown
    assert "![Task 1 · UX Judge: reliability of P(good)](task1_judge_reliability.png)" in markdown
    assert (out / "task1_judge_reliability.png").is_file()
    data = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    task2 = next(t for t in board.tables if t.spec.name == "task2_eval")
    panel_graders = "uxbench/baseline/length, uxbench/baseline/always-good"
    assert [s.grader for s in task2.sections] == ["uxbench/baseline/length", panel_graders]
    single = data["trust"][task2.sections[0].id]
    rows = {row["model"]: row for row in single["rows"]}
    # fitted for this grader alone, on the two real writers: a longer reply scores higher
    assert single["style_fit"]["coefficients"]["length (1k chars)"] > 0
    verbose = rows["mockllm/verbose"]
    assert verbose["style"]["adjusted_good_pct"] < verbose["style"]["good_pct"]
    assert verbose["style_shift"] < 0 and verbose["style_adjusted_good_pct"] < rows_headline(
        data, "mockllm/verbose"
    )
    # a baseline is left out of the fit, and its Good% is not turned round by it
    refusal = rows["uxbench/baseline/always-bad"]
    assert refusal["left_out_of_style_fit"] == "baseline"
    assert refusal["style"]["good_pct"] == 0.0 and refusal["style"]["adjusted_good_pct"] is None
    assert refusal["style_adjusted_good_pct"] is None
    assert "not fitted" in markdown
    assert "Trust checks" in (out / "index.html").read_text(encoding="utf-8")
