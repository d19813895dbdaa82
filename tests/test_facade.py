"""The Python API as a user drives it: remember, recall, get, update, forget, list, count."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

from kenning import (
    Category,
    Kenning,
    MemoryType,
    NotFoundError,
    OutcomeStatus,
    Scope,
    ValidationError,
)
from kenning.embed import MiniLMEmbedder

DAY = 86_400_000


def test_remember_fills_defaults(k: Kenning) -> None:
    m = k.remember("Use JWT for auth: stateless, scales\nMore detail here.", type="decision",
                   topic="auth_strategy")
    assert m.is_new and len(m.id) == 26
    assert m.type is MemoryType.DECISION
    assert m.summary == "Use JWT for auth: stateless, scales"
    assert m.category is Category.ARCHITECTURE
    assert m.project == "proj" and m.scope is Scope.PROJECT
    assert 0 < m.confidence <= 1
    assert k.get(m.id) == m


def test_ids_sort_by_creation_time(k: Kenning) -> None:
    ids = [k.remember(f"note {i}", created_at=1_700_000_000 + i * 60).id for i in range(5)]
    assert ids == sorted(ids)


def test_duplicate_text_is_not_stored_twice(k: Kenning) -> None:
    a = k.remember("Prefer pnpm over npm", type="preference")
    b = k.remember("  Prefer   pnpm over npm ", type="preference")
    assert not b.is_new and b.id == a.id
    assert k.count() == 1
    assert k.remember("Prefer pnpm over npm", scope="local").is_new


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"text": ""}, "empty"),
        ({"text": "   \n "}, "empty"),
        ({"text": "x", "type": "opinion"}, "unknown type"),
        ({"text": "x", "confidence": 1.5}, "confidence"),
        ({"text": "x", "confidence": -0.1}, "confidence"),
        ({"text": "x" * 100_001}, "limit"),
        ({"text": "x", "scope": "galaxy"}, "unknown scope"),
        ({"text": "x", "category": "misc"}, "unknown category"),
        ({"text": "x", "agent": "../etc"}, "agent name"),
        ({"text": "x", "created_at": "yesterday-ish"}, "cannot read"),
        ({"text": "x", "metadata": {"f": object()}}, "JSON"),
    ],
)
def test_bad_input_is_rejected_and_changes_nothing(k: Kenning, kwargs: dict, message: str
                                                   ) -> None:
    before = k.status()
    text = kwargs.pop("text")
    with pytest.raises(ValidationError, match=message):
        k.remember(text, **kwargs)
    assert k.count() == 0 and k.status()["redactions"] == before["redactions"]


def test_remember_many_is_all_or_nothing(k: Kenning) -> None:
    with pytest.raises(ValidationError, match="item 1"):
        k.remember_many([{"text": "good"}, {"text": "bad", "type": "nope"}])
    assert k.count() == 0
    out = k.remember_many([{"text": f"fact {i}", "topic": "t"} for i in range(20)])
    assert len(out) == 20 and k.count(topic="t") == 20


def test_recall_finds_paraphrase_and_explains(k: Kenning) -> None:
    jwt = k.remember("Use JWT for auth: stateless tokens scale", type="decision",
                     topic="auth_strategy")
    k.remember("Implemented JWT auth in auth.ts", type="checkpoint", topic="auth_strategy")
    k.remember("The CI cache keys on the lockfile hash", type="pattern", topic="ci")
    hits = k.recall("why did we pick JWT?", k=5, explain=True)
    assert hits[0].memory.id == jwt.id
    parts = hits[0].parts
    assert parts is not None
    assert set(parts) >= {"keyword_rank", "vector_rank", "vector_similarity", "relevance",
                          "confidence", "recency", "final"}
    assert parts["final"] == pytest.approx(hits[0].score)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    semantic = k.recall("how do users log in?", k=1)
    assert semantic[0].memory.topic == "auth_strategy"
    assert k.recall("why did we pick JWT?", k=1)[0].parts is None


def test_recall_filters(k: Kenning, clock: Callable) -> None:
    old = k.remember("Database migrations run with alembic", type="pattern", topic="db",
                     created_at=clock() - 30 * DAY)
    new = k.remember("Database backups run nightly", type="checkpoint", topic="db")
    k.remember("Database choice: PostgreSQL", type="decision", topic="db")
    assert {h.memory.id for h in k.recall("database", types=["pattern", "checkpoint"])} == {
        old.id, new.id}
    assert [h.memory.id for h in k.recall("database", since="7d", types="checkpoint")] == [new.id]
    assert [h.memory.id for h in k.recall("database", until="7d")] == [old.id]
    assert k.recall("database", topic="nothing") == []


def test_recall_is_not_a_use_and_a_fetch_to_use_is(k: Kenning, clock) -> None:
    m = k.remember("Gotcha: the dev server caches env vars", type="gotcha")
    clock.advance(1000)
    k.recall("dev server env vars", k=1)
    got = k.get(m.id)
    assert (got.access_count, got.last_accessed_at, got.confidence) == (0, None, m.confidence)
    used = k.get(m.id, touch=True)
    assert used.access_count == 1 and used.last_accessed_at == clock()
    assert used.confidence == pytest.approx(m.confidence + 0.03)


def test_recall_rejects_bad_arguments(k: Kenning) -> None:
    for kwargs in ({"k": 0}, {"k": 5000}, {"mode": "magic"}, {"types": ["nope"]}):
        with pytest.raises(ValidationError):
            k.recall("x", **kwargs)
    with pytest.raises(ValidationError):
        k.recall("   ")


def test_projects_are_separate_but_user_scope_is_shared(make_kenning: Callable) -> None:
    a = make_kenning("shared.db", project="alpha")
    b = make_kenning("shared.db", project="beta")
    a.remember("alpha uses poetry for packaging")
    pref = a.remember("I like terse commit messages", type="preference", scope="user")
    assert b.count() == 1
    assert [m.id for m in b.list()] == [pref.id]
    assert b.recall("poetry packaging", k=5, mode="keyword") == []


def test_get_update_forget(k: Kenning) -> None:
    m = k.remember("Tests use pytest-xdist", type="pattern", tags=["ci"])
    assert k.get(m.id[:10].lower()).id == m.id
    u = k.update(m.id, text="Tests run serially: xdist broke fixtures", confidence=0.9,
                 tags=["ci", "tests"])
    assert u.content.startswith("Tests run serially") and u.summary.startswith("Tests run")
    assert u.content_hash != m.content_hash and u.tags == ("ci", "tests")
    assert k.recall("xdist fixtures", k=1)[0].memory.id == m.id
    out = k.outcome(m.id, "partial", "flaky on macOS")
    assert out.outcome is OutcomeStatus.PARTIAL and out.outcome_reason == "flaky on macOS"
    with pytest.raises(ValidationError):
        k.update(m.id, confidence=3)
    with pytest.raises(ValidationError):
        k.update(m.id, colour="red")
    gone = k.forget(m.id)
    assert gone.id == m.id and k.count() == 0
    with pytest.raises(NotFoundError):
        k.get(m.id)
    with pytest.raises(NotFoundError):
        k.forget(m.id)


def test_update_applies_fields_in_the_order_given(k: Kenning) -> None:
    """Pins today's order of checks and the handling of blank values, field by field."""
    m = k.remember("Deploys go through the staging cluster first", topic="deploys",
                   source="ops")
    # The first bad field in the order given is the one reported, and nothing is written.
    with pytest.raises(ValidationError, match=r"confidence must be in \[0, 1\]"):
        k.update(m.id, confidence=3, colour="red")
    with pytest.raises(ValidationError, match="cannot update 'colour'"):
        k.update(m.id, colour="red", confidence=3)
    with pytest.raises(ValidationError, match="cannot update 'colour'"):
        k.update(m.id, topic="other", colour="red")
    assert k.get(m.id).topic == "deploys"
    assert k.update(m.id) == k.get(m.id)
    # ``text`` is applied after the other fields (``content`` where it stands), so a blank
    # summary next to it is derived from the text as it was, next to ``content`` from the new.
    u = k.update(m.id, text="Deploys go straight to production", summary="")
    assert u.content == "Deploys go straight to production"
    assert u.summary == "Deploys go through the staging cluster first"
    u = k.update(m.id, content="Deploys go through canaries", summary="  ")
    assert u.summary == "Deploys go through canaries"
    # Blank topic and source become None; a blank outcome reason stays an empty string.
    u = k.update(m.id, topic=" ", source="", outcome="success", outcome_reason=" ")
    assert u.topic is None and u.source is None
    assert u.outcome is OutcomeStatus.SUCCESS and u.outcome_reason == ""
    u = k.update(m.id, outcome=None, outcome_reason=None, scope="user", agent="")
    assert u.outcome is None and u.outcome_reason is None
    assert u.scope is Scope.USER and u.project == "" and u.agent is None


