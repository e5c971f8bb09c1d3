"""Test-set builder: QA'd cases → the four release files and the stats report.

Every case reaching this stage passed the quality gates before QA. Here the QA verdict
is applied (reject / downgrade / needs-image drop a case; a label correction from the
label set replaces the label; needs-context is kept as a flag), queries are deduplicated
on their first 60 characters within a label, and each test set is drawn by stratified
sampling. Each set has its own pool — Task 1 bad and Task 2 all failure cases, Task 3
failure cases whose reply drew a complaint, Task 1 good success cases — and the sets are
drawn in the order Task 3, Task 1 bad, Task 2, Task 1 good. `overlap` says whether a case
may enter more than one set: `auto` (default) draws each set from cases no earlier set
took while they suffice for its target and tops it up with taken ones when they do not;
`disjoint` never reuses a case (sets may come out smaller); `shared` draws every set from
its whole pool. The stats count the cases and conversations each pair of sets shares.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uxbench.data.dataset import RELEASE_FILES
from uxbench.pipeline.read.files import location, read_stats, write_json, write_rows
from uxbench.pipeline.stages.miner import REPLY_TURN
from uxbench.pipeline.stages.quality import AXES
from uxbench.pipeline.stages.report import write_report
from uxbench.pipeline.stages.rows import QARow, valid_rows
from uxbench.pipeline.stages.sampling import feasible_size, stratified_sample
from uxbench.pipeline.stages.schemas import DOMAIN_FIELDS
from uxbench.pipeline.stages.shares import compare
from uxbench.pipeline.stages.signals import normalise, reaction_of
from uxbench.runtime.errors import DataError

Row = dict[str, Any]
SETS = ("task3_recovery", "task1_judge_bad", "task2_eval", "task1_judge_good")
CID_PREFIX = {
    "task1_judge_bad": "uxbench_ux_judge",
    "task1_judge_good": "uxbench_ux_judge",
    "task2_eval": "uxbench_ux_eval",
    "task3_recovery": "uxbench_ux_recovery",
}


@dataclass(frozen=True)
class BuildConfig:
    targets: dict[str, int] = field(
        default_factory=lambda: {
            "task1_judge_bad": 1000,
            "task1_judge_good": 1000,
            "task2_eval": 4900,
            "task3_recovery": 500,
        }
    )
    min_per_label: int = 5
    max_share: float = 0.4
    dedup_chars: int = 60
    seed: int = 0
    overlap: str = "auto"  # auto | disjoint | shared (see the module docstring)


OVERLAP_MODES = ("auto", "disjoint", "shared")


def parse_targets(text: str) -> dict[str, int]:
    """`task1_judge_bad=1000,task2_eval=4900` → a targets dict (unnamed sets keep their default)."""
    targets = dict(BuildConfig().targets)
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep or name.strip() not in targets or not value.strip().isdigit():
            raise ValueError(f"bad target {part!r}: use NAME=COUNT with NAME one of {', '.join(targets)}")
        targets[name.strip()] = int(value)
    return targets


# ---------------------------------------------------------------- case fields


def label(row: Row) -> str:
    return str(row["case"]["dimension" if row["track"] == "failure" else "pattern"])


def scenario(row: Row) -> str:
    return str(row["case"]["scenario"])


def reply_turn(row: Row) -> int:
    return int(row["case"][REPLY_TURN[row["track"]]])


def query(row: Row) -> str:
    return str(row["turns"][row["case"]["query_turn"]]["text"])


def complaint_turn(row: Row) -> int | None:
    """The user turn that complained about the failed reply, if the reply drew one."""
    reaction = reaction_of(row["signals"], reply_turn(row))
    if reaction is None or reaction["next_user"] is None:
        return None
    if reaction["reaction"] == "complain" or row["case"]["signal_type"] == "explicit_complaint":
        return int(reaction["next_user"])
    return None


def difficulty(row: Row) -> str:
    """How hard the user's verdict is to see in the conversation: easy when said in words,
    medium when shown by behaviour, hard when only the rating tells, very_hard when the
    visible behaviour points the other way."""
    reaction = reaction_of(row["signals"], reply_turn(row)) or {}
    signal = row["case"]["signal_type"]
    if row["track"] == "failure":
        if reaction.get("praise"):
            return "very_hard"
        if signal == "explicit_complaint" or reaction.get("reaction") == "complain":
            return "easy"
        return "hard" if signal == "dislike" else "medium"
    if reaction.get("reaction") in ("complain", "repeat", "rephrase"):
        return "very_hard"
    return {"explicit_praise": "easy", "deep_dive": "medium"}.get(signal, "hard")


# Task 3 on the same four levels: how hard the failure was to repair, as the log shows it
_RECOVERY_DIFFICULTY = {
    "recovered": "easy",
    "partial_recovery": "medium",
    "no_recovery": "medium",
    "failed_recovery": "hard",
    "user_gave_up": "very_hard",
}


def recovery_difficulty(row: Row) -> str:
    """Task 3's difficulty: easy when the assistant's next attempt in the log satisfied the user,
    medium when it partly did (or the log shows no attempt), hard when it failed again,
    very_hard when the user gave up. (Every Task 3 case drew a complaint, so the visibility
    grading of Task 1 would call them all easy.)"""
    turn = reply_turn(row)
    chain = next((c for c in row["signals"]["recoveries"] if c["failed_turn"] == turn), None)
    return _RECOVERY_DIFFICULTY[chain["outcome"] if chain else "no_recovery"]


def _turns(row: Row, end: int) -> list[dict[str, str]]:
    return [{"role": t["role"], "content": t["text"]} for t in row["turns"][:end]]


# ---------------------------------------------------------------- QA and dedup


def apply_qa(row: Row) -> tuple[Row | None, str | None]:
    """The case after its QA verdict, or None and the reason it is dropped."""
    verdict = row["qa"]
    if row["scores"] is None:  # judged with -T gated=false: no valid judge answer
        return None, "judge_invalid"
    if verdict is None:
        return None, "qa_invalid"
    if verdict["verdict"] != "keep":
        return None, f"qa_{verdict['verdict']}"
    if verdict["needs_image"]:
        return None, "qa_needs_image"
    case = dict(row["case"])
    key = "dimension" if row["track"] == "failure" else "pattern"
    corrected = verdict.get("corrected_label")
    if corrected and corrected != case[key]:
        case["label_corrected_from"] = case[key]
        case[key] = corrected
    return {**row, "case": case}, None


def priority(row: Row, seed: int) -> tuple[Any, ...]:
    """Best first: not a stock pattern, higher judge mean, higher confidence, then a seeded tie-break."""
    tie = hashlib.blake2b(f"{seed}\x1f{row['id']}".encode(), digest_size=8).hexdigest()
    return (bool(row["qa"]["duplicate_pattern"]), -row["mean"], -row["case"]["confidence"], tie)


def dedup_queries(rows: list[Row], chars: int) -> tuple[list[Row], int]:
    """Keep the first (best) case per label and query opening."""
    seen: set[tuple[str, str, str]] = set()
    kept = []
    for row in rows:
        key = (row["track"], label(row), normalise(query(row))[:chars])
        if key not in seen:
            seen.add(key)
            kept.append(row)
    return kept, len(rows) - len(kept)


# ---------------------------------------------------------------- records


def domain_labels(row: Row) -> dict[str, str | None]:
    """The case's scene / intent / sector labels (None when the miner gave none)."""
    return {name: row["case"].get(name) or None for name in DOMAIN_FIELDS}


