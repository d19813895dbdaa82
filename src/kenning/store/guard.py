"""The one choke point every store write passes: secrets redacted from every text a memory, a
link, a session event or a confidence log entry carries, whoever wrote it.

Both engines call these functions at the top of each write method (``insert``, ``update``,
``add_link(s)``, ``update_link``, ``rename_relationship``, ``add_session_events``,
``adjust_confidence``, ``record_access``, ``put_confidence_log``), so no path into the
database (the facade's services, the hooks' journal, the auto memory import, extraction,
``kenning migrate`` from an older store) can store a secret. The services still redact first
where they need the redacted text themselves (a memory's content hash and summary, the text
they embed); ``redact`` remembers what it returned, so the second pass over that same text
costs a dictionary lookup.

Redacting a memory's text changes its content hash, which is recomputed here, so two memories
that differ only in a secret are the same memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from kenning.models import Link, Memory, SessionEvent
from kenning.redact import redact, redact_obj
from kenning.text import content_hash

# Memory fields holding free text, redacted as text; tags and metadata are handled apart.
_TEXT_FIELDS = ("content", "summary", "topic", "source", "outcome_reason")


def _record(values: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """The text fields, tags and metadata of one memory redacted together, so that a secret
    found in one of them is also taken out of the others (``redact_obj``)."""
    record = {name: values[name] for name in (*_TEXT_FIELDS, "tags", "metadata")
              if values.get(name) is not None}
    if "tags" in record:
        record["tags"] = list(record["tags"])
    out, count = redact_obj(record)
    assert isinstance(out, dict)
    if "tags" in out:
        out["tags"] = tuple(dict.fromkeys(out["tags"]))
    return out, count


def memory(m: Memory) -> tuple[Memory, int]:
    """The memory with every text field, tag and metadata value redacted; the content hash
    follows the content."""
    red, count = _record({name: getattr(m, name) for name in (*_TEXT_FIELDS, "tags",
                                                               "metadata")})
    if not count:
        return m, 0
    if red["content"] != m.content:
        red["content_hash"] = content_hash(red["content"])
    return replace(m, **red), count


def memories(items: Iterable[Memory]) -> tuple[list[Memory], int]:
    """``memory`` over a batch: the redacted memories and the number of secrets."""
    out: list[Memory] = []
    total = 0
    for m in items:
        new, n = memory(m)
        out.append(new)
        total += n
    return out, total


def fields(changes: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """An update's changed fields, redacted together like ``memory`` (the content hash
    follows a redacted content)."""
    red, count = _record(changes)
    if not count:
        return dict(changes), 0
    out = {**changes, **red}
    if "content" in red and red["content"] != changes["content"]:
        out["content_hash"] = content_hash(red["content"])
    return out, count


def link(ln: Link) -> Link:
    """The link with its words, reason, tags and every other metadata value redacted."""
    meta, n = redact_obj(ln.metadata)
    return replace(ln, metadata=meta) if n else ln  # type: ignore[arg-type]


def links(items: Iterable[Link]) -> list[Link]:
    return [link(ln) for ln in items]


def metadata(value: dict[str, Any]) -> dict[str, Any]:
    """Any stored metadata object, redacted."""
    out, _ = redact_obj(value)
    return out  # type: ignore[return-value]


def events(items: Iterable[SessionEvent]) -> list[SessionEvent]:
    """Session events with every string in their data redacted."""
    out = []
    for e in items:
        data, n = redact_obj(e.data)
        out.append(replace(e, data=data) if n else e)  # type: ignore[arg-type]
    return out


def reason(value: str) -> str:
    """A confidence log reason, redacted."""
    return redact(value).text if value else value
