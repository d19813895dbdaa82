"""The authored stories, one module per fictional project; ``all_stories()`` gathers them."""

from __future__ import annotations

import importlib
import pkgutil

from replaykit.story import Story, validate


def all_stories() -> list[Story]:
    """Every story of every module in this package (each module lists its own in ``STORIES``),
    validated, in module then story order."""
    out: list[Story] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for story in getattr(module, "STORIES", ()):
            validate(story)
            out.append(story)
    ids = [s.id for s in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"duplicate story ids: {', '.join(dupes)}")
    return out
