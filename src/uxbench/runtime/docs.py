"""Links to the documentation that work wherever the package is installed.

A wheel carries no `docs/` folder, so a message or a page that points a user at a page names the
repository's copy of it (pyproject.toml's `[project.urls]` names the same repository).
"""

REPOSITORY = "https://github.com/uxbench/uxbench-inspect"


def docs_url(page: str) -> str:
    """The repository's URL of `page` ("protocol.md#grm-scoring", or "docs/protocol.md#…")."""
    return f"{REPOSITORY}/blob/main/docs/{page.removeprefix('docs/')}"
