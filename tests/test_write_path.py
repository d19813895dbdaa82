"""Writes that never wait for the model: the memory and its keyword index are committed at once;
its vector and automatic links follow (in the background, before anything that needs them, or
in the next process) and come out as a waiting write would have made them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from kenning import Kenning, facade
from kenning.embed import MiniLMEmbedder
from tests.conftest import T0, Clock
from tests.test_graph import story


class CountingEmbedder:
    """The real model, counting the calls that reach it."""

    def __init__(self, inner: MiniLMEmbedder) -> None:
        self.inner, self.id, self.dim, self.calls = inner, inner.id, inner.dim, 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        return self.inner.embed(texts)


def link_set(k: Kenning) -> set[tuple[str, str, str, str, float, int]]:
    """Every link by the texts of its ends (ids differ between stores)."""
    text = {m.id: m.content for m in k.list(limit=None)}
    return {(text[ln.from_id], text[ln.to_id], ln.link_type.value, ln.relationship,
             round(ln.confidence, 4), ln.created_at)
            for m in text for ln in k.links(m) if ln.from_id == m}


def test_remember_returns_before_the_model_runs_and_recall_still_finds_it(
    make_kenning: Callable[..., Kenning], embedder: MiniLMEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(facade, "SETTLE_DELAY_S", 3600.0)  # no background run in this test
    counting = CountingEmbedder(embedder)
    k = make_kenning(embedder=counting)
    m = k.remember("Put PgBouncer in transaction mode for the orders service",
                   type="decision", topic="database")
    assert counting.calls == 0
    assert k.store.count_missing_vectors(embedder.id) == 1
    # The keyword side finds it while its vector is pending...
    assert [h.memory.id for h in k.recall("PgBouncer", mode="keyword")] == [m.id]
    # ...and hybrid recall computes what is pending first: one vector space, nothing missed.
    assert m.id in [h.memory.id for h in k.recall("connection pooler for postgres")]
    assert k.store.count_missing_vectors(embedder.id) == 0
    assert k.store.pending_links(10) == []


def test_deferred_writes_make_the_links_a_waiting_write_makes(
    make_kenning: Callable[..., Kenning], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Explicit links, links inferred from the reasoning, temporal and same-topic links, with
    the times they date from (decay runs from there), and an update and an outcome between
    the writes."""
    monkeypatch.setattr(facade, "SETTLE_DELAY_S", 3600.0)
    made = {}
    for defer in (False, True):
        clock = Clock()
        k = make_kenning(f"k-{defer}.db", clock=clock, defer_vectors=defer, auto_link=True)
        story(k, clock)
        if defer:
            assert k.store.pending_links(100)
        made[defer] = link_set(k)
        assert k.store.pending_links(100) == []
    assert made[True] == made[False] and len(made[True]) >= 5


CHILD = textwrap.dedent("""
    import os, sys
    from kenning import Kenning
    k = Kenning(sys.argv[1], project="proj", clock=lambda: int(sys.argv[2]), auto_link=True)
    for text, topic in [("Use Redis for the session store", "caching"),
                        ("Redis session store needs a maxmemory policy", "caching"),
                        ("Session cache in Redis evicts keys under memory pressure", "sessions"),
                        ("Tailwind for styling the dashboard", "frontend")]:
        k.remember(text, type="decision", topic=topic)
    os._exit(0)  # killed: no close, nothing settled here
""")


