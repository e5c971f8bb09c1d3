"""`uxbench/human` without a browser: prompt read-back, the blind view, the desk's rules, the
provider's arguments, and the local server's token gate."""

import asyncio
import threading
import time
from pathlib import Path

import httpx
import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessageUser, get_model
from starlette.testclient import TestClient

from uxbench.data.dataset import load_samples
from uxbench.data.records import Turn
from uxbench.data.templates import builtin_path, load_template
from uxbench.grader_answer.reading import judge
from uxbench.judge_answer.prompt import builtin_templates, history_turns, read_judge_prompt
from uxbench.judge_answer.verdict import parse_verdict
from uxbench.providers.human import HumanAPI, item_view
from uxbench.runtime.errors import DataError
from uxbench.scorers.grm import OMITTED_TURNS
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.web.judging import Desk, Paused, judging_app
from uxbench.web.server import TOKEN_HEADER, LocalServer, TokenGate

VIEW = {"answers": [{"label": "good", "spelling": "好"}, {"label": "bad", "spelling": "差"}]}


def rendered(name: str, labels: tuple[str, ...] = ("good", "bad"), history: list[Turn] | None = None) -> str:
    template = load_template(builtin_path(name)).with_labels(labels)
    turns = history if history is not None else [Turn("user", "你好"), Turn("assistant", "你好！有什么事？")]
    return template.render(history=template.history_text(turns), query="怎么退货", response="七天内可以退。")


# ---------------------------------------------------------------- reading the prompt back


def test_the_prompt_gives_its_instructions_question_and_offered_answers() -> None:
    prompt = read_judge_prompt(rendered("judge_default.txt"), builtin_templates())
    assert prompt is not None
    assert (
        prompt.instructions.startswith("下面是一位真实用户") and "【此前的对话】" not in prompt.instructions
    )
    assert prompt.question.startswith("用户满意就回答") and "好 / 差" in prompt.question
    assert prompt.offered() == ("good", "bad")
    three = read_judge_prompt(rendered("judge_default.txt", ("good", "bad", "neutral")), builtin_templates())
    assert three is not None and three.offered() == ("good", "bad", "neutral")
    assert read_judge_prompt(rendered("grm_pointwise.txt"), builtin_templates()).offered() == ("good", "bad")


def test_history_turns_keep_a_leading_note_and_an_empty_history() -> None:
    template = load_template(builtin_path("grm_pointwise.txt"))
    text = (
        OMITTED_TURNS.format(n=3)
        + "\n\n"
        + template.history_text([Turn("user", "a\n\nb"), Turn("assistant", "c")])
    )
    note, turns = history_turns(text, template)
    assert note == OMITTED_TURNS.format(n=3)
    assert turns == [Turn("user", "a\n\nb"), Turn("assistant", "c")]
    assert history_turns(template.empty_history, template) == ("", [])


def test_the_view_is_blind_and_spells_the_templates_answers() -> None:
    samples, _ = load_samples("task1", "sample")
    for sample in samples[:6]:
        prompt = read_judge_prompt(str(sample.input), builtin_templates())
        view = item_view(prompt)
        shown = repr(view)
        assert str(sample.id) not in shown and "ground_truth" not in shown
        assert view["reply"] and view["turns"][-1]["role"] == "user"
        assert [a["spelling"] for a in view["answers"]] == ["好", "差"]
    json_view = item_view(read_judge_prompt(rendered("judge_json_en.txt"), builtin_templates()))
    assert [a["spelling"] for a in json_view["answers"]] == ["1", "0"]


# ---------------------------------------------------------------- the desk


def test_the_last_answer_is_held_until_the_next_one_and_can_be_undone() -> None:
    desk = Desk("r", undo_seconds=60)
    first, second = desk.add(dict(VIEW)), desk.add(dict(VIEW))
    assert desk.state()["item"]["id"] == first.id
    assert desk.answer(first.id, "bad") and not first.future.done()  # held while item 2 is on screen
    assert desk.state()["held"]["spelling"] == "差"
    assert desk.undo() and desk.state()["item"]["id"] == first.id and desk.state()["held"] is None
    assert not desk.answer(second.id, "good")  # not the item on screen
    assert not desk.answer(first.id, "neutral")  # not an answer this prompt offers
    assert desk.answer(first.id, "good") and desk.answer(second.id, None)
    assert first.future.result(timeout=1).label == "good"
    assert not second.future.done()  # the last answer waits: nothing else is on screen
    desk.send_now()
    assert second.future.result(timeout=1).label is None and desk.sent == 2


