"""The PII benchmark's corpus, smaller: every kind of personal data is caught and every kind of
near-miss survives at the goal of bench/pii.py (recall ≥ 99.5%, near-misses kept ≥ 98%)."""

from __future__ import annotations

import pytest
from helpers.piicorpus import NEAR_KINDS, PII_KINDS, measure, turns

from uxbench.pipeline.privacy.redact import find_spans, redact_text


@pytest.fixture(scope="module")
def tally():
    return measure(turns(2000, seed=7), find_spans)


@pytest.mark.parametrize("kind", [k for k, *_ in PII_KINDS])
def test_every_kind_of_personal_data_is_caught(tally, kind: str) -> None:
    assert tally.planted[kind] >= 90
    assert tally.right[kind] / tally.planted[kind] >= 0.995, tally.misses.get(kind)


@pytest.mark.parametrize("kind", [k for k, *_ in NEAR_KINDS])
def test_every_kind_of_near_miss_survives(tally, kind: str) -> None:
    assert tally.planted[kind] >= 50
    assert tally.right[kind] / tally.planted[kind] >= 0.98, tally.misses.get(kind)


def test_the_corpus_is_seeded_and_planted_spans_hold_their_values() -> None:
    first, again = turns(300, seed=3), turns(300, seed=3)
    assert [t.text for t in first] == [t.text for t in again]
    assert [t.text for t in first] != [t.text for t in turns(300, seed=4)]
    for turn in first:
        for start, end, _ in turn.pii + turn.near:
            assert 0 <= start < end <= len(turn.text)
        for start, end, _ in turn.pii:  # no planted value survives redaction
            assert turn.text[start:end] not in redact_text(turn.text)
