"""The semantic memory graph through the Python API: links made on write, traversal, structure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from kenning import Kenning, LinkType, MemoryType, ValidationError
from kenning.graph.rules import LinkRules, Node, ProposedLink, auto_links

MIN = 60_000
DAY = 86_400_000


def node(mid: str, t: str, topic: str | None, at: int) -> Node:
    return Node(mid, t, topic, at)


def kinds(links: list[ProposedLink]) -> list[tuple[str, str, str]]:
    return [(ln.from_id, ln.link_type.value, ln.metadata["reason"]) for ln in links]


def test_rules_temporal_same_topic_and_semantic() -> None:
    rules = LinkRules()
    new = node("n", "decision", "auth", 100 * DAY)
    earlier = [
        node("t1", "checkpoint", "auth", 100 * DAY - 5 * MIN),   # temporal
        node("d1", "decision", "auth", 100 * DAY - 2 * DAY),     # same-topic decision
        node("d0", "decision", "auth", 100 * DAY - 9 * DAY),     # too old for either
        node("x", "decision", "db", 100 * DAY - 1 * MIN),        # other topic: not temporal
    ]
    similar = [(node("s1", "decision", "frontend", 90 * DAY), 0.9),
               (node("s2", "checkpoint", "perf", 90 * DAY), 0.80),   # below threshold
               (node("s3", "decision", "auth", 90 * DAY), 0.99)]  # same topic: excluded
    got = kinds(auto_links(new, earlier, similar, rules))
    assert ("t1", "temporal", "same_context") in got
    assert ("d1", "association", "same_topic") in got
    assert ("s1", "association", "semantic_match") in got
    assert all(mid not in ("d0", "x", "s2", "s3") for mid, _, _ in got)


def test_rules_confidence_scales_and_caps() -> None:
    rules = LinkRules(max_auto_links=2)
    new = node("n", "checkpoint", "auth", 1000 * MIN)
    fresh = auto_links(new, [node("a", "note", "auth", 1000 * MIN)], [], rules)[0]
    old = auto_links(new, [node("b", "note", "auth", 986 * MIN)], [], rules)[0]
    assert fresh.confidence == pytest.approx(0.7) and 0.4 <= old.confidence < 0.45
    many = [node(f"s{i}", "decision", f"t{i}", 0) for i in range(10)]
    capped = auto_links(new, [], [(n, 0.95) for n in many], rules)
    assert len(capped) == 2


def test_type_aware_similarity_lifts_decision_to_checkpoint() -> None:
    rules = LinkRules()
    new = node("n", "checkpoint", "impl", 10)
    decision = node("d", "decision", "plan", 0)
    other = node("c", "checkpoint", "misc", 0)
    got = auto_links(new, [], [(decision, 0.75), (other, 0.9)], rules)
    assert [ln.from_id for ln in got] == ["d"]  # 0.75 x 1.2 = 0.9 passes; 0.9 x 0.8 fails


def test_remember_links_explicitly_and_automatically(k: Kenning, clock) -> None:
    jwt = k.remember("Use JWT for auth: stateless", type="decision", topic="auth_strategy")
    clock.advance(5 * MIN)
    impl = k.remember("Implemented JWT auth in auth.ts", type="checkpoint",
                      topic="auth_strategy", implements=jwt.id)
    links = {(ln.from_id, ln.to_id, ln.relationship, ln.created_by.value)
             for ln in k.links(jwt.id)}
    assert (impl.id, jwt.id, "implements", "user") in links
    assert (jwt.id, impl.id, "temporal", "system") in links
    clock.advance(3 * DAY)
    sess = k.remember("Switch to server-side sessions", type="decision", topic="auth_strategy",
                      supersedes=jwt.id, reason="token refresh too slow")
    sup = [ln for ln in k.links(sess.id) if ln.relationship == "supersedes"]
    assert sup and sup[0].link_type is LinkType.EVOLUTION
    assert sup[0].metadata["reason"] == "token refresh too slow"
    assert k.get(sess.id).metadata["reason"] == "token refresh too slow"


def test_unknown_link_target_writes_nothing(k: Kenning) -> None:
    with pytest.raises(Exception, match="no memory"):
        k.remember("orphan", type="decision", supersedes="01ZZZZZZZZZZZZZZZZZZZZZZZZ")
    assert k.count() == 0


def test_free_links_keep_the_words_and_infer_the_type(k: Kenning) -> None:
    a = k.remember("Kafka for the event bus", type="decision", topic="events")
    b = k.remember("Paper on log-structured storage", type="insight", topic="reading")
    c = k.remember("Event sourcing for orders", type="decision", topic="orders",
                   links=[{"to_id": a.id, "relationship": "depends on"},
                          {"to_id": b.id, "relationship": "영감을 받은", "tags": ["paper"]}])
    by_target = {ln.to_id: ln for ln in k.links(c.id) if ln.from_id == c.id}
    assert by_target[a.id].metadata["canonical"] == "depends_on"
    assert by_target[b.id].relationship == "영감을_받은"
    assert by_target[b.id].metadata["canonical"] == "inspired_by"
    assert "paper" in by_target[b.id].metadata["relationship_tags"]
    assert by_target[b.id].link_type is LinkType.ASSOCIATION


def test_reasoning_text_infers_supersedes(k: Kenning, clock) -> None:
    old = k.remember("Use REST for the internal API", type="decision", topic="api_style")
    clock.advance(DAY)
    new = k.remember("Use gRPC for the internal API", type="decision", topic="api_style",
                     reason="we switch to gRPC instead of REST for streaming")
    inferred = [ln for ln in k.links(new.id) if ln.link_type is LinkType.EVOLUTION]
    assert inferred and inferred[0].to_id == old.id
    assert inferred[0].created_by.value == "system" and inferred[0].confidence <= 0.7


def story(k: Kenning, clock) -> dict[str, str]:
    ids: dict[str, str] = {}
    ids["jwt"] = k.remember("Use JWT for auth", type="decision", topic="auth_strategy").id
    clock.advance(10 * MIN)
    ids["impl"] = k.remember("Implemented JWT auth in auth.ts", type="checkpoint",
                             topic="auth_strategy", implements=ids["jwt"]).id
    clock.advance(2 * DAY)
    ids["fail"] = k.remember("Token refresh took 900 ms under load", type="outcome",
                             topic="auth_strategy", outcome_of=ids["jwt"]).id
    k.outcome(ids["jwt"], "failed", "performance issues with token refresh")
    clock.advance(DAY)
    ids["sess"] = k.remember("Switch to Redis sessions", type="decision", topic="auth_strategy",
                             supersedes=ids["jwt"], reason="token refresh too slow").id
    clock.advance(30 * DAY)
    ids["cookie"] = k.remember("Sessions use SameSite=strict cookies", type="decision",
                               topic="session_cookies", refines=ids["sess"]).id
    ids["css"] = k.remember("Tailwind for styling", type="decision", topic="frontend").id
    return ids


def test_why_returns_the_whole_chain_with_outcomes(k: Kenning, clock) -> None:
    ids = story(k, clock)
    chain = k.why("auth_strategy")
    assert [e.memory.id for e in chain] == [ids["cookie"], ids["sess"], ids["jwt"]]
    jwt = chain[-1]
    assert jwt.memory.outcome.value == "failed"
    assert [m.id for m in jwt.outcomes] == [ids["fail"]]
    assert [m.id for m in jwt.implementations] == [ids["impl"]]
    assert ("supersedes", ids["jwt"], "token refresh too slow") in chain[1].evolves
    assert [e.memory.id for e in k.why(ids["sess"])] == [e.memory.id for e in chain]
    assert k.why("nothing_here") == []


def test_impact_follows_what_came_after(k: Kenning, clock) -> None:
    ids = story(k, clock)
    reached = {m.id: r for m, r in k.impact(ids["jwt"])}
    assert {ids["impl"], ids["fail"], ids["sess"]} <= set(reached)
    assert ids["css"] not in reached
    assert reached[ids["cookie"]].depth == 2  # through the superseding decision
    assert ids["jwt"] not in {m.id for m, _ in k.impact(ids["sess"])}  # only forward in time


def test_related_and_contextual_recall(k: Kenning, clock) -> None:
    ids = story(k, clock)
    near = {m.id: r for m, r in k.related(ids["sess"])}
    assert ids["jwt"] in near and ids["cookie"] in near and ids["css"] not in near
    query = "JWT auth Redis sessions Tailwind cookies"
    plain = k.recall(query, k=6, mode="keyword", track=False, explain=True)
    boosted = k.recall(query, k=6, mode="keyword", track=False, explain=True,
                       context=ids["sess"])
    score = {h.memory.id: h.score for h in plain}
    lifted = {h.memory.id: h.score for h in boosted}
    assert lifted[ids["jwt"]] > score[ids["jwt"]]
    assert boosted[0].parts and "context" in boosted[0].parts


def test_consolidate_stores_pagerank_and_communities(k: Kenning, clock) -> None:
    ids = story(k, clock)
    report = k.consolidate()
    # the temporal link has decayed below 0.3 in the month since: pruned
    assert report["memories"] == 6 and report["pruned_links"] == 1
    assert report["links"] == 4 and report["communities"] >= 2
    top = k.top(3)
    assert top[0][0].id in (ids["jwt"], ids["sess"]) and top[0][1] == 1.0
    comms = k.communities()
    assert comms[0]["size"] >= 4 and "auth_strategy" in comms[0]["topics"]
    hits = k.recall("Tailwind styling decision", k=3, explain=True, track=False)
    assert hits[0].parts and "pagerank" in hits[0].parts
    stats = k.graph_stats()
    assert stats["by_kind"]["causal"] >= 2 and stats["graph_computed_at"]


def test_co_access_becomes_links(k: Kenning) -> None:
    a = k.remember("pytest runs with -x", type="pattern", topic="ci")
    b = k.remember("CI caches pip wheels", type="pattern", topic="ci_cache")
    for _ in range(3):
        k.recall("CI pytest pip", k=2)
    k.consolidate()
    kinds_ = {ln.metadata.get("kind") for ln in k.links(a.id) if b.id in (ln.from_id, ln.to_id)}
    assert "co-accessed" in kinds_


def test_consolidate_prunes_decayed_automatic_links(make_kenning: Callable, clock) -> None:
    k = make_kenning("prune.db")
    a = k.remember("deploy step one", type="checkpoint", topic="deploy")
    clock.advance(MIN)
    b = k.remember("deploy step two", type="checkpoint", topic="deploy", refines=a.id)
    assert any(ln.link_type is LinkType.TEMPORAL for ln in k.links(a.id))
    clock.advance(60 * DAY)  # temporal links decay 0.1/day: 0.7 -> ~0.002
    report = k.consolidate()
    assert report["pruned_links"] >= 1
    left = k.links(a.id)
    assert all(ln.link_type is not LinkType.TEMPORAL for ln in left)
    assert any(ln.relationship == "refines" for ln in left)  # evolution never decays
    assert b.id in {ln.from_id for ln in left}


def test_health_recommends_merges_and_counts_isolation(k: Kenning) -> None:
    a = k.remember("A", type="decision", topic="t1")
    b = k.remember("B", type="decision", topic="t2")
    k.remember("C", type="insight", topic="t3")
    k.link(a.id, b.id, "motivated by")
    report = k.health()
    assert report["isolated_count"] >= 1 and report["component_count"] >= 2
    assert any("Merge 'motivated_by' into 'inspired_by'" in r for r in report["recommendations"])
    assert k.merge_relationship("motivated_by", "inspired_by") == 1
    assert k.links(a.id)[0].relationship == "inspired_by"
    with pytest.raises(ValidationError):
        k.merge_relationship("same", "same")


def test_links_per_memory_stay_bounded(make_kenning: Callable, clock) -> None:
    k = make_kenning("dense.db")
    for i in range(60):
        clock.advance(MIN // 2)
        k.remember(f"auth note {i}: token refresh tuning step {i}", type="decision",
                   topic="auth_strategy")
    stats = k.graph_stats()
    assert stats["links_per_memory"] < 2 * LinkRules().max_auto_links
    assert k.count(types=MemoryType.DECISION) == 60


def test_passive_words_are_stored_in_the_active_direction(k: Kenning) -> None:
    old = k.remember("Use JWT", type="decision", topic="auth")
    new = k.remember("Use sessions", type="decision", topic="auth2")
    ln = k.link(old.id, new.id, "superseded by")
    assert (ln.from_id, ln.to_id) == (new.id, old.id)
    assert ln.metadata["canonical"] == "supersedes" and ln.link_type is LinkType.EVOLUTION
    assert ln.relationship == "superseded_by" and ln.metadata["inverted"] is True


def test_relationship_query_expands_to_synonyms_in_any_language(k: Kenning) -> None:
    a, b, c, d = (k.remember(t, type="insight", topic=f"t{i}") for i, t in
                  enumerate(["paper A", "project B", "project C", "project D"]))
    k.link(b.id, a.id, "inspired by")
    k.link(c.id, a.id, "영감을 받은")
    k.link(d.id, a.id, "challenges")
    found = {ln.from_id for ln in k.links_by_relationship("motivated by")}
    assert found == {b.id, c.id}
    report = k.health()
    assert "promotion_candidates" in report


def test_inference_reads_the_text_and_the_batch(k: Kenning, clock) -> None:
    a = k.remember("Use Redis for the product cache", type="decision", topic="caching")
    clock.advance(DAY)
    b = k.remember("Use Memcached for the product cache instead of Redis", type="decision",
                   topic="caching", reason="Redis eviction storms")
    assert any(ln.to_id == a.id and ln.link_type is LinkType.EVOLUTION for ln in k.links(b.id))
    first, second = k.remember_many([
        {"text": "Use JWT for auth tokens", "type": "decision", "topic": "auth"},
        {"text": "Use server-side sessions for auth instead of JWT tokens", "type": "decision",
         "topic": "auth", "reason": "Switching to sessions instead of JWT"},
    ])
    evo = [ln for ln in k.links(second.id) if ln.link_type is LinkType.EVOLUTION]
    assert [ln.to_id for ln in evo] == [first.id]


def test_inference_picks_the_decision_it_replaces(k: Kenning, clock) -> None:
    db = k.remember("Use PostgreSQL for the orders database", type="decision", topic="storage")
    clock.advance(MIN)
    k.remember("Store uploaded images in S3 buckets", type="decision", topic="storage")
    clock.advance(DAY)
    new = k.remember("Use CockroachDB for the orders database instead of PostgreSQL",
                     type="decision", topic="storage")
    evo = [ln.to_id for ln in k.links(new.id) if ln.link_type is LinkType.EVOLUTION]
    assert evo == [db.id]  # not the newer, unrelated S3 decision
    clock.advance(DAY)
    odd = k.remember("Tabs are better than spaces in Makefiles", type="decision",
                     topic="storage")
    assert not [ln for ln in k.links(odd.id) if ln.link_type is LinkType.EVOLUTION]


def test_decisions_with_a_lineage_skip_same_topic_guesses(k: Kenning, clock) -> None:
    a = k.remember("Cache product pages in Redis for five minutes", type="decision",
                   topic="caching")
    clock.advance(DAY)
    b = k.remember("Cache product pages in Redis for one minute", type="decision",
                   topic="caching", refines=a.id)
    guesses = [ln for ln in k.links(b.id) if ln.metadata.get("reason") == "same_topic"]
    assert guesses == []
    clock.advance(DAY)
    c = k.remember("Cache product pages in Redis per region", type="decision", topic="caching")
    assert [ln for ln in k.links(c.id) if ln.metadata.get("reason") == "same_topic"]


def test_inference_matches_the_reasoning_to_the_replaced_decision(k: Kenning, clock) -> None:
    redis = k.remember("Use Redis for the session store", type="decision", topic="sessions")
    clock.advance(MIN)
    k.remember("Use signed cookies for the session flag", type="decision", topic="sessions")
    clock.advance(DAY)
    new = k.remember("Use DynamoDB for the session store from now on", type="decision",
                     topic="sessions", reason="Switching to DynamoDB instead of Redis")
    evo = [ln.to_id for ln in k.links(new.id) if ln.link_type is LinkType.EVOLUTION]
    assert evo == [redis.id]


def test_inference_with_a_single_earlier_decision_still_needs_evidence(k: Kenning, clock
                                                                       ) -> None:
    """The topic's only earlier decision is not taken on trust: the cue must name it."""
    first = k.remember("Nightly builds run on Jenkins", type="decision", topic="ci_runner")
    clock.advance(DAY)
    vague = k.remember("GitHub Actions from now on", type="decision", topic="ci_runner",
                       reason="Replacing the old box, which kept falling over")
    assert not [ln for ln in k.links(vague.id) if ln.link_type is LinkType.EVOLUTION]
    clock.advance(DAY)
    named = k.remember("Nightly builds run on GitHub Actions", type="decision",
                       topic="ci_runner", reason="Replacing Jenkins, which kept falling over")
    evo = [ln.to_id for ln in k.links(named.id) if ln.link_type is LinkType.EVOLUTION]
    assert evo == [first.id]


