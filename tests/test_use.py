"""Confidence follows use, not retrieval or the calendar: standing kinds keep their confidence
over time while episodic ones decay (in every place that computes it), recall and injection
change nothing, an agent's fetch by id and a memory the session acted on raise it, and recall
returns only what is relevant to the query."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, stdio_client

from kenning import Kenning, learning
from kenning.hooks import context
from kenning.models import Category, Memory, MemoryType, Scope
from kenning.promptindex import reader as pindex
from kenning.usage import distinctive_terms, referenced
from tests.mcp_fixtures import stdio_params
from tests.test_cli import run
from tests.test_hooks import context_of, env, hook, payload, project  # noqa: F401 (fixtures)

DAY = 86_400_000
PROMPT = "which package manager does the storefront monorepo use?"


def memory(content: str, *, topic: str | None = None) -> Memory:
    return Memory(id="01KSR4C0A9AAAAAAAAAAAAAAAA", type=MemoryType.PATTERN, topic=topic,
                  summary=content[:200], content=content, category=Category.PROJECT_PATTERNS,
                  tags=(), source=None, confidence=0.7, outcome=None, outcome_reason=None,
                  project="p", scope=Scope.PROJECT, agent=None, created_at=0, updated_at=0,
                  last_accessed_at=None, access_count=0, content_hash="h")


@pytest.mark.parametrize(("text", "events", "used"), [
    # a file the memory names was edited (absolute path, relative mention; or by its name)
    ("The navbar component lives in src/ui/Navbar.tsx",
     [{"tool": "Edit", "ok": True, "file": "/home/me/shop/src/ui/Navbar.tsx"}], True),
    ("Navbar.tsx owns the mobile menu state",
     [{"tool": "Edit", "ok": True, "file": "/home/me/shop/src/ui/Navbar.tsx"}], True),
    # an identifier with _ . / - or in CamelCase appears in a path
    ("Money lives in ledger_store, in integer cents",
     [{"tool": "Write", "ok": True, "file": "/x/billing/ledger_store.py"}], True),
    ("LedgerStore.charge must run inside a transaction",
     [{"tool": "Edit", "ok": True, "file": "/x/src/LedgerStore.ts"}], True),
    # backticked code that was run, a program the memory names, a check suite
    ("Before pushing run `make check`; it lints and types",
     [{"tool": "Bash", "ok": True, "cmd": "make check"}], True),
    ("Use pnpm, not npm, in this monorepo", [{"tool": "Bash", "ok": True, "cmd": "pnpm install"}],
     True),
    ("Migrations run with alembic and the lock flag",
     [{"tool": "Bash", "ok": False, "cmd": "alembic upgrade"}], True),
    ("Type errors hide in the plugins: mypy catches them",
     [{"tool": "Bash", "ok": True, "cmd": "python", "check": "typecheck", "suite": "mypy"}], True),
    # common words, ubiquitous commands and a similar but different file say nothing
    ("The billing ledger keeps amounts in integer cents, never floats",
     [{"tool": "Edit", "ok": True, "file": "/x/billing/ledger.py"},
      {"tool": "Bash", "ok": True, "cmd": "git commit"}], False),
    ("Make sure to run the tests before you commit",
     [{"tool": "Bash", "ok": True, "cmd": "make test"}, {"tool": "Bash", "ok": True,
                                                         "cmd": "git commit"}], False),
    ("The navbar component lives in src/ui/Navbar.tsx",
     [{"tool": "Edit", "ok": True, "file": "/x/src/ui/NavbarItem.tsx"}], False),
    ("The dev server reloads on save", [{"tool": "Bash", "ok": True, "cmd": "npm run dev"}],
     False),
    ("Use pnpm, not npm, in this monorepo", [], False),
])
def test_referenced(text: str, events: list[dict[str, object]], used: bool) -> None:
    assert referenced(memory(text), events) is used


def test_distinctive_terms_leave_prose_out() -> None:
    terms, names = distinctive_terms("Use `uv run pytest -x`, e.g. in src/app.py (see 3.11).")
    assert {"uv run pytest -x", "pytest", "src/app.py"} <= terms
    assert not {"e.g", "3.11", "use", "see"} & terms
    assert "pytest" in names and not {"uv", "in", "3", "11"} & names


def test_a_month_later_standing_kinds_keep_confidence_and_episodic_ones_decay(
        k: Kenning, clock) -> None:
    pref = k.remember("Use pnpm workspaces in the storefront monorepo, never npm",
                      type="preference", confidence=0.8)
    cp = k.remember("Checkpoint: storefront monorepo moved to pnpm workspaces",
                    type="checkpoint", confidence=0.8)
    clock.advance(30 * DAY)
    now = clock()
    assert k.get(pref.id).confidence == 0.8
    assert k.get(cp.id).confidence == pytest.approx(learning.FLOOR)
    explained = {h.memory.id: h.parts for h in k.recall(PROMPT, explain=True)}
    assert explained[pref.id]["confidence"] == 0.8
    assert explained[cp.id]["confidence"] == pytest.approx(learning.FLOOR)
    # The prompt hook, from its index and from the store itself.
    k.build_prompt_index()
    index = pindex.load(pindex.index_path(k.journal_dir()), k.store.location)
    assert index is not None
    conn = context.connect(k.store.location)
    try:
        for hits in (pindex.rank(index, PROMPT, k.project, now),
                     context.rank(conn, PROMPT, k.project, now)):
            conf = {h["id"]: h["confidence"] for h in hits}
            assert conf == {pref.id: 0.8, cp.id: pytest.approx(learning.FLOOR)}
    finally:
        conn.close()


def test_recall_changes_no_confidence_and_returns_only_relevant_memories(
        k: Kenning, clock) -> None:
    made = [k.remember(text, type=kind, confidence=0.6) for text, kind in (
        ("Use pnpm workspaces in the storefront monorepo, never npm", "preference"),
        ("The navbar component lives in src/ui/Navbar.tsx", "context"),
        ("Money amounts are integers in cents; floats caused rounding bugs", "gotcha"),
    )]
    clock.advance(DAY)
    before = {m.id: k.get(m.id) for m in made}
    for _ in range(3):
        assert k.recall("recipe for banana bread") == []
        assert len(k.recall("recipe for banana bread", k=3, weak=True)) == 3
    assert [h.memory.id for h in k.recall("where is the top menu bar defined?", k=1)] == [
        made[1].id]  # close in meaning without a shared word: still found
    after = {m.id: k.get(m.id) for m in made}
    assert {i: (m.confidence, m.access_count) for i, m in after.items()} == {
        i: (m.confidence, m.access_count) for i, m in before.items()}
    assert all(k.confidence_history(i) == [] for i in after)


def test_cli_recall_weak(cli_env: dict[str, str]) -> None:
    run(cli_env, "remember", "The navbar component lives in src/ui/Navbar.tsx")
    plain = json.loads(run(cli_env, "recall", "recipe for banana bread", "--json").stdout)
    weak = json.loads(run(cli_env, "recall", "recipe for banana bread", "--weak",
                          "--json").stdout)
    assert (plain["count"], weak["count"]) == (0, 1)


def test_mcp_get_is_a_use_and_mcp_recall_is_not(tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"
    with Kenning(db, project="mcp-proj", embedder=None) as k:
        fetched = k.remember("Use pnpm workspaces for the monorepo", type="decision",
                             confidence=0.7)
        other = k.remember("Tests need Redis running", type="gotcha", confidence=0.7)

    async def scenario() -> None:
        async with stdio_client(stdio_params(tmp_path, db)) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            for _ in range(3):
                res = await s.call_tool("recall", {"query": "pnpm monorepo Redis tests"})
                assert not res.is_error and len(json.loads(res.content[0].text)["results"]) == 2
            res = await s.call_tool("get", {"ids": [fetched.id]})
            assert not res.is_error

    asyncio.run(scenario())
    with Kenning(db, project="mcp-proj", embedder=None) as k:
        assert k.get(fetched.id).confidence == pytest.approx(0.73)
        assert k.get(other.id).confidence == pytest.approx(0.7)
        assert [h["reason"] for h in k.confidence_history(fetched.id)] == ["fetched by id"]
        assert k.confidence_history(other.id) == []


def _edit_the_ledger_run_and_end(env: dict[str, str], project: Path,  # noqa: F811
                                 command: str, stdout: str) -> None:
    """What a session does after it was shown the ledger memories: edit ledger_store.py, run
    ``command`` (printing ``stdout``), end."""
    edit: dict[str, Any] = {"file_path": str(project / "src" / "billing" / "ledger_store.py")}
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Edit", tool_input=edit,
                                tool_response={"filePath": edit["file_path"]}), env)
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Bash",
                                tool_input={"command": command},
                                tool_response={"stdout": stdout, "stderr": "",
                                               "interrupted": False}), env)
    assert hook("SessionEnd", payload("SessionEnd", project, reason="other"),
                env).returncode == 0


def test_an_injected_memory_the_session_acts_on_gains_and_one_it_ignores_does_not(
        env: dict[str, str], project: Path) -> None:  # noqa: F811 (fixtures)
    from kenning.places.keys import project_key

    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        acted = k.remember("Billing ledger writes go through src/billing/ledger_store.py",
                           type="pattern", confidence=0.6)
        ignored = k.remember("The billing ledger keeps amounts in integer cents",
                             type="decision", confidence=0.6)
    shown = context_of(hook("UserPromptSubmit", payload(
        "UserPromptSubmit", project, prompt="how does the billing ledger store amounts?"), env))
    assert acted.id in shown and ignored.id in shown
    _edit_the_ledger_run_and_end(env, project, "git status", "")
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        assert k.get(acted.id).confidence == pytest.approx(0.63)
        assert k.get(ignored.id).confidence == pytest.approx(0.6)
        assert [h["reason"] for h in k.confidence_history(acted.id)] == ["used in session sess-1"]
        assert k.confidence_history(ignored.id) == []
        # Judged once: a second look at the same session credits nothing more.
        k.learn_from_session("sess-1")
        assert k.get(acted.id).confidence == pytest.approx(0.63)


def test_the_directories_above_the_project_are_not_a_use(
        env: dict[str, str], tmp_path: Path) -> None:  # noqa: F811 (fixtures)
    """A project checked out in a directory whose name holds a memory's term (``since-window``
    and the memory's ``--since``): editing any file of it is not acting on that memory. A file
    the memory names still is."""
    from kenning.places.keys import project_key

    proj = tmp_path / "since-window"
    proj.mkdir()
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    key = project_key(str(proj.resolve()))
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        since = k.remember("A log line's ts and the `--since` argument can carry different UTC "
                           "offsets, so never compare them as strings", type="gotcha",
                           confidence=0.6)
        named = k.remember("Output formatting lives in src/output.rs", type="pattern",
                           confidence=0.6)
    shown = context_of(hook("UserPromptSubmit", payload(
        "UserPromptSubmit", proj, prompt="why does --since drop lines? check src/output.rs"),
        env))
    assert since.id in shown and named.id in shown
    edit: dict[str, Any] = {"file_path": str(proj / "src" / "output.rs")}
    hook("PostToolUse", payload("PostToolUse", proj, tool_name="Edit", tool_input=edit,
                                tool_response={"filePath": edit["file_path"]}), env)
    assert hook("SessionEnd", payload("SessionEnd", proj, reason="other"),
                env).returncode == 0
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        assert k.get(since.id).confidence == pytest.approx(0.6)
        assert k.confidence_history(since.id) == []
        assert k.get(named.id).confidence == pytest.approx(0.63)
        tool = [e for e in k.store.session_events(session_id="sess-1", kinds=["tool"])]
        assert [e.data["file"] for e in tool] == ["src/output.rs"]


def test_a_rule_the_start_showed_is_judged_only_when_the_session_acts_on_it(
        env: dict[str, str], project: Path) -> None:  # noqa: F811 (fixtures)
    """The session start puts the rules in force in front of the model; the session edits the
    file one of them names and its tests pass: that rule gains (used, and held up), the other
    rule shown beside it is left as it was."""
    from kenning.places.keys import project_key

    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        acted = k.remember("Billing ledger writes go through src/billing/ledger_store.py",
                           type="pattern", confidence=0.6)
        ignored = k.remember("Commit messages are short imperative summaries",
                             type="preference", confidence=0.6)
    assert hook("SessionStart", payload("SessionStart", project, source="startup"),
                env).returncode == 0
    _edit_the_ledger_run_and_end(env, project, "python -m pytest -q", "3 passed in 0.02s")
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        assert k.get(acted.id).confidence == pytest.approx(
            0.6 + learning.PASS_BOOST + learning.ACCESS_BOOST)
        assert k.get(ignored.id).confidence == pytest.approx(0.6)
        assert k.confidence_history(ignored.id) == []
        assert k.injections() == []  # the start is not a prompt's injection


def test_use_rates_scale_injection_and_never_used_memories_sink() -> None:
    from kenning.usage import MIN_SHOWN, USE_FLOOR, injection_factor, use_counts

    assert injection_factor(MIN_SHOWN - 1, 0) == 1.0  # too few sessions to know
    assert injection_factor(6, 0) == USE_FLOOR and injection_factor(6, 2) == 1.0
    assert injection_factor(3, 0) < injection_factor(3, 1) <= 1.0
    counts = use_counts([("s1", ["a", "b"]), ("s1", ["a"]), ("s2", ["a"])],
                        [("s1", "a"), ("s3", "b")])  # b used where it was not shown: no use
    assert counts == {"a": (2, 1), "b": (1, 0)}


def test_a_memory_shown_often_and_never_used_ranks_below_one_that_is_used(
        env: dict[str, str], project: Path) -> None:  # noqa: F811 (fixtures)
    """Two memories match a prompt alike; sessions kept acting on one and never on the other,
    so the prompt index ranks the used one first (the other one had ranked first before)."""
    from kenning.models import SessionEvent
    from kenning.places.keys import project_key

    key = project_key(str(project.resolve()))
    prompt = "how do we page through the orders list?"
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        a = k.remember("Orders list pages with keyset pagination on created_at", type="pattern")
        b = k.remember("Orders list pages with a cursor token, see api/paging.py",
                       type="pattern")
        k.build_prompt_index()
    first = context_of(hook("UserPromptSubmit", payload("UserPromptSubmit", project,
                                                        session_id="p-0", prompt=prompt), env))
    lead, trail = (a, b) if first.index(a.id) < first.index(b.id) else (b, a)
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        now = k.clock()
        events = []
        for i in range(6):
            sid = f"past-{i}"
            events.append(SessionEvent(f"inj-{i}", sid, key, now - 1000 + i, "injected", {
                "memories": [{"id": lead.id, "score": 1.0}, {"id": trail.id, "score": 0.9}],
                "matched": ["orders"], "prompt_id": None}))
            events.append(SessionEvent(f"used-{i}", sid, key, now - 900 + i, "used",
                                       {"memory_id": trail.id}))
        k.store.add_session_events(events)
        assert k.build_prompt_index()["memories"] == 2
    after = context_of(hook("UserPromptSubmit", payload("UserPromptSubmit", project,
                                                        session_id="p-1", prompt=prompt), env))
    assert after.index(trail.id) < after.index(lead.id)
    import subprocess
    import sys
    from pathlib import Path

    doctor = subprocess.run([str(Path(sys.executable).parent / "kenning"), "doctor", "--json"],
                            env=env, cwd=project, capture_output=True, text=True)
    use = json.loads(doctor.stdout)["hooks"]["injection_use"]
    assert use["shown_often_never_used"] == 1 and use["examples"] == [lead.id]
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        rows = {m["id"]: m for i in k.injections() for m in i["memories"]}
        assert (rows[trail.id]["used_sessions"], rows[trail.id]["shown_sessions"]) == (6, 6)
