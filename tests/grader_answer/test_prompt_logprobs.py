"""The verified reading of P(good) from a server's prompt logprobs (uxbench.grader_answer.prompt_logprobs).

Generated servers: random tokenisations of the prompt and of both labels (whole characters,
byte tokens printed as vLLM prints them, a SentencePiece `▁`), prompt tokens listed with or
without the rank-1 alternative in any order, noise on the shared prefix (a batched bfloat16
server), and broken bodies: null, missing and malformed entries, an end-of-turn token after the
label, a merge across the label's start. The reading is exactly the sum of the label's own
tokens' logprobs, or no number with one of the named reasons.
"""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inspect_ai.model import Logprob, Logprobs

from uxbench.grader_answer.prompt_logprobs import (
    AFTER_LABEL,
    AMBIGUOUS_ENTRY,
    MALFORMED_ENTRY,
    MERGED,
    MISSING_ENTRY,
    NO_PROMPT_LOGPROBS,
    NULL_ENTRY,
    PREFIX_APART,
    SKIP_REASONS,
    UNUSABLE_LABEL,
    Position,
    Unreadable,
    keep_prompt_logprobs,
    label_reading,
    parsed_positions,
    raw_positions,
)

LABELS = {"good": ["好", "good"], "bad": ["差", "bad"]}
ASCII = {"good": ["good"], "bad": ["bad"]}


def vllm_texts(chunks: list[bytes]) -> list[str]:
    """What vLLM prints for each byte chunk: "" until a character is complete, then all of it."""
    texts, pending = [], b""
    for chunk in chunks:
        pending += chunk
        try:
            texts.append(pending.decode("utf-8"))
            pending = b""
        except UnicodeDecodeError:
            texts.append("")
    return texts


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % len(data) for c in cuts if c % len(data)})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


def tok_id(text: str, salt: int) -> str:
    return str(abs(hash((text, salt))) % 100_000)


def entries(tokens: list[tuple[str, float, str]], ranked: list[bool], order: list[bool]) -> list:
    """vLLM's body: null first, then each prompt token; where `ranked`, the prompt token at rank 3
    with the rank-1 alternative beside it (`order`: the alternative listed first)."""
    body: list = [None]
    for (text, logprob, token_id), alt, first in zip(tokens, ranked, order, strict=False):
        own = {token_id: {"logprob": logprob, "rank": 3 if alt else 1, "decoded_token": text}}
        if alt:
            other = {"x" + token_id: {"logprob": -0.01, "rank": 1, "decoded_token": "I"}}
            own = {**other, **own} if first else {**own, **other}
        body.append(own)
    return body


@st.composite
def servers(draw: st.DrawFn, labels: dict = LABELS) -> dict:
    """Two requests' prompt tokens: a shared prefix (with its own noise in each), then a label."""
    words = ["<|im_start|>", "user", "\n", "好的", "答案", "：", ""]
    prefix = draw(st.lists(st.sampled_from(words), max_size=8))
    prefix = [*prefix, "\n"]  # the assistant header ends in a newline (nothing merges with the label)
    requests = {}
    for name in ("good", "bad"):
        label = labels[name][0]
        chunks = split(label.encode(), draw(st.lists(st.integers(0, 20), max_size=4)))
        texts = vllm_texts(chunks)
        logprobs = draw(st.lists(st.floats(-12, 0), min_size=len(texts), max_size=len(texts)))
        noise = draw(st.lists(st.floats(-0.05, 0.05), min_size=len(prefix), max_size=len(prefix)))
        shared = [(t, -1.0 + n, tok_id(t, i)) for i, (t, n) in enumerate(zip(prefix, noise, strict=True))]
        own = [(t, lp, tok_id(c.hex(), 99)) for t, lp, c in zip(texts, logprobs, chunks, strict=True)]
        requests[name] = (shared + own, sum(logprobs))
    size = max(len(v[0]) for v in requests.values())
    ranked = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    order = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    return {name: (entries(tokens, ranked, order), true) for name, (tokens, true) in requests.items()}