def test_same_topic_decisions_link_as_a_chain() -> None:
    rules = LinkRules()
    new = node("n", "decision", "auth", 10 * DAY)
    earlier = [node("d1", "decision", "auth", 9 * DAY, ), node("d2", "decision", "auth", 8 * DAY)]
    got = [ln for ln in auto_links(new, earlier, [], rules)
           if ln.metadata["reason"] == "same_topic"]
    assert [ln.from_id for ln in got] == ["d1"]  # the newest one only


def test_same_topic_decisions_a_week_apart_link_whatever_their_wording(k: Kenning, clock,
                                                                       embedder) -> None:
    """Successive decisions on one topic rarely share words: they are linked on the topic and
    the week alone (no similarity gate), newest only, at the rule's recency confidence."""
    a = k.remember("Use pnpm workspaces for the monorepo packages", type="decision",
                   topic="tooling")
    clock.advance(2 * DAY)
    b = k.remember("CI caches the store directory between jobs", type="decision",
                   topic="tooling")
    va, vb = embedder.embed([a.content, b.content])
    assert float(va @ vb) < 0.5  # as unlike as real successive decisions are
    (link,) = [ln for ln in k.links(b.id) if ln.metadata.get("reason") == "same_topic"]
    assert (link.from_id, link.to_id, link.link_type) == (a.id, b.id, LinkType.ASSOCIATION)
    assert link.confidence == pytest.approx(0.4 + 0.3 * (1 - 2 / 7), abs=1e-3)
    clock.advance(8 * DAY)
    c = k.remember("Renovate bumps tool versions weekly", type="decision", topic="tooling")
    assert not [ln for ln in k.links(c.id) if ln.metadata.get("reason") == "same_topic"]


def test_the_same_topic_chain_goes_on_from_a_decision_in_force_that_turned_out_badly() -> None:
    rules = LinkRules()
    new = node("n", "decision", "auth", 10 * DAY)
    failed = replace(node("f", "decision", "auth", 7 * DAY), outcome="failed")
    newest = node("d", "decision", "auth", 9 * DAY)
    gone = replace(node("s", "decision", "auth", 9 * DAY + 1), current=False)

    def chained(earlier: list[Node]) -> list[str]:
        return [ln.from_id for ln in auto_links(new, earlier, [], rules)
                if ln.metadata["reason"] == "same_topic"]

    assert chained([newest, failed]) == ["f"]  # the new decision most likely answers it
    assert chained([newest, gone]) == ["d"]  # a superseded decision is not the chain's end
