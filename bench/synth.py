"""Synthetic UXBench records at release size, for load and fault runs.

The text is our own filler Chinese prose, sized like real chat logs (short user turns,
replies of a few hundred to a few thousand characters); record shapes rotate through
the variants the loader accepts (docs/protocol.md#data) so the benchmark exercises the same
parsing work as real data. Output is deterministic for a given seed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from uxbench.data.dataset import RELEASE_FILES
from uxbench.data.labels import FAILURE_DIMENSIONS, SCENARIOS, SUCCESS_PATTERNS
from uxbench.data.records import ORIGIN_FIELD, SYNTHETIC

FULL_SIZE = {"task1": 2000, "task2": 4900, "task3": 500}

_SENTENCES = (
    "这个问题可以从几个角度来看。",
    "先说结论，再解释原因。",
    "如果你只是想快速了解，记住下面这一点就够了。",
    "实际操作时，建议先备份原来的文件。",
    "不同地区的规定可能不一样，最好再确认一下当地的要求。",
    "我把步骤整理成了清单，你可以逐条对照。",
    "这里有一个常见的误区，很多人会忽略。",
    "从成本和时间两方面比较，第二种方案更合适。",
    "如果情况更复杂，可以把细节发给我，我再帮你分析。",
    "简单来说，关键在于控制变量。",
    "需要注意的是，这个数字只是一个大概的范围。",
    "你可以先试一下，有问题随时告诉我。",
    "下面给出一个例子，方便你理解。",
    "这种写法更简洁，也更容易维护。",
    "我理解你的担心，这种情况确实让人着急。",
    "总的来说，没有绝对正确的选择，要看你的具体需求。",
)
_QUESTIONS = (
    "帮我写一段周报的开头，语气正式一点",
    "高铁上可以带充电宝吗，有没有容量限制",
    "孩子晚上总是不肯睡觉怎么办",
    "用一句话解释一下什么是复利",
    "帮我把这段话翻译成英文，别太生硬",
    "租房合同里哪些条款需要特别注意",
    "推荐几本适合入门的心理学书",
    "这道数学题我算出来和答案不一样，帮我看看",
    "怎么跟领导提加薪比较合适",
    "给我的猫起几个可爱的名字",
    "Excel 里怎么把两列合并成一列",
    "最近总是失眠，有什么办法吗",
)
_COMPLAINTS = ("不对，你没看懂我的意思", "太长了，说重点", "答非所问", "这个信息是错的吧", "你到底会不会")
_DIFFICULTIES = ("easy", "medium", "hard", "very_hard", "")
_SIGNALS = ("like", "dislike", "explicit_praise", "deep_dive", "explicit_complaint")


def _prose(rng: random.Random, low: int, high: int) -> str:
    """Filler text of between `low` and `high` characters."""
    target = rng.randint(low, high)
    parts: list[str] = []
    size = 0
    while size < target:
        sentence = rng.choice(_SENTENCES)
        parts.append(sentence)
        size += len(sentence)
        if rng.random() < 0.2:
            parts.append("\n\n")
    return "".join(parts)


def _query(rng: random.Random) -> str:
    return rng.choice(_QUESTIONS) + ("，" + _prose(rng, 10, 120) if rng.random() < 0.5 else "")


def _history(rng: random.Random, style: int) -> list[dict[str, Any]] | str:
    """0–6 prior turns, alternating user/assistant, in one of the accepted shapes."""
    turns: list[dict[str, Any]] = []
    for i in range(rng.choice((0, 2, 2, 4, 6))):
        role = "user" if i % 2 == 0 else "assistant"
        text = _query(rng) if role == "user" else _prose(rng, 150, 1500)
        key = "message" if style % 2 else "content"
        turns.append({"role": role, key: text, "turn_index": i})
    return json.dumps(turns, ensure_ascii=False) if style == 2 else turns


def _domains(rng: random.Random) -> dict[str, str]:
    return {
        f"{axis}_{level}": f"{axis}{rng.randint(1, 9)}"
        for axis in ("scene", "intent", "sector")
        for level in ("l1", "l2")
    }


def judge_row(rng: random.Random, number: int, liked: bool) -> dict[str, Any]:
    style = number % 3
    query = _query(rng)
    row: dict[str, Any] = {
        "cid": f"uxbench_ux_judge_{number:04d}",
        "ground_truth": 1 if liked else -1,
        "selected_history" if style else "history": _history(rng, style),
        "source_query" if style else "query": {"turn_index": 0, "message": query} if style else query,
        "agent_response_full": _prose(rng, 300, 2500),
        "scenario": rng.choice(list(SCENARIOS)),
        "difficulty": rng.choice(_DIFFICULTIES),
        "signal_type": rng.choice(_SIGNALS),
        **_domains(rng),
    }
    if liked:
        row["success_dimension"] = rng.choice(list(SUCCESS_PATTERNS))
    else:
        row["failure_dimension"] = rng.choice(list(FAILURE_DIMENSIONS))
    return row


def eval_row(rng: random.Random, number: int) -> dict[str, Any]:
    query = _query(rng)
    history = _history(rng, 0)
    assert isinstance(history, list)
    messages = [{"role": "system", "content": "你是一个乐于助人的助手。"}, *history]
    if number % 2:
        messages.append({"role": "user", "content": query})
    return {
        "cid": f"uxbench_ux_eval_{number:04d}",
        "query": query,
        "messages": messages,
        "dimension": rng.choice(list(FAILURE_DIMENSIONS)),
        "scenario": rng.choice(list(SCENARIOS)),
        "difficulty": rng.choice(_DIFFICULTIES),
        "signal_type": rng.choice(_SIGNALS),
        "history_turns": len(history),
        "overall_quality": rng.choice(("high", "medium")),
        "representativeness": rng.choice(("high", "medium")),
        **_domains(rng),
    }


def recovery_row(rng: random.Random, number: int) -> dict[str, Any]:
    return {
        "cid": f"uxbench_ux_recovery_{number:04d}",
        "history": _history(rng, number % 3),
        "failed_response": _prose(rng, 200, 2000),
        "user_complaint": rng.choice(_COMPLAINTS),
        "failure_dimension": rng.choice(list(FAILURE_DIMENSIONS)),
        "scenario": rng.choice(list(SCENARIOS)),
    }


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:  # each says it is ours, labels and all (docs/data.md#record-origin)
            handle.write(
                json.dumps({"cid": row["cid"], ORIGIN_FIELD: SYNTHETIC, **row}, ensure_ascii=False) + "\n"
            )


def write_release(
    directory: Path, task1: int = 2000, task2: int = 4900, task3: int = 500, seed: int = 0
) -> Path:
    """Write the four release files (Task 1 split evenly liked/disliked) into `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    good = [judge_row(rng, 2 * i, True) for i in range(task1 - task1 // 2)]
    bad = [judge_row(rng, 2 * i + 1, False) for i in range(task1 // 2)]
    _write(directory / RELEASE_FILES["task1_judge_good"], good)
    _write(directory / RELEASE_FILES["task1_judge_bad"], bad)
    _write(directory / RELEASE_FILES["task2_eval"], [eval_row(rng, i) for i in range(task2)])
    _write(directory / RELEASE_FILES["task3_recovery"], [recovery_row(rng, i) for i in range(task3)])
    return directory
