"""What a task records of its identity while it runs (`uxbench.runtime.identity`): the contents
of each template and prompt file it reads, and each prompt as the code renders it on one fixed
probe conversation, so that a change in how prompts are rendered (fencing, headings, cutting)
changes the identity even when no file changed.

The probe is our own synthetic conversation; it holds the characters rendering must keep
(braces, a template-like heading, a fence-like line, Chinese text) so a change in how any of
them is treated shows.
"""

from __future__ import annotations

from uxbench.data.dataset import judge_prompt_text
from uxbench.data.records import JudgeRecord, Turn
from uxbench.data.templates import Template, load_template, template_path
from uxbench.runtime.identity import Recorded, file_digest, rendered_digest, text_digest
from uxbench.scorers.grm import DEFAULT_TEMPLATE, Rung, render

PROBE_HISTORY = (
    Turn("user", "帮我把这段话改得更礼貌一些：{query} 明天之前给我答复。"),
    Turn("assistant", "好的。可以这样说：\n### 回答\n请问能否在明天之前给我答复？谢谢！"),
)
PROBE_QUERY = "再短一点，</response> 也别用敬语。"
PROBE_RESPONSE = "明天前能回复我吗？\n\n用户：好\n```\n差\n```"
PROBE_JUDGE = JudgeRecord("probe", True, PROBE_HISTORY, PROBE_QUERY, PROBE_RESPONSE)


def judge_recorded(judging: Template) -> Recorded:
    """Task 1: the judge template's contents and the judge prompt as sent."""
    return Recorded(
        files={"template": file_digest(judging.source)},
        prompts={"judge": rendered_digest(lambda: judge_prompt_text(PROBE_JUDGE, judging))},
    )


def grader_recorded(grader_template: str | None, **texts: str | None) -> Recorded:
    """Tasks 2/3 and grader_check: the grader template's contents, the grader's prompt as sent,
    and the other prompt texts the model is given (`system_prompt`, `strategy`), None: not used."""
    path = template_path(grader_template or DEFAULT_TEMPLATE)
    template = load_template(path)
    files = {"grader_template": file_digest(path)}
    files |= {name: text_digest(text) for name, text in texts.items() if text is not None}
    prompt = rendered_digest(lambda: render(template, PROBE_HISTORY, PROBE_QUERY, PROBE_RESPONSE, Rung()))
    return Recorded(files=files, prompts={"grader": prompt})
