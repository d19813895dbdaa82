"""Validity on memories: a superseded memory carries when it stopped being true and what
replaced it, is ranked far below its successor, is never injected, briefed or curated into
MEMORY.md as current, and becomes current again when the link goes. Inferred supersession
only links a decision to the earlier one its reasoning names."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kenning import Kenning
from kenning.embed import MiniLMEmbedder
from kenning.errors import ValidationError
from kenning.models import LinkType, iso
from kenning.places.keys import project_key
from kenning.store import postgres, sqlite
from kenning.store.base import SCHEMA_VERSION
from kenning.store.postgres import PostgresStore
from kenning.store.sqlite import SQLiteStore
from tests import pg_fixtures
from tests.conftest import T0, Clock
from tests.validity_corpus import corpus, inferred_links

pg_server, pg_dsn = pg_fixtures.pg_server, pg_fixtures.pg_dsn  # a real server per session
KENNING = str(Path(sys.executable).with_name("kenning"))
HOOK = str(Path(sys.executable).with_name("kenning-hook"))
MIN, DAY = 60_000, 86_400_000


def decisions(k: Kenning, clock: Clock) -> tuple[Any, Any]:
    old = k.remember("Use pnpm for package installs in CI", type="decision",
                     topic="package_manager")
    clock.advance(DAY)
    new = k.remember("Use bun for package installs in CI", type="decision",
                     topic="package_manager")
    clock.advance(MIN)
    return old, new


def test_supersede_ends_the_old_memory_in_the_same_write(k: Kenning, clock: Clock) -> None:
    old, new = decisions(k, clock)
    assert k.get(old.id).current and k.get(old.id).to_dict()["valid_to"] is None
    link = k.supersede(new.id[:12], old.id, reason="bun installs are four times faster")
    assert (link.from_id, link.to_id, link.relationship) == (new.id, old.id, "supersedes")
    assert link.link_type is LinkType.EVOLUTION and link.metadata["reason"].startswith("bun")
    got = k.get(old.id)
    # the successor was made a minute before the link: validity ends when it was linked
    assert got.valid_to == clock() and got.superseded_by == new.id
    assert not got.current and not got.current_at(clock()) and k.get(new.id).current
    assert got.valid_from == old.created_at
    d = got.to_dict()
    assert (d["valid_from"], d["valid_to"], d["superseded_by"], d["current"]) == (
        iso(old.created_at), iso(clock()), new.id, False)
    assert k.get(new.id).to_dict()["current"] is True


def test_every_path_that_makes_a_supersedes_link_has_the_effect(k: Kenning, clock: Clock
                                                                ) -> None:
    a = k.remember("Deploy from the main branch", type="decision", topic="deploys")
    b = k.remember("Deploy from release branches", type="decision", topic="deploys",
                   supersedes=a.id, reason="main moves too fast")
    assert (k.get(a.id).valid_to, k.get(a.id).superseded_by) == (b.created_at, b.id)
    c = k.remember("Pages are cached for five minutes", type="decision", topic="cache")
    d = k.remember("Pages are cached for one minute", type="decision", topic="cache")
    k.link(d.id, c.id, "replaces")  # a synonym: canonical supersedes
    assert k.get(c.id).superseded_by == d.id
    e = k.remember("Logs go to Loki", type="decision", topic="logs")
    f = k.remember("Logs go to Elasticsearch", type="decision", topic="logs")
    k.link(e.id, f.id, "superseded by")  # the passive words, stored the other way round
    assert k.get(e.id).superseded_by == f.id and k.get(f.id).current
    # a successor that only takes over next week: the old decision holds until then
    g = k.remember("Release on Fridays", type="decision", topic="release")
    h = k.remember("Release on Tuesdays", type="decision", topic="release",
                   created_at=clock() + 7 * DAY, supersedes=g.id)
    later = k.get(g.id)
    assert later.valid_to == h.created_at and later.superseded_by == h.id
    assert later.current_at(clock()) and not later.current_at(clock() + 7 * DAY)


def test_unlink_and_forgetting_the_successor_reopen_validity(k: Kenning, clock: Clock) -> None:
    old, new = decisions(k, clock)
    first = k.supersede(new.id, old.id)
    clock.advance(DAY)
    newer = k.remember("Use npm workspaces for package installs in CI", type="decision",
                       topic="package_manager")
    second = k.supersede(newer.id, old.id)
    assert (k.get(old.id).superseded_by, k.get(old.id).valid_to) == (newer.id, clock())
    assert k.unlink(second.id)
    assert (k.get(old.id).superseded_by, k.get(old.id).valid_to) == (new.id, first.created_at)
    assert k.unlink(first.id)
    back = k.get(old.id)
    assert back.current and back.valid_to is None and back.superseded_by is None
    k.supersede(new.id, old.id)
    k.forget(new.id)
    assert k.get(old.id).current


def test_a_cycle_is_refused_and_nothing_is_written(k: Kenning, clock: Clock) -> None:
    a = k.remember("Tabs", type="decision", topic="style")
    b = k.remember("Spaces", type="decision", topic="style")
    c = k.remember("Two spaces", type="decision", topic="style")
    k.supersede(b.id, a.id)
    with pytest.raises(ValidationError, match="circle"):
        k.supersede(a.id, b.id)
    k.supersede(c.id, b.id)
    with pytest.raises(ValidationError, match=f"{c.id} already supersedes {a.id}"):
        k.link(a.id, c.id, "supersedes")
    with pytest.raises(ValidationError, match="itself"):
        k.supersede(a.id, a.id)
    assert [(ln.from_id, ln.to_id) for ln in k.links(a.id)
            if ln.link_type is LinkType.EVOLUTION] == [(b.id, a.id)]
    assert k.get(c.id).current and k.get(a.id).superseded_by == b.id


def test_recall_puts_the_successor_first_and_marks_the_old_one(k: Kenning, clock: Clock
                                                               ) -> None:
    old = k.remember("The nightly build runs on Jenkins", type="decision", topic="ci")
    clock.advance(DAY)
    new = k.remember("The nightly build runs on GitHub Actions", type="decision", topic="ci")
    query = "which CI server runs the nightly build, Jenkins?"
    before = k.recall(query, k=2, explain=True, track=False)
    assert before[0].memory.id == old.id  # by far the better match, until it is superseded
    k.supersede(new.id, old.id)
    hits = k.recall(query, k=2, explain=True, track=False)
    assert [h.memory.id for h in hits] == [new.id, old.id]
    assert hits[1].parts is not None and hits[1].parts["superseded"] == 0.3
    assert hits[0].parts is not None and hits[0].parts["superseded"] == 1.0
    assert hits[1].memory.superseded_by == new.id and hits[0].memory.current


def test_briefing_and_memory_md_leave_the_old_one_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    with Kenning(tmp_path / "k.db", project="proj", embedder=None, clock=clock) as k:
        old, new = decisions(k, clock)
        assert old.id in k.briefing() and new.id in k.briefing()
        k.curate(repo)
        index = k.auto_memory_dir(repo) / "MEMORY.md"
        assert "pnpm" in index.read_text()
        k.supersede(new.id, old.id)
        brief = k.briefing()
        assert new.id in brief and old.id not in brief
        k.curate(repo)
        text = index.read_text()
        assert "bun" in text and "pnpm" not in text
        k.auto_sync(repo)  # a sync also removes the memory file it had written for it
        assert "pnpm" not in index.read_text()
        assert not [p for p in index.parent.glob("*.md") if "pnpm" in p.read_text()]


def cli(env: dict[str, str], *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([KENNING, *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_the_cli_supersedes_shows_marks_and_unlinks(cli_env: dict[str, str]) -> None:
    env = {**cli_env, "KENNING_EMBEDDER": "none"}

    def j(*args: str) -> Any:
        return json.loads(cli(env, *args, "--json").stdout)

    old = j("remember", "Use pnpm for package installs", "--type", "decision", "--topic", "pm")
    new = j("remember", "Use bun for package installs", "--type", "decision", "--topic", "pm")
    done = j("supersede", new["id"], old["id"][:10], "--reason", "faster installs")
    assert done["link"]["relationship"] == "supersedes"
    assert done["superseded"]["superseded_by"] == new["id"]
    shown = j("show", old["id"])
    assert shown["current"] is False and shown["superseded_by"] == new["id"]
    assert shown["valid_to"] is not None and shown["valid_from"] == shown["created_at"]
    assert j("show", new["id"])["current"] is True
    table = cli(env, "list").stdout
    assert f"superseded by {new['id'][:8]}" in table
    hits = j("recall", "package installs")["hits"]
    assert [h["memory"]["id"] for h in hits] == [new["id"], old["id"]]
    assert hits[1]["memory"]["current"] is False
    assert f"superseded by {new['id'][:8]}" in cli(env, "recall", "package installs").stdout
    refused = cli(env, "supersede", old["id"], new["id"], ok=False)
    assert refused.returncode == 1 and "circle" in refused.stderr
    assert j("unlink", done["link"]["id"])["deleted"] is True
    again = j("show", old["id"])
    assert again["current"] is True and again["superseded_by"] is None


def test_the_prompt_hook_injects_the_successor_never_the_old_one(tmp_path: Path,
                                                                 clock: Clock) -> None:
    repo = tmp_path / "proj"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    env.update(KENNING_HOME=str(tmp_path / "kdata"), KENNING_DB=str(tmp_path / "k.db"),
               KENNING_EMBEDDER="none", HOME=str(tmp_path))
    def injected() -> str:
        """What the first prompt of a new conversation gets."""
        prompt = json.dumps({"session_id": uuid.uuid4().hex, "cwd": str(repo), "prompt":
                             "which tool runs the package installs in CI?",
                             "hook_event_name": "UserPromptSubmit"})
        out = subprocess.run([HOOK, "UserPromptSubmit"], input=prompt, env=env, text=True,
                             capture_output=True, timeout=60, check=False)
        assert out.returncode == 0 and out.stdout, out.stderr
        return str(json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"])

    # The hook's clock is the wall clock: these memories are dated now.
    with Kenning(env["KENNING_DB"], project=project_key(str(repo.resolve())),
                 embedder=None) as k:
        old, new = decisions(k, clock)
        assert old.id in injected()  # both are injected while both hold
        k.supersede(new.id, old.id)
    text = injected()  # the store itself (the prompt index is out of date)
    assert new.id in text and old.id not in text and "pnpm" not in text
    with Kenning(env["KENNING_DB"], embedder=None) as k:
        assert k.build_prompt_index()["memories"] == 2
    text = injected()  # the prompt index
    assert new.id in text and old.id not in text and "pnpm" not in text


def _old_sqlite_store(path: Path) -> None:
    """A store as schema version 3 made it, with two decisions, one superseding the other by a
    synonym ("replaces"), and an unrelated link."""
    conn = sqlite3.connect(path)
    for script in sqlite.MIGRATIONS[:3]:
        for statement in sqlite._split_sql(script):
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 3")
    cols = ("id, type, topic, summary, content, category, tags, source, confidence, outcome, "
            "outcome_reason, project, scope, agent, created_at, updated_at, last_accessed_at, "
            "access_count, content_hash, metadata")
    for mid, text, at in (("01OLD", "Use pnpm", T0), ("01NEW", "Use bun", T0 + DAY),
                          ("01OTHER", "Cache for a minute", T0 + 2 * DAY)):
        conn.execute(f"INSERT INTO memories ({cols}) VALUES (?, 'decision', 'pm', ?, ?, "
                     "'architecture', '[]', NULL, 0.8, NULL, NULL, 'p', 'project', '', ?, ?, "
                     "NULL, 0, ?, '{}')", (mid, text, text, at, at, mid))
    links = (("L1", "01NEW", "01OLD", "evolution", "replaces",
              {"original_relationship": "replaces", "canonical": "supersedes"}, T0 + DAY + 5),
             ("L2", "01OTHER", "01NEW", "association", "relates_to",
              {"original_relationship": "relates_to"}, T0 + 2 * DAY))
    for lid, a, b, ltype, rel, meta, at in links:
        conn.execute("INSERT INTO memory_links (id, from_id, to_id, link_type, confidence, "
                     "created_by, metadata, relationship, created_at) VALUES "
                     "(?, ?, ?, ?, 0.9, 'user', ?, ?, ?)", (lid, a, b, ltype, json.dumps(meta),
                                                           rel, at))
    conn.commit()
    conn.close()


def test_a_version_3_sqlite_store_upgrades_in_place_with_validity_filled(tmp_path: Path
                                                                         ) -> None:
    path = tmp_path / "v3.db"
    _old_sqlite_store(path)
    store = SQLiteStore(path)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        got = store.get_many(["01OLD", "01NEW", "01OTHER"])
        assert (got["01OLD"].valid_to, got["01OLD"].superseded_by) == (T0 + DAY + 5, "01NEW")
        assert all(got[i].current for i in ("01NEW", "01OTHER"))
        assert [got[i].valid_from for i in ("01OLD", "01NEW")] == [T0, T0 + DAY]
        assert store.delete_link("L1") and store.get_many(["01OLD"])["01OLD"].current
    finally:
        store.close()


def test_a_version_3_postgres_store_upgrades_in_place_with_validity_filled(pg_dsn: str) -> None:
    import psycopg

    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE kenning_schema (version INTEGER NOT NULL)")
        for step, script in enumerate(postgres.MIGRATIONS[:3], start=1):
            conn.execute(script)
            conn.execute("INSERT INTO kenning_schema(version) VALUES (%s)", (step,))
        for mid, text, at in (("01OLD", "Use pnpm", T0), ("01NEW", "Use bun", T0 + DAY)):
            conn.execute(
                "INSERT INTO memories (id, type, topic, summary, content, category, confidence, "
                "project, scope, created_at, updated_at, content_hash) VALUES (%s, 'decision', "
                "'pm', %s, %s, 'architecture', 0.8, 'p', 'project', %s, %s, %s)",
                (mid, text, text, at, at, mid))
        conn.execute("INSERT INTO memory_links (id, from_id, to_id, link_type, confidence, "
                     "created_by, metadata, relationship, created_at) VALUES ('L1', '01NEW', "
                     "'01OLD', 'evolution', 0.9, 'user', %s, 'replaces', %s)",
                     (json.dumps({"canonical": "supersedes"}), T0 + DAY + 5))
    store = PostgresStore(pg_dsn)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        got = store.get_many(["01OLD", "01NEW"])
        assert (got["01OLD"].valid_to, got["01OLD"].superseded_by) == (T0 + DAY + 5, "01NEW")
        assert got["01NEW"].current and got["01OLD"].valid_from == T0
    finally:
        store.close()


def test_inferred_supersession_links_only_what_the_reasoning_names(
    make_kenning: Callable[..., Kenning], clock: Clock, embedder: MiniLMEmbedder
) -> None:
    """1,000 typed decisions over 50 topics whose reasoning mostly says "instead of" something
    never recorded: links to unrelated decisions stay under 2 %, real replacements are found."""
    k = make_kenning("corpus.db")
    items = corpus(per_topic=20)
    assert len(items) == 1000 and len({i.fields["topic"] for i in items}) == 50
    ids, pairs = inferred_links(k, items)
    assert len(set(ids)) == len(items)
    unrelated = [(a, b) for a, b in pairs
                 if items[a].replaces is None or items[b].chose != items[a].replaces]
    real = [n for n, item in enumerate(items) if item.replaces]
    found = {a for a, b in pairs if (a, b) not in unrelated}
    assert len(unrelated) < 0.02 * len(items)
    assert len(found) >= 0.8 * len(real)
    # What was linked is no longer current; a decision nothing names still is.
    assert all(not k.get(ids[b]).current for _, b in pairs)
    pm = [n for n, item in enumerate(items) if item.fields["topic"] == "billing_package_manager"]
    assert any(k.get(ids[n]).current for n in pm)


def test_a_real_replacement_is_still_inferred(k: Kenning, clock: Clock) -> None:
    pnpm = k.remember("Use pnpm for installs", type="decision", topic="package_manager")
    clock.advance(DAY)
    k.remember("Keep the lockfile in the repository root", type="decision",
               topic="package_manager", reason="instead of one per workspace")
    clock.advance(DAY)
    bun = k.remember("Use bun instead of pnpm", type="decision", topic="package_manager")
    evo = [ln for ln in k.links(bun.id) if ln.link_type is LinkType.EVOLUTION]
    assert [ln.to_id for ln in evo] == [pnpm.id] and evo[0].created_by.value == "system"
    assert k.get(pnpm.id).superseded_by == bun.id
    clock.advance(DAY)
    vague = k.remember("Use yarn for installs", type="decision", topic="package_manager",
                       reason="instead of the tool the other team picked")
    assert not [ln for ln in k.links(vague.id) if ln.link_type is LinkType.EVOLUTION]
    assert k.get(bun.id).current
