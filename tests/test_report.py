"""`uxbench report`: logs made here with mockllm (three models, all three tasks, a mock GRM
grader answering with logprobs) go in; the tables, JSON, charts and page must show exactly
the logs' numbers, and say which logs were skipped and why."""

from __future__ import annotations

import json
import math
import re
import subprocess
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from grm_helpers import grader_output
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model
from inspect_ai.tool import ToolChoice, ToolInfo

from uxbench.cli import main
from uxbench.report import build_report
from uxbench.report.charts import PROBE, cjk_font
from uxbench.report.collect import Run, collect
from uxbench.report.published import normalise, paper_name
from uxbench.report.spec import TASKS
from uxbench.report.tables import Leaderboard, fmt, leaderboard, markdown

# model under test -> how often it says 差 (Task 1) / how good its replies are (Tasks 2, 3)
MODELS = {"mockllm/model-a": 0.5, "mockllm/claude-opus-4-7": 0.35, "mockllm/model-c": 0.15}
TASK_ARGS = {"task3_recovery": {"baseline": True}}
CHROMIUM = Path("/usr/bin/chromium")


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


def grader_answer(
    messages: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
) -> ModelOutput:
    """A GRM stand-in: P(好) is the quality written in the graded reply (0.2 without one);
    qualities in [0.40, 0.45) get an unreadable answer, so some judgments fail."""
    found = re.findall(r"quality=([0-9.]+)", messages[-1].text)
    p = float(found[-1]) if found else 0.2
    if 0.40 <= p < 0.45:
        return ModelOutput.from_content("mockllm", "？")
    return grader_output("好" if p >= 0.5 else "差", p, 1 - p)


def run(task: str, model: str, log_dir: Path, **kwargs: Any) -> EvalLog:
    task_args = {"data": "sample", **kwargs.pop("task_args", {})}
    roles = (
        {} if task == "task1_judge" else {"grader": get_model("mockllm/grm", custom_outputs=grader_answer)}
    )
    (log,) = eval(
        f"uxbench/{task}",
        model=get_model(model, custom_outputs=model_under_test(MODELS.get(model, 0.3))),
        model_roles=roles,
        task_args=task_args,
        log_dir=str(log_dir),
        display="none",
        ctl_server=False,
        **kwargs,
    )
    return log


def broken_model(
    messages: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
) -> ModelOutput:
    raise RuntimeError("the provider is down")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Three models on all three tasks, plus logs the report must skip, each for a known reason."""
    root = tmp_path_factory.mktemp("logs")
    main_dir, extra = root / "main", root / "extra"
    chosen = {(t, m): run(t, m, main_dir, task_args=TASK_ARGS.get(t, {})) for t in TASKS for m in MODELS}
    older = read_eval_log(chosen[("task1_judge", "mockllm/model-a")].location)
    older.eval.created = "2026-01-01T00:00:00+00:00"
    older_path = main_dir / "older.eval"
    write_eval_log(older, str(older_path))
    cot = run("task1_judge", "mockllm/model-a", extra, task_args={"prompt": "cot"})
    partial = run("task2_eval", "mockllm/model-a", extra, limit=4)
    (errored,) = eval(
        "uxbench/task1_judge",
        model=get_model("mockllm/model-broken", custom_outputs=broken_model),
        task_args={"data": "sample"},
        log_dir=str(extra),
        display="none",
        ctl_server=False,
    )
    cancelled = read_eval_log(older_path)
    cancelled.status = "cancelled"
    cancelled_path = extra / "cancelled.eval"
    write_eval_log(cancelled, str(cancelled_path))
    unreadable = extra / "truncated.eval"
    unreadable.write_bytes(b"not a zip file")
    return {
        "dirs": [main_dir, extra],
        "chosen": {**chosen, ("task1_judge", "cot"): cot},
        "skipped": {
            str(older_path): "superseded",
            partial.location: "partial: ran 4 of 12 samples",
            errored.location: "errored: RuntimeError",
            str(cancelled_path): "cancelled",
            str(unreadable): "unreadable",
        },
    }


@pytest.fixture(scope="module")
def report(logs: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Leaderboard]:
    out = tmp_path_factory.mktemp("report")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        board = build_report(logs["dirs"], out)
    missing_glyphs = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert not missing_glyphs or not cjk_font(), missing_glyphs
    return out, board


def _metrics(log: EvalLog) -> dict[str, float | None]:
    """The log's metrics as the report keeps them: NaN (no value) becomes None."""
    values = {name: m.value for score in log.results.scores for name, m in score.metrics.items()}
    return {name: None if math.isnan(value) else value for name, value in values.items()}


