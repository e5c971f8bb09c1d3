"""Read a judge's verdict out of free-form model output.

Real answers wrap the label in reasoning, markdown, JSON or explanations, and Chinese
verdict characters also occur inside ordinary words (好的, 差不多, 其中). The template's own
rules, in order: JSON field → explicit answer marker (the last one) → the whole answer is a
label → the first line starts with a label → the last line is a label → every standalone
mention agrees. Negations (不好, not good) count for the opposite label. Anything else is
unparseable, which docs/protocol.md#task-1-ux-judge scores as wrong.

`strict` reading stops there. The default `careful` reading is what a person reading the
answer would conclude: it first sets aside a restated list of the options (`好/差：差`), reads
negations across a few words (不会觉得好, won't be satisfied), and when the template's labels
are not found at all it falls back to a JSON verdict in any known spelling and to the labels'
words in the language the template does not use. Each fallback is named in `Verdict.method`.

Bounded work: reading is linear in the answer's length, whatever it holds (unclosed
`<think>` tags by the thousand, long runs of spaces after a label or a marker, a label
repeated throughout). `clean` cuts every run of whitespace to at most 8 characters (its
first and last 4, so line breaks at its ends stay), so no pattern can backtrack through a
long run, and a negation is looked for in the `NEGATION_REACH` characters before a label only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from uxbench.data.templates import Template
from uxbench.grader_answer.reading import INVISIBLE, reasoning_end

ParseMode = Literal["careful", "strict"]
PARSE_MODES: tuple[ParseMode, ...] = ("careful", "strict")
Labels = dict[str, tuple[str, ...]]

_LONG_SPACE_RUN = re.compile(r"\s{9,}")  # kept to its first and last 4 characters (the module's bound)
_MARKDOWN = re.compile(rf"[*`#>~{INVISIBLE}]+")  # emphasis, and what shows as nothing (BOM, zero-width)
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")
_PUNCT = " \t\r\n。．.，,：:；;！!？?\"'“”‘’「」『』【】[]()（）<>《》-—_=|/\\"
_WORD = re.compile(r"[\w\u4e00-\u9fff]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_NUMBER = re.compile(r"[\d.]+")
# Characters that may stand right before a Chinese label and keep it a verdict (很好, 较差, 质量差).
_DEGREE = set("很常较挺太真是为算都量得也还偏极")
# How far before a label a negation is looked for: the longest the patterns below can spell
# (five bridging words after "not") with room to spare.
NEGATION_REACH = 120
_NEGATION = re.compile(r"(?:不|没|并不|不太|不够|不算|不是|没有|not\s+|n't\s+|never\s+)$", re.IGNORECASE)
# The careful reader also sees a negation through a few bridging words (不会觉得好, isn't really good,
# won't be satisfied) but not through "not only".
_CAREFUL_NEGATION = re.compile(
    r"(?:(?:不|没|未)(?:会|能|太|算|是|够|很|大|有|怎么|那么|觉得|认为|感到|感觉){0,3}"
    r"|(?:\bnot|n't|\bnever)\s+(?:(?:be|been|being|very|really|too|so|that|quite|particularly|"
    r"exactly|feel|find|think|say|it|it's|is|was|were|look|looks|seem|seems|the|reply|response|"
    r"answer|user|a|an|at|all|would|will|likely|probably)\s+){0,5})$",
    re.IGNORECASE,
)
_MARKER = (
    r"(?:最终答案|最终判断|最终结论|答案|结论|判断|判定|评价|评判|结果|verdict|final answer|answer|"
    r"label|judg(?:e)?ment|rating|decision)"
)
_OPPOSITE = {"good": "bad", "bad": "good"}
_JSON_KEYS = ("verdict", "label", "answer")
_CAREFUL_JSON_KEYS = (
    *_JSON_KEYS,
    "judgment",
    "judgement",
    "rating",
    "result",
    "decision",
    "结论",
    "答案",
    "判断",
)
# The labels' words in each language; the careful reader adds those of a language the template does not use.
_WORDS: dict[str, Labels] = {
    "zh": {"good": ("好",), "bad": ("差",), "neutral": ("中",)},
    "en": {
        "good": ("good", "satisfied"),
        "bad": ("bad", "dissatisfied", "unsatisfied"),
        "neutral": ("neutral",),
    },
}
# The paper's JSON variant ({"verdict": 1} good, {"verdict": 0} bad), read inside JSON only.
_JSON_VALUES: Labels = {"good": ("1",), "bad": ("0",), "neutral": ("0.5",)}
# A restated list of options: label, separator, label, ... (each label maybe quoted or bracketed).
_OPEN = "\"'“‘「『【[(（《"
_CLOSE = "\"'”’」』】])）》"
_SEPARATOR = r"\s*(?:/|／|\||｜|、|或者|或|还是|\bor\b)\s*"


@dataclass(frozen=True)
class Verdict:
    label: str | None  # a label name of the template, or None when unparseable
    # the rule that decided: json, marker, exact, first_line, last_line, mention; careful fallbacks
    # options_echo, json_verdict, other_language; unparseable: empty, no_json, no_label, ambiguous, undecided
    method: str


def clean(text: str) -> str:
    """Output after the last `</think>` (the reasoning before it set aside), without markdown
    emphasis or invisible characters (a BOM, a zero-width space), a run of more than 8
    whitespace characters cut to its first and last 4.

    An unclosed `<think>` is kept: the answer may be inside it.
    """
    text = _MARKDOWN.sub("", text[reasoning_end(text) :])
    return _LONG_SPACE_RUN.sub(lambda run: run.group()[:4] + run.group()[-4:], text).strip()


def parse_verdict(output: str, template: Template, mode: ParseMode = "careful") -> Verdict:
    text = clean(output or "")
    if not text:
        return Verdict(None, "empty")
    if mode == "strict":
        return _strict(text, template)
    words = _other_language(template)
    remainder = _drop_options(text, _word_spellings(template.labels, words))
    if remainder == text:
        return _careful(text, template, words)
    rest = remainder.strip()
    label = _careful(rest, template, words).label if rest.strip(_PUNCT) else None
    return Verdict(label, "options_echo") if label else Verdict(None, "undecided")


def _strict(text: str, template: Template) -> Verdict:
    """The template's own rules only, a negation counting only right before the label."""
    from_json = _json_label(text, template.labels, (template.json_key, *_JSON_KEYS))
    if from_json is not None:
        return Verdict(from_json, "json")
    if template.answer == "json":
        return Verdict(None, "no_json")
    return _read_text(text, template.labels, _NEGATION)


