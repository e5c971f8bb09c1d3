"""Where the project's pages live online, for outputs read away from the repository (a mailed
report links its docs/ pages here rather than printing paths that lead nowhere)."""

from __future__ import annotations

REPOSITORY_FILES = "https://github.com/uxbench/uxbench-inspect/blob/main/"
DOCS_URL = REPOSITORY_FILES + "docs/"
