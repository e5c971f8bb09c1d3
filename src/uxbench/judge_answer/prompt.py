"""A judge or GRM prompt seen from the answering side: the template that rendered it, the
conversation it carries, and how an answer is spelled.

A provider that answers verdicts without being a language model (the baselines, a person at
`uxbench/human`) is given what any model is given, the rendered prompt; it recovers the
conversation through the template's own wording instead of a side channel, so it sees
exactly what a real judge sees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from uxbench.data.records import Turn
from uxbench.data.templates import (
    CONVERSATION,
    FENCE_ID,
    PLACEHOLDERS,
    Template,
    builtin_path,
    load_template,
)

_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
_SPACE = re.compile(r"\s*")
_CHUNK = re.compile(r"\S+")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


@dataclass(frozen=True)
class JudgePrompt:
    """A verdict request: its template, the placeholder values read back out, and its wording."""

    template: Template
    fields: dict[str, str]
    instructions: str = ""  # the prompt's paragraphs before the conversation, less its heading
    question: str = ""  # the prompt's wording after the judged reply

    def offered(self) -> tuple[str, ...]:
        """Labels the prompt offers: those its rendered `{options}` lists (good and bad without one)."""
        if "options" not in self.fields:
            return tuple(name for name in self.template.labels if name != "neutral")
        shown = {option.strip() for option in self.fields["options"].split("/")}
        return tuple(name for name, spellings in self.template.labels.items() if spellings[0] in shown)


Part = tuple[str, str]  # ("literal", template wording) or ("field", a conversation placeholder)


def _parts(template: Template, labels: tuple[str, ...]) -> tuple[list[Part], dict[str, str]]:
    """The template rendered for `labels` down to its wording and conversation fields, and the
    wording placeholders' values (options, neutral rule)."""
    shown = template.with_labels(labels)
    wording = {"options": shown.options(), "neutral_rule": shown.neutral_rule if "neutral" in labels else ""}
    body = template.body.strip()
    parts: list[Part] = []
    literal, position = "", 0
    for match in _PLACEHOLDER.finditer(body):
        literal += body[position : match.start()]
        position = match.end()
        if match.group(1) in CONVERSATION:
            parts += [("literal", literal), ("field", match.group(1))]
            literal = ""
        else:
            literal += wording[match.group(1)]
    parts.append(("literal", literal + body[position:]))
    used = {name: value for name, value in wording.items() if "{" + name + "}" in body}
    return parts, used


def _after_literal(text: str, position: int, literal: str) -> int | None:
    """Where `literal` ends when it starts at `position`, any whitespace run in it matching any
    (or no) whitespace in `text`; None when it is not there. Linear: no backtracking."""
    for chunk in _CHUNK.findall(literal):
        position = _SPACE.match(text, position).end()  # type: ignore[union-attr]
        if not text.startswith(chunk, position):
            return None
        position += len(chunk)
    return _SPACE.match(text, position).end()  # type: ignore[union-attr]


def _literal_pattern(literal: str, at_end: bool) -> re.Pattern[str]:
    """Template wording as a regex, any whitespace run matching any (or no) whitespace."""
    pattern = r"\s*".join(re.escape(chunk) for chunk in _CHUNK.findall(literal))
    return re.compile(pattern + (r"\s*\Z" if at_end else ""))


def _fenced(text: str, position: int, name: str) -> tuple[int, int, int] | None:
    """A fenced field at `position`: (start of its text, end of its text, end of its fence)."""
    opening = re.compile(rf"<{name}-([0-9a-f]{{{FENCE_ID}}})>\n").match(text, position)
    if opening is None:
        return None
    closing = f"\n</{name}-{opening.group(1)}>"
    end = text.find(closing, opening.end())
    return None if end < 0 else (opening.end(), end, end + len(closing))


def _unfenced(text: str, position: int, parts: list[Part], index: int) -> tuple[int, int, int] | None:
    """A field of a prompt rendered before fences (an older log): its text runs to the first
    place the wording after it follows (to the place that reaches the end, for the last)."""
    following = parts[index + 1][1] if index + 1 < len(parts) else ""
    if not following.strip():
        return position, len(text), len(text)
    match = _literal_pattern(following, at_end=index + 2 >= len(parts)).search(text, position)
    return None if match is None else (position, match.start(), match.start())


