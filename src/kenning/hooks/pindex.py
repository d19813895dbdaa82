"""Read the prompt index (``kenning.promptindex``) in the prompt hook: map the file, look up the
prompt's terms in its hash table and score only the memories they name."""

import _struct
import mmap
import os

from kenning.hooks import inject
from kenning.hooks.inject import CANDIDATES, COMMON_FRACTION, COMMON_FROM, MAX_TERMS, PROMPT_CHARS
from kenning.places import lean
from kenning.promptindex import format as F
from kenning.words import query_terms

TYPE_CHECKING = False
if TYPE_CHECKING:  # the prompt hook never imports collections
    from collections.abc import Collection

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


def rank(data: mmap.mmap | bytes, prompt: str, project: str, now_ms: int, k: int = 5,
         min_confidence: float = 0.0, seen: "Collection[str]" = ()) -> list[dict[str, object]]:
    """The same contract as ``kenning.hooks.context.rank``, over the index."""
    head = _struct.unpack_from(F.HEADER, data, 0)
    n_mem, slots, table_off, post_off, mem_off = head[2], head[3], head[6], head[7], head[8]
    if not n_mem:
        return []
    found: list[tuple[int, int]] = []
    asked = [t for t in query_terms(prompt[:PROMPT_CHARS], MAX_TERMS) if len(t) > 1]
    for term in asked:
        h = F.fnv64(F.stem(term))
        i = h & (slots - 1)
        while True:
            slot_h, off, df = _struct.unpack_from(F.SLOT, data, table_off + i * F.SLOT_SIZE)
            if slot_h == 0:
                break
            if slot_h == h:
                found.append((off, df))
                break
            i = (i + 1) & (slots - 1)
    if n_mem >= COMMON_FROM and len(found) > 1:
        rare = [f for f in found if f[1] <= COMMON_FRACTION * n_mem]
        found = rare or sorted(found, key=lambda f: f[1])[:2]
    scores: dict[int, float] = {}
    terms: dict[int, int] = {}  # distinct prompt terms each memory matched
    for off, df in dict.fromkeys(found):
        start = post_off + off
        for mem, w in _struct.iter_unpack(F.POSTING, data[start: start + df * F.POSTING_SIZE]):
            scores[mem] = scores.get(mem, 0.0) + w
            terms[mem] = terms.get(mem, 0) + 1
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
        if not inject.matches_enough(mtype, topic, terms[mem], len(asked)):
            continue
        hits.append(inject.hit(mid, mtype, topic, summary, conf, created, updated,
                               accessed or None, outcome or None, scores[mem] / top,
                               pr, valid_to if flags & F.ENDS else None, now_ms, graph=True,
                               min_confidence=min_confidence, detail=detail, use=use,
                               drift=F.drift_of(flags), drift_reason=why or None))
    return inject.best(hits, k, seen)
