"""Read a judge's verdict out of free-form model output.

Real answers wrap the label in reasoning, markdown, JSON or explanations, and Chinese
verdict characters also occur inside ordinary words (好的, 差不多, 其中). The rules, in
order: JSON field → explicit answer marker (the last one) → the whole answer is a label →
the first line starts with a label → the last line is a label → every standalone mention
agrees. Negations (不好, not good) count for the opposite label. Anything else is
unparseable, which docs/protocol.md#task-1-ux-judge scores as wrong.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from uxbench.templates import Template

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_MARKDOWN = re.compile(r"[*`#>~]+")
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")
_PUNCT = " \t\r\n。．.，,：:；;！!？?\"'“”‘’「」『』【】[]()（）<>《》-—_=|/\\"
_WORD = re.compile(r"[\w\u4e00-\u9fff]")
# Characters that may stand right before a Chinese label and keep it a verdict (很好, 较差, 质量差).
_DEGREE = set("很常较挺太真是为算都量得也还偏极")
_NEGATION = re.compile(r"(?:不|没|并不|不太|不够|不算|不是|没有|not\s+|n't\s+|never\s+)$", re.IGNORECASE)
_MARKER = (
    r"(?:最终答案|最终判断|最终结论|答案|结论|判断|判定|评价|评判|结果|verdict|final answer|answer|"
    r"label|judg(?:e)?ment|rating|decision)"
)
_OPPOSITE = {"good": "bad", "bad": "good"}


@dataclass(frozen=True)
class Verdict:
    label: str | None  # a label name of the template, or None when unparseable
    method: str  # which rule decided: json, marker, exact, first_line, last_line, mention, ...


def clean(text: str) -> str:
    """Output without reasoning blocks and markdown emphasis."""
    if "</think>" in text.lower():
        text = re.split(r"</think>", text, flags=re.IGNORECASE)[-1]
    return _MARKDOWN.sub("", _THINK.sub("", text)).strip()


def parse_verdict(output: str, template: Template) -> Verdict:
    text = clean(output or "")
    if not text:
        return Verdict(None, "empty")
    from_json = _json_label(text, template)
    if from_json is not None:
        return Verdict(from_json, "json")
    if template.answer == "json":
        return Verdict(None, "no_json")
    for rule in (_marker, _exact, _first_line, _last_line, _mentions):
        label, method = rule(text, template)
        if method:
            return Verdict(label, method)
    return Verdict(None, "no_label")


def _lookup(value: object, template: Template) -> str | None:
    spelled = str(value).strip().lower()
    for name, spellings in template.labels.items():
        if spelled in (s.lower() for s in spellings):
            return name
    return None


def _json_label(text: str, template: Template) -> str | None:
    for match in reversed(_JSON_OBJECT.findall(text)):
        try:
            data = json.loads(match)
        except ValueError:
            continue
        if isinstance(data, dict):
            for key in (template.json_key, "verdict", "label", "answer"):
                if key in data:
                    label = _lookup(data[key], template)
                    if label is not None:
                        return label
    return None


def _spelling_pattern(template: Template) -> str:
    spellings = sorted((s for values in template.labels.values() for s in values), key=len, reverse=True)
    return "|".join(re.escape(s) for s in spellings)


def _marker(text: str, template: Template) -> tuple[str | None, str]:
    pattern = re.compile(
        _MARKER + r"\s*(?:是|为|:|：|=|-|is)?\s*[\"'“「【\[(（]?\s*"
        r"(?P<neg>不|没|not\s+)?(?P<label>" + _spelling_pattern(template) + r")",
        re.IGNORECASE,
    )
    found = None
    for match in pattern.finditer(text):
        end = match.end("label")
        if end < len(text) and _is_word(text[end]) and _is_word(match.group("label")[-1]):
            continue  # 答案是好的方面… : the label is part of a longer word
        found = match
    if found is None:
        return None, ""
    label = _lookup(found.group("label"), template)
    if found.group("neg"):
        label = _OPPOSITE.get(label or "")
    return label, "marker"


def _exact(text: str, template: Template) -> tuple[str | None, str]:
    label = _lookup(text.strip(_PUNCT), template)
    return (label, "exact") if label else (None, "")


def _first_line(text: str, template: Template) -> tuple[str | None, str]:
    line = text.splitlines()[0].strip(_PUNCT)
    for name, spellings in template.labels.items():
        for spelling in spellings:
            rest = line[len(spelling) :]
            if line.lower().startswith(spelling.lower()) and (not rest or not _is_word(rest[0])):
                return name, "first_line"
    return None, ""


def _last_line(text: str, template: Template) -> tuple[str | None, str]:
    lines = [line for line in text.splitlines() if line.strip(_PUNCT)]
    label = _lookup(lines[-1].strip(_PUNCT), template) if lines else None
    return (label, "last_line") if label else (None, "")


def _mentions(text: str, template: Template) -> tuple[str | None, str]:
    found: set[str] = set()
    for name, spellings in template.labels.items():
        for spelling in spellings:
            for match in re.finditer(re.escape(spelling), text, re.IGNORECASE):
                start, end = match.span()
                if end < len(text) and _is_word(text[end]):
                    continue
                before = text[:start]
                negated = _NEGATION.search(before) is not None
                if negated:
                    if name in _OPPOSITE:
                        found.add(_OPPOSITE[name])
                    continue
                if before and _is_word(before[-1]) and before[-1] not in _DEGREE:
                    continue
                found.add(name)
    if len(found) == 1:
        return found.pop(), "mention"
    return None, "ambiguous" if found else ""


def _is_word(char: str) -> bool:
    return bool(_WORD.match(char))
