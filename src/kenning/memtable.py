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

TYPE_CHECKING = False  # typing is not imported: it costs the fast path milliseconds
if TYPE_CHECKING:
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


def short_ids_among(ids: Iterable[str], known: Sequence[str]) -> dict[str, str] | None:
    """As ``short_ids``, from ``known``: every stored id from just below the smallest of
    ``ids`` to just above the largest, sorted (one range read instead of a lookup per id). An
    id's shortest unambiguous prefix is one character longer than what it shares with the ids
    next to it. None when an id is not in ``known``."""
    where = {full: i for i, full in enumerate(known)}
    out: dict[str, str] = {}
    for full in ids:
        i = where.get(full)
        if i is None:
            return None
        shared = 0
        for j in (i - 1, i + 1):
            if 0 <= j < len(known):
                other = known[j]
                n = 0
                while n < min(len(full), len(other)) and full[n] == other[n]:
                    n += 1
                shared = max(shared, n)
        out[full] = full[:min(len(full), max(MIN_ID, shared + 1))]
    return out


def clean(text: str) -> str:
    """One line of plain text: whitespace runs folded, terminal control characters dropped."""
    text = str(text)
    if text.isprintable():  # nothing to drop (the common case: no table lookup per character)
        return " ".join(text.split())
    return " ".join(text.translate(_CONTROL).split())


def clip(text: str, width: int) -> str:
    text = clean(text)
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def state(row: dict[str, Any], ids: dict[str, str]) -> str:
    """The marker before a summary: its outcome, what superseded it, and whether the code it
    describes changed since (``[stale]``) or went (``[obsolete]``)."""
    marks = []
    if row.get("outcome"):
        marks.append(f"[{row['outcome']}]")
    if row.get("drift"):
        marks.append(f"[{row['drift']}]")
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


def explain(memory_id: str, p: dict[str, float], alpha: float) -> str:
    """One hit's score as the arithmetic that made it: the fused relevance (with what it took
    from adjacent and linked memories and from the names the query asks about) times each
    factor (the factor itself, with the raw value it came from), PageRank blended in as
    ``alpha x score + (1 - alpha) x pagerank`` once the graph is computed, then outcome and
    supersession."""
    factors = [f"confidence {p['confidence_factor']:.3f} (conf {p['confidence']:.2f})",
               f"recency {p['recency_factor']:.3f} (age weight {p['recency']:.2f})",
               f"intent {p['intent']:.2f}"]
    base = p["relevance"] * p["confidence_factor"] * p["recency_factor"] * p["intent"]
    if "context" in p:
        factors.append(f"context {p['context']:.2f}")
        base *= p["context"]
    if p.get("episode", 1.0) != 1.0:
        factors.append(f"kept user turn {p['episode']:.2f}")
        base *= p["episode"]
    if "dated" in p:
        factors.append(f"date asked for {p['dated']:.2f}")
        base *= p["dated"]
    shared = "".join(f", + {name} {p[key]:.3f}" for key, name in
                     (("adjacent", "from adjacent memories"), ("linked", "from linked memories"),
                      ("named", "from the names asked about")) if p.get(key))
    text = (f"{memory_id}: relevance {p['relevance']:.3f} (keyword rank "
            f"{int(p['keyword_rank']) or '-'}, vector rank {int(p['vector_rank']) or '-'}, "
            f"similarity {p['vector_similarity']:.3f}{shared}) x " + " x ".join(factors)
            + f" = {base:.4f}")
    if "pagerank" in p:
        base = alpha * base + (1 - alpha) * p["pagerank"]
        text += (f"; with PageRank {alpha:g} x that + {1 - alpha:g} x {p['pagerank']:.3f} "
                 f"= {base:.4f}")
    return text + (f"; x outcome {p['outcome']:.2f} x superseded {p['superseded']:.2f} "
                   f"= {p['final']:.4f}")


def render_memory(d: dict[str, Any], links: Sequence[dict[str, Any]]) -> str:
    """``kenning show``: every field of ``Memory.to_dict()`` but the content, the metadata as
    JSON, the content, then each link with its direction."""
    import json

    width = max(len(key) for key in d)
    out = []
    for key, value in d.items():
        if key in ("content", "metadata"):
            continue
        if isinstance(value, list):
            value = ", ".join(value) or "-"
        out.append(f"{key:<{width}}  {'-' if value is None else value}")
    if d.get("metadata"):
        out.append(f"{'metadata':<{width}}  {json.dumps(d['metadata'], ensure_ascii=False)}")
    out += ["", d["content"]]
    if links:
        out.append("")
        for ln in links:
            arrow = f"-> {ln['to_id']}" if ln["from_id"] == d["id"] else f"<- {ln['from_id']}"
            out.append(f"{ln['relationship']} ({ln['link_type']}, {ln['confidence']:.2f}) "
                       f"{arrow}")
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
            "superseded_by": memory.superseded_by, "drift": memory.drift}
