"""The captions every rendering of the leaderboard shares (Markdown, HTML, JSON)."""

from __future__ import annotations

from uxbench.report.formatting import FEW

INTERVALS = (
    "95% intervals: Wilson for Good% and Recovery Rate; for Avg-Acc, Jeffreys intervals of Good-Acc "
    "and Bad-Acc combined by MOVER; a symmetric studentised bootstrap for Δ score."
)


PAPER_NOTE = (
    "Paper columns: the paper's published value, beside rows whose settings match the paper's, never "
    "beside runs on the bundled synthetic sample."
)


PARTIAL_NOTE = "Rows marked partial cover part of their dataset (n of N records) and are not ranked."


HUMAN_NOTE = (
    "Rows marked human are people (uxbench/human, named by annotator) on the records they judged, set "
    "beside the models and not ranked."
)
HUMAN_PAPER_NOTE = "A human row's Paper value is the paper's blind human baseline."


def help_notes(partial: bool, human: bool, human_paper: bool) -> str:
    """The notes on row kinds that "How to read" gives, only for what the page shows."""
    notes = [PARTIAL_NOTE] if partial else []
    notes += [HUMAN_NOTE] if human else []
    notes += [HUMAN_PAPER_NOTE] if human_paper else []
    return " ".join(notes)


FEW_NOTE = f"Each cell: value % (records); cells with fewer than {FEW} records are greyed."


SAMPLE_NOTE = (
    "These records are the bundled synthetic sample, not the paper's data: their numbers are not "
    "comparable with the paper's or with runs on the release records, so no paper value is shown."
)


NO_ROW_NOTE = (
    "Replayed rows count a record without a row in the model's published file as a failed judgment "
    "(not good; for Task 1 wrong), as the paper counts a missing grade."
)