def _careful(text: str, template: Template, words: Labels) -> Verdict:
    """The template's own rules; when its labels are not found at all, the fallbacks."""
    from_json = _json_label(text, template.labels, (template.json_key, *_JSON_KEYS))
    if from_json is not None:
        return Verdict(from_json, "json")
    values = {name: (*template.labels[name], *words[name], *_JSON_VALUES.get(name, ())) for name in words}
    from_json = _json_label(text, values, (template.json_key, *_CAREFUL_JSON_KEYS))
    if from_json is not None:
        return Verdict(from_json, "json_verdict")
    own = _read_text(text, template.labels, _CAREFUL_NEGATION) if template.answer == "text" else None
    if own is not None and (own.label or own.method == "ambiguous"):
        return own
    if any(words.values()):
        other = _read_text(text, words, _CAREFUL_NEGATION)
        if other.label or other.method == "ambiguous":
            return Verdict(other.label, "other_language" if other.label else "ambiguous")
    return own or Verdict(None, "no_json")


def _read_text(text: str, labels: Labels, negation: re.Pattern[str]) -> Verdict:
    for rule in (_marker, _exact, _first_line, _last_line):
        label, method = rule(text, labels)
        if method:
            return Verdict(label, method)
    label, method = _mentions(text, labels, negation)
    return Verdict(label, method or "no_label")


def _other_language(template: Template) -> Labels:
    """Per label, the words of the languages none of the template's spellings is written in."""
    spelled = "".join(s for spellings in template.labels.values() for s in spellings)
    used = {"zh"} if _CJK.search(spelled) else set()
    used |= {"en"} if _LATIN.search(spelled) else set()
    return {
        name: tuple(w for lang, table in _WORDS.items() if lang not in used for w in table.get(name, ()))
        for name in template.labels
    }


