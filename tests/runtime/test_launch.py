"""`uxbench run`: N shard processes of one run, the connections divided, resumed by running it again."""

import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from inspect_ai import eval
from inspect_ai.log import list_eval_logs

from uxbench.cli import main
from uxbench.report import build_report
from uxbench.report.leaderboard_row import Row
from uxbench.report.sections import Leaderboard
from uxbench.runtime import launch
from uxbench.runtime.errors import DataError
from uxbench.runtime.identity import Recorded
from uxbench.runtime.launch import check_args, check_resume, default_max_procs, shard_args, shard_connections
from uxbench.runtime.listing import task_version
from uxbench.runtime.processes import Outcome
from uxbench.tasks.task1_judge import task1_judge


def test_connections_are_divided_among_the_shards() -> None:
    assert shard_connections(100, 3) == [34, 33, 33]
    assert shard_connections(2, 3) == [1, 1, 1]  # each shard needs one
    assert shard_connections(None, 2) == [None, None]


def test_each_shard_gets_its_shard_log_dir_and_connections() -> None:
    args = shard_args("uxbench/task2_eval", 2, 3, "s3://b/logs/", 10, ["--model", "m"])
    assert args[:6] == [
        "eval-set",
        "uxbench/task2_eval",
        "-T",
        "shard=2/3",
        "--log-dir",
        "s3://b/logs/shard-2-of-3",
    ]
    assert args[6:] == ["--max-connections", "10", "--display", "none", "--model", "m"]
    assert "none" not in shard_args("t", 1, 2, "logs", None, ["--display", "plain"])


@pytest.mark.integration
def test_a_shard_given_to_inspect_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert (
        main(["run", "uxbench/task2_eval", "--shards", "2", "--log-dir", str(tmp_path), "-T", "shard=1/2"])
        == 1
    )
    assert "uxbench run sets each process's shard" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_no_inspect_arguments_with_the_model_in_the_environment_is_a_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env file above
    monkeypatch.setenv("INSPECT_EVAL_MODEL", "mockllm/model")
    check_args([])  # was a zip() traceback
    check_args(["-T"])  # a flag without its value is Inspect's to refuse
    monkeypatch.delenv("INSPECT_EVAL_MODEL")
    with pytest.raises(DataError, match="^no model: give --model MODEL after the task, or set INSPECT_EVAL"):
        check_args([])
    (tmp_path / ".env").write_text("INSPECT_EVAL_MODEL=mockllm/model\n")  # Inspect reads it too
    check_args([])


@pytest.mark.parametrize("own", ["--log-dir", "--max-connections"])
def test_an_option_the_launcher_sets_is_refused_among_inspects(own: str) -> None:
    for args in ([own, "x"], [f"{own}=x"]):
        with pytest.raises(DataError, match=f"^{own}: give it once"):
            check_args(["--model", "m", *args])


def test_a_log_dir_that_is_a_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    base = ["run", "uxbench/task1_judge", "--shards", "2", "--model", "mockllm/model", "--log-dir"]
    assert main([*base, str(tmp_path / "file")]) == 1
    assert (
        capsys.readouterr().err
        == f"Error: --log-dir {tmp_path}/file: {tmp_path}/file is a file, not a directory; give another one\n"
    )
    assert main([*base, str(tmp_path / "file" / "below")]) == 1
    assert (
        capsys.readouterr().err
        == f"Error: --log-dir {tmp_path}/file/below: cannot be made (Not a directory)\n"
    )
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "shard-2-of-2").write_text("")
    assert main([*base, str(tmp_path / "logs")]) == 1
    assert "logs/shard-2-of-2 is a file, not a directory" in capsys.readouterr().err


def test_max_procs_defaults_to_the_cores_bounded_by_memory() -> None:
    assert 1 <= default_max_procs() <= len(os.sched_getaffinity(0))