def test_with_nothing_else_waiting_the_held_answer_is_sent_after_undo_seconds() -> None:
    desk = Desk("r", undo_seconds=0.05)
    item = desk.add(dict(VIEW))
    desk.answer(item.id, "good")
    assert desk.state()["held"]["sends_in"] is not None
    assert item.future.result(timeout=2).label == "good"


def test_pause_sends_the_held_answer_and_fails_the_rest_once_it_is_logged() -> None:
    desk = Desk("rater1", undo_seconds=60)
    desk.run_started("e1", [("a", 1), ("b", 1), ("c", 1)])
    a = desk.add(dict(VIEW), "e1", "a", location="logs/x.eval")
    b = desk.add(dict(VIEW), "e1", "b")
    assert (desk.state()["item"]["number"], desk.state()["item"]["total"]) == (1, 3)
    desk.answer(a.id, None)  # a skip, held
    desk.pause()
    assert a.future.result(timeout=1).label is None
    assert desk.state()["paused"].startswith("inspect eval-retry ") and desk.state()["item"] is None
    c = desk.add(dict(VIEW), "e1", "c")  # the paused run's next sample
    # the first failure ends the run: it waits until the answered sample is in the log
    assert not b.future.done() and not c.future.done()
    desk.sample_ended("e1", "a", 1)
    for item in (b, c):
        with pytest.raises(Paused, match="paused by rater1.*inspect eval-retry .*x.eval --log-dir"):
            item.future.result(timeout=1)
    desk.run_started("e2", [("a", 1), ("b", 1), ("c", 1)])  # eval-retry: a new eval id
    again = desk.add(dict(VIEW), "e2", "b")
    assert desk.state()["paused"] is None and desk.state()["item"]["number"] == 2
    desk.withdraw(again)
    assert again.future.cancelled() and desk.state()["item"] is None


def test_a_pause_waits_no_longer_than_pause_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("uxbench.web.judging.PAUSE_WAIT", 0.05)
    desk = Desk("r", undo_seconds=60)
    a, b = desk.add(dict(VIEW), "e1", "a"), desk.add(dict(VIEW), "e1", "b")
    desk.answer(a.id, "good")
    desk.pause()  # a's sample never reports itself logged
    with pytest.raises(Paused):
        b.future.result(timeout=2)


def test_long_poll_returns_when_the_state_changes() -> None:
    desk = Desk("r")
    version = desk.state()["version"]
    started = time.monotonic()
    desk.add(dict(VIEW))
    assert desk.wait_state(version, timeout=30)["version"] != version
    assert time.monotonic() - started < 15  # woken by the change, not by the 30 s timeout


# ---------------------------------------------------------------- the provider


def test_the_provider_needs_an_annotator_and_known_args() -> None:
    with pytest.raises(DataError, match="annotator=NAME"):
        get_model("uxbench/human", memoize=False)
    with pytest.raises(DataError, match="unknown model argument"):
        get_model("uxbench/human", memoize=False, annotator="r", colour="blue")


def test_other_prompts_are_refused_and_answers_come_back_spelled_by_the_template() -> None:
    model = get_model("uxbench/human", memoize=False, annotator="unit", undo_seconds=0)
    api = model.api
    assert isinstance(api, HumanAPI) and api.server.url.startswith("http://127.0.0.1:")
    try:
        with pytest.raises(DataError, match="judge and GRM prompts"):
            asyncio.run(model.generate([ChatMessageUser(content="写一首诗")]))

        async def answered(prompt: str, label: str | None):  # the person answers as the item appears
            async def person() -> None:
                while (item := api.desk.state()["item"]) is None:
                    await asyncio.sleep(0.01)
                api.desk.answer(item["id"], label)

            output, _ = await asyncio.gather(model.generate([ChatMessageUser(content=prompt)]), person())
            return output

        json_prompt = rendered("judge_json_en.txt")
        output = asyncio.run(answered(json_prompt, "bad"))
        assert output.completion == '{"verdict": 0}'
        assert (
            parse_verdict(output.completion, load_template(builtin_path("judge_json_en.txt"))).label == "bad"
        )
        assert output.metadata["annotator"] == "unit" and output.metadata["skipped"] is False
        graded = asyncio.run(answered(rendered("grm_pointwise.txt"), "good"))
        assert judge(graded, {"good": ("好",), "bad": ("差",)}).verdict == "good"
        skipped = asyncio.run(answered(json_prompt, None))
        assert skipped.completion == "" and skipped.metadata["skipped"] is True
    finally:
        api.close()


# ---------------------------------------------------------------- the token gate


