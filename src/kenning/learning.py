"""Confidence learning: use raises confidence, time lowers episodic memories, outcomes judge it.

Pure functions over timestamps, so no job has to run hourly: the stored confidence is the value
at the memory's last touch (creation, update or use), and the value now is derived from it.
Imports nothing, because hook processes use it on their hot path.

Two kinds of memory age differently. Standing knowledge (a decision, a preference, a pattern, a
gotcha, a discovery of where things live in the code) stays true until something says
otherwise: it ends by supersession, contradiction, failure or code drift, never because a week
passed without a session. Episodic memories (a checkpoint, a session, context, an outcome, an
insight) describe a moment and fade.
"""

HOUR_MS = 3_600_000

ACCESS_BOOST = 0.03  # per use (fetched on purpose, or injected and then acted on), to CEILING
DECAY_PER_HOUR = 0.005  # episodic kinds only, without use, floored at FLOOR
CEILING = 1.0
FLOOR = 0.1
# Kinds that hold until superseded, contradicted or failed: time alone does not lower them. A
# discovery (where something lives in the code, what a file is for) holds until that code
# changes, which code drift tracks, however long nobody needed it.
STANDING = frozenset({"decision", "preference", "pattern", "gotcha", "discovery"})
# Kinds that record a moment: they lose DECAY_PER_HOUR while unused.
EPISODIC = frozenset({"checkpoint", "session", "context", "outcome", "insight"})
# Feedback from real outcomes after a memory was put in front of the model (per session).
PASS_BOOST = 0.05
FAIL_PENALTY = 0.05


def anchor_ms(created_at: int, updated_at: int, last_accessed_at: int | None) -> int:
    """When the stored confidence was last set: the latest of creation, update and access."""
    return max(created_at, updated_at, last_accessed_at or 0)


def decays(type: str) -> bool:
    """Whether a memory of this kind loses confidence as time passes: episodic kinds do,
    standing ones (``STANDING``) do not. A kind this module does not know decays, the cautious
    default for something that may be transient."""
    return type not in STANDING


def decayed(confidence: float, since_ms: int, now_ms: int, type: str) -> float:
    """``confidence`` set at ``since_ms``, as of ``now_ms``, for a memory of kind ``type``:
    unchanged for standing kinds; for episodic ones -0.005 per hour, never below the floor (a
    memory stored below the floor stays where it was)."""
    if not decays(type):
        return confidence
    hours = max(0, now_ms - since_ms) / HOUR_MS
    floor = min(confidence, FLOOR)
    return max(floor, confidence - DECAY_PER_HOUR * hours)


def judge(steps: list[tuple[str, bool]]) -> tuple[float, str]:
    """Judge one memory's trajectory in a session from the checks run after its injection:
    ``(suite, passed)`` in order, one per run of a test suite, build, linter or type checker
    (other commands are no evidence: a ``grep`` that finds nothing says nothing about it).

    Per suite the last run decides, so a suite that failed and was then fixed counts as a pass.
    A suite that ends failing lowers the memory; otherwise a suite that ends passing raises it."""
    last: dict[str, bool] = {}
    for suite, ok in steps:
        last.pop(suite, None)  # re-inserted: the order of the suites' last runs
        last[suite] = ok
    failing = [s for s, ok in last.items() if not ok]
    passing = [s for s, ok in last.items() if ok]
    if failing:
        return -FAIL_PENALTY, (f"{len(failing)} failing command(s) after it was injected "
                               f"({', '.join(failing)})")
    if passing:
        return PASS_BOOST, (f"{len(passing)} passing test run(s) after it was injected "
                            f"({', '.join(passing)})")
    return 0.0, "no outcome followed"
