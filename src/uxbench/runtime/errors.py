"""The one exception type for user mistakes (bad data, bad template, missing grader)."""

from __future__ import annotations

import click


class DataError(click.ClickException):
    """A user-facing problem.

    A `click.ClickException`, because Inspect's command line is a click application: raised
    while `inspect eval` builds a task, it is printed as `Error: <message>` on stderr with
    exit code 1 and no traceback. In Python it is an ordinary exception whose str() is the
    message.
    """