def read(server: dict, labels: dict = LABELS, prefix: str = ""):
    """The reading of two bodies; an entry's third item, when there, is the usage's prompt_tokens."""
    try:
        good, bad = (raw_positions(*server[name][0::2]) for name in ("good", "bad"))
    except Unreadable as why:
        return None, str(why)
    reading = label_reading(good, bad, labels, prefix)
    return reading, reading.problem


@given(servers())
@settings(max_examples=300)
def test_a_well_formed_body_reads_exactly_the_labels_own_tokens(server: dict) -> None:
    reading, problem = read(server)
    assert problem is None
    assert reading.good == pytest.approx(server["good"][1], abs=1e-9)
    assert reading.bad == pytest.approx(server["bad"][1], abs=1e-9)


@given(servers(ASCII))
@settings(max_examples=100)
def test_ascii_labels_of_any_tokenisation(server: dict) -> None:
    reading, problem = read(server, ASCII)
    assert problem is None and reading.good == pytest.approx(server["good"][1], abs=1e-9)


def mutate(server: dict, how: str, rng: random.Random) -> dict:
    name = rng.choice(["good", "bad"])
    body = [None if e is None else {k: dict(v) for k, v in e.items()} for e in server[name][0]]
    position = rng.randrange(1, len(body))
    entry = body[position]
    if how == "null":
        body[position] = None
    elif how == "no logprob":
        next(iter(entry.values())).pop("logprob")
    elif how == "string logprob":
        next(iter(entry.values()))["logprob"] = "-0.5"
    elif how == "bool logprob":
        next(iter(entry.values()))["logprob"] = True
    elif how == "closed turn":
        body += [{"2": {"logprob": -0.1, "rank": 1, "decoded_token": t}} for t in ("<|im_end|>", "\n")]
    elif how == "empty end token":
        body.append({"2": {"logprob": -0.1, "rank": 1, "decoded_token": ""}})
    elif how == "dropped":
        del body[position]
    elif how == "nan":
        next(iter(body[-1].values()))["logprob"] = math.nan
    elif how == "positive":
        next(iter(body[-1].values()))["logprob"] = 0.5
    elif how == "both rank 1":
        body[position] = {
            "1": {"logprob": -0.2, "rank": 1, "decoded_token": "a"},
            "2": {"logprob": -0.3, "rank": 1, "decoded_token": "b"},
        }
    elif how == "renamed prefix":
        body[1] = {"77777": {"logprob": -1.0, "rank": 1, "decoded_token": "zz"}}
    return {**server, name: (body, server[name][1], len(server[name][0]))}


MUTATIONS = [
    "null",
    "no logprob",
    "string logprob",
    "bool logprob",
    "closed turn",
    "empty end token",
    "dropped",
    "nan",
    "positive",
    "both rank 1",
    "renamed prefix",
]


@given(servers(), st.sampled_from(MUTATIONS), st.randoms(use_true_random=False))
@settings(max_examples=600)
def test_a_broken_body_gives_the_true_value_or_a_named_skip_never_another_number(
    server: dict, how: str, rng: random.Random
) -> None:
    reading, problem = read(mutate(server, how, rng))
    if problem is None:  # e.g. a dropped "" of the prefix, or a null in place of the first token
        assert reading.good == pytest.approx(server["good"][1], abs=1e-9)
        assert reading.bad == pytest.approx(server["bad"][1], abs=1e-9)
    else:
        assert problem in SKIP_REASONS and (reading is None or reading.score is None)


def body(*tokens: tuple[str, float]) -> list:
    return [None, *({str(i): {"logprob": lp, "decoded_token": t}} for i, (t, lp) in enumerate(tokens))]


