"""`uxbench run`: N shard processes of one run, the connections divided, resumed by running it again."""

from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import list_eval_logs

from uxbench.cli import main
from uxbench.report import build_report
from uxbench.report.rows import Row
from uxbench.report.sections import Leaderboard
from uxbench.runtime.launch import shard_args, shard_connections
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


def test_a_shard_given_to_inspect_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert (
        main(["run", "uxbench/task2_eval", "--shards", "2", "--log-dir", str(tmp_path), "-T", "shard=1/2"])
        == 1
    )
    assert "uxbench run sets each process's shard" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


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


def test_an_unreachable_ray_cluster_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'uxbench[ray]')")
    command = ["run", "uxbench/task1_judge", "--shards", "2", "--log-dir", str(tmp_path), "--ray-address"]
    assert main([*command, "127.0.0.1:1", "--model", "mockllm/model"]) == 1
    assert capsys.readouterr().err == "Error: Ray cluster 127.0.0.1:1: cannot connect (Connection refused)\n"


@pytest.mark.slow
def test_shards_as_ray_tasks(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'uxbench[ray]')")
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
