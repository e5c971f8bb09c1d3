"""Exact and near-duplicate detection in one pass over the conversations: O(n), not O(n²).

Exact duplicates share a hash of their turns' text. Near duplicates are found with
datasketch's MinHash-LSH over character 4-gram shingles of a fingerprint (user turns in
full, the start of each reply): an index lookup replaces pairwise comparison, and a
candidate is confirmed by the Jaccard estimate of the two signatures. The first
conversation seen is kept.
"""

from __future__ import annotations

import hashlib
import zlib
from typing import Any

from uxbench.errors import DataError
from uxbench.pipeline.rawlog import Conversation
from uxbench.pipeline.signals import normalise

_INSTALL = (
    "near-duplicate removal needs the datasketch package: pip install 'uxbench[pipeline]' "
    "(or pip install datasketch)"
)


def fingerprint(conversation: Conversation, reply_chars: int = 150, max_chars: int = 800) -> str:
    """What near duplicates share: the user side in full and the start of each reply
    (the same questions asked again get replies that differ in detail)."""
    parts = [
        t.text if t.role == "user" else t.text[:reply_chars] for t in conversation.turns if t.role != "system"
    ]
    return normalise(" ".join(parts))[:max_chars]


def exact_key(conversation: Conversation) -> bytes:
    """Same roles and texts, whitespace at the ends aside (anything looser is a near duplicate)."""
    text = "\x1f".join(f"{t.role}\x1e{t.text.strip()}" for t in conversation.turns)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def shingles(text: str, size: int = 4) -> set[bytes]:
    """Character `size`-grams (the whole text when shorter), as fixed-width UTF-32 slices."""
    data = text.encode("utf-32-le")
    width = 4 * size
    if len(data) <= width:
        return {data}
    return {data[i : i + width] for i in range(0, len(data) - width + 4, 4)}


class DuplicateIndex:
    """Remembers kept conversations; says which earlier one a new conversation duplicates."""

    def __init__(self, threshold: float = 0.8, num_perm: int = 64, shingle_size: int = 4) -> None:
        try:
            from datasketch import MinHash, MinHashLSH
        except ImportError:
            raise DataError(_INSTALL) from None
        self._work = MinHash(num_perm=num_perm, hashfunc=zlib.crc32)  # reused for every signature
        self._lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
        self._signatures: dict[str, Any] = {}
        self._exact: dict[bytes, str] = {}
        self.threshold = threshold
        self.shingle_size = shingle_size

    def check(self, conversation: Conversation) -> tuple[str, str] | None:
        """(`duplicate_exact` | `duplicate_near`, cid kept) or None, indexing it when new."""
        key = exact_key(conversation)
        if key in self._exact:
            return "duplicate_exact", self._exact[key]
        work = self._work
        work.clear()
        work.update_batch(list(shingles(fingerprint(conversation), self.shingle_size)))
        for other in self._lsh.query(work):
            if float((work.hashvalues == self._signatures[other]).mean()) >= self.threshold:
                return "duplicate_near", other.split("\x00")[0]
        name = conversation.cid
        if name in self._signatures:  # a reused cid with other content: index it under a new name
            name = f"{name}\x00{len(self._signatures)}"
        self._exact[key] = conversation.cid
        self._signatures[name] = work.hashvalues.copy()
        self._lsh.insert(name, work)
        return None
