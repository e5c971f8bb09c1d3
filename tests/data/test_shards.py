"""`-T shard=K/N`: disjoint, complete shards chosen by record id, in every task and its log."""

import json
import random
from pathlib import Path

import pytest
from helpers.records import write_jsonl
from inspect_ai import eval

from uxbench.data.dataset import RELEASE_FILES, sample_dir
from uxbench.data.exclusions import append_exclusion
from uxbench.data.shards import Shard, shard_samples
from uxbench.runtime.errors import DataError
from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery


def ids(task, **args) -> list[str]:
    return [str(s.id) for s in task(**{"data": "sample", **args}).dataset]


@pytest.mark.parametrize("task", [task1_judge, task2_eval, task3_recovery, grader_check])
@pytest.mark.parametrize("count", [2, 3])
def test_shards_are_disjoint_and_complete(task, count: int) -> None:
    whole = ids(task)
    shards = [ids(task, shard=f"{k}/{count}") for k in range(1, count + 1)]
    pooled = [i for shard in shards for i in shard]
    assert len(pooled) == len(set(pooled)) and set(pooled) == set(whole)
    assert all(shards)
    for shard in shards:  # each shard keeps the task's own order (Task 1: liked and disliked alternate)
        assert shard == [i for i in whole if i in set(shard)]


@pytest.mark.integration
def test_a_record_keeps_its_shard_when_records_are_reordered_or_excluded(tmp_path: Path) -> None:
    lines = (sample_dir() / RELEASE_FILES["task2_eval"]).read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    random.Random(1).shuffle(records)
    shuffled = write_jsonl(tmp_path / "shuffled.jsonl", records)
    exclude = tmp_path / "exclude.jsonl"
    append_exclusion(exclude, records[0]["cid"], "a test", "me")
    for k in (1, 2, 3):
        original = ids(task2_eval, shard=f"{k}/3")
        assert sorted(ids(task2_eval, data=str(shuffled), shard=f"{k}/3")) == sorted(original)
        kept = task2_eval(data=str(shuffled), shard=f"{k}/3", exclude=str(exclude)).dataset
        assert sorted(str(s.id) for s in kept) == sorted(set(original) - {records[0]["cid"]})


@pytest.mark.parametrize("value", ["0/2", "3/2", "x", "1/0", "-1/2", "1/2/3"])  # empty: test_parameters
def test_bad_shards_are_one_line_errors(value: str) -> None:
    with pytest.raises(DataError, match=r"^shard=.*give K/N with 1 <= K <= N") as error:
        task2_eval(data="sample", shard=value)
    assert "\n" not in str(error.value)


def test_a_shard_without_records_is_refused() -> None:
    samples = task3_recovery(data="sample").dataset
    with pytest.raises(DataError, match=r"shard=\d+/1000: none of the \d+ records"):
        for k in range(1, 1001):
            shard_samples(list(samples), f"{k}/1000")


@pytest.mark.integration
def test_the_shard_is_in_the_metadata_and_the_log(tmp_path: Path) -> None:
    [log] = eval(
        task1_judge(data="sample", shard="2/3"),
        model="mockllm/model",
        limit=2,
        epochs=2,
        display="none",
        log_dir=str(tmp_path),
    )
    assert log.status == "success"
    meta = log.eval.metadata
    whole = len(ids(task1_judge))
    assert meta["shard"] == "2/3" and meta["unsharded_records"] == whole
    assert meta["shard_records"] == len(ids(task1_judge, shard="2/3"))
    assert log.eval.task_args["shard"] == "2/3"
    # shard first, then --limit: the two records are the shard's first two, each run twice
    assert [s.id for s in log.samples if s.epoch == 1] == ids(task1_judge, shard="2/3")[:2]
    assert len(log.samples) == 4


def test_shard_parsing() -> None:
    assert Shard.parse(" 3 / 4 ") == Shard(3, 4) and str(Shard(3, 4)) == "3/4"
    assert sum(Shard(k, 5).holds("uxbench_ux_eval_0001") for k in range(1, 6)) == 1
