"""Tools around a run: synthetic logs, the PII corpus, the annotator audit, `uxbench pipeline
inspect` and `uxbench pipeline scan`.
May import: every other room.
"""