def set_difficulty(name: str, row: Row) -> str:
    return recovery_difficulty(row) if name == "task3_recovery" else difficulty(row)


def _common(row: Row, name: str) -> dict[str, Any]:
    case = row["case"]
    return {
        "scenario": case["scenario"],
        "difficulty": set_difficulty(name, row),
        "signal_type": case["signal_type"],
        **domain_labels(row),
        "needs_context": bool(row["qa"]["needs_context"]),
        "source_cid": row["cid"],
        "source_turn": reply_turn(row),
    }


def judge_scores(row: Row) -> dict[str, Any]:
    return {**{a: row["scores"][a] for a in AXES}, "mean": row["mean"]}


def task1_record(row: Row, cid: str, name: str) -> dict[str, Any]:
    q = row["case"]["query_turn"]
    failure = row["track"] == "failure"
    return {
        "cid": cid,
        "ground_truth": -1 if failure else 1,
        "selected_history": _turns(row, q),
        "source_query": {"turn_index": q, "message": query(row)},
        "agent_response_full": row["turns"][reply_turn(row)]["text"],
        "failure_dimension" if failure else "success_dimension": label(row),
        **_common(row, name),
        "severity_tier": (
            "high"
            if row["scores"]["severity"] >= 4
            else "medium"
            if row["scores"]["severity"] == 3
            else "low"
        ),
        "judge_scores": judge_scores(row),
        "explanation": row["case"]["explanation"],
    }


def task2_record(row: Row, cid: str, name: str) -> dict[str, Any]:
    q = row["case"]["query_turn"]
    return {
        "cid": cid,
        "query": query(row),
        "messages": _turns(row, q),
        "dimension": label(row),
        **_common(row, name),
        "history_turns": q,
        "overall_quality": row["tier"],
        "representativeness": row["case"]["representativeness"],
        "judge_scores": judge_scores(row),
    }


def task3_record(row: Row, cid: str, name: str) -> dict[str, Any]:
    turn = reply_turn(row)
    complaint = complaint_turn(row)
    if complaint is None:
        raise ValueError(f"case {row['id']} has no complaint turn")
    return {
        "cid": cid,
        "history": _turns(row, turn),
        "failed_response": row["turns"][turn]["text"],
        "user_complaint": row["turns"][complaint]["text"],
        "failure_dimension": label(row),
        **_common(row, name),
        "judge_scores": judge_scores(row),
    }


RECORDS: dict[str, Callable[[Row, str, str], dict[str, Any]]] = {
    "task1_judge_bad": task1_record,
    "task1_judge_good": task1_record,
    "task2_eval": task2_record,
    "task3_recovery": task3_record,
}


