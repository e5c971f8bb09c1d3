"""Every pointer into docs/protocol.md lands on one of its headings, and nothing in the repo
points at a file outside it."""

import os
import re
import unicodedata
from pathlib import Path

from uxbench.runtime.docs import REPOSITORY, docs_url

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "protocol.md"
SECTIONS = (
    "Data",
    "Task 1: UX Judge",
    "Task 2: UX Eval",
    "Task 3: UX Recovery",
    "GRM scoring",
    "Label sets",
    "Construction pipeline",
    "Published per-model outputs",
    "Human evaluation",
)
SKIP_DIRS = {".git", ".venv", "__pycache__", "logs", ".pytest_cache", ".ruff_cache", "build", "dist"}
TEXT_SUFFIXES = {".py", ".md", ".txt", ".json", ".yaml", ".yml", ".toml", ".cfg", ""}
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def repo_text_files() -> list[Path]:
    """The repo's text files (this one excluded: it names what must not appear)."""
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        paths = (Path(folder) / name for name in names)
        files += [p for p in paths if p.suffix in TEXT_SUFFIXES and p != Path(__file__)]
    return files


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(markdown: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", markdown.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, flags=re.M)}


def test_protocol_has_the_linked_sections() -> None:
    headings = re.findall(r"^## (.+)$", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert set(SECTIONS) <= set(headings)
    assert {slug(s) for s in SECTIONS} == {
        "data", "task-1-ux-judge", "task-2-ux-eval", "task-3-ux-recovery", "grm-scoring",
        "label-sets", "construction-pipeline", "published-per-model-outputs", "human-evaluation",
    }  # fmt: skip


def test_every_protocol_reference_resolves() -> None:
    known = anchors(DOC)
    references = [
        (path.relative_to(ROOT), anchor)
        for path in repo_text_files()
        for anchor in re.findall(r"protocol\.md#([\w-]+)", path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert len(references) > 30  # the scan found the code's and the docs' references
    assert [(str(path), anchor) for path, anchor in references if anchor not in known] == []


def test_nothing_points_outside_the_repo() -> None:
    outside = re.compile(r"PROTOCOL|\.\./shared|/work/shared")
    hits = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in repo_text_files()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if outside.search(line)
    ]
    assert hits == []


def test_markdown_links_resolve_inside_the_repo() -> None:
    broken = []
    for path in (p for p in repo_text_files() if p.suffix == ".md"):
        for target in MD_LINK.findall(path.read_text(encoding="utf-8")):
            in_repo = target.startswith(f"{REPOSITORY}/blob/main/")
            if (re.match(r"^[a-z]+:", target) and not in_repo) or target.startswith("#"):
                continue  # a URL elsewhere, or an anchor on the same page
            file_part, _, anchor = target.removeprefix(f"{REPOSITORY}/blob/main/").partition("#")
            resolved = ((ROOT if in_repo else path.parent) / file_part).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


def test_links_that_leave_the_package_resolve_from_a_wheel() -> None:
    """The README is the package's long description on PyPI and every message or page a wheel user
    sees names the repository's copy of a page: no relative links into docs/ there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    relative = [t for t in MD_LINK.findall(readme) if not re.match(r"^[a-z]+:", t) and not t.startswith("#")]
    assert relative == []
    assert docs_url("protocol.md#grm-scoring") == f"{REPOSITORY}/blob/main/docs/protocol.md#grm-scoring"


def test_the_readme_is_a_landing_page_and_the_index_lists_every_page() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    listed = {target.partition("#")[0] for target in MD_LINK.findall(index)}
    pages = {p.name for p in (ROOT / "docs").glob("*.md") if p.name != "index.md"}
    assert pages <= listed
