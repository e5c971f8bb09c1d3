"""Loading: sources, error messages naming file/line/cid/field, counted skips."""

import json
import time

import pytest
from conftest import judge_records, write_jsonl

from uxbench.dataset import RELEASE_FILES, load_samples, uxbench_dataset
from uxbench.errors import DataError


def test_directory_loads_both_task1_files(judge_dir) -> None:
    samples, report = load_samples("task1", str(judge_dir(3, 2)))
    assert report.records == 5 and not report.skipped
    assert sorted(s.target for s in samples) == ["bad", "bad", "good", "good", "good"]


def test_task1_is_interleaved_for_limit(judge_dir) -> None:
    dataset, facts = uxbench_dataset("task1", str(judge_dir(3, 3)), None, False)
    assert [s.target for s in dataset][:4] == ["good", "bad", "good", "bad"]
    assert facts["records"] == 6 and facts["skipped_records"] == 0


def test_single_file_takes_label_from_name(tmp_path) -> None:
    good, bad = judge_records(0, 2)
    path = write_jsonl(tmp_path / "my_bad_cases.jsonl", bad)
    samples, _ = load_samples("task1", str(path))
    assert {s.target for s in samples} == {"bad"}
    plain = write_jsonl(tmp_path / "cases.jsonl", bad)
    with pytest.raises(DataError, match=r"cases.jsonl:1 \(cid uxbench_ux_judge_1000\): field 'ground_truth'"):
        load_samples("task1", str(plain))


def test_bad_record_names_file_line_cid_field(tmp_path) -> None:
    good, bad = judge_records(2, 2)
    del bad[1]["agent_response_full"]
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_good"], good)
    (tmp_path / RELEASE_FILES["task1_judge_bad"]).write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in bad) + "\n{broken\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError) as error:
        load_samples("task1", str(tmp_path))
    message = str(error.value)
    assert f"{RELEASE_FILES['task1_judge_bad']}:2 (cid uxbench_ux_judge_1001)" in message
    assert "field 'agent_response_full': missing (accepted names: agent_response_full, response)" in message
    assert "skip_bad=true" in message

    samples, report = load_samples("task1", str(tmp_path), skip_bad=True)
    assert len(samples) == 3
    assert len(report.skipped) == 2
    assert "not valid JSON" in report.skipped[1]


def test_duplicate_cid(tmp_path) -> None:
    good, bad = judge_records(2, 1)
    bad[0]["cid"] = good[0]["cid"]
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_good"], good)
    write_jsonl(tmp_path / RELEASE_FILES["task1_judge_bad"], bad)
    with pytest.raises(DataError, match="duplicate of .*good_1k.jsonl:1"):
        load_samples("task1", str(tmp_path))


def test_missing_release_file_and_path(tmp_path) -> None:
    with pytest.raises(DataError, match="missing uxbench_task2_eval_4900.jsonl"):
        load_samples("task2", str(tmp_path))
    with pytest.raises(DataError, match="no such file or directory"):
        load_samples("task1", str(tmp_path / "nope"))


def test_hub_unreachable_fails_fast_with_instructions(monkeypatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # closed port: refused at once
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_DATASETS_OFFLINE", raising=False)
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "ENDPOINT", "http://127.0.0.1:9")
    start = time.monotonic()
    with pytest.raises(DataError) as error:
        load_samples("task2", "hub")
    assert time.monotonic() - start < 30
    assert "hf download mengze-hong/UXBench" in str(error.value)
    assert "-T data=" in str(error.value)


def test_gated_hub(monkeypatch) -> None:
    from huggingface_hub import HfApi
    from huggingface_hub.errors import GatedRepoError

    def gated(*args, **kwargs):
        error = GatedRepoError.__new__(GatedRepoError)
        Exception.__init__(error, "403 gated")
        raise error

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(HfApi, "dataset_info", gated)
    with pytest.raises(DataError, match="gated"):
        load_samples("task1", "hub")
