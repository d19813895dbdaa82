"""The hook entry point: read Claude Code's JSON on stdin, answer in its output protocol, and
fail open — on bad input, any internal error or past the budget, exit 0 with no output and log
the error where ``kenning doctor`` shows it. Nothing here may break a Claude Code session.
Every string of the payload is made storable (no lone surrogates, no NUL) before a handler sees
it, so nothing a hook journals can later be refused by the store."""

import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

# Claude Code's event names, and the kebab-case forms ``kenning hook`` also accepts.
EVENTS = (
    "SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact",
    "Stop", "SubagentStop", "SessionEnd",
)
_KEBAB = {
    "".join("-" + c.lower() if c.isupper() else c for c in e).lstrip("-"): e for e in EVENTS
}
MAX_STDIN = 16 * 1024 * 1024  # a bigger payload is read no further (and then not parsed)

# The per-prompt and per-tool events on a store file: their handlers write with ``os.write``
# on descriptors they close and read SQLite through one read-only connection, start no thread
# and register no exit handler, so once the answer is flushed the process holds nothing.
_LIGHT = frozenset({"UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop",
                    "SubagentStop"})
_done_light = False  # set when such a hook answered without an error
# The events whose journal line learning reads: an expired budget waits for it
# (``kenning.hooks.budget``).
_JOURNALLED = frozenset({"PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop"})


def event_name(arg: str) -> str | None:
    if arg in EVENTS:
        return arg
    return _KEBAB.get(arg.lower())


_BUDGET_KEYS = {
    "UserPromptSubmit": "prompt_budget_ms", "PostToolUse": "tool_budget_ms",
    "PostToolUseFailure": "tool_budget_ms", "Stop": "tool_budget_ms",
    "SubagentStop": "tool_budget_ms", "SessionStart": "session_start_budget_ms",
    "PreCompact": "compact_budget_ms", "SessionEnd": "session_end_budget_ms",
}


def _log(where: str, exc: BaseException) -> None:
    try:
        from kenning.errorlog import log_error

        log_error(where, exc)
    except BaseException:
        pass


def _read_stdin() -> str:
    data = sys.stdin.buffer.read(MAX_STDIN + 1)
    if len(data) > MAX_STDIN:
        raise ValueError(f"hook payload over {MAX_STDIN} bytes")
    return data.decode("utf-8", errors="replace")


def main(argv: list[str], *, stdin: str | None = None, budget: bool = True) -> int:
    """Run one hook. Returns 0 always (an unknown event is a usage error: 2, said on stderr)."""
    if not argv or event_name(argv[0]) is None:
        sys.stderr.write(
            "usage: kenning hook <event>\nevents: " + ", ".join(EVENTS)
            + " (or kebab-case: user-prompt-submit)\n"
        )
        return 2
    event = event_name(argv[0])
    assert event is not None
    now_ms = time.time_ns() // 1_000_000  # the one clock read; handlers get it injected
    try:
        from kenning import config
        from kenning.hooks import budget as clock
        from kenning.hooks import handlers
        from kenning.journal import fastjson

        key = _BUDGET_KEYS[event]
        default_budget = config.integer(config.DEFAULTS["hooks"], key)
        if budget:  # armed before reading anything: a stuck stdin cannot hold us either
            clock.arm(max(clock.STDIN_WAIT_MS, default_budget), event)
        text = _read_stdin() if stdin is None else stdin
        if budget:  # the budget is the hook's own time, from the payload on
            if event in _JOURNALLED:
                clock.hold()
            clock.arm(default_budget, event)
        payload = fastjson.loads(text)
        if stdin is not None or fastjson.suspect(text):
            # before any handler sees it: a lone surrogate or NUL journalled as is would be
            # refused by the store at ingestion
            payload = fastjson.clean(payload)
        if not isinstance(payload, dict):
            raise ValueError("hook payload is not a JSON object")
        cwd = payload.get("cwd")
        settings = handlers.settings_for(cwd if isinstance(cwd, str) and cwd else None)
        if budget and settings[key] != default_budget:
            clock.arm(config.integer(settings, key), event)
        if not settings["enabled"]:
            return 0
        out = handlers.handle(event, payload, settings, now_ms)
        if budget:  # the answer is ready: the alarm must not kill us while we write it
            clock.disarm()
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
        global _done_light
        _done_light = event in _LIGHT and "://" not in handlers.store_location(settings)
    except BaseException as exc:  # fail open, whatever happened
        if budget:
            _disarm_quietly()
        if isinstance(exc, SystemExit) and exc.code in (0, None):
            return 0
        _log(f"hook {event}", exc)
    return 0


def _disarm_quietly() -> None:
    """Cancel the budget alarm after a failure (its module may not have been loaded)."""
    try:
        from kenning.hooks import budget

        budget.disarm()
    except BaseException:  # failing open must not fail
        pass


def run(argv: list[str]) -> "NoReturn":
    """The hook commands' entry: ``main``, then, for a light hook that answered, an exit that
    skips the interpreter's teardown (nothing is left to finish, see ``_LIGHT``). The teardown
    of the modules a prompt hook imported cost it about 3 ms of a 20 ms answer (measured cold,
    side by side), and Claude Code waits for the process to end, not for its output."""
    rc = main(argv)
    if _done_light:
        from kenning.terminal import exit_flushed  # nothing to load but the module

        exit_flushed(rc)
    sys.exit(rc)
