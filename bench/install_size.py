"""Download size of each install path of the README's quick start, from pip's own resolution.

Run by hand with Python 3.11+ (a few minutes; it installs and builds nothing):

    python bench/install_size.py [--out bench/results_install.md] [--cpu-torch 'torch==2.13.0+cpu']

Each path is resolved with `pip install --dry-run --ignore-installed --report` over the
project's declared requirements (read from pyproject.toml, so the package itself is not
built), and the files pip picked are summed: local files by their size on disk, remote ones
by the Content-Length of a HEAD request. What pip picks depends on the machine's pip
configuration (indexes, find-links, constraints), which the result file records.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tomllib
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIG = ("nvidia", "cuda", "triton")  # the CUDA runtime wheels a default Linux torch pulls in


def requirements(*extras: str) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *(r for e in extras for r in project["optional-dependencies"][e])]


def resolve(specs: list[str]) -> list[dict[str, Any]]:
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "-q"]
    done = subprocess.run([*command, "--report", "-", *specs], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["install"]


def size(url: str) -> int:
    if url.startswith("file://"):
        return os.path.getsize(urllib.parse.unquote(url.removeprefix("file://")))
    with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=60) as response:
        return int(response.headers["Content-Length"])


def measure(specs: list[str]) -> dict[str, Any]:
    picked = [
        (i["metadata"]["name"].lower(), i["metadata"]["version"], i["download_info"]["url"])
        for i in resolve(specs)
    ]
    sizes = {name: size(url) for name, _, url in picked}
    return {
        "packages": len(picked),
        "total_mb": sum(sizes.values()) / 1e6,
        "torch": next((v for n, v, _ in picked if n == "torch"), "—"),
        "torch_mb": sizes.get("torch", 0) / 1e6,
        "cuda_mb": sum(s for n, s in sizes.items() if n.startswith(BIG)) / 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results_install.md")
    parser.add_argument("--cpu-torch", default="torch==2.13.0+cpu", help="the CPU wheel pip finds here")
    args = parser.parse_args()
    paths = {
        "`.[dev,local]`, torch as pip picks it": requirements("dev", "local"),
        f"`{args.cpu_torch}` first, then `.[dev,local]`": [args.cpu_torch, *requirements("dev", "local")],
        "`.[dev]` (no embedded model)": requirements("dev"),
    }
    pip_config = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True
    )
    lines = [
        "# Install download sizes",
        "",
        "Command: `python bench/install_size.py` — pip's resolution of each path, summed; nothing installed.",
        "",
        f"Python {platform.python_version()} on {platform.platform()}; pip configuration:",
        "",
        "```",
        pip_config.stdout.strip() or "(none)",
        "```",
        "",
        "| path | packages | torch | torch wheel | CUDA wheels (nvidia-*, cuda-*, triton) | total download |",
        "|---|---|---|---|---|---|",
    ]
    for name, specs in paths.items():
        m = measure(specs)
        lines.append(
            f"| {name} | {m['packages']} | {m['torch']} | {m['torch_mb']:.0f} MB | {m['cuda_mb']:.0f} MB "
            f"| {m['total_mb']:.0f} MB |"
        )
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
