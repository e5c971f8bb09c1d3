"""Old module paths (before the layout of version 2-B) keep importing for one version.

`import uxbench.correction` or `from uxbench.pipeline.redact import redact` finds the module at
its new home (`uxbench.graders.correction`, `uxbench.pipeline.privacy.redact`) and warns once
with a DeprecationWarning. The finder answers only the names listed here, so nothing else in
the package, or outside it, is looked up through it. `uxbench.pipeline.stages` is not listed:
that name is now the stages folder (its old drivers are `uxbench.pipeline.run.drivers`).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

MOVED: dict[str, str] = {
    "_inspect": "runtime._inspect",
    "calibration": "judge.calibration",
    "correction": "graders.correction",
    "credentials": "runtime.credentials",
    "dataset": "data.dataset",
    "ensemble": "grading.ensemble",
    "errors": "runtime.errors",
    "exclusions": "data.exclusions",
    "generation": "runtime.generation",
    "grader_metrics": "graders.metrics",
    "grm": "grading.grm",
    "hooks": "runtime.hooks",
    "judge_prompt": "judge.prompt",
    "labels": "data.labels",
    "listing": "tasks.listing",
    "localserver": "runtime.localserver",
    "metrics": "scorers.metrics",
    "offline": "runtime.offline",
    "pipeline.agentrun": "pipeline.run.agentrun",
    "pipeline.agents": "pipeline.stages.agents",
    "pipeline.audit": "pipeline.tools.audit",
    "pipeline.build": "pipeline.stages.build",
    "pipeline.dedup": "pipeline.stages.dedup",
    "pipeline.executors": "pipeline.run.executors",
    "pipeline.files": "pipeline.read.files",
    "pipeline.judge": "pipeline.stages.judge",
    "pipeline.manifest": "pipeline.run.manifest",
    "pipeline.mapping": "pipeline.read.mapping",
    "pipeline.miner": "pipeline.stages.miner",
    "pipeline.mock": "pipeline.run.mock",
    "pipeline.models": "pipeline.run.models",
    "pipeline.parallel": "pipeline.run.parallel",
    "pipeline.prefilter": "pipeline.stages.prefilter",
    "pipeline.preview": "pipeline.tools.preview",
    "pipeline.qa": "pipeline.stages.qa",
    "pipeline.quality": "pipeline.stages.quality",
    "pipeline.rawlog": "pipeline.read.rawlog",
    "pipeline.readers": "pipeline.read.readers",
    "pipeline.redact": "pipeline.privacy.redact",
    "pipeline.report": "pipeline.stages.report",
    "pipeline.rows": "pipeline.stages.rows",
    "pipeline.runner": "pipeline.run.runner",
    "pipeline.sampling": "pipeline.stages.sampling",
    "pipeline.schemas": "pipeline.stages.schemas",
    "pipeline.settings": "pipeline.run.settings",
    "pipeline.shares": "pipeline.stages.shares",
    "pipeline.signals": "pipeline.stages.signals",
    "pipeline.synth": "pipeline.tools.synth",
    "pipeline.unsafe": "pipeline.privacy.unsafe",
    "pipeline.usage": "pipeline.stages.usage",
    "published": "graders.published",
    "qualification": "graders.qualification",
    "records": "data.records",
    "redact_cli": "runtime.redact_cli",
    "report.stats": "stats.intervals",
    "solvers": "tasks.solvers",
    "tags": "runtime.tags",
    "templates": "data.templates",
    "verdict": "judge.verdict",
}


class _Alias(importlib.abc.Loader):
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return ModuleType(spec.name)  # a placeholder: exec_module puts the real module in its place

    def exec_module(self, module: ModuleType) -> None:
        # The import system hands back whatever sys.modules holds under the old name after this,
        # so the caller gets the module itself (one object, its own __spec__ untouched).
        warnings.warn(
            f"{module.__name__} moved to {self.new}; the old path goes away in the next version",
            DeprecationWarning,
            stacklevel=2,
        )
        sys.modules[module.__name__] = importlib.import_module(self.new)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, name: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(name.removeprefix("uxbench.")) if name.startswith("uxbench.") else None
        return importlib.machinery.ModuleSpec(name, _Alias(f"uxbench.{new}")) if new else None


def install() -> None:
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.append(_Finder())
