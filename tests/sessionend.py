"""Waiting for the detached session-end worker that a SessionEnd hook starts."""

from __future__ import annotations

import time

from kenning.journal import detached


def wait_for_session_ends(location: str, timeout_s: float = 180.0) -> None:
    """Return once no session end is queued for the store at ``location`` and no worker holds
    the lock; fail after ``timeout_s`` (a worker that never finishes is a bug, not slowness)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not detached.pending(location) and not detached.busy(location):
            return
        time.sleep(0.05)
    raise AssertionError(f"session-end worker still busy after {timeout_s} s")
