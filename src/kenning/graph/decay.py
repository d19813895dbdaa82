"""Link confidence decay by link type.

A link's confidence fades exponentially with age at a per-type daily rate; evolution links
(one decision superseding another) are history and never fade. Time is always passed in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

DAY_MS = 86_400_000

DECAY_PER_DAY: dict[str, float] = {
    "evolution": 0.0,
    "temporal": 0.1,
    "association": 0.05,
    "implementation": 0.02,
}

# Integer codes for the vectorised form: LINK_TYPES[code] is the link type.
LINK_TYPES: tuple[str, ...] = tuple(DECAY_PER_DAY)


def decay_rate(link_type: str) -> float:
    """Daily decay rate of a link type; unknown types are an error rather than a silent zero."""
    try:
        return DECAY_PER_DAY[link_type]
    except KeyError:
        raise ValueError(
            f"unknown link type {link_type!r}; expected one of {', '.join(LINK_TYPES)}"
        ) from None


def decayed_confidence(
    confidence: float, link_type: str, created_at_ms: int, now_ms: int
) -> float:
    """Confidence after decay: ``confidence * exp(-rate * age_days)``, age clamped at zero."""
    rate = decay_rate(link_type)
    if rate == 0.0:
        return float(confidence)
    age_days = max(now_ms - created_at_ms, 0) / DAY_MS
    return float(confidence) * math.exp(-rate * age_days)


def link_type_codes(link_types: Sequence[str] | np.ndarray) -> np.ndarray:
    """Integer codes (indices into LINK_TYPES) for a sequence of link type names."""
    import numpy as np  # only the vectorised forms need it: hooks decay single links

    arr = np.asarray(link_types)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64)
    names = np.array(LINK_TYPES)
    uniq, inverse = np.unique(arr.astype(str), return_inverse=True)
    known = np.isin(uniq, names)
    if not known.all():
        raise ValueError(
            f"unknown link type(s) {sorted(uniq[~known].tolist())}; "
            f"expected one of {', '.join(LINK_TYPES)}"
        )
    lookup = np.array([LINK_TYPES.index(t) for t in uniq.tolist()], dtype=np.int64)
    return lookup[inverse.ravel()].reshape(arr.shape)


def decayed_many(
    confidence: np.ndarray,
    link_types: Sequence[str] | np.ndarray,
    created_at_ms: np.ndarray,
    now_ms: int,
) -> np.ndarray:
    """Vectorised decayed_confidence; link types as names or as LINK_TYPES integer codes."""
    import numpy as np

    rates = np.array([DECAY_PER_DAY[t] for t in LINK_TYPES], dtype=np.float64)
    conf = np.asarray(confidence, dtype=np.float64)
    codes = link_type_codes(link_types)
    if codes.size and (codes.min() < 0 or codes.max() >= len(LINK_TYPES)):
        raise ValueError(f"link type codes must be in 0..{len(LINK_TYPES) - 1}")
    created = np.asarray(created_at_ms, dtype=np.int64)
    age_days = np.maximum(np.int64(now_ms) - created, 0) / DAY_MS
    decayed: np.ndarray = conf * np.exp(-rates[codes] * age_days)
    return decayed