def _read(text: str, template: Template, labels: tuple[str, ...], fenced: bool) -> JudgePrompt | None:
    parts, wording = _parts(template, labels)
    fields: dict[str, str] = {}
    spans: dict[str, tuple[int, int]] = {}
    position = _SPACE.match(text).end()  # type: ignore[union-attr]
    for index, (kind, value) in enumerate(parts):
        if kind == "literal":
            found = _after_literal(text, position, value)
            if found is None:
                return None
            position = found
            continue
        span = _fenced(text, position, value) if fenced else _unfenced(text, position, parts, index)
        if span is None:
            return None
        content = text[span[0] : span[1]].strip()
        if fields.setdefault(value, content) != content:  # a placeholder used twice holds one text
            return None
        spans.setdefault(value, (position, span[2]))
        position = span[2]
    if position != len(text) or "response" not in spans:
        return None
    head = text[: min(start for start, _ in spans.values())].strip()
    paragraphs = _PARAGRAPH_BREAK.split(head)
    instructions = "\n\n".join(paragraphs[:-1] if len(paragraphs) > 1 else paragraphs)
    question = text[spans["response"][1] :].strip()
    return JudgePrompt(template, {**fields, **wording}, instructions, question)


def _label_sets(template: Template) -> list[tuple[str, ...]]:
    """The label sets a prompt of `template` may offer: good and bad, with neutral or without."""
    binary = tuple(name for name in template.labels if name != "neutral")
    return [tuple(template.labels), binary] if "neutral" in template.labels else [binary]


@cache
def builtin_templates() -> tuple[Template, ...]:
    """Our judge and GRM templates: the prompts a baseline or a person answers with a verdict."""
    names = sorted(p.name for p in builtin_path("").glob("*.txt") if p.name.startswith(("judge_", "grm_")))
    return tuple(load_template(builtin_path(name)) for name in names)


def read_judge_prompt(text: str, templates: tuple[Template, ...]) -> JudgePrompt | None:
    """The template `text` was rendered from and its conversation fields, or None for other prompts.

    Each field is read between its fences (`uxbench.data.templates.fence`), so a reply holding
    the template's headings or a fake closing line stays whole; a prompt rendered before fences
    (an older log) is read by the template's wording. Linear in the text's length either way.
    """
    for fenced in (True, False):
        for template in templates:
            if "{response}" not in template.body:
                continue
            for labels in _label_sets(template):
                prompt = _read(text, template, labels, fenced)
                if prompt is not None:
                    return prompt
    return None


_TURN = re.compile(rf"(?:^|\n\n)([^\n：]{{1,40}})：<(\w+)-([0-9a-f]{{{FENCE_ID}}})>\n")


def history_turns(history: str, template: Template) -> tuple[str, list[Turn]]:
    """A history rendered by `Template.history_text` as turns, and any note before the first turn
    (the GRM's "earlier turns omitted", or the whole text when it has no speaker labels)."""
    if history.strip() == template.empty_history.strip():
        return "", []
    role_of = {label: role for role, label in template.roles.items()}
    first = _TURN.search(history)
    if first is None:
        return _unfenced_turns(history, role_of)
    turns: list[Turn] = []
    position = first.start()
    while (match := _TURN.match(history, position)) and match.group(1) in role_of:
        closing = f"\n</{match.group(2)}-{match.group(3)}>"
        end = history.find(closing, match.end())
        if end < 0:
            break
        turns.append(Turn(role_of[match.group(1)], history[match.end() : end]))
        position = end + len(closing)
    return history[: first.start()].strip(), turns


def _unfenced_turns(history: str, role_of: dict[str, str]) -> tuple[str, list[Turn]]:
    """A history rendered before fences: split at each speaker label that starts a paragraph."""
    starts = "|".join(re.escape(label) for label in role_of)
    parts = re.split(rf"(?:^|\n\n)({starts})：", history)
    # re.split with one group: [before, speaker, text, speaker, text, ...]
    turns = [Turn(role_of[who], text) for who, text in zip(parts[1::2], parts[2::2], strict=True)]
    return parts[0].strip(), turns


def last_assistant_turn(history: str, template: Template) -> str | None:
    """Text of the last assistant turn in a history rendered by `Template.history_text`."""
    replies = [turn.content for turn in history_turns(history, template)[1] if turn.role == "assistant"]
    return replies[-1] if replies else None


def verdict_text(template: Template, label: str) -> str:
    """How `template` asks a verdict to be written: its label's first spelling, or a JSON object."""
    spelling = template.labels[label][0]
    if template.answer == "json":
        value = spelling if re.fullmatch(r"-?\d+(?:\.\d+)?", spelling) else f'"{spelling}"'
        return f'{{"{template.json_key}": {value}}}'
    return spelling
