"""The baselines, computed from a story alone (no hooks run):

- ``none``: no memory at all;
- ``bm25``: for each prompt, the 5 past user turns (earlier sessions) that BM25 ranks highest;
- ``dense``: for each prompt, the 5 past user turns (earlier sessions) whose sentence vectors,
  from the same embedding model Kenning ships, are closest to the prompt's (what a vector-only
  memory over the conversation would give);
- ``recency``: the last 5 user turns of earlier sessions, given once at session start;
- ``memory_md_only``: only the MEMORY.md lines a person wrote in the story, as the client loads
  them.

For capture, ``bm25``, ``dense`` and ``recency`` "store" every user turn and ``memory_md_only`` the
person's lines."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from replaykit.scoring import (
    Epoch,
    PromptView,
    SessionView,
    SystemRun,
    memory_md_as_loaded,
    split_units,
)
from replaykit.story import Compact, Probe, Story, User

TOP_K = 5
_WORD = re.compile(r"[a-z0-9_]+")
STOPWORDS = frozenset(
    "a an and are as at be but by can do for from has have i if in into is it its me my no "
    "not of on or our please so that the their then there these this to us was we what when "
    "which will with you your".split())


def tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


def bm25_top(query: str, docs: list[str], k: int = TOP_K, k1: float = 1.2,
             b: float = 0.75) -> list[str]:
    """The ``k`` documents BM25 ranks highest for ``query`` (only those sharing a word)."""
    if not docs:
        return []
    bags = [Counter(tokens(d)) for d in docs]
    avg = sum(sum(bag.values()) for bag in bags) / len(bags) or 1.0
    df: Counter[str] = Counter()
    for bag in bags:
        df.update(bag.keys())
    terms = set(tokens(query))
    scored = []
    for i, bag in enumerate(bags):
        length = sum(bag.values())
        score = 0.0
        for term in terms:
            tf = bag.get(term, 0)
            if not tf:
                continue
            idf = math.log(1 + (len(docs) - df[term] + 0.5) / (df[term] + 0.5))
            score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg))
        if score > 0:
            scored.append((-score, i))
    return [docs[i] for _, i in sorted(scored)[:k]]


def _turns(story: Story) -> list[list[str]]:
    return [[ev.text for ev in s.events if isinstance(ev, User)] for s in story.sessions]


def _epoch(start: list[str], memory: list[str]) -> Epoch:
    return Epoch(start_units=start, memory_units=memory, start_chars=len("\n".join(start)),
                 memory_chars=len("\n".join(memory)))


def _run(story: Story, start: Callable[[int], list[str]], memory: Callable[[int], list[str]],
         per_prompt: Callable[[int, str], list[str]]) -> SystemRun:
    run = SystemRun()
    for index, session in enumerate(story.sessions):
        view = SessionView(index=index, day=session.day, noise=session.noise)
        run.sessions.append(view)

        view.epochs.append(_epoch(start(index), memory(index)))
        for ev in session.events:
            if isinstance(ev, Compact):
                view.epochs.append(_epoch(start(index), memory(index)))
            if not isinstance(ev, User):
                continue
            units = per_prompt(index, ev.text)
            probe = ev if isinstance(ev, Probe) else None
            view.epochs[-1].prompts.append(PromptView(
                text=ev.text, units=units, context_chars=len("\n".join(units)),
                needs=tuple(probe.needs) if probe else (),
                stale=story.stale_for(index, probe) if probe else ()))
    return run


def none(story: Story) -> SystemRun:
    run = _run(story, lambda i: [], lambda i: [], lambda i, p: [])
    run.judged = None
    return run


def _past_turn_search(story: Story, top: Callable[[str, list[str]], list[str]]) -> SystemRun:
    """Every user turn stored; each prompt shown what ``top`` picks from the turns of earlier
    sessions."""
    turns = _turns(story)
    run = _run(story, lambda i: [], lambda i: [],
               lambda i, p: top(p, [t for ts in turns[:i] for t in ts]))
    run.stored = {f"turn-{n}": t for n, t in enumerate(t for ts in turns for t in ts)}
    run.judged = None
    return run


def bm25(story: Story) -> SystemRun:
    return _past_turn_search(story, bm25_top)


class _Vectors:
    """Unit vectors of texts from the embedding model Kenning ships (all-MiniLM-L6-v2),
    computed once per text and kept for the run."""

    def __init__(self) -> None:
        self._embedder: Any = None
        self._cache: dict[str, Any] = {}

    def of(self, texts: list[str]) -> Any:
        import numpy as np

        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            if self._embedder is None:
                from kenning.embed import MiniLMEmbedder

                self._embedder = MiniLMEmbedder()
            for text, vec in zip(todo, self._embedder.embed(todo), strict=True):
                self._cache[text] = vec
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])


_VECTORS = _Vectors()


def dense_top(query: str, docs: list[str], k: int = TOP_K) -> list[str]:
    """The ``k`` documents closest to ``query`` by cosine of their sentence vectors."""
    if not docs:
        return []
    scores = _VECTORS.of(docs) @ _VECTORS.of([query])[0]
    order = sorted(range(len(docs)), key=lambda i: (-float(scores[i]), i))
    return [docs[i] for i in order[:k]]


def dense(story: Story) -> SystemRun:
    return _past_turn_search(story, dense_top)


def recency(story: Story) -> SystemRun:
    turns = _turns(story)
    run = _run(story, lambda i: [t for ts in turns[:i] for t in ts][-TOP_K:], lambda i: [],
               lambda i, p: [])
    run.stored = {f"turn-{n}": t for n, t in enumerate(t for ts in turns for t in ts)}
    run.judged = None
    return run


def memory_md_only(story: Story) -> SystemRun:
    notes = [[n.text for n in s.notes] for s in story.sessions]

    def loaded(i: int) -> list[str]:
        return split_units(memory_md_as_loaded("\n".join(n for ns in notes[: i + 1]
                                                          for n in ns)))

    run = _run(story, lambda i: [], loaded, lambda i, p: [])
    run.stored = {f"note-{n}": t for n, t in enumerate(t for ns in notes for t in ns)}
    run.judged = None
    return run


BASELINES: dict[str, Callable[[Story], SystemRun]] = {
    "none": none, "bm25": bm25, "dense": dense, "recency": recency,
    "memory_md_only": memory_md_only,
}
