"""What a grader is asked: the GRM prompt's fenced conversation, and the replies that try to
address the grader instead of the user.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`.
"""

from uxbench.grader_prompt.addressing import addresses_grader

__all__ = [
    "addresses_grader",
]
