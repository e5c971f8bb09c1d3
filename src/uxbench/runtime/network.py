"""Checks on network addresses a user gives, made before a library would wait on them."""

from __future__ import annotations

import socket

from uxbench.runtime.errors import DataError


def reachable(address: str) -> None:
    """Fail fast on a Ray cluster's HOST:PORT nobody listens on (Ray itself keeps retrying for
    minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # auto, or a Ray Client URL: left to Ray
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except OSError as error:
        raise DataError(f"Ray cluster {address}: cannot connect ({error.strerror or error})") from None
