"""What a user installs: the wheel holds every file of the package, and every file the code opens
relative to the package.

Under `.ci/run` the suite runs against the installed wheel, so the wheel checked is the one users
get; in an editable checkout the test builds one from a copy of the tracked files (never in the tree).
"""

import ast
import importlib.metadata
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import uxbench

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "uxbench"


def tracked(folder: Path) -> list[str]:
    """The tracked files under `folder`, relative to the repository root."""
    result = subprocess.run(
        ["git", "ls-files", "-z", "--", str(folder.relative_to(ROOT))],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    if result.returncode != 0:
        pytest.skip("not a git checkout")
    return [name for name in result.stdout.split("\0") if name]


def editable() -> bool:
    direct = importlib.metadata.distribution("uxbench").read_text("direct_url.json")
    return bool(direct and json.loads(direct).get("dir_info", {}).get("editable"))


def built_wheel(tmp: Path) -> set[str]:
    """Build a wheel from a copy of the tracked files (setuptools writes build/ beside the source)."""
    pytest.importorskip("setuptools", minversion="77", reason="building the wheel needs setuptools>=77")
    source = tmp / "source"
    for name in tracked(ROOT):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    # setuptools' own PEP 517 backend, in a process of its own: no pip or build frontend needed
    # (the environment uv makes has no pip)
    build = f"from setuptools import build_meta; build_meta.build_wheel({str(tmp)!r})"
    subprocess.run([sys.executable, "-c", build], cwd=source, check=True, capture_output=True, timeout=600)
    (wheel,) = tmp.glob("uxbench-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The files of the wheel, as paths inside it ("uxbench/…")."""
    if editable() or Path(uxbench.__file__).resolve().is_relative_to(ROOT):
        return built_wheel(tmp_path_factory.mktemp("wheel"))
    files = importlib.metadata.distribution("uxbench").files or []
    return {str(file) for file in files}


def test_the_wheel_holds_every_tracked_file_of_the_package(wheel_files: set[str]) -> None:
    missing = [name for name in tracked(PACKAGE) if name.removeprefix("src/") not in wheel_files]
    assert not missing, f"not in the wheel (pyproject.toml [tool.setuptools.package-data]): {missing}"


def opened_relative_to_the_package() -> set[str]:
    """Each `resources.files("uxbench…") / "a" / "b"` and `Path(__file__).parent / "a"` in the code,
    as a path inside the package (literal parts only: a computed name stops at its folder)."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
                continue
            parts: list[str] = []
            left: ast.expr = node
            while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Div):
                if not (isinstance(left.right, ast.Constant) and isinstance(left.right.value, str)):
                    parts = []  # a computed part: keep only what comes before it
                else:
                    parts.insert(0, left.right.value)
                left = left.left
            base = base_folder(left, path)
            if base is not None and parts:
                found.add("/".join([base, *parts]))
    return found


def base_folder(node: ast.expr, path: Path) -> str | None:
    """The package folder `node` names: resources.files("uxbench.x") or Path(__file__).parent."""
    if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("resources.files") and node.args:
        arg = node.args[0]
        return arg.value.replace(".", "/") if isinstance(arg, ast.Constant) else None
    if ast.unparse(node) == "Path(__file__).parent":
        return str(path.parent.relative_to(PACKAGE.parent))
    return None


def test_every_file_the_code_opens_relative_to_the_package_is_in_the_wheel(wheel_files: set[str]) -> None:
    opened = opened_relative_to_the_package()
    assert "uxbench/report/published.json" in opened  # the scan sees the file that once went missing
    folders = {name.rsplit("/", 1)[0] for name in wheel_files}
    missing = sorted(name for name in opened if name not in wheel_files and name not in folders)
    assert not missing, f"opened by the code but not in the wheel: {missing}"


def test_the_distribution_says_what_a_user_expects() -> None:
    meta = importlib.metadata.metadata("uxbench")
    assert meta["License-Expression"] == "MIT"
    assert meta["Requires-Python"] == ">=3.11"
    assert uxbench.__version__ == meta["Version"]
    urls = dict(value.split(", ", 1) for value in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Documentation", "Repository", "Changelog"} <= set(urls)
