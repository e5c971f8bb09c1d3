"""End to end: raw logs → test sets → Task 1, and resuming after a crash or a kill."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.pipeline import SMALL_TARGETS, TARGETS_ARG, completed_per_sample, dry_run, same_outputs
from inspect_ai import eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model
from inspect_ai.tool import ToolChoice, ToolInfo

from uxbench.cli import main
from uxbench.data.dataset import RELEASE_FILES, load_samples
from uxbench.pipeline.read.files import read_rows
from uxbench.pipeline.run.agentrun import StageInterrupted, export_logs
from uxbench.pipeline.run.mock import mock_answers
from uxbench.pipeline.run.runner import STAGE_FILES, RunOptions, run_pipeline
from uxbench.pipeline.stages.build import BuildConfig
from uxbench.pipeline.tools.synth import write_synth

# the construction pipeline end to end: long runs, outside the fast lane
pytestmark = [pytest.mark.slow, pytest.mark.integration]


def dry_run_model(invalid_rate: float = 0.0) -> Any:
    return get_model("mockllm/model", custom_outputs=mock_answers(invalid_rate))


def options(chunk_size: int) -> RunOptions:
    return RunOptions(chunk_size=chunk_size, build=BuildConfig(targets=SMALL_TARGETS))


def test_test_sets_and_report(pipeline_reference: Path) -> None:
    stats = json.loads((pipeline_reference / "stats.json").read_text(encoding="utf-8"))
    assert list(stats) == ["signals", "prefilter", "miner", "judge", "qa", "build"]
    for task in ("task1", "task2", "task3"):
        samples, report = load_samples(task, str(pipeline_reference))
        assert samples and not report.skipped
    sets = stats["build"]["sets"]
    assert all(sets[name]["size"] > 0 for name in RELEASE_FILES)
    report = (pipeline_reference / "stats.md").read_text(encoding="utf-8")
    assert "## 2. Prefilter" in report and "冗余啰嗦 (Verbosity/Redundancy)" in report
    by_source = {row["cid"]: row for row in read_rows(pipeline_reference / STAGE_FILES["signals"])}
    for record in read_rows(pipeline_reference / RELEASE_FILES["task3_recovery"]):
        source = by_source[record["source_cid"]]["turns"]
        failed = record["source_turn"]
        assert record["failed_response"] == source[failed]["text"]
        assert record["user_complaint"] == source[failed + 1]["text"]
        assert len(record["history"]) == failed
    for record in read_rows(pipeline_reference / RELEASE_FILES["task2_eval"]):
        assert record["history_turns"] == len(record["messages"])
        assert record["overall_quality"] == "high"


def test_rerun_skips_finished_stages(
    pipeline_raw: Path, pipeline_reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {name: (pipeline_reference / name).stat().st_mtime_ns for name in STAGE_FILES.values()}
    assert dry_run(pipeline_raw, pipeline_reference) == 0
    assert {name: (pipeline_reference / name).stat().st_mtime_ns for name in STAGE_FILES.values()} == before
    assert "test sets" in capsys.readouterr().out


def test_other_input_is_refused(tmp_path: Path, pipeline_reference: Path) -> None:
    other = tmp_path / "other.jsonl"
    write_synth(other, 5, seed=1)
    assert main(["pipeline", "run", str(other), "--out", str(pipeline_reference), "--dry-run"]) == 1


def test_export_from_logs_matches_the_run(pipeline_reference: Path, tmp_path: Path) -> None:
    logs = sorted(str(p) for p in (pipeline_reference / "04_judge.work" / "logs").glob("*/*.eval"))
    out = tmp_path / "judged.jsonl"
    export_logs(logs, out)
    assert out.read_bytes() == (pipeline_reference / STAGE_FILES["judge"]).read_bytes()


def test_crash_then_resume(pipeline_raw: Path, pipeline_reference: Path, tmp_path: Path) -> None:
    """An Inspect run that ends in error stops the stage; the rerun finishes only what was left."""
    calls = {"n": 0}
    valid = mock_answers()

    def failing(
        input: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        calls["n"] += 1
        if calls["n"] == 50:
            raise RuntimeError("the endpoint went away")
        return valid(input, tools, choice, config)

    out = tmp_path / "run"
    stopping = options(20)
    stopping.eval_args = {"fail_on_error": True}  # Inspect's default: the first sample error ends the eval
    with pytest.raises(StageInterrupted, match="ended with status error .*run the same command again"):
        run_pipeline(
            pipeline_raw, out, get_model("mockllm/model", custom_outputs=failing), stopping, progress=False
        )
    finished_before = sum(completed_per_sample(out).values())
    assert finished_before >= 30

    resumed = {"n": 0}

    def counting(
        input: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        resumed["n"] += 1
        return valid(input, tools, choice, config)

    run_pipeline(
        pipeline_raw, out, get_model("mockllm/model", custom_outputs=counting), options(20), progress=False
    )
    same_outputs(out, pipeline_reference)
    graded = completed_per_sample(out)
    assert max(graded.values()) == 1
    assert resumed["n"] == sum(graded.values()) - finished_before


def test_kill_then_resume(pipeline_raw: Path, pipeline_reference: Path, tmp_path: Path) -> None:
    """SIGKILL the command line run in the judge stage; running it again gives the same outputs."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "uxbench.cli", "pipeline", "run", str(pipeline_raw), "--out", str(out)]
    command += ["--dry-run", "--chunk-size", "15", "--no-progress", "--targets", TARGETS_ARG]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 300
        while len(list((out / "04_judge.work" / "results").glob("*.jsonl"))) < 2:
            assert process.poll() is None, "the run ended before it could be killed"
            assert time.time() < deadline
            time.sleep(0.2)
    finally:
        process.kill()
        process.wait()
    assert not (out / STAGE_FILES["judge"]).exists()
    killed_logs = [
        read_eval_log(str(p), header_only=True).status
        for p in (out / "04_judge.work" / "logs").glob("*/*.eval")
    ]
    assert "success" in killed_logs

    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr
    same_outputs(out, pipeline_reference)
    assert max(completed_per_sample(out).values()) == 1


def test_two_thousand_conversations_to_task1(tmp_path: Path) -> None:
    """The issue's acceptance run: 2,000 synthetic conversations, model answers from mockllm."""
    raw, out = tmp_path / "raw.jsonl", tmp_path / "sets"
    write_synth(raw, 2000, seed=5)
    stats = run_pipeline(
        raw, out, dry_run_model(invalid_rate=0.03), RunOptions(chunk_size=200), progress=False
    )
    for name in RELEASE_FILES.values():
        assert (out / name).stat().st_size > 0, name
    assert (out / "stats.md").exists()
    assert stats["miner"]["reasked"] > 0
    sets = stats["build"]["sets"]
    bad = sets["task1_judge_bad"]
    assert bad["size"] >= 100 and max(bad["per_label"].values()) <= 0.4 * bad["size"]
    for name, available in bad["candidates_per_label"].items():
        assert bad["per_label"][name] >= min(5, available), name
    assert len(bad["per_scenario"]) == 7
    log = eval(
        "uxbench/task1_judge",
        task_args={"data": str(out)},
        model="mockllm/model",
        display="none",
        log_dir=str(tmp_path / "logs"),
    )[0]
    assert log.status == "success"
    assert (
        log.results is not None
        and log.results.total_samples == bad["size"] + sets["task1_judge_good"]["size"]
    )
