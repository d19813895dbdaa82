"""Which query words choose the rows a keyword search ranks, in a large store.

Ranking costs per matching row, and a common word matches a large share of a million memories;
so the rarest words choose the rows (up to a budget) and every word of the query ranks them.
Rows that hold only common words rank low anyway: their words carry little weight.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

RANK_BUDGET = 2_000  # rows a search ranks: about 20 ms at a million memories on PostgreSQL


@dataclass(frozen=True)
class KeywordPlan:
    """Rank the rows holding any of ``words`` (``every``: all of them)."""

    words: tuple[str, ...]
    every: bool = False


def plan(rows: Mapping[str, float], total: float, budget: float = RANK_BUDGET) -> KeywordPlan:
    """``rows``: each word's estimated matching rows, in query order; ``total``: rows in all.

    The rarest words whose matches fit the budget together; when even the rarest word alone
    matches more, the rows holding the rarest few words together (estimated as independent).
    """
    order = sorted(rows, key=lambda w: rows[w])  # stable: ties keep the query's order
    picked: list[str] = []
    spent = 0.0
    for word in order:
        if spent + rows[word] > budget:
            break
        picked.append(word)
        spent += rows[word]
    if picked:
        return KeywordPlan(tuple(w for w in rows if w in picked))
    together: list[str] = []
    estimate = float(total)
    for word in order:
        together.append(word)
        estimate *= rows[word] / total if total > 0 else 0.0
        if estimate <= budget:
            break
    return KeywordPlan(tuple(w for w in rows if w in together), every=len(together) > 1)
