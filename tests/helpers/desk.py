"""A person at the `uxbench/human` desk, answered from a thread: the tests' stand-in for a browser."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from inspect_ai.model import Model, get_model


def human(annotator: str, **study: Any) -> Model:
    """A fresh `uxbench/human` model for `annotator`, answers sent at once (no undo wait);
    `study`: the study's model args (team, overlap, gold, guidelines, …)."""
    return get_model("uxbench/human", memoize=False, annotator=annotator, undo_seconds=0, **study)


def at_the_desk(model: Model, answer: Callable[[dict], str | None], items: int) -> threading.Thread:
    """A person answering `items` items of the desk behind `model`, each as `answer(item)` says."""
    desk = model.api.desk
    seen: list[int] = []

    def person() -> None:
        desk.read_guidelines()  # when there are some: shown before the first item
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