def test_list_and_count(k: Kenning, clock) -> None:
    for i in range(5):
        clock.advance(1000)
        k.remember(f"decision {i}", type="decision", topic="t" if i % 2 else "u")
    k.remember("a checkpoint", type="checkpoint")
    assert k.count() == 6 and k.count(types="decision") == 5 and k.count(topic="t") == 2
    listed = k.list(types=["decision"], limit=3)
    assert [m.content for m in listed] == ["decision 4", "decision 3", "decision 2"]
    assert [m.content for m in k.list(types="decision", limit=2, offset=3)] == [
        "decision 1", "decision 0"]


def test_links_store_expression_layer(k: Kenning) -> None:
    old = k.remember("Use JWT", type="decision", topic="auth")
    new = k.remember("Use sessions instead of JWT", type="decision", topic="auth")
    link = k.link(new.id, old.id, "supersedes", reason="token refresh too slow")
    assert link.link_type.value == "evolution" and link.relationship == "supersedes"
    known = k.link(new.id, old.id, "Inspired by")
    assert known.link_type.value == "association" and known.relationship == "inspired_by"
    free = k.link(new.id, old.id, "sparked by")
    assert free.link_type.value == "association" and free.relationship == "sparked_by"
    assert free.metadata["inference_confidence"] < 1
    explicit = {ln.id for ln in k.links(old.id) if ln.created_by.value != "system"}
    assert explicit == {link.id, known.id, free.id}
    with pytest.raises(ValidationError):
        k.link(old.id, old.id)
    k.forget(new.id)
    assert k.links(old.id) == []


