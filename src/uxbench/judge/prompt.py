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
from uxbench.data.templates import PLACEHOLDERS, Template, builtin_path, load_template

_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
# Placeholders that carry the conversation (the rest carry prompt wording: options, neutral rule).
CONVERSATION = ("history", "query", "response", "failed_response", "complaint")


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


def _pattern(template: Template) -> re.Pattern[str]:
    """A regex matching renderings of `template`, capturing every placeholder."""
    parts: list[str] = []
    seen: set[str] = set()
    body = template.body.strip()
    position = 0
    for match in _PLACEHOLDER.finditer(body):
        parts.append(_literal(body[position : match.start()]))
        name = match.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.*?)")
        seen.add(name)
        position = match.end()
    parts.append(_literal(body[position:]))
    return re.compile(r"\s*" + "".join(parts) + r"\s*", re.DOTALL)


def _literal(text: str) -> str:
    """Template wording as a regex, any whitespace run matching any (or no) whitespace."""
    return r"\s*".join(re.escape(chunk) for chunk in re.split(r"\s+", text))


@cache
def builtin_templates() -> tuple[Template, ...]:
    """Our judge and GRM templates: the prompts a baseline or a person answers with a verdict."""
    names = sorted(p.name for p in builtin_path("").glob("*.txt") if p.name.startswith(("judge_", "grm_")))
    return tuple(load_template(builtin_path(name)) for name in names)


def read_judge_prompt(text: str, templates: tuple[Template, ...]) -> JudgePrompt | None:
    """The template `text` was rendered from and its conversation fields, or None for other prompts."""
    for template in templates:
        if "{response}" not in template.body:
            continue
        match = _pattern(template).fullmatch(text)
        if match:
            fields = {name: value.strip() for name, value in match.groupdict().items() if value is not None}
            starts = [match.start(name) for name in CONVERSATION if match.groupdict().get(name) is not None]
            head = text[: min(starts)].strip()
            paragraphs = re.split(r"\n\s*\n", head)
            instructions = "\n\n".join(paragraphs[:-1] if len(paragraphs) > 1 else paragraphs)
            return JudgePrompt(template, fields, instructions, text[match.end("response") :].strip())
    return None


def history_turns(history: str, template: Template) -> tuple[str, list[Turn]]:
    """A history rendered by `Template.history_text` as turns, and any note before the first turn
    (the GRM's "earlier turns omitted", or the whole text when it has no speaker labels)."""
    if history.strip() == template.empty_history.strip():
        return "", []
    role_of = {label: role for role, label in template.roles.items()}
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
