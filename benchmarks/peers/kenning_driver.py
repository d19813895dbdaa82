"""Kenning driver for the peer benchmark: the ``kenning.Kenning`` facade with its default
embedder (all-MiniLM-L6-v2 int8 from its PyPI package), one ``remember`` per note and the
default hybrid ``recall``. Started by ``run.py``; see ``driverkit`` for the two modes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from driverkit import System, main


def open_kenning(where: Path, fresh: bool) -> System:
    """Kenning over ``where/kenning.db`` (created when ``fresh``)."""
    from kenning import Kenning

    path = where / "kenning.db"
    if not fresh and not path.exists():
        raise SystemExit(f"no Kenning store at {path}: run serve first")
    k = Kenning(path, project="peers")

    def add(_i: int, note: dict[str, Any]) -> None:
        k.remember(note["text"], type=note["type"], topic=note["topic"])

    def search(query: str, n: int) -> int:
        return len(k.recall(query, k=n))

    def settle() -> None:
        k.settle()  # remember returns before the model runs; search after the vectors are in

    return System(add=add, search=search, settle=settle, close=k.close)


if __name__ == "__main__":
    main(open_kenning)
