"""`uxbench report`: logs made here with mockllm (three models, all three tasks, a mock GRM
grader answering with logprobs, and variants: other settings, a second grader, partial,
errored, cancelled, damaged and hostile logs) go in; the tables, JSON, charts and page must
show exactly the logs' numbers, one ranking per grader, and say which logs were left out
and why."""

from __future__ import annotations

import dataclasses
import json
import re
import warnings
import zlib
from collections.abc import Callable
from functools import partial
from html import escape
from pathlib import Path
from typing import Any

import matplotlib.text
import pytest
from helpers.a11y import tab_order, violations
from helpers.evals import run_eval
from helpers.grm import grader_output
from helpers.localserver import OpenAIServer, Reply
from helpers.logs import rewritten
from helpers.records import release_copy
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model
from inspect_ai.tool import ToolChoice, ToolInfo

from uxbench.cli import main
from uxbench.report import build_report, html, markdown
from uxbench.report.captions import SAMPLE_NOTE
from uxbench.report.charts import SAMPLE_CHART_NOTE, draw
from uxbench.report.collect import _resumed, collect
from uxbench.report.columns import section_columns
from uxbench.report.fonts import PROBE, cjk_font, covers
from uxbench.report.formatting import fmt
from uxbench.report.grid import html_linked, md_linked, md_text
from uxbench.report.logs import Run, Skipped, readable_error
from uxbench.report.paper_numbers import normalise, paper_name
from uxbench.report.percent import pct
from uxbench.report.samples import Counts, Evidence
from uxbench.report.sections import Leaderboard, leaderboard
from uxbench.report.spec import TASKS
from uxbench.runtime.docs import REPOSITORY_FILES
from uxbench.stats.intervals import bootstrap_mean, mover_mean, wilson

# model under test -> how often it says 差 (Task 1) / how good its replies are (Tasks 2, 3)
MODELS = {"mockllm/model-a": 0.5, "mockllm/claude-opus-4-7": 0.35, "mockllm/model-c": 0.15}
TASK_ARGS = {"task3_recovery": {"baseline": True}}
CHROMIUM = Path("/usr/bin/chromium")
HOSTILE = "<script>alert('x')</script> **b** | [l](u) `c` \"q\" & $y$"


def _hash(text: str) -> float:
    return zlib.crc32(text.encode()) % 1000 / 1000


