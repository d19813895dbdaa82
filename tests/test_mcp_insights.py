"""Session insights (auto-claude §1, M32), their retrieval modes (§5) and scoping (M33)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable

import pytest

from kenning import Kenning
from kenning.errors import ValidationError
from tests.mcp_fixtures import kenning_command

INSIGHT = {
    "subtasks_completed": ["cart totals", "tax rounding"],
    "discoveries": {
        "files_understood": {"src/cart.py": "cart totals and discounts"},
        "patterns_found": ["Money is stored as integer cents"],
        "gotchas_encountered": ["Rounding tax per line item differs from rounding the total"],
    },
    "what_worked": ["Decimal with ROUND_HALF_EVEN for tax"],
    "what_failed": ["float arithmetic for prices"],
    "recommendations_for_next_session": ["Add property tests for rounding"],
}


def test_an_insight_becomes_a_session_memory_and_focused_episodes(k: Kenning) -> None:
    saved = k.save_insight({**INSIGHT, "task": "Fix cart tax rounding", "session": "7",
                            "success": True}, agent="coder")
    session, *children = saved
    assert session.type.value == "session"
    assert session.metadata["episode"] == "session_insight"
    assert session.metadata["insight"]["recommendations"] == ["Add property tests for rounding"]
    assert "Worked: Decimal with ROUND_HALF_EVEN for tax" in session.content
    episodes = {m.metadata["episode"]: m for m in children}
    assert set(episodes) == {"pattern", "gotcha", "codebase_discovery", "task_outcome"}
    assert episodes["pattern"].type.value == "pattern"
    assert episodes["gotcha"].type.value == "gotcha"
    assert episodes["codebase_discovery"].metadata["file"] == "src/cart.py"
    assert episodes["task_outcome"].metadata["success"] is True
    assert all(m.agent == "coder" and m.metadata["session"] == "7" for m in saved)


def test_bad_insights_write_nothing(k: Kenning) -> None:
    for bad in ({}, {"what_worked": "x" * 5000}, {"what_worked": [1, 2]},
                {"files_understood": ["a.py"]}, {"success": "yes", "task": "t"},
                {"what_worked": ["ok"] * 51}, "not a dict"):
        with pytest.raises(ValidationError):
            k.save_insight(bad)  # type: ignore[arg-type]
    assert k.count() == 0


def test_retrieval_modes(make_kenning: Callable[..., Kenning], clock) -> None:
    k = make_kenning()
    for n, (task, ok) in enumerate([("Fix cart tax rounding", True),
                                    ("Add OAuth login with Google", False),
                                    ("Speed up product search", True)]):
        clock.advance(3_600_000)
        k.save_insight({**INSIGHT, "task": task, "session": str(n), "success": ok})
    # Temporal history: newest first.
    history = k.session_history(2)
    assert [m.metadata["insight"]["task"] for m in history] == [
        "Speed up product search", "Add OAuth login with Google"]
    # Similar task outcomes.
    similar = k.similar_outcomes("login with a Google account via OAuth", 2)
    assert "Add OAuth login with Google" in similar[0].memory.content
    assert {h.memory.metadata["episode"] for h in similar} <= {
        "task_outcome", "session_insight", "qa_result"}
    # Semantic with an episode filter.
    gotchas = k.scoped_recall("rounding problems", episodes=["gotcha"], k=3)
    assert gotchas and all(h.memory.type.value == "gotcha" for h in gotchas)
    # The CLI view.
    view = k.insights(1)[0]
    assert view["task"] == "Speed up product search" and view["success"] is True
    assert view["worked"] == ["Decimal with ROUND_HALF_EVEN for tax"]
    assert view["next"] == ["Add property tests for rounding"]
    ctx = k.session_context("tax rounding for the cart", k=3)
    assert ctx["gotchas"] and ctx["gotchas"][0].type.value == "gotcha"
    assert len(ctx["recent_sessions"]) == 3


def test_keyword_fallback_without_an_embedder(make_kenning: Callable[..., Kenning]) -> None:
    k = make_kenning("kw.db", embedder=None)
    k.save_insight({**INSIGHT, "task": "Fix cart tax rounding"})
    hits = k.scoped_recall("rounding", episodes=["gotcha"])
    assert hits and hits[0].memory.metadata["episode"] == "gotcha"
    assert k.similar_outcomes("cart tax rounding")
    # Findings still merge exact repeats (and keep both sources) without vectors.
    a = k.record_finding("Cart totals use integer cents", source="agent:a")
    b = k.record_finding("Cart totals use integer cents", source="agent:b")
    assert b.id == a.id and b.metadata["sources"] == ["agent:a", "agent:b"]


def test_scoping_per_spec_per_agent_with_explicit_sharing(k: Kenning) -> None:
    a = k.remember("Payments retry with exponential backoff", metadata={"spec": "spec-001"})
    b = k.remember("Payments are idempotent by order id", metadata={"spec": "spec-002"})
    proj = k.remember("Payments go through Stripe")
    mine = k.remember("Payments webhook secret lives in vault", agent="payments-bot")
    other = k.remember("Payments dashboard is owned by finance", agent="finance-bot")

    def ids(**kw: object) -> set[str]:
        return {h.memory.id for h in k.scoped_recall("payments", k=10, **kw)}

    assert ids() == {a.id, b.id, proj.id, mine.id, other.id}
    assert ids(spec="spec-001") == {a.id, proj.id, mine.id, other.id}
    assert ids(agent="payments-bot") == {a.id, b.id, proj.id, mine.id}
    assert ids(spec="spec-001", agent="payments-bot") == {a.id, proj.id, mine.id}
    k.share(b.id)
    assert b.id in ids(spec="spec-001")
    k.share(b.id, shared=False)
    assert b.id not in ids(spec="spec-001")
    assert ids(spec="spec-001", include_shared=False) == {a.id, proj.id, mine.id, other.id}


def test_insights_cli(cli_env: dict[str, str], tmp_path) -> None:
    with Kenning(cli_env["KENNING_DB"], project="cli-proj", embedder=None) as k:
        k.save_insight({**INSIGHT, "task": "Fix cart tax rounding", "success": False})
    out = subprocess.run([*kenning_command(), "insights", "--json"], env=cli_env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    (s,) = json.loads(out.stdout)["sessions"]
    assert s["failed"] == ["float arithmetic for prices"] and s["success"] is False
    text = subprocess.run([*kenning_command(), "insights"], env=cli_env, capture_output=True,
                          text=True, timeout=120).stdout
    assert "Fix cart tax rounding ✗" in text and "next     Add property tests" in text


def test_a_client_session_uuid_is_named_by_its_first_eight_characters() -> None:
    from kenning.insights import SessionInsight

    uuid = "44a9478c-c10b-467d-8911-fbb428569216"
    assert SessionInsight(session=uuid, task="switch the retry tests to fake timers").to_text() \
        .startswith("Session insight (44a9478c): switch the retry tests")
    assert SessionInsight(session="nightly-run-7", task="x").to_text().startswith(
        "Session insight (nightly-run-7): x")
