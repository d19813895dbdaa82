"""The PostgreSQL engine end to end: the facade, scoping, learning, concurrent processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from kenning import Kenning
from kenning.embed import MiniLMEmbedder
from kenning.models import Filters
from kenning.store.engines import is_dsn, open_store
from kenning.store.postgres import PostgresStore, redact_dsn
from kenning.store.sqlite import SQLiteStore
from tests import pg_fixtures
from tests.conftest import Clock
from tests.test_cli import KENNING
from tests.test_store_contract import T0, mem, unit

pg_server, pg_dsn = pg_fixtures.pg_server, pg_fixtures.pg_dsn  # a real server per session


@pytest.fixture
def pk(pg_dsn: str, embedder: MiniLMEmbedder, clock: Clock) -> Iterator[Kenning]:
    with Kenning(pg_dsn, project="proj", embedder=embedder, clock=clock) as k:
        yield k


def test_dsn_opens_postgres_and_paths_open_sqlite(pg_dsn: str, tmp_path: Path) -> None:
    assert is_dsn(pg_dsn) and not is_dsn(str(tmp_path / "k.db")) and not is_dsn(tmp_path)
    pg = open_store(pg_dsn)
    lite = open_store(tmp_path / "k.db")
    try:
        assert (pg.engine, lite.engine) == ("postgresql", "sqlite")
        assert isinstance(pg, PostgresStore) and isinstance(lite, SQLiteStore)
    finally:
        pg.close()
        lite.close()


def test_password_is_redacted() -> None:
    assert redact_dsn("postgresql://bob:s3cret@db.example/k") == "postgresql://bob:***@db.example/k"
    assert "s3cret" not in redact_dsn("postgresql:///k?host=/tmp&password=s3cret&sslmode=off")
    assert redact_dsn("postgresql://bob@db/k") == "postgresql://bob@db/k"


def test_remember_recall_link_why(pk: Kenning, clock: Clock) -> None:
    jwt = pk.remember("Use JWT for auth: stateless tokens scale", type="decision",
                      topic="auth_strategy")
    pk.remember("The CI cache keys on the lockfile hash", type="pattern", topic="ci")
    hits = pk.recall("why did we pick JWT?", k=5, explain=True)
    assert hits[0].memory.id == jwt.id
    assert hits[0].parts is not None and hits[0].parts["vector_rank"] == 1
    # No shared word and a similarity at noise level: only a weak recall returns it.
    assert pk.recall("how do users log in?", k=1) == []
    assert pk.recall("how do users log in?", k=1, weak=True)[0].memory.topic == "auth_strategy"
    assert pk.get(jwt.id).access_count == 0  # recall is not a use
    assert pk.get(jwt.id, touch=True).access_count == 1  # an agent's fetch is
    clock.advance(60_000)
    sessions = pk.remember("Use server sessions instead of JWT", type="decision",
                           topic="auth_strategy")
    link = pk.link(sessions.id, jwt.id, "supersedes", reason="token refresh too slow")
    assert link.link_type.value == "evolution"
    chain = pk.why("auth_strategy")
    assert [e.memory.id for e in chain][:2] == [sessions.id, jwt.id]
    pk.forget(sessions.id)
    assert all(ln.from_id != sessions.id for ln in pk.links(jwt.id))
    status = pk.status()
    assert status["engine"] == "postgresql" and status["memories"] == 2
    pg = status["postgres"]
    assert pg["pgvector_version"] and pg["server_version"]
    assert [i["valid"] for i in pg["hnsw_indexes"]] == [True]
    assert pg["pool"]["errors"] == 0 and pg["pool"]["max"] >= 1


def test_consolidate_runs_under_an_advisory_lock(pk: Kenning) -> None:
    a = pk.remember("Deploys go through the staging cluster first", type="pattern")
    b = pk.remember("Staging cluster uses spot instances", type="context")
    pk.link(a.id, b.id, "relates to")
    report = pk.consolidate()
    assert report["memories"] == 2 and report["links"] >= 1
    assert set(pk.store.graph_scores()) == {a.id, b.id}
    other = PostgresStore(pk.store.dsn)  # another process or machine, in real life
    done = threading.Event()
    try:
        with other.exclusive("consolidate"):
            worker = threading.Thread(target=lambda: (pk.consolidate(), done.set()))
            worker.start()
            assert not done.wait(1.0)  # waits for the other consolidation to finish
        assert done.wait(30)
        worker.join()
    finally:
        other.close()


def test_env_var_selects_postgres(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KENNING_DB", pg_dsn)
    with Kenning(project="p", embedder=None) as k:
        k.remember("Environment DSN works", type="insight")
        assert k.store.engine == "postgresql" and k.count() == 1


def test_workspaces_do_not_see_each_other(pg_dsn: str) -> None:
    a = PostgresStore(pg_dsn, organisation="acme", workspace="web")
    b = PostgresStore(pg_dsn, organisation="acme", workspace="infra")
    try:
        m = mem("shared text")
        a.insert([m], np.stack([unit(1)]), "e1")
        [again] = b.insert([mem("shared text", at=T0 + 1)], np.stack([unit(1)]), "e1")
        assert again.is_new  # the same text in another workspace is another memory
        assert a.count(Filters()) == 1 and b.count(Filters()) == 1
        assert b.get_many([m.id]) == {} and not b.delete(m.id)
        assert [i for i, _ in b.vector_search(unit(1), "e1", Filters(), 10)] == [again.id]
        assert a.keyword_search("shared", Filters(), 10)[0][0] == m.id
        a.set_meta("graph_computed_at", "1")
        assert b.get_meta("graph_computed_at") is None
    finally:
        a.close()
        b.close()
    with pytest.raises(ValueError):
        PostgresStore(pg_dsn, workspace="x'; DROP TABLE memories; --")


def test_learning_rule_matches_sqlite(pg_dsn: str, tmp_path: Path) -> None:
    stores = [PostgresStore(pg_dsn), SQLiteStore(tmp_path / "l.db")]
    try:
        results = []
        for s in stores:
            m = mem("learned", confidence=0.5)
            s.insert([m], None, None)
            s.record_access([m.id, m.id], T0 + 3_600_000)
            s.adjust_confidence([(m.id, -0.05, "failing test")], T0 + 7_200_000)
            results.append((s.get_many([m.id])[m.id].confidence,
                            [(a, round(c, 9), r) for a, c, r in s.confidence_history(m.id)]))
        assert results[0] == results[1]
    finally:
        for s in stores:
            s.close()


WRITER = """
import sys
from kenning import Kenning
from kenning.errors import KenningError
dsn, n, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3]
errors = 0
with Kenning(dsn, project="p", embedder=None) as k:
    target = k.list(limit=1, newest_first=False)[0].id
    for i in range(n):
        try:
            k.remember(f"writer {tag} note {i}", type="insight")
            k.store.record_access([target], 1_780_000_000_000 + i)
        except KenningError:
            errors += 1
