"""Code drift: memories anchored to the files and symbols they describe, marked stale when that
code changes (see docs/code-drift.md)."""
