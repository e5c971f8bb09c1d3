"""An Inspect release that moves one private API turns off one feature, never the plugin.

Each case makes UXBench's import of one private name fail (in a fresh interpreter) and
checks: one warning naming it, every `uxbench/` task still registered, and the feature that
needs it off the way runtime/_inspect.py says.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import uxbench

pytestmark = pytest.mark.integration


TASKS = sorted(name for name in uxbench.__all__ if name not in ("__version__", "grm"))  # every exported task

# Inspect itself keeps using the name: only UXBench's import of it fails, as after a move.
SCRIPT = """
import builtins, json, warnings
real_import = builtins.__import__
def moved(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {{}}).get("__name__")
    if importer == "uxbench.runtime._inspect" and name == {module!r} and {name!r} in (fromlist or ()):
        raise ImportError(f"cannot import name {name!r} from {module!r}")
    return real_import(name, globals, locals, fromlist, level)
builtins.__import__ = moved
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import uxbench._registry  # what Inspect's entry point loads
from inspect_ai._util.registry import registry_find, registry_info
from uxbench.runtime import _inspect
tasks = sorted(
    registry_info(t).name.removeprefix("uxbench/")
    for t in registry_find(lambda info: info.type == "task" and info.name.startswith("uxbench/"))
)
try:
    feature = repr({check})
except Exception as error:
    feature = f"{{type(error).__name__}}: {{error}}"
print(json.dumps({{
    "warnings": [str(w.message) for w in caught if "uxbench:" in str(w.message)],
    "tasks": tasks,
    "missing": sorted(_inspect.MISSING),
    "feature": feature,
}}))
"""

CASES = {
    "PrerequisiteError": (
        "inspect_ai._util.error",
        "issubclass(_inspect.PrerequisiteError, Exception)",
        "True",
    ),
    "sample_active": (
        "inspect_ai.log._samples",
        "_inspect.active_sample_id()",
        "DataError: the replay models",
    ),
    "active_generate_config": ("inspect_ai.model._generate_config", "_inspect.run_config().timeout", "None"),
    "active_model": ("inspect_ai.model._model", "_inspect.in_eval()", "False"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_one_missing_private_import_turns_off_one_feature(name: str) -> None:
    module, check, expected = CASES[name]
    code = textwrap.dedent(SCRIPT.format(module=module, name=name, check=check))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env={**os.environ}
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["tasks"] == TASKS  # the registry still lists every task
    assert result["missing"] == [f"{module}.{name}"]
    [warning] = result["warnings"]
    assert f"{module}.{name}" in warning and " is off" in warning
    assert result["feature"].startswith(expected)