def test_tables_hold_the_logs_numbers(logs: dict[str, Any], report: tuple[Path, Leaderboard]) -> None:
    out, _ = report
    data = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    rows = {(task, row["log"]): row for task, table in data["tasks"].items() for row in table["rows"]}
    markdown = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert len(rows) == len(logs["chosen"]) == 10
    for (task, _), log in logs["chosen"].items():
        row = rows[(task, log.location)]
        expected = _metrics(log)
        scalars = {k: v for k, v in expected.items() if ":" not in k}
        assert row["metrics"] == pytest.approx(scalars)
        for name, value in expected.items():
            key, sep, group = name.partition(":")
            if sep:
                assert row["breakdown"][key][group] == pytest.approx(value)
        assert row["headline"] == pytest.approx(expected[TASKS[task].headline.metric])
        assert row["samples"] == 12 * (2 if task == "task1_judge" else 1)
        assert row["grader"] == (None if task == "task1_judge" else "mockllm/grm")
        assert fmt(row["headline"]) in markdown
    for table in data["tasks"].values():
        headlines = [row["headline"] for row in table["rows"]]
        assert headlines == sorted(headlines, reverse=True)
        assert [row["rank"] for row in table["rows"]][0] == 1
    assert "delta_score" in data["tasks"]["task3_recovery"]["columns"]


def test_rows_of_one_model_are_told_apart_by_their_settings(report: tuple[Path, Leaderboard]) -> None:
    _, board = report
    task1 = next(t for t in board.tables if t.spec.name == "task1_judge")
    assert task1.settings == ["prompt"]
    labels = {row.label for row in task1.rows}
    assert {"mockllm/model-a (prompt=default)", "mockllm/model-a (prompt=cot)", "mockllm/model-c"} <= labels


def test_skipped_logs_have_reasons(logs: dict[str, Any], report: tuple[Path, Leaderboard]) -> None:
    _, board = report
    reasons = {s.log: s.reason for s in board.skipped}
    assert set(reasons) == set(logs["skipped"])
    for path, reason in logs["skipped"].items():
        assert reason in reasons[path], (path, reasons[path])
    markdown = (report[0] / "leaderboard.md").read_text(encoding="utf-8")
    assert "## Skipped logs" in markdown and "cancelled" in markdown


def test_partial_logs_can_be_kept(logs: dict) -> None:
    runs, skipped = collect(logs["dirs"][1:], include_partial=True)
    partial = [r for r in runs if r.partial]
    assert [(r.task, r.samples) for r in partial] == [("task2_eval", 4)]
    assert not any("partial" in s.reason for s in skipped)


def test_a_self_graded_run_says_so(logs: dict[str, Any], tmp_path: Path) -> None:
    log = read_eval_log(logs["chosen"][("task2_eval", "mockllm/model-c")].location)
    log.eval.model_roles = None
    log.eval.task_args["self_grade"] = True
    write_eval_log(log, str(tmp_path / "self.eval"))
    (row,) = collect([tmp_path])[0]
    assert row.grader == "mockllm/model-c (self-graded)"


