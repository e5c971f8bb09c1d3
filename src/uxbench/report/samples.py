"""The one place where the report reads samples (everything else reads log headers only).

Per-sample facts come from Inspect's sample summaries (`read_eval_log_sample_summaries`:
each sample's metadata and scores, without its messages and events), which is cheap enough
for every run of a 27-model report. Reply texts, needed only by the style fit, come from
full samples, read for a seeded subset of the records (`read_eval_log_samples_by_id`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.log import EvalSampleSummary, read_eval_log_sample_summaries, read_eval_log_samples_by_id
from inspect_ai.scorer import Score

from uxbench.qualification.published import NO_ROW_ANSWER, replayed_model
from uxbench.report.logs import Run
from uxbench.report.style import Reply
from uxbench.report.workers import pmap
from uxbench.scorers.grm import final_reply

# sample-metadata keys the report breaks results down by (the tasks' `breakdown` metric keys)
GROUP_KEYS = ("failure_dimension", "success_pattern", "scenario", "difficulty")
# fields of a full sample the style fit does not need (they are most of a sample's size)
_HEAVY_FIELDS = {"events", "attachments", "store", "messages"}
# replies read per run for the style fit: a seeded sample, enough for its four slopes and
# cheap at 27 models × 4,900 records (docs/report.md)
STYLE_SAMPLE = 100


@dataclass(frozen=True)
class Judgment:
    """One scored sample (one epoch of one record)."""

    id: str | int
    epoch: int
    label: str | None  # Task 1: the user's label, good / bad
    verdict: str | None  # Tasks 2/3: good / bad / failed
    score: float | None  # Tasks 2/3: the GRM score
    baseline_score: float | None  # Task 3 with baseline=true: the failed reply's GRM score
    p_good: float | None  # Task 1 with logprobs: the judge's P(good)
    groups: Mapping[str, str] = field(default_factory=dict)  # breakdown key -> the record's group
    correct: float | None = None  # Task 1: 1 when the judge agreed with the user, else 0
    answer: str | None = None  # Task 1: the judge's verdict (good / bad / neutral; None: unreadable)
    record_hash: str | None = None  # the record's content hash (None in older logs)
    no_row: bool = False  # a replay's record without a row in the published file (a failed judgment)
    seconds: float | None = None  # Task 1 by a person: time the item was on screen before the answer
    gold: bool = False  # a person's gold item (an attention check), not a record of the benchmark


def uxbench_score(scores: Mapping[str, Score] | None, scorer: str | None = None) -> Score | None:
    """The sample's UXBench score: the one whose metadata holds a verdict or a user label (of the
    named scorer when a log holds several, e.g. a grade appended by `inspect score`)."""
    chosen = (scores or {}) if scorer is None else {scorer: (scores or {}).get(scorer)}
    for score in chosen.values():
        if score is None:
            continue
        if score.metadata and ("verdict" in score.metadata or "label" in score.metadata):
            return score
    return None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _judgment(summary: EvalSampleSummary, scorer: str | None = None) -> Judgment | None:
    score = uxbench_score(summary.scores, scorer)
    if score is None:
        return None
    meta = score.metadata or {}
    groups = {
        key: str(summary.metadata[key]) for key in GROUP_KEYS if summary.metadata.get(key) not in (None, "")
    }
    return Judgment(
        id=summary.id,
        epoch=summary.epoch,
        label=meta.get("label"),
        verdict=meta.get("verdict"),
        score=_number(meta.get("score")),
        baseline_score=_number(meta.get("baseline_score")),
        p_good=_number(meta.get("p_good")),
        groups=groups,
        correct=_number(score.value),
        answer=score.answer,
        record_hash=summary.metadata.get("record_hash"),
        no_row=meta.get("raw") == NO_ROW_ANSWER,
        seconds=_number(meta.get("seconds")),
        gold=bool(meta.get("gold")),
    )


def judgments(path: str, scorer: str | None = None) -> list[Judgment]:
    """Every scored sample of a log (errored samples have no score and are left out)."""
    found = (_judgment(summary, scorer) for summary in read_eval_log_sample_summaries(path))
    return [j for j in found if j is not None]


@dataclass(frozen=True)
class Counts:
    """Records per label and per breakdown group, counted over distinct records."""

    records: int
    labels: Mapping[str, int]
    groups: Mapping[str, Mapping[str, int]]


def counts(found: list[Judgment]) -> Counts:
    first: dict[str | int, Judgment] = {}
    for j in found:
        if j.id not in first or j.epoch < first[j.id].epoch:
            first[j.id] = j
    records = list(first.values())
    groups: dict[str, Counter[str]] = {}
    for record in records:
        for key, group in record.groups.items():
            groups.setdefault(key, Counter())[group] += 1
    labels = Counter(r.label for r in records if r.label)
    return Counts(len(records), dict(labels), {k: dict(v) for k, v in groups.items()})


def replies(
    path: str, ids: list[str | int], limit: int, seed: int = 0, scorer: str | None = None
) -> list[Reply]:
    """The graded replies of a seeded sample of at most `limit` records (first epoch)."""
    picked = set(random.Random(seed).sample(ids, limit)) if len(ids) > limit else set(ids)
    chosen = [i for i in ids if i in picked]
    out = []
    for sample in read_eval_log_samples_by_id(path, [(i, 1) for i in chosen], exclude_fields=_HEAVY_FIELDS):
        score = uxbench_score(sample.scores, scorer)
        meta = (score.metadata or {}) if score else {}
        if "verdict" in meta:
            text = meta.get("graded_response") or final_reply(sample.output.completion, None)[0]
            out.append(Reply(text, str(meta["verdict"]), _number(meta.get("score"))))
    return out


def _read(job: tuple[str, Run]) -> list[Judgment] | list[Reply]:
    kind, run = job
    if kind == "judgments":
        return judgments(run.log, run.scorer)
    return replies(run.log, list(run.sample_ids), STYLE_SAMPLE, scorer=run.scorer)


class Evidence:
    """Per-sample facts of the runs on a report, each log read at most once.

    Every run's summaries are read: the tests of which differences are real compare each
    ranked run's records with the others' (report/separation.py), and they also give P(good)
    (reliability), Task 3's Δ score (its interval), a partial run's counts, the records a
    person shares with a model and a replay's records without a published row. Runs over the
    same records (the same dataset key) share their per-label and per-group counts. Tasks 2/3
    replies are read for the style fit. `prefetch` reads all of that up front, in parallel;
    anything not prefetched is read when first asked for."""

    def __init__(self) -> None:
        self._judgments: dict[str, list[Judgment]] = {}
        self._counts: dict[str, Counts] = {}
        self._replies: dict[str, list[Reply]] = {}
        self._read_for: dict[str, str] = {}  # dataset key -> a log whose judgments were read

    def prefetch(self, runs: list[Run], graded: list[Run]) -> None:
        """Read what the report will need of `runs`, and the style fit's replies of `graded`."""
        reading = {run.source: run for run in runs}  # every run: its records are tested against the others'
        for run in runs:
            self._read_for.setdefault(run.dataset, run.source)
        complete = [run for run in graded if not run.partial]
        jobs = [("judgments", run) for source, run in reading.items() if source not in self._judgments]
        jobs += [("replies", run) for run in complete if run.source not in self._replies]
        for (kind, run), found in zip(jobs, pmap(_read, jobs), strict=True):
            target = self._judgments if kind == "judgments" else self._replies
            target[run.source] = found  # type: ignore[assignment]

    def _read_judgments(self, run: Run) -> list[Judgment]:
        if run.source not in self._judgments:
            self._judgments[run.source] = judgments(run.log, run.scorer)
        return self._judgments[run.source]

    def judgments(self, run: Run) -> list[Judgment]:
        """The run's judgments of the benchmark's records (a person's gold items apart)."""
        return [j for j in self._read_judgments(run) if not j.gold]

    def gold(self, run: Run) -> list[Judgment]:
        """A person's first-epoch answers on the gold items mixed into their run (`-M gold=FILE`)."""
        return [j for j in self._read_judgments(run) if j.gold and j.epoch == 1 and j.correct is not None]

    def counts_of(self, run: Run) -> Counts:
        if run.dataset not in self._counts:
            shared = self._read_for.get(run.dataset)
            found = self._judgments[shared] if shared in self._judgments else self.judgments(run)
            self._counts[run.dataset] = counts([j for j in found if not j.gold])
        return self._counts[run.dataset]

    def replies(self, run: Run) -> list[Reply]:
        """A seeded sample of at most STYLE_SAMPLE of the run's graded replies."""
        if run.source not in self._replies:
            ids = [j.id for j in self.judgments(run) if j.epoch == 1] if run.partial else list(run.sample_ids)
            self._replies[run.source] = replies(run.log, ids, STYLE_SAMPLE, scorer=run.scorer)
        return self._replies[run.source]

    def p_good(self, run: Run) -> tuple[list[float], list[int]]:
        """Task 1: the judge's P(good) and the users' labels (1 = liked), where it had one."""
        if not run.metrics.get("p_good_rate"):
            return [], []
        pairs = [(j.p_good, int(j.label == "good")) for j in self.judgments(run) if j.p_good is not None]
        return [p for p, _ in pairs], [y for _, y in pairs]

    def verdicts(self, run: Run) -> dict[str | int, Judgment]:
        """Task 1: each record's first-epoch judgment, by record id (for pairing with another run)."""
        return {j.id: j for j in self.judgments(run) if j.epoch == 1 and j.correct is not None}

    def no_rows(self, run: Run) -> int | None:
        """A replay's records whose published file has no row (counted as failed judgments);
        None for any other run."""
        if replayed_model(run.model) is None:
            return None
        return len({j.id for j in self.judgments(run) if j.no_row})

    def deltas(self, run: Run) -> list[float]:
        """Task 3 with baseline=true: score of the repair − score of the failed reply, per record."""
        if run.metrics.get("delta_score") is None:
            return []
        return [
            j.score - j.baseline_score
            for j in self.judgments(run)
            if j.score is not None and j.baseline_score is not None
        ]
