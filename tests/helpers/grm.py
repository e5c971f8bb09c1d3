"""Helpers for the GRM task tests: Task 2/3 release files and grader answers with logprobs.

Every record carries its number as `#N#` in the query (Task 2) or in the failed reply and
the complaint (Task 3), so a responder can tell records apart from any prompt.
"""

import json
import math
import re
from pathlib import Path

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import Logprob, Logprobs, Model, ModelOutput, TopLogprob, get_model

from uxbench.data.dataset import RELEASE_FILES
from uxbench.scorers.grm import grm

SCENARIOS = ["信息与知识查询", "办公与效率", "情绪与心理支持"]
DIMENSIONS = ["冗余啰嗦", "事实性错误", "意图理解偏差", "任务未完成"]
DIFFICULTIES = ["easy", "medium", "hard", "very_hard"]
NUMBER = re.compile(r"#(\d+)#")


def record_number(text: str) -> int:
    return int(NUMBER.search(text).group(1))


def eval_records(n: int) -> list[dict]:
    """Task 2 records in both release shapes (`messages` ending with the query, or `history`)."""
    records = []
    for i in range(n):
        query = f"第 {i} 个问题 #{i}#"
        earlier = [
            {"role": "user", "content": f"早先的问题 {i}"},
            {"role": "assistant", "content": f"早先的回答 {i}"},
        ]
        shape = (
            {"messages": [*earlier, {"role": "user", "content": query}]} if i % 2 else {"history": earlier}
        )
        records.append(
            {
                "cid": f"uxbench_ux_eval_{i:04d}",
                "query": query,
                **shape,
                "dimension": DIMENSIONS[i % len(DIMENSIONS)],
                "scenario": SCENARIOS[i % len(SCENARIOS)],
                "difficulty": DIFFICULTIES[i % len(DIFFICULTIES)],
            }
        )
    return records


def recovery_records(n: int) -> list[dict]:
    return [
        {
            "cid": f"uxbench_ux_recovery_{i:04d}",
            "history": [
                {"role": "user", "content": f"最早的寒暄 {i}"},
                {"role": "assistant", "content": f"最早的回应 {i}"},
                {"role": "user", "content": f"原来的问题 {i}"},
            ],
            "failed_response": f"让用户失望的回复 #{i}#",
            "user_complaint": f"不对，我要的不是这个 #{i}#",
            "failure_dimension": DIMENSIONS[i % len(DIMENSIONS)],
            "scenario": SCENARIOS[i % len(SCENARIOS)],
        }
        for i in range(n)
    ]


def write_data(directory: Path, task2: int = 0, task3: int = 0) -> Path:
    """A data directory holding the Task 2 and/or Task 3 release files."""
    directory.mkdir(parents=True, exist_ok=True)
    for config, records in (("task2_eval", eval_records(task2)), ("task3_recovery", recovery_records(task3))):
        if records:
            lines = (json.dumps(r, ensure_ascii=False) + "\n" for r in records)
            (directory / RELEASE_FILES[config]).write_text("".join(lines), encoding="utf-8")
    return directory


def grader_output(text: str, p_good: float | None = None, p_bad: float | None = None) -> ModelOutput:
    """A grader answer whose first token lists 好 and/or 差 with the given probabilities."""
    out = ModelOutput.from_content("mockllm/model", text)
    tops = [TopLogprob(token=t, logprob=math.log(p)) for t, p in (("好", p_good), ("差", p_bad)) if p]
    chosen = next((t.logprob for t in tops if t.token == text[:1]), math.log(0.5))
    out.choices[0].logprobs = Logprobs(content=[Logprob(token=text[:1], logprob=chosen, top_logprobs=tops)])
    return out


def metric_values(log: EvalLog) -> dict[str, float]:
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def grade_reply(tmp_path: Path, grader: Model, reply: str) -> EvalLog:
    """One sample: the model under test says `reply`, `grader` grades it (no retries)."""
    model = get_model("mockllm/model", custom_outputs=[ModelOutput.from_content("mockllm", reply)])
    [log] = eval(
        Task(dataset=[Sample(id=1, input="问题")], scorer=grm()),
        model=model,
        model_roles={"grader": grader},
        log_dir=str(tmp_path),
        display="none",
        max_retries=0,
    )
    return log
