"""The paper's published label shares (`data/paper_label_shares.json`), beside a built set's.

Failure dimensions are compared by the paper's ten headline groups of the record labels;
labels outside every group are shown as such. Scenarios and the domain labels have no
published shares, so the report shows their distribution alone.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

LABEL_KIND = {
    "task1_judge_bad": "failure_dimension",
    "task2_eval": "failure_dimension",
    "task3_recovery": "failure_dimension",
    "task1_judge_good": "success_pattern",
}
OUTSIDE = "(not in the paper's groups)"


@cache
def paper_shares() -> dict[str, Any]:
    return dict(
        json.loads((resources.files("uxbench") / "data" / "paper_label_shares.json").read_text("utf-8"))
    )


def compare(set_name: str, per_label: dict[str, int]) -> dict[str, Any]:
    """Each published group's share in the paper and in this set (per cent), and the difference."""
    kind = LABEL_KIND[set_name]
    published = paper_shares()[kind]
    total = sum(per_label.values())
    group_of = {label: group for group, facts in published["groups"].items() for label in facts["labels"]}
    here: dict[str, int] = {}
    for label, count in per_label.items():
        group = group_of.get(label, OUTSIDE)
        here[group] = here.get(group, 0) + count
    rows = []
    for group, facts in published["groups"].items():
        share = 100 * here.get(group, 0) / total if total else 0.0
        rows.append({"group": group, "paper": facts["share"], "here": round(share, 1)})
    if OUTSIDE in here:
        rows.append({"group": OUTSIDE, "paper": None, "here": round(100 * here[OUTSIDE] / total, 1)})
    for row in rows:
        row["difference"] = None if row["paper"] is None else round(row["here"] - row["paper"], 1)
    distance = sum(abs(r["difference"]) for r in rows if r["difference"] is not None) / 2
    return {
        "labels": kind,
        "paper_set": published["set"],
        "groups": rows,
        # half the summed absolute differences: the share of this set that would have to move
        "total_variation": round(distance + sum(r["here"] for r in rows if r["paper"] is None) / 2, 1),
    }
