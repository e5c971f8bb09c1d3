"""Accessibility from the field: axe-core's rules (no serious or critical violation) on the blind
judging page and the data explorer at 1400 and 390 px, and every control reached and used with
the keyboard alone (the Tab order checked). The report's own check is in tests/report/test_report.py.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.a11y import tab_order, violations

from uxbench.data.records import Turn
from uxbench.data.templates import builtin_path, load_template
from uxbench.judge_answer.prompt import builtin_templates, read_judge_prompt
from uxbench.providers.human import item_view
from uxbench.web.explore import Explorer, explore_app, load_entries
from uxbench.web.judging import Desk, judging_app
from uxbench.web.server import LocalServer

pytestmark = pytest.mark.browser
CHROMIUM = Path("/usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
expect = sync_api.expect
WIDTHS = {"wide": (1400, 900), "narrow": (390, 844)}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Chromium not installed (/usr/bin/chromium; apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield launched
        launched.close()


def judge_view() -> dict[str, Any]:
    template = load_template(builtin_path("judge_default.txt"))
    turns = [Turn("user", "你好"), Turn("assistant", "你好！有什么事？")]
    text = template.render(history=template.history_text(turns), query="怎么退货", response="七天内可以退。")
    prompt = read_judge_prompt(text, builtin_templates())
    assert prompt is not None
    return item_view(prompt)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_judging_page_passes_axe_and_works_by_keyboard_alone(browser: Any, width: str) -> None:
    desk = Desk("rater1", undo_seconds=60)
    server = LocalServer(judging_app(desk)).start()
    page = browser.new_page(viewport=dict(zip(("width", "height"), WIDTHS[width], strict=True)))
    try:
        desk.add(judge_view())
        desk.add(judge_view())
        page.goto(server.url)
        expect(page.locator("#item")).to_be_visible()
        assert violations(page) == []
        # Tab reaches the answers, Skip and Pause (Undo is off until there is an answer to undo)
        order = tab_order(page, 12)
        for control in ('button.answer.good "好', 'button.answer.bad "差', "button#skip", "button#pause"):
            assert any(control in focused for focused in order), (control, order)
        assert order.index(next(f for f in order if "answer.good" in f)) < order.index(
            next(f for f in order if "#skip" in f)
        )  # the answers before the secondary buttons
        for _ in range(20):  # Tab to the first answer, then Enter on it
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.classList.contains('good')"):
                break
        page.keyboard.press("Enter")  # a focused answer button answers
        expect(page.locator("#held")).to_contain_text("Item 1: 好")
        assert desk.state()["held"]["label"] == "good"
        page.focus("#pause")  # Pause by keyboard: Enter, then Enter on "Pause now"
        page.keyboard.press("Enter")
        expect(page.locator("#pause-yes")).to_be_focused()  # the question took the button's place
        page.keyboard.press("Enter")
        expect(page.locator("#message-title")).to_have_text("Paused")
        expect(page.locator("#pause")).to_be_disabled()
        assert violations(page) == []  # the last screen too
    finally:
        desk.close()  # the page's long poll ends before the server stops
        page.close()
        server.stop()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_explorer_passes_axe_and_works_by_keyboard_alone(
    browser: Any, width: str, tmp_path: Path
) -> None:
    entries, problems = load_entries("sample")
    server = LocalServer(
        explore_app(Explorer(entries, problems, tmp_path / "x.jsonl", "curator", "sample"))
    ).start()
    try:
        page = browser.new_page(viewport=dict(zip(("width", "height"), WIDTHS[width], strict=True)))
        page.goto(server.url)
        expect(page.locator("#total")).to_have_text("48 records")
        assert violations(page) == []
        order = tab_order(page, 80)  # the filters, every facet value, then the search and the records
        assert order[0].startswith("summary") and any("input#q" in f for f in order), order
        assert any(f.startswith("button.row") for f in order), order
        if not page.locator("#filters").evaluate("d => d.open"):  # folded on a phone: open by keyboard
            page.focus("#filters summary")
            page.keyboard.press("Enter")
        page.focus(".facet button[data-facet='set'][data-value='task1_bad']")
        page.keyboard.press("Enter")  # a facet by keyboard
        expect(page.locator("#total")).to_have_text("12 records")
        page.focus(".row")
        page.keyboard.press("Enter")  # a record by keyboard
        expect(page.locator("#detail")).to_be_visible()
        expect(page.locator("#d-chat .turn.marked").last).to_be_visible()
        assert violations(page) == []
        page.focus("#reason")
        page.keyboard.type("cut off")
        page.keyboard.press("Enter")  # the exclusion form sends on Enter
        expect(page.locator("#d-exclusion")).to_contain_text("by curator")
        page.close()
    finally:
        server.stop()
