"""Offline support: the tiktoken ranks Inspect uses to count tokens, shipped with us.

Inspect's `mockllm` (and its token estimates) load tiktoken's `o200k_base` ranks, which
tiktoken downloads on first use. We ship the same file (MIT, from the `tiktoken` npm
package, checked against tiktoken's published SHA-256) and place it in tiktoken's cache
so that tasks run without a network.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from importlib import resources
from pathlib import Path

_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"


def tiktoken_cache_path() -> Path:
    """Where tiktoken looks for the o200k_base ranks (mirrors tiktoken.load)."""
    directory = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    if directory is None:
        directory = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    return Path(directory) / hashlib.sha1(_URL.encode()).hexdigest()


def ensure_tiktoken_cache() -> None:
    """Put the bundled ranks where tiktoken will find them, unless they are already there."""
    target = tiktoken_cache_path()
    if target.exists():
        return
    bundled = resources.files("uxbench") / "_vendor" / "o200k_base.tiktoken.gz"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(gzip.decompress(bundled.read_bytes()))
        partial.replace(target)
    except OSError:
        pass  # a read-only cache only costs the offline convenience; tiktoken will download
