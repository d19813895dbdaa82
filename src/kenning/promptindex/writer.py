"""The prompt index: what the per-prompt hook needs, precomputed at consolidation into one file
it can read without SQLite (loading ``_sqlite3`` alone costs a fresh process ~3 ms, a fifth of its
budget) and without parsing the whole file (a memory-mapped hash table of terms).

Layout (little-endian): a header; a term hash table of ``(fnv64, postings offset, df)`` slots;
postings of ``(memory number, BM25 weight)``; memory records (fixed numbers, then id, project,
scope, type, topic, summary, outcome, detail and drift reason joined by U+001F); a second hash
table, of words near in meaning to the store's terms (``promptindex.neighbours``), whose entries
point at those terms' postings with their similarity. Weights are BM25 with the same column
weights as the SQLite FTS ranking; terms are ``kenning.words`` split and lightly stemmed.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Imported by their full names: ``from kenning.promptindex import ...`` would read the package
# root, whose lazy names load this module (an import cycle, however harmless at run time).
import kenning.promptindex.format as F
import kenning.promptindex.neighbours as neighbours
from kenning.promptindex.format import terms_of

HEADER = struct.Struct(F.HEADER)
SLOT = struct.Struct(F.SLOT)
POSTING = struct.Struct(F.POSTING)
RECORD = struct.Struct(F.RECORD)
EXPANSION = struct.Struct(F.EXPANSION)
K1, B = 1.2, 0.75
FIELD_WEIGHTS = (2.0, 1.5, 1.0, 1.0)  # topic, summary, content, tags (as the FTS bm25 call)
assert HEADER.size == F.HEADER_SIZE and RECORD.size == F.RECORD_SIZE
assert EXPANSION.size == F.EXPANSION_SIZE


@dataclass(frozen=True)
class Entry:
    """One memory as the prompt hook sees it."""

    id: str
    project: str
    scope: str
    type: str
    topic: str | None
    summary: str
    content: str
    tags: Sequence[str]
    outcome: str | None
    confidence: float
    pagerank: float
    use: float  # what injecting it taught (kenning.usage.injection_factor)
    created_at: int
    updated_at: int
    last_accessed_at: int | None
    valid_to: int | None  # when a successor superseded it (the hook leaves it out from then)
    drift: str | None = None  # "stale" or "obsolete": its code changed or went since
    drift_reason: str | None = None


def build(entries: Iterable[Entry], store_version: bytes, built_at: int) -> bytes:
    """The index file's bytes for ``entries``."""
    entries = list(entries)
    docs: list[dict[str, float]] = []
    lengths: list[float] = []
    for e in entries:
        tf: dict[str, float] = {}
        length = 0.0
        for weight, text in zip(FIELD_WEIGHTS, (e.topic or "", e.summary, e.content,
                                                " ".join(e.tags)), strict=True):
            for t in terms_of(text):
                tf[t] = tf.get(t, 0.0) + weight
                length += weight
        docs.append(tf)
        lengths.append(length)
    n = len(entries)
    avg = (sum(lengths) / n) if n else 1.0
    postings: dict[str, list[tuple[int, float]]] = {}
    for i, tf in enumerate(docs):
        norm = K1 * (1 - B + B * lengths[i] / (avg or 1.0))
        for t, f in tf.items():
            postings.setdefault(t, []).append((i, f * (K1 + 1) / (f + norm)))
    slots = _slots(len(postings))
    table = [(0, 0, 0)] * slots
    post_blob = bytearray()
    where: dict[str, tuple[int, int]] = {}  # term -> postings offset, document frequency
    for t, plist in postings.items():
        df = len(plist)
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        h = F.fnv64(t)
        _place(table, h, (h, len(post_blob), df))
        where[t] = (len(post_blob), df)
        plist.sort(key=lambda p: -p[1])
        for mem, w in plist:
            post_blob += POSTING.pack(mem, w * idf)
    near = neighbours.expansions(where)
    exp_slots = _slots(len(near))
    exp_table = [(0, 0, 0)] * exp_slots
    exp_blob = bytearray()
    for word, found in near.items():
        h = F.fnv64(word)
        _place(exp_table, h, (h, len(exp_blob), len(found)))
        for t, sim in found:
            exp_blob += EXPANSION.pack(*where[t], sim)
    mem_offsets = bytearray()
    mem_blob = bytearray()
    for e in entries:
        record = F.SEP.join((e.id, e.project, e.scope, e.type, e.topic or "", e.summary,
                           e.outcome or "", F.detail_of(e.summary, e.content).replace(F.SEP, " "),
                           (e.drift_reason or "").replace(F.SEP, " "))).encode("utf-8")
        mem_offsets += struct.pack("<I", len(mem_blob))
        mem_blob += RECORD.pack(e.confidence, e.pagerank, e.use, e.created_at, e.updated_at,
                                e.last_accessed_at or 0, e.valid_to or 0,
                                (F.ENDS if e.valid_to is not None else 0)
                                | F.DRIFT_FLAGS.get(e.drift or "", 0), len(record))
        mem_blob += record
    table_off = HEADER.size
    post_off = table_off + slots * SLOT.size
    mem_off = post_off + len(post_blob)
    exp_table_off = mem_off + len(mem_offsets) + len(mem_blob)
    exp_off = exp_table_off + exp_slots * SLOT.size
    out = bytearray(HEADER.pack(F.MAGIC, F.VERSION, n, slots, store_version, built_at, table_off,
                                post_off, mem_off, exp_slots, exp_table_off, exp_off))
    for slot in table:
        out += SLOT.pack(*slot)
    out += post_blob
    out += mem_offsets
    out += mem_blob
    for slot in exp_table:
        out += SLOT.pack(*slot)
    out += exp_blob
    return bytes(out)


def _slots(keys: int) -> int:
    """A power of two at least twice ``keys``: an open-addressing table at most half full."""
    slots = 1
    while slots < 2 * max(1, keys):
        slots *= 2
    return slots


def _place(table: list[tuple[int, int, int]], h: int, slot: tuple[int, int, int]) -> None:
    """Put ``slot`` (keyed by hash ``h``) in the first free place from ``h`` (linear probing, as
    the reader looks it up)."""
    i = h & (len(table) - 1)
    while table[i][0]:
        i = (i + 1) & (len(table) - 1)
    table[i] = slot
