"""Task parameters held to their annotations, in one place for every `@task` of the package.

Inspect reads `-T name=value` as YAML (`true`, `3`, `0.5`, `null`, a list) and calls the task
function with whatever that gives, whatever the annotation says: `-T skip_bad=maybe` arrives as
the string 'maybe', which is truthy, and the run goes on skipping records. `typed_parameters`,
under `@task`, checks each argument given against its annotation before the task is built
(pydantic, in its lax mode: `"true"` or `1` is a bool, `3.0` an int, a number given for a
string such as `-T revision=2024` that string, and in Python a `Path` given for one its text)
and stops with a one-line `DataError` naming the parameter, which `inspect eval` prints as
`Error: …` without a traceback.

Two things pydantic's lax mode would let through are refused as well: `true`/`false` for a
parameter that is not a bool (`-T seed=true` would be 1), and a parameter given empty or null
(`-T shard=`, `-T shard=null`, what an unset shell variable gives) where its default is None:
the task would silently run as if it had not been given (unsharded, for `shard`).
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
    if kind := _kind_hint(annotation):
        return kind
    return error.errors()[0]["msg"][:1].lower() + error.errors()[0]["msg"][1:]


def _kind_hint(annotation: Any) -> str | None:
    """`give a whole number` for `int` or `int | None`; None for other annotations."""
    kinds = [arg for arg in typing.get_args(annotation) if arg is not type(None)] or [annotation]
    return _HINTS.get(kinds[0]) if len(kinds) == 1 else None


def _takes_bool(annotation: Any) -> bool:
    """True when `true`/`false` is a value the annotation means (a bool, or a Literal of one)."""
    if annotation in (bool, Any) or isinstance(annotation, TypeVar):
        return True
    if typing.get_origin(annotation) is Literal:
        return any(isinstance(value, bool) for value in typing.get_args(annotation))
    return any(_takes_bool(arg) for arg in typing.get_args(annotation))


def _refused(name: str, value: Any, annotation: Any, default: Any) -> str | None:
    """Why a value pydantic would accept is still refused, or None."""
    if isinstance(value, bool) and not _takes_bool(annotation):
        return f"{name}={value!r}: {_kind_hint(annotation) or 'true or false is not a value of it'}"
    if default is None and (value is None or (isinstance(value, str) and not value.strip())):
        return f"{name} is given empty ({value!r}): give a value, or leave -T {name} out for its default"
    return None


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
                default = signature.parameters[name].default
                if reason := _refused(name, value, annotations[name], default):
                    raise DataError(reason)
                try:
                    bound.arguments[name] = adapters[name].validate_python(value)
                except ValidationError as error:
                    raise DataError(f"{name}={value!r}: {hint(annotations[name], error)}") from None
        return func(*bound.args, **bound.kwargs)

    return typing.cast(T, wrapper)
