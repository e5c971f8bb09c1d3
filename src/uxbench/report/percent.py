"""The one way the report prints a fraction as a percentage: tables, captions, charts, the
Markdown and the JSON's display strings all call `pct`, so one number never reads 65.8 in one
place and 65.9 in another.

Rounding is half up on the decimal value, not on its binary approximation: 0.6585 prints
65.9 although the float nearest 0.6585 is 0.65849999…. The value is read from its shortest
repr and first rounded to 12 decimal places, so that noise of a computed value (a mean of two
accuracies giving 0.6584999999999999) does not decide the last digit either.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

NO_VALUE = "–"
_NOISE = Decimal("1e-12")  # finer than any rate or mean the report shows


def pct(value: float | None, digits: int = 1, signed: bool = False) -> str:
    """`value` (a fraction) as a percentage with `digits` decimals, rounded half up (away from
    zero for negative values); `signed` puts + before a positive number (a difference in points).
    "–" for no value."""
    if value is None or not math.isfinite(value):
        return NO_VALUE
    exact = Decimal(repr(float(value))).quantize(_NOISE, rounding=ROUND_HALF_EVEN) * 100
    shown = exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    if shown == 0:
        shown = abs(shown)  # never "-0.0"
    return f"{shown:+f}" if signed else f"{shown:f}"
