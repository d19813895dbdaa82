"""The dashboard's JSON API against a real seeded SQLite store, through Starlette's TestClient,
and ``kenning serve`` as a real process."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from kenning import Kenning
from kenning.web import create_app
from kenning.web.layout import community_layout
from kenning.web.server import DEFAULT_HOST, DEFAULT_PORT, build_server, is_loopback
from tests.web_fixtures import LATER, PROJECT, copy_store, free_port, seed

BASE = "http://127.0.0.1:7077"


@pytest.fixture(scope="session")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return seed(tmp_path_factory.mktemp("web-api") / "seed.db", 400, group=20)


@pytest.fixture
def store(seeded: dict[str, Any], tmp_path: Path) -> Path:
    return copy_store(seeded["path"], tmp_path / "web.db")


@pytest.fixture
def open_k(store: Path) -> Iterator[Kenning]:
    k = Kenning(store, project=PROJECT, embedder=None, clock=lambda: LATER)
    yield k
    k.close()


def client(k: Kenning, **kw: Any) -> TestClient:
    """A client as the dashboard page is one: its writes carry the page's Origin."""
    return TestClient(create_app(k, **kw), base_url=BASE, headers={"Origin": BASE})


def a_link(k: Kenning, seeded: dict[str, Any]) -> Any:
    return next(ln for ids in seeded["members"] for m in ids for ln in k.links(m))


def test_every_route_is_in_the_openapi_document(open_k: Kenning) -> None:
    app = create_app(open_k)
    doc = client(open_k).get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    served = set()
    for route in app.routes:
        if isinstance(route, Route):
            for method in route.methods or ():
                if method != "HEAD":
                    served.add((route.path, method.lower()))
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert served == documented
    for path, method in served:
        op = doc["paths"][path][method]
        named = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
        assert named == set(path.replace("{", "}").split("}")[1::2]), path


def test_status_says_read_only_and_which_sources_exist(open_k: Kenning) -> None:
    data = client(open_k).get("/api/status").json()
    assert data["read_only"] is True
    assert data["memories"] == open_k.count() == 400
    assert data["features"] == {name: callable(getattr(Kenning, name, None))
                                for name in ("injections", "confidence_history",
                                             "curate_preview")}


def test_memories_list_search_and_filters(open_k: Kenning) -> None:
    c = client(open_k)
    page = c.get("/api/memories", params={"limit": 10}).json()
    assert page["total"] == 400 and len(page["items"]) == 10
    assert page["items"][0]["created_at"] >= page["items"][-1]["created_at"]
    second = c.get("/api/memories", params={"limit": 10, "offset": 10}).json()
    assert not {m["id"] for m in page["items"]} & {m["id"] for m in second["items"]}
    found = c.get("/api/memories", params={"q": "WAL mode", "limit": 5}).json()
    assert found["items"] and all("WAL mode" in m["summary"] for m in found["items"])
    assert {"keyword_norm", "relevance", "final"} <= set(found["items"][0]["explain"])
    decisions = c.get("/api/memories", params={"type": "decision", "agent": "codex"}).json()
    assert decisions["total"] == open_k.count(types="decision", agent="codex") > 0
    assert all(m["type"] == "decision" and m["agent"] == "codex" for m in decisions["items"])
    local = c.get("/api/memories", params=[("scope", "local")]).json()
    assert local["total"] > 0 and all(m["scope"] == "local" for m in local["items"])
    topic = page["items"][0]["topic"]
    by_topic = c.get("/api/memories", params={"topic": topic, "since": "2026-05-01",
                                              "until": "2026-06-30"}).json()
    assert by_topic["total"] == open_k.count(topic=topic) > 0
    before = c.get("/api/memories", params={"until": "2026-05-01"}).json()
    assert before["total"] == 0
    accessed = {m.id: m.access_count for m in open_k.list(limit=None)}
    c.get("/api/memories", params={"q": "cache", "limit": 50})
    assert accessed == {m.id: m.access_count for m in open_k.list(limit=None)}, "no tracking"


