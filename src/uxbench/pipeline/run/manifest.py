"""Run manifests: the settings a run directory (or an agent stage's work directory) was made with.

A resume whose settings differ — another model, other provider arguments, other stage
options — would mix two runs in one output; it stops and lists the differences, unless
forced. A forced resume records the settings it replaced under `replaced`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from uxbench.pipeline.read.files import write_json
from uxbench.runtime.errors import DataError


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(data, dict):
        return {prefix: data}
    flat: dict[str, Any] = {}
    for key, value in data.items():
        flat.update(_flat(value, f"{prefix}.{key}" if prefix else str(key)))
    return flat


def differences(before: dict[str, Any], after: dict[str, Any]) -> dict[str, str]:
    """`{"miner.model.model": "was 'a', now 'b'"}` for every setting that differs."""
    old, new = _flat(before), _flat(after)
    return {
        key: f"was {old.get(key)!r}, now {new.get(key)!r}"
        for key in sorted(old.keys() | new.keys())
        if old.get(key) != new.get(key)
    }


def read_manifest(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, TypeError) as error:
        raise DataError(f"{path}: not a pipeline manifest ({error})") from None


def settle(path: Path, settings: dict[str, Any], force: bool, **facts: Any) -> set[str]:
    """Record `settings` (and `facts`) in the manifest at `path`; returns the top-level settings
    that changed. Refuses, naming each difference, when the manifest holds other settings and
    `force` is off."""
    previous = read_manifest(path)
    changed = differences(previous["settings"], settings) if "settings" in previous else {}
    if changed and not force:
        listing = "\n".join(f"  {key}: {text}" for key, text in changed.items())
        raise DataError(
            f"{path.parent} was run with other settings:\n{listing}\n"
            "Resume with the same settings, use a new output directory, or pass --force to go on "
            "with the new ones (finished work is kept)."
        )
    replaced = previous.get("replaced", []) + ([previous["settings"]] if changed else [])
    write_json(path, {**facts, "settings": settings, **({"replaced": replaced} if replaced else {})})
    return {key.split(".")[0] for key in changed}
