"""Special files for tests of readers that must refuse them."""

from __future__ import annotations

import errno
import os
import threading
import time
from pathlib import Path


def release_fifo_readers(path: Path, seconds: float = 3.0) -> None:
    """Open the FIFO's writing end if a reader waits on it, so a reader that should have refused it
    fails the test instead of hanging it."""

    def release() -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                return
            except OSError as error:
                if error.errno != errno.ENXIO:  # ENXIO: nobody reads yet
                    return
            time.sleep(0.05)

    threading.Thread(target=release, daemon=True).start()


def make_fifo(path: Path) -> None:
    os.mkfifo(path)
    release_fifo_readers(path)
