"""The declared public surface: what ``import kenning`` exports and what the facade offers.
Adding or removing a public name is a deliberate change to these lists (and to the README)."""

from __future__ import annotations

import inspect

import kenning

EXPORTS = [
    "Category", "CreatedBy", "Hit", "Kenning", "KenningError", "Link", "LinkType", "Memory",
    "MemoryType", "NotFoundError", "OutcomeStatus", "Scope", "SessionReport", "StoreError",
    "ValidationError", "__version__",
]

FACADE = [
    "agent_memory_dir", "agent_scopes", "anchor", "anchors", "auto_agents", "auto_import",
    "auto_link", "auto_memory_dir", "auto_status", "auto_sync", "auto_sync_if_due", "briefing",
    "build_prompt_index", "check_drift", "checkpoint", "close", "communities", "compact_session",
    "confidence_history", "config", "confirm", "consolidate", "count", "curate", "curate_preview",
    "downvote_link", "end_session", "extract", "feedback", "forget", "get", "graph_stats",
    "health", "impact", "ingest_journal", "injections", "insights", "journal_dir",
    "learn_from_abandoned_sessions", "learn_from_session", "link", "links",
    "links_by_relationship", "links_with_word", "list", "merge_relationship", "outcome",
    "prune_episodes", "recall", "record_events", "record_finding", "record_subagent_stop",
    "reindex", "related", "relations", "remember", "remember_many", "save_insight",
    "scoped_recall", "session_context", "session_history", "session_trajectories", "settle",
    "share", "similar_outcomes", "stale", "start_session", "status", "supersede", "top",
    "topics", "transfer", "unlink", "update", "why",
]


def test_the_package_exports_exactly_the_declared_names_and_each_resolves() -> None:
    assert sorted(kenning.__all__) == sorted(EXPORTS)
    assert sorted(dir(kenning)) == sorted(EXPORTS)
    for name in EXPORTS:
        assert getattr(kenning, name) is not None


def test_the_facade_offers_the_declared_methods_each_documented() -> None:
    public = sorted(n for n, _ in inspect.getmembers(kenning.Kenning) if not n.startswith("_"))
    assert public == sorted(FACADE)
    undocumented = [n for n in FACADE if not inspect.getdoc(getattr(kenning.Kenning, n))]
    assert undocumented == [], f"public facade methods without a docstring: {undocumented}"
