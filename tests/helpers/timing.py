"""A wall-clock limit for a test that must not hang (SIGALRM; the main thread, POSIX)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def time_limit(seconds: int, message: str) -> Iterator[None]:
    """Raise TimeoutError(`message`) if the block runs longer than `seconds`."""

    def expire(*_: object) -> None:
        raise TimeoutError(message)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
