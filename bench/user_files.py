"""How fast `uxbench.runtime.userfiles` refuses hostile files, and what it costs on good ones.

    python bench/user_files.py [--gib 4] [--mb 200] [--dir /tmp/uxbench-bench]

1. A `.jsonl.gz` of `--gib` GiB of blank lines (about 4 MB packed): d85c497 read it to the end
   (minutes per GiB) and then said "the file is empty"; now the load stops at 100,000 blank
   lines in a row. Timed: the whole `uxbench_dataset` call until its DataError.
2. A Task 2 JSONL file of `--mb` MB, plain and gzipped: `record_lines` throughput (every line
   decoded, as the loader reads it) next to a bare `open()` line loop, so the hardening's cost
   shows as a ratio. Results go to bench/results_user_files.md by hand.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
import zlib
from functools import partial
from pathlib import Path

from uxbench.data.dataset import uxbench_dataset
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError


def blank_bomb(path: Path, gib: float) -> None:
    """gzip of `gib` GiB of newlines, written in blocks (never held whole)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip header
    block = b"\n" * (64 << 20)
    with path.open("wb") as out:
        out.write(packer.compress(b'{"cid": "e1", "messages": [], "query": "q"}\n'))
        for _ in range(int(gib * 16)):
            out.write(packer.compress(block))
        out.write(packer.flush())


def records(path: Path, mb: int) -> None:
    row = {
        "cid": "",
        "messages": [{"role": "user", "content": "北京明天天气怎么样？" * 20}],
        "query": "要带伞吗？",
    }
    with path.open("w", encoding="utf-8") as out:
        n = 0
        while out.tell() < mb << 20:
            out.write(json.dumps({**row, "cid": f"e{n}"}, ensure_ascii=False) + "\n")
            n += 1


def timed(work) -> tuple[float, object]:
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gib", type=float, default=4)
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--dir", default="/tmp/uxbench-bench")
    args = parser.parse_args()
    where = Path(args.dir)
    where.mkdir(parents=True, exist_ok=True)

    bomb = where / "blank.jsonl.gz"
    built, _ = timed(lambda: blank_bomb(bomb, args.gib))
    packed_mb = bomb.stat().st_size / 2**20
    print(f"bomb: {args.gib} GiB of blank lines in {packed_mb:.1f} MB (built in {built:.1f} s)")

    def refuse() -> str:
        try:
            uxbench_dataset("task2", str(bomb), None, True)
        except DataError as error:
            return str(error)
        return "loaded"

    seconds, message = timed(refuse)
    print(f"refused in {seconds:.2f} s: {message}")

    plain = where / "records.jsonl"
    records(plain, args.mb)
    packed = where / "records.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes(), 6))
    size = plain.stat().st_size / 2**20
    for path in (plain, packed):
        bare, _ = timed(partial(bare_lines, path))
        ours, count = timed(partial(our_lines, path))
        print(
            f"{path.name}: {count} lines; open(): {size / bare:.0f} MB/s, "
            f"record_lines: {size / ours:.0f} MB/s ({ours / bare:.2f}× the time)"
        )


def bare_lines(path: Path) -> int:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return sum(1 for _ in handle)


def our_lines(path: Path) -> int:
    return sum(1 for _ in userfiles.record_lines(path))


if __name__ == "__main__":
    main()
