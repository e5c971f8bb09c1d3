"""What is public: each concern folder's `__all__` (and the package's) names what users may import,
every name in it resolves, and the README and docs import nothing else."""

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "uxbench"
CONCERNS = sorted(p.parent.name for p in SRC.glob("*/__init__.py"))
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
CODE = re.compile(r"```(?:python|py)\n(.*?)```", re.S)


@pytest.mark.parametrize("package", ["uxbench", *(f"uxbench.{c}" for c in CONCERNS)])
def test_every_package_declares_what_is_public(package: str) -> None:
    module = importlib.import_module(package)
    assert isinstance(getattr(module, "__all__", None), list), f"{package} has no __all__"
    assert [name for name in module.__all__ if not hasattr(module, name)] == []


def public(module_name: str) -> set[str]:
    return set(getattr(importlib.import_module(module_name), "__all__", ()))


def test_the_docs_import_only_public_names() -> None:
    wrong = []
    for page in PAGES:
        for block in CODE.findall(page.read_text(encoding="utf-8")):
            for node in ast.walk(ast.parse(block)):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("uxbench"):
                    names = {alias.name for alias in node.names}
                    hidden = names - public(node.module) if node.module else names
                    wrong += [f"{page.name}: from {node.module} import {name}" for name in sorted(hidden)]
                elif isinstance(node, ast.Import):
                    wrong += [
                        f"{page.name}: import {alias.name}"
                        for alias in node.names
                        if alias.name.startswith("uxbench.") and not public(alias.name)
                    ]
    assert wrong == []


def test_no_install_line_promises_a_release_on_pypi() -> None:
    """No release is published on PyPI yet: every pip line names the repository (or a clone)."""
    pypi = re.compile(r"pip install ['\"]?uxbench\b(?![^\s'\"]*['\"]? @ git\+)")
    files = [*PAGES, *SRC.rglob("*.py")]
    wrong = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pypi.search(line)
    ]
    assert wrong == []
