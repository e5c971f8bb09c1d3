"""`uxbench pipeline audit`: check the LLM annotators against a person.

`draw` takes a stratified sample of the cases QA saw (`05_qa.jsonl` of a run): strata are
track × the pipeline's decision (keep: the build accepts the case; reject: QA rejected or
downgraded it, or it needs an image) × label, at least one case per stratum while the sample
size allows, the rest in proportion, chosen at random (seeded) within a stratum — not best
first, which would flatter the annotators. It writes the same rows as JSONL and as CSV, with
empty `human_label` and `human_decision` columns for a person to fill in (either file).

`score` reads a filled file and reports, per field (label, decision), Cohen's κ between the
pipeline and the person (`uxbench.judge_answer.calibration.cohen_kappa`), raw agreement and the confusion
matrix, over the rows the person filled in.
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from uxbench.data.labels import canonical_failure, canonical_success, english
from uxbench.pipeline.read.files import numbered_rows, write_rows
from uxbench.pipeline.stages.build import apply_qa, label, query, reply_turn, scenario
from uxbench.pipeline.stages.rows import QARow, valid_rows
from uxbench.pipeline.stages.sampling import stratified_sample
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError
from uxbench.stats.agreement import cohen_kappa

COLUMNS = (
    "audit_id",
    "track",
    "source_cid",
    "source_turn",
    "conversation",
    "query",
    "reply",
    "scenario",
    "pipeline_label",
    "pipeline_decision",
    "human_label",
    "human_decision",
    "notes",
)
FIELDS = {"label": ("pipeline_label", "human_label"), "decision": ("pipeline_decision", "human_decision")}
_DECISIONS = {
    **dict.fromkeys(("keep", "k", "yes", "y", "1", "accept", "保留", "通过"), "keep"),
    **dict.fromkeys(("reject", "r", "no", "n", "0", "drop", "拒绝", "删除"), "reject"),
}


def _decision(row: dict[str, Any]) -> tuple[dict[str, Any], str]:
    after, _ = apply_qa(row)
    return (after or row), "keep" if after is not None else "reject"


def _annotation_row(row: dict[str, Any], decision: str, number: int) -> dict[str, Any]:
    turn = reply_turn(row)
    shown = row["turns"][:turn]
    return {
        "audit_id": f"audit_{number:04d}",
        "track": row["track"],
        "source_cid": row["cid"],
        "source_turn": turn,
        "conversation": "\n".join(f"{t['role']}: {t['text']}" for t in shown),
        "query": query(row),
        "reply": row["turns"][turn]["text"],
        "scenario": scenario(row),
        "pipeline_label": label(row),
        "pipeline_decision": decision,
        "human_label": "",
        "human_decision": "",
        "notes": "",
    }


def draw(run_dir: str | Path, out: str | Path, n: int = 100, seed: int = 0) -> dict[str, Any]:
    """Write `out`.jsonl and `out`.csv with `n` cases to annotate; returns counts by stratum."""
    qa_file = Path(run_dir) / "05_qa.jsonl"
    if not qa_file.exists():
        raise DataError(f"{run_dir}: no 05_qa.jsonl (run `uxbench pipeline run` to the QA stage first)")
    cases = []
    for row in valid_rows(qa_file, QARow):
        if row["scores"] is None or row["qa"] is None:
            continue  # no valid judge or QA answer: no decision to check
        after, decision = _decision(row)
        cases.append((after, decision))

    def stratum(case: tuple[dict[str, Any], str]) -> str:
        return f"{case[0]['track']} · {case[1]} · {label(case[0])}"

    def shuffled(case: tuple[dict[str, Any], str]) -> str:
        return hashlib.blake2b(f"{seed}\x1f{case[0]['id']}".encode(), digest_size=8).hexdigest()

    cases.sort(key=shuffled)
    sample = stratified_sample(cases, stratum, lambda c: scenario(c[0]), n, min_per_label=1, max_share=1.0)
    rows = [_annotation_row(row, decision, i) for i, (row, decision) in enumerate(sample.items, start=1)]
    if not rows:
        raise DataError(f"{qa_file}: no case with a judge and a QA answer to audit")
    out = Path(out)
    base = out.with_name(out.name.removesuffix(".jsonl").removesuffix(".csv"))
    write_rows(base.with_name(base.name + ".jsonl"), rows)
    with base.with_name(base.name + ".csv").open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return {
        "cases": len(cases),
        "drawn": len(rows),
        "strata": dict(Counter(stratum(c) for c in sample.items)),
    }


def _filled_rows(path: Path) -> list[tuple[str, dict[str, Any]]]:
    if path.suffix == ".csv":
        try:
            with userfiles.open_text(path, "audit score", newline="") as handle:
                reader = csv.DictReader(handle)
                return [(f"{path}:{i + 2}", row) for i, row in enumerate(reader)]
        except UnicodeDecodeError as error:
            raise DataError(
                f"audit score {path}: {userfiles.decode_problem(error, reader.line_num + 1)}"
            ) from None
        except (csv.Error, OSError) as error:
            raise DataError(f"audit score {path}: not a readable CSV file ({error})") from None
    return [(f"{path}:{line}", row) for line, row in numbered_rows(path)]


def _human_label(row: dict[str, Any], where: str) -> str | None:
    value = str(row.get("human_label") or "").strip()
    if not value:
        return None
    mapped, known = (canonical_failure if row.get("track") == "failure" else canonical_success)(value)
    if not known:
        raise DataError(f"{where} ({row.get('audit_id')}): human_label {value!r} is not in the label set")
    return mapped


def _human_decision(row: dict[str, Any], where: str) -> str | None:
    value = str(row.get("human_decision") or "").strip().lower()
    if not value:
        return None
    if value not in _DECISIONS:
        raise DataError(f"{where} ({row.get('audit_id')}): human_decision {value!r}: use keep or reject")
    return _DECISIONS[value]


def score(path: str | Path) -> dict[str, Any]:
    """κ, agreement and confusion matrix per field from a filled annotation file."""
    path = Path(path)
    pairs: dict[str, list[tuple[str, str]]] = {"label": [], "decision": []}
    rows = _filled_rows(path)
    for where, row in rows:
        missing = [c for c in ("audit_id", "track", "pipeline_label", "pipeline_decision") if c not in row]
        if missing:
            raise DataError(f"{where}: not an audit row (no {', '.join(missing)})")
        human = {"label": _human_label(row, where), "decision": _human_decision(row, where)}
        for name, (pipeline_key, _) in FIELDS.items():
            if human[name] is not None:
                pairs[name].append((str(row[pipeline_key]), human[name]))
    if not any(pairs.values()):
        raise DataError(f"{path}: no row has human_label or human_decision filled in")
    result: dict[str, Any] = {"rows": len(rows)}
    for name, found in pairs.items():
        pipeline, human = [p for p, _ in found], [h for _, h in found]
        kappa = cohen_kappa(pipeline, human) if found else float("nan")
        result[name] = {
            "n": len(found),
            "agreement": round(sum(p == h for p, h in found) / len(found), 4) if found else None,
            "kappa": None if kappa != kappa else round(kappa, 4),
            "confusion": [
                {"pipeline": p, "human": h, "count": c} for (p, h), c in sorted(Counter(found).items())
            ],
        }
    return result


def render_score(result: dict[str, Any]) -> str:
    lines = [f"# Audit: pipeline vs person ({result['rows']} rows)", ""]
    for name in FIELDS:
        facts = result[name]
        kappa = (
            "undefined (one side used a single value)" if facts["kappa"] is None else f"{facts['kappa']:.3f}"
        )
        agreement = "-" if facts["agreement"] is None else f"{100 * facts['agreement']:.1f}%"
        lines += [f"## {name}: κ = {kappa}, agreement {agreement} over {facts['n']} rows", ""]
        if facts["confusion"]:
            lines += ["| pipeline | person | count |", "|---|---|---:|"]
            lines += [
                f"| {_named(c['pipeline'])} | {_named(c['human'])} | {c['count']} |"
                for c in facts["confusion"]
            ]
            lines.append("")
    return "\n".join(lines)


def _named(value: str) -> str:
    return value if english(value) == value else f"{value} ({english(value)})"


def write_score(path: str | Path, result: dict[str, Any]) -> Path:
    path = Path(path)
    target = path.with_name(path.name.removesuffix(path.suffix) + ".agreement.json")
    target.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return target
