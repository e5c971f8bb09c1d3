"""Redaction of personal data, before any text reaches an agent stage or a file.

Each detector finds spans of one type; overlapping spans go to the detector listed first, and
each span becomes a typed placeholder (`[EMAIL]`, `[PHONE]`, …). The detectors live by what
they find: `secrets` (credentials pasted into chat, URLs that carry one), `numbers` (checked
identifiers: resident IDs, SSNs, IBANs, cards, phones, IPs; the words before a number decide
an ambiguous one, `context`), `people` (emails, names, street addresses). What only looks like
personal data (an HTTP status line, a product's model name) is kept (`kept`). They read the text
in a normal form (full-width folded, Chinese numerals as digits, `艾特` as `@`); the form
maps every span back (`normalise`). Names and addresses come from a learned detector
(`learned`, the `pipeline-ner` extra) when it is installed. docs/pipeline.md#privacy has the
measured recall and precision per kind.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from uxbench.pipeline.privacy import accounts, documents, kept, learned, names, numbers, places, secrets
from uxbench.pipeline.privacy.context import CUE_WINDOW
from uxbench.pipeline.privacy.normalise import normalise
from uxbench.pipeline.read.rawlog import Conversation, LogTurn

TYPES = (
    "SECRET",
    "URL",
    "EMAIL",
    "ID_NUMBER",
    "SSN",
    "IBAN",
    "BANK_CARD",
    "DEVICE",
    "HANDLE",
    "PLATE",
    "PHONE",
    "IP",
    "ADDRESS",
    "NAME",
    "REDACTED",  # a whole text that a detector failed on
)
log = logging.getLogger(__name__)
Span = tuple[int, int, str]
Detector = Callable[[str], Iterator[Span]]

_DIGIT = re.compile(r"\d")
_PLACEHOLDER = re.compile(r"\[(?:" + "|".join(TYPES) + r")\]")

# (detector, what the text must hold for it to run): cheap tests skip most detectors on most turns
PATTERNS: tuple[tuple[Detector, Callable[[str], bool]], ...] = (
    (secrets.keys, lambda t: True),
    (secrets.urls, lambda t: "://" in t or "www." in t),
    (names.emails, lambda t: "@" in t),
    (numbers.ibans, _DIGIT.search),
    (numbers.id_numbers, _DIGIT.search),
    # a MAC may hold no digit (ba:ba:…); read before documents: `MAC地址是CA00000000EA` is no residence card
    (accounts.devices, lambda t: True),
    (documents.documents, _DIGIT.search),
    (numbers.ssns, _DIGIT.search),
    (numbers.cards, _DIGIT.search),
    (numbers.ips, lambda t: "." in t or ":" in t),
    (accounts.handles, accounts.may_handle),
    (accounts.plates, _DIGIT.search),
    (numbers.phones, _DIGIT.search),
    (secrets.credentials, lambda t: True),
    (places.addresses, places.may_address),
    (names.addresses, _DIGIT.search),
)
NAMES: tuple[Detector, Callable[[str], bool]] = (names.names, lambda t: True)
NAMES_INTRODUCED: tuple[Detector, Callable[[str], bool]] = (names.introduced, lambda t: True)


class _Read:
    """One text being read: its normal form, that form with every span found so far masked out
    (a card is not read again as a phone), and the spans with the rank of their detector."""

    def __init__(self, text: str) -> None:
        self.normal = normalise(text)
        folded = self.normal.text
        if "[" in folded:  # placeholders of an earlier pass are no values (`password: [SECRET]`)
            folded = _PLACEHOLDER.sub(lambda m: "\x00" * len(m.group()), folded)
        if statuses := kept.statuses(folded):  # `502 Bad Gateway` is read by no detector
            folded = _mask(folded, [(s, e, 0, "") for s, e in statuses])
        self.folded = folded
        self.found: list[tuple[int, int, int, str]] = []

    def add(self, rank: int, spans: Iterable[Span]) -> None:
        """A detector's spans, but a product's or a brand's name read as a person's (`kept`)."""
        ranked = [
            (start, end, rank, kind)
            for start, end, kind in spans
            if end > start
            and not (
                kind == "NAME"
                and (kept.product(self.folded, start, end) or kept.brand(self.folded, start, end))
            )
        ]
        if ranked:
            self.found += ranked
            self.folded = _mask(self.folded, ranked)

    def merged(self) -> list[Span]:
        """The spans on the original text, in its order; touching ones merged, typed by the
        detector listed first."""
        merged: list[list[int | str]] = []  # [start, end, rank, kind]
        for start, end, rank, kind in sorted((*self.normal.span(s, e), r, k) for s, e, r, k in self.found):
            if merged and start < int(merged[-1][1]):
                last = merged[-1]
                last[1] = max(int(last[1]), end)
                if rank < int(last[2]):
                    last[2:] = [rank, kind]
            else:
                merged.append([start, end, rank, kind])
        return [(int(s), int(e), str(k)) for s, e, _, k in merged]


class Redactor:
    """The patterns of the structured kinds, and names and addresses from the learned detector
    `ner` when there is one (with the names the text introduces, `我叫…`, `my name is …`), or from
    the name patterns when there is none (`learned.missing_warning` says what that costs)."""

    def __init__(self, ner: learned.NerDetector | None) -> None:
        self.ner = ner
        # the names a text introduces before the model: its part of one (高橋 英 of 担当は高橋 英樹です)
        # would mask the rest from the introduction's pattern
        self.detectors = (*PATTERNS, NAMES if ner is None else NAMES_INTRODUCED)  # read when made

    def find_spans(self, text: str) -> list[Span]:
        """Spans in text order, typed by the detector listed first. Each detector reads the
        normal form of the text (`normalise`) with the spans found before masked out (a card is
        not read again as a phone); a span that touches an earlier one merges with it, so nothing
        of either is left out. A detector that fails (a library's error on a strange string)
        fails closed: the whole text is one `REDACTED` span, and the error is logged."""
        return self.find_spans_many([text])[0]

    def find_spans_many(self, texts: list[str]) -> list[list[Span]]:
        """`find_spans` of each text, the learned detector last and reading them in one batch
        (spaCy's and GiNZA's `pipe` read a batch several times faster than text by text). When a
        detector fails on the batch, each text is read alone, and fails closed alone."""
        try:
            reads = []
            for text in texts:
                read = _Read(text)
                for rank, (detector, applies) in enumerate(self.detectors):
                    if applies(read.folded):
                        read.add(rank, detector(read.folded))
                reads.append(read)
            if self.ner is not None:
                batch = self.ner.spans_many([read.folded for read in reads])
                for read, spans in zip(reads, batch, strict=True):
                    read.add(len(self.detectors), spans)
            return [read.merged() for read in reads]
        except Exception as error:  # any library error: never let the text through
            if len(texts) > 1:
                return [self.find_spans(text) for text in texts]
            log.warning(
                "a detector failed on a text of %d characters (%r): redacted whole", len(texts[0]), error
            )
            return [[(0, len(texts[0]), "REDACTED")] if texts[0] else []]


@functools.cache
def default_redactor() -> Redactor:
    """The redactor of the pipeline: with the learned detector `UXBENCH_PII_NER` names (`auto`,
    the default: the one installed), warning once when none is (`learned.default`)."""
    return Redactor(learned.default())


def redaction_note() -> str:
    """What redacted the run, for its stats report: which learned detector, or the warning that
    none did and what that costs."""
    ner = default_redactor().ner
    return f"on: patterns + {ner.describe()}" if ner else f"on: {learned.missing_warning()}"


def find_spans(text: str) -> list[Span]:
    """The spans of `default_redactor` (see `Redactor.find_spans`)."""
    return default_redactor().find_spans(text)


def _mask(text: str, spans: list[tuple[int, int, int, str]]) -> str:
    pieces, last = [], 0
    for start, end, _, _ in sorted(spans):
        start = max(start, last)
        pieces += [text[last:start], "\x00" * max(0, end - start)]
        last = max(last, end)
    return "".join(pieces) + text[last:]


def redact_text(text: str, counts: Counter[str] | None = None) -> str:
    """`text` with every span found replaced by its `[TYPE]` placeholder; counts by type."""
    return _render(text, find_spans(text), counts)


def _render(text: str, spans: list[Span], counts: Counter[str] | None) -> str:
    if not spans:
        return text
    pieces, last = [], 0
    for start, end, kind in spans:
        pieces += [text[last:start], f"[{kind}]"]
        last = end
        if counts is not None:
            counts[kind] += 1
    return "".join(pieces) + text[last:]


def redact_cid(cid: str, counts: Counter[str] | None = None) -> str:
    """A conversation id that holds personal data (`user_13812345678_1`, an email) becomes
    `redacted-` and a digest of it: still unique and the same on every run, and no raw value
    reaches a file or a sample id through it."""
    spans = find_spans(cid)
    if not spans:
        return cid
    if counts is not None:
        counts.update(kind for _, _, kind in spans)
    return "redacted-" + hashlib.blake2b(cid.encode(), digest_size=8).hexdigest()


_TAIL = re.compile(r"[\d\s\-+().]{1,24}$")  # how a turn cut inside a number ends
_HEAD = re.compile(r"^[\d\s\-().]{1,24}[Xx]?")  # and how the next one goes on


def split_spans(first: str, second: str) -> tuple[list[Span], list[Span]]:
    """Spans of a value split over two consecutive turns of one speaker (`我的手机是138` /
    `0013 8000`): the digits that end `first` and start `second`, read as one text; each turn's
    part of a value found across the joint (empty lists when there is none)."""
    tail, head = _TAIL.search(first), _HEAD.match(second)
    if not (tail and head and _DIGIT.search(tail.group()) and _DIGIT.search(head.group())):
        return [], []
    start = max(0, tail.start() - CUE_WINDOW)
    joined = first[start:] + head.group()
    joint = len(first) - start
    ends, starts = [], []
    for s, e, kind in find_spans(joined):
        if s < joint < e:
            ends.append((start + s, len(first), kind))
            starts.append((0, e - joint, kind))
    return ends, starts


def _merge(spans: list[Span], more: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end, kind in sorted(spans + more):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end), merged[-1][2])
        else:
            merged.append((start, end, kind))
    return merged


def redact_conversation(conversation: Conversation, counts: Counter[str]) -> Conversation:
    """Every turn redacted; a number split over consecutive turns of one speaker is one number."""
    return redact_conversations([conversation], counts)[0]


def redact_conversations(conversations: list[Conversation], counts: Counter[str]) -> list[Conversation]:
    """`redact_conversation` of each, every turn of them read in one batch of the learned detector."""
    found = iter(default_redactor().find_spans_many([t.text for c in conversations for t in c.turns]))
    return [_redacted(c, [next(found) for _ in c.turns], counts) for c in conversations]


def _redacted(conversation: Conversation, spans: list[list[Span]], counts: Counter[str]) -> Conversation:
    turns = conversation.turns
    for i in range(len(turns) - 1):
        if turns[i].role == turns[i + 1].role:
            ends, starts = split_spans(turns[i].text, turns[i + 1].text)
            spans[i], spans[i + 1] = _merge(spans[i], ends), _merge(spans[i + 1], starts)
    redacted = tuple(
        LogTurn(t.role, _render(t.text, s, counts), t.time, t.feedback)
        for t, s in zip(turns, spans, strict=True)
    )
    return Conversation(redact_cid(conversation.cid, counts), redacted)
