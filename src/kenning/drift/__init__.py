"""Code drift: memories anchored to the files and symbols they describe, marked stale when that
code changes (see docs/code-drift.md)."""


def drift_note(reason: str) -> str:
    """How a memory whose code changed since it was recorded is flagged where the model reads
    it: as possibly outdated, with what changed, so the model checks the code before relying on
    it."""
    return f"may be outdated, code changed since: {reason}"
