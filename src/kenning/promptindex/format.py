"""The prompt index's format and term handling, shared by its writer (``promptindex.writer``)
and its reader in the prompt hook, which must import nothing heavier than this."""

from kenning.words import words

MAGIC = b"KNPIDX01"
VERSION = 5  # 4: a table of words near in meaning to the store's terms; 5: each record's drift
# magic, format version, memories, table slots, the store's write marker when built (see
# kenning.places.lean.version_file), built at, offsets of the term table, postings and memories,
# expansion table slots and the offsets of the expansion table and of its entries
HEADER = "<8sIII16sqqqqIqq"
HEADER_SIZE = 8 + 4 * 3 + 16 + 8 * 4 + 4 + 8 * 2
SLOT = "<QII"  # fnv64 of the term, postings offset, document frequency
SLOT_SIZE = 16
# an expansion slot is a SLOT too: fnv64 of a word, offset of its entries, how many entries
POSTING = "<If"  # memory number, BM25 weight (idf included)
POSTING_SIZE = 8
EXPANSION = "<IIf"  # postings offset and document frequency of a store term, similarity
EXPANSION_SIZE = 12
EXPANSION_WEIGHT = 0.5  # a match by a word near in meaning counts half as much, times its
# similarity, as the word itself
# confidence, pagerank, use factor, created, updated, accessed, valid to, flags, text length
RECORD = "<fffqqqqBI"
RECORD_SIZE = 4 * 3 + 8 * 4 + 1 + 4
SEP = "\x1f"
ENDS = 1  # flag: "valid to" holds when a successor superseded the memory
STALE = 2  # flag: the code the memory describes changed since it was recorded
OBSOLETE = 4  # flag: that code was deleted
DRIFT_FLAGS = {"stale": STALE, "obsolete": OBSOLETE}
FNV_OFFSET, FNV_PRIME, MASK = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1


def drift_of(flags: int) -> str | None:
    """A record's drift from its flags (``Memory.drift``)."""
    return "obsolete" if flags & OBSOLETE else "stale" if flags & STALE else None


def fnv64(term: str) -> int:
    """FNV-1a over UTF-8: a hash that is the same in every process (``hash()`` is not)."""
    h = FNV_OFFSET
    for byte in term.encode("utf-8"):
        h = ((h ^ byte) * FNV_PRIME) & MASK
    return h or 1


def stem(word: str) -> str:
    """A light English stemmer (plural and -ing/-ed forms), the same at build and query time."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            return base[:-1] if len(base) > 3 and base[-1] == base[-2] else base
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_STEMS: dict[str, str] = {}  # word -> stem, for the words seen so far in this process
_STEMS_MAX = 100_000  # a long-lived process (the MCP server) starts the memo anew past this


def _stemmed(word: str) -> str:
    if len(_STEMS) >= _STEMS_MAX:
        _STEMS.clear()
    out = _STEMS[word] = stem(word)
    return out


def terms_of(text: str) -> list[str]:
    """The text's words, stemmed: a word's stem is looked up once per process (a prompt's
    candidate memories and an index build repeat the same few thousand words)."""
    memo = _STEMS
    return [memo[w] if w in memo else _stemmed(w) for w in words(text)]


DETAIL_CHARS = 320  # of a memory's content, shown under its line when it is a best match


def detail_of(summary: str, content: str) -> str:
    """What a memory's content says beyond its summary, whitespace collapsed, cut at a sentence
    end (or a word) within ``DETAIL_CHARS``: the why, the fix, the command."""
    text = " ".join(content.split())
    head = " ".join(summary.split()).rstrip(".…")
    if head and text.startswith(head):
        text = text[len(head):].lstrip(" .:;,-—")
    if not text or text == head:
        return ""
    if len(text) <= DETAIL_CHARS:
        return text
    cut = text[:DETAIL_CHARS]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    if end >= DETAIL_CHARS // 3:
        return cut[:end + 1]
    return cut[:cut.rfind(" ")].rstrip(",;:") + "…" if " " in cut else cut + "…"