def test_memory_detail_has_links_why_and_impact(open_k: Kenning, seeded: dict[str, Any]
                                                ) -> None:
    chain = seeded["decisions"][0]
    first = open_k.get(chain[0])
    data = client(open_k).get(f"/api/memories/{first.id[:12]}").json()
    assert data["memory"]["id"] == first.id
    rows = {ln["id"]: ln for ln in data["links"]}
    assert set(rows) == {ln.id for ln in open_k.links(first.id)}
    superseded = [ln for ln in rows.values() if ln["relationship"] == "supersedes"]
    assert superseded and all(ln["direction"] == "in" and ln["other"]["id"] in chain
                              for ln in superseded)
    reasons = {ln.id: ln.metadata.get("reason") for ln in open_k.links(first.id)}
    assert {i: ln["reason"] for i, ln in rows.items()} == reasons
    assert "round 8 revisited the auth choice" in reasons.values()
    assert [e["memory"]["id"] for e in data["why"]] == [e.memory.id for e in
                                                         open_k.why(first.topic)]
    assert data["why"][-1]["outcomes"], "the first decision has an outcome memory"
    assert {x["id"] for x in data["impact"]} == {m.id for m, _ in open_k.impact(first.id)}
    if hasattr(open_k, "confidence_history"):
        assert data["confidence_history"] == {
            "available": True, "items": open_k.confidence_history(first.id)}
    related = client(open_k).get(f"/api/memories/{first.id}/related",
                                 params={"depth": 1}).json()
    assert related["items"] and all(x["depth"] == 1 for x in related["items"])


def test_graph_is_laid_out_with_ranks_and_communities(open_k: Kenning) -> None:
    g = client(open_k).get("/api/graph").json()
    assert g["count"] == 400 and g["scores_from"] == "consolidate"
    nodes, edges = g["nodes"], g["edges"]
    assert len(nodes["x"]) == len(nodes["id"]) == 400
    assert all(math.isfinite(v) for v in nodes["x"] + nodes["y"])
    assert len(set(zip(nodes["x"], nodes["y"], strict=True))) == 400, "no two nodes overlap"
    assert max(nodes["rank"]) == pytest.approx(1.0)
    assert g["edge_count"] == len(edges["source"]) == open_k.graph_stats()["links"]
    assert set(edges["type"]) <= set(range(len(g["core_types"])))
    assert sum(nodes["degree"]) == 2 * g["edge_count"]


def test_topics_and_timeline(open_k: Kenning, seeded: dict[str, Any]) -> None:
    c = client(open_k)
    topics = c.get("/api/topics").json()["items"]
    assert {t["topic"] for t in topics} == set(seeded["topics"])
    assert all(t["decisions"] >= 1 for t in topics)
    topic = seeded["topics"][3]
    why = c.get("/api/why", params={"topic": topic}).json()
    assert [e["memory"]["id"] for e in why["items"]] == list(reversed(seeded["decisions"][3]))
    assert any(e["memory"]["outcome"] == "failed" for e in why["items"]), "cluster 3 failed"
    assert c.get("/api/why").status_code == 400


def test_health_recommendations_carry_actions(open_k: Kenning) -> None:
    data = client(open_k).get("/api/health").json()
    assert data["health"]["node_count"] == 400
    merges = [r for r in data["recommendations"] if r["action"] == "merge"]
    assert {(r["word"], r["into"]) for r in merges} <= {
        ("motivated_by", "inspired_by"), ("based_on", "inspired_by"), ("requires", "depends_on")}
    assert merges
    archive = [r for r in data["recommendations"] if r["action"] == "review_links"]
    # a one-off word of the agent's own is worth archiving; a table word used once is not
    assert [r["word"] for r in archive] == ["sketched_beside"]
    links = client(open_k).get("/api/relationships/sketched_beside/links").json()["items"]
    assert len(links) == 1 and links[0]["relationship"] == "sketched_beside"
    assert data["isolated"] and data["health"]["isolated_count"] >= len(data["isolated"])
    assert len(data["top"]) == 10


class OlderKenning(Kenning):
    """A Kenning from before the injection log, confidence history and MEMORY.md preview."""

    injections = None
    confidence_history = None
    curate_preview = None


def test_missing_data_sources_are_a_note_not_an_error(store: Path) -> None:
    with OlderKenning(store, project=PROJECT, embedder=None, clock=lambda: LATER) as k:
        c = client(k)
        assert not any(c.get("/api/status").json()["features"].values())
        for path in ("/api/injections", "/api/memory-md"):
            r = c.get(path)
            assert r.status_code == 200
            assert r.json()["available"] is False
            assert "not available yet" in r.json()["message"]
        mid = k.list(limit=1)[0].id
        detail = c.get(f"/api/memories/{mid}").json()
        assert detail["confidence_history"]["available"] is False


def test_injections_and_memory_md_when_present(open_k: Kenning, seeded: dict[str, Any]
                                               ) -> None:
    c = client(open_k)
    inj = c.get("/api/injections", params={"limit": 5}).json()
    assert inj["available"] is True and len(inj["items"]) == 1
    shown = inj["items"][0]["memories"]
    assert [m["id"] for m in shown] == [seeded["members"][0][0], seeded["members"][1][0]]
    assert shown[0]["parts"] == {"keyword": 0.6, "recency": 0.2}
    md = c.get("/api/memory-md").json()
    assert md["available"] is True
    assert (md["max_lines"], md["max_bytes"]) == (180, 25_000)
    assert md["lines"] == len(md["text"].splitlines())