def test_the_next_process_settles_what_a_killed_one_left(
    make_kenning: Callable[..., Kenning], embedder: MiniLMEmbedder, tmp_path: Path,
) -> None:
    path = tmp_path / "killed.db"
    subprocess.run([sys.executable, "-c", CHILD, str(path), str(T0)], check=True,
                   env=dict(os.environ), timeout=300)
    blind = Kenning(path, project="proj", embedder=None)
    try:  # a process without the model finds them by keyword
        assert len(blind.recall("Redis", mode="keyword")) == 3
    finally:
        blind.close()
    k = make_kenning("killed.db", clock=lambda: T0 + 60_000, auto_link=True)
    reference = make_kenning("waited.db", clock=lambda: T0, defer_vectors=False, auto_link=True)
    for text, topic in [("Use Redis for the session store", "caching"),
                        ("Redis session store needs a maxmemory policy", "caching"),
                        ("Session cache in Redis evicts keys under memory pressure", "sessions"),
                        ("Tailwind for styling the dashboard", "frontend")]:
        reference.remember(text, type="decision", topic=topic)
    assert link_set(k) == link_set(reference) and link_set(k)
    assert k.store.count_missing_vectors(embedder.id) == 0
    assert k.store.pending_links(10) == []


def test_a_read_never_waits_for_a_backlog_another_process_left(
    make_kenning: Callable[..., Kenning], embedder: MiniLMEmbedder, tmp_path: Path,
) -> None:
    """A thousand memories written without their vectors by another process: the next read
    embeds a bounded part of them (``recall.READ_BACKLOG``) and answers; what it did not
    embed it still finds by its words, and the rest is settled after (here: by ``settle``)."""
    from kenning import recall

    writer = make_kenning("backlog.db", defer_vectors=True)
    writer.remember_many([{"text": f"deploy note {i}: the worker restarted after a timeout"}
                          for i in range(999)]
                         + [{"text": "The zebrafish-cache warms the search index nightly"}])
    writer.close()  # before its background settling began: all 1,000 are left pending
    k = make_kenning("backlog.db")
    assert len(k.store.pending_links(2000)) == 1000
    hits = k.recall("zebrafish-cache nightly warming")
    assert hits and "zebrafish-cache" in hits[0].memory.content  # the newest: by its words
    k.close()  # waits for at most one small background batch
    reader = make_kenning("backlog.db")
    left = len(reader.store.pending_links(2000))
    assert 0 < left <= 1000 - recall.READ_BACKLOG
    reader.settle()
    assert reader.store.pending_links(10) == []
    assert reader.store.count_missing_vectors(embedder.id) == 0


def test_doctor_answers_at_once_and_reindex_settles_a_backlog_with_progress(
    make_kenning: Callable[..., Kenning], embedder: MiniLMEmbedder,
) -> None:
    """``doctor`` computes a bounded part of a backlog and counts the rest; ``reindex``
    computes the rest, vectors and links, telling its progress batch by batch."""
    from kenning import recall

    writer = make_kenning("doctor.db", defer_vectors=True)
    writer.remember_many([{"text": f"cache note {i}: the warmer skipped shard {i % 9}"}
                          for i in range(300)])
    writer.close()
    k = make_kenning("doctor.db", defer_vectors=False)
    assert k.status()["vectors_missing"] == 300 - recall.READ_BACKLOG
    told: list[tuple[int, int]] = []
    assert k.reindex(progress=lambda done, total: told.append((done, total))) == (
        300 - recall.READ_BACKLOG)
    assert len(told) > 1 and told[-1][0] == told[-1][1] == 300 - recall.READ_BACKLOG
    assert k.status()["vectors_missing"] == 0 and k.store.pending_links(10) == []


def test_a_memory_forgotten_before_its_vector_is_settled_quietly(
    make_kenning: Callable[..., Kenning], embedder: MiniLMEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(facade, "SETTLE_DELAY_S", 3600.0)
    k = make_kenning()
    keep = k.remember("Pin the Node version in .nvmrc", type="pattern", topic="ci")
    gone = k.remember("Pin the Python version in .python-version", type="pattern", topic="ci")
    k.forget(gone.id)
    assert [h.memory.id for h in k.recall("pin the runtime version")] == [keep.id]
    assert k.store.pending_links(10) == [] and k.store.vector_counts() == {embedder.id: 1}
