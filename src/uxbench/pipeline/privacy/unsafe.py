"""A lexical screen for content a public test set must not carry (the prefilter of
docs/protocol.md#construction-pipeline).

Deliberately narrow: it looks for sexual content, slurs, self-harm *methods* and drug /
weapon making, not for sad or angry users (emotional-support conversations belong in the
benchmark). Each term is a keyword that must occur in the lower-cased text, optionally
refined by a regular expression; substring tests are cheap, so only texts holding a
keyword pay for a regex. Teams add their own terms from a file (see `UnsafeScreen.with_file`).
"""

from __future__ import annotations

import re
from pathlib import Path

from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError

# (category, keyword, refining regex or None); all lower case
UNSAFE_TERMS: tuple[tuple[str, str, str | None], ...] = (
    ("sexual", "色情", None),
    ("sexual", "黄色", r"黄色(?:视频|网站|小说|图片)"),
    ("sexual", "裸照", None),
    ("sexual", "裸聊", None),
    ("sexual", "约炮", None),
    ("sexual", "成人视频", None),
    ("sexual", "porn", r"\bporn"),
    ("sexual", "nude", r"\bnudes?\b"),
    ("sexual", "sexting", None),
    ("slur", "支那", None),
    ("slur", "黑鬼", None),
    ("slur", "gg", r"\bn[i1]gg(?:er|a)s?\b"),
    ("slur", "fag", r"\bfagg?[o0]ts?\b"),
    ("slur", "retard", r"\bretards?\b"),
    ("self_harm_method", "自杀", r"(?:怎么|如何|怎样|用什么|哪种)自杀|自杀(?:方法|方式|的办法)"),
    ("self_harm_method", "割腕", r"(?:怎么|如何|怎样)割腕"),
    ("self_harm_method", "药", r"吃多少.{0,6}药.{0,4}(?:会死|能死|致死)"),
    ("self_harm_method", "kill myself", r"how (?:to|do i|can i) kill myself|ways? to kill myself"),
    ("self_harm_method", "suicide", r"suicide methods?|how (?:to|do i|can i) commit suicide"),
    ("self_harm_method", "end my life", r"how (?:to|do i|can i) end my life"),
    ("drugs_weapons", "冰毒", r"(?:制作|制造|合成|提炼|买|弄到)冰毒"),
    ("drugs_weapons", "毒品", r"(?:制作|制造|合成|哪里买|怎么买)毒品"),
    ("drugs_weapons", "炸", r"(?:制作|制造|自制)(?:炸弹|炸药)"),
    ("drugs_weapons", "枪", r"(?:自制|哪里买|怎么买|如何买)(?:枪|手枪)"),
    ("drugs_weapons", "meth", r"how (?:to|do i|can i) (?:make|cook|synthesi[sz]e) (?:meth|heroin|fentanyl)"),
    ("drugs_weapons", "bomb", r"how (?:to|do i|can i) (?:make|build) (?:a )?(?:pipe )?bomb"),
    ("drugs_weapons", "gun", r"(?:buy|get) (?:a )?gun (?:illegally|without a licen[cs]e)"),
)


class UnsafeScreen:
    """Names the first unsafe category found in a text, or None."""

    def __init__(self, terms: tuple[tuple[str, str, str | None], ...] = UNSAFE_TERMS) -> None:
        self._terms = [(category, keyword, re.compile(p) if p else None) for category, keyword, p in terms]

    def match(self, text: str) -> str | None:
        lowered = text.lower()
        for category, keyword, pattern in self._terms:
            if keyword in lowered and (pattern is None or pattern.search(lowered)):
                return category
        return None

    @classmethod
    def with_file(cls, path: str | Path | None) -> UnsafeScreen:
        """The built-in terms plus those of a user file: one term a line, written
        `category<TAB>keyword` or `category<TAB>keyword<TAB>regex` (lower case; # comments)."""
        if path is None:
            return cls()
        path = Path(path)
        terms = list(UNSAFE_TERMS)
        for number, text in userfiles.lines(path, "--unsafe-terms"):
            line = text.rstrip("\n")
            if line.lstrip().startswith("#"):
                continue
            fields = [f.strip() for f in line.split("\t")]
            if len(fields) not in (2, 3) or not all(fields):
                raise DataError(f"{path}:{number}: expected category<TAB>keyword[<TAB>regex], got {line!r}")
            pattern = fields[2] if len(fields) == 3 else None
            if pattern is not None:
                try:
                    re.compile(pattern)
                except re.error as error:
                    raise DataError(f"{path}:{number}: not a regular expression ({error})") from None
            terms.append((fields[0], fields[1].lower(), pattern))
        return cls(tuple(terms))
