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
    assert (r["considered"], r["transferred"], r["already_there"]) == (1, 1, 0)  # above 0.8
    copied = {m.content: m for m in agent_memories(kk, Scope.USER, "reviewer")}
    assert set(copied) == {"Check migrations are reversible"}
    c = copied["Check migrations are reversible"]
    assert (c.type, c.topic, c.tags, c.confidence, c.project) == (a.type, "migrations", ("db",),
                                                                  0.92, "")
    assert c.metadata["transfer"]["from"] == "project:reviewer"
    assert c.metadata["transfer"]["memory_id"] == a.id

    again = kk.transfer("project:reviewer", "user:reviewer", min_confidence=0.8)
    assert (again["transferred"], again["already_there"]) == (0, 1)
    assert len(agent_memories(kk, Scope.USER, "reviewer")) == 1
    lower = kk.transfer("project:reviewer", "local:reviewer", min_confidence=0.7)
    assert lower["transferred"] == 2


def test_transfer_uses_the_confidence_a_memory_has_now(kk: Kenning) -> None:
    kk.remember("The staging VPN profile is corp-2", type="context", scope="project",
                agent="ops", confidence=0.95)
    kk.remember("Rotate the deploy key monthly", type="decision", scope="project", agent="ops",
                confidence=0.9)
    kk.clock.now += 30 * 3_600_000  # type: ignore[attr-defined]  # a context fades: 0.80
    r = kk.transfer("project:ops", "user:ops")
    assert r["considered"] == 1  # the faded one is not above 0.8 any more
    (copy,) = agent_memories(kk, Scope.USER, "ops")
    assert copy.content == "Rotate the deploy key monthly" and copy.confidence == 0.9
    kk.clock.now += 200 * 3_600_000  # type: ignore[attr-defined]  # down to the floor, 0.1
    assert kk.transfer("project:ops", "local:ops", min_confidence=0.05)["transferred"] == 2
    faded = [m for m in agent_memories(kk, Scope.LOCAL, "ops") if "VPN" in m.content]
    assert faded[0].confidence == pytest.approx(0.1)  # copied at the value it has now


def test_session_start_imports_agent_memory_and_end_syncs_agents(
        kk: Kenning, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = repo / ".claude" / "agent-memory" / "reviewer"
    d.mkdir(parents=True)
    (d / "MEMORY.md").write_text("- Flag SQL built with string concatenation\n")
    report = kk.start_session(repo)
    assert report.steps["agent_import"]["imported"]["project:reviewer"]["imported"] == 1
    assert [m.content for m in agent_memories(kk, Scope.PROJECT, "reviewer")] == [
        "Flag SQL built with string concatenation"]

    (repo / ".claude" / "agents").mkdir()
    (repo / ".claude" / "agents" / "planner.md").write_text(
        "---\nname: planner\nmemory: project\n---\nPlan.\n")
    kk.remember("Plans name their rollback", scope="project", agent="planner", confidence=0.9)
    kk.remember("Lint before review", scope="local", agent="linter", confidence=0.9)
    monkeypatch.setenv("CLAUDE_CODE_AGENT_NAME", "linter")
    end = kk.end_session("s1", project_root=repo)
    assert set(end.steps["agent_sync"]["synced"]) == {"project:planner", "local:linter"}
    planner = repo / ".claude" / "agent-memory" / "planner" / "MEMORY.md"
    assert "Plans name their rollback" in planner.read_text()
    linter = repo / ".claude" / "agent-memory-local" / "linter" / "MEMORY.md"
    assert "Lint before review" in linter.read_text()


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
