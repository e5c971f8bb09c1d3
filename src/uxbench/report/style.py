"""Style control for the GRM-scored tasks: how much of a score is reply length and markdown.

Method (written out in the report too): per grader, every reply with a GRM score from every
model that grader graded (but baselines and self-graded runs, whose replies or grades are
not what the fit is about) enters one least-squares fit

    score = a_model + b · (x − x̄)

with one intercept per model and x the reply's style: length in thousands of characters,
markdown header lines, list-item lines and bold spans (x̄ their mean over all replies).
The per-model intercepts soak up the models' real differences, so b is learned from how
score moves with style *within* each model's replies. A reply's style-adjusted score is
score − b · (x − x̄), what the grader would have said had the reply been of average style;
style-adjusted Good% recounts good verdicts with those scores at the 0.5 cut (replies
without a score keep their verdict; the denominator stays all records read). Models left
out of the fit get no adjusted value. Length R² is, per
model, the squared correlation of score and length: the share of that model's score
variance length alone explains.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

FEATURES = ("length (1k chars)", "headers", "list items", "bold")
_HEADER = re.compile(r"^\s{0,3}#{1,6}\s", re.MULTILINE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)、])\s", re.MULTILINE)
_BOLD = re.compile(r"\*\*[^*\n]+?\*\*|__[^_\n]+?__")
NAN = float("nan")


@dataclass(frozen=True)
class Reply:
    text: str
    verdict: str  # good / bad / failed
    score: float | None


def style_features(text: str) -> tuple[float, float, float, float]:
    """(length in 1k characters, header lines, list-item lines, bold spans) of one reply."""
    return (
        len(text) / 1000,
        float(len(_HEADER.findall(text))),
        float(len(_LIST_ITEM.findall(text))),
        float(len(_BOLD.findall(text))),
    )


@dataclass(frozen=True)
class ModelStyle:
    records: int  # replies read
    good_pct: float  # good verdicts / records
    adjusted_good_pct: float  # NaN for a model left out of the fit
    length_r2: float  # NaN with fewer than 3 scored replies or no spread
    mean_length: float  # characters


@dataclass(frozen=True)
class StyleFit:
    coefficients: dict[str, float]  # score change per unit of each feature
    scored: int  # replies in the fit
    models: dict[str, ModelStyle]


def r_squared(x: Sequence[float], y: Sequence[float]) -> float:
    """Squared Pearson correlation; NaN with fewer than 3 points or a constant side."""
    if len(x) < 3:
        return NAN
    xs, ys = np.asarray(x, float), np.asarray(y, float)
    if np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return NAN
    return float(np.corrcoef(xs, ys)[0, 1] ** 2)


def fit_style(replies: Mapping[str, Sequence[Reply]], left_out: Collection[str] = ()) -> StyleFit | None:
    """The fit over the scored replies of the models not left out (every model gets its raw
    numbers), or None with too few replies to fit."""
    labels = [label for label in replies if label not in left_out]
    rows = [
        (m, style_features(r.text), float(r.score)) for m in labels for r in replies[m] if r.score is not None
    ]
    if len(rows) <= len(labels) + len(FEATURES):
        return None
    x = np.array([features for _, features, _ in rows])
    centre = x.mean(axis=0)
    dummies = np.array([[float(m == label) for label in labels] for m, _, _ in rows])
    y = np.array([score for _, _, score in rows])
    solution, *_ = np.linalg.lstsq(np.hstack([dummies, x - centre]), y, rcond=None)
    slope = solution[len(labels) :]
    models = {}
    for label in replies:
        own = replies[label]
        good = adjusted = 0
        lengths, scores = [], []
        for reply in own:
            good += reply.verdict == "good"
            if reply.score is None:
                adjusted += reply.verdict == "good"
                continue
            features = np.array(style_features(reply.text))
            adjusted += reply.score - float(slope @ (features - centre)) >= 0.5
            lengths.append(len(reply.text))
            scores.append(reply.score)
        n = len(own)
        models[label] = ModelStyle(
            records=n,
            good_pct=good / n if n else NAN,
            adjusted_good_pct=adjusted / n if n and label in labels else NAN,
            length_r2=r_squared(lengths, scores),
            mean_length=sum(len(r.text) for r in own) / n if n else NAN,
        )
    return StyleFit(dict(zip(FEATURES, map(float, slope), strict=True)), len(rows), models)
