"""Tags that tell runs apart in `inspect view`'s log list: the grader(s) and the generation settings.

The log list shows a task's name, model, score, task arguments and tags, but not its model
roles or generate config; two Task 2 runs of one model with different graders, or a Task 1
run with `--temperature 0.2` next to one without, would look the same there. Tags are set
when an eval constructs the task (`inspect eval`, `eval-set`, `eval-retry`, or `eval()` by
registry name); a `Task` built in Python before `eval(...)` cannot know the run yet, so pass
`tags=` to `eval()` for those.

A setting is tagged when it differs from the task's own default: `eval-retry` runs with the
original log's whole generate config, the task's defaults (Task 1's temperature=0.2,
max_tokens=4096) merged in, and must not tag settings the user never gave.
"""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, model_roles

from uxbench.runtime._inspect import in_eval, run_config
from uxbench.runtime.roles import grader_roles

# generate settings that change what is measured (not only how it is run)
SETTINGS = (
    "temperature",
    "top_p",
    "top_k",
    "max_tokens",
    "seed",
    "logprobs",
    "top_logprobs",
    "reasoning_effort",
    "reasoning_tokens",
    "effort",
)


def run_tags(
    defaults: GenerateConfig | None = None, graded: bool = False, self_grade: bool = False
) -> list[str]:
    """`grader=<model>` per grader role (or `self-graded`) and `<setting>=<value>` per generate
    setting given for the run that differs from the task's `defaults`; empty outside an eval."""
    if not in_eval():
        return []
    tags: list[str] = []
    if graded:
        roles = model_roles()
        tags += ["self-graded"] if self_grade else [f"{role}={roles[role]}" for role in grader_roles(roles)]
    config, defaults = run_config(), defaults or GenerateConfig()
    tags += [
        f"{name}={value}"
        for name in SETTINGS
        if (value := getattr(config, name, None)) is not None and value != getattr(defaults, name, None)
    ]
    return tags
