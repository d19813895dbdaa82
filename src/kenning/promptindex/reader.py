"""Read the prompt index (``kenning.promptindex``) in the prompt hook: map the file, look up the
prompt's terms in its hash table and score only the memories they name."""

import _struct
import mmap
import os

from kenning.places import lean
from kenning.promptindex import format as F
from kenning.promptindex import inject
from kenning.promptindex.inject import (
    CANDIDATES,
    COMMON_FRACTION,
    COMMON_FROM,
    MAX_TERMS,
    PROMPT_CHARS,
)
from kenning.words import query_terms

TYPE_CHECKING = False
if TYPE_CHECKING:  # the prompt hook never imports collections
    from collections.abc import Collection
    from typing import Any

FILE = "prompt-index.bin"


def index_path(journal_dir: str) -> str:
    return os.path.join(journal_dir, FILE)


def load(path: str, location: str, max_age_ms: int | None = None, now_ms: int = 0
         ) -> mmap.mmap | None:
    """The index, memory-mapped (only the pages a prompt touches are read), if it exists and
    the store has not been written since it was built (for a server store: by this machine)
    and, with ``max_age_ms``, it was built at most that long before ``now_ms`` (a server
    store's other writers: past that age prompts ask the server); else None (ask the store)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        size = os.fstat(fd).st_size
        if size < F.HEADER_SIZE:
            return None
        data = mmap.mmap(fd, size, access=mmap.ACCESS_READ)
    finally:
        os.close(fd)
    head = _struct.unpack_from(F.HEADER, data, 0)
    if head[0] != F.MAGIC or head[1] != F.VERSION:
        return None
    if head[4] != lean.read_version(lean.version_file(location)):
        return None
    if max_age_ms is not None and now_ms - head[5] > max_age_ms:
        return None
    return data


def _lookup(data: "mmap.mmap | bytes", table_off: int, slots: int, h: int
            ) -> tuple[int, int] | None:
    """The (offset, count) a hash table of ``slots`` at ``table_off`` holds for hash ``h``."""
    i = h & (slots - 1)
    while True:
        slot_h, off, count = _struct.unpack_from(F.SLOT, data, table_off + i * F.SLOT_SIZE)
        if slot_h == 0:
            return None
        if slot_h == h:
            return off, count
        i = (i + 1) & (slots - 1)


def _reach(found: "dict[int, list[Any]]", off: int, df: int, factor: float, word: int) -> None:
    """Record that prompt word number ``word`` reaches the postings at ``off`` with ``factor``
    (1.0: the word itself); postings reached twice count once, at the better factor."""
    own = 1 << word if factor == 1.0 else 0
    had = found.get(off)
    if had is None:
        found[off] = [df, factor, 1 << word, own]
    else:
        had[1] = max(had[1], factor)
        had[2] |= 1 << word
        had[3] |= own


def rank(data: mmap.mmap | bytes, prompt: str, project: str, now_ms: int, k: int = 5,
         min_confidence: float = 0.0, seen: "Collection[str]" = ()) -> list[dict[str, object]]:
    """The same contract as ``kenning.hooks.context.rank``, over the index."""
    head = _struct.unpack_from(F.HEADER, data, 0)
    n_mem, slots, table_off, post_off, mem_off = head[2], head[3], head[6], head[7], head[8]
    exp_slots, exp_table_off, exp_off = head[9], head[10], head[11]
    if not n_mem:
        return []
    # postings offset -> [document frequency, weight factor, the prompt words that reach it,
    # those that are the term itself]: a word's own postings at 1.0, those of the store terms
    # near it in meaning at EXPANSION_WEIGHT times their similarity
    found: dict[int, list[Any]] = {}
    asked = [t for t in query_terms(prompt[:PROMPT_CHARS], MAX_TERMS) if len(t) > 1]
    for n, term in enumerate(asked):
        h = F.fnv64(F.stem(term))
        got = _lookup(data, table_off, slots, h)
        if got is not None:
            _reach(found, got[0], got[1], 1.0, n)
        got = _lookup(data, exp_table_off, exp_slots, h) if exp_slots else None
        if got is not None:
            start = exp_off + got[0]
            for off, df, sim in _struct.iter_unpack(
                    F.EXPANSION, data[start: start + got[1] * F.EXPANSION_SIZE]):
                _reach(found, off, df, F.EXPANSION_WEIGHT * sim, n)
    if n_mem >= COMMON_FROM and len(found) > 1:
        rare = {off: f for off, f in found.items() if f[0] <= COMMON_FRACTION * n_mem}
        found = rare or dict(sorted(found.items(), key=lambda f: f[1][0])[:2])
    scores: dict[int, float] = {}
    reached: dict[int, int] = {}  # bit n set: the memory matched prompt word n
    said: dict[int, int] = {}  # bit n set: ... in the word's own form
    for off, (df, factor, words, own) in found.items():
        start = post_off + off
        for mem, w in _struct.iter_unpack(F.POSTING, data[start: start + df * F.POSTING_SIZE]):
            scores[mem] = scores.get(mem, 0.0) + w * factor
            reached[mem] = reached.get(mem, 0) | words
            if own:
                said[mem] = said.get(mem, 0) | own
    if not scores:
        return []
    top = max(scores.values()) or 1.0
    head_ids = sorted(scores, key=lambda m: -scores[m])[: max(CANDIDATES, 4 * k)]
    blob = mem_off + 4 * n_mem
    hits = []
    for mem in head_ids:
        rel_off = _struct.unpack_from("<I", data, mem_off + 4 * mem)[0]
        conf, pr, use, created, updated, accessed, valid_to, flags, size = _struct.unpack_from(
            F.RECORD, data, blob + rel_off)
        start = blob + rel_off + F.RECORD_SIZE
        mid, mproject, scope, mtype, topic, summary, outcome, detail, why = (
            data[start: start + size].decode("utf-8").split(F.SEP))
        if mproject != project and scope != "user":
            continue
        if not inject.matches_enough(mtype, topic, reached[mem].bit_count(), len(asked),
                                     said.get(mem, 0).bit_count()):
            continue
        hits.append(inject.hit(mid, mtype, topic, summary, conf, created, updated,
                               accessed or None, outcome or None, scores[mem] / top,
                               pr, valid_to if flags & F.ENDS else None, now_ms, graph=True,
                               min_confidence=min_confidence, detail=detail, use=use,
                               drift=F.drift_of(flags), drift_reason=why or None))
    return inject.best(hits, k, seen)
