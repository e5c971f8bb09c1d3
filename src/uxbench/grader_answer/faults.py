"""What a grader's failure means: an input too long, a configuration every call repeats, or a reply
that is no answer (docs/tasks-2-3.md#when-the-grader-fails).

Only a context-length rejection is a reason to cut the input down the truncation ladder. It is
recognised by the providers' own codes and wordings, never by the HTTP status alone (a 400 also
says "this model has no logprobs"):

- OpenAI: code `context_length_exceeded`; "This model's maximum context length is N tokens",
  "Your input exceeds the context window of this model".
- vLLM: "This model's maximum context length is N tokens. However, you requested M tokens";
  "The decoder prompt (length M) is longer than the maximum model length of N".
- Anthropic: "prompt is too long: M tokens > N maximum".
- any gateway: HTTP 413 (payload too large).

A configuration error — a missing or wrong key (401), no access (403), an unknown model or
endpoint (404, code `model_not_found`), or a grader that refuses the logprobs UXBench asks for
— comes back on every call, so the run stops at the first one instead of erroring each sample.
Everything else (5xx, 429, timeouts) is Inspect's to retry; when that gives up the sample
errors with the provider's message.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

CONTEXT_LENGTH_CODES = frozenset({"context_length_exceeded"})
CONTEXT_LENGTH_WORDINGS = (
    "maximum context length",  # OpenAI (legacy), vLLM, DeepSeek
    "exceeds the context window",  # OpenAI
    "longer than the maximum model length",  # vLLM (V1 engine)
    "longer than the model's context length",  # vLLM-style servers
    "prompt is too long",  # Anthropic
    "input is too long",  # Anthropic on Bedrock
)
CONFIGURATION_STATUSES = frozenset({401, 403, 404})
CONFIGURATION_CODES = frozenset({"model_not_found", "invalid_api_key"})
CONFIGURATION_WORDINGS = ("logprobs", "does not exist", "unknown model", "model not found")


def _causes(error: BaseException) -> Iterator[BaseException]:
    """The error and what it was raised from (Inspect wraps a provider's error in its own)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        attempt = getattr(current, "last_attempt", None)  # tenacity's RetryError: the last try's error
        current = attempt.exception() if attempt is not None and attempt.failed else current.__cause__


def status_of(error: BaseException) -> int | None:
    """The HTTP status a provider answered with, if the error carries one."""
    return next((s for e in _causes(error) if isinstance(s := getattr(e, "status_code", None), int)), None)


def code_of(error: BaseException) -> str | None:
    """The provider's error code (`context_length_exceeded`, `model_not_found`, …), if any."""
    return next((str(c) for e in _causes(error) if (c := getattr(e, "code", None)) not in (None, "")), None)


def provider_message(error: BaseException) -> str:
    """The provider's own words: Inspect's `provider_message`, the SDK's `message`, or the error's text."""
    for e in _causes(error):
        for name in ("provider_message", "message"):
            value = getattr(e, name, None)
            if isinstance(value, str) and value:
                return value
    return str(error) or type(error).__name__


def context_length(error: BaseException) -> bool:
    """A rejection of the input as longer than the grader's context window."""
    if status_of(error) == 413 or code_of(error) in CONTEXT_LENGTH_CODES:
        return True
    message = provider_message(error).lower()
    return any(wording in message for wording in CONTEXT_LENGTH_WORDINGS)


def configuration(error: BaseException) -> bool:
    """An error every call to this grader will repeat (and not a context-length one)."""
    if context_length(error):
        return False
    status = status_of(error)
    if status in CONFIGURATION_STATUSES or code_of(error) in CONFIGURATION_CODES:
        return True
    message = provider_message(error).lower()
    return status in (400, 422) and any(wording in message for wording in CONFIGURATION_WORDINGS)


def reply_problem(body: Mapping[str, Any]) -> str | None:
    """Why a 200 response body is no grader answer, or None when it is one.

    Gateways answer an overloaded upstream with HTTP 200 and `{"error": {...}}`; a server may
    also send no choices, or a choice without a message. Inspect cannot read those (it raises a
    TypeError and the provider's message is lost), so they are turned into a retryable error.
    """
    error = body.get("error")
    if error:
        message = error.get("message") if isinstance(error, Mapping) else None
        return f"the grader answered with an error: {message or error}"
    choices = body.get("choices")
    if not choices:
        return "the grader's reply had no choices"
    if any(not isinstance(c, Mapping) or not c.get("message") for c in choices):
        return "the grader's reply had a choice without a message"
    return None
