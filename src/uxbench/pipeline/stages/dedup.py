"""Exact and near-duplicate detection in one pass over the conversations: O(n), not O(n²).

Exact duplicates share a hash of their turns' text. Near duplicates are found by MinHash
over character 4-gram shingles of a fingerprint (user turns in full, the start of each
reply) and LSH banding: a conversation is compared only with those that share a band of
its signature, and a candidate is confirmed by the Jaccard estimate of the two signatures.
The first conversation seen is kept, and a duplicate names the earliest kept conversation
it matches, so the result does not depend on hash randomisation (PYTHONHASHSEED).

datasketch computes the signatures and chooses the bands (b bands of r rows for the
threshold). The band index is ours and compact: per band a dict from a 64-bit hash of the
band to the newest conversation with it, plus an array chaining to the previous one. It
holds, per indexed conversation, its 256-byte signature, its cid, its exact-duplicate key
and b = 5 band entries — about 1 KB, where datasketch's MinHashLSH (a set per bucket)
takes about 2.4 KB. This index is the one part of the prefilter that grows with the input.

`sketch` (what a conversation contributes) is pure, so worker processes can compute it;
`DuplicateIndex.check_sketch` then runs in order in one process.
"""

from __future__ import annotations

import hashlib
import zlib
from array import array
from functools import cache
from typing import Any

import numpy as np

from uxbench.pipeline.read.rawlog import Conversation
from uxbench.pipeline.stages.signals import normalise
from uxbench.runtime.docs import install_extra
from uxbench.runtime.errors import DataError

_INSTALL = f"near-duplicate removal needs the datasketch package: {install_extra('pipeline')}"
NUM_PERM = 64
SHINGLE_SIZE = 4
# odd 64-bit multipliers of the band hash (any fixed values do: a collision only adds a candidate)
_BAND_COEFFICIENTS = np.random.default_rng(20260101).integers(1, 2**63, size=NUM_PERM, dtype=np.uint64) | 1


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


def shingles(text: str, size: int = SHINGLE_SIZE) -> set[bytes]:
    """Character `size`-grams (the whole text when shorter), as fixed-width UTF-32 slices."""
    data = text.encode("utf-32-le")
    width = 4 * size
    if len(data) <= width:
        return {data}
    return {data[i : i + width] for i in range(0, len(data) - width + 4, 4)}


@cache
def _minhash() -> Any:
    """One MinHash per process, cleared for every signature (its permutations are fixed by its seed)."""
    try:
        from datasketch import MinHash
    except ImportError:
        raise DataError(_INSTALL) from None
    return MinHash(num_perm=NUM_PERM, hashfunc=zlib.crc32)


def sketch(conversation: Conversation) -> tuple[bytes, bytes]:
    """(exact key, MinHash signature as 256 bytes of uint32) of a conversation."""
    work = _minhash()
    work.clear()
    work.update_batch(list(shingles(fingerprint(conversation))))
    return exact_key(conversation), work.hashvalues.astype(np.uint32).tobytes()


class DuplicateIndex:
    """Remembers kept conversations; says which earlier one a new conversation duplicates."""

    def __init__(self, threshold: float = 0.8) -> None:
        try:
            from datasketch import MinHashLSH
        except ImportError:
            raise DataError(_INSTALL) from None
        layout = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)  # only asked for its band layout
        self.threshold = threshold
        self._bands, self._rows = layout.b, layout.r
        self._newest: list[dict[int, int]] = [{} for _ in range(self._bands)]  # band hash -> newest index
        self._previous = [array("l") for _ in range(self._bands)]  # index -> earlier index, same band hash
        self._signatures: list[bytes] = []
        self._cids: list[str] = []
        self._exact: dict[bytes, int] = {}

    def check(self, conversation: Conversation) -> tuple[str, str] | None:
        """(`duplicate_exact` | `duplicate_near`, cid kept) or None, indexing it when new."""
        return self.check_sketch(conversation.cid, *sketch(conversation))

    def check_sketch(self, cid: str, key: bytes, signature: bytes) -> tuple[str, str] | None:
        """`check` for a conversation already sketched (see `sketch`)."""
        if key in self._exact:
            return "duplicate_exact", self._cids[self._exact[key]]
        values = np.frombuffer(signature, dtype=np.uint32)
        bands = values[: self._bands * self._rows].reshape(self._bands, self._rows).astype(np.uint64)
        hashes = (bands * _BAND_COEFFICIENTS[: self._rows]).sum(axis=1).tolist()
        candidates: set[int] = set()
        for band, value in enumerate(hashes):
            index = self._newest[band].get(value, -1)
            while index >= 0:
                candidates.add(index)
                index = self._previous[band][index]
        for index in sorted(candidates):  # the earliest match, whatever the hash seed
            other = np.frombuffer(self._signatures[index], dtype=np.uint32)
            if float((values == other).mean()) >= self.threshold:
                return "duplicate_near", self._cids[index]
        new = len(self._cids)
        for band, value in enumerate(hashes):
            self._previous[band].append(self._newest[band].get(value, -1))
            self._newest[band][value] = new
        self._cids.append(cid)
        self._signatures.append(signature)
        self._exact[key] = new
        return None
