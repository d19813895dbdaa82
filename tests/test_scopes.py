"""Agent memory scopes: directories per scope, sanitised names, listing, knowledge transfer
between scopes (de-duplicated, with provenance), and import/sync of an agent's directory."""
# ruff: noqa: F811  (pytest fixtures come from tests.automemory_fixtures)

from __future__ import annotations

from pathlib import Path

import pytest

from kenning import Kenning
from kenning.errors import ValidationError
from kenning.models import Filters, Scope
from tests.automemory_fixtures import client_memory, home, kk, repo  # noqa: F401


def agent_memories(k: Kenning, scope: Scope, agent: str) -> list:
    return k.store.list(Filters(project=k.project, scopes=(scope,), agent=agent), limit=None)


def test_transfer_copies_confident_memories_once_with_provenance(kk: Kenning) -> None:
    a = kk.remember("Check migrations are reversible", scope="project", agent="reviewer",
                    type="pattern", topic="migrations", tags=["db"], confidence=0.92)
    kk.remember("Prefer small PRs", scope="project", agent="reviewer", confidence=0.8)
    kk.remember("Maybe nitpick naming", scope="project", agent="reviewer", confidence=0.5)
    kk.remember("Another agent's note", scope="project", agent="planner", confidence=0.99)

    r = kk.transfer("project:reviewer", "user:reviewer", min_confidence=0.8)
    assert (r["considered"], r["transferred"], r["already_there"]) == (2, 2, 0)
    copied = {m.content: m for m in agent_memories(kk, Scope.USER, "reviewer")}
    assert set(copied) == {"Check migrations are reversible", "Prefer small PRs"}
    c = copied["Check migrations are reversible"]
    assert (c.type, c.topic, c.tags, c.confidence, c.project) == (a.type, "migrations", ("db",),
                                                                  0.92, "")
    assert c.metadata["transfer"]["from"] == "project:reviewer"
    assert c.metadata["transfer"]["memory_id"] == a.id

    again = kk.transfer("project:reviewer", "user:reviewer", min_confidence=0.8)
    assert (again["transferred"], again["already_there"]) == (0, 2)
    assert len(agent_memories(kk, Scope.USER, "reviewer")) == 2
    higher = kk.transfer("project:reviewer", "local:reviewer", min_confidence=0.9)
    assert higher["transferred"] == 1


def test_transfer_rejects_bad_scopes(kk: Kenning) -> None:
    for src, dst in (("project:../x", "user:x"), ("project:reviewer", "user:/etc"),
                     ("reviewer", "user:reviewer"), ("project:a", "project:a")):
        with pytest.raises(ValidationError):
            kk.transfer(src, dst)
    with pytest.raises(ValidationError, match="confidence"):
        kk.transfer("project:a", "user:a", min_confidence=1.5)


def test_agent_scopes_lists_store_disk_and_definitions(kk: Kenning, repo: Path, home: Path
                                                       ) -> None:
    kk.remember("Lint first", scope="local", agent="linter", confidence=0.9)
    (repo / ".claude" / "agent-memory" / "reviewer").mkdir(parents=True)
    (repo / ".claude" / "agent-memory" / "reviewer" / "MEMORY.md").write_text("- be kind\n")
    (repo / ".claude" / "agents").mkdir(parents=True)
    (repo / ".claude" / "agents" / "planner.md").write_text(
        "---\nname: planner\ndescription: plans\nmemory: user\n---\nPlan things.\n")
    rows = {r["scope"]: r for r in kk.agent_scopes(repo)}
    assert set(rows) == {"project:reviewer", "local:linter", "user:planner"}
    assert rows["project:reviewer"]["index_exists"] and rows["local:linter"]["memories"] == 1
    assert rows["user:planner"]["dir"] == str(home / ".claude" / "agent-memory" / "planner")
    assert rows["user:planner"]["defined_memory"] == "user"


def test_agent_directory_import_and_sync(kk: Kenning, repo: Path) -> None:
    d = kk.agent_memory_dir("project:reviewer", repo)
    assert d == repo / ".claude" / "agent-memory" / "reviewer"
    d.mkdir(parents=True)
    (d / "MEMORY.md").write_text("- Flag any SQL built with string concatenation\n")
    (d / "n-plus-one.md").write_text(client_memory(
        "n-plus-one", "Watch for N+1 queries in serializers", "feedback",
        "Watch for N+1 queries in serializers."))
    r = kk.auto_import(repo, scope="project:reviewer")
    assert r["imported"] == 2
    mine = agent_memories(kk, Scope.PROJECT, "reviewer")
    assert len(mine) == 2 and all(m.agent == "reviewer" for m in mine)
    kk.remember("Ask for tests on every bug fix", scope="project", agent="reviewer",
                confidence=0.9)
    kk.remember("Project-wide note", confidence=0.9)  # not the agent's: stays out
    kk.auto_sync(repo, scope="project:reviewer")
    text = (d / "MEMORY.md").read_text()
    assert "Ask for tests on every bug fix" in text and "Project-wide note" not in text
    assert "- Flag any SQL built with string concatenation" in text
    assert kk.auto_import(repo, scope="project:reviewer")["imported"] == 0
    with pytest.raises(ValidationError):
        kk.auto_import(repo, scope="project:../../etc")
