"""The package's layout holds: concerns import only the concerns below them."""

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
