"""Credentials in what a run writes: which values are secret, and how they are blanked out.

Some providers echo the API key in an error body (`401 Incorrect API key provided: sk-…`),
and Inspect keeps error text in the log, prints it and traces it. A `CredentialScrubber` blanks out
*known* credentials only, in every form a provider, a URL or a page writes them:

* the value of every credential environment variable — a name ending in one of
  `CREDENTIAL_SUFFIXES` (`OPENAI_API_KEY`, `HF_TOKEN`, `AWS_SECRET_ACCESS_KEY`, …) — whose value
  `looks_secret`, by `[REDACTED:<NAME>]`;
* the user-info of a URL a provider is configured with — a `*_BASE_URL` or `*_PROXY` variable,
  or (`CredentialScrubber.including`) a run's `--model-base-url`, a role's base URL — and the values of
  its secret-named model arguments (`-M api_key=…`), by the same length rule;
* the credentials of a `Bearer` or `Basic` authorization (`Authorization: Bearer sk-…`).

Each value is found as it is and in each encoding (`_char_forms`: percent-encoded, JSON-,
Markdown- or HTML-escaped, and their combinations, character by character), and inside the
base64 of any `user:value` (`_base64_cores`); the forms are made once per value, so the cost
stays linear in the text. A value's first `PREFIX` characters count as the value too (with
whatever of it follows them), so a message cut short in the middle of a key does not leave
most of the key behind. Text that holds none of these (`ssh://git@host/…`,
`postgres://admin:hunter2@db/…` when that password is not a known one) is never changed.

`uxbench.runtime.hooks` applies it to UXBench's Inspect runs (logs, trace file, console),
`uxbench report` to its outputs and `uxbench scrub-credentials` to existing logs;
docs/scale.md#keys-and-secrets lists what is covered and what is not.
"""

from __future__ import annotations

import base64
import copy
import html
import json
import os
import re
import string
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from uxbench.runtime.userfiles import replace_file

CREDENTIAL_SUFFIXES = ("API_KEY", "APIKEY", "TOKEN", "SECRET", "SECRET_KEY", "ACCESS_KEY", "PASSWORD")
_CREDENTIAL_NAME = re.compile(rf"(?:^|_)(?:{'|'.join(CREDENTIAL_SUFFIXES)})$", re.IGNORECASE)
# variables that say where a provider, or the proxy in front of it, is reached
_CONFIGURED_URL_NAME = re.compile(r"(?:^|_)(?:BASE_URL|PROXY)$", re.IGNORECASE)
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
_RENDERING_NOISE = re.compile(_NOISE)
# What wraps a value over lines in plain text (an error body echoed by a server, a log line, a
# report): whitespace of any kind, and the invisible characters a wrapper may put at a break.
_WRAPPING = re.compile(r"[\s\u00ad\u200b\u200c\u200d\u2060\ufeff]+")
# The same inside a JSON document's text, where a line break in a string is written `\n`.
_WRAPPING_IN_JSON = re.compile(
    r"(?:[\s\u00ad\u200b\u200c\u200d\u2060\ufeff]|\\[nrt]|\\u(?:00[aA][0dD]|200[bBcCdD]|2060|3000|[fF][eE][fF][fF]))+"
)
# A terminal's folding and a text's own wrapping together (the console)
_RENDERED_WRAPPING = re.compile(f"(?:{_NOISE}|{_WRAPPING.pattern})+")
_PLAIN = frozenset(string.ascii_letters + string.digits)  # no encoder rewrites these
_PLAIN_RUN = re.compile("[A-Za-z0-9]+")
# what a base64 token is written with (either alphabet, percent-encoded); padding only at its end
_BASE64_TOKEN = frozenset(string.ascii_letters + string.digits + "+/-_%")
_URLSAFE = str.maketrans("+/", "-_")


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


def url_credentials(url: str) -> list[str]:
    """The credentials in a URL, decoded: in its user-info `user:password` and the password, or
    a bare token (`https://TOKEN@host`) — a user name alone (`ssh://git@host`) is not one, unless
    it looks like a secret itself; and the values of its secret-named query parameters
    (`?api_key=…`, `?token=…`)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return []
    userinfo, at, _ = parts.netloc.rpartition("@")
    found = [value for name, value in parse_qsl(parts.query) if is_secret_argument(name)]
    if not at:
        return found
    user, colon, password = (unquote(part) for part in userinfo.partition(":"))
    return [f"{user}:{password}", password, *found] if colon and password else [user, *found]


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)


def run_credentials(spec: Any) -> list[str]:
    """What a run was configured with that is a credential: the user-info of its model's and
    its roles' base URLs, and their secret-named model arguments. `spec`: the run's `EvalSpec`,
    or the `eval` object of a log file's header."""
    if spec is None:
        return []
    models: list[Any] = [{"base_url": _field(spec, "model_base_url"), "args": _field(spec, "model_args")}]
    for role in (_field(spec, "model_roles") or {}).values():
        models += role if isinstance(role, list) else [role]
    found: list[str] = []
    for model in models:
        args = _field(model, "args") or {}
        urls = [_field(model, "base_url"), args.get("base_url")]
        found += [value for url in urls if isinstance(url, str) for value in url_credentials(url)]
        found += [
            value for name, value in args.items() if is_secret_argument(name) and isinstance(value, str)
        ]
    return found