def role_forms(text: str) -> list[str]:
    """Every `{model: …}` mapping in the text, braces balanced."""
    forms = []
    for found in re.finditer(r"\{model:", text):
        depth = 0
        for end in range(found.start(), len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                forms.append(" ".join(text[found.start() : end + 1].split()))
                break
    return forms


def test_every_role_form_the_docs_show_is_one_inspect_accepts() -> None:
    from inspect_ai._cli.util import parse_model_role_cli_args  # what `--model-role` goes through

    docs = Path(__file__).resolve().parents[2] / "docs"
    forms = [form for page in sorted(docs.glob("*.md")) for form in role_forms(page.read_text())]
    assert len(forms) >= 8
    for form in forms:
        # any model (the shape is what counts), a placeholder value as a number
        value = re.sub(r"model: [^,}]+", "model: mockllm/model", form).replace("…", "1")
        value = re.sub(r"model_args: \{[^}]*\}", "model_args: {}", value)
        parse_model_role_cli_args((f"grader={value}",))


@pytest.mark.integration
@pytest.mark.slow
def test_a_sharded_run_pools_to_the_unsharded_numbers_and_resumes(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    command = [
        "run",
        "uxbench/task1_judge",
        "--shards",
        "2",
        "--max-connections",
        "4",
        "--log-dir",
        str(logs),
    ]
    command += ["--model", "mockllm/model", "-T", "data=sample"]
    assert main(command) == 0
    written = {info.name for info in list_eval_logs(str(logs))}
    assert len(written) == 2
    assert main(command) == 0  # both shards are complete: nothing runs again
    assert {info.name for info in list_eval_logs(str(logs))} == written
    eval(task1_judge(data="sample"), model="mockllm/model", display="none", log_dir=str(tmp_path / "one"))
    [pooled], [whole] = (
        rows(build_report([d], tmp_path / f"r{i}")) for i, d in enumerate((logs, tmp_path / "one"))
    )
    assert pooled.run.partial is None and pooled.run.samples == whole.run.samples
    assert pooled.run.metrics == pytest.approx(whole.run.metrics, abs=1e-12)


def rows(board: Leaderboard) -> list[Row]:
    return [row for table in board.tables for section in table.sections for row in section.rows]


@pytest.mark.integration
def test_an_unreachable_ray_cluster_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (the ray extra)")
    command = ["run", "uxbench/task1_judge", "--shards", "2", "--log-dir", str(tmp_path), "--ray-address"]
    assert main([*command, "127.0.0.1:1", "--model", "mockllm/model"]) == 1
    assert capsys.readouterr().err == "Error: Ray cluster 127.0.0.1:1: cannot connect (Connection refused)\n"


@pytest.mark.integration
@pytest.mark.slow
def test_shards_as_ray_tasks(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (the ray extra)")
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "include_dashboard": False})
    logs = tmp_path / "logs"
    try:
        command = ["run", "uxbench/task1_judge", "--shards", "2", "--log-dir", str(logs)]
        command += ["--ray-address", cluster.address, "--model", "mockllm/model", "-T", "data=sample"]
        assert main(command) == 0
    finally:
        cluster.shutdown()
    [row] = rows(build_report([logs], tmp_path / "r"))
    assert row.run.partial is None and "(pooled: shards 1, 2 of 2)" in row.run.name


TOKENS = ["-T", "shard=1/2", "-Tshard=1/2", "--model", "m", "--log-dir", "x", "--max-connections=2", ""]


@given(st.lists(st.sampled_from(TOKENS) | st.text(max_size=8), max_size=6))
def test_any_arguments_are_a_run_or_one_line(args: list[str]) -> None:
    """Whatever follows the task: accepted, or a DataError (one line), never another exception."""
    try:
        check_args(["--model", "mockllm/model", *args])
    except DataError as error:
        assert "\n" not in str(error)


def earlier(version: str, template: str = "a" * 16) -> dict[str, Any]:
    return {
        "full_task_version": version,
        **Recorded({"grader_template": template}, {"grader": "b" * 16}).metadata(),
    }


def test_a_resume_over_logs_of_another_experiment_stops_and_names_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    current = task_version().full
    logs = [("shard 1/2 (a.eval)", earlier(current)), ("shard 2/2 (b.eval)", earlier("1-A", "c" * 16))]
    monkeypatch.setattr(launch, "_earlier_logs", lambda log_dir, shards: logs)
    assert check_resume("logs", 2, "uxbench/task2_eval") == [
        f"shard 2/2 (b.eval): task version 1-A, while this uxbench runs {current}",
        "shard 2/2 (b.eval): file grader_template (contents) (against shard 1/2 (a.eval))",
    ]
    started: list[Any] = []
    monkeypatch.setattr(
        launch.ShardProcesses, "run", lambda self: started.append(self) or Outcome([0, 0], None)
    )
    command = [
        "run",
        "uxbench/task2_eval",
        "--shards",
        "2",
        "--log-dir",
        str(tmp_path),
        "--model",
        "mockllm/model",
    ]
    assert main(command) == 1 and not started
    err = capsys.readouterr().err
    assert err.startswith(f"Error: {tmp_path} holds logs of another experiment; resuming would mix them")
    assert err.endswith("Use another --log-dir, or pass --force to go on with these logs.\n")
    assert main([*command, "--force"]) == 0 and len(started) == 1
    monkeypatch.setattr(launch, "_earlier_logs", lambda log_dir, shards: logs[:1])
    assert check_resume("logs", 2, "uxbench/task2_eval") == []
