"""Loading: sources, error messages naming file/line/cid/field, counted skips, the hub commit."""

import gzip
import json
import logging
import time
from types import SimpleNamespace

import pytest
from helpers.records import judge_records, write_jsonl

from uxbench.data.dataset import HUB_REPO, RELEASE_FILES, TASK_CONFIGS, load_samples, uxbench_dataset
from uxbench.runtime.errors import DataError


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


# ------------------------------------------------------------ labels from file names (issue 12, class 7)

NO_LABEL = "field 'ground_truth': missing, and the file name does not say liked (good) or disliked (bad)"


@pytest.mark.parametrize(
    ("name", "outcome"),
    [
        ("a_unliked.jsonl", NO_LABEL),  # `liked` inside a word
        ("not_liked.jsonl", NO_LABEL),  # a negation
        ("no-good.jsonl", NO_LABEL),
        ("goodbye_bad.jsonl", "bad"),  # `good` inside a word; `bad` is a whole word
        ("bad_and_good.jsonl", NO_LABEL),  # both
        ("badge_holders.jsonl", NO_LABEL),
        ("uxbench_task1_judge_good_1k.jsonl.gz", "good"),
    ],
)
def test_only_whole_words_of_a_file_name_set_labels(tmp_path, name: str, outcome: str) -> None:
    _, bad = judge_records(0, 2)  # no ground_truth: the name decides, or nothing does
    path = write_jsonl(tmp_path / "plain.jsonl", bad)
    path = path.rename(tmp_path / name)
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(path.read_bytes()))
    if outcome in ("good", "bad"):
        samples, _ = load_samples("task1", str(path))
        assert [s.target for s in samples] == [outcome, outcome]
    else:
        with pytest.raises(DataError) as error:
            load_samples("task1", str(path))
        assert str(error.value).splitlines()[0] == f"{path}:1 (cid uxbench_ux_judge_1000): {outcome}"


def test_unread_label_like_fields_are_counted_and_logged(judge_dir, caplog) -> None:
    directory = judge_dir(2, 2)
    path = directory / RELEASE_FILES["task1_judge_bad"]
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows[0]["failure_type"] = "冗余啰嗦"
    rows[1] |= {"failure_type": "事实性错误", "Scenario": "办公与效率"}
    write_jsonl(path, rows)
    with caplog.at_level(logging.WARNING, logger="uxbench.data.dataset"):
        dataset, facts = uxbench_dataset("task1", str(directory), None, False)
    assert facts["records"] == 4 and facts["unknown_fields"] == {"failure_type": 2, "Scenario": 1}
    assert (
        "fields that look like labels but are not read (kept in each sample's unknown_fields metadata): "
        "failure_type in 2 records, Scenario in 1 record"
    ) in caplog.text
    (sample,) = [s for s in dataset if s.id == rows[1]["cid"]]
    assert sample.metadata["unknown_fields"] == {"failure_type": "事实性错误", "Scenario": "办公与效率"}


# ------------------------------------------------------------ the hub commit read (issue 19, part 3)

COMMIT = "0123456789abcdef0123456789abcdef01234567"


class FakeBuilder:
    """Stands in for `datasets.load_dataset_builder`: resolves a revision to a commit, as the hub does."""

    calls: list[tuple[str, str | None]] = []
    commits: dict[str | None, str] = {None: COMMIT, "main": COMMIT, "v1.0": COMMIT}

    def __init__(self, repo: str, config: str, revision: str | None = None) -> None:
        assert repo == HUB_REPO
        FakeBuilder.calls.append((config, revision))
        self.config = config
        self.hash = FakeBuilder.commits.get(revision, revision)

    def download_and_prepare(self) -> None:
        pass

    def as_dataset(self, split: str) -> list[dict]:
        assert split == "test"
        good, bad = judge_records(2, 2)
        for row in bad:  # arrow fills fields a row lacks with null
            row |= {"ground_truth": None, "success_dimension": None}
        rows = {"task1_judge_good": good, "task1_judge_bad": bad, "task2_eval": [], "task3_recovery": []}
        return rows[self.config]


@pytest.fixture
def fake_hub(monkeypatch):
    import datasets
    from huggingface_hub import HfApi

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_DATASETS_OFFLINE", raising=False)
    monkeypatch.setattr(HfApi, "dataset_info", lambda self, *args, **kwargs: SimpleNamespace(sha=COMMIT))
    monkeypatch.setattr(datasets, "load_dataset_builder", FakeBuilder)
    FakeBuilder.calls = []
    return FakeBuilder


@pytest.mark.parametrize("revision", [None, "main", "v1.0", COMMIT])
def test_hub_records_the_commit_it_read(fake_hub, revision) -> None:
    dataset, facts = uxbench_dataset("task1", "hub", revision, False)
    assert facts["dataset_revision"] == COMMIT and facts["revision"] == revision
    assert facts["data"] == "hub" and facts["records"] == len(dataset) == 4
    # the first config resolves the revision; the second is read at that commit, not at "main"
    assert fake_hub.calls == [(TASK_CONFIGS["task1"][0], revision), (TASK_CONFIGS["task1"][1], COMMIT)]
    assert sorted(s.target for s in dataset) == ["bad", "bad", "good", "good"]


def test_hub_configs_at_different_commits_stop_the_load(fake_hub, monkeypatch) -> None:
    other = "f" * 40
    monkeypatch.setattr(FakeBuilder, "commits", {None: COMMIT, COMMIT: other})
    with pytest.raises(DataError) as error:
        uxbench_dataset("task1", "hub", None, False)
    assert str(error.value) == (
        f"{HUB_REPO}:task1_judge_bad: read commit {other}, not {COMMIT} (an offline cache holding "
        "another version?); download the wanted revision or pass it with -T revision="
    )


def test_local_data_has_no_dataset_revision(judge_dir) -> None:
    _, facts = uxbench_dataset("task1", str(judge_dir(1, 1)), None, False)
    assert "dataset_revision" in facts and facts["dataset_revision"] is None
