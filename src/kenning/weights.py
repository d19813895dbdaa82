"""Default ranking weights, importable without dataclasses or ``re`` so the prompt hook ranks
with exactly the numbers ``kenning.ranking.RankWeights`` uses."""

CONFIDENCE_WEIGHT = 0.15
RECENCY_WEIGHT = 0.10
RECENCY_HALF_LIFE_DAYS = 30.0
OUTCOME_FACTOR: tuple[tuple[str, float], ...] = (("failed", 0.85), ("partial", 0.95))
# A memory whose successor has taken over ranks far below it in recall; the prompt hook, the
# briefing and MEMORY.md leave it out altogether.
SUPERSEDED_FACTOR = 0.3
# A memory whose code changed since it was recorded (``Memory.drift``) may no longer hold: it
# ranks below what is still true (stale), far below when its code is gone (obsolete).
DRIFT_FACTOR: tuple[tuple[str, float], ...] = (("stale", 0.6), ("obsolete", 0.3))
# What a user said, kept word for word ("context" memories under this topic): findable when the
# rules missed a lesson, but never ahead of a distilled memory as relevant as it.
EPISODE_TOPIC = "conversation"
EPISODE_FACTOR = 0.5
GRAPH_ALPHA = 0.9
DAY_MS = 86_400_000


# How a track record (``kenning.distil``) opens: it repeats its memory's words, so the prompt
# hook shows the memory, never the record beside or instead of it.
TRACK_PREFIX = "Track record: "


def track_record_line(mtype: str, summary: str) -> bool:
    """Whether a memory is a track record, told by its type and summary alone (what the prompt
    hook's store fallbacks read; ``distil.is_track_record`` reads its metadata)."""
    return mtype == "outcome" and summary.startswith(TRACK_PREFIX)


def superseded(valid_to: int | None, now_ms: int) -> bool:
    """Whether a memory no longer holds at ``now_ms``: the one rule every channel applies
    (``Memory.current_at`` is its negation)."""
    return valid_to is not None and valid_to <= now_ms


def episodic(mtype: str, topic: str | None) -> bool:
    """Whether a memory is a kept user turn (an episode), not a distilled lesson."""
    return mtype == "context" and topic == EPISODE_TOPIC


def record(mtype: str, topic: str | None) -> bool:
    """Whether a memory records what happened in a session (a kept user turn, or a session's
    summary) rather than a lesson: findable, but never briefed, curated into MEMORY.md or shown
    more than once per prompt, and only for a prompt that shares enough of its words."""
    return mtype == "session" or episodic(mtype, topic)


def recency(created_at_ms: int, now_ms: int, half_life_days: float = RECENCY_HALF_LIFE_DAYS
            ) -> float:
    """1.0 for a memory made now, halving every ``half_life_days``."""
    age_days = max(0.0, (now_ms - created_at_ms) / DAY_MS)
    return float(0.5 ** (age_days / half_life_days))
