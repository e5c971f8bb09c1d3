"""Credentials in what a run writes: which values are secret, and how they are blanked out.

Some providers echo the API key in an error body (`401 Incorrect API key provided: sk-…`),
and Inspect keeps error text in the log, prints it and traces it. A `Redactor` replaces

* the value of every credential environment variable — a name ending in one of
  `CREDENTIAL_SUFFIXES` (`OPENAI_API_KEY`, `HF_TOKEN`, `AWS_SECRET_ACCESS_KEY`, …) — whose value
  `looks_secret`, written as is, JSON- or HTML-escaped, by `[REDACTED:<NAME>]`. A value's first
  `PREFIX` characters count as the value too (with whatever of it follows them), so a message
  cut short in the middle of a key does not leave most of the key behind;
* the credentials of a `Bearer` or `Basic` authorization (`Authorization: Bearer sk-…`);
* the user-info of a URL (`https://user:password@host` → `https://[REDACTED]@host`).

`uxbench.runtime.hooks` applies it to every Inspect run (logs, trace file, console), `uxbench report`
to its outputs and `uxbench redact` to existing logs; docs/scale.md#keys-and-secrets lists what
is covered and what is not.
"""

from __future__ import annotations

import copy
import html
import json
import os
import re
import zipfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote

CREDENTIAL_SUFFIXES = ("API_KEY", "APIKEY", "TOKEN", "SECRET", "SECRET_KEY", "ACCESS_KEY", "PASSWORD")
_CREDENTIAL_NAME = re.compile(rf"(?:^|_)(?:{'|'.join(CREDENTIAL_SUFFIXES)})$", re.IGNORECASE)
MIN_LENGTH = 8  # shorter values (`test`, `EMPTY`, `none`) are placeholders, not secrets
ALWAYS_SECRET_LENGTH = 20  # from this length a value is a secret whatever its characters
PREFIX = 16
REDACTED = "[REDACTED]"

_TOKEN = r"[A-Za-z0-9\-._~+/]+"  # the token characters of RFC 6750 (bearer) and RFC 7617 (basic)
# What a terminal rendering puts inside a long word: colour codes, and where the line is
# folded, the padding and panel borders around the line break.
_NOISE = r"\x1b\[[0-9;?]*[A-Za-z]|[ \t│┃║|]*\r?\n[ \t│┃║|]*"
_AUTHORIZATION = re.compile(rf"\b([Bb]earer|Basic)(\s+)({_TOKEN}=*)")
_AUTHORIZATION_RENDERED = re.compile(
    rf"\b([Bb]earer|Basic)((?:\s|\x1b\[[0-9;?]*[A-Za-z]|[│┃║|])+)({_TOKEN}(?:(?:{_NOISE})+{_TOKEN})*=*)"
)
# ://userinfo@ — userinfo stops at anything that cannot be in it (or ends a quoted string)
_URL_USERINFO = re.compile(r"://[^\s/?#@\"'\\<>\[\]]+@")
_RENDERING_NOISE = re.compile(_NOISE)


def is_credential_name(name: str) -> bool:
    return bool(_CREDENTIAL_NAME.search(name))


# a model argument (`-M api_key=…`, `-M token=…`) whose value is a credential whatever it looks like
_SECRET_ARGUMENT = re.compile(r"key|token|secret|password|credential", re.IGNORECASE)


def is_secret_argument(name: str) -> bool:
    return bool(_SECRET_ARGUMENT.search(name))


def looks_secret(value: str) -> bool:
    """At least MIN_LENGTH characters, and either ALWAYS_SECRET_LENGTH long or a mix of at
    least two of letters, digits and other characters: a word (`password`, `changeme`) or a
    number (`12345678`) is too common to blank out of every text it appears in."""
    if len(value) < MIN_LENGTH:
        return False
    kinds = {"letter" if c.isalpha() else "digit" if c.isdigit() else "other" for c in value}
    return len(value) >= ALWAYS_SECRET_LENGTH or len(kinds) >= 2


def _matches(text: str, value: str) -> Iterator[tuple[int, int]]:
    """Spans of `value` in `text`, and of its first PREFIX characters with as much of the rest
    of it as follows them."""
    anchor = value[:PREFIX]
    start = text.find(anchor)
    while start >= 0:
        end, matched = start + len(anchor), len(anchor)
        while matched < len(value) and end < len(text) and text[end] == value[matched]:
            end, matched = end + 1, matched + 1
        yield start, end
        start = text.find(anchor, end)


def _replace_spans(text: str, spans: list[tuple[int, int, str]]) -> str:
    parts, last = [], 0
    for start, end, marker in spans:
        parts += [text[last:start], marker]
        last = end
    return "".join(parts) + text[last:]


