"""Pure MEMORY.md curation: the most valuable lines first, within the client's line and byte
limits, with every line a person wrote kept ahead of generated ones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kenning.automemory.options import AutoMemoryOptions

DAY_MS = 86_400_000
HALF_LIFE_DAYS = 30.0
WEIGHTS = (0.5, 0.3, 0.2)  # confidence, normalised PageRank, recency


@dataclass(frozen=True, slots=True)
class Candidate:
    """A memory that may get a line: its rendered line, section and what ranks it."""

    id: str
    line: str
    section: str
    confidence: float
    pagerank: float
    touched_ms: int


@dataclass(frozen=True, slots=True)
class Curated:
    """The new MEMORY.md and what went into it."""

    text: str
    lines: int
    bytes: int
    chosen: tuple[str, ...]
    pinned_kept: tuple[str, ...]
    pinned_dropped: tuple[str, ...]
    own_lines: tuple[str, ...]


def recency(touched_ms: int, reference_ms: int) -> float:
    """1.0 for the newest memory, halving every 30 days before it."""
    age_days = max(0, reference_ms - touched_ms) / DAY_MS
    return float(0.5 ** (age_days / HALF_LIFE_DAYS))


def rank_key(c: Candidate, reference_ms: int, strategy: str) -> tuple[float, ...]:
    """Sort key (higher is better) under the prune strategy."""
    rec = recency(min(c.touched_ms, reference_ms), reference_ms)
    if strategy == "recency":
        return (float(min(c.touched_ms, reference_ms)), c.confidence, c.pagerank)
    if strategy == "confidence":
        return (c.confidence, c.pagerank, rec)
    wc, wp, wr = WEIGHTS
    return (wc * c.confidence + wp * c.pagerank + wr * rec, c.confidence)


def curate_index(candidates: Sequence[Candidate], pinned: Sequence[str], now_ms: int,
                 options: AutoMemoryOptions | None = None,
                 notes: Mapping[str, str] | None = None) -> Curated:
    """Build MEMORY.md from ``pinned`` lines (a person's, kept in their order), each followed
    by its note in ``notes`` if any (Kenning's line saying it no longer holds: the person's
    words are never changed), and the best ``candidates`` grouped in ``## section`` blocks,
    never above ``max_index_lines`` lines or ``max_index_bytes`` bytes. Recency is measured from
    the newest candidate (not before ``now_ms``), so the same data always gives the same
    bytes."""
    opts = options or AutoMemoryOptions()
    max_lines, max_bytes = opts.max_index_lines, opts.max_index_bytes
    used_lines = used_bytes = 0

    def fits(*texts: str) -> bool:
        cost = sum(len(t.encode("utf-8")) + 1 for t in texts)
        return used_lines + len(texts) <= max_lines and used_bytes + cost <= max_bytes

    def take(*texts: str) -> None:
        nonlocal used_lines, used_bytes
        used_lines += len(texts)
        used_bytes += sum(len(t.encode("utf-8")) + 1 for t in texts)

    kept: list[str] = []
    dropped: list[str] = []
    head: list[str] = []  # the pinned lines kept and their notes, in order
    own_notes: list[str] = []
    for line in pinned:
        note = (notes or {}).get(line)
        if note and fits(line, note):
            take(line, note)
            kept.append(line)
            head += [line, note]
            own_notes.append(note)
        elif fits(line):
            take(line)
            kept.append(line)
            head.append(line)
        else:
            dropped.append(line)

    reference = min(now_ms, max((c.touched_ms for c in candidates), default=now_ms))
    ordered = sorted(candidates, key=lambda c: (tuple(-x for x in rank_key(
        c, reference, opts.prune_strategy)), c.id))
    sections: dict[str, list[Candidate]] = {}
    seen_lines = set(kept)
    for c in ordered:
        if used_lines >= max_lines:
            break
        if c.line in seen_lines:
            continue
        heading = f"## {c.section}"
        needs = (c.line,) if c.section in sections else (heading, c.line)
        if fits(*needs):
            take(*needs)
            sections.setdefault(c.section, []).append(c)
            seen_lines.add(c.line)

    own: list[str] = []
    for section, members in sections.items():
        own.append(f"## {section}")
        own.extend(m.line for m in members)
    lines = head + own
    text = "\n".join(lines) + "\n" if lines else ""
    return Curated(
        text=text, lines=len(lines), bytes=len(text.encode("utf-8")),
        chosen=tuple(m.id for ms in sections.values() for m in ms),
        pinned_kept=tuple(kept), pinned_dropped=tuple(dropped),
        own_lines=tuple(own_notes + own),
    )