@cache
def _char_forms(char: str) -> tuple[str, ...]:
    """Every way an encoder writes `char`, longest first: itself; percent-encoded (either case
    of hex; twice, as a URL inside a URL's query; `+` for a space); backslash-escaped (JSON's
    `\\"`, `\\/`, `\\uXXXX`, Markdown's backslash before punctuation); an HTML entity or
    character reference, also of those escapes (a JSON body shown in a page: `\\&quot;`)."""
    if char in _PLAIN:
        return (char,)
    code = ord(char)
    percent = "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
    forms = {char, percent, percent.lower()}
    forms |= {form.replace("%", "%25") for form in forms if form != char}
    if char == " ":
        forms.add("+")
    forms.add(json.dumps(char)[1:-1])
    if code < 0x10000:
        forms |= {f"\\u{code:04x}", f"\\u{code:04X}"}
    if char in string.punctuation:
        forms.add("\\" + char)
    forms |= {html.escape(char), f"&#{code};", f"&#x{code:x};", f"&#x{code:X};"}
    if char == "'":
        forms.add("&apos;")
    forms |= {html.escape(form) for form in list(forms)}
    return tuple(sorted(forms, key=lambda form: (-len(form), form)))


def _hex_forms(value: str) -> tuple[str, str]:
    """The hex of `value`'s UTF-8 bytes, in lower and upper case."""
    data = value.encode("utf-8", "surrogatepass").hex()
    return data, data.upper()