def _word_spellings(labels: Labels, words: Labels) -> list[str]:
    """Every spelling that is a word, not a number (`1/0` in prose is no list of options)."""
    spellings = [s for name in labels for s in (*labels[name], *words[name])]
    return [s for s in spellings if not _NUMBER.fullmatch(s)]


def _drop_options(text: str, spellings: list[str]) -> str:
    """The text without any restated list of two or more different labels (`好/差`, `good or bad`)."""
    if not spellings:
        return text
    alternatives = "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))
    item = rf"[{re.escape(_OPEN)}]?\s*(?:{alternatives})\s*[{re.escape(_CLOSE)}]?"
    pattern = re.compile(rf"(?<![A-Za-z]){item}(?:{_SEPARATOR}{item})+(?![A-Za-z])", re.IGNORECASE)
    by_spelling = {s.lower(): s for s in spellings}
    named = re.compile(alternatives, re.IGNORECASE)

    def drop(match: re.Match[str]) -> str:
        distinct = {by_spelling[m.group(0).lower()] for m in named.finditer(match.group(0))}
        return " " if len(distinct) >= 2 else match.group(0)

    return pattern.sub(drop, text)


def _lookup(value: object, labels: Labels) -> str | None:
    spelled = str(value).strip().lower()
    for name, spellings in labels.items():
        if spelled in (s.lower() for s in spellings):
            return name
    return None


def _json_label(text: str, labels: Labels, keys: tuple[str, ...]) -> str | None:
    for match in reversed(_JSON_OBJECT.findall(text)):
        try:
            data = json.loads(match)
        except ValueError:
            continue
        if isinstance(data, dict):
            for key in keys:
                if key in data:
                    label = _lookup(data[key], labels)
                    if label is not None:
                        return label
    return None


def _spelling_pattern(labels: Labels) -> str:
    spellings = sorted((s for values in labels.values() for s in values), key=len, reverse=True)
    return "|".join(re.escape(s) for s in spellings)


def _marker(text: str, labels: Labels) -> tuple[str | None, str]:
    pattern = re.compile(
        _MARKER + r"\s*(?:是|为|:|：|=|-|is)?\s*[\"'“「【\[(（]?\s*"
        r"(?P<neg>不|没|not\s+)?(?P<label>" + _spelling_pattern(labels) + r")",
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
    label = _lookup(found.group("label"), labels)
    if found.group("neg"):
        label = _OPPOSITE.get(label or "")
    return label, "marker"


def _exact(text: str, labels: Labels) -> tuple[str | None, str]:
    label = _lookup(text.strip(_PUNCT), labels)
    return (label, "exact") if label else (None, "")


def _first_line(text: str, labels: Labels) -> tuple[str | None, str]:
    line = text.splitlines()[0].strip(_PUNCT)
    for name, spellings in labels.items():
        for spelling in spellings:
            rest = line[len(spelling) :]
            if line.lower().startswith(spelling.lower()) and (not rest or not _is_word(rest[0])):
                return name, "first_line"
    return None, ""


def _last_line(text: str, labels: Labels) -> tuple[str | None, str]:
    lines = [line for line in text.splitlines() if line.strip(_PUNCT)]
    label = _lookup(lines[-1].strip(_PUNCT), labels) if lines else None
    return (label, "last_line") if label else (None, "")


def _mentions(text: str, labels: Labels, negation: re.Pattern[str]) -> tuple[str | None, str]:
    found: set[str] = set()
    for name, spellings in labels.items():
        for spelling in spellings:
            for match in re.finditer(re.escape(spelling), text, re.IGNORECASE):
                start, end = match.span()
                if end < len(text) and _is_word(text[end]):
                    continue
                if negation.search(text, max(0, start - NEGATION_REACH), start) is not None:
                    if name in _OPPOSITE:
                        found.add(_OPPOSITE[name])
                    continue
                if start and _is_word(text[start - 1]) and text[start - 1] not in _DEGREE:
                    continue
                found.add(name)
    if len(found) == 1:
        return found.pop(), "mention"
    return None, "ambiguous" if found else ""


def _is_word(char: str) -> bool:
    return bool(_WORD.match(char))
