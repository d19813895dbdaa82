"""Episodes: what the user said, kept word for word (redacted like every memory; a turn that only
asks the agent to look at or explain something is left out) as low-weight
``context`` memories under the topic ``weights.EPISODE_TOPIC``, so a lesson the rules did not
recognise can still be found by recall and by the prompt hook. They rank at
``weights.EPISODE_FACTOR`` of their relevance, at most one is injected per prompt, the briefing
and MEMORY.md leave them out, they are not auto-linked, and they are pruned by age and count.

Pure: ``chunks`` and ``episode_items`` turn a transcript's user turns into items for
``Kenning.remember_many``; ``prune_plan`` says which stored episodes to drop."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kenning.weights import DAY_MS, EPISODE_TOPIC

CHUNK_CHARS = 320  # a few sentences: small enough to show whole, large enough to carry a rule
MIN_WORDS = 5  # content words (3+ letters) a chunk needs to be worth keeping
EPISODE_CONFIDENCE = 0.3
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'_-]{2,}")
_CHATTER = re.compile(
    r"^\W*(?:(?:good )?(?:morning|afternoon|evening)|hi|hey|hello|thanks?|thank you|cheers|"
    r"nice|great|perfect|cool|ok(?:ay)?|sure|yes|yep|no worries|lgtm|looks good|sounds good)"
    r"\b[\W\s]*", re.I)


@dataclass(frozen=True)
class EpisodeOptions:
    """The ``[episodes]`` settings: whether user turns are kept, for how many days, and how
    many per project at most (the oldest go first)."""

    keep: bool = True
    keep_days: int = 90
    max_per_project: int = 2000

    def __post_init__(self) -> None:
        if self.keep_days < 1:
            raise ValueError(f"episodes.keep_days must be at least 1, not {self.keep_days}")
        if self.max_per_project < 0:
            raise ValueError("episodes.max_per_project must be 0 or more, not "
                             f"{self.max_per_project}")

    @classmethod
    def from_section(cls, section: Mapping[str, object]) -> EpisodeOptions:
        """Options from the ``[episodes]`` config section (its values are type-checked by
        ``kenning.config``; missing keys take the defaults)."""
        days = section.get("keep_days", 90)
        most = section.get("max_per_project", 2000)
        return cls(keep=bool(section.get("keep", True)),
                   keep_days=days if isinstance(days, int) else 90,
                   max_per_project=most if isinstance(most, int) else 2000)


# A short sentence that only asks the agent to read, explain or look at something ("could you
# skim internal/api/orders.go, I want to refactor it later", "what does sqlc.yaml do again?")
# or to write a scratch note: the code says it better, and whatever the agent finds is in its
# answer, not in the ask.
_LOOK_ONLY = re.compile(
    r"^(?:(?:ok|okay|so|and|also|now|next|first|then|anyway)\W+)*"
    r"(?:(?:can|could|would|will) you (?:please |quickly |just |also )?|please |pls |just )?"
    r"(?:skim|read (?:through|over)|explain|summari[sz]e|walk me through|"
    r"remind me (?:what|how|where|why|which)|tell me (?:what|how|where|which)|"
    r"(?:take|have) a (?:quick |closer )?look (?:at|over|through)|look (?:at|over|through)|"
    r"what(?:'s| is) in\b|what (?:does|do) \S+ (?:do|for)\b|"
    r"(?:put|write|jot down|note down) (?:\S+\s){0,3}?(?:notes|todo list|to-do list))\b",
    re.I)
LOOK_ONLY_WORDS = 14  # longer, and the sentence says more than where to look


def _content_words(text: str) -> int:
    return len(_WORD.findall(text))


def _only_asks_to_look(sentence: str) -> bool:
    return len(sentence.split()) <= LOOK_ONLY_WORDS and bool(_LOOK_ONLY.match(sentence))


def _said_something(sentences: list[str]) -> list[str]:
    """``sentences`` without those that only ask the agent to look at something; when there
    were such asks, only the sentences that name something technical stay (what is left of
    "hey, back after the long weekend. anything on fire? what does orders_test.go do again?"
    is small talk around the ask)."""
    from kenning.extract.conventions import names_something_technical

    kept = [s for s in sentences if not _only_asks_to_look(s)]
    if len(kept) == len(sentences):
        return sentences
    return [s for s in kept if names_something_technical(s)]


def chunks(text: str, limit: int = CHUNK_CHARS) -> list[str]:
    """A user turn as runs of whole sentences of at most ``limit`` characters (a longer
    sentence stands alone, cut at a word), greetings and pleasantries dropped, a turn that
    only asks the agent to look at something dropped (``_said_something``), and runs with
    fewer than ``MIN_WORDS`` content words left out."""
    sentences = []
    for s in _said_something([" ".join(s.split()) for s in _SENTENCE.split(text.strip())
                              if s.strip()]):
        if len(s) > limit:
            s = s[: limit - 1].rsplit(" ", 1)[0] + "…"
        sentences.append(s)
    out: list[str] = []
    run = ""
    for s in sentences:
        if run and len(run) + 1 + len(s) > limit:
            out.append(run)
            run = ""
        run = f"{run} {s}".strip()
    if run:
        out.append(run)
    kept = []
    for c in out:
        bare = _CHATTER.sub("", c)
        if _content_words(bare) >= MIN_WORDS:
            kept.append(c)
    return kept


def episode_items(turns: Iterable[tuple[str, int]], session_id: str | None,
                  source: str = "extract:transcript") -> list[dict[str, Any]]:
    """``Kenning.remember_many`` items for a session's user turns, ``(text, line)`` each. A turn
    is redacted whole before it is cut into runs: a secret cut in two (a private key's lines
    without its header) would no longer be recognised in either part."""
    from kenning.redact import redact

    items = []
    for text, line in turns:
        for n, chunk in enumerate(chunks(redact(text).text)):
            items.append({
                "text": chunk, "type": "context", "topic": EPISODE_TOPIC,
                "confidence": EPISODE_CONFIDENCE, "tags": ["episodic"], "source": source,
                "metadata": {"episode": "user turn", "session_id": session_id,
                             "line": line, "part": n},
            })
    return items


def prune_plan(episodes: Iterable[tuple[str, int]], now_ms: int, options: EpisodeOptions
               ) -> list[str]:
    """Ids of stored episodes, ``(id, created_at)`` each, to drop: older than ``keep_days``,
    then the oldest beyond ``max_per_project``."""
    rows = sorted(episodes, key=lambda r: (-r[1], r[0]))
    cutoff = now_ms - options.keep_days * DAY_MS
    drop = [mid for mid, at in rows if at < cutoff]
    young = [mid for mid, at in rows if at >= cutoff]
    return drop + young[options.max_per_project:]
