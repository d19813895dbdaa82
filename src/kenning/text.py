"""Text helpers shared by the facade and the engines: hashing, summaries, keyword terms."""

from __future__ import annotations

import hashlib
import re

from kenning.words import STOPWORDS

SUMMARY_MAX = 200

_WS = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)

def normalize_for_hash(text: str) -> str:
    """Whitespace-collapsed, stripped text: two memories equal under this are duplicates."""
    return _WS.sub(" ", text).strip()


def content_hash(text: str) -> str:
    """SHA-256 of the normalised text, hex."""
    return hashlib.sha256(normalize_for_hash(text).encode("utf-8")).hexdigest()


_BULLET = re.compile(r"^(?:[-*•]|\d+[.)])\s+")
_ASIDE = re.compile(r"\s*\([^()]*\)")


def make_summary(content: str, limit: int = SUMMARY_MAX) -> str:
    """The first non-empty line of ``content``, cut at a word boundary to ``limit`` characters.
    A first line that only introduces a list ("Writers of Shift / Signup in the repo (searched
    for ...):" above "- ..." items) is followed by the items, its aside dropped: alone it says
    nothing."""
    lines = [ln.strip() for ln in content.splitlines() if ln.strip()]
    first = lines[0] if lines else ""
    if first.endswith(":") and any(_BULLET.match(ln) for ln in lines[1:]):
        items = [_BULLET.sub("", ln) for ln in lines[1:] if not ln.startswith("```")]
        first = f"{_ASIDE.sub('', first)} " + "; ".join(i.rstrip(".;") for i in items)
    first = _WS.sub(" ", first)
    if len(first) <= limit:
        return first
    cut = first[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:") + "…"


def keyword_terms(query: str, limit: int = 32) -> list[str]:
    """Distinct lower-cased words of ``query`` without stopwords (all words if only stopwords)."""
    words = [w.lower() for w in _WORD.findall(query)]
    kept = [w for w in words if w not in STOPWORDS]
    return list(dict.fromkeys(kept or words))[:limit]


def embedding_text(topic: str | None, summary: str, content: str, limit: int = 2000) -> str:
    """What the embedder sees: topic words, the summary if it adds anything, then content."""
    parts = []
    if topic:
        parts.append(topic.replace("_", " ").replace("-", " ") + ":")
    if summary and not content.startswith(summary.rstrip("…")):
        parts.append(summary)
    parts.append(content)
    return " ".join(parts)[:limit]
