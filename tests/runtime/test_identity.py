"""One experiment identity (`uxbench.runtime.identity`): equal keys exactly when nothing differs,
every difference named by its field, and a recorded identity read back only when it holds together."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uxbench.runtime.identity import IDENTITY_KEY, Identity, IdentityError, Recorded, canonical

names = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12)
scalars = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | names
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3),
    max_leaves=8,
)
settings = st.dictionaries(names, values, max_size=6)
digests = st.dictionaries(names, st.text("0123456789abcdef", min_size=16, max_size=16), max_size=3)
recorded = st.builds(Recorded, files=digests, prompts=digests)
identities = st.builds(
    Identity,
    task=st.sampled_from(["task1_judge", "task2_eval"]),
    version=st.sampled_from(["2-A", "3-A", None]),
    settings=settings,
    recorded=st.none() | recorded,
    data=st.fixed_dictionaries({"source": st.sampled_from(["sample", "hub"]), "hash": st.none() | names}),
)


@given(settings)
def test_the_key_does_not_depend_on_order_or_container(value: dict[str, Any]) -> None:
    shuffled = dict(reversed(list(value.items())))
    assert canonical(value) == canonical(shuffled)
    as_tuples = {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}
    assert canonical(value) == canonical(as_tuples)


def test_a_whole_float_is_its_int() -> None:
    assert canonical({"seed": 1.0, "t": 0.5}) == canonical({"t": 0.5, "seed": 1})
    assert canonical({"t": 0.5}) != canonical({"t": 0.25})


@given(identities, identities)
def test_equal_keys_exactly_when_no_field_differs(a: Identity, b: Identity) -> None:
    assert (a.key == b.key) == (not a.differences(b))
    assert (a.key == b.key) == (a.digest == b.digest)


@given(identities, names, values, values)
def test_a_differing_setting_is_named(identity: Identity, name: str, old: Any, new: Any) -> None:
    before = Identity(identity.task, identity.version, {**identity.settings, name: old}, identity.recorded)
    after = Identity(identity.task, identity.version, {**identity.settings, name: new}, identity.recorded)
    differences = before.differences(after)
    if canonical(old) == canonical(new):
        assert differences == []
    else:
        assert differences == [f"setting {name} {canonical(new)}, not {canonical(old)}"]


def test_each_field_says_what_differs() -> None:
    base = Identity(
        "task2_eval",
        "3-A",
        {"temperature": 0.7},
        Recorded({"grader_template": "a" * 16}, {"grader": "b" * 16}),
    )
    edited = Identity(
        "task2_eval",
        "2-A",
        {"temperature": 0.7},
        Recorded({"grader_template": "c" * 16}, {"grader": "d" * 16}),
    )
    assert base.differences(edited) == [
        "task version 2-A, not 3-A",
        "file grader_template (contents)",
        "prompt grader as sent",
    ]
    older = Identity("task2_eval", "3-A", {"temperature": 0.7}, None)
    assert base.differences(older) == [
        "files: one log records no digests of its files (an older version)",
        "prompts: one log records no digests of its prompts (an older version)",
    ]


@given(recorded)
def test_a_recorded_identity_reads_back(found: Recorded) -> None:
    assert Recorded.read(found.metadata(), "log") == found


@given(recorded, st.sampled_from(["files", "prompts"]), names)
def test_an_edited_identity_is_refused(found: Recorded, part: str, name: str) -> None:
    metadata = found.metadata()
    metadata[IDENTITY_KEY][part] = {**metadata[IDENTITY_KEY][part], name: "f" * 15 + "0"}
    if (
        Recorded(**{**{"files": found.files, "prompts": found.prompts}, part: metadata[IDENTITY_KEY][part]})
        == found
    ):
        return  # the same digest written again
    with pytest.raises(IdentityError, match=rf"^log: metadata {IDENTITY_KEY}.digest does not match"):
        Recorded.read(metadata, "log")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("x", f"log: metadata {IDENTITY_KEY} is not a mapping"),
        ({"files": [], "prompts": {}}, f"log: metadata {IDENTITY_KEY}.files is not a mapping of digests"),
        (
            {"files": {}, "prompts": {"a": 1}},
            f"log: metadata {IDENTITY_KEY}.prompts is not a mapping of digests",
        ),
    ],
)
def test_a_malformed_identity_is_one_line(value: Any, message: str) -> None:
    with pytest.raises(IdentityError) as raised:
        Recorded.read({IDENTITY_KEY: value}, "log")
    assert str(raised.value) == message


def test_a_log_without_one_is_none() -> None:
    assert Recorded.read({}, "log") is None and Recorded.read(None, "log") is None