def model_under_test(harshness: float) -> Callable[..., ModelOutput]:
    """Task 1: says 差 for a `harshness` share of prompts; Tasks 2/3: a reply carrying its quality."""

    def respond(
        messages: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        prompt = "\n".join(m.text for m in messages)
        h = _hash(prompt)
        if "好" in prompt and "差" in prompt:  # a judging prompt (Task 1)
            return ModelOutput.from_content("mockllm", "差" if h < harshness else "好")
        quality = round(min(0.99, max(0.01, h * (1 - harshness) + 0.2)), 2)
        return ModelOutput.from_content("mockllm", f"这是修改后的回答 quality={quality}")

    return respond


def grader_answer(lenient: float = 0.0) -> Callable[..., ModelOutput]:
    """A GRM stand-in: P(好) is the quality written in the graded reply (0.2 without one) plus
    `lenient`; qualities in [0.40, 0.45) get an unreadable answer, so some judgments fail."""

    def answer(
        messages: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        found = re.findall(r"quality=([0-9.]+)", messages[-1].text)
        p = float(found[-1]) if found else 0.2
        if 0.40 <= p < 0.45:
            return ModelOutput.from_content("mockllm", "？")
        p = min(0.99, p + lenient)
        return grader_output("好" if p >= 0.5 else "差", p, 1 - p)

    return answer


def run(
    task: str,
    model: str,
    log_dir: Path,
    grader: str = "mockllm/grm",
    data: str | Path = "sample",
    **kwargs: Any,
) -> EvalLog:
    task_args = {"data": str(data), **kwargs.pop("task_args", {})}
    lenient = 0.5 if "lenient" in grader else 0.0
    roles = (
        {} if task == "task1_judge" else {"grader": get_model(grader, custom_outputs=grader_answer(lenient))}
    )
    return run_eval(
        f"uxbench/{task}",
        log_dir,
        expect=None,
        model=get_model(model, custom_outputs=model_under_test(MODELS.get(model, 0.3))),
        model_roles=roles,
        task_args=task_args,
        ctl_server=False,
        **kwargs,
    )


def broken_model(
    messages: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
) -> ModelOutput:
    raise RuntimeError("the provider is down")


def _http_400_log(log_dir: Path) -> EvalLog:
    """A run whose provider answers HTTP 400 (Inspect logs the request with the error)."""
    message = "This model's maximum context length is 8192 tokens."
    with (
        OpenAIServer(lambda request: Reply(status=400, error=message)) as server,
        pytest.MonkeyPatch.context() as env,
    ):
        env.setenv("LOCAL_API_KEY", "local")
        env.setenv("LOCAL_BASE_URL", server.url)
        (log,) = eval(
            "uxbench/task1_judge",
            model="openai-api/local/judge",
            task_args={"data": "sample"},
            limit=1,
            max_retries=0,
            log_dir=str(log_dir),
            display="none",
            ctl_server=False,
        )
    return log


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Three models on all three tasks, and variants the report must show or leave out."""
    root = tmp_path_factory.mktemp("logs")
    main_dir, extra = root / "main", root / "extra"
    go = partial(run, data=release_copy(root / "release"))  # the paper's kind of data: its numbers apply
    chosen = {(t, m): go(t, m, main_dir, task_args=TASK_ARGS.get(t, {})) for t in TASKS for m in MODELS}
    a1 = chosen[("task1_judge", "mockllm/model-a")]

    def older(log: EvalLog) -> None:
        log.eval.created = "2026-01-01T00:00:00+00:00"

    older_path = rewritten(a1, main_dir / "older.eval", older)
    variants = {
        "cot": go("task1_judge", "mockllm/model-a", extra, task_args={"prompt": "cot"}),
        "user_modeling": go(
            "task1_judge", "mockllm/claude-opus-4-7", extra, task_args={"prompt": "user_modeling"}
        ),
        "hot": go("task1_judge", "mockllm/claude-opus-4-7", extra, temperature=0.9, seed=7),
        "lenient": go("task2_eval", "mockllm/model-a", extra, grader="mockllm/grm-lenient"),
        "partial_shown": go("task3_recovery", "mockllm/model-d", extra, limit=4),
        # the same judge on the bundled synthetic sample: a section of its own, no paper value
        "on_sample": run("task1_judge", "mockllm/claude-opus-4-7", extra),
    }
    partial_hidden = go("task2_eval", "mockllm/model-a", extra, limit=4)
    (errored,) = eval(
        "uxbench/task1_judge",
        model=get_model("mockllm/model-broken", custom_outputs=broken_model),
        task_args={"data": "sample"},
        log_dir=str(extra),
        display="none",
        ctl_server=False,
    )
    http_error = _http_400_log(extra)

    def cancel(log: EvalLog) -> None:
        log.status = "cancelled"

    cancelled = rewritten(a1, extra / "cancelled.eval", cancel)
    unreadable = extra / "truncated.eval"
    unreadable.write_bytes(b"not a zip file")

    def hostile(log: EvalLog) -> None:
        log.eval.model = f"mockllm/{HOSTILE}"
        log.eval.task_args["system_prompt"] = HOSTILE
        log.eval.task_args_passed["system_prompt"] = HOSTILE
        for score in log.results.scores:
            score.metrics[f"scenario:{HOSTILE}"] = score.metrics["good_pct"].model_copy()

    def revised(log: EvalLog) -> None:
        log.eval.metadata = {**(log.eval.metadata or {}), "dataset_revision": "0123456789abcdef"}

    variants["hostile"] = rewritten(
        chosen[("task2_eval", "mockllm/model-c")], extra / "hostile.eval", hostile
    )
    variants["revision"] = rewritten(
        chosen[("task1_judge", "mockllm/model-c")], extra / "revision.eval", revised
    )
    return {
        "dirs": [main_dir, extra],
        "chosen": chosen,
        "variants": variants,
        "skipped": {
            str(older_path): "an older run of the same settings",
            partial_hidden.location: "partial: ran 4 of 12 records",
            errored.location: "errored: RuntimeError: the provider is down",
            http_error.location: "errored: BadRequestError 400: This model's maximum context length is 8192",
            str(cancelled): "cancelled",
            str(unreadable): "unreadable",
        },
    }


@pytest.fixture(scope="module")
def report(logs: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Leaderboard]:
    out = tmp_path_factory.mktemp("report")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        board = build_report(logs["dirs"], out)
    noisy = [
        str(w.message) for w in caught if "missing from font" in str(w.message) or "layout" in str(w.message)
    ]
    assert not noisy, noisy
    return out, board


def _json(out: Path) -> dict[str, Any]:
    return json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))


def _rows(out: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """Rows of leaderboard.json by (task, log file name)."""
    return {(t, Path(r["log"]).name): r for t, table in _json(out)["tasks"].items() for r in table["rows"]}


def _metrics(log: EvalLog) -> dict[str, float]:
    """The log's metrics (one without a value is not in the log, nor in the report's row)."""
    return {name: m.value for score in log.results.scores for name, m in score.metrics.items()}


def _name(path: str | Path) -> str:
    return Path(path).name


@pytest.mark.integration
def test_tables_hold_the_logs_numbers(logs: dict[str, Any], report: tuple[Path, Leaderboard]) -> None:
    out, _ = report
    rows = _rows(out)
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    for (task, _), log in logs["chosen"].items():
        row = rows[(task, _name(log.location))]
        expected = _metrics(log)
        assert row["metrics"] == pytest.approx({k: v for k, v in expected.items() if ":" not in k})
        for name, value in expected.items():
            key, sep, group = name.partition(":")
            if sep:
                assert row["breakdown"][key][group] == pytest.approx(value)
        assert row["headline"] == pytest.approx(expected[TASKS[task].headline.metric])
        assert row["samples"] == row["total"] == 12 * (2 if task == "task1_judge" else 1)
        assert row["grader"] == (None if task == "task1_judge" else "mockllm/grm")
        assert fmt(row["headline"]) in markdown
    for table in _json(out)["tasks"].values():
        for section in table["sections"]:
            ranked = [r for r in table["rows"] if r["section"] == section["id"] and r["rank"] is not None]
            assert [r["headline"] for r in ranked] == sorted((r["headline"] for r in ranked), reverse=True)
            assert ranked[0]["rank"] == 1


@pytest.mark.integration
def test_one_ranking_per_grader(logs: dict[str, Any], report: tuple[Path, Leaderboard]) -> None:
    _, board = report
    task2 = next(t for t in board.tables if t.spec.name == "task2_eval")
    assert [s.grader for s in task2.sections] == ["mockllm/grm", "mockllm/grm-lenient"]
    lenient = task2.sections[1]
    assert [(r.rank, r.run.model) for r in lenient.rows] == [(1, "mockllm/model-a")]
    # the lenient grader's higher Good% does not outrank the other grader's rows
    assert lenient.rows[0].headline > task2.sections[0].rows[0].headline
    assert all(r.rank is not None for r in task2.sections[0].rows)


@pytest.mark.integration
def test_settings_are_part_of_a_runs_identity(logs: dict[str, Any], report: tuple[Path, Leaderboard]) -> None:
    out, board = report
    task1 = next(t for t in board.tables if t.spec.name == "task1_judge")
    main = task1.sections[0].rows  # the run on the bundled sample has a section of its own
    claude = {r.run.log: r for r in main if r.run.model == "mockllm/claude-opus-4-7"}
    assert len(claude) == 3  # default, prompt=user_modeling, temperature=0.9 seed=7: none supersedes another
    hot = claude[logs["variants"]["hot"].location]
    assert hot.settings == {"temperature": "0.9", "seed": "7"}
    # temperature differs between this model's rows, so each of them shows it (0.2: the task's default)
    assert claude[logs["variants"]["user_modeling"].location].settings == {
        "prompt": "user_modeling",
        "temperature": "0.2",
    }
    assert "different settings" in " ".join(r.marks()[0] for r in claude.values() if r.marks())
    a = {r.settings.get("prompt") for r in task1.rows if r.run.model == "mockllm/model-a"}
    assert a == {"cot", None}  # the default prompt is not an explicit setting
    revised = next(r for r in task1.rows if r.run.log.endswith("revision.eval"))
    # a dataset revision is part of the identity too; local data are named by their records' hash
    assert revised.run.data() == f"local {revised.run.data_hash} (…/release)@0123456"
    assert not any("superseded" in s.reason for s in board.skipped)
    rows = _rows(out)
    assert rows[("task1_judge", _name(hot.run.log))]["settings"] == {"temperature": "0.9", "seed": "7"}


@pytest.mark.integration
def test_paper_numbers_only_where_the_settings_match(
    report: tuple[Path, Leaderboard], logs: dict[str, Any]
) -> None:
    out, board = report
    rows = _rows(out)
    default = rows[
        ("task1_judge", _name(logs["chosen"][("task1_judge", "mockllm/claude-opus-4-7")].location))
    ]
    assert default["published"]["avg_acc"] == pytest.approx(0.753) and default["paper_settings_match"]
    for variant in ("user_modeling", "hot"):
        row = rows[("task1_judge", _name(logs["variants"][variant].location))]
        assert row["paper_name"] == "Claude Opus 4.7" and row["published"] is None
    task3 = rows[
        ("task3_recovery", _name(logs["chosen"][("task3_recovery", "mockllm/claude-opus-4-7")].location))
    ]
    assert task3["published"] == {"recovery_rate": pytest.approx(0.124)}
    assert (
        rows[("task1_judge", _name(logs["chosen"][("task1_judge", "mockllm/model-c")].location))]["published"]
        is None
    )
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "75.3" in markdown and "other settings" in markdown and "arXiv 2606.09570" in markdown


@pytest.mark.integration
def test_skipped_logs_have_reasons(logs: dict[str, Any], report: tuple[Path, Leaderboard]) -> None:
    _, board = report
    reasons = {s.log: s.reason for s in board.skipped}
    assert set(reasons) == set(logs["skipped"])
    for path, reason in logs["skipped"].items():
        assert reasons[path].startswith(reason), (path, reasons[path])
    http = reasons[next(p for p in reasons if "BadRequest" in reasons[p])]
    assert "Request:" not in http and "messages" not in http  # not the request Inspect attaches
    markdown = (report[0] / "leaderboard.md").read_text(encoding="utf-8")
    assert "## Skipped logs" in markdown and "cancelled" in markdown


@pytest.mark.integration
def test_partial_runs_are_shown_unranked(logs: dict[str, Any], report: tuple[Path, Leaderboard]) -> None:
    out, board = report
    task3 = next(t for t in board.tables if t.spec.name == "task3_recovery")
    (partial,) = [r for r in task3.rows if r.run.partial]
    assert partial.rank is None and partial.kind == "partial" and partial.run.model == "mockllm/model-d"
    assert (partial.run.samples, partial.run.total) == (4, 12)
    assert partial is task3.sections[0].rows[-1]  # after every complete row
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "| – | mockllm/model-d (partial) |" in markdown and "| 4 of 12 |" in markdown
    runs, _, skipped = collect(logs["dirs"][1:], partial=False)
    assert not any(r.partial for r in runs)
    assert any("--complete-only" in s.reason for s in skipped)


@pytest.mark.integration
def test_a_self_graded_run_says_so(logs: dict[str, Any], tmp_path: Path) -> None:
    def self_graded(log: EvalLog) -> None:
        log.eval.model_roles = None
        log.eval.task_args["self_grade"] = True

    rewritten(logs["chosen"][("task2_eval", "mockllm/model-c")], tmp_path / "self.eval", self_graded)
    (row,) = collect([tmp_path])[0]
    assert row.grader == "mockllm/model-c (self-graded)" and row.self_graded


@pytest.mark.parametrize(
    ("model", "paper"),
    [
        ("anthropic/claude-opus-4-7", "Claude Opus 4.7"),
        ("openai/gpt-5-2025-08-07", "GPT-5"),
        ("openai/gpt-5-mini", "GPT-5 mini"),
        ("openai/gpt-5.2", "GPT-5.2"),
        ("google/gemini-3.1-pro-preview", "Gemini 3.1 Pro"),
        ("vllm/mengze-hong/UXBench-GRM", "UXBench-GRM"),
        ("openai/gpt-5.1", None),
        ("mockllm/model", None),
    ],
)
def test_model_names_match_the_paper(model: str, paper: str | None) -> None:
    assert paper_name(model) == paper
    assert normalise("openai/GPT_5.2-latest") == "gpt-5-2"


@pytest.mark.integration
def test_charts_are_written_with_unique_names(report: tuple[Path, Leaderboard]) -> None:
    out, board = report
    charts = _json(out)["charts"]
    task2 = next(t for t in board.tables if t.spec.name == "task2_eval").sections[0].id
    expected = {
        "task1_judge_ranking.png",
        "task1_judge_good_vs_bad.png",
        "task1_judge_failure_dimension_heatmap.png",
        "task1_judge_scenario_heatmap.png",
        f"{task2}_ranking.png",
        f"{task2}_failure_dimension_heatmap.png",
    }
    assert expected <= set(charts) and len(charts) == len(set(charts))
    assert any(c.endswith("_delta_score.png") for c in charts)
    for name in charts:
        assert (out / name).read_bytes().startswith(b"\x89PNG")


@pytest.mark.integration
def test_counts_and_intervals(logs: dict[str, Any], report: tuple[Path, Leaderboard]) -> None:
    out, _ = report
    rows = _rows(out)
    task1 = rows[("task1_judge", _name(logs["chosen"][("task1_judge", "mockllm/model-a")].location))]
    assert task1["ci95_method"].startswith("Jeffreys")
    assert task1["ci95"][0] < task1["headline"] < task1["ci95"][1]
    assert sum(task1["breakdown_n"]["scenario"].values()) == 24
    task3 = rows[("task3_recovery", _name(logs["chosen"][("task3_recovery", "mockllm/model-c")].location))]
    low, high = task3["delta_score_ci95"]
    assert low <= task3["metrics"]["delta_score"] <= high
    html = (out / "index.html").read_text(encoding="utf-8")
    assert 'class="text muted"' in html or 'class="num muted"' in html  # cells under 10 records


def test_wilson_mover_and_bootstrap() -> None:
    low, high = wilson(0, 12)
    assert low == 0 and high == pytest.approx(0.2425, abs=1e-4)  # never a zero-width interval
    low, high = wilson(12, 12)
    assert high == 1 and low == pytest.approx(0.7575, abs=1e-4)
    scipy_stats = pytest.importorskip("scipy.stats")
    expected = scipy_stats.binomtest(7, 20).proportion_ci(method="wilson")
    assert wilson(7, 20) == pytest.approx((expected.low, expected.high))
    mean = mover_mean([(1.0, wilson(12, 12)), (0.0, wilson(0, 12))])
    assert mean[0] < 0.5 < mean[1] and mean[1] - mean[0] > 0.2
    assert bootstrap_mean([0.1] * 50) == pytest.approx((0.1, 0.1))
    low, high = bootstrap_mean([0.0, 1.0] * 50)
    assert low < 0.5 < high


def test_readable_errors() -> None:
    from inspect_ai.log import EvalError

    wrapped = (
        'ModelGenerateError(\'\\nRequest:\\n{\\n  "messages": [{"content": "NameError(\\\\"x\\\\")"}]}'
        "\\n\\n"
        "BadRequestError(\"Error code: 400 - {\\'error\\': {\\'message\\': \\'context too long\\', "
        "\\'type\\': \\'invalid_request_error\\'}}\")')"
    )
    error = EvalError(message=wrapped, traceback="", traceback_ansi="")
    assert readable_error(error) == "BadRequestError 400: context too long"
    plain = EvalError(
        message="FileNotFoundError: /home/me/secret/data.jsonl\nmore", traceback="", traceback_ansi=""
    )
    assert readable_error(plain) == "FileNotFoundError: …/data.jsonl"


@pytest.mark.integration
@pytest.mark.browser
def test_markdown_escapes_every_cell(report: tuple[Path, Leaderboard]) -> None:
    out, _ = report
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "<script>" not in markdown and "&lt;script&gt;" in markdown
    assert md_text(HOSTILE) in markdown  # the model name, the setting and the label
    assert md_text(HOSTILE) == (
        "&lt;script&gt;alert('x')&lt;/script&gt; \\*\\*b\\*\\* \\| \\[l\\](u) \\`c\\` \"q\" &amp; $y$"
    )
    page = (out / "index.html").read_text(encoding="utf-8")
    assert HOSTILE not in page and "alert('x')" not in page.replace("&lt;script&gt;alert('x')", "")


@pytest.mark.integration
def test_no_absolute_paths_unless_asked(
    logs: dict[str, Any], report: tuple[Path, Leaderboard], tmp_path: Path
) -> None:
    out, _ = report
    root = str(logs["dirs"][0].parent)
    for name in ("leaderboard.md", "leaderboard.json", "index.html"):
        assert root not in (out / name).read_text(encoding="utf-8"), name
    assert root not in " ".join(json.dumps(r["all_settings"]) for r in _rows(out).values())
    build_report([logs["chosen"][("task1_judge", "mockllm/model-c")].location], tmp_path, show_paths=True)
    assert root in (tmp_path / "leaderboard.json").read_text(encoding="utf-8")


def test_cjk_font_detection_ignores_the_last_resort_font() -> None:
    from matplotlib import font_manager

    last_resort = [e.fname for e in font_manager.fontManager.ttflist if "Last Resort" in e.name]
    if last_resort:
        assert not covers(last_resort[0])  # claims every code point, draws one box per block
    family = cjk_font()
    if family is None:
        pytest.skip("no CJK font installed (apt-get install fonts-wqy-microhei); charts fall back to English")
    path = font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
    assert covers(path, PROBE + "冗余啰嗦")


@pytest.mark.integration
def test_without_a_chinese_font_the_charts_use_english_names(
    logs: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from uxbench.report import charts, fonts, output

    monkeypatch.setattr(fonts, "cjk_font", lambda: None)
    monkeypatch.setattr(charts, "cjk_font", lambda: None)
    monkeypatch.setattr(output, "cjk_font", lambda: None)
    assert charts.group_label("failure_dimension", "冗余啰嗦") == "Verbosity/Redundancy"
    assert fonts.drawable("模型 a") == "?? a"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "Glyph missing from font" warning: nothing draws as boxes
        assert (
            main(
                [
                    "report",
                    logs["chosen"][("task1_judge", "mockllm/model-c")].location,
                    "--out",
                    str(tmp_path),
                ]
            )
            == 0
        )
    assert "No font with Chinese glyphs" in (tmp_path / "leaderboard.md").read_text(encoding="utf-8")
    assert "apt-get install fonts-wqy-microhei" in capsys.readouterr().out


@pytest.mark.integration
def test_single_model_and_missing_tasks(logs: dict[str, Any], tmp_path: Path) -> None:
    log = logs["chosen"][("task2_eval", "mockllm/model-c")]
    board = build_report([log.location], tmp_path)
    assert [t.spec.name for t in board.tables] == ["task2_eval"]
    assert [s.name for s in board.missing] == ["task1_judge", "task3_recovery"]
    markdown = (tmp_path / "leaderboard.md").read_text(encoding="utf-8")
    assert markdown.count("No usable log of this task was found.") == 2
    assert (tmp_path / f"{board.tables[0].sections[0].id}_ranking.png").exists()
    assert not (tmp_path / "task1_judge_good_vs_bad.png").exists()


@pytest.mark.integration
def test_an_earlier_reports_charts_are_removed(logs: dict[str, Any], tmp_path: Path) -> None:
    build_report([logs["chosen"][("task1_judge", "mockllm/model-c")].location], tmp_path)
    assert (tmp_path / "task1_judge_ranking.png").exists()
    build_report([logs["chosen"][("task2_eval", "mockllm/model-c")].location], tmp_path)
    assert not (tmp_path / "task1_judge_ranking.png").exists()


class _NoSamples(Evidence):
    def judgments(self, run: Run) -> list:
        return []

    def counts_of(self, run: Run) -> Counts:
        return Counts(run.samples, {}, {})

    def deltas(self, run: Run) -> list[float]:
        return []


def fake_run(model: str, value: float, **task_args: object) -> Run:
    return Run(
        log=f"{model}{task_args}.eval",
        name="x.eval",
        task="task2_eval",
        model=model,
        grader="g",
        graders=("g",),
        settings=dict(task_args),
        explicit=frozenset(task_args),
        dataset_revision=None,
        created="2026-01-01",
        samples=10,
        total=10,
        partial=None,
        metrics={"good_pct": value},
    )


def test_a_rows_states_are_said_in_words_and_a_paused_log_names_its_retry() -> None:
    """Partial (a missing shard), stand-in records and a resumed pause: each a line under the table
    (Section.notes, which the page, leaderboard.md and the console print), not only a tooltip."""
    cut = dataclasses.replace(fake_run("openai/gpt-5", 0.3), partial="shard 3/3 missing", total=15)
    stand_in = dataclasses.replace(fake_run("openai/gpt-4o", 0.2), origins={"stand-in": 10})
    resumed = dataclasses.replace(fake_run("openai/o3", 0.4), task_id="T1", log="o3-retry.eval")
    paused = Skipped("o3.eval", "logs/o3.eval", "task2_eval", "openai/o3", "paused", "T1", "rater1")
    skipped = [paused]
    shown = _resumed([cut, stand_in, resumed], [cut, stand_in, resumed], skipped)
    assert skipped[0].reason == "paused by rater1, resumed in x.eval"
    section = leaderboard(shown, [], ["x"], "", skipped, _NoSamples()).tables[0].sections[0]
    notes = " ".join(section.notes())
    assert "openai/gpt-5: partial, not ranked: shard 3/3 missing." in notes
    assert "openai/gpt-4o: stand-in records" in notes and "no breakdown" in notes
    assert "openai/o3: resumed after a pause (the paused log logs/o3.eval is under Skipped logs)" in notes
    assert stand_in.data().endswith("· stand-in records")


def test_baseline_models_are_marked() -> None:
    runs = [fake_run("uxbench/baseline/always-good", 0.1), fake_run("openai/gpt-5", 0.3)]
    rows = leaderboard(runs, [], ["x"], "", [], _NoSamples()).tables[0].rows
    assert [(r.rank, r.baseline, r.kind) for r in rows] == [(1, False, ""), (2, True, "baseline")]
    assert rows[0].interval == pytest.approx(wilson(3, 10))


def test_rows_of_one_model_are_told_apart() -> None:
    runs = [fake_run("m", 0.5, prompt="cot"), fake_run("m", 0.5), fake_run("n", 0.2, prompt="cot")]
    rows = leaderboard(runs, [], ["x"], "", [], _NoSamples()).tables[0].rows
    assert [(r.rank, r.settings) for r in rows] == [(1, {"prompt": "cot"}), (1, {}), (3, {"prompt": "cot"})]
    assert [r.chart_label() for r in rows] == ["m [1]", "m [2]", "n [3]"]
    assert [r.marks() for r in rows] == [["different settings"], ["different settings"], []]


@pytest.mark.integration
def test_command_line(logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(logs["dirs"][1]), "--out", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out
    assert "Task 1 · UX Judge: 3 row(s)" in printed and "left out 4 log(s)" in printed
    # a run on another dataset revision is ranked on its own, and says why
    assert re.search(r"Task 1 · UX Judge · different data: local \w+ \(…/release\)@0123456: 1 row", printed)
    assert "Task 1 · UX Judge · different data: sample: 1 row(s)" in printed
    assert "Task 3 · UX Recovery · graded by mockllm/grm: 1 row(s), 1 partial (unranked)" in printed
    assert {"index.html", "leaderboard.md", "leaderboard.json"} <= {
        p.name for p in (tmp_path / "r").iterdir()
    }


@pytest.mark.integration
def test_no_logs_is_a_clear_error(tmp_path: Path) -> None:
    from uxbench.runtime.errors import DataError

    with pytest.raises(DataError, match="no Inspect logs"):
        build_report([tmp_path], tmp_path / "out")


# ---------------------------------------------------------------- the page in a browser


@pytest.fixture(scope="module")
def browser(report: tuple[Path, Leaderboard]) -> Any:
    """Headless Chromium (the system's, never a download) driven by Playwright. Playwright's
    sync API keeps an event loop running, so the report (Inspect's log reading runs its own
    loop) is built before it starts."""
    if not CHROMIUM.exists():
        pytest.skip("headless Chromium not installed (/usr/bin/chromium; apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (the dev extra)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, report: tuple[Path, Leaderboard]) -> Any:
    """The report's index.html, with every request and script error recorded."""
    out, _ = report
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    tab = context.new_page()
    tab.requests, tab.errors, tab.dialogs = [], [], []
    tab.on("request", lambda request: tab.requests.append(request.url))
    tab.on("pageerror", lambda error: tab.errors.append(str(error)))
    tab.on("dialog", lambda dialog: (tab.dialogs.append(dialog.message), dialog.dismiss()))
    tab.goto((out / "index.html").as_uri())
    yield tab
    assert not tab.errors, tab.errors
    assert not tab.dialogs, tab.dialogs  # no hostile string ran as script
    outside = [url for url in tab.requests if not url.startswith(("file:", "data:"))]
    assert not outside, outside  # nothing fetched from the network
    context.close()


def _column(tab: Any, table: str, index: int) -> list[str]:
    return tab.eval_on_selector_all(
        f"#{table} tbody tr", f"rows => rows.map(r => r.cells[{index}].dataset.sort)"
    )


def _numbers(values: list[str]) -> list[float]:
    return [float(v) for v in values if v != ""]


@pytest.mark.integration
@pytest.mark.browser
def test_page_sorts_by_mouse_and_keyboard(page: Any) -> None:
    table = "task1_judge-table"
    headers = page.locator(f"#{table} thead th")
    titles = headers.all_inner_texts()
    headline = next(i for i, t in enumerate(titles) if t.startswith("Avg-Acc"))
    headers.nth(headline).locator("button").click()
    assert headers.nth(headline).get_attribute("aria-sort") == "ascending"
    values = _numbers(_column(page, table, headline))
    assert values == sorted(values)
    records = titles.index("n")
    headers.nth(records).locator("button").focus()
    page.keyboard.press("Enter")
    assert headers.nth(records).get_attribute("aria-sort") == "ascending"
    assert headers.nth(headline).get_attribute("aria-sort") is None
    page.keyboard.press(" ")
    assert headers.nth(records).get_attribute("aria-sort") == "descending"
    values = _numbers(_column(page, table, records))
    assert values == sorted(values, reverse=True)


@pytest.mark.integration
@pytest.mark.browser
def test_page_navigation(page: Any, report: tuple[Path, Leaderboard]) -> None:
    _, board = report
    links = page.eval_on_selector_all("nav a", "links => links.map(a => a.getAttribute('href'))")
    targets = {table.spec.name for table in board.tables} | {"skipped"}
    targets |= {s.id for t in board.tables for s in t.sections if s.headed}
    assert targets <= {link[1:] for link in links}
    for link in links:
        assert page.locator(link).count() == 1, link
    # trust checks sit inside the task they qualify
    for link in (link for link in links if link.endswith("-trust")):
        task = page.eval_on_selector(link, "element => element.closest('section.task').id")
        assert link[1:].startswith(task), (link, task)
    assert not page.locator("nav a[href='#skipped']").is_visible()  # folded: the numbers come first
    page.locator("details.toc summary").click()
    page.locator("nav a[href='#skipped']").click()
    assert page.evaluate("location.hash") == "#skipped"
    assert page.locator("#skipped").bounding_box()["y"] < 900


@pytest.mark.integration
@pytest.mark.browser
def test_page_shows_hostile_strings_as_text(page: Any) -> None:
    text = page.inner_text("body")
    assert HOSTILE in text  # the model name, a setting and a label, exactly as written
    assert page.locator("script").count() == 1  # the page's own sorting script
    assert (
        page.locator("main img").count() > 0 and page.locator("main b, main strong, main code").count() == 0
    )


@pytest.mark.integration
@pytest.mark.browser
def test_page_screenshots_at_two_widths(
    browser: Any, report: tuple[Path, Leaderboard], tmp_path_factory: pytest.TempPathFactory
) -> None:
    out, _ = report
    shots = tmp_path_factory.mktemp("screenshots")
    for width in (1400, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        tab = context.new_page()
        tab.goto((out / "index.html").as_uri())
        # the page itself never scrolls sideways: wide tables scroll in their own box
        assert tab.evaluate("document.documentElement.scrollWidth") <= width
        # numbers first: the first leaderboard starts in the top half of the first screen, the
        # methods are folded away, and each column's meaning is its header's tooltip
        assert tab.locator("table.sortable").first.bounding_box()["y"] < 450
        assert not tab.locator("details.howto").get_attribute("open")
        assert (
            tab.locator("#task1_judge-table thead th").nth(2).get_attribute("title").startswith("(Good-Acc")
        )
        tab.screenshot(path=str(shots / f"report-{width}-top.png"))
        assert all(w <= width for w in tab.eval_on_selector_all("main img", "imgs => imgs.map(i => i.width)"))
        tab.screenshot(path=str(shots / f"report-{width}.png"), full_page=True)
        if width == 390:  # the model column stays in view while a table scrolls
            box = tab.locator(".scroll").first
            left = box.bounding_box()["x"]
            assert box.locator("td.pin").first.bounding_box()["x"] > left  # after the # column
            box.evaluate("element => { element.scrollLeft = 400; }")
            assert box.evaluate("element => element.scrollLeft") > 0
            assert box.locator("td.pin").first.bounding_box()["x"] == pytest.approx(left, abs=1)
        context.close()
    assert (shots / "report-390.png").stat().st_size > 0
    print(f"screenshots: {shots}")


@pytest.mark.integration
@pytest.mark.browser
def test_no_paper_value_beside_the_synthetic_sample(report: tuple[Path, Leaderboard]) -> None:
    """The same judge on the release copy has the paper's number; on the bundled sample it has
    none, in the JSON, the tables, the page and the charts, and its section says why."""
    out, board = report
    task1 = next(t for t in board.tables if t.spec.name == "task1_judge")
    sample = next(s for s in task1.sections if s.apart == "different data: sample")
    assert sample.synthetic and not any(s.synthetic for s in task1.sections if s is not sample)
    assert [row.published for row in sample.rows] == [None]
    assert "Paper" not in " ".join(d.title for d in section_columns(sample)) and SAMPLE_NOTE in sample.notes()
    main = task1.sections[0]
    assert any(row.published for row in main.rows) and section_columns(main)[3].title.startswith("Paper")
    page = (out / "index.html").read_text(encoding="utf-8")
    block = page[page.index(f'id="{sample.id}"') :].split('<div class="ranking"')[0]
    assert (
        escape(SAMPLE_NOTE) in block and "Paper" not in block and "75.3" not in block and "68.0" not in block
    )
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    block = markdown[markdown.index(md_text(sample.title)) :].split("\n### ")[0]
    assert "Paper" not in block and "75.3" not in block
    for kind in ("ranking", "good_vs_bad"):
        texts = " ".join(_chart_texts((kind, sample, "", {})))
        assert SAMPLE_CHART_NOTE in texts  # a chart file shared alone says so too
        assert not any(mark in texts for mark in ("◇", "Human", "Grey: the paper")), texts
    assert any("◇" in t for t in _chart_texts(("ranking", main, "", {})))


def _chart_texts(job: Any) -> list[str]:
    """Every text a chart draws."""
    found: list[str] = []

    def save(figure: Any, name: str) -> None:
        found.extend(t.get_text() for t in figure.findobj(matplotlib.text.Text))

    draw(job, save)
    return found


@pytest.mark.integration
@pytest.mark.browser
def test_every_percentage_of_one_metric_prints_alike(report: tuple[Path, Leaderboard]) -> None:
    """Over the whole page: every table cell holding the same value (a headline, its Good-Acc, the
    separation table's first-epoch value, a breakdown) prints the same percentage, the one
    `pct` gives, rounded half up on the decimal value."""
    out, board = report
    page = (out / "index.html").read_text(encoding="utf-8")
    cells = re.findall(r'<td class="[^"]*" data-sort="([^"]*)"[^>]*>([^<]*)</td>', page)
    printed: dict[float, set[str]] = {}
    for value, text in cells:
        number = re.match(r"-?\d+\.\d(?= |$)", text)  # a one-decimal percentage, maybe with its interval
        if number and value and 0 <= float(value) <= 1:
            printed.setdefault(round(float(value), 9), set()).add(number.group())
    assert len(printed) > 20
    for value, shown in printed.items():
        assert shown == {pct(value)}, (value, shown)


@pytest.mark.integration
@pytest.mark.browser
def test_half_up_on_the_decimal_value(tmp_path: Path) -> None:
    """The values the binary float would round down print rounded up, alike in the page and the
    Markdown (0.6585 is 65.85 exactly, stored as 0.65849999…)."""
    values = {"a": 0.6585, "b": 0.6275, "c": 0.5565, "d": 0.7235}
    board = leaderboard(
        [fake_run(f"m/{k}", v) for k, v in values.items()], [], ["logs"], "now", [], _NoSamples()
    )
    page = html.page(board, [], {}, tmp_path)
    markdown_page = markdown.page(board, [], {})
    for value, wrong in zip(values.values(), ("65.8", "62.7", "55.6", "72.3"), strict=True):
        assert f"{100 * value:.1f}" != pct(value) or value == 0.7235  # the float's rounding differs
        for text in (page, markdown_page):
            assert f">{pct(value)} (" in text.replace("| ", ">") and wrong not in text
    assert pct(0.6585) == "65.9" and pct(0.6275) == "62.8" and pct(0.5565) == "55.7" and pct(0.7235) == "72.4"
    assert pct(0.6584999999999999) == "65.9" and pct(-0.0005, signed=True) == "-0.1" and pct(0.0004) == "0.0"
    assert pct(None) == pct(float("nan")) == "–" and pct(0.125, 0) == "13"


@pytest.mark.integration
@pytest.mark.browser
def test_page_at_phone_width(browser: Any, report: tuple[Path, Leaderboard], tmp_path: Path) -> None:
    """At 390 px: a chart opens at its own size on a tap (legible, scrolling), a table that
    scrolls says so, names wrap at their separators, the Model header sorts, the docs pages
    named are links to the repository's; at 1400 px the Paper column is beside the headline."""
    out, _ = report
    errors: list[str] = []
    for width in (390, 1400):
        context = browser.new_context(viewport={"width": width, "height": 844})
        tab = context.new_page()
        tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        tab.goto((out / "index.html").as_uri())
        titles = tab.locator("#task1_judge-table thead th").all_inner_texts()
        assert titles[2].startswith("Avg-Acc") and titles[3].startswith("Paper")
        model = tab.locator("#task1_judge-table thead th").nth(1)
        model.locator("button").click()
        assert model.get_attribute("aria-sort") == "ascending"
        names = _column(tab, "task1_judge-table", 1)
        assert names == sorted(names) and len(set(names)) > 1
        figure = tab.locator("#task1_judge figure").first
        shown = figure.locator("img").evaluate("img => [img.width, img.naturalWidth]")
        figure.locator("button.zoom").click()
        assert "full" in figure.get_attribute("class")
        full = figure.locator("img").evaluate("img => [img.width, img.naturalWidth]")
        assert full[0] == full[1] and (width > full[1] or shown[0] < full[1])  # its own size, not shrunk
        bar = figure.locator(".zoom-bar")
        assert bar.is_visible() and "Back or Esc closes it" in bar.inner_text()
        if width == 390:  # wider than the phone: the bar says to scroll; Back closes it, not the page
            assert "scroll sideways" in bar.inner_text()
            tab.screenshot(path=str(tmp_path / "report-ranking-chart-narrow.png"))
            tab.go_back()
            assert tab.url.endswith("index.html")
        else:
            tab.keyboard.press("Escape")
        tab.wait_for_function("() => !document.querySelector('figure.full')")
        # every column of every table says what it means (its header's tooltip)
        untitled = tab.eval_on_selector_all("th", "all => all.filter(h => !h.title).map(h => h.innerText)")
        assert not untitled, untitled
        assert violations(tab) == []  # axe-core: no serious or critical violation
        order = tab_order(tab, 40)  # by keyboard: the sort buttons and the charts
        assert any(f.startswith('button "') for f in order), order  # a column header's sort button
        assert any(f.startswith("button.zoom") for f in order), order
        tab.focus("#task1_judge figure button.zoom")
        tab.keyboard.press("Enter")
        tab.wait_for_function("() => document.querySelector('figure.full')")
        tab.keyboard.press("Escape")
        trust = tab.locator(".trust .scrollbox").first
        trust.scroll_into_view_if_needed()
        hint = trust.locator(".scroll-hint")
        if width == 390:
            assert "more" in trust.get_attribute("class") and hint.is_visible()
            tab.screenshot(path=str(tmp_path / "report-trust-narrow.png"))
            trust.locator(".scroll").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
            settled = trust.evaluate("box => new Promise(r => setTimeout(() => r(box.className), 100))")
            assert "more" not in settled
            # a model name breaks after a separator, never inside a word
            cell = tab.locator("#task1_judge-table td.pin").first
            assert cell.inner_html().count("<wbr>") >= 2
            assert cell.evaluate("td => getComputedStyle(td).overflowWrap") == "break-word"
        links = tab.eval_on_selector_all("a[href^='https://']", "links => links.map(a => a.href)")
        assert any(link.endswith("docs/trust.md") for link in links), links
        assert all(link.startswith(REPOSITORY_FILES) for link in links)
        assert not errors, errors
        context.close()


def test_docs_pages_named_in_texts_are_linked() -> None:
    """A mailed report has no docs/ beside it: the pages it names link to the repository's."""
    text = "See docs/trust.md#do-the-intervals-cover-95, then bench/results_coverage.md <b>"
    trust = "docs/trust.md#do-the-intervals-cover-95"
    assert md_linked(text) == (
        f"See [{trust}]({REPOSITORY_FILES}{trust}), then "
        f"[bench/results\\_coverage.md]({REPOSITORY_FILES}bench/results_coverage.md) &lt;b&gt;"
    )
    assert html_linked(text).count('<a href="https://github.com/') == 2 and "&lt;b&gt;" in html_linked(text)
    assert md_linked("plain text, no page") == md_text("plain text, no page")