class Redactor:
    """Blanks out the given secrets (name → value) and the credential patterns above."""

    def __init__(self, secrets: Mapping[str, str]) -> None:
        by_value: dict[str, str] = {}
        for name, value in sorted(secrets.items()):
            value = value.strip()
            if looks_secret(value):
                by_value.setdefault(value, name)
        # the longest first, so a value that contains another is blanked out whole
        self.values = sorted(by_value.items(), key=lambda item: -len(item[0]))
        self._written: list[tuple[str, str]] = []  # (as written in text or JSON, marker)
        for value, name in self.values:
            forms = {
                value,
                html.escape(value),
                json.dumps(value)[1:-1],
                json.dumps(value, ensure_ascii=False)[1:-1],
            }
            self._written += [(form, f"[REDACTED:{name}]") for form in sorted(forms, key=len, reverse=True)]

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Redactor:
        """The credential variables of `environ` (default: this process's environment)."""
        environ = os.environ if environ is None else environ
        return cls({name: value for name, value in environ.items() if is_credential_name(name)})

    def redact(self, text: str) -> str:
        """Plain text: a message, a traceback, a log line, a report."""
        for value, marker in self._written:
            if value[:PREFIX] in text:
                text = _replace_spans(text, [(start, end, marker) for start, end in _matches(text, value)])
        if _may_hold_authorization(text):
            text = _AUTHORIZATION.sub(_authorization, text)
        return _URL_USERINFO.sub(f"://{REDACTED}@", text)

    def redact_rendered(self, text: str) -> str:
        """Terminal output (or Inspect's ANSI rendering of a traceback): a credential is found
        even where the terminal folded it across lines, between panel borders, or coloured
        parts of it."""
        if self.values and ("\n" in text or "\x1b" in text):
            text = self._redact_folded(text)
        if _may_hold_authorization(text):
            text = _AUTHORIZATION_RENDERED.sub(_authorization, text)
        return self.redact(text)

    def redact_json(self, text: str) -> str:
        """A JSON document (a log member): every string in it, rendered ones as such."""
        if not self._may_hold_credentials(text):
            return text
        try:
            document = json.loads(text)
        except ValueError:
            return self.redact(text)
        return json.dumps(self._redact_strings(document), ensure_ascii=False)

    def _may_hold_credentials(self, text: str) -> bool:
        return (
            any(value[:PREFIX] in text for value, _ in self._written)
            or (_may_hold_authorization(text) and _AUTHORIZATION.search(text) is not None)
            or _URL_USERINFO.search(text) is not None
        )

    def _redact_strings(self, item: Any) -> Any:
        if isinstance(item, str):
            return self.redact_rendered(item) if "\x1b" in item or "│" in item else self.redact(item)
        if isinstance(item, dict):
            return {self._redact_strings(key): self._redact_strings(value) for key, value in item.items()}
        if isinstance(item, list):
            return [self._redact_strings(value) for value in item]
        return item

    def _redact_folded(self, text: str) -> str:
        # Match against the text with the noise taken out, then drop the matched characters
        # from the original, keeping the noise (line breaks, borders) between them.
        view, where, last = [], [], 0
        for noise in [*_RENDERING_NOISE.finditer(text), None]:
            start = noise.start() if noise else len(text)
            view.append(text[last:start])
            where.extend(range(last, start))
            last = noise.end() if noise else last
        flat = "".join(view)
        drop: dict[int, str] = {}  # position in text → what it becomes
        for value, name in self.values:
            for start, end in _matches(flat, value):
                drop.update(dict.fromkeys((where[i] for i in range(start + 1, end)), ""))
                drop[where[start]] = f"[REDACTED:{name}]"
        if not drop:
            return text
        return "".join(drop.get(i, char) for i, char in enumerate(text))

    def redact_log_file(self, path: str | Path) -> bool:
        """Rewrite a local Inspect log (`.eval` or `.json`) with its credentials blanked out;
        True if it held any. A file without any is left untouched."""
        path = Path(unquote(str(path).removeprefix("file://")))
        if path.suffix == ".json":
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
            redacted = self.redact_json(text)
            if redacted == text:
                return False
            _replace_file(path, lambda temp: temp.write_text(redacted, "utf-8", "surrogateescape"))
            return True
        import inspect_ai.log  # noqa: F401  (registers Inspect's zstd compression with zipfile)

        with zipfile.ZipFile(path) as archive:
            # the last entry of a name is the live one; earlier ones are superseded bytes
            members = list({info.filename: info for info in archive.infolist()}.values())
            if not any(self._redact_member(archive, info)[1] for info in members):
                return False

            def write(temp: Path) -> None:
                with zipfile.ZipFile(temp, "w") as out:
                    for info in members:  # same names, order, compression and dates
                        out.writestr(copy.copy(info), self._redact_member(archive, info)[0])

            _replace_file(path, write)
        return True

    def _redact_member(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[bytes, bool]:
        data = archive.read(info)
        text = data.decode("utf-8", errors="surrogateescape")
        redacted = self.redact_json(text)
        if redacted == text:
            return data, False
        return redacted.encode("utf-8", errors="surrogateescape"), True


def _may_hold_authorization(text: str) -> bool:
    """A fast look for the scheme names before the (much slower) regular expression."""
    return "earer" in text or "Basic" in text


def _authorization(match: re.Match[str]) -> str:
    scheme, space, token = match.groups()
    return f"{scheme}{space}{REDACTED}" if looks_secret(_RENDERING_NOISE.sub("", token)) else match.group(0)


def _replace_file(path: Path, write: Callable[[Path], object]) -> None:
    """Write the new version next to `path`, then move it over `path` (never half a log)."""
    temp = path.with_name(f".{path.name}.redacting")
    try:
        write(temp)
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
