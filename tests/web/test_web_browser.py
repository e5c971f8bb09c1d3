"""The people-in-the-loop pages in a real browser (Playwright driving the system Chromium).

A six-item blind judging run clicked end to end, with an undo and a pause resumed by
`eval_retry`; the explorer's filter, record view and exclusion round-tripping into a task run;
hostile strings in records shown as text. Screenshots at 1400 and 390 px go to pytest's tmp dir.
"""

import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.records import write_jsonl
from inspect_ai import eval, eval_retry

from uxbench.data.dataset import RELEASE_FILES
from uxbench.data.exclusions import read_exclusions
from uxbench.data.records import Turn, judge_record
from uxbench.data.templates import builtin_path, load_template
from uxbench.judge_answer.prompt import builtin_templates, read_judge_prompt
from uxbench.providers.human import item_view
from uxbench.scorers.grm import OMITTED_TURNS, Rung, render
from uxbench.tasks.task1_judge import task1_judge
from uxbench.web.explore import Explorer, explore_app, load_entries
from uxbench.web.judging import Desk, judging_app
from uxbench.web.server import LocalServer

pytestmark = [pytest.mark.integration, pytest.mark.browser]


CHROMIUM = Path("/usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
expect = sync_api.expect
expect.set_options(timeout=30_000)  # the machine may be busy; a page waits for the eval
WIDTHS = {"wide": (1400, 900), "narrow": (390, 844)}
URL = re.compile(r"http://127\.0\.0\.1:\d+/\?token=[\w-]+")
HOSTILE = [
    '<img src=x onerror="window.__pwned=1">',
    "<script>window.__pwned=2</script>",
    '"><svg onload=window.__pwned=3>',
    "{{7*7}} ${alert(1)} &lt;b&gt;",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Chromium not installed (/usr/bin/chromium; apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield launched
        launched.close()


def shoot(browser: Any, url: str, path: Path, ready: Callable[[Any], None]) -> None:
    """Screenshots of `url` at both widths, once `ready(page)` says the page is drawn."""
    for name, (width, height) in WIDTHS.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(url)
        ready(page)
        page.screenshot(path=str(path.with_name(f"{path.name}-{name}.png")))
        page.close()


class Run:
    """An eval in a background thread, as a person's terminal would run it."""

    def __init__(self, start: Callable[[], Any]) -> None:
        self.result: list[Any] = []
        self.thread = threading.Thread(target=lambda: self.result.extend(start()), daemon=True)
        self.thread.start()

    def log(self) -> Any:
        self.thread.join(timeout=60)
        assert self.result, "the eval did not finish"
        return self.result[0]


def page_url(capsys: pytest.CaptureFixture[str], seen: list[str]) -> str:
    """The judging page's link, as the provider prints it to the terminal."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        seen.extend(URL.findall(capsys.readouterr().err))
        if seen:
            return seen[-1]
        time.sleep(0.05)
    raise AssertionError("uxbench/human printed no link")


def resumed_on_the_same_page(page: Any, capsys: pytest.CaptureFixture[str], urls: list[str]) -> None:
    """Wait for the retry's first item: the paused page stopped asking (its server went away), so
    open the link again, the new one if the provider printed one (a new process does)."""
    deadline = time.monotonic() + 30
    while not page.locator("#item").is_visible():
        new = [url for url in URL.findall(capsys.readouterr().err) if url not in urls]
        urls.extend(new)
        try:
            page.goto(urls[-1])
        except sync_api.Error:  # the retry's server is not up yet
            pass
        page.wait_for_timeout(300)
        assert time.monotonic() < deadline, "the retry showed no item"


def answer_by_reply(page: Any, number: int, wrong: bool = False, click: bool = False) -> None:
    """Answer item `number` from its reply's marker (GOODREPLY / BADREPLY), rightly or not, by key or
    by button, and wait until the page has moved on."""
    expect(page.locator("#item")).to_be_visible()
    expect(page.locator("#progress-text")).to_have_text(f"Item {number} of 6")
    liked = ("GOODREPLY" in page.locator(".turn.marked .bubble").inner_text()) != wrong
    if click:
        page.click(f"button.answer.{'good' if liked else 'bad'}")
    else:
        page.keyboard.press("1" if liked else "2")
    expect(page.locator("#progress-text")).not_to_have_text(f"Item {number} of 6")


def test_blind_judging_with_undo_and_a_pause_resumed_by_eval_retry(
    browser: Any, judge_dir: Callable[[int, int], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = judge_dir(3, 3)  # liked and disliked interleave: items 1, 3, 5 liked; 2, 4, 6 disliked
    logs = tmp_path / "logs"
    args = {"annotator": "rater1", "undo_seconds": 30}
    first = Run(
        lambda: eval(
            task1_judge(data=str(data)),
            model="uxbench/human",
            model_args=args,
            log_dir=str(logs),
            display="none",
        )
    )
    urls: list[str] = []
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(page_url(capsys, urls))

    answer_by_reply(page, 1, wrong=True)
    expect(page.locator("#held")).to_contain_text("Item 1: 差")
    shoot(browser, urls[-1], tmp_path / "judge", lambda p: expect(p.locator(".turn.marked")).to_be_visible())
    assert "sample_ux_judge_" not in page.content()  # blind: no cid anywhere on the page
    page.keyboard.press("z")  # undo: item 1 is back
    answer_by_reply(page, 1)
    answer_by_reply(page, 2, click=True)
    expect(page.locator("#progress-text")).to_have_text("Item 3 of 6")
    page.click("#pause")
    page.click("#pause-yes")
    expect(page.locator("#message-title")).to_have_text("Paused")

    paused = first.log()
    assert paused.status == "error" and paused.error.message.startswith("Paused by rater1")
    log = Path(paused.location).resolve()
    said = "paused by rater1; the answers given so far are in the log. Resume with: inspect eval-retry"
    assert f"{said} {log} --log-dir {log.parent}" in capsys.readouterr().err  # one line, the full command
    assert page.locator("#message-code").inner_text() == f"inspect eval-retry {log} --log-dir {log.parent}"
    assert [s.error for s in paused.samples] == [None, None]  # the answered items only
    # paused, the page is final: it stops asking, so no "lost its connection" and no errors, and
    # Pause is off (the server went away with the run)
    page.wait_for_timeout(2000)
    assert page.locator("#offline").is_hidden() and not errors, errors
    expect(page.locator("#pause")).to_be_disabled()
    assert "2 answers this sitting" in page.locator("#message-text").inner_text()

    second = Run(lambda: eval_retry(paused, log_dir=str(logs), display="none"))
    resumed_on_the_same_page(page, capsys, urls)
    errors.clear()  # opening the link before the retry's server was up
    answer_by_reply(page, 3)
    answer_by_reply(page, 4, wrong=True)
    expect(page.locator("#progress-text")).to_have_text("Item 5 of 6")
    page.click("#skip")  # no answer: scored as unreadable
    answer_by_reply(page, 6)
    expect(page.locator("#message-title")).to_have_text("Answer recorded")
    page.screenshot(path=str(tmp_path / "judge-held-wide.png"))
    page.keyboard.press("Enter")  # send the last answer now
    log = second.log()
    expect(page.locator("#message-title")).to_contain_text("Finished")
    page.wait_for_timeout(2000)
    assert page.locator("#offline").is_hidden() and not errors, errors
    page.close()

    assert log.status == "success" and len(log.samples) == 6
    assert log.eval.model == "uxbench/human" and log.eval.model_args["annotator"] == "rater1"
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    # liked: 1 right, 3 right, 5 skipped; disliked: 2 right, 4 wrong, 6 right
    assert metrics["good_acc"] == pytest.approx(2 / 3) and metrics["bad_acc"] == pytest.approx(2 / 3)
    assert metrics["avg_acc"] == pytest.approx(2 / 3) and metrics["parse_fail_rate"] == pytest.approx(1 / 6)
    outputs = {s.id: s.output for s in log.samples}
    assert all(o.metadata["annotator"] == "rater1" for o in outputs.values())
    assert [o.metadata["skipped"] for o in outputs.values()].count(True) == 1


GUIDE = "1. Read the whole conversation first.\n2. Judge the reply as its user would.\n3. 看不出来就跳过。\n"


def test_a_study_run_opens_on_the_guidelines_and_mixes_in_a_gold_item(
    browser: Any, judge_dir: Callable[[int, int], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = judge_dir(2, 2)
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [{"cid": "check", "history": [], "query": "一加一？", "response": "GOODREPLY 二", "ground_truth": 1}],
    )
    guide = tmp_path / "guide.md"
    guide.write_text(GUIDE, encoding="utf-8")
    args = {"annotator": "rater1", "undo_seconds": 0, "gold": str(gold), "guidelines": str(guide)}
    run = Run(
        lambda: eval(
            "uxbench/task1_judge",
            task_args={"data": str(data)},
            model="uxbench/human",
            model_args=args,
            log_dir=str(tmp_path / "logs"),
            display="none",
        )  # fmt: skip
    )
    urls: list[str] = []
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(page_url(capsys, urls))
    expect(page.locator("#guidelines")).to_be_visible()  # before the first item, whatever is waiting
    expect(page.locator("#guidelines-text")).to_have_text(GUIDE)
    expect(page.locator("#item")).to_be_hidden()
    page.keyboard.press("1")  # no answer while the guidelines are up
    drawn = "#guidelines-done"
    shoot(browser, urls[-1], tmp_path / "guidelines", lambda p: expect(p.locator(drawn)).to_be_visible())
    page.click("#guidelines-done")
    shoot(browser, urls[-1], tmp_path / "study", lambda p: expect(p.locator(".turn.marked")).to_be_visible())
    for number in range(1, 6):  # 4 records and the gold item, blind among them
        expect(page.locator("#progress-text")).to_have_text(f"Item {number} of 5")
        if number == 2:  # the guidelines stay one click away
            page.click("#guidelines-open")
            expect(page.locator("#guidelines-done")).to_have_text("Back")
            page.click("#guidelines-done")
            expect(page.locator("#item")).to_be_visible()
        liked = "GOODREPLY" in page.locator(".turn.marked .bubble").inner_text()
        page.keyboard.press("1" if liked else "2")
    log = run.log()
    page.close()
    assert log.status == "success" and len(log.samples) == 5
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert metrics["avg_acc"] == 1.0 and metrics["gold_acc"] == 1.0
    assert log.eval.metadata["study"]["guidelines"]["text"] == GUIDE


def test_explorer_filter_record_and_exclusion_round_trip_into_a_task(browser: Any, tmp_path: Path) -> None:
    entries, problems = load_entries("sample")
    exclude = tmp_path / "exclusions.jsonl"
    server = LocalServer(explore_app(Explorer(entries, problems, exclude, "curator", "sample"))).start()
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url)
        expect(page.locator("#total")).to_have_text("48 records")
        page.locator('.facet button[data-facet="failure_dimension"][data-value="冗余啰嗦"]').click()
        expect(page.locator("#total")).to_have_text("4 records")
        page.locator('.facet button[data-facet="set"][data-value="task1_bad"]').click()
        expect(page.locator("#total")).to_have_text("2 records")
        row = page.locator(".row").first
        cid = row.locator(".cid").inner_text()
        row.click()
        expect(page.locator("#d-cid")).to_have_text(cid)
        expect(page.locator("#d-chat .turn.marked").last).to_contain_text("judged reply")
        page.fill("#reason", "the reply is cut off mid-sentence")
        page.click("#exclude")
        expect(page.locator("#d-exclusion")).to_contain_text("by curator")
        expect(page.locator(".row .chip.excluded")).to_have_count(1)
        page.fill("#q", cid)
        expect(page.locator("#total")).to_have_text("1 record")
        shoot(
            browser,
            server.url,
            tmp_path / "explore",
            lambda p: expect(p.locator(".row").first).to_be_visible(),
        )
        narrow = browser.new_page(viewport=dict(zip(("width", "height"), WIDTHS["narrow"], strict=True)))
        narrow.goto(server.url)
        # a chosen filter brings the results into view (the facets fill a phone's screen)
        narrow.locator("#filters summary").click()
        narrow.locator('.facet button[data-facet="set"][data-value="task1_bad"]').click()
        expect(narrow.locator("#total")).to_have_text("12 records")
        expect(narrow.locator(".row").first).to_be_in_viewport()
        # its first row below the sticky top bar, not under it
        narrow.wait_for_function(
            "() => document.querySelector('.row').getBoundingClientRect().top"
            " >= document.querySelector('.topbar').getBoundingClientRect().bottom"
        )
        narrow.locator(".row").nth(2).click()
        expect(narrow.locator("#back")).to_be_visible()
        narrow.screenshot(path=str(tmp_path / "explore-record-narrow.png"))
        # an opened record is a history entry: the phone's Back closes it and stays on the page
        address = narrow.url
        narrow.go_back()
        expect(narrow.locator("#detail")).to_be_hidden()
        assert narrow.url.split("#")[0] == address.split("#")[0] and "#record=" in address
        narrow.go_forward()
        expect(narrow.locator("#detail")).to_be_visible()
        page.screenshot(path=str(tmp_path / "explore-record-wide.png"))
        narrow.close()
        page.close()
    finally:
        server.stop()

    assert read_exclusions(exclude)[cid].reason == "the reply is cut off mid-sentence"
    # in a thread, like every eval here: Playwright's sync API keeps an event loop in this one
    task = task1_judge(data="sample", exclude=str(exclude))
    log = Run(lambda: eval(task, model="mockllm/model", log_dir=str(tmp_path), display="none")).log()
    assert log.status == "success" and log.eval.metadata["excluded_records"] == 1
    assert cid not in {s.id for s in log.samples} and len(log.samples) == 23


def test_hostile_strings_in_records_render_as_text(browser: Any, tmp_path: Path) -> None:
    records = [
        {
            "cid": f"hostile_{i}",
            "ground_truth": -1,
            "history": [{"role": "user", "content": text}, {"role": "assistant", "content": text}],
            "query": text,
            "response": text,
            "failure_dimension": text,
            "scenario": text,
        }
        for i, text in enumerate(HOSTILE)
    ]
    data = tmp_path / "data"
    data.mkdir()
    write_jsonl(data / RELEASE_FILES["task1_judge_bad"], records)
    write_jsonl(data / RELEASE_FILES["task1_judge_good"], [{**records[0], "cid": "ok", "ground_truth": 1}])
    for name in ("task2_eval", "task3_recovery"):
        (data / RELEASE_FILES[name]).write_text("")  # empty sets: listed as unreadable, not fatal
    entries, problems = load_entries(str(data))
    explorer = LocalServer(
        explore_app(Explorer(entries, problems, tmp_path / "x.jsonl", "t", str(data)))
    ).start()
    desk = Desk("t")
    template = load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad"))
    for raw in records:
        record = judge_record(raw)
        prompt = template.render(
            history=template.history_text(record.history), query=record.query, response=record.response
        )
        desk.add(item_view(read_judge_prompt(prompt, builtin_templates())))
    judging = LocalServer(judging_app(desk)).start()
    try:
        page = browser.new_page()
        page.goto(explorer.url)
        expect(page.locator("#problems")).to_be_visible()  # the two empty files are listed
        page.fill("#q", "hostile_0")
        expect(page.locator("#total")).to_have_text("1 record")
        page.locator(".row").first.click()
        expect(page.locator("#d-cid")).to_have_text("hostile_0")
        bubbles = page.locator("#d-chat .bubble")
        assert bubbles.all_inner_texts() == [HOSTILE[0]] * 4
        for i, text in enumerate(HOSTILE):
            page.fill("#q", f"hostile_{i}")
            expect(page.locator(".row .cid")).to_have_text([f"hostile_{i}"])
            page.locator(".row").first.click()
            expect(page.locator("#d-cid")).to_have_text(f"hostile_{i}")
            expect(page.locator("#d-chat .bubble").last).to_have_text(text)
        page.fill("#q", "")
        expect(page.locator("#total")).to_have_text("5 records")
        assert page.locator("#facets").inner_text().count(HOSTILE[1]) == 2  # failure dimension, scenario
        page.goto(judging.url)
        for text in HOSTILE:
            expect(page.locator(".turn.marked .bubble")).to_have_text(text)
            assert page.locator("#conversation img, #conversation script, #conversation svg").count() == 0
            page.keyboard.press("2")
        expect(page.locator("#message-title")).to_have_text("Answer recorded")
        assert page.evaluate("() => window.__pwned") is None
        page.close()
    finally:
        explorer.stop()
        judging.stop()


def test_three_class_and_grader_items_show_their_own_answers(browser: Any, tmp_path: Path) -> None:
    history = (Turn("user", "问一"), Turn("assistant", "答一"))
    history += (Turn("user", "问二"), Turn("assistant", "答二"))
    judge = load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad", "neutral"))
    three = judge.render(history=judge.history_text(history), query="第三问", response="第三答")
    grm = load_template(builtin_path("grm_pointwise.txt"))
    graded = render(grm, history, "第三问", "修好的回复", Rung(turns=2))  # the grader's cut: a note
    desk = Desk("t", undo_seconds=60)
    for prompt in (three, graded):
        desk.add(item_view(read_judge_prompt(prompt, builtin_templates())))
    server = LocalServer(judging_app(desk)).start()
    try:
        page = browser.new_page()
        page.goto(server.url)
        expect(page.locator(".answer .spelling")).to_have_text(["好", "差", "中"])
        expect(page.locator("#question")).to_contain_text("中")
        page.keyboard.press("3")
        expect(page.locator("#held")).to_contain_text("中")
        expect(page.locator(".answer .spelling")).to_have_text(["好", "差"])
        expect(page.locator("#note")).to_have_text(OMITTED_TURNS.format(n=2))
        expect(page.locator("#conversation .bubble")).to_have_text(["问二", "答二", "第三问", "修好的回复"])
        page.close()
    finally:
        server.stop()
