"""Words near in meaning, for matching a prompt that says in other words what a memory says.

The table (``kenning/data/word-neighbours.txt``, built by ``scripts/word_neighbours.py`` from
the shipped embedding model) gives each English word, by its index stem, the few words the model
places nearest to it, with their cosine similarity. The prompt index keeps, for each such word,
the ones that occur in the store (``expansions``); the prompt hook looks a prompt's words up
there as it looks them up in the term table. Nothing here runs at prompt time.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "data" / "word-neighbours.txt"
PER_WORD = 4  # store terms one prompt word reaches, at most


@cache
def table() -> dict[str, str]:
    """The shipped table: stem -> its neighbours as the file gives them (``near`` reads them).
    Lines are split only on use: reading every neighbour up front costs about 40 ms, which an
    index built for a small store would pay in full."""
    with TABLE.open(encoding="utf-8") as f:
        return dict(line.rstrip("\n").split("\t", 1) for line in f)


def near(word: str) -> list[tuple[str, float]]:
    """The words nearest in meaning to ``word`` (a stem) with their similarity, nearest first."""
    parts = table().get(word, "").split()
    return [(parts[i], int(parts[i + 1]) / 100) for i in range(0, len(parts) - 1, 2)]


def expansions(terms: Iterable[str]) -> dict[str, list[tuple[str, float]]]:
    """For each word of the table that is near some of ``terms`` (a store's index terms):
    those terms and their similarity, nearest first, at most ``PER_WORD``. A word that is a
    term itself still gets its neighbours among the others (a prompt saying "deploy" also
    reaches a memory that only says "deployment")."""
    known = table()
    out: dict[str, list[tuple[str, float]]] = {}
    for term in terms:
        if term not in known:
            continue
        for word, sim in near(term):
            out.setdefault(word, []).append((term, sim))
    for found in out.values():
        if len(found) > 1:
            found.sort(key=lambda p: (-p[1], p[0]))
            del found[PER_WORD:]
    return out