def test_keyword_only_without_a_model(make_kenning: Callable) -> None:
    k = make_kenning("kw.db", embedder=None)
    k.remember("Use JWT for auth", type="decision")
    assert k.recall("JWT")[0].memory.content == "Use JWT for auth"
    status = k.status()
    assert status["embedder"]["available"] is False
    assert "keyword" in status["embedder"]["fallback"]


class _OtherEmbedder:
    """A second, different vector space (to test that spaces never mix)."""

    id = "test/other-space"
    dim = 16

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                out[i, hash(w) % self.dim] += 1
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def test_embedder_change_reindexes_with_progress(make_kenning: Callable,
                                                 embedder: MiniLMEmbedder) -> None:
    kw = make_kenning("switch.db", embedder=None)
    kw.remember_many([{"text": f"memory number {i} about caching"} for i in range(10)])
    kw.close()
    other = make_kenning("switch.db", embedder=_OtherEmbedder())
    seen: list[tuple[int, int]] = []
    other.on_progress = lambda done, total: seen.append((done, total))
    assert other.recall("caching", k=3, mode="vector")
    assert seen[0] == (0, 10) and seen[-1] == (10, 10)
    assert other.store.vector_counts() == {"test/other-space": 10}
    other.close()
    back = make_kenning("switch.db", embedder=embedder)
    assert back.status()["vectors_missing"] == 10
    assert back.reindex() == 10
    assert back.store.vector_counts() == {embedder.id: 10}


def test_status_reports_the_store(k: Kenning) -> None:
    k.remember("x", type="gotcha")
    s = k.status()
    assert s["engine"] == "sqlite" and s["schema_version"] >= 1
    assert s["memories"] == 1 and s["memories_by_type"] == {"gotcha": 1}
    assert s["embedder"]["id"] == "all-MiniLM-L6-v2/int8-onnx"
    assert s["vectors_missing"] == 0


def test_context_manager_closes(tmp_path, embedder) -> None:
    with Kenning(tmp_path / "cm.db", project="p", embedder=embedder) as k:
        k.remember("hello")
    with Kenning(tmp_path / "cm.db", project="p", embedder=embedder) as k2:
        assert k2.count() == 1


def test_update_to_duplicate_text_is_a_clear_error(k: Kenning) -> None:
    a = k.remember("Use uv for installs")
    b = k.remember("Use poetry for installs")
    with pytest.raises(ValidationError, match="already has this text"):
        k.update(b.id, text="Use uv for installs")
    assert k.get(b.id).content == "Use poetry for installs" and k.get(a.id).is_new is False


def test_scope_change_moves_memory_between_project_and_user(make_kenning: Callable) -> None:
    a = make_kenning("scopes.db", project="alpha")
    b = make_kenning("scopes.db", project="beta")
    m = a.remember("Commit messages in imperative mood", type="preference")
    assert b.count() == 0
    a.update(m.id, scope="user")
    assert [x.id for x in b.list()] == [m.id] and b.get(m.id).project == ""
    a.update(m.id, scope="project")
    assert b.count() == 0 and a.get(m.id).project == "alpha"
