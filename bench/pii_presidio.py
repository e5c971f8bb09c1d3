"""Microsoft Presidio's pattern recognisers on the PII corpus, for bench/pii.py to compare with.

Run by bench/pii.py with another interpreter (Presidio pulls in spaCy, which UXBench does not
depend on): texts come in as JSON lines on stdin, the spans found go out as JSON lines.
No NLP model is loaded: PyPI has no official spaCy model (`zh-core-web-sm` and
`en-core-web-trf` there are placeholders), so the recognisers that need one (names,
locations) cannot run, and Presidio has none for Chinese ID numbers.

    python bench/pii_presidio.py < texts.jsonl > spans.jsonl
"""

from __future__ import annotations

import json
import logging
import sys

from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
    UrlRecognizer,
    UsSsnRecognizer,
)

# tldextract (Presidio's email and URL check) tries to download the public suffix list, then
# falls back to its bundled copy: that is what runs here, offline
logging.getLogger("tldextract").setLevel(logging.CRITICAL)

RECOGNIZERS = [
    EmailRecognizer(),
    PhoneRecognizer(supported_regions=("CN", "US", "GB", "DE", "FR", "JP")),
    CreditCardRecognizer(),
    IbanRecognizer(),
    IpRecognizer(),
    UsSsnRecognizer(),
    UrlRecognizer(),
]


def spans(text: str) -> list[tuple[int, int, str]]:
    found = []
    for recognizer in RECOGNIZERS:
        for result in recognizer.analyze(text, recognizer.supported_entities, None):
            found.append((result.start, result.end, result.entity_type))
    found.sort()
    merged: list[list] = []
    for start, end, kind in found:
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, kind])
    return [tuple(m) for m in merged]


if __name__ == "__main__":
    for line in sys.stdin:
        print(json.dumps(spans(json.loads(line)), ensure_ascii=False))
