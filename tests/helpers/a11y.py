"""Accessibility checks for the browser tests: axe-core's rules on a page, and its Tab order.

axe-core is vendored (tests/helpers/axe/, MPL-2.0, see its NOTICE) so the browser tests stay
offline; it is injected into the page under test through the DevTools protocol, which the
pages' content security policy (script-src 'self') does not govern.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "axe" / "axe.min.js"
AXE_INTEGRITY = "sha256-KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="  # axe-core 4.14.1 (sri-history.json)
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    """The vendored axe-core, refused if it is not the file its NOTICE names."""
    data = AXE.read_bytes()
    found = "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
    if found != AXE_INTEGRITY:
        raise AssertionError(f"{AXE}: integrity {found}, expected {AXE_INTEGRITY} (see NOTICE beside it)")
    return data.decode("utf-8")


def violations(page: Any, impacts: tuple[str, ...] = BLOCKING) -> list[str]:
    """axe-core's violations of the page as it is now, at `impacts`, one line each (rule, impact,
    what it asks, the elements at fault)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    result = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {', '.join(str(n['target']) for n in v['nodes'][:5])}"
        for v in result["violations"]
        if v["impact"] in impacts
    ]


# the focused element as `tag#id.class "text"` ("body" when nothing is focused)
_FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "body";
  const id = e.id ? "#" + e.id : "";
  const cls = typeof e.className === "string" && e.className ? "." + e.className.split(" ").join(".") : "";
  const text = (e.innerText || e.value || e.getAttribute("aria-label") || "").trim().slice(0, 30);
  return `${e.tagName.toLowerCase()}${id}${cls} "${text}"`;
}"""


def tab_order(page: Any, presses: int) -> list[str]:
    """What Tab focuses, press after press from the top of the page (see `_FOCUSED`)."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    found = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        found.append(page.evaluate(_FOCUSED))
    return found
