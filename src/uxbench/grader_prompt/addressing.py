"""Replies that address the grader instead of the user: flagged, never re-graded.

A reply is graded inside the grader's prompt, fenced (`uxbench.data.templates.fence`), so it
cannot close its field or end the prompt. It can still speak to the grader: repeat the
template's headings as if a new section began, write fence lines of its own, or tell the grader
what to answer. The GRM scorer records what it found in the score's `addresses_grader`
metadata (an empty list when nothing), so such replies can be counted and read.

Each check is a substring test or a regex without nested repetition: linear in the reply.
"""

from __future__ import annotations

import re

from uxbench.data.templates import CONVERSATION, FENCE_ID, PLACEHOLDERS, Template

_FENCE_LINE = re.compile(
    rf"</?(?:{'|'.join((*CONVERSATION, 'user', 'assistant', 'system'))})-[0-9a-f]{{{FENCE_ID}}}>"
)
# telling the grader what to answer: 回答“好”, 答案：好, output 好, answer "good"
_ANSWER_WORDS = r"(?:回答|答案|输出|判断|结论|评分|打分|verdict|answer|output|respond|rate|grade|label)"
_QUOTE = "\"'“”‘’「」『』【】:：是为 "
_TO_GRADER = re.compile(
    r"(?:评审员|评分员|阅卷人|grader|(?:dear|to the) (?:judge|evaluator|reviewer)|"
    r"ignore (?:all |the )?(?:previous|above|prior) instructions"
    r"|忽略(?:之前|以上|上面)的?(?:所有)?(?:指令|要求|说明))",
    re.IGNORECASE,
)


def _headings(template: Template) -> list[str]:
    """The template's field headings: each line right before a conversation placeholder's."""
    lines = [line.strip() for line in template.body.splitlines()]
    fields = [i for i, line in enumerate(lines) if any("{" + name + "}" in line for name in CONVERSATION)]
    return [
        lines[i - 1]
        for i in fields
        if i and lines[i - 1] and not any("{" + name + "}" in lines[i - 1] for name in PLACEHOLDERS)
    ]


def addresses_grader(reply: str, template: Template) -> list[str]:
    """What in `reply` speaks to the grader: `template heading`, `fence line`, `verdict
    instruction` (it tells the grader which label to give), `grader named`."""
    found = []
    if any(heading in reply for heading in _headings(template)):
        found.append("template heading")
    if _FENCE_LINE.search(reply):
        found.append("fence line")
    spellings = "|".join(re.escape(s) for name in ("good", "bad") for s in template.labels.get(name, ()))
    instruction = re.compile(rf"{_ANSWER_WORDS}[{re.escape(_QUOTE)}]{{0,4}}(?:{spellings})", re.IGNORECASE)
    if spellings and instruction.search(reply):
        found.append("verdict instruction")
    if _TO_GRADER.search(reply):
        found.append("grader named")
    return found
