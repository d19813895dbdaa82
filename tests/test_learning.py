"""Confidence learning (ADR-049): the pure rule, trajectories and judgement, and the facade."""

from __future__ import annotations

import pytest

from kenning import Kenning, learning
from kenning.models import MemoryType, SessionEvent
from kenning.sessions import trajectories

H = learning.HOUR_MS


def test_decay_is_linear_per_hour_with_a_floor() -> None:
    assert learning.decayed(0.8, 0, 10 * H, "checkpoint") == pytest.approx(0.75)
    assert learning.decayed(0.8, 0, 1000 * H, "checkpoint") == pytest.approx(0.1)
    # never raised to the floor
    assert learning.decayed(0.05, 0, 1000 * H, "checkpoint") == pytest.approx(0.05)
    assert learning.decayed(0.8, 10 * H, 0, "checkpoint") == pytest.approx(0.8)  # no negative ages


def test_decay_composes_so_materialising_it_changes_nothing() -> None:
    once = learning.decayed(0.9, 0, 50 * H, "context")
    twice = learning.decayed(learning.decayed(0.9, 0, 20 * H, "context"), 20 * H, 50 * H,
                             "context")
    assert once == pytest.approx(twice)


def test_standing_kinds_keep_their_confidence_and_episodic_kinds_decay() -> None:
    assert set(learning.STANDING) | set(learning.EPISODIC) == {t.value for t in MemoryType}
    assert not set(learning.STANDING) & set(learning.EPISODIC)
    month = 30 * 24 * H
    for kind in ("decision", "preference", "pattern", "gotcha", "discovery"):
        assert not learning.decays(kind)
        assert learning.decayed(0.8, 0, month, kind) == 0.8
    for kind in ("checkpoint", "session", "context", "outcome", "insight"):
        assert learning.decays(kind)
        assert learning.decayed(0.8, 0, month, kind) == pytest.approx(learning.FLOOR)


@pytest.mark.parametrize(("steps", "delta"), [
    ([("pytest", True)], learning.PASS_BOOST),
    ([("cargo test", False)], -learning.FAIL_PENALTY),
    ([("pytest", False), ("pytest", True)], learning.PASS_BOOST),  # failed, then fixed
    ([("pytest", True), ("pytest", False)], -learning.FAIL_PENALTY),  # ends broken
    ([("mypy", False), ("pytest", True), ("mypy", True)], learning.PASS_BOOST),
    ([("pytest", False), ("mypy", True), ("pytest", True)], learning.PASS_BOOST),
    ([("ruff check", False), ("pytest", True)], -learning.FAIL_PENALTY),  # lint ends failing
    ([], 0.0),
])
def test_judge_lets_each_suites_last_run_decide(steps: list[tuple[str, bool]],
                                                delta: float) -> None:
    assert learning.judge(steps)[0] == pytest.approx(delta)


def test_judge_names_the_suites_in_its_reason() -> None:
    assert learning.judge([("pytest", False), ("pytest", True), ("go vet", True)])[1] == (
        "2 passing test run(s) after it was injected (pytest, go vet)")
    assert learning.judge([("cargo test", False)])[1] == (
        "1 failing command(s) after it was injected (cargo test)")


def test_trajectories_begin_on_injection_and_step_on_later_outcomes() -> None:
    ev = [
        SessionEvent("1", "s", "p", 10, "tool", {"tool": "Bash", "cmd": "ls", "ok": True}),
        SessionEvent("2", "s", "p", 20, "injected", {"memories": [{"id": "m1", "score": 0.9}]}),
        SessionEvent("3", "s", "p", 30, "tool", {"tool": "Bash", "cmd": "pytest", "ok": False,
                                                 "test": True}),
        SessionEvent("4", "s", "p", 40, "tool", {"tool": "Bash", "cmd": "pytest", "ok": True,
                                                 "test": True}),
    ]
    t = trajectories(ev, recorded=[("m0", 35)])
    assert set(t) == {"m0", "m1"}
    assert [s["kind"] for s in t["m1"].steps] == ["injected", "tool", "tool"]
    assert t["m1"].used() and t["m1"].verdict()[0] == pytest.approx(learning.PASS_BOOST)
    assert not t["m0"].used() and len(t["m0"].steps) == 1  # only what came after it


def test_facade_reads_decayed_confidence_and_materialises_on_update(k: Kenning, clock) -> None:
    m = k.remember("Deploys go through the staging cluster first", confidence=0.8)
    clock.advance(10 * H)
    assert k.get(m.id).confidence == pytest.approx(0.75)
    assert k.list()[0].confidence == pytest.approx(0.75)
    k.update(m.id, tags=["deploy"])  # moves updated_at: the decayed value is stored
    clock.advance(10 * H)
    assert k.get(m.id).confidence == pytest.approx(0.70)


