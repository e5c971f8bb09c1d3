"""inspect-flow runs all three tasks, binding the grader role as `FlowTask(model_roles=...)` does.

Flow builds each task before it binds the task's roles; the grader is asked for only when the
first sample is solved (tasks/solvers.py `require_grader`).
"""

from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

flow = pytest.importorskip("inspect_flow")
flow_api = pytest.importorskip("inspect_flow.api")


def test_flow_runs_every_task_with_a_grader_role(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # flow records the environment with `uv pip freeze` and `uv pip compile` (hashes from the package
    # index): not part of what is tested here, and the tests stay off the network
    monkeypatch.setattr("inspect_flow._launcher.inproc.write_flow_requirements", lambda *_, **__: None)
    graded = {"model_roles": {"grader": "mockllm/grader"}}
    spec = flow.FlowSpec(
        log_dir=str(tmp_path / "logs"),
        execution_type="inproc",
        store=None,
        options=flow.FlowOptions(limit=2, display="none"),
        tasks=[
            flow.FlowTask(name="uxbench/task1_judge", model="mockllm/model", args={"data": "sample"}),
            flow.FlowTask(
                name="uxbench/task2_eval", model="mockllm/model", args={"data": "sample"}, **graded
            ),
            flow.FlowTask(
                name="uxbench/task3_recovery", model="mockllm/model", args={"data": "sample"}, **graded
            ),
        ],
    )
    result = flow_api.run(spec)
    assert result.success
    logs = {log.eval.task: read_eval_log(log.location) for log in result.logs}
    assert set(logs) == {"uxbench/task1_judge", "uxbench/task2_eval", "uxbench/task3_recovery"}
    assert {log.status for log in logs.values()} == {"success"}
    for task in ("uxbench/task2_eval", "uxbench/task3_recovery"):
        samples = logs[task].samples or []
        assert len(samples) == 2
        assert {sample.scores["grm"].metadata["grader"] for sample in samples} == {"mockllm/grader"}
