"""Prompt templates: a text file with a YAML header that declares its answer labels.

A template owns its label mapping (docs/protocol.md#task-1-ux-judge: 好/差 for the paper's prompt,
`{"verdict": 1}` / `{"verdict": 0}` for the JSON variant), so any user template parses
correctly. Placeholders are `{name}` for the names below; other braces (JSON examples)
are left alone.

    ---
    answer: text            # or json
    json_key: verdict       # json answers: the key holding the label
    labels:                 # answer spellings per label; the first is shown as the option
      good: [好]
      bad: [差]
      neutral: [中]         # only used by three-class tasks
    neutral_rule: ...       # sentence inserted as {neutral_rule} in three-class mode
    roles: {user: 用户, assistant: 助手, system: 系统}
    empty_history: （无）
    ---
    body with {history} {query} {response} {options} {neutral_rule}
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml

from uxbench.data.records import Turn
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

PLACEHOLDERS = (
    "history",
    "query",
    "response",
    "options",
    "neutral_rule",
    "failed_response",
    "complaint",
)

# Placeholders that carry the conversation (the rest carry prompt wording: options, neutral rule).
CONVERSATION = ("history", "query", "response", "failed_response", "complaint")

_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
FENCE_ID = 12  # hex digits of a fence's id


def fence_id(name: str, text: str) -> str:
    """The id of `text`'s fence: from a hash of the text itself, so the text cannot hold its own
    closing line (it would have to contain its own hash), and a rendering is reproducible."""
    return hashlib.sha256(f"{name}\x00{text}".encode("utf-8", "surrogatepass")).hexdigest()[:FENCE_ID]


# Characters a text can hide inside a word: zero-width ones, the soft hyphen, other format
# characters (Unicode category Cf) are dropped by `normalised`.
_SPACES = re.compile(r"\s+")
# A fence's tag as a reader may take it, whatever its name: `<name-` or `</name-`, 12 hex digits, `>`
FENCE_TAG = re.compile(rf"<\s*/?\s*[^\s<>/]+?-[0-9a-f]{{{FENCE_ID}}}\s*>", re.IGNORECASE)
NEUTRAL_BRACKETS = ("‹", "›")  # what a fence-shaped tag's brackets become inside a quoted text


def normalised(text: str) -> str:
    """`text` as a reader sees it: width folded (NFKC: `ＡＮＳＷＥＲ` is `answer`), case folded,
    invisible format characters dropped (`答\u200b案` is `答案`), each run of spaces one space."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    visible = "".join(char for char in folded if unicodedata.category(char) != "Cf")
    return _SPACES.sub(" ", visible)