def test_recall_is_retrieval_not_use(k: Kenning, clock) -> None:
    m = k.remember("The flaky test in payments is caused by a shared Redis fixture",
                   type="gotcha", confidence=0.6)
    clock.advance(2 * H)
    assert [h.memory.id for h in k.recall("flaky payments test", mode="keyword")] == [m.id]
    got = k.get(m.id)
    assert got.access_count == 0 and got.confidence == pytest.approx(0.6)
    assert k.confidence_history(m.id) == []


def test_feedback_and_history(k: Kenning, clock) -> None:
    m = k.remember("Use pnpm, not npm, in this monorepo", type="preference", confidence=0.7)
    k.feedback(m.id, -0.05, "failing build after it was injected")
    k.update(m.id, confidence=0.9)
    reasons = [(h["reason"], h["confidence"]) for h in k.confidence_history(m.id)]
    assert reasons == [("failing build after it was injected", pytest.approx(0.65)),
                       ("set", pytest.approx(0.9))]
    with pytest.raises(Exception, match="between -1 and 1"):
        k.feedback(m.id, 2, "x")


def test_learn_from_session_judges_once(k: Kenning, clock) -> None:
    m = k.remember("Run the migrations with the lock flag", type="gotcha", confidence=0.6)
    t = clock()
    k.record_events([
        {"id": "a", "session_id": "s1", "at_ms": t + 1, "kind": "injected",
         "data": {"memories": [{"id": m.id, "score": 0.8}]}},
        {"id": "b", "session_id": "s1", "at_ms": t + 2, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "make test", "ok": False}},
    ])
    assert k.get(m.id).confidence == pytest.approx(0.6)  # being injected is not a use
    first = k.learn_from_session("s1")
    assert [j["delta"] for j in first["judged"]] == [pytest.approx(-learning.FAIL_PENALTY)]
    assert k.get(m.id).confidence == pytest.approx(0.55)
    assert k.learn_from_session("s1")["judged"] == []  # judged once, never twice
    assert k.get(m.id).confidence == pytest.approx(0.55)


def test_a_decision_the_session_replaced_loses_whatever_its_checks_said(k: Kenning,
                                                                       clock) -> None:
    """The session had the cache decision in front of it, replaced it, and its tests passed on
    the replacement: the replaced decision goes down, the one kept beside it goes up."""
    cache = k.remember("Serve /shifts with ISR, revalidate every 60s", type="decision",
                       confidence=0.75)
    kept = k.remember("Every route returns JSON errors", type="decision", confidence=0.75)
    t = clock()
    k.record_events([
        {"id": "a", "session_id": "s1", "at_ms": t + 1, "kind": "injected",
         "data": {"memories": [{"id": cache.id, "score": 0.8}, {"id": kept.id, "score": 0.7}]}},
        {"id": "b", "session_id": "s1", "at_ms": t + 2, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "pnpm test", "ok": True}},
    ])
    clock.advance(5_000)
    newer = k.remember("Invalidate /shifts on demand with revalidatePath", type="decision")
    k.supersede(newer.id, cache.id, "the 60 s lag confused people")
    judged = {j["memory_id"]: j for j in k.learn_from_session("s1")["judged"]}
    assert judged[cache.id]["reason"] == "replaced in this session"
    assert k.get(cache.id).confidence == pytest.approx(0.75 - learning.FAIL_PENALTY)
    assert k.get(kept.id).confidence == pytest.approx(0.75 + learning.PASS_BOOST)


def test_a_decision_only_the_start_showed_loses_when_the_session_replaces_it(
        k: Kenning, clock) -> None:
    """The briefing showed the cache decision; the user had it ripped out in that session:
    it goes down although no prompt injected it. A rule the start showed and nobody touched
    is not judged."""
    cache = k.remember("Cache GET /orders/{id} in-process for 30 s", type="decision",
                       confidence=0.7)
    rule = k.remember("Every handler returns JSON errors", type="preference", confidence=0.7)
    t = clock()
    k.record_events([
        {"id": "s", "session_id": "s1", "at_ms": t + 1, "kind": "injected",
         "data": {"channel": "start", "memories": [{"id": cache.id}, {"id": rule.id}]}},
        {"id": "b", "session_id": "s1", "at_ms": t + 2, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "make test", "ok": True}},
    ])
    clock.advance(5_000)
    etag = k.remember("No in-process cache for orders; ETag from updated_at instead",
                      type="decision")
    k.supersede(etag.id, cache.id, "it served stale status")
    judged = {j["memory_id"]: j for j in k.learn_from_session("s1")["judged"]}
    assert judged[cache.id]["reason"] == "replaced in this session"
    assert k.get(cache.id).confidence == pytest.approx(0.7 - learning.FAIL_PENALTY)
    assert judged[rule.id]["delta"] == 0 and k.get(rule.id).confidence == pytest.approx(0.7)


