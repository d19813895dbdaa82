"""Time input parsing: the CLI and API accept datetimes, ISO dates, epochs and '7d'-style ages."""

from __future__ import annotations

import re
import time
from datetime import UTC, date, datetime

from kenning.errors import ValidationError

_UNITS_MS = {"s": 1_000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000}
_AGE = re.compile(r"^(\d+(?:\.\d+)?)\s*([smhdw])$")


def now_ms() -> int:
    """The wall clock in Unix milliseconds (the default clock; inject another in tests)."""
    return time.time_ns() // 1_000_000


def to_ms(value: object, now: int, *, name: str = "time") -> int:
    """Convert ``value`` to Unix ms: datetime/date, ISO 8601 text, epoch seconds, or an age
    like ``'7d'``/``'12h'`` meaning that long before ``now``."""
    if isinstance(value, bool):
        raise ValidationError(f"{name}: expected a time, got {value!r}")
    if isinstance(value, datetime):
        dt = value if value.tzinfo else value.replace(tzinfo=UTC)
        return int(dt.timestamp() * 1000)
    if isinstance(value, date):
        return int(datetime(value.year, value.month, value.day, tzinfo=UTC).timestamp() * 1000)
    if isinstance(value, int | float):
        # Values this large are already milliseconds; smaller ones are seconds.
        return int(value if value > 1e11 else value * 1000)
    if isinstance(value, str):
        text = value.strip()
        if m := _AGE.match(text.lower()):
            return now - int(float(m.group(1)) * _UNITS_MS[m.group(2)])
        try:
            return to_ms(datetime.fromisoformat(text.replace("Z", "+00:00")), now, name=name)
        except ValueError:
            pass
    raise ValidationError(
        f"{name}: cannot read {value!r} as a time (use ISO 8601 like 2026-11-01, "
        "an epoch, or an age like 7d, 12h)"
    )
