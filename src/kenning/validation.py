"""Input checks for every write path: bad input gets one clear message and changes nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from enum import Enum
from typing import Any, TypeVar

from kenning.errors import ValidationError
from kenning.models import Category, MemoryType, OutcomeStatus, Scope

E = TypeVar("E", bound=Enum)  # the enumeration a value is read as
MAX_CONTENT_CHARS = 100_000
MAX_TOPIC_CHARS = 200
MAX_TAG_CHARS = 64
MAX_TAGS = 32
MAX_METADATA_BYTES = 64_000
MAX_RELATIONSHIP_CHARS = 200
MAX_QUOTED = 32  # an error message quotes a refused value up to this long, else describes it
_AGENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
# C0 and C1 control characters and DEL: none belongs in a name or an id.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_NAMES = {"\x00": "a NUL character", "\n": "a newline", "\r": "a carriage return",
                  "\t": "a tab", "\x1b": "an escape character"}


def _control(char: str) -> str:
    return _CONTROL_NAMES.get(char, f"the control character U+{ord(char):04X}")


def _no_nul(value: str, what: str) -> None:
    if "\x00" in value:
        raise ValidationError(f"{what} contains a NUL character")


def _no_control(value: str, what: str) -> None:
    """A name or an id is one line of printable text: no NUL, newline or other control."""
    found = _CONTROL.search(value)
    if found is not None:
        raise ValidationError(f"{what} contains {_control(found.group())}: it must be one line "
                              "of printable text")


def _choice(enum: type[E], value: object, what: str) -> E:
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        try:
            return enum(value.strip().lower())
        except ValueError:
            pass
    allowed = ", ".join(e.value for e in enum)
    raise ValidationError(f"unknown {what} {shown(value)}: expected one of {allowed}")


def shown(value: object) -> str:
    """A refused value as an error message quotes it: short values (a mistyped type, an id)
    quoted with control characters escaped and any secret in them redacted; a longer one only
    described, since it may be, or hold, a secret no detector recognises on its own (the
    message is printed, returned to agents and logged)."""
    from kenning.redact import redact

    if not isinstance(value, str):
        text = redact(repr(value)).text
        return text if len(text) <= MAX_QUOTED else f"(a {type(value).__name__})"
    if len(value) > MAX_QUOTED:
        return f"(a {len(value)}-character value)"
    return repr(redact(value).text)


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
    _no_control(value.strip(), "topic")
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
    _no_nul(value, "summary")
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
            raise ValidationError(f"tags must be strings, got {type(v).__name__}")
        t = v.strip()
        if not t:
            continue
        _no_control(t, "a tag")
        if len(t) > MAX_TAG_CHARS:
            raise ValidationError(f"tag {shown(t[:20])}… is longer than {MAX_TAG_CHARS} "
                                  "characters")
        if t not in out:
            out.append(t)
    if len(out) > MAX_TAGS:
        raise ValidationError(f"at most {MAX_TAGS} tags")
    return tuple(out)


def agent(value: object) -> str | None:
    """Agent names end up in paths: letters, digits, '.', '_' and '-' only, no traversal."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        _no_control(value, "agent name")
    if not isinstance(value, str) or not _AGENT.fullmatch(value) or ".." in value:
        raise ValidationError(
            f"agent name {shown(value)} is not allowed: use 1-64 letters, digits, '.', '_' "
            "or '-'"
        )
    from kenning.redact import redact

    if redact(value).count:
        raise ValidationError("agent name looks like a secret (an API key or a token): use a "
                              "plain name")
    return value


def source(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"source must be a string, got {type(value).__name__}")
    _no_nul(value, "source")
    return value.strip()[:500] or None


def reason(value: object, what: str = "reason") -> str | None:
    """Why something was done or turned out so: free text (any lines), no NUL."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"{what} must be a string, got {type(value).__name__}")
    _no_nul(value, what)
    return value.strip() or None


def identifier(value: object, what: str = "memory id") -> str:
    """An id (or unique id prefix) as given: non-empty, one line of printable text."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"{what} is empty")
    _no_control(value, what)
    return value.strip()


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
    decoded: dict[str, Any] = json.loads(encoded)
    if _has_nul(decoded):
        raise ValidationError("metadata contains a NUL character")
    return decoded


def _has_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def relationship(value: object) -> str:
    """A relationship word as given (any words, any language): one line, no control
    characters."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError("relationship is empty")
    word = value.strip()
    if len(word) > MAX_RELATIONSHIP_CHARS:
        raise ValidationError(f"relationship is longer than {MAX_RELATIONSHIP_CHARS} characters")
    _no_control(word, "relationship")
    return word


def positive_int(value: object, name: str, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ValidationError(f"{name} must be an integer from 1 to {maximum}, got {value!r}")
    return value
