"""The package's layout holds: concerns import only the concerns below them, and no module imports
itself back through others (every import counts: inside functions and under TYPE_CHECKING too)."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "uxbench"
# low → high; a concern may import those at its left (and itself), never those at its right.
# report and pipeline are peers: neither imports the other.
ORDER = [
    "runtime",
    "stats",
    "data",
    "grader_prompt",
    "grader_answer",
    "judge_answer",
    "qualification",
    "scorers",
    "web",
    "providers",
    "tasks",
]
TOP = {"report": len(ORDER), "pipeline": len(ORDER)}
PIPELINE_ROOMS = ["read", "privacy", "stages", "run", "tools"]


def rank(module: str) -> int | None:
    part = module.split(".")[1] if module.count(".") else None
    if part in ORDER:
        return ORDER.index(part)
    return TOP.get(part or "")


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("uxbench.")}


def test_no_import_runs_up_a_concern() -> None:
    wrong = []
    for path in SRC.rglob("*.py"):
        module = "uxbench." + ".".join(path.relative_to(SRC).with_suffix("").parts)
        own = rank(module)
        if own is None:  # top-level modules (cli, registry, analysis) may import anything
            continue
        concern = module.split(".")[1]
        for name in imports(path):
            other = rank(name)
            peer = other == own and concern in TOP and name.split(".")[1] != concern
            if other is not None and (other > own or peer):
                wrong.append(f"{module} imports {name}")
    assert wrong == []


def test_pipeline_rooms_go_down() -> None:
    wrong = []
    for path in (SRC / "pipeline").rglob("*.py"):
        parts = path.relative_to(SRC / "pipeline").parts
        if len(parts) < 2:
            continue
        own = PIPELINE_ROOMS.index(parts[0])
        for name in imports(path):
            room = name.split(".")[2] if name.startswith("uxbench.pipeline.") else None
            if room in PIPELINE_ROOMS and PIPELINE_ROOMS.index(room) > own:
                wrong.append(f"pipeline/{'/'.join(parts)} imports {name}")
    assert wrong == []


def _module(path: Path) -> str:
    return "uxbench." + ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")


def _modules_imported(path: Path, known: set[str]) -> set[str]:
    """The package's modules a file imports: `from uxbench.report import charts` imports the module
    `uxbench.report.charts`, not only the package."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("uxbench"):
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & known
            found |= submodules or {node.module}
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("uxbench"))
    return found & known


def test_no_import_circles() -> None:
    """A circle hides a missing concern: the shared part belongs in a module of its own."""
    paths = {_module(path): path for path in SRC.rglob("*.py")}
    graph = {module: _modules_imported(path, set(paths)) for module, path in paths.items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for name in sorted(graph[module]):
            if state.get(name) == 1:
                circles.append([*path[path.index(name) :], name])
            elif name not in state:
                visit(name, [*path, name])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert [" -> ".join(circle) for circle in circles] == []
