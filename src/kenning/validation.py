"""Input checks for every write path: bad input gets one clear message and changes nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from enum import Enum
from typing import Any

from kenning.errors import ValidationError
from kenning.models import Category, MemoryType, OutcomeStatus, Scope

MAX_CONTENT_CHARS = 100_000
MAX_TOPIC_CHARS = 200
MAX_TAG_CHARS = 64
MAX_TAGS = 32
MAX_METADATA_BYTES = 64_000
_AGENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def _choice(enum: type[Enum], value: object, what: str) -> Any:
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        try:
            return enum(value.strip().lower())
        except ValueError:
            pass
    allowed = ", ".join(e.value for e in enum)
    raise ValidationError(f"unknown {what} {value!r}: expected one of {allowed}")


def memory_type(value: object) -> MemoryType:
    return _choice(MemoryType, value, "type")


def category(value: object) -> Category:
    return _choice(Category, value, "category")


def scope(value: object) -> Scope:
    return _choice(Scope, value, "scope")


def outcome(value: object) -> OutcomeStatus:
    return _choice(OutcomeStatus, value, "outcome")


def content(text: object, limit: int = MAX_CONTENT_CHARS) -> str:
    if not isinstance(text, str):
        raise ValidationError(f"text must be a string, got {type(text).__name__}")
    if "\x00" in text:
        raise ValidationError("text contains a NUL character")
    stripped = text.strip()
    if not stripped:
        raise ValidationError("text is empty")
    if len(stripped) > limit:
        raise ValidationError(f"text is {len(stripped):,} characters; the limit is {limit:,}")
    return stripped


def confidence(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValidationError(f"confidence must be a number in [0, 1], got {value!r}")
    v = float(value)
    if not 0.0 <= v <= 1.0:
        raise ValidationError(f"confidence must be in [0, 1], got {v}")
    return v


def topic(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"topic must be a string, got {type(value).__name__}")
    t = " ".join(value.split())
    if not t:
        return None
    if len(t) > MAX_TOPIC_CHARS:
        raise ValidationError(f"topic is longer than {MAX_TOPIC_CHARS} characters")
    return t


def summary(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"summary must be a string, got {type(value).__name__}")
    s = " ".join(value.split())
    if len(s) > 500:
        raise ValidationError("summary is longer than 500 characters: keep it to one line")
    return s or None


def tags(values: Iterable[object] | str | None) -> tuple[str, ...]:
    if values is None:
        return ()
    if isinstance(values, str):
        values = [v for v in values.split(",")]
    out: list[str] = []
    for v in values:
        if not isinstance(v, str):
            raise ValidationError(f"tags must be strings, got {v!r}")
        t = v.strip()
        if not t:
            continue
        if len(t) > MAX_TAG_CHARS:
            raise ValidationError(f"tag {t[:20]!r}… is longer than {MAX_TAG_CHARS} characters")
        if t not in out:
            out.append(t)
    if len(out) > MAX_TAGS:
        raise ValidationError(f"at most {MAX_TAGS} tags")
    return tuple(out)


def agent(value: object) -> str | None:
    """Agent names end up in paths: letters, digits, '.', '_' and '-' only, no traversal."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _AGENT.match(value) or ".." in value:
        raise ValidationError(
            f"agent name {value!r} is not allowed: use 1-64 letters, digits, '.', '_' or '-'"
        )
    return value


def source(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"source must be a string, got {type(value).__name__}")
    return value.strip()[:500] or None


def metadata(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValidationError("metadata must be a JSON object (a dict)")
    try:
        encoded = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"metadata is not JSON-serialisable: {exc}") from exc
    if len(encoded.encode()) > MAX_METADATA_BYTES:
        raise ValidationError(f"metadata is larger than {MAX_METADATA_BYTES:,} bytes")
    return json.loads(encoded)


def positive_int(value: object, name: str, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ValidationError(f"{name} must be an integer from 1 to {maximum}, got {value!r}")
    return value