# ---------------------------------------------------------------- build


def _pool(
    candidates: list[Row], taken: dict[str, set[str]], config: BuildConfig, name: str
) -> tuple[list[Row], bool]:
    """The candidates a set is drawn from under the overlap mode (best first), and whether it
    may hold cases of earlier sets."""
    if config.overlap == "shared" or not taken:
        return candidates, config.overlap == "shared"
    used = set().union(*taken.values())
    fresh = [r for r in candidates if r["id"] not in used]
    available = list(Counter(label(r) for r in fresh).values())
    if (
        config.overlap == "disjoint"
        or feasible_size(available, config.targets[name], config.max_share) >= config.targets[name]
    ):
        return fresh, False
    return fresh + [r for r in candidates if r["id"] in used], True


def overlap_counts(sets: dict[str, list[dict[str, Any]]], taken: dict[str, set[str]]) -> dict[str, Any]:
    """Cases and source conversations each pair of sets shares."""
    conversations = {name: {r["source_cid"] for r in records} for name, records in sets.items()}
    pairs: dict[str, Any] = {}
    names = list(sets)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            pairs[f"{first} & {second}"] = {
                "cases": len(taken[first] & taken[second]),
                "conversations": len(conversations[first] & conversations[second]),
            }
    return {"pairs": pairs}


def build_sets(
    rows: list[Row], config: BuildConfig
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """The four record lists and the build's counts."""
    rejected: Counter[str] = Counter()
    kept: list[Row] = []
    for row in rows:
        after, reason = apply_qa(row)
        if after is None:
            rejected[str(reason)] += 1
        else:
            kept.append(after)
    kept.sort(key=lambda r: priority(r, config.seed))
    kept, duplicates = dedup_queries(kept, config.dedup_chars)
    failures = [r for r in kept if r["track"] == "failure"]
    pools = {
        "task3_recovery": [r for r in failures if complaint_turn(r) is not None],
        "task1_judge_bad": failures,
        "task2_eval": failures,
        "task1_judge_good": [r for r in kept if r["track"] == "success"],
    }
    sets: dict[str, list[dict[str, Any]]] = {}
    counts: dict[str, Any] = {
        "cases_in": len(rows),
        "rejected": dict(rejected.most_common()),
        "duplicate_queries": duplicates,
        "sets": {},
    }
    number = {"uxbench_ux_judge": 0, "uxbench_ux_eval": 0, "uxbench_ux_recovery": 0}
    taken: dict[str, set[str]] = {}  # set → ids of the cases it holds
    for name in SETS:
        pool, reused = _pool(pools[name], taken, config, name)
        sample = stratified_sample(
            pool, label, scenario, config.targets[name], config.min_per_label, config.max_share
        )
        records = []
        for row in sample.items:
            prefix = CID_PREFIX[name]
            number[prefix] += 1
            records.append(RECORDS[name](row, f"{prefix}_{number[prefix]:04d}", name))
        sets[name] = records
        taken[name] = {row["id"] for row in sample.items}
        used = set().union(*(ids for other, ids in taken.items() if other != name))
        per_label = dict(Counter(label(r) for r in sample.items).most_common())
        counts["sets"][name] = {
            "candidates": len(pools[name]),
            "target": config.targets[name],
            "size": len(records),
            "share_cap": sample.cap,
            "share_cap_relaxed": sample.cap_relaxed,
            "reused_from_other_sets": sum(row["id"] in used for row in sample.items) if reused else 0,
            "candidates_per_label": dict(Counter(label(r) for r in pools[name]).most_common()),
            "per_label": per_label,
            "per_scenario": dict(Counter(scenario(r) for r in sample.items).most_common()),
            "per_difficulty": dict(Counter(set_difficulty(name, r) for r in sample.items).most_common()),
            **{
                f"per_{field}": dict(
                    Counter(domain_labels(r)[field] or "-" for r in sample.items).most_common()
                )
                for field in DOMAIN_FIELDS
            },
            "paper_shares": compare(name, per_label),
        }
    counts["overlap"] = {"mode": config.overlap, **overlap_counts(sets, taken)}
    return sets, counts


def build(qa_path: str | Path, out_dir: str | Path, config: BuildConfig = BuildConfig()) -> dict[str, Any]:
    """Write the four release files and `stats.json` / `stats.md` into `out_dir`."""
    out_dir = location(out_dir)
    sets, counts = build_sets(list(valid_rows(qa_path, QARow)), config)
    if not any(sets.values()):
        dropped = ", ".join(f"{k} {v}" for k, v in counts["rejected"].items()) or "none"
        raise DataError(
            f"{qa_path}: none of its {counts['cases_in']} cases can enter a test set (dropped: {dropped}; "
            f"duplicate queries: {counts['duplicate_queries']}); no test set written"
        )
    for name, records in sets.items():
        write_rows(out_dir / RELEASE_FILES[name], records)
    stats = {**read_stats(qa_path), "build": counts}
    write_json(out_dir / "stats.json", stats)
    write_report(out_dir / "stats.md", stats)
    return stats
