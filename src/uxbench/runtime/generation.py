"""Which of Inspect's generate settings change how a run goes rather than what it measures.

The report leaves these out of a run's identity, and the pipeline does not hold them against
a resume: retrying longer or with more connections gives the same answers.
"""

from __future__ import annotations

OPERATIONAL = frozenset(
    {
        "max_retries",
        "timeout",
        "attempt_timeout",
        "stream_idle_timeout",
        "max_connections",
        "adaptive_connections",
        "cache_prompt",
        "cache",
        "batch",
        "extra_headers",
        "fallback_models",
        "fail_on_refusal",
        "max_tool_output",
    }
)
