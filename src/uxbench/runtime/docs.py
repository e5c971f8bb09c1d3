"""Links to the project's pages that work wherever the package is installed or a report is read.

A wheel carries no `docs/` folder and a mailed report no repository, so a message or a page that
points a user at a page names the repository's copy of it (pyproject.toml's `[project.urls]`
names the same repository).
"""

REPOSITORY = "https://github.com/uxbench/uxbench-inspect"
REPOSITORY_FILES = f"{REPOSITORY}/blob/main/"


def docs_url(page: str) -> str:
    """The repository's URL of `page` ("protocol.md#grm-scoring", or "docs/protocol.md#…")."""
    return f"{REPOSITORY_FILES}docs/{page.removeprefix('docs/')}"


def install_extra(extra: str) -> str:
    """How to add an extra to an installed uxbench. No release is on PyPI yet, so the command names
    the repository (in a clone: `uv sync --extra EXTRA`, or `pip install -e '.[EXTRA]'`)."""
    return f"pip install 'uxbench[{extra}] @ git+{REPOSITORY}'"
