"""A person at the `uxbench/human` desk, answered from a thread: the tests' stand-in for a browser."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from inspect_ai.model import Model, get_model


def human(annotator: str) -> Model:
    """A fresh `uxbench/human` model for `annotator`, answers sent at once (no undo wait)."""
    return get_model("uxbench/human", memoize=False, annotator=annotator, undo_seconds=0)


def at_the_desk(model: Model, answer: Callable[[dict], str | None], items: int) -> threading.Thread:
    """A person answering `items` items of the desk behind `model`, each as `answer(item)` says."""
    desk = model.api.desk
    seen: list[int] = []

    def person() -> None:
        while len(seen) < items:
            item = desk.state()["item"]
            if item is None or item["id"] in seen:
                time.sleep(0.005)
                continue
            seen.append(item["id"])
            desk.answer(item["id"], answer(item))

    thread = threading.Thread(target=person, daemon=True)
    thread.start()
    return thread