def test_published_numbers_sit_beside_matching_models(report: tuple[Path, Leaderboard]) -> None:
    out, board = report
    paper = {(t.spec.name, r.run.model): r.published for t in board.tables for r in t.rows}
    assert paper[("task1_judge", "mockllm/claude-opus-4-7")]["avg_acc"] == pytest.approx(0.753)
    assert paper[("task3_recovery", "mockllm/claude-opus-4-7")] == {"recovery_rate": pytest.approx(0.124)}
    assert paper[("task1_judge", "mockllm/model-c")] is None
    assert "75.3" in (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "arXiv 2606.09570" in (out / "leaderboard.md").read_text(encoding="utf-8")


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


def test_charts_are_written(report: tuple[Path, Leaderboard]) -> None:
    out, _ = report
    data = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    expected = {
        "task1_judge_ranking.png",
        "task1_judge_good_vs_bad.png",
        "task1_judge_failure_dimension_heatmap.png",
        "task1_judge_scenario_heatmap.png",
        "task2_eval_ranking.png",
        "task2_eval_failure_dimension_heatmap.png",
        "task3_recovery_ranking.png",
        "task3_recovery_delta_score.png",
        "task3_recovery_scenario_heatmap.png",
    }
    assert expected <= set(data["charts"])
    for name in data["charts"]:
        assert (out / name).read_bytes().startswith(b"\x89PNG")


def test_chinese_labels_have_a_font() -> None:
    import os

    family = cjk_font()
    if family is None and not os.environ.get("CI"):
        pytest.skip("no CJK font installed (apt-get install fonts-wqy-microhei); CI installs one")
    assert family is not None, "CI must install a CJK font (fonts-wqy-microhei or fonts-noto-cjk)"
    from matplotlib import font_manager

    path = font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
    from matplotlib.ft2font import FT2Font

    assert all(ord(c) in FT2Font(path).get_charmap() for c in PROBE + "冗余啰嗦")


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")  # labels outside the known sets
def test_without_a_chinese_font_the_charts_use_english_names(
    logs: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from uxbench.report import charts

    monkeypatch.setattr(charts, "cjk_font", lambda: None)
    assert charts._label("failure_dimension", "冗余啰嗦") == "Verbosity/Redundancy"
    build_report([logs["chosen"][("task1_judge", "mockllm/model-c")].location], tmp_path)
    assert "No font with Chinese glyphs" in (tmp_path / "leaderboard.md").read_text(encoding="utf-8")


def test_single_model_and_missing_tasks(logs: dict[str, Any], tmp_path: Path) -> None:
    log = logs["chosen"][("task2_eval", "mockllm/model-c")]
    board = build_report([log.location], tmp_path)
    assert [t.spec.name for t in board.tables] == ["task2_eval"]
    assert [s.name for s in board.missing] == ["task1_judge", "task3_recovery"]
    markdown = (tmp_path / "leaderboard.md").read_text(encoding="utf-8")
    assert markdown.count("No usable log of this task was found.") == 2
    assert (tmp_path / "task2_eval_ranking.png").exists()
    assert not (tmp_path / "task1_judge_good_vs_bad.png").exists()


def test_an_earlier_reports_charts_are_removed(logs: dict[str, Any], tmp_path: Path) -> None:
    build_report([logs["chosen"][("task1_judge", "mockllm/model-c")].location], tmp_path)
    assert (tmp_path / "task1_judge_ranking.png").exists()
    build_report([logs["chosen"][("task2_eval", "mockllm/model-c")].location], tmp_path)
    assert not (tmp_path / "task1_judge_ranking.png").exists()


def fake_run(model: str, value: float, **task_args: object) -> Run:
    return Run("x.eval", "task2_eval", model, "g", task_args, "2026-01-01", 10, None, {"good_pct": value})


def test_baseline_models_are_marked() -> None:
    runs = [fake_run("baseline/always-good", 0.1), fake_run("openai/gpt-5", 0.3)]
    board = leaderboard(runs, [], ["x"], "", [])
    rows = board.tables[0].rows
    assert [r.baseline for r in rows] == [False, True]
    assert [r.rank for r in rows] == [1, 2]
    assert "baseline/always-good (baseline)" in markdown(board)


def test_settings_missing_from_older_logs_are_shown_as_null() -> None:
    runs = [fake_run("m", 0.5, prompt="cot"), fake_run("m", 0.5), fake_run("n", 0.2, prompt="cot")]
    table = leaderboard(runs, [], ["x"], "", []).tables[0]
    assert table.settings == ["prompt"]
    expected = [(1, "m (prompt=cot)"), (1, "m (prompt=null)"), (3, "n")]
    assert [(r.rank, r.label) for r in table.rows] == expected


def test_command_line(logs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(logs["dirs"][1]), "--out", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out
    assert "Task 1 · UX Judge: 1 row(s)" in printed and "skipped 4 log(s)" in printed
    assert {"index.html", "leaderboard.md", "leaderboard.json"} <= {
        p.name for p in (tmp_path / "r").iterdir()
    }


def test_no_logs_is_a_clear_error(tmp_path: Path) -> None:
    from uxbench.errors import DataError

    with pytest.raises(DataError, match="no Inspect logs"):
        build_report([tmp_path], tmp_path / "out")


# ---------------------------------------------------------------- the page in a browser

PROBE_SCRIPT = """
<script>
window.addEventListener("load", function () {
  var table = document.querySelector("#task1_judge table");
  var heads = table.tHead.rows[0].cells, col = -1;
  for (var i = 0; i < heads.length; i++) { if (heads[i].textContent.indexOf("Avg-Acc") === 0) col = i; }
  heads[col].click();
  var order = Array.prototype.map.call(table.tBodies[0].rows, function (r) {
    return r.cells[col].dataset.sort;
  });
  var images = Array.prototype.map.call(document.images, function (img) { return img.naturalWidth; });
  var out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({
    tables: document.querySelectorAll("table").length, sorted: heads[col].getAttribute("aria-sort"),
    order: order, images: images, text: document.body.innerText.length
  });
  document.body.appendChild(out);
});
</script>
"""


def test_page_renders_sorts_and_shows_charts_in_chromium(
    report: tuple[Path, Leaderboard], tmp_path: Path
) -> None:
    if not CHROMIUM.exists():
        pytest.skip("headless Chromium not installed (/usr/bin/chromium; apt-get install chromium)")
    out, board = report
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page  # nothing fetched from the network
    probe_page = tmp_path / "probe.html"
    probe_page.write_text(page.replace("</body>", PROBE_SCRIPT + "</body>"), encoding="utf-8")
    dom = subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
         "--dump-dom", probe_page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom)
    assert found, dom[-2000:]
    probe = json.loads(found.group(1).replace("&quot;", '"'))
    breakdowns = sum(len(t.breakdown_keys()) for t in board.tables)
    style_tables = sum(t.spec.graded for t in board.tables)  # trust checks: style control per GRM task
    assert probe["tables"] == len(board.tables) + breakdowns + style_tables + 1  # + skipped logs
    assert probe["sorted"] == "ascending"
    assert [float(v) for v in probe["order"]] == sorted(float(v) for v in probe["order"])
    assert len(probe["images"]) == len(json.loads((out / "leaderboard.json").read_text())["charts"])
    assert all(width > 0 for width in probe["images"])
