"""The released dataset on the hub against our loader.

Marked `dataset_download` and `huggingface` (pytest-inspect-evals' markers) and skipped unless
RUN_DATASET_DOWNLOAD_TESTS=1: it needs the network and an account that has accepted the
dataset's licence (`hf auth login`). Run it when the release may have changed:
`RUN_DATASET_DOWNLOAD_TESTS=1 pytest -m dataset_download`.
"""

import os
import re

import pytest

from uxbench.data.dataset import HUB_REPO, HUB_SPLIT, RELEASE_FILES, load_samples
from uxbench.data.records import LABEL_FIELDS

pytestmark = [
    pytest.mark.dataset_download,
    pytest.mark.huggingface,
    pytest.mark.skipif(
        os.environ.get("RUN_DATASET_DOWNLOAD_TESTS") != "1",
        reason="reads the dataset from the Hugging Face hub; set RUN_DATASET_DOWNLOAD_TESTS=1 to run",
    ),
]

RECORDS = {"task1": 2000, "task2": 4900, "task3": 500}  # docs/protocol.md#data
# Per config, the fields the loader needs, each as the names it accepts for that field.
NEEDED = {
    "task1_judge_good": [
        ("cid",),
        ("source_query", "query"),
        ("selected_history", "history"),
        ("agent_response_full", "response"),
        LABEL_FIELDS["success_pattern"],
    ],
    "task1_judge_bad": [
        ("cid",),
        ("source_query", "query"),
        ("selected_history", "history"),
        ("agent_response_full", "response"),
        LABEL_FIELDS["failure_dimension"],
    ],
    "task2_eval": [("cid",), ("query",), ("messages", "history"), LABEL_FIELDS["failure_dimension"]],
    "task3_recovery": [
        ("cid",),
        ("history",),
        ("failed_response",),
        ("user_complaint",),
        LABEL_FIELDS["failure_dimension"],
    ],
}


@pytest.mark.parametrize("config", RELEASE_FILES)
def test_hub_columns_hold_every_field_the_loader_needs(config: str) -> None:
    from datasets import load_dataset

    columns = set(load_dataset(HUB_REPO, config, split=HUB_SPLIT).column_names)
    missing = [names for names in NEEDED[config] if not columns & set(names)]
    assert not missing, f"{config} has none of {missing}; its columns: {sorted(columns)}"


@pytest.mark.parametrize("task", RECORDS)
def test_hub_release_loads_whole_at_a_recorded_commit(task: str) -> None:
    samples, report = load_samples(task, "hub")  # type: ignore[arg-type]
    assert report.records == len(samples) == RECORDS[task]
    assert report.skipped == [] and dict(report.unknown_fields) == {}
    assert re.fullmatch(r"[0-9a-f]{40}", report.dataset_revision or "")