print(errors)
"""


@pytest.mark.slow
def test_concurrent_processes_lose_nothing(pg_dsn: str) -> None:
    with Kenning(pg_dsn, project="p", embedder=None) as k:
        k.remember("the memory every writer reads", type="insight")
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, pg_dsn, "60", str(w)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for w in range(4)
    ]
    outs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [e for _, e in outs]
    assert [int(o.strip()) for o, _ in outs] == [0] * 4
    with Kenning(pg_dsn, project="p", embedder=None) as k:
        assert k.count() == 1 + 4 * 60
        first = k.list(limit=1, newest_first=False)[0]
        assert first.access_count == 4 * 60  # no lost increments


def cli(env: dict[str, str], *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([KENNING, *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture
def pg_cli_env(cli_env: dict[str, str]) -> dict[str, str]:
    env = dict(cli_env)
    env.pop("KENNING_DB", None)
    env["KENNING_EMBEDDER"] = "none"
    return env


def with_password(dsn: str) -> str:
    """The same DSN with a password (the test server trusts local sockets, so any works)."""
    return dsn.replace("postgresql://postgres:@", "postgresql://postgres:s3cret@", 1)


def test_cli_with_db_dsn(pg_dsn: str, pg_cli_env: dict[str, str]) -> None:
    dsn = with_password(pg_dsn)
    made = json.loads(cli(pg_cli_env, "remember", "Use JWT for auth", "--type", "decision",
                          "--db", dsn, "--json").stdout)
    assert made["created"]
    found = json.loads(cli(pg_cli_env, "recall", "JWT", "--db", dsn, "--json").stdout)
    assert found["hits"][0]["memory"]["id"] == made["id"]
    doctor = cli(pg_cli_env, "doctor", "--db", dsn)
    assert "pgvector" in doctor.stdout and "pool" in doctor.stdout
    doc = json.loads(cli(pg_cli_env, "doctor", "--db", dsn, "--json").stdout)
    assert doc["engine"] == "postgresql" and doc["postgres"]["pgvector_version"]
    if "s3cret" in dsn:
        assert "s3cret" not in doctor.stdout + json.dumps(doc)
    env = dict(pg_cli_env, KENNING_DB=dsn)
    assert json.loads(cli(env, "list", "--json").stdout)["total"] == 1


def test_hnsw_build_settings_are_applied_checked_and_shown(pg_dsn: str) -> None:
    """``m`` and ``ef_construction`` reach the index (doctor shows them); nonsense is refused
    before anything is built."""
    from kenning.errors import ValidationError

    store = PostgresStore(pg_dsn, hnsw_m=24, hnsw_ef_construction=80)
    try:
        store.insert([mem("indexed")], unit(1)[None, :], "e8")
        (index,) = store.server_info()["hnsw_indexes"]
        assert index["valid"] and index["options"] == {"m": "24", "ef_construction": "80"}
    finally:
        store.close()
    for m, efc in ((1, 64), (16, 20), (101, 400)):
        with pytest.raises(ValidationError, match="ef_construction"):
            PostgresStore(pg_dsn, hnsw_m=m, hnsw_ef_construction=efc)


def test_cli_unreachable_server_is_one_line(pg_cli_env: dict[str, str],
                                            tmp_path: Path) -> None:
    bad = f"postgresql://u:hunter2@/nodb?host={tmp_path}&connect_timeout=2"
    proc = cli(pg_cli_env, "list", "--db", bad, ok=False)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot open PostgreSQL store")
    assert "hunter2" not in proc.stderr


def test_sqlite_paths_still_work_through_the_cli(pg_cli_env: dict[str, str],
                                                 tmp_path: Path) -> None:
    db = tmp_path / "sub" / "k.db"
    cli(pg_cli_env, "remember", "SQLite path kept", "--db", str(db))
    assert db.exists()


def test_in_a_large_store_the_rarest_words_choose_what_keyword_search_ranks(
        pg_dsn: str) -> None:
    """From ``selective_from`` memories, a word matching more rows than the ranking budget
    only ranks: rarer words choose the rows. With no rare word, the rows holding the words
    together are ranked."""
    from kenning.store.keywordplan import KeywordPlan
    from kenning.store.postgres import PostgresStore

    with Kenning(pg_dsn, project="p", embedder=None) as k:
        k.remember_many([{"text": f"deploy note {i}: the service restarted cleanly"}
                         for i in range(60)])
        k.remember_many([{"text": f"deploy log {i}: nothing else happened"} for i in range(30)])
        rare = k.remember("Kafka consumer lag alarms fire after every deploy")
        store = k.store
        assert isinstance(store, PostgresStore)
        store.rank_budget = 20
        store.analyze()
        small = store._keyword_plan(["deploy", "kafka"])
        assert small == (["deploy", "kafka"], KeywordPlan(("deploy", "kafka")))  # small store
        assert len(store.keyword_search("kafka deploy", k._filters(), 100)) == 91
        store.selective_from = 0  # as if it held 20,000 memories
        store.analyze()
        words, chosen = store._keyword_plan(["deploy", "kafka", "the", "zebra"])
        assert words == ["deploy", "kafka", "zebra"]  # a stop word has nothing to match
        # kafka fits the rare half of the budget; the rest only count in pairs.
        assert chosen == KeywordPlan(("kafka",), (("deploy", "zebra"),))
        hits = store.keyword_search("kafka deploy zebra", k._filters(), 100)
        assert hits[0][0] == rare.id  # the rare word's row first, ranked by both words
        chosen = store._keyword_plan(["deploy", "service"])[1]
        assert chosen.together == (("deploy", "service"),)
        hits = store.keyword_search("deploy service", k._filters(), 100)
        assert len(hits) == 60  # the 'deploy log' rows hold only one of the words


def test_a_small_project_in_a_large_database_ranks_every_match_of_its_own(
        pg_dsn: str) -> None:
    """The plan counts only rows the filters keep: a few memories of one project are all
    ranked even when their words are common across the whole database."""
    from kenning.store.postgres import PostgresStore

    with Kenning(pg_dsn, project="big", embedder=None) as big:
        big.remember_many([{"text": f"deploy service note {i}: restarted"} for i in range(200)])
    with Kenning(pg_dsn, project="small", embedder=None) as k:
        both = k.remember_many([{"text": f"deploy service check {i}"} for i in range(3)])
        one = k.remember_many([{"text": f"deploy rollback {i} went fine"} for i in range(5)])
        store = k.store
        assert isinstance(store, PostgresStore)
        store.selective_from, store.rank_budget = 0, 20
        store.analyze()
        everywhere = store.keyword_search("deploy service", Filters(), 300)
        assert len(everywhere) == 203  # all 208 hold deploy; only pairs are chosen here
        hits = store.keyword_search("deploy service", Filters(project="small"), 50)
        assert len(hits) == 8
        assert {h[0] for h in hits[:3]} == {m.id for m in both}
        assert {h[0] for h in hits[3:]} == {m.id for m in one}


def test_words_that_always_go_together_still_find_the_best_rows(pg_dsn: str) -> None:
    """A phrase's words match together far more often than their counts suggest; the rows
    chosen through them are capped, and the rows holding every query word still come first."""
    from kenning.store.postgres import PostgresStore

    with Kenning(pg_dsn, project="p", embedder=None) as k:
        k.remember_many([{"text": f"unicode encoding error seen in job {i}"} for i in range(200)])
        best = k.remember_many([{"text": f"unicode encoding error in the uploads adapter {i}"}
                                for i in range(3)])
        store = k.store
        assert isinstance(store, PostgresStore)
        store.selective_from, store.rank_budget = 0, 20
        store.analyze()
        hits = store.keyword_search("unicode encoding uploads", k._filters(), 5)
        assert len(hits) == 5
        assert {h[0] for h in hits[:3]} == {m.id for m in best}


def test_links_never_cross_workspaces(pg_dsn: str) -> None:
    """A link naming another workspace's memory is refused as if that memory did not exist."""
    import psycopg

    from kenning.errors import NotFoundError
    from tests.test_store_contract import _link

    a = PostgresStore(pg_dsn, organisation="acme", workspace="web")
    b = PostgresStore(pg_dsn, organisation="acme", workspace="infra")
    try:
        ours, theirs = mem("ours"), mem("theirs", at=T0 + 1)
        a.insert([ours], None, None)
        b.insert([theirs], None, None)
        for link in (_link(ours.id, theirs.id, "relates_to"),
                     _link(theirs.id, ours.id, "relates_to")):
            with pytest.raises(NotFoundError, match=theirs.id):
                a.add_link(link)
            with pytest.raises(NotFoundError, match=theirs.id):
                a.add_links([link])
        new = mem("new", at=T0 + 2)
        with pytest.raises(NotFoundError, match=theirs.id):
            a.insert([new], None, None, links=[_link(new.id, theirs.id, "relates_to")])
        assert a.count(Filters()) == 1 and b.count(Filters()) == 1
        with psycopg.connect(pg_dsn) as conn:
            assert conn.execute("SELECT count(*) FROM memory_links").fetchone()[0] == 0
    finally:
        a.close()
        b.close()


