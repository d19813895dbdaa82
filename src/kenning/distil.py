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
evidence, yields nothing, so consolidating twice changes nothing the second time.

Completed trajectories are episodes too. Each session that put a memory in front of the model
and then ran checks judges it once (passed or failed afterwards, ``kenning.sessions``); once a
memory has been judged in ``DISTIL_MIN`` sessions, ``plan_trajectories`` distils those verdicts
into one ``outcome`` memory, its track record (success, failed or partial, with the checks and
the count), linked ``outcome_of`` the memory so its history shows how it held up. The judged
memory itself is not marked: it stays what delivery shows."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kenning import weights as W
from kenning.models import Memory, MemoryType
from kenning.outcomes import check_of
from kenning.text import make_summary

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
    relationship: str = "derived_from"  # how the distilled memory links to its episodes
    mark_episodes: bool = True  # mark episodes ``distilled_into`` (delivery shows it alone)
    outcome: str | None = None  # success / failed / partial, for a track record
    outcome_reason: str | None = None


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


GIST_MAX = 360  # characters of a track record's account of its memory


def gist(m: Memory) -> str:
    """What a track record says of the memory it tracks: its summary, or for a gotcha the
    failure, its cause and its fix, since a gotcha's summary opens with the error line and a
    long one is cut before the cause (the part that held up)."""
    cause = m.metadata.get("cause")
    if m.type is not MemoryType.GOTCHA or not isinstance(cause, str) or not cause.strip():
        return m.summary
    error, fix = m.metadata.get("error"), m.metadata.get("fix")
    text = (f"{make_summary(error, 140)}: " if isinstance(error, str) and error.strip() else "") \
        + cause + (f" Fix: {fix}" if isinstance(fix, str) and fix.strip() else "")
    return make_summary(" ".join(text.split()), GIST_MAX)


def is_track_record(m: Memory) -> bool:
    """Whether ``m`` is a track record: how the memory in its ``subject`` held up, distilled
    from the sessions that judged it. It repeats that memory's words, so it is never shown
    beside it or in its place where the model reads what holds."""
    return m.metadata.get("distilled") is True and bool(m.metadata.get("subject"))


@dataclass(frozen=True)
class Judged:
    """One session's verdict on a memory it used: the confidence change it called for (> 0
    the checks that followed passed, < 0 one ended failing) and each check's last result."""

    memory_id: str
    session_id: str
    at_ms: int
    delta: float
    checks: tuple[tuple[str, bool], ...] = ()


def plan_trajectories(judged: Sequence[Judged], subjects: Mapping[str, Memory],
                      distilled: Sequence[Memory], min_sessions: int = DISTIL_MIN
                      ) -> list[Distilled]:
    """Track records to create or update: per memory of ``subjects`` judged with a verdict in
    at least ``min_sessions`` sessions, an ``outcome`` memory saying in how many it held up
    and which checks said so. ``distilled``: track records made before (their ``distil_key``
    is ``trajectory:<memory id>``); one whose evidence has not changed yields nothing."""
    existing = {str(m.metadata.get("distil_key")): m for m in distilled
                if m.metadata.get("distilled") is True}
    by_memory: dict[str, dict[str, Judged]] = {}
    for j in sorted(judged, key=lambda j: (j.at_ms, j.session_id)):
        if j.delta:
            by_memory.setdefault(j.memory_id, {})[j.session_id] = j
    out: list[Distilled] = []
    for mid, sessions in sorted(by_memory.items()):
        subject = subjects.get(mid)
        if (subject is None or subject.metadata.get("distilled") is True
                or W.record(subject.type.value, subject.topic) or subject.valid_to is not None):
            continue  # a kept user turn or a session summary is history, not a rule to track;
            # a replaced memory's record would present it as current
        if subject.metadata.get("kind") == "fix":
            continue  # what a commit fixed is history: "held up" says nothing about it
        if subject.type is MemoryType.PATTERN and (subject.metadata.get("command")
                                                   or subject.metadata.get("setup")):
            continue  # a project command (or a service a run needs up) is judged by its own
            # runs: its record would only say that they passed when they passed
        runs = list(sessions.values())
        if len(runs) < min_sessions:
            continue
        key = f"trajectory:{mid}"
        known = existing.get(key)
        if known is not None and known.metadata.get("evidence") == len(runs):
            continue
        held = [j for j in runs if j.delta > 0]
        failed = [j for j in runs if j.delta < 0]
        status = "success" if not failed else "failed" if not held else "partial"
        passing = sorted({suite for j in held for suite, ok in j.checks if ok})
        failing = sorted({suite for j in failed for suite, ok in j.checks if not ok})
        said = []
        if held:
            said.append(f"held up in {len(held)} of {len(runs)} sessions that used it"
                        + (f" ({_kinds(passing)} passed afterwards)" if passing else ""))
        if failed:
            said.append(f"checks failed afterwards in {len(failed)} of {len(runs)}"
                        + (f" ({_kinds(failing)})" if failing else ""))
        reason = "; ".join(said)
        out.append(Distilled(
            key=key, type=MemoryType.OUTCOME.value,
            text=f"{W.TRACK_PREFIX}{gist(subject)} — {reason}", topic=subject.topic,
            category=subject.category.value,
            confidence=round(min(0.95, 0.6 + 0.1 * len(runs)), 4),
            metadata={"distilled": True, "distil_key": key, "evidence": len(runs),
                      "held": len(held), "failed": len(failed), "subject": mid,
                      "sessions": [j.session_id for j in runs][-MAX_EPISODES:],
                      "checks": sorted(set(passing) | set(failing))},
            episodes=(mid,), new_episodes=() if known is not None else (mid,),
            memory_id=known.id if known is not None else None, relationship="outcome_of",
            mark_episodes=False, outcome=status, outcome_reason=reason,
        ))
    return out


# How a track record names the checks that followed: by kind, not command line. The record
# outlives the commands (a project that moves from `make test` to `uv run pytest` would
# otherwise keep reading the old command in it); the commands stay in its metadata.
_KIND_WORDS = {"test": "tests", "build": "build", "lint": "lint", "typecheck": "type check",
               "format": "format check"}


def _kinds(suites: Sequence[str]) -> str:
    """``suites`` (check commands) named by their kinds, each once, in order of first use."""
    names = []
    for suite in suites:
        check = check_of(suite)
        names.append(_KIND_WORDS.get(check.kind, suite) if check else suite)
    return ", ".join(dict.fromkeys(names))
