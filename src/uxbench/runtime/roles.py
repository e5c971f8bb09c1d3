"""Names a run is known by: the model roles that grade, and the model name of a person.

Kept at the bottom of the package because tags, grader panels, qualification and the report
all need them and none of those may import another for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

HUMAN = "uxbench/human"  # the model name of a person answering (logs name the person in `-M annotator`)

_ROLE = re.compile(r"^grader(?:_([2-9]|[1-9]\d+))?$")


def grader_roles(roles: Iterable[str]) -> list[str]:
    """`grader`, `grader_2`, `grader_3`, … among the bound roles, in that order."""
    found = [(int(match.group(1) or 1), role) for role in roles if (match := _ROLE.match(role))]
    return [role for _, role in sorted(found)]
