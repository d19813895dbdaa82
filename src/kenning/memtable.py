"""The memory tables of ``kenning list`` and ``kenning recall``, as plain aligned text.

Both CLI paths print through here (the typer commands and the fast read path in
``kenning.fastcli``), so a table looks the same whichever answered. Standard library only, and
only ``os``, ``sys`` and ``time`` at that: the fast path must start in a few milliseconds.

Ids are shown the way git shows commits: as many leading characters as it takes to name one
memory of the store unambiguously (at least ``MIN_ID``), so every id printed can be typed back.
A memory's state goes *before* its summary (``[failed]``, ``[superseded by 01KSR5AB]``), so
cutting a long summary to the terminal's width never hides it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

MIN_ID = 8  # ~1 s of ULID time: memories made a few seconds apart differ within it
SUMMARY_CHARS = 90
_CONTROL = {c: None for c in (*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0))}


def short_ids(ids: Iterable[str], resolve: Callable[[str, int], list[str]]) -> dict[str, str]:
    """For each id, its shortest unambiguous prefix of at least ``MIN_ID`` characters.
    ``resolve(prefix, limit)`` lists up to ``limit`` ids starting with ``prefix``."""
    out: dict[str, str] = {}
    for full in ids:
        if full in out:
            continue
        n = MIN_ID
        while n < len(full) and len(resolve(full[:n], 2)) > 1:
            n += 1
        out[full] = full[:n]
    return out


def clean(text: str) -> str:
    """One line of plain text: whitespace runs folded, terminal control characters dropped."""
    return " ".join(str(text).translate(_CONTROL).split())


def clip(text: str, width: int) -> str:
    text = clean(text)
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def state(row: dict[str, Any], ids: dict[str, str]) -> str:
    """The marker before a summary: its outcome, and what superseded it."""
    marks = []
    if row.get("outcome"):
        marks.append(f"[{row['outcome']}]")
    if row.get("superseded_by"):
        sup = row["superseded_by"]
        marks.append(f"[superseded by {ids.get(sup, sup[:MIN_ID])}]")
    return " ".join(marks)


def render(rows: Sequence[dict[str, Any]], ids: dict[str, str], *,
           scores: Sequence[float] | None = None, title: str | None = None,
           width: int | None = None) -> str:
    """The table: id, (score), type, topic, summary with its state first, confidence, created
    (UTC). ``rows`` hold id, type, topic, summary, confidence, created_at (ms), outcome and
    superseded_by; ``width`` (default: the terminal's, or no limit when piped) caps the line."""
    headers = ["id", *(["score"] if scores is not None else []), "type", "topic", "summary",
               "conf", "created"]
    body = []
    longest_mark = 0
    for i, row in enumerate(rows):
        mark = state(row, ids)
        longest_mark = max(longest_mark, len(mark))
        summary = clip(row["summary"], SUMMARY_CHARS)
        body.append([ids.get(row["id"], row["id"]),
                     *([f"{scores[i]:.3f}"] if scores is not None else []),
                     row["type"], clean(row.get("topic") or ""),
                     f"{mark} {summary}" if mark else summary,
                     f"{row['confidence']:.2f}",
                     time.strftime("%Y-%m-%d %H:%M", time.gmtime(row["created_at"] / 1000))])
    widths = [max(len(r[c]) for r in [headers, *body]) for c in range(len(headers))]
    s = headers.index("summary")
    limit = width if width is not None else _terminal_width()
    if limit:
        others = sum(w for c, w in enumerate(widths) if c != s) + 2 * (len(widths) - 1)
        # Never narrower than the longest state plus a few words: the line may then wrap,
        # but "[failed]" or "[superseded by ...]" is never cut off.
        widths[s] = max(min(widths[s], limit - others), len("summary"),
                        min(widths[s], longest_mark + 16))
    right = {headers.index("conf"), *([1] if scores is not None else [])}

    def line(cells: list[str]) -> str:
        parts = []
        for c, cell in enumerate(cells):
            cell = clip(cell, widths[c]) if c == s else cell
            parts.append(cell.rjust(widths[c]) if c in right else cell.ljust(widths[c]))
        return "  ".join(parts).rstrip()

    out = [title] if title else []
    out += [line(headers), *(line(r) for r in body)]
    return "\n".join(out) + "\n"


def _terminal_width() -> int | None:
    if not sys.stdout.isatty():
        return None
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except OSError:
        return None


def row_of(memory: Any) -> dict[str, Any]:
    """A table row from a ``kenning.models.Memory``."""
    return {"id": memory.id, "type": memory.type.value, "topic": memory.topic,
            "summary": memory.summary, "confidence": memory.confidence,
            "created_at": memory.created_at,
            "outcome": memory.outcome.value if memory.outcome else None,
            "superseded_by": memory.superseded_by}