def test_access_from_another_workspace_changes_nothing(pg_dsn: str) -> None:
    """Recording access to another workspace's memory ids leaves its counts, confidence,
    history and co-access pairs as they were."""
    a = PostgresStore(pg_dsn, organisation="acme", workspace="web")
    b = PostgresStore(pg_dsn, organisation="acme", workspace="infra")
    try:
        x, y = mem("x"), mem("y", at=T0 + 1)
        mine = mem("mine", at=T0 + 2)
        a.insert([x, y], None, None)
        b.insert([mine], None, None)
        b.record_access([x.id, y.id, mine.id], T0 + 10)
        got = a.get_many([x.id, y.id])
        assert [got[i].access_count for i in (x.id, y.id)] == [0, 0]
        assert [got[i].confidence for i in (x.id, y.id)] == [x.confidence, y.confidence]
        assert a.confidence_history(x.id) == []
        assert a.co_access_pairs(1) == [] and b.co_access_pairs(1) == []
        assert b.get_many([mine.id])[mine.id].access_count == 1
        a.record_access([x.id, y.id], T0 + 20)
        assert [p[:3] for p in a.co_access_pairs(1)] == [(*sorted((x.id, y.id)), 1)]
    finally:
        a.close()
        b.close()


FINDER = """
import sys, time
from pathlib import Path
from kenning import Kenning
dsn, worker, n, go, text = sys.argv[1:6]
go = Path(go)
with Kenning(dsn, project="p", embedder=None) as k:
    Path(f"{go}.{worker}").touch()
    while not go.exists():
        time.sleep(0.005)
    for i in range(int(n)):
        k.record_finding(text, source=f"agent:w{worker}-{i}")
"""


