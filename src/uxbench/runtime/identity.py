"""What makes an experiment what it is, defined once: the report groups and pools logs by it, and
every resume (the pipeline's stages) is held to it.

An identity is the task and its version, every setting (canonical JSON), the contents of each
template and prompt file (SHA-256), the prompt actually sent as the code renders it (SHA-256 of
each prompt rendered on a fixed probe input, so a change in how the code renders prompts, with
the files untouched, is a change of identity), and the data (source, revision, content hash).
The package version is shown beside it, never part of it: the task version says a measurement
changed (tests/tasks/test_prompt_versions.py fails when a rendered prompt changes without a
version bump).

Tasks record the parts only known while they run (file contents, rendered prompts) in their
eval metadata under `IDENTITY_KEY`, with a digest of what they hold; `Identity.recorded` reads
them back verified. Two identities that differ say where (`differences`), field by field.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from uxbench.runtime.errors import DataError

IDENTITY_KEY = "uxbench_identity"  # in a log's eval metadata: what the run recorded of its identity
DIGEST_CHARS = 16  # of a SHA-256 hex digest: 64 bits, enough to tell wordings apart


class IdentityError(DataError):
    """A recorded identity that does not hold together (edited, cut, or of another version)."""


def _plain(value: Any) -> Any:
    """A value as canonical JSON holds it: mappings by sorted key, tuples as lists, a whole float
    as its int (`-T seed=1` and `seed=1.0` are one setting), paths as text."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value):
            return int(value)
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Path):
        return str(value)
    return str(value)


def canonical(value: Any) -> str:
    """One text for one value, whatever its key order or container types."""
    return json.dumps(_plain(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def text_digest(text: str | bytes) -> str:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:DIGEST_CHARS]


def file_digest(path: str | Path) -> str:
    """The digest of a file's contents (the same file under another path is the same)."""
    try:
        return text_digest(Path(path).expanduser().read_bytes())
    except OSError as error:
        reason = error.strerror or error
        raise DataError(f"{path}: cannot be read for the run's identity ({reason})") from None


def rendered_digest(render: Callable[[], str]) -> str:
    """The digest of a prompt as the code renders it (on the caller's fixed probe input)."""
    return text_digest(render())


def package_version() -> str:
    """Shown beside an identity, never part of it (the task version is)."""
    try:
        return version("uxbench")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class Recorded:
    """What a task records of its identity while it runs: file contents and rendered prompts."""

    files: Mapping[str, str] = field(default_factory=dict)  # name -> digest of the file's contents
    prompts: Mapping[str, str] = field(default_factory=dict)  # name -> digest of the rendered probe prompt

    @property
    def digest(self) -> str:
        return text_digest(canonical({"files": self.files, "prompts": self.prompts}))

    def metadata(self) -> dict[str, Any]:
        """For the eval metadata (`IDENTITY_KEY`), with the package version shown beside it."""
        return {
            IDENTITY_KEY: {
                "files": dict(self.files),
                "prompts": dict(self.prompts),
                "digest": self.digest,
                "package_version": package_version(),
            }
        }

    @classmethod
    def read(cls, metadata: Mapping[str, Any] | None, where: str) -> Recorded | None:
        """The identity a log recorded, verified; None for a log of a version that recorded none.
        Raises IdentityError naming the log and field when it does not hold together."""
        value = (metadata or {}).get(IDENTITY_KEY)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise IdentityError(f"{where}: metadata {IDENTITY_KEY} is not a mapping")
        parts: dict[str, dict[str, str]] = {}
        for name in ("files", "prompts"):
            part = value.get(name)
            if not isinstance(part, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in part.items()
            ):
                raise IdentityError(f"{where}: metadata {IDENTITY_KEY}.{name} is not a mapping of digests")
            parts[name] = dict(part)
        found = cls(parts["files"], parts["prompts"])
        if value.get("digest") != found.digest:
            raise IdentityError(
                f"{where}: metadata {IDENTITY_KEY}.digest does not match the files and prompts it lists "
                "(the log was edited or cut)"
            )
        return found


@dataclass(frozen=True)
class Identity:
    """One experiment: same identity, same experiment; its shards pool and its runs resume."""

    task: str
    version: str | None  # the task version (eval.yaml's N-X); None in logs that do not say
    settings: Mapping[str, Any]  # every setting, named as the user knows it
    recorded: Recorded | None = None  # None: a log of a version that recorded none
    data: Mapping[str, Any] = field(default_factory=dict)  # source, revision, content hash

    def facts(self) -> dict[str, Any]:
        recorded = self.recorded
        return {
            "task": self.task,
            "version": self.version,
            "settings": _plain(self.settings),
            "files": _plain(recorded.files) if recorded else None,
            "prompts": _plain(recorded.prompts) if recorded else None,
            "data": _plain(self.data),
        }

    @property
    def key(self) -> str:
        """The identity as one text: equal keys, one experiment."""
        return canonical(self.facts())

    @property
    def digest(self) -> str:
        return text_digest(self.key)

    def differences(self, other: Identity) -> list[str]:
        """Where `other` differs, one item per field: `task version 2-A, not 3-A`, `setting
        temperature 0.5, not 0`, `template file grader_template (contents)`, `prompt grader as
        sent`; a log that recorded no file or prompt digests is compared on the rest, and says so."""
        mine, theirs = self.facts(), other.facts()
        found = []
        if mine["task"] != theirs["task"]:
            found.append(f"task {theirs['task']}, not {mine['task']}")
        if mine["version"] != theirs["version"]:
            found.append(f"task version {theirs['version']}, not {mine['version']}")
        for name in sorted(mine["settings"].keys() | theirs["settings"].keys()):
            a, b = mine["settings"].get(name, "(not set)"), theirs["settings"].get(name, "(not set)")
            if a != b:
                found.append(f"setting {name} {canonical(b)}, not {canonical(a)}")
        for part, label in (("files", "file {} (contents)"), ("prompts", "prompt {} as sent")):
            a, b = mine[part], theirs[part]
            if a is None or b is None:
                if a != b:
                    found.append(f"{part}: one log records no digests of its {part} (an older version)")
                continue
            names = sorted(a.keys() | b.keys())
            found += [label.format(name) for name in names if a.get(name) != b.get(name)]
        for name in sorted(mine["data"].keys() | theirs["data"].keys()):
            if mine["data"].get(name) != theirs["data"].get(name):
                found.append(f"data {name} {theirs['data'].get(name)}, not {mine['data'].get(name)}")
        return found
