"""Graph health: shape, connectivity and relationship-vocabulary hygiene of the link graph.

Numbers plus plain-language recommendations (merge synonym
relationship words, archive stale one-off words, connect isolated memories). Pure: counts and
edges in, a GraphHealth out; ``now_ms`` is passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from kenning.graph.communities import components
from kenning.graph.pagerank import _edge_arrays

DAY_MS = 86_400_000
# A relationship word used once is worth archiving once it has gone unused this long.
ARCHIVE_AFTER_DAYS = 30
# Recommend linking work when more than this share of nodes has no link at all.
ISOLATED_WARN_SHARE = 0.2


@dataclass(frozen=True)
class GraphHealth:
    """A snapshot of the link graph's structure and its relationship vocabulary."""

    node_count: int
    edge_count: int
    component_count: int
    largest_component: int
    isolated_count: int
    connectivity: float  # share of nodes with degree >= 1
    orphaned_relationships: list[str]  # relationship words used exactly once
    relationship_diversity: int  # distinct relationship words
    canonical_coverage: float  # share of link usages whose word is canonical
    link_storage_share: float  # link_bytes / db_bytes
    recommendations: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of every field."""
        return asdict(self)


def _plural(count: int, word: str) -> str:
    """``'1 occurrence'`` / ``'3 occurrences'``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def graph_health(
    n: int,
    src: np.ndarray,
    dst: np.ndarray,
    *,
    relationships: Sequence[tuple[str, int, float, int]],
    link_bytes: int,
    db_bytes: int,
    now_ms: int,
    synonyms: Mapping[str, str] | None = None,
    official: Iterable[str] = (),
) -> GraphHealth:
    """Measure the link graph and its relationship words, with dashboard recommendations.

    ``relationships`` rows are (word, usage count, average confidence, last used ms).
    ``official``: canonical words of the synonym table and promoted words; used once they are
    still the vocabulary, so they are neither orphans nor worth archiving.
    """
    s, d, _ = _edge_arrays(n, src, dst)
    synonyms = dict(synonyms or {})

    degree = np.bincount(s, minlength=n) + np.bincount(d, minlength=n)
    isolated = int((degree == 0).sum())
    comp = components(n, s, d)
    sizes = np.bincount(comp) if n else np.zeros(0, dtype=np.int64)

    # Aggregate rows by word (a word may be reported more than once, e.g. per link type).
    usage: dict[str, int] = {}
    last_used: dict[str, int] = {}
    for word, count, _conf, last_ms in relationships:
        usage[word] = usage.get(word, 0) + int(count)
        last_used[word] = max(last_used.get(word, int(last_ms)), int(last_ms))
    used = {w: c for w, c in usage.items() if c > 0}
    total_uses = sum(used.values())
    canonical_uses = sum(c for w, c in used.items() if w not in synonyms)
    keep = set(official)
    orphaned = sorted(w for w, c in used.items() if c == 1 and w not in keep)

    recommendations: list[str] = []
    merges = sorted(
        ((w, synonyms[w], c) for w, c in used.items() if w in synonyms),
        key=lambda t: (-t[2], t[0]),
    )
    for variant, canonical, count in merges:
        recommendations.append(
            f"Merge '{variant}' into '{canonical}' ({_plural(count, 'occurrence')})"
        )
    stale = []
    for word in orphaned:
        if word in synonyms:  # already covered by its merge recommendation
            continue
        age_days = max(now_ms - last_used[word], 0) // DAY_MS
        if age_days > ARCHIVE_AFTER_DAYS:
            stale.append((word, age_days))
    for word, age_days in sorted(stale, key=lambda t: (-t[1], t[0])):
        recommendations.append(
            f"Archive '{word}' (1 occurrence, {_plural(age_days, 'day')} old)"
        )
    if n and isolated / n > ISOLATED_WARN_SHARE:
        recommendations.append(
            f"Connect isolated memories: {isolated / n:.0%} of nodes ({isolated}/{n}) "
            "have no links"
        )

    return GraphHealth(
        node_count=n,
        edge_count=int(s.size),
        component_count=int(sizes.size),
        largest_component=int(sizes.max()) if sizes.size else 0,
        isolated_count=isolated,
        connectivity=(n - isolated) / n if n else 0.0,
        orphaned_relationships=orphaned,
        relationship_diversity=len(used),
        canonical_coverage=canonical_uses / total_uses if total_uses else 1.0,
        link_storage_share=link_bytes / db_bytes if db_bytes > 0 else 0.0,
        recommendations=recommendations,
    )
