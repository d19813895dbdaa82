"""The dev stories, one module per fictional project; ``all_stories()`` gathers them.

These are the stories the code was developed against. The held-out stories, written from public
material and frozen, live apart in ``replaykit.heldout`` (``replay.py --heldout``)."""

from __future__ import annotations

from replaykit.story import Story, load_package


def all_stories() -> list[Story]:
    """Every dev story of every module in this package, validated, in module then story
    order."""
    return load_package(__name__, __path__)
