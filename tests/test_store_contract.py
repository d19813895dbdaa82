"""The store contract: every engine must pass these (add an engine to ENGINES)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kenning.errors import NotFoundError
from kenning.ids import new_id
from kenning.models import (
    Anchor,
    Category,
    CreatedBy,
    Filters,
    Link,
    LinkType,
    Memory,
    MemoryType,
    OutcomeStatus,
    Scope,
)
from kenning.store.base import SCHEMA_VERSION, Store
from kenning.store.postgres import PostgresStore
from kenning.store.sqlite import SQLiteStore
from kenning.text import content_hash
from tests import pg_fixtures

pg_server, pg_dsn = pg_fixtures.pg_server, pg_fixtures.pg_dsn  # a real server per session
T0 = 1_780_000_000_000
# Each engine opens a store from what its fixture gives: a tmp dir or a fresh schema's DSN.
ENGINES: dict[str, Callable[[Any], Store]] = {
    "sqlite": lambda tmp: SQLiteStore(tmp / "contract.db"),
    "postgresql": lambda dsn: PostgresStore(dsn),
}


@pytest.fixture(params=sorted(ENGINES))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    target = request.getfixturevalue("pg_dsn") if request.param == "postgresql" else tmp_path
    s = ENGINES[request.param](target)
    yield s
    s.close()


def mem(content: str, *, at: int = T0, **kw: Any) -> Memory:
    fields: dict[str, Any] = dict(
        id=new_id(at), type=MemoryType.INSIGHT, topic=None, summary=content[:60],
        content=content, category=Category.PROJECT_PATTERNS, tags=(), source=None,
        confidence=0.6, outcome=None, outcome_reason=None, project="p", scope=Scope.PROJECT,
        agent=None, created_at=at, updated_at=at, last_accessed_at=None, access_count=0,
        content_hash=content_hash(content), metadata={},
    )
    fields.update(kw)
    return Memory(**fields)


def unit(seed: int, dim: int = 8) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def test_is_a_store(store: Store) -> None:
    assert isinstance(store, Store)
    assert store.schema_version() == SCHEMA_VERSION


def test_insert_get_round_trip(store: Store) -> None:
    m = mem("Use JWT for auth", type=MemoryType.DECISION, topic="auth", tags=("a", "b"),
            metadata={"k": [1, "x"]}, outcome=OutcomeStatus.PARTIAL, outcome_reason="meh",
            agent="reviewer", source="cli")
    [stored] = store.insert([m], None, None)
    assert stored.is_new
    got = store.get_many([m.id])[m.id]
    assert got.to_dict() == m.to_dict()


def test_duplicate_content_returns_stored_memory(store: Store) -> None:
    first = mem("same text")
    store.insert([first], None, None)
    again = mem("same text", at=T0 + 5)
    [res] = store.insert([again], None, None)
    assert not res.is_new and res.id == first.id
    other_scope = mem("same text", scope=Scope.LOCAL)
    other_project = mem("same text", project="q")
    assert all(r.is_new for r in store.insert([other_scope, other_project], None, None))
    assert store.count(Filters()) == 3


def test_update_changes_fields_and_rejects_unknown(store: Store) -> None:
    m = mem("original")
    store.insert([m], None, None)
    u = store.update(m.id, {"confidence": 0.9, "tags": ("x",), "outcome": OutcomeStatus.FAILED,
                            "metadata": {"a": 1}}, None, None)
    assert (u.confidence, u.tags, u.outcome, u.metadata) == (0.9, ("x",), OutcomeStatus.FAILED,
                                                             {"a": 1})
    with pytest.raises(ValueError):
        store.update(m.id, {"id": "other"}, None, None)
    with pytest.raises(NotFoundError):
        store.update("0" * 26, {"confidence": 0.5}, None, None)


def test_check_constraints_reject_bad_rows(store: Store) -> None:
    with pytest.raises(Exception):  # noqa: B017 - engine-specific integrity error
        store.insert([mem("bad confidence", confidence=1.5)], None, None)
    assert store.count(Filters()) == 0


def test_delete_removes_vectors_and_links(store: Store) -> None:
    a, b = mem("alpha", at=T0), mem("beta", at=T0 + 1)
    store.insert([a, b], np.stack([unit(1), unit(2)]), "e1")
    store.add_link(Link(new_id(T0), a.id, b.id, LinkType.ASSOCIATION, 0.5, CreatedBy.USER,
                        {"original_relationship": "relates_to"}, T0))
    assert store.delete(a.id)
    assert not store.delete(a.id)
    assert store.links_of(b.id) == []
    assert store.vector_counts() == {"e1": 1}
    assert [i for i, _ in store.vector_search(unit(1), "e1", Filters(), 5)] == [b.id]


def test_list_and_count_filters(store: Store) -> None:
    rows = [
        mem("d1", type=MemoryType.DECISION, topic="auth", at=T0),
        mem("c1", type=MemoryType.CHECKPOINT, topic="auth", at=T0 + 10),
        mem("g1", type=MemoryType.GOTCHA, topic="db", at=T0 + 20, agent="rev"),
        mem("u1", scope=Scope.USER, project="", at=T0 + 30),
        mem("other", project="q", at=T0 + 40),
    ]
    store.insert(rows, None, None)
    mine = Filters(project="p")
    assert [m.content for m in store.list(mine)] == ["u1", "g1", "c1", "d1"]
    assert [m.content for m in store.list(mine, newest_first=False, limit=2)] == ["d1", "c1"]
    assert store.count(Filters(project="p", topic="auth")) == 2
    assert store.count(Filters(project="p", types=(MemoryType.GOTCHA,))) == 1
    assert store.count(Filters(project="p", since=T0 + 10, until=T0 + 30)) == 2
    assert store.count(Filters(project="p", scopes=(Scope.USER,))) == 1
    assert store.count(Filters(project="q")) == 2  # its own + the user's
    assert store.count(Filters(agent="rev")) == 1


def test_keyword_search_ranks_and_filters(store: Store) -> None:
    store.insert([
        mem("JWT tokens chosen for stateless auth", topic="auth"),
        mem("Redis sessions replaced JWT", topic="auth", at=T0 + 1),
        mem("pytest runs with -x in CI", topic="ci", at=T0 + 2),
    ], None, None)
    hits = store.keyword_search("why did we pick JWT?", Filters(project="p"), 10)
    assert len(hits) == 2 and all(s > 0 for _, s in hits)
    assert store.keyword_search("JWT", Filters(project="p", topic="ci"), 10) == []
    assert store.keyword_search("the of and", Filters(), 10) == []
    assert store.keyword_search('"unbalanced AND (quote', Filters(), 10) == []


def test_vector_search_uses_only_its_embedder_and_filters(store: Store) -> None:
    a = mem("a", type=MemoryType.DECISION)
    b = mem("b", at=T0 + 1)
    store.insert([a, b], np.stack([unit(1), unit(2)]), "e1")
    store.put_vectors("e2", [(a.id, unit(3))])
    res = store.vector_search(unit(1), "e1", Filters(project="p"), 10)
    assert [i for i, _ in res] == [a.id, b.id] and res[0][1] == pytest.approx(1.0, abs=1e-5)
    only = store.vector_search(unit(1), "e1", Filters(types=(MemoryType.INSIGHT,)), 10)
    assert [i for i, _ in only] == [b.id]
    assert [i for i, _ in store.vector_search(unit(3), "e2", Filters(), 10)] == [a.id]
    assert store.vector_search(unit(1), "nobody", Filters(), 10) == []


def test_vector_search_sees_writes_after_first_search(store: Store) -> None:
    a = mem("a")
    store.insert([a], np.stack([unit(1)]), "e1")
    assert len(store.vector_search(unit(1), "e1", Filters(), 10)) == 1
    b = mem("b", at=T0 + 1)
    store.insert([b], np.stack([unit(2)]), "e1")
    assert next(i for i, _ in store.vector_search(unit(2), "e1", Filters(), 10)) == b.id
    store.update(b.id, {"type": MemoryType.GOTCHA}, unit(4), "e1")
    res = store.vector_search(unit(4), "e1", Filters(types=(MemoryType.GOTCHA,)), 10)
    assert [i for i, _ in res] == [b.id]


def test_changed_text_drops_stale_vector(store: Store) -> None:
    a = mem("a")
    store.insert([a], np.stack([unit(1)]), "e1")
    store.update(a.id, {"content": "new text", "content_hash": content_hash("new text")},
                 None, None)
    assert store.count_missing_vectors("e1") == 1
    assert store.missing_vectors("e1", 10)[0][0] == a.id


def test_missing_put_and_drop_vectors(store: Store) -> None:
    a, b = mem("a"), mem("b", at=T0 + 1)
    store.insert([a, b], None, None)
    assert store.count_missing_vectors("e1") == 2
    store.put_vectors("e1", [(a.id, unit(1)), (b.id, unit(2))])
    store.put_vectors("e0", [(a.id, unit(5))])
    assert store.count_missing_vectors("e1") == 0
    assert store.drop_other_vectors("e1") == 1
    assert store.vector_counts() == {"e1": 2}


def test_record_access(store: Store) -> None:
    a = mem("a")
    store.insert([a], None, None)
    mark = store.watermark()
    store.record_access([a.id, a.id], T0 + 99)
    got = store.get_many([a.id])[a.id]
    assert (got.access_count, got.last_accessed_at) == (2, T0 + 99)
    assert store.watermark() == mark  # access statistics do not invalidate caches


def test_watermark_moves_on_insert_update_delete(store: Store) -> None:
    marks = {store.watermark()}
    a = mem("a")
    store.insert([a], None, None)
    marks.add(store.watermark())
    store.update(a.id, {"confidence": 0.7}, None, None)
    marks.add(store.watermark())
    store.delete(a.id)
    marks.add(store.watermark())
    assert len(marks) == 4


def test_links_round_trip_and_dedupe(store: Store) -> None:
    a, b = mem("a"), mem("b", at=T0 + 1)
    store.insert([a, b], None, None)
    link = Link(new_id(T0), b.id, a.id, LinkType.EVOLUTION, 0.9, CreatedBy.USER,
                {"original_relationship": "supersedes", "reason": "slow"}, T0)
    first = store.add_link(link)
    again = store.add_link(Link(new_id(T0 + 1), b.id, a.id, LinkType.EVOLUTION, 0.5,
                                CreatedBy.SYSTEM, {"original_relationship": "supersedes"}, T0))
    assert again.id == first.id and again.metadata["reason"] == "slow"
    assert [ln.id for ln in store.links_of(a.id)] == [first.id]
    assert [ln.id for ln in store.links_of(b.id)] == [first.id]
    assert store.delete_link(first.id) and not store.delete_link(first.id)


def test_meta_and_redaction_counter(store: Store) -> None:
    assert store.get_meta("nope") is None
    store.set_meta("x", "1")
    store.set_meta("x", "2")
    assert store.get_meta("x") == "2"
    store.insert([mem("with secret")], None, None, redactions=3)
    assert store.stats()["redactions"] == 3


def test_resolve_prefix(store: Store) -> None:
    a = mem("a")
    store.insert([a], None, None)
    assert store.resolve_prefix(a.id[:12].lower()) == [a.id]
    assert store.resolve_prefix("ZZZZZZZZ") == []


def test_vector_search_follows_other_writers(store: Store, tmp_path: Path) -> None:
    """A second handle (another process in real life) sees inserts, updates and deletes."""
    if store.engine != "sqlite":
        pytest.skip("this engine shares state through the server")
    other = SQLiteStore(store.location)
    try:
        a, b = mem("a"), mem("b", at=T0 + 1)
        store.insert([a, b], np.stack([unit(1), unit(2)]), "e1")
        assert [i for i, _ in other.vector_search(unit(1), "e1", Filters(), 1)] == [a.id]
        store.update(a.id, {"type": MemoryType.GOTCHA}, unit(7), "e1")
        store.delete(b.id)
        c = mem("c", at=T0 + 2)
        store.insert([c], np.stack([unit(1)]), "e1")
        res = other.vector_search(unit(7), "e1", Filters(), 10)
        assert next(i for i, _ in res) == a.id and b.id not in {i for i, _ in res}
        gotchas = other.vector_search(unit(1), "e1", Filters(types=(MemoryType.GOTCHA,)), 10)
        assert [i for i, _ in gotchas] == [a.id]
        assert {i for i, _ in other.vector_search(unit(1), "e1", Filters(), 10)} == {a.id, c.id}
    finally:
        other.close()


def test_many_updates_keep_vector_search_exact(store: Store) -> None:
    rows = [mem(f"m{i}", at=T0 + i) for i in range(50)]
    store.insert(rows, np.stack([unit(i) for i in range(50)]), "e1")
    store.vector_search(unit(0), "e1", Filters(), 5)
    for i in range(0, 50, 2):
        store.update(rows[i].id, {"confidence": 0.9}, unit(100 + i), "e1")
    for i in range(50):
        want = unit(100 + i) if i % 2 == 0 else unit(i)
        assert store.vector_search(want, "e1", Filters(), 1)[0][0] == rows[i].id


def test_confirmed_link_takes_over_an_inferred_one(store: Store) -> None:
    a, b = mem("a"), mem("b", at=T0 + 1)
    store.insert([a, b], None, None)
    inferred = store.add_link(Link(new_id(T0), b.id, a.id, LinkType.EVOLUTION, 0.7,
                                   CreatedBy.SYSTEM, {"original_relationship": "supersedes",
                                                      "inferred_from": "reasoning"}, T0))
    confirmed = store.add_link(Link(new_id(T0), b.id, a.id, LinkType.EVOLUTION, 0.9,
                                    CreatedBy.USER, {"original_relationship": "supersedes",
                                                     "reason": "slow"}, T0))
    assert confirmed.id == inferred.id and confirmed.created_by is CreatedBy.USER
    assert confirmed.confidence == 0.9 and confirmed.metadata["reason"] == "slow"


def _link(a: str, b: str, rel: str, t: LinkType = LinkType.ASSOCIATION,
          by: CreatedBy = CreatedBy.USER, conf: float = 0.8, kind: str = "reference") -> Link:
    return Link(new_id(T0), a, b, t, conf, by,
                {"original_relationship": rel, "canonical": rel, "kind": kind}, T0)


def test_graph_queries(store: Store) -> None:
    a, b, c = mem("a"), mem("b", at=T0 + 1), mem("c", at=T0 + 2, project="q")
    store.insert([a, b, c], None, None, links=[_link(a.id, b.id, "relates_to")])
    sup = store.add_links([_link(b.id, a.id, "supersedes", LinkType.EVOLUTION),
                           _link(b.id, c.id, "similar", by=CreatedBy.SYSTEM, kind="similar")])
    assert len(sup) == 2
    assert {ln.relationship for ln in store.links_for([a.id])} == {"relates_to", "supersedes"}
    assert [ln.relationship for ln in store.links_for([a.id], direction="out")] == ["relates_to"]
    evo = store.links_for([a.id, b.id], link_types=[LinkType.EVOLUTION])
    assert [ln.relationship for ln in evo] == ["supersedes"]
    assert len(store.link_rows()) == 3
    assert [r[0] for r in store.node_rows(Filters(project="p"))] == [a.id, b.id]
    assert [r[0] for r in store.link_ids_for_pruning()] == [sup[1].id]
    summary = store.link_summary(Filters(project="p"))
    assert summary["by_core_type"] == {"association": 2, "evolution": 1}
    assert summary["by_kind"] == {"reference": 2, "similar": 1}
    assert summary["by_creator"] == {"user": 2, "system": 1}
    stats = {row[0]: row for row in store.relationship_stats()}
    assert stats["supersedes"][1] == 1 and stats["supersedes"][4] == "evolution"
    assert store.relationship_canonical("similar") == "similar"
    assert [ln.to_id for ln in store.links_with_relationships(["similar", "x"])] == [c.id]
    changed = store.update_link(sup[1].id, confidence=0.2, metadata={"kind": "similar"})
    assert changed.confidence == 0.2 and changed.metadata == {"kind": "similar"}
    assert store.delete_links([sup[1].id]) == 1 and len(store.link_rows()) == 2


def test_rename_relationship_merges_words(store: Store) -> None:
    a, b = mem("a"), mem("b", at=T0 + 1)
    store.insert([a, b], None, None, links=[_link(a.id, b.id, "motivated_by"),
                                            _link(a.id, b.id, "inspired_by")])
    assert store.rename_relationship("motivated_by", "inspired_by", LinkType.ASSOCIATION) == 1
    left = store.links_for([a.id])
    assert [ln.metadata["original_relationship"] for ln in left] == ["inspired_by"]


def test_insert_links_attach_to_the_stored_duplicate(store: Store) -> None:
    a = mem("same text")
    store.insert([a], None, None)
    b, dup = mem("other", at=T0 + 1), mem("same text", at=T0 + 2)
    store.insert([b, dup], None, None, links=[_link(b.id, dup.id, "relates_to")])
    assert [ln.to_id for ln in store.links_for([b.id])] == [a.id]


def test_graph_scores_and_co_access(store: Store) -> None:
    a, b, c = mem("a"), mem("b", at=T0 + 1), mem("c", at=T0 + 2)
    store.insert([a, b, c], None, None)
    store.put_graph_scores([(a.id, 0.5, 1.0, 0), (b.id, 0.3, 0.6, 0)], T0)
    store.put_graph_scores([(c.id, 0.2, 0.4, 1)], T0)
    assert store.graph_scores() == {a.id: (1.0, 0), b.id: (0.6, 0), c.id: (0.4, 1)}
    assert store.graph_scores([b.id]) == {b.id: (0.6, 0)}
    for _ in range(3):
        store.record_access([a.id, b.id, c.id], T0 + 5)
    pairs = {(x, y): n for x, y, n, _ in store.co_access_pairs(3)}
    assert pairs == {tuple(sorted((a.id, b.id))): 3, tuple(sorted((a.id, c.id))): 3,
                     tuple(sorted((b.id, c.id))): 3}


def test_batch_vector_queries(store: Store) -> None:
    a, b = mem("a"), mem("b", at=T0 + 1)
    store.insert([a, b], np.stack([unit(1), unit(2)]), "e1")
    res = store.vector_search_many(np.stack([unit(2), unit(1)]), "e1", Filters(), 1)
    assert [r[0][0] for r in res] == [b.id, a.id]
    got = store.vectors_of([a.id, "missing"], "e1")
    assert list(got) == [a.id] and np.allclose(got[a.id], unit(1))


def test_record_access_applies_the_learning_rule(store: Store) -> None:
    from kenning import learning

    a = mem("a", confidence=0.8)
    store.insert([a], None, None)
    later = T0 + 10 * learning.HOUR_MS
    store.record_access([a.id], later)
    got = store.get_many([a.id])[a.id]
    assert got.confidence == pytest.approx(0.78)  # decayed to 0.75, then + 0.03
    store.record_access([a.id, a.id], later)  # twice in one call: two boosts, no decay between
    assert store.get_many([a.id])[a.id].confidence == pytest.approx(0.78 + 0.06)
    history = store.confidence_history(a.id)
    assert [(at, reason) for at, _, reason in history] == [(later, "accessed")] * 2
    assert history[-1][1] == pytest.approx(0.84)
    store.record_access([a.id] * 10, later)  # capped at 1.0
    assert store.get_many([a.id])[a.id].confidence == pytest.approx(1.0)


def test_standing_kinds_do_not_decay_in_the_database(store: Store) -> None:
    from kenning import learning

    pref = mem("use pnpm", type=MemoryType.PREFERENCE, confidence=0.8)
    cp = mem("checkpoint", at=T0 + 1, type=MemoryType.CHECKPOINT, confidence=0.8)
    store.insert([pref, cp], None, None)
    month = T0 + 30 * 24 * learning.HOUR_MS
    got = store.adjust_confidence([(pref.id, 0.0, "looked at"), (cp.id, 0.0, "looked at")],
                                  month)
    assert got == {pref.id: pytest.approx(0.8), cp.id: pytest.approx(learning.FLOOR)}
    later = month + 30 * 24 * learning.HOUR_MS
    store.record_access([pref.id, cp.id], later, "used in session s1")
    stored = store.get_many([pref.id, cp.id])
    assert stored[pref.id].confidence == pytest.approx(0.83)
    assert stored[cp.id].confidence == pytest.approx(learning.FLOOR + 0.03)
    assert store.confidence_history(pref.id)[-1] == (later, pytest.approx(0.83),
                                                     "used in session s1")


def test_co_access_alone_leaves_confidence_and_access_alone(store: Store) -> None:
    a, b, c = mem("a"), mem("b", at=T0 + 1), mem("c", at=T0 + 2)
    store.insert([a, b, c], None, None)
    for _ in range(2):
        store.record_co_access([a.id, b.id, c.id], T0 + 5)
    store.record_co_access([a.id], T0 + 6)  # one memory alone is no pair
    assert {(x, y): n for x, y, n, _ in store.co_access_pairs(1)} == {
        tuple(sorted(p)): 2 for p in ((a.id, b.id), (a.id, c.id), (b.id, c.id))}
    got = store.get_many([a.id, b.id, c.id])
    assert {(m.confidence, m.access_count, m.last_accessed_at) for m in got.values()} == {
        (0.6, 0, None)}
    assert store.confidence_history(a.id) == []


def test_adjust_confidence_decays_first_and_clamps(store: Store) -> None:
    from kenning import learning

    a, b = mem("a", confidence=0.5), mem("b", at=T0 + 1, confidence=0.98)
    store.insert([a, b], None, None)
    at = T0 + 20 * learning.HOUR_MS
    got = store.adjust_confidence([(a.id, -0.05, "failed run"), (b.id, 0.5, "passed"),
                                   ("01UNKNOWNUNKNOWNUNKNOWN000", 0.1, "x")], at)
    assert got[a.id] == pytest.approx(0.5 - 0.1 - 0.05)
    assert set(got) == {a.id, b.id} and got[b.id] == pytest.approx(1.0)
    stored = store.get_many([a.id])[a.id]
    assert stored.updated_at == at and stored.confidence == pytest.approx(0.35)
    assert store.confidence_history(a.id) == [(at, pytest.approx(0.35), "failed run")]


def test_session_events_are_idempotent_and_filtered(store: Store) -> None:
    from kenning.models import SessionEvent

    events = [SessionEvent("e1", "s1", "p", T0, "injected", {"memories": [{"id": "x"}]}),
              SessionEvent("e2", "s1", "p", T0 + 1, "tool", {"ok": False}),
              SessionEvent("e3", "s2", "q", T0 + 2, "tool", {"ok": True})]
    assert store.add_session_events(events) == ["e1", "e2", "e3"]
    assert store.add_session_events(events[:2]) == []
    assert [e.id for e in store.session_events(session_id="s1")] == ["e1", "e2"]
    assert [e.id for e in store.session_events(kinds=["tool"], newest_first=True)] == ["e3", "e2"]
    assert [e.id for e in store.session_events(project="q")] == ["e3"]
    assert store.session_events(session_id="s1", limit=1)[0].data == {"memories": [{"id": "x"}]}


def test_scan_pages_every_memory_in_id_order(store: Store) -> None:
    made = [mem(f"note {i}", at=T0 + (7 * i) % 10) for i in range(10)]
    store.insert(made, None, None)
    seen, after = [], None
    while page := store.scan(after, 3):
        assert len(page) <= 3
        seen += [m.id for m in page]
        after = page[-1].id
    assert seen == sorted(m.id for m in made)


def test_link_to_a_missing_memory_is_refused(store: Store) -> None:
    a, b = mem("a"), mem("b", at=T0 + 1)
    store.insert([a, b], None, None)
    ghost = new_id(T0 + 9)
    for bad in (_link(a.id, ghost, "relates_to"), _link(ghost, a.id, "relates_to")):
        with pytest.raises(NotFoundError, match=ghost):
            store.add_link(bad)
    with pytest.raises(NotFoundError, match=ghost):  # all or nothing: the good link is not kept
        store.add_links([_link(a.id, b.id, "relates_to"), _link(b.id, ghost, "relates_to")])
    c = mem("c", at=T0 + 2)
    with pytest.raises(NotFoundError, match=ghost):
        store.insert([c], None, None, links=[_link(c.id, ghost, "relates_to")])
    assert store.link_rows() == [] and store.count(Filters()) == 2


def test_co_access_and_confidence_log_in_bulk(store: Store) -> None:
    a, b, c = mem("a", confidence=0.5), mem("b", at=T0 + 1), mem("c", at=T0 + 2)
    store.insert([a, b, c], None, None)
    store.record_access([a.id, b.id], T0 + 5)
    store.adjust_confidence([(a.id, 0.1, "helped")], T0 + 6)
    x, y = sorted((a.id, b.id))
    assert store.co_access_rows([a.id, b.id, c.id]) == [(x, y, 1, T0 + 5)]
    logged = store.confidence_log_rows([c.id, a.id])
    assert [(m, at, r) for m, at, _, r in logged] == [(a.id, T0 + 5, "accessed"),
                                                      (a.id, T0 + 6, "helped")]
    assert [conf for _, _, conf, _ in logged] == [h[1] for h in store.confidence_history(a.id)]
    ghost = new_id(T0 + 9)
    # Pairs in either order; a lower count never replaces a higher one; unknown ids are skipped.
    assert store.put_co_access([(c.id, a.id, 4, T0 + 7), (y, x, 1, T0), (a.id, ghost, 2, T0)]) == 2
    assert store.co_access_rows([a.id, b.id, c.id]) == sorted(
        [(x, y, 1, T0 + 5), (*sorted((a.id, c.id)), 4, T0 + 7)])
    assert store.put_confidence_log([(c.id, T0 + 8, 0.25, "imported"),
                                     (c.id, T0 + 8, 0.25, "imported"), (ghost, T0, 0.1, "x")]) == 2
    assert store.confidence_history(c.id) == [(T0 + 8, 0.25, "imported")] * 2
    assert store.confidence_log_rows([ghost]) == []


def _supersedes(a: str, b: str, at: int, by: CreatedBy = CreatedBy.USER) -> Link:
    return Link(new_id(at), a, b, LinkType.EVOLUTION, 0.9, by,
                {"original_relationship": "replaces", "canonical": "supersedes"}, at)


def test_validity_round_trips_and_follows_supersedes_links(store: Store) -> None:
    a, b, c = mem("a", at=T0), mem("b", at=T0 + 10), mem("c", at=T0 + 20)
    given = mem("copied", at=T0, valid_from=T0 - 5, valid_to=T0 + 7, superseded_by=b.id)
    store.insert([a, b, c, given], None, None)
    got = store.get_many([a.id, given.id])
    assert (got[a.id].valid_from, got[a.id].valid_to, got[a.id].superseded_by) == (T0, None, None)
    assert got[given.id].to_dict() == given.to_dict()
    # A link made after its source: validity ends when it was made; the latest successor wins.
    first = store.add_link(_supersedes(b.id, a.id, T0 + 15))
    assert (store.get_many([a.id])[a.id].valid_to, store.get_many([a.id])[a.id].superseded_by
            ) == (T0 + 15, b.id)
    second = store.add_links([_supersedes(c.id, a.id, T0 + 12)])[0]
    now = store.get_many([a.id])[a.id]
    assert (now.valid_to, now.superseded_by) == (T0 + 20, c.id)  # c was made after the link
    assert store.delete_links([second.id]) == 1
    assert store.get_many([a.id])[a.id].superseded_by == b.id
    assert store.delete_link(first.id)
    assert store.get_many([a.id])[a.id].current
    store.insert([mem("d", at=T0 + 30)], None, None,
                 links=[_supersedes(c.id, b.id, T0 + 30)])
    assert store.get_many([b.id])[b.id].superseded_by == c.id
    assert store.delete(c.id) and store.get_many([b.id])[b.id].current


def test_supersedes_cycles_are_refused(store: Store) -> None:
    from kenning.errors import ValidationError

    a, b, c = mem("a", at=T0), mem("b", at=T0 + 1), mem("c", at=T0 + 2)
    store.insert([a, b, c], None, None)
    store.add_links([_supersedes(b.id, a.id, T0 + 3), _supersedes(c.id, b.id, T0 + 3)])
    with pytest.raises(ValidationError, match="circle"):
        store.add_link(_supersedes(a.id, c.id, T0 + 4))
    with pytest.raises(ValidationError, match="circle"):  # within one batch too
        store.add_links([_supersedes(c.id, a.id, T0 + 4), _supersedes(a.id, c.id, T0 + 4)])
    assert [ln.to_id for ln in store.links_for([c.id], direction="out")] == [b.id]  # none kept
    # an automatic link that would close one is dropped; the rest of the batch is kept
    kept = store.add_links([_supersedes(a.id, c.id, T0 + 5, CreatedBy.SYSTEM),
                            _link(a.id, c.id, "relates_to")])
    assert [ln.relationship for ln in kept] == ["relates_to"]
    assert store.get_many([c.id])[c.id].current
    assert [ln.to_id for ln in store.links_for([a.id], direction="out")] == [c.id]


def test_anchors_set_the_memorys_drift(store: Store) -> None:
    a, b = mem("compute_vat in src/billing.py"), mem("the cart total", project="q")
    store.insert([a, b], None, None)

    def anchor(mid: str, path: str, symbol: str = "", state: str = "fresh",
               reason: str | None = None) -> Anchor:
        return Anchor(mid, path, symbol, "f1", "c" * 40, "10:1", state, reason, T0, T0)

    before = store.watermark()
    assert store.set_anchors({a.id: [anchor(a.id, "src/billing.py", "compute_vat")],
                              b.id: [anchor(b.id, "cart.ts")], "01NOSUCH": []}) == 0
    assert store.watermark() == before  # anchoring alone changes no memory
    assert [(x.path, x.symbol) for x in store.anchors(project="p")] == [
        ("src/billing.py", "compute_vat")]
    assert [x.memory_id for x in store.anchors(paths=["cart.ts"])] == [b.id]
    assert store.anchors(paths=[]) == [] and store.anchors(memory_ids=["01NOSUCH"]) == []
    assert store.get_many([a.id])[a.id].drift is None

    assert store.set_anchors({a.id: [
        anchor(a.id, "src/billing.py", "compute_vat", "stale", "compute_vat changed in 3f2a1c"),
        anchor(a.id, "src/billing.py", "", "obsolete", "src/billing.py was deleted")]}) == 1
    got = store.get_many([a.id])[a.id]
    assert (got.drift, got.drift_reason) == ("obsolete", "src/billing.py was deleted")
    assert got.to_dict()["stale"] is True and store.watermark() != before
    assert {x.state for x in store.anchors(memory_ids=[a.id])} == {"stale", "obsolete"}

    assert store.set_anchors({a.id: [anchor(a.id, "src/tax.py", "compute_vat")]}) == 1
    got = store.get_many([a.id])[a.id]
    assert got.drift is None and got.to_dict()["stale"] is False
    assert [x.path for x in store.anchors(memory_ids=[a.id])] == ["src/tax.py"]
    store.delete(a.id)
    assert store.anchors(memory_ids=[a.id]) == []


def test_pending_links_are_kept_until_settled(store: Store) -> None:
    """A memory written without its vector carries a pending mark from the same transaction;
    settling stores its vector and links and clears the mark, and a memory deleted meanwhile
    is simply done (its vector and links are dropped, nothing fails)."""
    a, b, c = mem("first"), mem("second", at=T0 + 1), mem("third", at=T0 + 2)
    store.insert([a, b, c], None, None, pending_links={a.id: '{"n": 1}', b.id: '{"n": 2}',
                                                       c.id: '{"n": 3}'})
    assert store.pending_links(10) == sorted([(a.id, '{"n": 1}'), (b.id, '{"n": 2}'),
                                              (c.id, '{"n": 3}')])
    assert store.pending_links(1) == [min((a.id, '{"n": 1}'), (b.id, '{"n": 2}'),
                                          (c.id, '{"n": 3}'))]
    assert store.count_missing_vectors("e") == 3
    store.delete(c.id)
    link = Link(id=new_id(T0), from_id=b.id, to_id=a.id, link_type=LinkType.ASSOCIATION,
                confidence=0.7, created_by=CreatedBy.SYSTEM, metadata={}, created_at=T0)
    gone = Link(id=new_id(T0), from_id=c.id, to_id=a.id, link_type=LinkType.ASSOCIATION,
                confidence=0.7, created_by=CreatedBy.SYSTEM, metadata={}, created_at=T0)
    store.settle_links("e", [(a.id, unit(1)), (b.id, unit(2)), (c.id, unit(3))],
                       [link, gone], [a.id, b.id, c.id])
    assert store.pending_links(10) == []
    assert store.count_missing_vectors("e") == 0
    assert store.vector_counts() == {"e": 2}
    assert [(ln.from_id, ln.to_id) for ln in store.links_of(a.id)] == [(b.id, a.id)]
    # A duplicate write marks nothing: the stored memory is settled already.
    store.insert([mem("first", at=T0 + 5)], None, None, pending_links={"X": "{}"})
    assert store.pending_links(10) == []


def test_adjacent_gives_the_nearest_memories_on_each_side_within_the_filters(
    store: Store,
) -> None:
    minute = 60_000
    turns = [mem(f"turn {i}", at=T0 + i * minute) for i in range(6)]
    other = mem("another project's turn", at=T0 + 2 * minute + 1, project="q")
    mine = mem("the user's own note", at=T0 + 3 * minute + 1, scope=Scope.USER, project="q")
    store.insert([*turns, other, mine], None, None)
    hour = 60 * minute
    got = store.adjacent([turns[2].id, turns[0].id, "missing"], Filters(project="p"), 2, hour)
    assert set(got) == {turns[2].id, turns[0].id}
    # nearest first, signed (before is negative); the other project's memory is not adjacent,
    # the user-scope one is (visible from every project, as in a search)
    assert got[turns[2].id] == [(turns[1].id, -minute), (turns[3].id, minute),
                                (mine.id, minute + 1), (turns[0].id, -2 * minute)]
    assert got[turns[0].id] == [(turns[1].id, minute), (turns[2].id, 2 * minute)]
    # a memory that exists but has no neighbour within the filters maps to none
    assert store.adjacent([other.id], Filters(project="p", scopes=(Scope.LOCAL,)), 2, hour) == {
        other.id: []}
    # nothing further than the reach
    assert store.adjacent([turns[2].id], Filters(project="p"), 2, minute) == {
        turns[2].id: [(turns[1].id, -minute), (turns[3].id, minute)]}
    assert store.adjacent([turns[2].id], Filters(project="p"), 0, hour) == {}
    assert store.adjacent([], Filters(project="p"), 2, hour) == {}
