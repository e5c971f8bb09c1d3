"""How a model's raw answer is kept in score metadata, which `inspect view` shows in full in the
sample's Scoring tab: a chain of thought or an error page would push the verdict, its rule and
P(good) out of sight, so metadata keeps the start of it, and the transcript (the model call's
output) keeps the whole text."""

from __future__ import annotations

RAW_CHARS = 300


def shown_raw(text: str) -> str:
    """At most RAW_CHARS characters of `text`, saying how long the whole is and where it is."""
    if len(text) <= RAW_CHARS:
        return text
    return f"{text[:RAW_CHARS]}… ({len(text):,} characters; the full text is in the transcript)"
