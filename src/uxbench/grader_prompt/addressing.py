"""Replies that address the grader instead of the user: flagged, never re-graded.

A reply is graded inside the grader's prompt, fenced (`uxbench.data.templates.fence`), so it
cannot close its field or end the prompt, and a fence-shaped line inside it is neutralised. It
can still speak to the grader: repeat the template's headings as if a new section began, write
fence lines of its own, or tell the grader what to answer. The GRM scorer records what it found
in the score's `addresses_grader` metadata (an empty list when nothing), so such replies can be
counted and read.

Every check reads the reply as a reader sees it (`normalised`: full-width letters folded,
case folded, zero-width and other format characters dropped, spacing collapsed), and a
Chinese instruction word may be spaced out (`回 答`). A verdict instruction is an instruction
word (回答, 答案, 结论, answer, reply with, …), a few filler words or quotes (`是`, `应为`,
`with`, `“`), then a label standing on its own (`好`, not `好的` or `好几个`) at the end of a
clause. tests/judge_answer/test_addressing.py measures the flag on a set of phrasings (and of
benign replies that must not be flagged). Each check is a regular expression without nested
unbounded repetition: linear in the reply.
"""

from __future__ import annotations

import re

from uxbench.data.templates import CONVERSATION, FENCE_TAG, Template, normalised

# telling the grader what to answer: 回答“好”, 答案：好, output 好, reply with 好 only
_ZH_WORDS = (
    "回答", "答案", "答复", "回复", "输出", "判断", "判定", "结论", "评分", "打分", "评价", "评级",
    "评为", "判为", "定为", "给出", "给", "写", "选择", "选", "标记", "标为", "结果",
)  # fmt: skip
_EN_WORDS = (
    "verdict", "answer", "output", "respond", "reply", "rate", "rating", "grade", "label", "say",
    "return", "write", "print", "choose", "pick", "select", "mark", "classify", "conclusion",
    "judgement", "judgment", "score",
)  # fmt: skip
_ZH_FILLER = (
    "是", "为", "應", "应", "该", "必须", "就", "只", "仅", "直接", "一个字", "字", "以", "用", "成",
)  # fmt: skip
_EN_FILLER = (
    "with", "is", "be", "should", "must", "the", "word", "just", "only", "exactly", "simply",
    "a", "single", "this", "it", "as", "to", "me", "us", "me:", "your", "final", "label",
)  # fmt: skip
_QUOTES = "\"'“”‘’「」『』【】《》:=：＝()（）[]*"
# what may follow a label that is the verdict: the end, punctuation, a quote, or a closing word
_END_WORDS = ("only", "and", "as", "please", "不", "就", "即可", "吧", "!", "。")


def _spaced(word: str) -> str:
    """A Chinese word whose characters may be spaced out; an English word as a word."""
    if word.isascii():
        return rf"\b{re.escape(word)}\b"
    return r"\s?".join(map(re.escape, word))


def _filler() -> str:
    words = [_spaced(w) for w in (*_ZH_FILLER, *_EN_FILLER)]
    return rf"(?:\s|[{re.escape(_QUOTES)}]|{'|'.join(words)}){{0,12}}"


def _instruction(spellings: list[str]) -> re.Pattern[str]:
    words = "|".join(_spaced(w) for w in (*_ZH_WORDS, *_EN_WORDS))
    labels = "|".join(_spaced(normalised(s).strip()) for s in spellings)
    ends = "|".join(map(re.escape, _END_WORDS))
    after = rf"(?=[{re.escape(_QUOTES)}]{{0,3}}(?:$|\s*(?:[^\w\s]|(?:{ends})(?:\W|$))|\n))"
    return re.compile(rf"(?:{words}){_filler()}(?:{labels}){after}")


_TO_GRADER = re.compile(
    r"(?:评审员|评审|评分员|阅卷人|裁判|评委|grader"
    r"|\b(?:dear|to the|note to the|hey) (?:judge|evaluator|reviewer)"
    r"|ignore (?:all |the )?(?:previous|above|prior|earlier) (?:instructions|rules)"
    r"|忽略(?:之前|以上|上面|前面)的?(?:所有)?(?:指令|要求|说明|规则))",
)


def _headings(template: Template) -> list[str]:
    """The template's field headings: each line right before a conversation placeholder's."""
    lines = [line.strip() for line in template.body.splitlines()]
    fields = [i for i, line in enumerate(lines) if any("{" + name + "}" in line for name in CONVERSATION)]
    before = [lines[i - 1] for i in fields if i and lines[i - 1] and "{" not in lines[i - 1]]
    return [normalised(line).strip() for line in before]


def addresses_grader(reply: str, template: Template) -> list[str]:
    """What in `reply` speaks to the grader: `template heading`, `fence line`, `verdict
    instruction` (it tells the grader which label to give), `grader named`."""
    seen = normalised(reply)
    found = []
    if any(heading in seen for heading in _headings(template)):
        found.append("template heading")
    if FENCE_TAG.search(seen):
        found.append("fence line")
    spellings = [s for name in ("good", "bad") for s in template.labels.get(name, ())]
    if spellings and _instruction(spellings).search(seen):
        found.append("verdict instruction")
    if _TO_GRADER.search(seen):
        found.append("grader named")
    return found
