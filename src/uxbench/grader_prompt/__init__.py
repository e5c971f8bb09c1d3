"""What a grader is asked: the GRM prompt's fenced conversation, and the replies that try to
address the grader instead of the user.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`.
"""
