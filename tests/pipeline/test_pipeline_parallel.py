"""Scale-out: agent-stage chunks on worker processes and on Ray, the deterministic stages on
workers, a worker that dies, a run directory behind an fsspec URL — each writes exactly the
files of the single-process reference run."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers.pipeline import OUTPUTS, SMALL_TARGETS, completed_per_sample, dry_run, same_outputs
from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.tool import ToolChoice, ToolInfo
from upath import UPath

from uxbench.cli import main
from uxbench.pipeline.run.drivers import prefilter_stage, signals_stage
from uxbench.pipeline.run.mock import mock_answers
from uxbench.pipeline.run.models import ModelSpec
from uxbench.pipeline.run.runner import STAGE_FILES, RunOptions, run_pipeline
from uxbench.pipeline.stages.build import BuildConfig
from uxbench.pipeline.stages.dedup import NUM_PERM, DuplicateIndex


@dataclass(frozen=True)
class DiesOnce(ModelSpec):
    """The dry-run model, except that the first worker to make its third judge call dies."""

    marker: str = ""

    def model(self) -> Model:
        valid = mock_answers()
        calls = {"judge": 0}

        def generate(
            input: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
        ) -> ModelOutput:
            calls["judge"] += "Score the case on" in input[0].text
            if calls["judge"] == 3 and not Path(self.marker).exists():
                Path(self.marker).write_text("died", encoding="utf-8")
                os._exit(1)  # as a worker killed by the system would
            return valid(input, tools, choice, config)

        return get_model("mockllm/model", custom_outputs=generate)


@pytest.mark.slow
def test_two_workers_write_the_same_files_even_when_one_dies(
    pipeline_raw: Path, pipeline_reference: Path, tmp_path: Path
) -> None:
    """Chunks on two worker processes; the one that dies has its chunk run again, resuming from
    its log. The files are those of the one-process run, and no sample finished twice."""
    out, marker = tmp_path / "run", tmp_path / "died"
    options = RunOptions(chunk_size=40, workers=2, build=BuildConfig(targets=SMALL_TARGETS))
    stats = run_pipeline(pipeline_raw, out, DiesOnce(marker=str(marker)), options, progress=False)
    assert marker.exists() and stats["judge"]["failed"] == 0
    same_outputs(out, pipeline_reference)
    assert max(completed_per_sample(out).values()) == 1  # the finished samples of the dead worker's log count


def test_deterministic_stages_on_workers_match_one_process(
    pipeline_raw: Path, pipeline_reference: Path, tmp_path: Path
) -> None:
    signals, kept, rejected = tmp_path / "s.jsonl", tmp_path / "p.jsonl", tmp_path / "r.jsonl"
    signals_stage(pipeline_raw, signals, workers=2, parallel_bytes=0)  # batches of 1000: one per worker
    prefilter_stage(signals, kept, rejected, workers=2, parallel_bytes=0)
    assert signals.read_bytes() == (pipeline_reference / STAGE_FILES["signals"]).read_bytes()
    assert kept.read_bytes() == (pipeline_reference / STAGE_FILES["prefilter"]).read_bytes()
    assert rejected.read_bytes() == (pipeline_reference / "02_prefilter.rejected.jsonl").read_bytes()


def test_a_duplicate_names_the_earliest_kept_match() -> None:
    """C matches both A and B (kept: B is not close enough to A); it is A's duplicate, whatever
    order a hash seed would give the candidates."""
    a = np.random.default_rng(1).integers(0, 2**32, NUM_PERM, dtype=np.uint64).astype(np.uint32)
    b, c = a.copy(), a.copy()
    b[40:56] += 1  # 16 of 64 positions differ: 0.75 < 0.8; the first three bands stay shared
    c[40:48] += 1  # 8 from A and 8 from B: 0.875 with each
    index = DuplicateIndex(threshold=0.8)
    assert index.check_sketch("a", b"A", a.tobytes()) is None
    assert index.check_sketch("b", b"B", b.tobytes()) is None
    assert index.check_sketch("c", b"C", c.tobytes()) == ("duplicate_near", "a")
    assert index.check_sketch("d", b"B", b"") == ("duplicate_exact", "b")


def test_a_run_directory_behind_an_fsspec_url(pipeline_raw: Path, pipeline_reference: Path) -> None:
    """Stage files, work directories and Inspect logs all go through fsspec (here its memory
    filesystem; s3:// and the like work the same way)."""
    out = UPath("memory://uxbench-tests/run")
    try:
        options = RunOptions(build=BuildConfig(targets=SMALL_TARGETS))
        run_pipeline(pipeline_raw, str(out), ModelSpec(dry_run=True), options, progress=False)
        for name in OUTPUTS:
            assert (out / name).read_bytes() == (pipeline_reference / name).read_bytes(), name
        assert list((out / "04_judge.work" / "logs").glob("*/*.eval"))
    finally:
        out.fs.rm(out.path, recursive=True)


@pytest.mark.slow
def test_on_a_local_ray_cluster(pipeline_raw: Path, pipeline_reference: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (the ray extra)")
    from ray.cluster_utils import Cluster

    cluster: Any = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "include_dashboard": False})
    try:
        out = tmp_path / "run"
        ray = ["--executor", "ray", "--ray-address", cluster.address, "--workers", "2", "--chunk-size", "40"]
        assert dry_run(pipeline_raw, out, *ray) == 0
    finally:
        cluster.shutdown()
    same_outputs(out, pipeline_reference)
    assert max(completed_per_sample(out).values()) == 1


def test_workers_need_a_model_given_by_name(
    pipeline_raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uxbench.pipeline.cli as pipeline_cli

    monkeypatch.setattr(pipeline_cli, "_model", lambda args: get_model("mockllm/model"))
    argv = ["pipeline", "run", str(pipeline_raw), "--out", str(tmp_path / "run"), "--model", "x"]
    assert main([*argv, "--workers", "2", "--no-progress"]) == 1
    assert not (tmp_path / "run" / STAGE_FILES["signals"]).exists()  # stopped before any stage
    assert capsys.readouterr().err == (
        "error: worker processes and Ray tasks build the model themselves: give it by name "
        "(a ModelSpec), not as an Inspect Model object\n"
    )


def test_an_unreachable_ray_cluster_stops_before_any_stage(
    pipeline_raw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (the ray extra)")
    out = tmp_path / "run"
    assert dry_run(pipeline_raw, out, "--executor", "ray", "--ray-address", "127.0.0.1:1") == 1
    assert capsys.readouterr().err == "error: Ray cluster 127.0.0.1:1: cannot connect (Connection refused)\n"
    assert not out.exists()