def write_calls(k: Kenning, seeded: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    link = a_link(k, seeded)
    victim = seeded["members"][5][-1]
    return [
        ("POST", "/api/relationships/merge", {"word": "requires", "into": "depends_on"}),
        ("DELETE", f"/api/memories/{victim}", {}),
        ("DELETE", f"/api/links/{link.id}", {}),
        ("POST", f"/api/links/{link.id}/downvote", {"step": 0.2}),
    ]


def test_writes_are_refused_without_the_flag(open_k: Kenning, seeded: dict[str, Any]) -> None:
    c = client(open_k)
    before = (open_k.count(), open_k.graph_stats()["links"], open_k.health()["recommendations"])
    calls = write_calls(open_k, seeded)
    documented = {(p, m.upper()) for p, ops in
                  c.get("/api/openapi.json").json()["paths"].items() for m, op in ops.items()
                  if "403" in op["responses"]}
    assert len(documented) == len(calls)
    for method, path, body in calls:
        r = c.request(method, path, json=body or None)
        assert r.status_code == 403, path
        assert r.json()["code"] == "read_only" and "--allow-writes" in r.json()["error"]
    after = (open_k.count(), open_k.graph_stats()["links"], open_k.health()["recommendations"])
    assert after == before


def test_writes_work_with_the_flag(open_k: Kenning, seeded: dict[str, Any]) -> None:
    c = client(open_k, allow_writes=True)
    assert c.get("/api/status").json()["read_only"] is False
    moved = c.post("/api/relationships/merge", json={"word": "requires", "into": "depends_on"})
    assert moved.status_code == 200 and moved.json()["moved"] > 0
    assert not any("'requires'" in r for r in open_k.health()["recommendations"])

    link = a_link(open_k, seeded)
    down = c.post(f"/api/links/{link.id}/downvote", json={"step": 0.25}).json()["link"]
    assert down["confidence"] == pytest.approx(max(0.0, link.confidence - 0.25))
    assert down["metadata"]["downvotes"] == 1
    again = c.post(f"/api/links/{link.id}/downvote").json()["link"]
    assert again["confidence"] == pytest.approx(max(0.0, link.confidence - 0.45))

    assert c.delete(f"/api/links/{link.id}").json() == {"deleted": link.id}
    assert link.id not in {ln.id for ln in open_k.links(link.from_id)}
    assert c.delete(f"/api/links/{link.id}").status_code == 404

    victim = seeded["members"][5][-1]
    assert c.delete(f"/api/memories/{victim}").json()["forgotten"]["id"] == victim
    assert c.get(f"/api/memories/{victim}").status_code == 404
    assert c.get("/api/graph").json()["count"] == 399, "the graph cache follows writes"


def test_writes_guard_against_other_sites_and_bad_bodies(open_k: Kenning) -> None:
    c = client(open_k, allow_writes=True)
    evil = c.post("/api/relationships/merge", json={"word": "requires", "into": "depends_on"},
                  headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403 and evil.json()["code"] == "cross_site"
    same = c.post("/api/relationships/merge", json={"word": "nope_word", "into": "depends_on"},
                  headers={"Origin": BASE})
    assert same.status_code == 200 and same.json()["moved"] == 0
    plain = c.post("/api/relationships/merge", content=b'{"word":"a","into":"b"}',
                   headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415
    assert c.post("/api/relationships/merge", json={"word": "x"}).status_code == 400
    bad = c.post("/api/relationships/merge", content=b"{nope",
                 headers={"Content-Type": "application/json"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_json"
    deep = c.post("/api/relationships/merge", content=b"[" * 100_000 + b"]" * 100_000,
                  headers={"Content-Type": "application/json"})
    assert deep.status_code == 400 and deep.json()["code"] == "bad_json"
    assert c.post("/api/links/NOPE/downvote", json={"step": "lots"}).status_code == 400


def test_bad_input_gets_json_errors(open_k: Kenning) -> None:
    c = client(open_k)
    missing = c.get("/api/memories/01ZZZZZZZZZZZZZZZZZZZZZZZZ")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert c.get("/api/memories", params={"limit": "many"}).json()["code"] == "bad_input"
    assert c.get("/api/memories", params={"limit": 0}).status_code == 400
    assert c.get("/api/memories", params={"type": "nonsense"}).status_code == 400
    assert c.get("/api/no-such-route").json()["code"] == "no_route"
    assert c.post("/api/status").status_code == 405


def test_only_loopback_host_names_are_answered(open_k: Kenning) -> None:
    c = client(open_k)
    assert c.get("/api/status", headers={"Host": "localhost:7077"}).status_code == 200
    rebound = c.get("/api/status", headers={"Host": "attacker.example:7077"})
    assert rebound.status_code == 400 and rebound.json()["code"] == "bad_host"
    page = c.get("/")
    assert page.status_code == 200 and "Skip to content" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert c.get("/static/app.js").status_code == 200


def test_server_defaults_to_loopback_and_read_only(open_k: Kenning) -> None:
    server = build_server(open_k)
    assert (server.config.host, server.config.port) == (DEFAULT_HOST, DEFAULT_PORT) == (
        "127.0.0.1", 7077)
    assert server.config.app.state.allow_writes is False
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def run_serve(args: list[str], store: Path, wait_for: str) -> tuple[str, str]:
    """Start ``kenning serve`` for real, wait for a line, fetch /api/status, stop it."""
    env = {**os.environ, "KENNING_EMBEDDER": "none", "KENNING_PROJECT": PROJECT}
    proc = subprocess.Popen([sys.executable, "-m", "kenning.entry", "serve", "--db", str(store),
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert wait_for in line, line + (proc.stderr.read() if proc.poll() is not None
                                         and proc.stderr else "")
        port = line.split(":")[-1].split("/")[0]
        deadline = time.monotonic() + 120  # a hang guard, not a speed bound
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status") as r:
                    body = r.read().decode()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    return body, err


def test_kenning_serve_runs_read_only_on_loopback(store: Path) -> None:
    port = free_port()
    body, err = run_serve(["--port", str(port)], store, f"http://127.0.0.1:{port}/")
    assert '"read_only":true' in body and "warning" not in err


def test_kenning_serve_warns_when_not_loopback(store: Path) -> None:
    port = free_port()
    body, err = run_serve(["--host", "0.0.0.0", "--port", str(port), "--allow-writes"], store,
                          "writes allowed")
    assert '"read_only":false' in body
    assert "warning: listening on 0.0.0.0, not loopback" in err


def test_kenning_serve_port_in_use_is_one_line_error(store: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = {**os.environ, "KENNING_EMBEDDER": "none"}
        r = subprocess.run([sys.executable, "-m", "kenning.entry", "serve", "--db", str(store),
                            "--port", str(port)], capture_output=True, text=True, env=env,
                           timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}")


def test_layout_keeps_communities_together() -> None:
    rng = np.random.default_rng(3)
    community = rng.integers(0, 30, 3000)
    rank = rng.random(3000)
    pos = community_layout(rank, community)
    again = community_layout(rank, community)
    assert np.array_equal(pos, again) and np.isfinite(pos).all()
    centres = np.array([pos[community == c].mean(axis=0) for c in range(30)])
    within = np.mean([np.linalg.norm(pos[community == c] - centres[c], axis=1).mean()
                      for c in range(30)])
    between = np.linalg.norm(centres[:, None] - centres[None], axis=2)[np.triu_indices(30, 1)]
    assert within < between.mean() / 3
    top = [np.argmax(np.where(community == c, rank, -1)) for c in range(30)]
    assert all(np.linalg.norm(pos[i] - centres[c]) < within for c, i in enumerate(top))


def test_a_write_without_origin_is_refused_unless_the_browser_says_same_origin(
        open_k: Kenning) -> None:
    bare = TestClient(create_app(open_k, allow_writes=True), base_url=BASE)
    before = open_k.health()["recommendations"]
    for headers in ({}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "none"},
                    {"Origin": "null"}):
        r = bare.post("/api/relationships/merge", json={"word": "requires", "into": "needs"},
                      headers=headers)
        assert r.status_code == 403, headers
        assert r.json()["code"] in ("no_origin", "cross_site")
        assert "Origin" in r.json()["error"]
    assert open_k.health()["recommendations"] == before
    same = bare.post("/api/relationships/merge", json={"word": "nope_word", "into": "needs"},
                     headers={"Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200 and same.json()["moved"] == 0


def test_a_body_over_the_limit_is_refused_and_changes_nothing(open_k: Kenning) -> None:
    from kenning.web.app import MAX_BODY_BYTES

    c = client(open_k, allow_writes=True)
    before = open_k.health()["recommendations"]
    word = "w" * (MAX_BODY_BYTES + 10)
    declared = c.post("/api/relationships/merge", json={"word": word, "into": "needs"})
    assert declared.status_code == 413 and declared.json()["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it streams in
        yield b'{"word": "'
        for _ in range(40):
            yield b"w" * 65_536
        yield b'", "into": "needs"}'

    streamed = c.post("/api/relationships/merge", content=chunks(),
                      headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413
    assert open_k.health()["recommendations"] == before
    ok = c.post("/api/relationships/merge", json={"word": "nope_word", "into": "needs"})
    assert ok.status_code == 200
