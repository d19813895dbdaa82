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
    """Rank the rows holding any word of ``any_of``, or every word of one of ``together``."""

    any_of: tuple[str, ...]
    together: tuple[tuple[str, ...], ...] = ()

    @property
    def words(self) -> tuple[str, ...]:
        """Each word once, in the order its group is searched."""
        return tuple(dict.fromkeys(self.any_of + tuple(w for g in self.together for w in g)))


def plan(rows: Mapping[str, float], total: float, budget: float = RANK_BUDGET) -> KeywordPlan:
    """``rows``: each word's estimated matching rows, in query order; ``total``: rows in all.

    Half the budget goes to the rarest words, any of which may match. The other half goes to
    rows holding two of the commoner words (pairs by fewest joint matches, estimated as
    independent), or, when no pair fits, the fewest commoner words that fit together. A word
    the statistics overrate so costs little, and rows matching several words still compete.
    """
    order = sorted(rows, key=lambda w: rows[w])  # stable: ties keep the query's order
    position = {w: i for i, w in enumerate(rows)}
    any_of: list[str] = []
    spent = 0.0
    for word in order:
        if spent + rows[word] > budget / 2:
            break
        any_of.append(word)
        spent += rows[word]
    rest = order[len(any_of):]
    if len(rest) == 1:
        return KeywordPlan(tuple(sorted(any_of + rest, key=position.__getitem__)))
    share = {w: rows[w] / total if total > 0 else 0.0 for w in rest}
    pairs = sorted(((a, b) for i, a in enumerate(rest) for b in rest[i + 1:]),
                   key=lambda p: share[p[0]] * share[p[1]])
    together: list[tuple[str, ...]] = []
    spent = 0.0
    for a, b in pairs:
        cost = total * share[a] * share[b]
        if spent + cost > budget / 2:
            break
        together.append((a, b))
        spent += cost
    if rest and not together:
        group: list[str] = []
        estimate = float(total)
        for word in rest:
            group.append(word)
            estimate *= share[word]
            if estimate <= budget / 2:
                break
        together.append(tuple(group))
    return KeywordPlan(
        tuple(sorted(any_of, key=position.__getitem__)),
        tuple(tuple(sorted(g, key=position.__getitem__)) for g in together))
