"""The replay's clock: put on ``PYTHONPATH`` of a hook process, it shifts the wall clock
(``time.time``, ``time.time_ns``) so that the process starts at ``REPLAY_NOW_MS`` and then runs
at real speed. Stories span weeks; Kenning reads time only through these two functions, so its
decay and validity see the story's days without any change to Kenning."""

import os
import time

_start = os.environ.get("REPLAY_NOW_MS")
if _start:
    _real_ns = time.time_ns
    _offset = int(_start) * 1_000_000 - _real_ns()

    def _time_ns() -> int:
        return _real_ns() + _offset

    def _time() -> float:
        return (_real_ns() + _offset) / 1e9

    time.time_ns = _time_ns
    time.time = _time
