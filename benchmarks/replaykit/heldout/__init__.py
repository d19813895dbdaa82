"""The held-out stories: written from public material that nobody on the project wrote (issue
threads, review comments, instruction files, commit histories and CI logs of public
repositories), by writers who did not look at Kenning's capture code, and frozen at their first
commit (recorded in ``benchmarks/README.md``).

Nobody reads these while changing ``src/``: they measure what the code does on material it was
never shaped by. No source (``Story.sources``) of a held-out story feeds a dev story, and CI
fails when six words in a row of any of these files appear in ``src/`` or ``tests/``
(``scripts/check_heldout_quotes.py``)."""

from __future__ import annotations

from replaykit.story import Story, load_package


def all_stories() -> list[Story]:
    """Every held-out story, validated, in module then story order."""
    return load_package(__name__, __path__)
