"""The one exception type for user mistakes (bad data, bad template, missing grader)."""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError


class DataError(PrerequisiteError):
    """A user-facing problem: Inspect prints the message without a traceback."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.text = message

    def __str__(self) -> str:
        return self.text
