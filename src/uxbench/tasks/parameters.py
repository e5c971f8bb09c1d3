"""Task parameters held to their annotations, in one place for every `@task` of the package.

Inspect reads `-T name=value` as YAML (`true`, `3`, `0.5`, `null`, a list) and calls the task
function with whatever that gives, whatever the annotation says: `-T skip_bad=maybe` arrives as
the string 'maybe', which is truthy, and the run goes on skipping records. `typed_parameters`,
under `@task`, checks each argument given against its annotation before the task is built
(pydantic, in its lax mode: `"true"` or `1` is a bool, `3.0` an int, a number given for a
string such as `-T revision=2024` that string, and in Python a `Path` given for one its text)
and stops with a one-line `DataError` naming the parameter, which `inspect eval` prints as
`Error: …` without a traceback.
"""

from __future__ import annotations

import functools
import inspect
import os
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError

from uxbench.runtime.errors import DataError

T = TypeVar("T", bound=Callable[..., Any])

# a number YAML read for a string parameter (`-T revision=2024`) is that string
_CONFIG = ConfigDict(coerce_numbers_to_str=True)

_HINTS = {bool: "give true or false", int: "give a whole number", float: "give a number", str: "give text"}


def _choices(annotation: Any) -> list[Any]:
    """The values the annotation allows by name (its Literals), or [] when it is not a choice."""
    if typing.get_origin(annotation) is Literal:
        return list(typing.get_args(annotation))
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [value for arg in typing.get_args(annotation) for value in _choices(arg)]
    return []


def hint(annotation: Any, error: ValidationError) -> str:
    """What to give instead, in the words of the task's other messages."""
    if choices := _choices(annotation):
        return f"choose one of {', '.join(map(str, choices))}"
    kinds = [arg for arg in typing.get_args(annotation) if arg is not type(None)] or [annotation]
    if len(kinds) == 1 and kinds[0] in _HINTS:
        return _HINTS[kinds[0]]
    return error.errors()[0]["msg"][:1].lower() + error.errors()[0]["msg"][1:]


def typed_parameters(func: T) -> T:
    """`func` with each argument it is given checked against (and converted to) its annotation."""
    signature = inspect.signature(func)
    annotations = typing.get_type_hints(func)
    adapters = {
        name: TypeAdapter(annotations[name], config=_CONFIG)
        for name in signature.parameters
        if name in annotations
    }

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        for name, value in bound.arguments.items():
            value = os.fspath(value) if isinstance(value, os.PathLike) else value
            if name in adapters:
                try:
                    bound.arguments[name] = adapters[name].validate_python(value)
                except ValidationError as error:
                    raise DataError(f"{name}={value!r}: {hint(annotations[name], error)}") from None
        return func(*bound.args, **bound.kwargs)

    return typing.cast(T, wrapper)
