"""A known key wrapped over lines (or broken by spaces, tabs, invisible characters) is blanked out
whole in plain text (a log record, a report), in a JSON log member and on the console.

Generated: random keys, split at random places by random breaks, echoed inside text whose own
characters are none of the key's, so whatever of the key survives is visible.
"""

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from uxbench.runtime.credentials import CredentialScrubber

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
BREAKS = ["\n", "\r\n", " \n  ", "\n\t", " ", "\u200b", "\u00ad", "\u3000", "\n\u200b"]
MARKER = re.compile(r"\[REDACTED(?::[A-Z_]+)?\]")
KEY_CHARS = re.compile(r"[A-Za-z0-9_\-]")


@st.composite
def wrapped(draw: st.DrawFn) -> tuple[str, str]:
    key = draw(st.text(alphabet=ALPHABET, min_size=20, max_size=64))
    cuts = sorted(set(draw(st.lists(st.integers(1, len(key) - 1), min_size=1, max_size=4))))
    pieces = [key[a:b] for a, b in zip([0, *cuts], [*cuts, len(key)], strict=True)]
    text = pieces[0] + "".join(draw(st.sampled_from(BREAKS)) + piece for piece in pieces[1:])
    return key, text


def leftover(text: str) -> str:
    """The key's characters still in `text` once the markers are taken out."""
    return "".join(KEY_CHARS.findall(MARKER.sub("", text)))


def echo(text: str) -> str:
    return f"错误：密钥 {text} 无效。\n请检查。"


@given(wrapped())
def test_a_wrapped_key_goes_whole_from_plain_text(case: tuple[str, str]) -> None:
    key, text = case
    scrubber = CredentialScrubber({"OPENAI_API_KEY": key})
    out = scrubber.redact(echo(text))
    assert leftover(out) == "" and "[REDACTED:OPENAI_API_KEY]" in out, out


@given(wrapped(), st.booleans())
def test_a_wrapped_key_goes_whole_from_a_log_member(case: tuple[str, str], ascii: bool) -> None:
    key, text = case
    scrubber = CredentialScrubber({"OPENAI_API_KEY": key})
    document = json.dumps({"error": {"message": echo(text), "traceback": [echo(text)]}}, ensure_ascii=ascii)
    out = json.loads(scrubber.redact_json(document))
    assert leftover(out["error"]["message"]) == "" and leftover(out["error"]["traceback"][0]) == ""


@given(wrapped(), st.sampled_from(["│ ", "┃ ", "", "\x1b[31m"]))
def test_a_wrapped_key_goes_whole_from_the_console(case: tuple[str, str], border: str) -> None:
    key, text = case
    scrubber = CredentialScrubber({"OPENAI_API_KEY": key})
    out = scrubber.redact_rendered(echo(text).replace("\n", f"\n{border}"))
    assert leftover(out.replace("\x1b[31m", "")) == "", out


@given(st.text(alphabet=ALPHABET + " \n", max_size=200))
def test_text_without_the_key_is_left_as_it_was(text: str) -> None:
    key = "sk-proj-Zq81vYtP0wLm3Xc9Kd2RfG7h"
    assert CredentialScrubber({"OPENAI_API_KEY": key}).redact(text.replace(key[:16], "")) == text.replace(
        key[:16], ""
    )


def test_the_issues_case_two_lines() -> None:
    key = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
    body = f"Incorrect API key provided: {key[:19]}\n{key[19:]}. You can find your key at …"
    out = CredentialScrubber({"OPENAI_API_KEY": key}).redact(body)
    assert out == "Incorrect API key provided: [REDACTED:OPENAI_API_KEY]\n. You can find your key at …"