def test_findings_from_two_machines_keep_every_source(pg_dsn: str, tmp_path: Path) -> None:
    """Two processes with their own data directories (as on two machines, so no shared lock
    file) record the same finding at once: one memory, every source, no lost merge."""
    import os
    import time

    n = 25
    text = "The payments queue retries forever on a 409"
    with Kenning(pg_dsn, project="p", embedder=None) as k:
        k.record_finding(text, source="agent:seed")
    go = tmp_path / "go"
    procs = []
    for w in range(2):
        env = dict(os.environ, KENNING_HOME=str(tmp_path / f"machine{w}"))
        procs.append(subprocess.Popen([sys.executable, "-c", FINDER, pg_dsn, str(w), str(n),
                                       str(go), text], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    deadline = time.monotonic() + 120
    while not all(Path(f"{go}.{w}").exists() for w in range(2)):  # both ready, then go at once
        assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
        assert time.monotonic() < deadline
        time.sleep(0.02)
    go.touch()
    outs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e for _, e in outs]
    with Kenning(pg_dsn, project="p", embedder=None) as k:
        [m] = k.list(limit=10)
        assert m.content == text
        want = {"agent:seed"} | {f"agent:w{w}-{i}" for w in range(2) for i in range(n)}
        assert set(m.metadata["sources"]) == want
        assert m.metadata["findings"] == 1 + 2 * n


def test_prompt_hook_sees_what_this_machine_wrote_since_the_index_was_built(
        pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As on SQLite: a memory saved mid-session reaches the next prompt (the hook asks the
    server while the index is out of date), and the rebuilt index has it too."""
    from kenning.places.keys import project_key
    from tests.test_hooks import DECISION, context_of, errors, hook, payload

    proj = tmp_path / "proj"
    proj.mkdir()
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    env.update(KENNING_HOME=str(tmp_path / "kdata"), KENNING_DB=pg_dsn,
               KENNING_EMBEDDER="none", HOME=str(home))
    monkeypatch.setenv("KENNING_HOME", env["KENNING_HOME"])
    question = payload("UserPromptSubmit", proj, prompt="which isolation does the ledger use?")
    with Kenning(pg_dsn, project=project_key(str(proj.resolve())), embedder=None) as k:
        k.remember(DECISION, type="decision", topic="ledger_db")
        k.build_prompt_index()
        assert DECISION in context_of(hook("UserPromptSubmit", question, env))
        later = k.remember("Ledger isolation was raised after the March double-charge incident",
                           type="insight")
        fresh = context_of(hook("UserPromptSubmit", question, env))
        assert later.id in fresh and DECISION not in fresh  # this conversation has it already
        k.build_prompt_index()
        again = payload("UserPromptSubmit", proj, session_id="sess-2",
                        prompt="which isolation does the ledger use?")
        latest = context_of(hook("UserPromptSubmit", again, env))
        assert later.id in latest and DECISION in latest
    assert not errors(env)
