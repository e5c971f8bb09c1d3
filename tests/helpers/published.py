"""Synthetic published per-model outputs, written by the tests in the published layout.

Task 1 (`write_verdicts`): model m judges the first `right_good` liked and `right_bad`
disliked records of `judge_records` correctly; chosen records have a null verdict (a failed
judgment) or no row at all, so every Avg-Acc can be worked out by hand.

Model m's reply to record i reads `... «m:i»`, so a grader can tell from any prompt whose
reply it grades. Its reference grade (UXBench-GRM's, in these files) is drawn from m's own
good rate, seeded by (m, i); `flipping_grader` answers with that grade flipped at known
rates (sensitivity SENS, specificity SPEC), seeded the same way, so tests can work every
number out by hand.
"""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import dataclass
from pathlib import Path

from helpers.localserver import Reply, prompt_text
from uxbench.qualification.published import TASK_DIRS, VERDICTS_DIR

# models named like published ones carry synthetic numbers too
GOOD_RATE = {"alpha": 0.6, "gamma": 0.4, "beta": 0.3, "delta": 0.5, "gpt_5": 0.45, "claude_opus_4_6": 0.35}
SENS, SPEC = 0.85, 0.75  # the flipping grader's injected rates
CIDS = {"task2": "uxbench_ux_eval_{:04d}", "task3": "uxbench_ux_recovery_{:04d}"}
MARK = re.compile(r"«(\w+):(\d+)»")


@dataclass(frozen=True)
class Line:
    """What the files say about model m's reply to record i."""

    i: int
    cid: str
    reply: str | None  # None: its generation failed
    verdict: int  # 1 good, -1 bad, 0 failed
    score: float | None


def reply_text(model: str, i: int) -> str:
    return f"这是 {model} 的回复，第 {i} 条 «{model}:{i}»"


def reference(model: str, i: int) -> tuple[int, float]:
    """(verdict, score) of UXBench-GRM's synthetic grade; verdict good ⇔ score ≥ 0.5, 2 decimals."""
    rng = random.Random(f"reference:{model}:{i}")
    good = rng.random() < GOOD_RATE[model]
    score = round(0.5 + 0.49 * rng.random(), 2) if good else round(0.01 + 0.48 * rng.random(), 2)
    return (1 if good else -1), score


def lines(
    model: str,
    n: int,
    task: str = "task2",
    failed_replies: int = 0,
    failed_grades: int = 0,
) -> list[Line]:
    """n records; i % failed_replies == 5 failed to generate, i % failed_grades == 7 failed to grade."""
    out = []
    for i in range(n):
        verdict, score = reference(model, i)
        reply: str | None = reply_text(model, i)
        if failed_replies and i % failed_replies == 5:
            reply, verdict, score = None, 0, None
        elif failed_grades and i % failed_grades == 7:
            verdict, score = 0, None
        out.append(Line(i, CIDS[task].format(i), reply, verdict, score))
    return out


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def write_published(
    root: Path,
    model: str,
    records: list[Line],
    task: str = "task2",
    omit_replies: tuple[int, ...] = (),
    omit_grades: tuple[int, ...] = (),
) -> list[Line]:
    """The responses and judge files of one model; every third line spells its values as strings.

    Records `omit_replies` have no line in the responses file, `omit_grades` none in the judge file."""
    base = root / TASK_DIRS[task]
    reply_field = "recovery_response" if task == "task3" else "generated_response"
    responses, judge = [], []
    for line in records:
        text = (lambda v: str(v) if v is not None else None) if line.i % 3 == 0 else (lambda v: v)
        if line.i not in omit_replies:
            ok = line.reply is not None
            responses.append(
                {
                    "cid": line.cid,
                    "model": model,
                    reply_field: line.reply,
                    "ok": text(ok),
                    "error": None if ok else "generation timed out",
                }
            )
        if line.i in omit_grades:
            continue
        lp_good = math.log(line.score * 0.95) if line.score is not None else None
        lp_bad = math.log((1 - line.score) * 0.95) if line.score is not None else None
        judge.append(
            {
                "cid": line.cid,
                "judged_model": model,
                "verdict": text(line.verdict),
                "score": text(line.score),
                "good_logprob": text(lp_good),
                "bad_logprob": text(lp_bad),
                "grm_ok": text(line.verdict != 0),
                "latency_s": 0.5,
            }
        )
    _write(base / "responses" / f"{model}.jsonl", responses)
    _write(base / "judge" / f"judge_{model}.jsonl", judge)
    return records


def grader_verdict(model: str, i: int) -> tuple[str, float]:
    """The flipping grader's verdict and score on model's reply i."""
    verdict, score = reference(model, i)
    u = random.Random(f"grader:{model}:{i}").random()
    says_good = u < SENS if verdict == 1 else u >= SPEC
    agrees = says_good == (verdict == 1)
    return ("good" if says_good else "bad"), (score if agrees else 1 - score)


def flipping_grader(request: dict) -> Reply:
    """An OpenAI-compatible grader answer: the reference flipped at the injected rates, with logprobs."""
    found = MARK.findall(prompt_text(request).split("【助手的最新回复】")[-1])
    if not found:
        return Reply("嗯")  # not a reply of ours: a failed verdict
    model, i = found[-1][0], int(found[-1][1])
    verdict, p = grader_verdict(model, i)
    label = "好" if verdict == "good" else "差"
    good, bad = math.log(p * 0.9), math.log((1 - p) * 0.9)
    tops = sorted([("好", good), ("差", bad)], key=lambda t: -t[1])
    return Reply(label, [(label, good if label == "好" else bad, tops)])


def judge_cids(n_good: int, n_bad: int) -> dict[str, int]:
    """cid → the user's label (1 liked, −1 disliked) of `helpers.records.judge_records(n_good, n_bad)`."""
    return {f"uxbench_ux_judge_{i:04d}": 1 for i in range(n_good)} | {
        f"uxbench_ux_judge_{1000 + i:04d}": -1 for i in range(n_bad)
    }


def write_verdicts(
    root: Path,
    model: str,
    labels: dict[str, int],
    right_good: int,
    right_bad: int,
    failed: tuple[str, ...] = (),
    omitted: tuple[str, ...] = (),
) -> dict[str, int | None]:
    """The Task 1 responses file of one model; every third line spells its values as strings.

    Returns cid → the verdict written (None: a null verdict); omitted records have no line."""
    verdicts: dict[str, int | None] = {}
    seen = {1: 0, -1: 0}
    for cid, label in labels.items():
        seen[label] += 1
        right = seen[label] <= (right_good if label == 1 else right_bad)
        verdicts[cid] = None if cid in failed else (label if right else -label)
    rows = []
    for k, (cid, verdict) in enumerate(verdicts.items()):
        if cid in omitted:
            continue
        text = (lambda v: str(v) if v is not None else "None") if k % 3 == 0 else (lambda v: v)
        row = {"cid": cid, "ground_truth": text(labels[cid]), "verdict": text(verdict), "latency_s": 1.5}
        rows.append(row | ({"difficulty": "easy"} if k % 2 else {}))
    _write(root / VERDICTS_DIR / "responses" / f"{model}.jsonl", rows)
    return {cid: v for cid, v in verdicts.items() if cid not in omitted}