def test_a_failed_check_passed_again_inside_a_chain_is_a_pass(k: Kenning, clock) -> None:
    """`ruff format --check .` fails, a fix, then `ruff format --check . && mypy && pytest`
    passes (journalled, as the hook does, with the chain's other checks in ``also``): the
    format check passed again, so the memory shown is raised, not lowered for the first
    failure."""
    m = k.remember("Checks are `uv run ruff check .`, `uv run ruff format --check .` and "
                   "`uv run mypy`", type="decision", confidence=0.7)
    t = clock()
    k.record_events([
        {"id": "i", "session_id": "s1", "at_ms": t, "kind": "injected",
         "data": {"memories": [{"id": m.id}]}},
        {"id": "f", "session_id": "s1", "at_ms": t + 1, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "uv run ruff format --check .", "ok": False,
                  "check": "format", "suite": "ruff format"}},
        {"id": "p", "session_id": "s1", "at_ms": t + 2, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "uv run ruff", "ok": True, "check": "test",
                  "suite": "pytest", "also": ["ruff format", "mypy"]}},
    ])
    [judged] = k.learn_from_session("s1")["judged"]
    assert judged["delta"] > 0
    assert k.get(m.id).confidence > 0.7


def test_a_session_that_never_ended_is_judged_once_idle(k: Kenning, clock) -> None:
    m = k.remember("Use the staging database for load tests", type="decision", confidence=0.7)
    t = clock()
    k.record_events([
        {"id": "i", "session_id": "crashed", "at_ms": t, "kind": "injected",
         "data": {"memories": [{"id": m.id}]}},
        {"id": "f", "session_id": "crashed", "at_ms": t + 1, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "make check", "ok": False}},
    ])
    assert k.learn_from_abandoned_sessions() == []  # still fresh: maybe still running
    clock.advance(2 * H)
    assert k.learn_from_abandoned_sessions() == ["crashed"]
    assert k.learn_from_abandoned_sessions() == []  # judged once
    reasons = [h["reason"] for h in k.confidence_history(m.id)]
    assert reasons[-1].startswith("session crashed") and "failing" in reasons[-1]


def test_a_sessions_checkpoint_is_briefed_until_another_session_starts(k: Kenning,
                                                                         clock) -> None:
    """A compacted session is briefed with where it stood; a later session is not told where
    an old one stood (the plan and the rules it restated may have changed since)."""
    t = clock()
    k.record_events([{"id": "s", "session_id": "s1", "at_ms": t, "kind": "start",
                      "data": {"source": "startup"}}])
    clock.advance(H)
    saved = k.checkpoint("s1", "Keep structlog for logging; run make test before pushing")
    clock.advance(60_000)
    assert saved.id in k.briefing()  # the same session, after its compaction
    k.record_events([{"id": "c", "session_id": "s1", "at_ms": clock(), "kind": "start",
                      "data": {"source": "compact"}}])
    assert saved.id in k.briefing()
    clock.advance(2 * 24 * H)
    k.record_events([{"id": "n", "session_id": "s2", "at_ms": clock(), "kind": "start",
                      "data": {"source": "startup"}}])
    assert saved.id not in k.briefing()
    by_hand = k.remember("Halfway through the billing migration", type="checkpoint")
    assert by_hand.id in k.briefing()  # no session: shown as before


def test_what_another_sessions_transcript_gave_is_not_recorded_by_this_one(
        k: Kenning, clock) -> None:
    """A killed session finished while the next one ran: the memories drawn from its transcript
    were written during this session but not recorded by it, so this session has no trajectory
    for them (one it wrote itself, or one nobody's transcript gave, it has)."""
    t = clock()
    k.record_events([{"id": "a", "session_id": "s2", "at_ms": t + 1, "kind": "start",
                      "data": {}}])
    clock.advance(1_000)
    theirs = k.remember("Tests are `uv run pytest`", type="decision",
                        metadata={"provenance": {"session_id": "s1"}})
    ours = k.remember("Lint is `uv run ruff check .`", type="decision",
                      metadata={"provenance": {"session_id": "s2"}})
    plain = k.remember("Money is int64 cents", type="decision")
    clock.advance(1_000)
    k.record_events([{"id": "b", "session_id": "s2", "at_ms": clock(), "kind": "tool",
                      "data": {"tool": "Bash", "cmd": "uv run pytest", "ok": True}}])
    assert set(k.session_trajectories("s2")) == {ours.id, plain.id}
    assert theirs.id not in {j["memory_id"] for j in k.learn_from_session("s2")["judged"]}
