"""The pages' JSON API answers a body the page would never send with 400 and a message, not a 500
and a console traceback (issue 24); the pause page's resume command keeps the log's directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from uxbench.web.explore import Explorer, explore_app, load_entries
from uxbench.web.judging import Desk, judging_app

NOT_JSON = "the request body is not JSON (Expecting value: line 1 column 1 (char 0))"
CASES = [
    ("not_json", b"cid=x", NOT_JSON),
    ("empty", b"", NOT_JSON),
    (
        "cut_short",
        b'{"cid": "x"',
        "the request body is not JSON (Expecting ',' delimiter: line 1 column 12 (char 11))",
    ),
    (
        "not_utf8",
        b'{"cid": "\xff"}',
        "the request body is not JSON ('utf-8' codec can't decode byte 0xff in position 9: "
        "invalid start byte)",
    ),
    ("a_list", b"[1, 2]", "the request body is a JSON list, not an object"),
    ("a_string", b'"x"', "the request body is a JSON str, not an object"),
]


@pytest.fixture(scope="module")
def explorer(tmp_path_factory: pytest.TempPathFactory) -> Explorer:
    entries, problems = load_entries("sample")
    return Explorer(entries, problems, tmp_path_factory.mktemp("ex") / "ex.jsonl", "me", "sample")


@pytest.mark.parametrize(("body", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
@pytest.mark.parametrize("page", ["explore", "judging"])
def test_a_malformed_body_is_a_400_with_a_message(
    explorer: Explorer, page: str, body: bytes, message: str
) -> None:
    app, route = (
        (explore_app(explorer), "/api/exclude")
        if page == "explore"
        else (judging_app(Desk("r")), "/api/answer")
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.post(route, content=body, headers={"content-type": "application/json"})
    assert (response.status_code, response.json()) == (400, {"error": message})


@pytest.mark.parametrize("item", ["1", None, 1.5, True, [1]])
def test_an_answer_to_no_item_number_is_a_400(item: object) -> None:
    with TestClient(judging_app(Desk("r")), raise_server_exceptions=False) as client:
        response = client.post("/api/answer", json={"item": item, "label": "good"})
    assert (response.status_code, response.json()) == (
        400,
        {"error": f"field 'item' must be an item number, got {item!r:.40}"},
    )


def test_an_eight_megabyte_reason_is_a_400(explorer: Explorer) -> None:
    cid = explorer.entries[0].cid
    with TestClient(explore_app(explorer), raise_server_exceptions=False) as client:
        response = client.post("/api/exclude", json={"cid": cid, "reason": "x" * 8_000_000})
    assert (response.status_code, response.json()) == (
        400,
        {"error": "the reason is 8,000,000 characters, over the cap of 10,000 for a reason"},
    )
    assert not explorer.exclude.exists()


def test_the_resume_command_passes_the_log_directory(tmp_path: Path) -> None:
    desk = Desk("rater1")
    desk.run_started("e1", [("a", 1), ("b", 1)])
    log = tmp_path / "my logs" / "x.eval"
    desk.add({"answers": [{"label": "good"}]}, "e1", "a", location=str(log))
    desk.pause()
    assert desk.state()["paused"] == f"inspect eval-retry '{log}' --log-dir '{log.parent}'"
