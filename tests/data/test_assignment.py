"""The team split and the gold items: the same in every annotator's process, balanced per class."""

from __future__ import annotations

import pytest
from inspect_ai.dataset import Sample

from uxbench.data.assignment import GOLD_PREFIX, SHARED, Study, assign, mix_gold
from uxbench.runtime.errors import DataError

TEAM = ("ana", "ben", "cai")


def records(n_good: int = 30, n_bad: int = 30) -> list[Sample]:
    good = [Sample(id=f"g{i}", input="q", target="good") for i in range(n_good)]
    bad = [Sample(id=f"b{i}", input="q", target="bad") for i in range(n_bad)]
    return good + bad


def ids(samples: list[Sample]) -> list[str]:
    return [str(s.id) for s in samples]


def shares(overlap: float, seed: int = 0) -> dict[str, list[Sample]]:
    return {who: assign(records(), Study(who, TEAM, overlap, seed))[0] for who in TEAM}


def test_every_record_is_judged_and_the_shared_ones_by_everyone() -> None:
    split = shares(0.2)
    kind = {who: {str(s.id): s.metadata["assignment"] for s in got} for who, got in split.items()}
    shared = {who: {i for i, k in got.items() if k == SHARED} for who, got in kind.items()}
    own = {who: {i for i, k in got.items() if k != SHARED} for who, got in kind.items()}
    assert shared["ana"] == shared["ben"] == shared["cai"]
    assert len(shared["ana"]) == 12  # round(0.2 × 30) of each class
    assert not own["ana"] & own["ben"] and not own["ben"] & own["cai"] and not own["ana"] & own["cai"]
    assert shared["ana"] | own["ana"] | own["ben"] | own["cai"] == set(ids(records()))
    # dealt in turn within each class: 24 own liked and 24 own disliked records, 8 and 8 each
    for who in TEAM:
        assert sum(s.target == "good" for s in split[who] if s.metadata["assignment"] != SHARED) == 8


def test_the_split_depends_only_on_the_settings() -> None:
    assert ids(shares(0.2)["ben"]) == ids(shares(0.2)["ben"])
    assert ids(shares(0.2, seed=1)["ben"]) != ids(shares(0.2)["ben"])
    mine, counts = assign(records(), Study("ben", TEAM, 0.2))
    assert counts == {
        "records": 60,
        "assigned": 28,
        "shared": 12,
        "per_annotator": {"ana": 28, "ben": 28, "cai": 28},
    }
    assert ids(mine) == [i for i in ids(records()) if i in set(ids(mine))]  # the task's order is kept


def test_overlap_at_the_ends() -> None:
    assert all(len(mine) == 60 for mine in shares(1.0).values())
    assert sum(len(mine) for mine in shares(0.0).values()) == 60
    alone, counts = assign(records(), Study("ana"))  # no team: everything
    assert ids(alone) == ids(records()) and counts["assigned"] == 60 and counts["shared"] == 0


@pytest.mark.parametrize(
    ("study", "says"),
    [
        (lambda: Study("dee", TEAM), "annotator 'dee' is not in team=ana,ben,cai"),
        (lambda: Study("ana", ("ana", "ana")), "names someone twice"),
        (lambda: Study("ana", TEAM, overlap=1.5), "overlap=1.5: give a share between 0 and 1"),
    ],
)
def test_bad_settings_are_named(study, says: str) -> None:
    with pytest.raises(DataError, match=says):
        study()


def test_gold_items_are_spread_through_each_run() -> None:
    run = records(10, 10)
    gold = [Sample(id=f"k{i}", input="q", target="bad") for i in range(4)]
    mixed = mix_gold(run, gold, Study("ana"))
    assert [s for s in mixed if not str(s.id).startswith(GOLD_PREFIX)] == run  # the records' order kept
    placed = [i for i, s in enumerate(mixed) if str(s.id).startswith(GOLD_PREFIX)]
    assert sorted(str(mixed[i].id) for i in placed) == [f"gold/k{i}" for i in range(4)]
    assert all(mixed[i].metadata["gold"] for i in placed)
    assert placed[0] > 0 and placed[-1] < len(mixed) - 1  # not bunched at either end
    assert mix_gold(run, gold, Study("ana")) == mixed
    other = mix_gold(run, gold, Study("ben"))
    assert [str(s.id) for s in other] != [str(s.id) for s in mixed]  # two people's checks do not line up
    assert mix_gold(run, [], Study("ana")) == run
