"""A stand-in model for dry runs: valid structured answers without calling any model.

`uxbench pipeline run RAW --dry-run` (and the tests) plug `answer` into Inspect's
`mockllm/model` as its custom output function. It reads the prompt like a careful but
unimaginative annotator: cases on the rated turns, labels and scores drawn from a hash of
the text (so the same prompt always gets the same answer), and — when asked to — an
invalid first answer now and then to exercise the re-ask path.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage
from inspect_ai.tool import ToolChoice, ToolInfo

from uxbench.data.labels import FAILURE_DIMENSIONS, SCENARIOS, SUCCESS_PATTERNS

_TURN = re.compile(
    r"^### turn (\d+) · (user|assistant|system)((?: · [^\n]*)?)\n<(turn-[0-9a-f]+)>\n", re.MULTILINE
)
_FENCE = re.compile(r"^<[a-z_]+-[0-9a-f]+>$", re.MULTILINE)
_SIGNALS = {
    "complain": "explicit_complaint",
    "repeat": "repeat",
    "rephrase": "rephrase",
    "short_dismiss": "short_dismiss",
    "abandon": "abandon",
    "skip_read": "skip_read",
}
# open two-level domain labels the stand-in picks from (the second level is the query's start)
_SCENES = ("科普", "天气", "写作", "影视娱乐", "职业发展", "数码产品", "心理健康", "办公软件")
_INTENTS = ("信息获取", "内容创作", "建议咨询", "问题解决", "情感倾诉")
_SECTORS = ("教育", "科技", "金融", "生活服务", "文化娱乐", "医疗健康")
# roughly the shares of docs/protocol.md#label-sets, so that sampling sees a realistic skew
_DIMENSION_WEIGHTS = (34, 25, 12, 11, 10, 2, 3, 2, 2, 2, 2, 1, 1, 1)

MockFunction = Callable[[list[ChatMessage], list[ToolInfo], ToolChoice, GenerateConfig], ModelOutput]


def _unit(*parts: str) -> float:
    """A number in [0, 1) fixed by the text."""
    digest = hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def _weighted(options: list[str], weights: tuple[int, ...], u: float) -> str:
    total, mark = sum(weights), u * sum(weights)
    for option, weight in zip(options, weights, strict=False):
        mark -= weight
        if mark < 0:
            return option
    return options[-1] if total else options[0]


def _turns(prompt: str) -> list[dict[str, Any]]:
    """The turns of the prompt's conversation: each heading and the fenced text after it, read
    from one closing line to the next heading, so a heading written inside a turn is text."""
    conversation = prompt.split("CONVERSATION\n", 1)[-1]
    turns: list[dict[str, Any]] = []
    at = 0
    while match := _TURN.search(conversation, at):
        closing = f"\n</{match.group(4)}>"
        end = conversation.find(closing, match.end())
        if end < 0:
            break
        head = match.group(3)
        reaction = re.search(r"user reaction: (\w+)", head)
        turns.append(
            {
                "index": int(match.group(1)),
                "role": match.group(2),
                "rating": "disliked"
                if "rated disliked" in head
                else "liked"
                if "rated liked" in head
                else None,
                "reaction": reaction.group(1) if reaction else None,
                "text": conversation[match.end() : end],
            }
        )
        at = end + len(closing)
    return turns


def _query_before(turns: list[dict[str, Any]], position: int) -> dict[str, Any] | None:
    return next((t for t in reversed(turns[:position]) if t["role"] == "user"), None)


def _mine(prompt: str, failure: bool) -> dict[str, Any]:
    turns = _turns(prompt)
    cases = []
    for position, turn in enumerate(turns):
        if turn["rating"] != ("disliked" if failure else "liked"):
            continue
        query = _query_before(turns, position)
        if query is None:
            continue
        u = _unit(query["text"], turn["text"])
        follow = next((t for t in turns[position + 1 :] if t["role"] == "user"), None)
        case: dict[str, Any] = {
            "query_turn": query["index"],
            "scenario": list(SCENARIOS)[int(u * 997) % len(SCENARIOS)],
            "scene_l1": _SCENES[int(_unit(query["text"], "scene") * 97) % len(_SCENES)],
            "scene_l2": query["text"][:8],
            "intent_l1": _INTENTS[int(_unit(query["text"], "intent") * 89) % len(_INTENTS)],
            "intent_l2": "一般",
            "sector_l1": _SECTORS[int(_unit(query["text"], "sector") * 83) % len(_SECTORS)],
            "sector_l2": "一般",
            "signal_confidence": "high" if u < 0.75 else "medium" if u < 0.93 else "low",
            "representativeness": "high" if u < 0.8 else "medium" if u < 0.95 else "low",
            "confidence": round(0.5 + u / 2, 2),
            "explanation": "The user's request and the reply are both in the log; the rating and the "
            "user's next message show how the reply landed, which is what this case records.",
        }
        if failure:
            signal = _SIGNALS.get(turn["reaction"] or "", "dislike")
            case |= {
                "failed_turn": turn["index"],
                "dimension": _weighted(
                    list(FAILURE_DIMENSIONS), _DIMENSION_WEIGHTS, _unit(turn["text"], "dim")
                ),
                "signal_type": signal,
                "sentiment": "explicit" if signal == "explicit_complaint" else "implicit",
                "complaint": follow["text"][:200] if follow and signal == "explicit_complaint" else "",
                "recovery_attempted": any(t["role"] == "assistant" for t in turns[position + 1 :]),
                "recovery_succeeded": any(t["rating"] == "liked" for t in turns[position + 1 :]),
            }
        else:
            case |= {
                "liked_turn": turn["index"],
                "pattern": list(SUCCESS_PATTERNS)[
                    int(_unit(turn["text"], "pat") * 991) % len(SUCCESS_PATTERNS)
                ],
                "signal_type": "explicit_praise" if turn["reaction"] == "satisfied" else "like",
            }
        cases.append(case)
    return {"cases": cases}


def _judge(prompt: str) -> dict[str, Any]:
    u = _unit(prompt, "judge")
    base = 5 if u < 0.35 else 4 if u < 0.7 else 3 if u < 0.9 else 2
    axes = (
        "query_completeness",
        "signal_credibility",
        "representativeness",
        "severity",
        "annotation_clarity",
    )
    scores = {a: max(1, min(5, base - (int(_unit(prompt, a) * 10) == 0))) for a in axes}
    return scores | {"rationale": "Scored from the evidence in the log.", "tier": "high", "total": 99}


def _qa(prompt: str) -> dict[str, Any]:
    u = _unit(prompt, "qa")
    verdict = "keep" if u < 0.88 else "downgrade" if u < 0.94 else "reject"
    return {
        "verdict": verdict,
        "needs_context": _unit(prompt, "ctx") < 0.2,
        "needs_image": _unit(prompt, "img") < 0.02,
        "duplicate_pattern": _unit(prompt, "dup") < 0.05,
        "corrected_label": None,
        "reason": "Checked against the conversation.",
    }


def answer_for(prompt: str) -> dict[str, Any]:
    """The structured answer for a pipeline prompt, told apart by its instructions (the text
    before the first fenced one)."""
    fenced = _FENCE.search(prompt)
    instructions = prompt[: fenced.start()] if fenced else prompt
    if "Find every usable FAILURE case" in instructions:
        return _mine(prompt, failure=True)
    if "Find every usable SUCCESS case" in instructions:
        return _mine(prompt, failure=False)
    if "Score the case on" in instructions:
        return _judge(prompt)
    if "last quality check" in instructions:
        return _qa(prompt)
    raise ValueError("the dry-run model only answers the pipeline's own prompts")


def mock_answers(invalid_rate: float = 0.0) -> MockFunction:
    """A `custom_outputs` function for `mockllm/model`; `invalid_rate` of first answers are unusable."""

    def generate(
        input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        prompt = input[0].text
        if len(input) == 1 and _unit(prompt, "invalid") < invalid_rate:
            text = (
                '{"cases": [{"dimension": "not a label"}], "query_completeness": "high", "verdict": "maybe"}'
            )
        else:
            text = json.dumps(answer_for(prompt), ensure_ascii=False)
        output = ModelOutput.from_content(model="dry-run", content=text)
        output.usage = ModelUsage(input_tokens=len(prompt) // 3, output_tokens=len(text) // 3)
        output.usage.total_tokens = output.usage.input_tokens + output.usage.output_tokens
        return output

    return generate
