"""A hook's time budget: past it the hook exits 0 with no output and Claude Code carries on
without it, except that an event the hook has to journal is journalled first.

The alarm is a ``SIGALRM`` interval timer. While the hook waits for its payload on stdin, only
a long guard (``STDIN_WAIT_MS``) runs: a client starved of CPU may write the payload seconds
after starting the hook, and that time is not the hook's. The budget proper starts once the
payload is read. For the events whose journal line is what learning reads (tool calls, stops),
a budget that runs out before that line is written is held (``HOLD_MS`` at most) until it is,
and the hook exits right after writing it: the optional work (drift checks) is what gives way,
never the event. Standard library only: this runs on every prompt and tool call.
"""

import os
import time

STDIN_WAIT_MS = 10_000  # the longest a hook waits for its payload (the client's own timeout
# for a hook is usually shorter and ends it first)
HOLD_MS = 3_000  # the longest an expired budget waits for the event's journal line
_state = {"holding": False, "expired": False}


def arm(budget_ms: int, event: str) -> None:
    """Exit 0 silently ``budget_ms`` from now (logged for ``kenning doctor``), or, while the
    event's journal line is held for (``hold``), once it is written."""
    try:
        import _signal  # type: ignore[import-not-found]  # typeshed has no stub for _signal
    except ImportError:  # pragma: no cover - no SIGALRM (Windows): rely on Claude's timeout
        return

    def expire(signum: int, frame: object) -> None:
        # No imports in a signal handler: the main flow may be inside one (the import lock
        # would deadlock); write the error log line with what is loaded already.
        first = not _state["expired"]
        if first:
            # no contextlib here: a signal handler must import nothing
            try:  # noqa: SIM105
                _log_expired(budget_ms, event)
            except BaseException:  # a failed log line must not stop the exit (or the hold)
                pass
        if first and _state["holding"]:
            _state["expired"] = True
            _signal.setitimer(_signal.ITIMER_REAL, HOLD_MS / 1000)
            return
        os._exit(0)

    _signal.signal(_signal.SIGALRM, expire)
    _signal.setitimer(_signal.ITIMER_REAL, budget_ms / 1000)


def _log_expired(budget_ms: int, event: str) -> None:
    """The error log line of an expired budget (modules loaded before the timer was armed)."""
    from kenning.journal import fastjson
    from kenning.places import lean

    directory = lean.data_dir()
    os.makedirs(directory, exist_ok=True)
    line = fastjson.dumps({
        "at_ms": time.time_ns() // 1_000_000, "where": f"hook {event}",
        "error": f"TimeoutError: hook exceeded its {budget_ms} ms budget", "trace": [],
    }) + "\n"
    fd = os.open(os.path.join(directory, "errors.jsonl"),
                 os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.write(fd, line.encode())
    os.close(fd)


def hold() -> None:
    """From now until ``journalled``, an expired budget waits for the event's journal line."""
    _state["holding"] = True


def journalled() -> None:
    """The event's journal line is written: if the budget ran out meanwhile, exit 0 now."""
    _state["holding"] = False
    if _state["expired"]:
        os._exit(0)


def disarm() -> None:
    """Cancel the alarm (a no-op where there is none) and forget any hold."""
    _state["holding"] = _state["expired"] = False
    try:
        import _signal
    except ImportError:  # pragma: no cover - no SIGALRM (Windows)
        return
    _signal.setitimer(_signal.ITIMER_REAL, 0)
