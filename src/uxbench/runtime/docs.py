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