def neutralise(text: str) -> str:
    """`text` with every line that holds a fence-shaped tag (read as `normalised` reads it: in
    full-width letters, upper case, with zero-width characters inside) rewritten so it cannot
    imitate a fence: that line normalised, the tags' brackets turned into ‹ ›. Other lines are
    left as they are."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if "<" not in line and "＜" not in line and "﹤" not in line:
            continue
        plain = unicodedata.normalize("NFKC", line)
        plain = "".join(char for char in plain if unicodedata.category(char) != "Cf")
        if FENCE_TAG.search(plain):
            lines[index] = FENCE_TAG.sub(_neutral_tag, plain)
    return "\n".join(lines)


def _neutral_tag(tag: re.Match[str]) -> str:
    opening, closing = NEUTRAL_BRACKETS
    return opening + tag.group(0)[1:-1] + closing


def fence(name: str, text: str, nested: bool = False) -> str:
    """`text` between an opening and a closing line that nothing inside it can close or imitate:
    `<response-1a2b3c4d5e6f>` … `</response-1a2b3c4d5e6f>`; a fence-shaped tag inside the text
    is neutralised first (`neutralise`), so a reader that does not compare ids is not fooled
    either. `nested`: the text is made of fenced texts already (`Template.history_text`), whose
    own fences stay."""
    text = text if nested else neutralise(text)
    tag = f"{name}-{fence_id(name, text)}"
    return f"<{tag}>\n{text}\n</{tag}>"


@dataclass(frozen=True)
class Template:
    body: str
    labels: dict[str, tuple[str, ...]]
    source: str
    answer: Literal["text", "json"] = "text"
    json_key: str = "verdict"
    neutral_rule: str = ""
    roles: dict[str, str] = field(
        default_factory=lambda: {"user": "用户", "assistant": "助手", "system": "系统"}
    )
    empty_history: str = "（无）"

    def with_labels(self, names: tuple[str, ...]) -> Template:
        """The same template answering only `names` (e.g. binary without neutral)."""
        missing = [n for n in names if n not in self.labels]
        if missing:
            raise DataError(
                f"template {self.source}: no answer spelling for label(s) {', '.join(missing)}; "
                f"add them under 'labels:' in its header"
            )
        return replace(self, labels={n: self.labels[n] for n in names})

    def options(self) -> str:
        return " / ".join(spellings[0] for spellings in self.labels.values())

    def render(self, **values: str) -> str:
        """The prompt, each conversation text fenced (`fence`): a reply cannot close its field
        or add headings of the template's, and the fields read back whatever they hold (a
        fence-shaped line neutralised). `history` is `history_text`'s, each turn fenced."""
        values = {
            name: fence(name, text, nested=name == "history") if name in CONVERSATION else text
            for name, text in values.items()
        }
        values.setdefault("options", self.options())
        values.setdefault("neutral_rule", self.neutral_rule if "neutral" in self.labels else "")
        # One pass, so braces inside the inserted conversation are never substituted again.
        return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), self.body)

    def history_text(self, turns: Sequence[Turn]) -> str:
        """The turns, each after its speaker's label and fenced, so no turn can imitate the next."""
        if not turns:
            return self.empty_history
        return "\n\n".join(f"{self.roles.get(t.role, t.role)}：{fence(t.role, t.content)}" for t in turns)


def builtin_path(name: str) -> Path:
    return Path(str(resources.files("uxbench") / "prompts" / name))


def template_path(value: str) -> Path:
    """A template file by built-in name (`grm_pointwise`, `judge_cot.txt`) or by path: scorer
    arguments stay plain strings, so `inspect score -S template=...` can re-create a scorer and
    its log never holds this machine's install path."""
    builtin = builtin_path(value if value.endswith(".txt") else f"{value}.txt")
    return builtin if "/" not in value and builtin.is_file() else Path(value).expanduser()


def load_template(path: str | Path) -> Template:
    """Read a template file; errors name the file and what is wrong with it."""
    path = Path(path).expanduser()
    text = userfiles.read_text(path, "template")
    header: dict[str, Any] = {}
    body = text
    if text.startswith("---"):
        _, _, rest = text.partition("\n")
        head, sep, body = rest.partition("\n---\n")
        if not sep:
            raise DataError(f"template {path}: header opened with '---' is never closed")
        try:
            # BaseLoader keeps every value a string: `Yes`, `1`, `0.5` stay answer spellings.
            header = yaml.load(head, Loader=yaml.BaseLoader) or {}
        except yaml.YAMLError as error:
            raise DataError(f"template {path}: header is not valid YAML ({error})") from None
    raw_labels = header.get("labels") or {"good": ["好"], "bad": ["差"]}
    if not isinstance(raw_labels, dict) or not {"good", "bad"} <= set(raw_labels):
        raise DataError(f"template {path}: 'labels' must map good and bad to answer spellings")
    labels = {
        str(name): tuple(str(s) for s in (spell if isinstance(spell, list) else [spell]))
        for name, spell in raw_labels.items()
    }
    answer = header.get("answer", "text")
    if answer not in ("text", "json"):
        raise DataError(f"template {path}: 'answer' must be text or json, got {answer!r}")
    extra = {k: header[k] for k in ("json_key", "neutral_rule", "roles", "empty_history") if k in header}
    return Template(body=body.strip() + "\n", labels=labels, source=str(path), answer=answer, **extra)
