"""Distilling episodes that repeat into one memory (pure; consolidation applies the plan).

Sessions keep meeting the same things: the same failure (gotchas with one ``signature``,
stored apart by versions that did not recognise it), the same build or test command
(``pattern`` memories for one command), the same preference said again. Each is an episode;
once a thing has been met ``DISTIL_MIN`` times it deserves one memory that says so. ``plan``
groups the episodes and proposes, per group, a distilled memory: the same type, the best
episode's text, ``distilled: true``, ``evidence`` (how many times it was met, counting the
evidence each episode already carries) and the highest confidence of the group. Consolidation
links it to each episode (``derived_from``) and marks each episode ``distilled_into``, so
delivery can show the distilled memory alone.

``plan`` only proposes changes: a group already distilled, with no new episode and the same
evidence, yields nothing, so consolidating twice changes nothing the second time."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kenning.models import Memory, MemoryType

DISTIL_MIN = 3  # episodes of one thing before it is distilled
MAX_EPISODES = 50  # episode ids a distilled memory lists in its metadata (the latest)
TYPES = (MemoryType.GOTCHA, MemoryType.PATTERN, MemoryType.PREFERENCE)
RELATIONSHIP = "derived_from"  # the table files it under inspired_by (an association)
PREFIX = "Recurring: "  # keeps the distilled text distinct from the episode it is taken from
# Metadata of the best episode that the distilled memory carries over.
CARRIED = ("kind", "signature", "runner", "command", "error", "cause", "fix", "files",
           "passed", "tool", "avoid")


@dataclass(frozen=True)
class Distilled:
    """A distilled memory to create (``memory_id`` None) or to bring up to date, and the
    episodes it stands for."""

    key: str
    type: str
    text: str
    topic: str | None
    category: str
    confidence: float
    metadata: dict[str, Any]
    episodes: tuple[str, ...]  # every episode of the group, oldest first
    new_episodes: tuple[str, ...]  # episodes not yet linked to the distilled memory
    memory_id: str | None = None


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def group_key(m: Memory) -> str | None:
    """What an episode is about, as a key shared by its repeats: a gotcha's failure
    signature, a pattern's command, a preference's tool (or its words); None when the memory
    is not an episode that can repeat."""
    meta = m.metadata
    key: str | None = None
    if m.type is MemoryType.GOTCHA:
        sig = meta.get("signature")
        key = f"signature:{sig}" if isinstance(sig, str) and sig else None
    elif m.type is MemoryType.PATTERN:
        cmd = meta.get("command")
        key = (f"command:{' '.join(cmd.split())}" if isinstance(cmd, str) and cmd.strip()
               else f"text:{_words(m.content)}")
    elif m.type is MemoryType.PREFERENCE:
        tool, avoid = meta.get("tool"), meta.get("avoid")
        if isinstance(tool, str) and tool:
            key = f"prefer:{tool.lower()}"
        elif isinstance(avoid, str) and avoid:
            key = f"avoid:{avoid.lower()}"
        else:
            said = re.sub(r"^user preference:\s*|\s*\(correction:.*\)\s*$", "", m.content,
                          flags=re.I | re.S)
            key = f"text:{_words(said)}"
    if key is None or key.endswith(":"):
        return None
    return f"{m.type.value}:{m.scope.value}:{m.agent or ''}:{key}"


def _evidence(m: Memory) -> int:
    value = m.metadata.get("evidence")
    return value if isinstance(value, int) and value > 1 else 1


def _quality(m: Memory) -> tuple[bool, bool, bool, float, int, str]:
    """Which episode's text is best: one that says the cause, then the fix, then not a
    flaky note, then the surest, then the newest."""
    meta = m.metadata
    return (bool(meta.get("cause")), bool(meta.get("fix")), not meta.get("flaky"),
            m.confidence, m.created_at, m.id)


def plan(memories: Sequence[Memory], min_group: int = DISTIL_MIN) -> list[Distilled]:
    """The distilled memories to create or update for ``memories`` (one project's episodes
    and the distilled memories made before), in key order."""
    distilled: dict[str, Memory] = {}
    groups: dict[str, list[Memory]] = {}
    for m in memories:
        key = m.metadata.get("distil_key")
        if m.metadata.get("distilled") is True and isinstance(key, str):
            distilled.setdefault(key, m)
            continue
        found = group_key(m)
        if found is not None:
            groups.setdefault(found, []).append(m)
    out: list[Distilled] = []
    for key, episodes in sorted(groups.items()):
        episodes.sort(key=lambda m: (m.created_at, m.id))
        existing = distilled.get(key)
        new = [m for m in episodes
               if existing is None or m.metadata.get("distilled_into") != existing.id]
        evidence = sum(map(_evidence, episodes))
        if existing is None and len(episodes) < min_group:
            continue
        if existing is not None and not new and existing.metadata.get("evidence") == evidence:
            continue
        best = max(episodes, key=_quality)
        confidence = max(m.confidence for m in episodes)
        if existing is not None:
            confidence = max(confidence, existing.confidence)
        meta = {k: best.metadata[k] for k in CARRIED if k in best.metadata}
        meta.update(distilled=True, distil_key=key, evidence=evidence,
                    episodes=[m.id for m in episodes][-MAX_EPISODES:])
        out.append(Distilled(
            key=key, type=best.type.value, text=PREFIX + best.content, topic=best.topic,
            category=best.category.value, confidence=round(confidence, 4), metadata=meta,
            episodes=tuple(m.id for m in episodes), new_episodes=tuple(m.id for m in new),
            memory_id=existing.id if existing is not None else None,
        ))
    return out