def test_named_reasons() -> None:
    good = body(("\n", -1.0), ("", -0.1), ("", -0.2), ("好", -0.3))
    bad = body(("\n", -1.0), ("", -0.1), ("", -0.5), ("差", -0.6))
    assert read({"good": (good, 0), "bad": (bad, 0)})[0].good == pytest.approx(-0.6)
    closed = [*good, {"9": {"logprob": -0.1, "decoded_token": "<|im_end|>"}}]
    assert read({"good": (closed, 0), "bad": (bad, 0)})[1] == AFTER_LABEL
    merged = body(("\n", -1.0), ("：好", -0.3))
    other = body(("\n", -1.0), ("：差", -0.3))
    assert read({"good": (merged, 0), "bad": (other, 0)}, prefix="：")[1] == MERGED
    apart = body(("\r\n", -1.0), ("", -0.1), ("", -0.5), ("差", -0.6))
    assert read({"good": (good, 0), "bad": (apart, 0)})[1] == PREFIX_APART
    assert read({"good": ([None], 0), "bad": (bad, 0)})[1] == NO_PROMPT_LOGPROBS
    assert read({"good": ([None, None, *good[1:]], 0), "bad": (bad, 0)})[1] == NULL_ENTRY
    assert read({"good": (good, 0, len(good) + 1), "bad": (bad, 0)})[1] == MISSING_ENTRY
    missing = [None, {"1": {"decoded_token": "\n"}}, *good[2:]]
    assert read({"good": (missing, 0), "bad": (bad, 0)})[1] == MALFORMED_ENTRY
    both = [None, {"1": {"logprob": -1, "rank": 1}, "2": {"logprob": -2, "rank": 1}}, *good[2:]]
    assert read({"good": (both, 0), "bad": (bad, 0)})[1] == AMBIGUOUS_ENTRY
    above = body(("\n", -1.0), ("", -0.1), ("", -0.2), ("好", 0.3))
    assert read({"good": (above, 0), "bad": (bad, 0)})[1] == UNUSABLE_LABEL


def test_a_sentencepiece_space_belongs_to_the_label_unless_the_text_before_ends_in_one() -> None:
    good, bad = body(("[/INST]", -1.0), ("▁好", -0.2)), body(("[/INST]", -1.0), ("▁差", -0.7))
    reading, problem = read({"good": (good, 0), "bad": (bad, 0)})
    assert problem is None and reading.score == pytest.approx(1 / (1 + math.exp(-0.5)))
    assert read({"good": (good, 0), "bad": (bad, 0)}, prefix="答案： ")[1] == MERGED


def test_the_prompt_token_is_told_from_the_rank_1_alternative_by_its_rank() -> None:
    listed_first = [None, {"5": {"logprob": -0.01, "rank": 1, "decoded_token": "I"},
                           "6": {"logprob": -2.0, "rank": 4, "decoded_token": "好"}}]  # fmt: skip
    assert [p.text for p in raw_positions(listed_first)] == ["好"]
    assert raw_positions(listed_first)[0] == Position("好", -2.0, "6")


class _Api:
    def __init__(self) -> None:
        self.seen: list = []

    def on_response(self, response: dict) -> None:
        self.seen.append(response)


class _Model:
    def __init__(self, api: object) -> None:
        self.api = api


def test_the_hook_keeps_the_providers_own_check_and_wraps_once() -> None:
    api = _Api()
    model = _Model(api)
    assert keep_prompt_logprobs(model) and keep_prompt_logprobs(model)  # type: ignore[arg-type]
    model.api.on_response({"prompt_logprobs": [None]})
    assert api.seen == [{"prompt_logprobs": [None]}]  # the provider's own hook still runs, once
    assert not keep_prompt_logprobs(_Model(object()))  # type: ignore[arg-type]


def test_inspects_parsed_logprobs_are_read_by_text() -> None:
    good = Logprobs(content=[Logprob(token="\n", logprob=-1.0), Logprob(token="好", logprob=-0.2)])
    bad = Logprobs(content=[Logprob(token="\n", logprob=-1.1), Logprob(token="差", logprob=-0.9)])
    reading = label_reading(parsed_positions(good), parsed_positions(bad), LABELS)
    assert (reading.good, reading.bad) == (-0.2, -0.9)
    with pytest.raises(Unreadable, match="no prompt logprobs"):
        parsed_positions(None)