def _base64_cores(value: str) -> set[str]:
    """The base64 of `value` as it reads inside the base64 of any text around it (`user:value`
    in a Basic authorization, `value:`, …): one per alignment of its first byte, without the
    characters that mix in the bytes before or after it; in the standard and URL-safe alphabets."""
    data = value.encode("utf-8", "surrogatepass")
    cores: set[str] = set()
    for shift, start in ((0, 0), (1, 2), (2, 3)):
        size = shift + len(data)
        core = base64.b64encode(bytes(shift) + data + bytes(2)).decode("ascii")[
            start : 4 * (size // 3) + size % 3
        ]
        cores |= {core, core.translate(_URLSAFE)}
    return cores


@dataclass(frozen=True)
class _Form:
    """One way a secret is found: the secret itself, or one of its base64 cores (`token`: a
    match is widened to the whole base64 token around it)."""

    marker: str
    needle: str  # plain characters every match holds: a fast first look
    anchor: re.Pattern[str]  # the first PREFIX characters, each in any of its forms
    anchor_in_json: re.Pattern[str]  # the same inside a JSON document's string (escaped once more)
    rest: tuple[tuple[str, ...], ...]  # the forms of each character after those
    token: bool = False

    @classmethod
    def of(cls, text: str, marker: str, token: bool = False) -> _Form:
        head = text[:PREFIX]
        needle = max(_PLAIN_RUN.findall(head), key=len, default="")
        in_json = [
            {
                *forms,
                *(json.dumps(form, ensure_ascii=ascii)[1:-1] for form in forms for ascii in (True, False)),
            }
            for forms in map(_char_forms, head)
        ]
        return cls(
            marker,
            needle,
            _alternatives(map(_char_forms, head)),
            _alternatives(in_json),
            tuple(_char_forms(c) for c in text[PREFIX:]),
            token,
        )

    def found_in_json(self, text: str, flat: str) -> bool:
        """Whether a JSON document holds it in one of its strings (or its first PREFIX characters),
        also wrapped over lines (`flat`: the document with its wrapping taken out, made once for
        every form: making it per form was most of a large log's redaction time)."""
        return any(
            self.needle in view and self.anchor_in_json.search(view) is not None for view in (text, flat)
        )

    def spans(self, text: str, widen: bool = True) -> Iterator[tuple[int, int]]:
        """Where it is in `text`, in order, not overlapping (`widen`: a base64 form's spans
        cover the whole token around it)."""
        if self.needle not in text:
            return
        position = 0
        while match := self.anchor.search(text, position):
            start, end = match.span()
            for forms in self.rest:
                form = next((form for form in forms if text.startswith(form, end)), None)
                if form is None:
                    break
                end += len(form)
            yield _widened(text, start, end) if self.token and widen else (start, end)
            position = end


def _alternatives(chars: Iterable[Iterable[str]]) -> re.Pattern[str]:
    """A pattern of characters in a row, each written in any of its forms."""
    parts = [sorted(forms, key=lambda form: (-len(form), form)) for forms in chars]
    return re.compile("".join(f"(?:{'|'.join(map(re.escape, forms))})" for forms in parts))


def _widened(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the whole base64 token around text[start:end]."""
    while start > 0 and text[start - 1] in _BASE64_TOKEN:
        start -= 1
    while end < len(text) and (text[end] in _BASE64_TOKEN or text[end] == "="):
        end += 1
    return start, end


def _replace_spans(text: str, spans: list[tuple[int, int, str]]) -> str:
    parts, last = [], 0
    for start, end, marker in spans:
        parts += [text[last:start], marker]
        last = end
    return "".join(parts) + text[last:]


class CredentialScrubber:
    """Blanks out the given secrets and the authorization patterns above.

    `secrets`: name → value, or (name, value) pairs; a value is blanked out as
    `[REDACTED:<name>]`, or `[REDACTED]` when its name is empty."""

    def __init__(self, secrets: Mapping[str, str] | Iterable[tuple[str, str]]) -> None:
        pairs = secrets.items() if isinstance(secrets, Mapping) else secrets
        by_value: dict[str, str] = {}
        for name, value in sorted(pairs):
            value = value.strip()
            if looks_secret(value):
                by_value.setdefault(value, name)
        self.secrets = by_value  # value → name
        # the longest first, so a value that contains another is blanked out whole
        values = sorted(by_value, key=lambda value: (-len(value), value))
        markers = {
            value: f"[REDACTED:{by_value[value]}]" if by_value[value] else REDACTED for value in values
        }
        self._forms = [_Form.of(value, markers[value]) for value in values]
        self._forms += [
            _Form.of(core, markers[value], token=True)
            for value in values
            for core in sorted(_base64_cores(value))
        ]
        self._forms += [  # hex-encoded, as a byte dump or a debugging proxy writes it
            _Form.of(form, markers[value]) for value in values for form in sorted(set(_hex_forms(value)))
        ]

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> CredentialScrubber:
        """The credentials of `environ` (default: this process's environment): the values of
        its credential variables, and the user-info of its provider and proxy URLs."""
        environ = os.environ if environ is None else environ
        pairs = [(name, value) for name, value in environ.items() if is_credential_name(name)]
        pairs += [
            (name, credential)
            for name, value in environ.items()
            if _CONFIGURED_URL_NAME.search(name)
            for credential in url_credentials(value)
        ]
        return cls(pairs)

    def including(self, spec: Any) -> CredentialScrubber:
        """This redactor and the credentials a run was configured with (`run_credentials`)."""
        return self.with_secrets(("", value) for value in run_credentials(spec))

    def with_secrets(self, pairs: Iterable[tuple[str, str]]) -> CredentialScrubber:
        """This redactor and the (name, value) pairs it does not know yet."""
        extra = [(name, value) for name, value in pairs if value.strip() not in self.secrets]
        return (
            CredentialScrubber([*((name, value) for value, name in self.secrets.items()), *extra])
            if extra
            else self
        )

    def redact(self, text: str) -> str:
        """Plain text: a message, a traceback, a log line, a report."""
        return self._redact(text, self._forms)

    def _redact(self, text: str, forms: list[_Form]) -> str:
        # first with the whitespace taken out, so a value wrapped over lines (or broken by
        # spaces) goes whole, not only its first PREFIX characters
        if forms and _WRAPPING.search(text):
            text = _redact_folded(text, forms, _WRAPPING)
        for form in forms:
            if spans := [(start, end, form.marker) for start, end in form.spans(text)]:
                text = _replace_spans(text, spans)
        if _may_hold_authorization(text):
            text = _AUTHORIZATION.sub(_authorization, text)
        return text

    def redact_rendered(self, text: str) -> str:
        """Terminal output (or Inspect's ANSI rendering of a traceback): a credential is found
        even where the terminal folded it across lines, between panel borders, or coloured
        parts of it."""
        if self._forms and ("\n" in text or "\x1b" in text):
            text = _redact_folded(text, self._forms, _RENDERED_WRAPPING)
        if _may_hold_authorization(text):
            text = _AUTHORIZATION_RENDERED.sub(_authorization, text)
        return self.redact(text)

    def redact_json(self, text: str) -> str:
        """A JSON document (a log member): every string in it, rendered ones as such. A
        document with nothing to blank out comes back as it was, byte for byte."""
        # only the forms the document holds (as JSON writes them) are looked for in its strings
        flat = _WRAPPING_IN_JSON.sub("", text) if self._forms else text
        forms = [form for form in self._forms if form.found_in_json(text, flat)]
        if not forms and not (_may_hold_authorization(text) and _AUTHORIZATION.search(text)):
            return text
        try:
            document = json.loads(text)
        except ValueError:
            return self.redact(text)
        redacted = self._redact_strings(document, forms)
        return text if redacted == document else json.dumps(redacted, ensure_ascii=False)

    def redact_value(self, item: Any) -> Any:
        """Every string in a JSON-like value (dicts, lists, strings, numbers)."""
        return self._redact_strings(item, self._forms)

    def _redact_strings(self, item: Any, forms: list[_Form]) -> Any:
        if isinstance(item, str):
            return self.redact_rendered(item) if "\x1b" in item or "│" in item else self._redact(item, forms)
        if isinstance(item, dict):
            return {
                self._redact_strings(key, forms): self._redact_strings(value, forms)
                for key, value in item.items()
            }
        if isinstance(item, list):
            return [self._redact_strings(value, forms) for value in item]
        return item

    def redact_log_file(self, path: str | Path) -> bool:
        """Rewrite a local Inspect log (`.eval` or `.json`) with its credentials blanked out —
        this redactor's and those its own header says the run was configured with; True if it
        held any. A file without any is left untouched."""
        path = Path(unquote(str(path).removeprefix("file://")))
        if path.suffix == ".json":
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
            try:
                spec = json.loads(text).get("eval")
            except (ValueError, AttributeError):
                spec = None
            redacted = self.including(spec).redact_json(text)
            if redacted == text:
                return False
            replace_file(path, lambda temp: temp.write_text(redacted, "utf-8", "surrogateescape"))
            return True
        import inspect_ai.log  # noqa: F401  (registers Inspect's zstd compression with zipfile)

        with zipfile.ZipFile(path) as archive:
            # the last entry of a name is the live one; earlier ones are superseded bytes
            members = list({info.filename: info for info in archive.infolist()}.values())
            redactor = self.including(_header_spec(archive))
            if not any(redactor._redact_member(archive, info)[1] for info in members):
                return False

            def write(temp: Path) -> None:
                with zipfile.ZipFile(temp, "w") as out:
                    for info in members:  # same names, order, compression and dates
                        out.writestr(copy.copy(info), redactor._redact_member(archive, info)[0])

            replace_file(path, write)
        return True

    def _redact_member(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[bytes, bool]:
        data = archive.read(info)
        text = data.decode("utf-8", errors="surrogateescape")
        redacted = self.redact_json(text)
        if redacted == text:
            return data, False
        return redacted.encode("utf-8", errors="surrogateescape"), True


def _redact_folded(text: str, forms: list[_Form], noise: re.Pattern[str]) -> str:
    """Match against the text with the `noise` taken out (line breaks, spaces, terminal padding
    and borders, colour codes), then drop the matched characters from the original, keeping the
    noise between them. Linear in the text for each form that the view holds."""
    flat_text = noise.sub("", text)
    forms = [form for form in forms if form.needle in flat_text]
    if not forms:
        return text
    view, where, last = [], [], 0
    for found in [*noise.finditer(text), None]:
        start = found.start() if found else len(text)
        view.append(text[last:start])
        where.extend(range(last, start))
        last = found.end() if found else last
    flat = "".join(view)
    drop: dict[int, str] = {}  # position in text → what it becomes
    for form in forms:
        # a base64 token is widened in the text itself: in the view, the words before
        # and after a folded line run into it
        for start, end in form.spans(flat, widen=False):
            if where[start] in drop:
                continue
            first, stop = where[start], where[end - 1] + 1
            if form.token:
                first, stop = _widened(text, first, stop)
            chars = [
                *range(first, where[start]),
                *(where[i] for i in range(start, end)),
                *range(where[end - 1] + 1, stop),
            ]
            drop.update(dict.fromkeys(chars, ""))
            drop[chars[0]] = form.marker
    if not drop:
        return text
    return "".join(drop.get(i, char) for i, char in enumerate(text))


def _header_spec(archive: zipfile.ZipFile) -> Any:
    """The `eval` object of an .eval file's header (or, for a run that never finished, of its
    journal's start record), or None."""
    names = set(archive.namelist())
    for name in ("header.json", "_journal/start.json"):
        if name in names:
            try:
                return json.loads(archive.read(name)).get("eval")
            except (ValueError, AttributeError):
                continue
    return None


def _may_hold_authorization(text: str) -> bool:
    """A fast look for the scheme names before the (much slower) regular expression."""
    return "earer" in text or "Basic" in text


def _authorization(match: re.Match[str]) -> str:
    scheme, space, token = match.groups()
    return f"{scheme}{space}{REDACTED}" if looks_secret(_RENDERING_NOISE.sub("", token)) else match.group(0)
