"""Run support below every feature: the user-error type, credentials kept out of what a run
writes (and the hook that does it), generation settings and tags, model-role names, offline
tiktoken ranks, the one module allowed private Inspect imports, and the local provider servers
tests and benchmarks speak to.

May import: Inspect and the standard library only; nothing else of uxbench.
"""
