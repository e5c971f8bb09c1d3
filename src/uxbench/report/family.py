"""Model families, for flagging runs where the grader judges its own family (docs/protocol.md#grm-scoring).

A small name mapping: the first family whose pattern matches the model name (without the
Inspect provider prefix) wins. Names it does not know, and baselines, have no family and
are never flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("OpenAI", r"(?:^|/)(?:gpt|chatgpt|o[1-9](?:$|[-.]))"),
        ("Anthropic", r"claude"),
        ("Google", r"gemini|gemma"),
        ("Meta", r"llama"),
        ("Alibaba", r"qwen|qwq"),
        ("DeepSeek", r"deepseek"),
        ("Zhipu", r"glm"),
        ("Mistral", r"mistral|mixtral|codestral|ministral"),
        ("xAI", r"grok"),
        ("Tencent", r"hunyuan|uxbench-grm"),
        ("Moonshot", r"kimi|moonshot"),
        ("Hugging Face", r"smollm"),
    )
)


def family(model: str) -> str | None:
    """The family of an Inspect model name (`provider/model`), or None when unknown."""
    provider, _, name = model.partition("/")
    if provider == "baseline":
        return None
    for label, pattern in FAMILIES:
        if pattern.search(name or provider):
            return label
    return None


def self_family(model: str, graders: Iterable[str]) -> bool:
    """True when the model under test shares a known family with any of its graders."""
    own = family(model)
    return own is not None and any(family(grader) == own for grader in graders)
