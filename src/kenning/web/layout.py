"""Graph layout for the dashboard, computed server-side so the browser only draws.

Communities are packed on a golden-angle spiral, largest in the middle, and each community's
members sit on their own small spiral, most central (PageRank) first. Pure numpy, O(n log n),
deterministic: thousands of nodes lay out in milliseconds and do not jump between reloads.
"""

from __future__ import annotations

import numpy as np

GOLDEN_ANGLE = np.pi * (3.0 - np.sqrt(5.0))
SPACING = 10.0  # distance unit between neighbouring nodes inside a community
GAP = 1.35  # extra room around each community disc


def spiral(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Golden-angle (phyllotaxis) points about one unit apart: point j at radius sqrt(j)."""
    j = np.arange(count, dtype=np.float64)
    r = np.sqrt(j)
    return r * np.cos(j * GOLDEN_ANGLE), r * np.sin(j * GOLDEN_ANGLE)


def community_layout(rank: np.ndarray, community: np.ndarray) -> np.ndarray:
    """(n, 2) positions: one disc per community, members ordered by ``rank`` (high first)."""
    n = int(rank.shape[0])
    out = np.zeros((n, 2), dtype=np.float64)
    if n == 0:
        return out
    labels, inverse, sizes = np.unique(community, return_inverse=True, return_counts=True)
    order = np.lexsort((labels, -sizes))  # largest community first, ties by label
    # Community discs of area ~ size, placed on a spiral whose radius grows with the area
    # already used, so big communities sit in the middle and singletons form the rim.
    disc = np.sqrt(sizes[order].astype(np.float64)) * SPACING * GAP
    used = np.cumsum(disc**2) - disc**2
    radius = np.sqrt(used + disc**2 / 2.0) * 1.05
    angle = np.arange(order.size) * GOLDEN_ANGLE
    centre = np.zeros((labels.size, 2))
    centre[order, 0] = radius * np.cos(angle)
    centre[order, 1] = radius * np.sin(angle)
    # Within a community: sort members by rank (descending) and give them spiral slots.
    by = np.lexsort((-rank, inverse))
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    slot = np.arange(n) - np.repeat(starts, sizes)
    sx, sy = spiral(int(sizes.max()))
    members = by
    out[members, 0] = centre[inverse[members], 0] + sx[slot] * SPACING
    out[members, 1] = centre[inverse[members], 1] + sy[slot] * SPACING
    return out
