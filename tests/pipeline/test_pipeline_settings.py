"""Per-stage models and Inspect settings: where each comes from, what the manifest holds a resume
to, and the tokens each stage spent."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from helpers.pipeline import SMALL_TARGETS

from uxbench.cli import main
from uxbench.pipeline.run.models import ModelSpec
from uxbench.pipeline.run.runner import RunOptions, run_pipeline
from uxbench.pipeline.run.settings import CommandLine, stage_setups
from uxbench.pipeline.stages.build import BuildConfig
from uxbench.runtime.errors import DataError

CONFIG = """
model: openai/gpt-4o-mini
max_connections: 8
temperature: 0.3
judge:
  model: anthropic/claude-sonnet-4-5
  model_args: {region: eu}
  reasoning_effort: low
qa:
  temperature: 0.0
"""


def setups(tmp_path: Path, config: str | None = CONFIG, **flags: object) -> dict[str, tuple[object, dict]]:
    path = None
    if config is not None:
        path = tmp_path / "stages.yaml"
        path.write_text(config)
    found = stage_setups(CommandLine(config=str(path) if path else None, **flags))  # type: ignore[arg-type]
    return {name: (setup.model, setup.eval_args) for name, setup in found.items()}


def test_models_and_settings_per_stage_from_the_config_file(tmp_path: Path) -> None:
    found = setups(tmp_path)
    assert found["miner"] == (ModelSpec("openai/gpt-4o-mini"), {"max_connections": 8, "temperature": 0.3})
    assert found["judge"] == (
        ModelSpec("anthropic/claude-sonnet-4-5", None, (("region", "eu"),)),
        {"max_connections": 8, "temperature": 0.3, "reasoning_effort": "low"},
    )
    assert found["qa"][1]["temperature"] == 0.0


def test_flags_over_the_file_stage_sections_over_flags(tmp_path: Path) -> None:
    found = setups(
        tmp_path,
        model=ModelSpec("openai/gpt-4o"),
        stage_models={"qa": "openai/o3"},
        eval_args={"temperature": 0.7, "max_retries": 2},
    )
    assert found["miner"][0] == ModelSpec("openai/gpt-4o")  # --model over the file's model
    assert found["judge"][0].name == "anthropic/claude-sonnet-4-5"  # the file's judge.model over --model
    assert found["qa"][0] == ModelSpec("openai/o3")  # --qa-model over everything
    assert found["miner"][1] == {"max_connections": 8, "temperature": 0.7, "max_retries": 2}
    assert found["qa"][1]["temperature"] == 0.0  # the file's qa section over --temperature


def test_inspect_eval_model_is_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECT_EVAL_MODEL", "openai/gpt-4.1")
    assert {m.name for m, _ in setups(tmp_path, None).values()} == {"openai/gpt-4.1"}
    monkeypatch.delenv("INSPECT_EVAL_MODEL")
    with pytest.raises(DataError, match="no model for the miner stage: give --model"):
        setups(tmp_path, None)
    assert {m.dry_run for m, _ in setups(tmp_path, None, dry_run=True).values()} == {True}


@pytest.mark.parametrize(
    ("config", "problem"),
    [
        ("temprature: 0.2\n", "unknown settings temprature"),
        ("judge:\n  reasoning_effort: loud\n", "judge: `reasoning_effort`"),
        ("max_connections: many\n", "`max_connections`"),
        ("miner: fast\n", "`miner` must be a mapping"),
        ("qa:\n  model: x\n  model_args: [1]\n", "`model_args` must be a mapping"),
    ],
)
def test_bad_config_files(tmp_path: Path, config: str, problem: str) -> None:
    with pytest.raises(DataError, match="--config") as error:
        setups(tmp_path, config)
    assert problem in str(error.value)


def options(**changes: object) -> RunOptions:
    return RunOptions(chunk_size=1000, build=BuildConfig(targets=SMALL_TARGETS), **changes)  # type: ignore[arg-type]


@pytest.mark.integration
def test_resume_with_another_stage_model_or_setting_is_caught(
    pipeline_raw: Path, pipeline_reference: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    shutil.copytree(pipeline_reference, out)
    dry = ModelSpec(dry_run=True)
    with pytest.raises(DataError) as error:
        run_pipeline(
            pipeline_raw, out, {"miner": dry, "judge": ModelSpec("mockllm/model"), "qa": dry}, options()
        )
    assert "judge.model.model: was 'dry-run', now 'mockllm/model'" in str(error.value)
    assert "miner.model" not in str(error.value)
    with pytest.raises(DataError, match="qa.generate.temperature: was None, now 0.5"):
        run_pipeline(pipeline_raw, out, dry, options(stage_eval_args={"qa": {"temperature": 0.5}}), False)
    with pytest.raises(DataError, match="signals.redact: was True, now False"):
        run_pipeline(pipeline_raw, out, dry, options(redact=False), False)
    # retries, timeouts and connections are not held against a resume
    run_pipeline(pipeline_raw, out, dry, options(eval_args={"max_connections": 3, "timeout": 60}), False)


@pytest.mark.integration
def test_cli_per_stage_flags_reach_the_manifest(
    pipeline_raw: Path, pipeline_reference: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    shutil.copytree(pipeline_reference, out)
    code = main(
        [
            "pipeline",
            "run",
            str(pipeline_raw),
            "--out",
            str(out),
            "--model",
            "mockllm/model",
            "--judge-model",
            "mockllm/other",
            "--temperature",
            "0.4",
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert code == 1
    assert "miner.model.model: was 'dry-run', now 'mockllm/model'" in err
    assert "judge.model.model: was 'dry-run', now 'mockllm/other'" in err
    assert "judge.generate.temperature: was None, now 0.4" in err


@pytest.mark.integration
def test_tokens_per_stage_and_model(pipeline_reference: Path) -> None:
    stats = json.loads((pipeline_reference / "stats.json").read_text(encoding="utf-8"))
    for stage in ("miner", "judge", "qa"):
        usage = stats[stage]["model_usage"]["mockllm/model"]
        assert (
            usage["input_tokens"] > 0
            and usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
        )
    report = (pipeline_reference / "stats.md").read_text(encoding="utf-8")
    assert "| stage | model | input | output | total |" in report and "| judge | mockllm/model |" in report
    manifest = json.loads((pipeline_reference / "pipeline.json").read_text(encoding="utf-8"))
    miner = manifest["settings"]["miner"]
    assert {k: v for k, v in miner.items() if k != "prompts"} == {
        "model": {"model": "dry-run"},
        "generate": {},
    }
    # its prompts as sent: each track's prompt rendered on the probe item (runtime/identity.py)
    assert set(miner["prompts"]) == {"failure", "success"}
    assert all(re.fullmatch(r"[0-9a-f]{16}", digest) for digest in miner["prompts"].values())