def test_every_request_needs_the_token_and_gets_strict_headers() -> None:
    gate = TokenGate(judging_app(Desk("r")), "secret-token", cookie="uxbench-1")
    with TestClient(gate, base_url="http://127.0.0.1") as client:
        assert client.get("/").status_code == 403
        assert client.get("/static/judge.js").status_code == 403
        assert client.get("/api/state?token=secret-token").status_code == 403  # the API wants the header
        assert client.get("/api/state", headers={TOKEN_HEADER: "wrong"}).status_code == 403
        page = client.get("/?token=secret-token")
        assert page.status_code == 200 and "uxbench-1=secret-token" in page.headers["set-cookie"]
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["referrer-policy"] == "no-referrer"
        assert client.get("/static/judge.js").status_code == 200  # now by the cookie
        assert client.get("/api/state", headers={TOKEN_HEADER: "secret-token"}).json()["item"] is None


@pytest.mark.integration
def test_a_person_grades_task2_replies_as_the_grader_role(tmp_path: Path) -> None:
    grader = get_model("uxbench/human", memoize=False, annotator="grader1", undo_seconds=0)
    desk = grader.api.desk
    seen: list[dict] = []

    def person() -> None:  # grades good, bad, good, bad as the replies come
        while len(seen) < 4:
            item = desk.state()["item"]
            if item is None or (seen and item["id"] == seen[-1]["id"]):
                time.sleep(0.01)
                continue
            seen.append(item)
            desk.answer(item["id"], "good" if len(seen) % 2 else "bad")

    thread = threading.Thread(target=person, daemon=True)
    thread.start()
    try:
        log = eval(
            task2_eval(data="sample"),
            model="mockllm/model",
            model_roles={"grader": grader},
            limit=4,
            log_dir=str(tmp_path),
            display="none",
        )[0]
    finally:
        grader.api.close()
    thread.join(timeout=5)
    assert log.status == "success"
    metrics = log.results.scores[0].metrics
    assert metrics["good_pct"].value == pytest.approx(0.5) and metrics["no_logprob_rate"].value == 1.0
    assert [item["total"] for item in seen] == [4] * 4 and sorted(i["number"] for i in seen) == [1, 2, 3, 4]
    assert all(item["turns"][-1]["role"] == "user" and item["reply"] for item in seen)
    assert [a["spelling"] for a in seen[0]["answers"]] == ["好", "差"]


def test_the_server_listens_on_loopback_only_and_refuses_other_hosts() -> None:
    server = LocalServer(judging_app(Desk("r"))).start()
    try:
        assert server.url.startswith("http://127.0.0.1:")
        page = httpx.get(server.url)
        assert page.status_code == 200 and "blind judging" in page.text
        assert httpx.get(server.url, headers={"Host": "evil.example"}).status_code == 400  # DNS rebinding
        assert httpx.get(server.url.split("?")[0]).status_code == 403
    finally:
        server.stop()


@pytest.mark.integration
def test_a_persons_console_shows_no_score_and_a_pause_is_one_line_keeping_the_held_skip(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    model = get_model("uxbench/human", memoize=False, annotator="rater1", undo_seconds=60)
    desk = model.api.desk

    def person() -> None:  # answers one item, skips the next (held), pauses on the third
        answered: list[int] = []
        while len(answered) < 3:
            item = desk.state()["item"]
            if item is None or item["id"] in answered:
                time.sleep(0.01)
                continue
            answered.append(item["id"])
            if len(answered) < 3:
                desk.answer(item["id"], "good" if len(answered) == 1 else None)
        desk.pause()

    thread = threading.Thread(target=person, daemon=True)
    thread.start()
    try:
        log = eval(task1_judge(data="sample"), model=model, limit=6, log_dir=str(tmp_path), display="plain")[
            0
        ]
    finally:
        model.api.close()
    thread.join(timeout=5)
    console = capfd.readouterr()
    # Inspect's display reads score_display to decide whether to show running metrics; the
    # plain display's progress lines (throttled to one per 5 s) then carry no avg_acc
    assert "acc" not in console.out
    assert log.eval.config.score_display is False
    assert log.status == "error" and "Traceback" not in console.out + console.err
    where = Path(log.location).resolve()
    assert f"Resume with: inspect eval-retry {where} --log-dir {where.parent}" in console.err
    assert console.err.count("answer at http") == 1  # the link once (the plain display)
    # the log holds only the answered items (the rest are left for eval-retry), and says it was paused
    for read in (log, read_eval_log(log.location)):
        assert [s.error for s in read.samples] == [None, None] and desk.sent == 2  # the held skip is in
        assert read.error.message.startswith("Paused by rater1 (uxbench/human): ")
        assert "not answered, left for inspect eval-retry" in read.error.message and not read.error.traceback
    kept = log.samples
    skipped = next(s for s in kept if s.output.metadata["skipped"])
    assert skipped.scores["judge_verdict"].explanation.startswith("skipped by rater1")
