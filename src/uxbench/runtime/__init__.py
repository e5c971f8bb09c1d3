"""Run support below every feature: the user-error type, credentials kept out of what a run
writes (and the hook that does it), generation settings and tags, model-role names, the price
file (`prices.py`), offline tiktoken ranks, the one module allowed private Inspect imports, and
`uxbench run` (one run split over shard processes or Ray tasks).

May import: Inspect and the standard library only; nothing else of uxbench.
"""

from uxbench.runtime.credentials import CredentialScrubber
from uxbench.runtime.errors import DataError

__all__ = [
    "CredentialScrubber",
    "DataError",
]
