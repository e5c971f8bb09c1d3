"""Tools around a run: synthetic logs, the annotator audit, and `uxbench pipeline inspect`.
May import: every other room.
"""
