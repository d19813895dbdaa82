"""Confidence learning: use raises confidence, time lowers it, outcomes judge it.

Pure functions over timestamps, so no job has to run hourly: the stored confidence is the value
at the memory's last touch (creation, update or access), and the value now is derived from it.
Imports nothing, because hook processes use it on their hot path.
"""

HOUR_MS = 3_600_000

ACCESS_BOOST = 0.03  # per access, capped at CEILING
DECAY_PER_HOUR = 0.005  # without access, floored at FLOOR
CEILING = 1.0
FLOOR = 0.1
# Feedback from real outcomes after a memory was put in front of the model (per session).
PASS_BOOST = 0.05
FAIL_PENALTY = 0.05


def anchor_ms(created_at: int, updated_at: int, last_accessed_at: int | None) -> int:
    """When the stored confidence was last set: the latest of creation, update and access."""
    return max(created_at, updated_at, last_accessed_at or 0)


def decayed(confidence: float, since_ms: int, now_ms: int) -> float:
    """``confidence`` set at ``since_ms``, as of ``now_ms``: -0.005 per hour, never below the
    floor (a memory stored below the floor stays where it was)."""
    hours = max(0, now_ms - since_ms) / HOUR_MS
    floor = min(confidence, FLOOR)
    return max(floor, confidence - DECAY_PER_HOUR * hours)


# Commands whose success says the work is right (a passing test run raises what was injected).
TEST_COMMANDS = frozenset(
    {"pytest", "tox", "nox", "jest", "vitest", "mocha", "rspec", "phpunit", "ctest"}
)
TEST_SUBCOMMANDS = frozenset({"test", "tests", "check", "verify"})


def is_test_command(head: list[str]) -> bool:
    """True for ``pytest ...``, ``npm test``, ``cargo test``, ``go test``, ``make check``..."""
    words = [w for w in head if w not in {"python", "python3", "uv", "run", "npx", "-m", "poetry"}]
    if not words:
        return False
    if words[0] in TEST_COMMANDS:
        return True
    return len(words) > 1 and words[1] in TEST_SUBCOMMANDS


def judge(steps: list[tuple[str, bool]]) -> tuple[float, str]:
    """Judge one memory's trajectory in a session from the tool outcomes that followed its
    injection: ``(kind, ok)`` with kind ``test`` or ``command``. A failing command lowers it, a
    passing test raises it; a failure later fixed by a passing test counts as a pass."""
    passed = [k for k, ok in steps if ok and k == "test"]
    failed = [k for k, ok in steps if not ok]
    last_test = next((ok for k, ok in reversed(steps) if k == "test"), None)
    if passed and last_test:
        return PASS_BOOST, f"{len(passed)} passing test run(s) after it was injected"
    if failed:
        return -FAIL_PENALTY, f"{len(failed)} failing command(s) after it was injected"
    return 0.0, "no outcome followed"
