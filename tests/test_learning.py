"""Confidence learning (ADR-049): the pure rule, trajectories and judgement, and the facade."""

from __future__ import annotations

import pytest

from kenning import Kenning, learning
from kenning.models import SessionEvent
from kenning.sessions import trajectories

H = learning.HOUR_MS


def test_decay_is_linear_per_hour_with_a_floor() -> None:
    assert learning.decayed(0.8, 0, 10 * H) == pytest.approx(0.75)
    assert learning.decayed(0.8, 0, 1000 * H) == pytest.approx(0.1)
    assert learning.decayed(0.05, 0, 1000 * H) == pytest.approx(0.05)  # never raised to it
    assert learning.decayed(0.8, 10 * H, 0) == pytest.approx(0.8)  # no negative ages


def test_decay_composes_so_materialising_it_changes_nothing() -> None:
    once = learning.decayed(0.9, 0, 50 * H)
    twice = learning.decayed(learning.decayed(0.9, 0, 20 * H), 20 * H, 50 * H)
    assert once == pytest.approx(twice)


@pytest.mark.parametrize(("steps", "delta"), [
    ([("test", True)], learning.PASS_BOOST),
    ([("command", False)], -learning.FAIL_PENALTY),
    ([("command", False), ("test", True)], learning.PASS_BOOST),  # failed, then fixed
    ([("test", True), ("test", False)], -learning.FAIL_PENALTY),  # ends broken
    ([("command", True)], 0.0),
    ([], 0.0),
])
def test_judge(steps: list[tuple[str, bool]], delta: float) -> None:
    assert learning.judge(steps)[0] == pytest.approx(delta)


@pytest.mark.parametrize(("head", "is_test"), [
    (["pytest"], True), (["npm", "test"], True), (["cargo", "test"], True),
    (["python", "-m", "pytest"], True), (["make", "check"], True), (["npm", "install"], False),
    (["git", "commit"], False), ([], False),
])
def test_is_test_command(head: list[str], is_test: bool) -> None:
    assert learning.is_test_command(head) is is_test


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


def test_recall_counts_an_access(k: Kenning, clock) -> None:
    m = k.remember("The flaky test in payments is caused by a shared Redis fixture",
                   confidence=0.6)
    clock.advance(2 * H)
    k.recall("flaky payments test", mode="keyword")
    got = k.get(m.id)
    assert got.access_count == 1 and got.confidence == pytest.approx(0.6 - 0.01 + 0.03)
    assert [h["reason"] for h in k.confidence_history(m.id)] == ["accessed"]


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
         "data": {"tool": "Bash", "cmd": "make migrate", "ok": False}},
    ])
    after_access = k.get(m.id).confidence
    assert after_access == pytest.approx(0.63)
    first = k.learn_from_session("s1")
    assert [j["delta"] for j in first["judged"]] == [pytest.approx(-learning.FAIL_PENALTY)]
    assert k.get(m.id).confidence == pytest.approx(0.58)
    assert k.learn_from_session("s1")["judged"] == []  # judged once, never twice
    assert k.get(m.id).confidence == pytest.approx(0.58)


def test_a_session_that_never_ended_is_judged_once_idle(k: Kenning, clock) -> None:
    m = k.remember("Use the staging database for load tests", type="decision", confidence=0.7)
    t = clock()
    k.record_events([
        {"id": "i", "session_id": "crashed", "at_ms": t, "kind": "injected",
         "data": {"memories": [{"id": m.id}]}},
        {"id": "f", "session_id": "crashed", "at_ms": t + 1, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "make loadtest", "ok": False}},
    ])
    assert k.learn_from_abandoned_sessions() == []  # still fresh: maybe still running
    clock.advance(2 * H)
    assert k.learn_from_abandoned_sessions() == ["crashed"]
    assert k.learn_from_abandoned_sessions() == []  # judged once
    reasons = [h["reason"] for h in k.confidence_history(m.id)]
    assert reasons[-1].startswith("session crashed") and "failing" in reasons[-1]
