"""Release-shaped records written on the fly."""

import json
from pathlib import Path

from uxbench.data.dataset import sample_dir
from uxbench.data.records import SYNTHETIC


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def judge_records(n_good: int, n_bad: int) -> tuple[list[dict], list[dict]]:
    """Task 1 records; liked replies contain 'GOODREPLY' so a responder can tell them apart."""
    good = [
        {
            "cid": f"uxbench_ux_judge_{i:04d}",
            "history": [],
            "query": f"第 {i} 个问题",
            "response": f"GOODREPLY {i}",
            "success_dimension": "准确回答",
            "scenario": "信息与知识查询",
            "difficulty": "easy",
        }
        for i in range(n_good)
    ]
    bad = [
        {
            "cid": f"uxbench_ux_judge_{1000 + i:04d}",
            "selected_history": [
                {"role": "user", "message": "你好"},
                {"role": "assistant", "message": "你好！"},
            ],
            "source_query": {"turn_index": 2, "message": f"第 {i} 个追问"},
            "agent_response_full": f"BADREPLY {i}",
            "failure_dimension": "冗余啰嗦" if i % 2 else "事实性错误",
            "scenario": "办公与效率",
            "difficulty": "hard",
        }
        for i in range(n_bad)
    ]
    return good, bad


def release_copy(directory: Path) -> Path:
    """The bundled sample's records as a local copy of the release: the same files and content,
    with release cids (`uxbench_…`), so a run on it is a run on the paper's kind of data."""
    directory.mkdir(parents=True, exist_ok=True)
    for path in sample_dir().glob("*.jsonl"):
        text = path.read_text(encoding="utf-8").replace('"cid": "sample_', '"cid": "uxbench_')
        text = text.replace(f'"origin": "{SYNTHETIC}", ', "")  # as the release's records: no origin
        (directory / path.name).write_text(text, encoding="utf-8")
    return directory
