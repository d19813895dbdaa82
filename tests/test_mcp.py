"""The MCP server end to end: the official client (``ClientSession`` over ``stdio_client``)
spawns the real ``kenning mcp`` process, lists the tools and calls every one; one streamable
HTTP run; fuzzed arguments never crash the server nor change the store."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, stdio_client

from kenning import Kenning
from tests.mcp_fixtures import kenning_command, server_env, stdio_params, store_digest

EXPECTED_TOOLS = {
    "save", "evolve_outcome", "recall", "get", "why", "impact", "related", "record_discovery",
    "record_gotcha", "record_finding", "save_session_insight", "get_session_context",
    "graph_stats", "share", "memory_auto_sync", "memory_auto_record",
}


async def call(s: ClientSession, name: str, args: dict[str, Any]) -> Any:
    res = await s.call_tool(name, args)
    text = res.content[0].text
    assert not res.is_error, f"{name} failed: {text}"
    return text if name == "get_session_context" else json.loads(text)


def test_lists_tools_with_schemas_and_calls_each(tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"

    async def scenario() -> None:
        async with stdio_client(stdio_params(tmp_path, db)) as (r, w), ClientSession(r, w) as s:
            info = await s.initialize()
            assert info.server_info.name == "kenning"
            tools = {t.name: t for t in (await s.list_tools()).tools}
            assert set(tools) == EXPECTED_TOOLS
            for t in tools.values():
                assert t.description and len(t.description) > 30, t.name
                assert t.input_schema["type"] == "object"
            auto_sync = tools["memory_auto_sync"].input_schema["properties"]
            assert auto_sync["direction"]["enum"] == ["to-auto", "from-auto", "bidirectional"]
            assert auto_sync["minConfidence"]["default"] is None  # the configured 0.7
            assert auto_sync["categories"]["type"] == "array"
            record = tools["memory_auto_record"].input_schema
            assert set(record["required"]) == {"category", "summary"}
            assert set(record["properties"]) == {"category", "summary", "detail", "confidence"}
            assert tools["recall"].input_schema["required"] == ["query"]
            save_props = tools["save"].input_schema["properties"]
            assert {"supersedes", "implements", "links"} <= set(save_props)
            assert tools["recall"].annotations.read_only_hint is True

            jwt = await call(s, "save", {"text": "Use JWT tokens for auth: stateless and easy "
                                         "to scale", "type": "decision",
                                         "topic": "auth_strategy"})
            sess = await call(s, "save", {
                "text": "Use server-side sessions for auth instead of JWT: we need instant "
                        "revocation", "type": "decision", "topic": "auth_strategy",
                "supersedes": [jwt["id"]], "reasoning": "JWT cannot be revoked"})
            assert sess["links"] >= 1
            check = await call(s, "save", {
                "text": "Checkpoint: session store on Redis wired into the login route",
                "type": "checkpoint", "implements": [sess["id"]],
                "links": [{"to_id": jwt["id"], "relationship": "learned_from"}]})
            out = await call(s, "evolve_outcome", {"memory_id": sess["id"], "status": "success",
                                                   "reason": "revocation works",
                                                   "note": "Logout now revokes at once"})
            assert out["outcome"] == "success" and out["outcome_memory"]

            hits = await call(s, "recall", {"query": "how do we do auth?", "limit": 3,
                                            "types": ["decision"]})
            assert {h["id"] for h in hits["results"]} == {sess["id"], jwt["id"]}
            assert "content" not in hits["results"][0]
            full = await call(s, "recall", {"query": "auth", "types": ["decision"],
                                            "detail": "full", "context_id": check["id"],
                                            "explain": True})
            assert {h["type"] for h in full["results"]} == {"decision"}
            assert "explain" in full["results"][0]

            got = await call(s, "get", {"ids": [sess["id"]]})
            mem = got["memories"][0]
            assert "instant revocation" in mem["content"] and mem["outcome"] == "success"
            assert any(ln["rel"] == "supersedes" for ln in mem["links"])

            chain = await call(s, "why", {"topic": "auth_strategy"})
            ids = [e["id"] for e in chain["chain"]]
            assert ids[:2] == [sess["id"], jwt["id"]]
            assert chain["chain"][0]["evolves"][0]["rel"] == "supersedes"

            after = await call(s, "impact", {"memory_id": sess["id"]})
            assert check["id"] in {m["id"] for m in after["impact"]}
            near = await call(s, "related", {"memory_id": sess["id"]})
            assert near["count"] >= 1

            disc = await call(s, "record_discovery", {
                "file_path": "src/auth/session.py",
                "description": "Creates and revokes Redis-backed login sessions",
                "category": "auth"})
            assert disc["file"] == "src/auth/session.py" and disc["is_new"]
            gotcha = await call(s, "record_gotcha", {
                "gotcha": "Redis must be running before the auth tests or they hang",
                "context": "local test runs", "files": ["tests/test_auth.py"],
                "agent": "tester"})
            assert gotcha["is_new"]
            f1 = await call(s, "record_finding", {
                "text": "The login endpoint is missing rate limiting, so brute force is "
                        "possible", "source": "agent:security-reviewer",
                "category": "security"})
            f2 = await call(s, "record_finding", {
                "text": "Login endpoint has no rate limiting; brute force attacks are "
                        "possible", "source": "swarm:s42:pentester", "category": "security"})
            assert f2["id"] == f1["id"] and not f2["is_new"]
            assert f2["sources"] == ["agent:security-reviewer", "swarm:s42:pentester"]

            ins = await call(s, "save_session_insight", {
                "task": "Move auth to server-side sessions", "session": "s-1",
                "success": True, "subtasks_completed": ["session store", "logout"],
                "files_understood": {"src/auth/session.py": "session lifecycle"},
                "patterns_found": ["Routes take the session from request.state"],
                "gotchas_encountered": ["Cookies need SameSite=Lax for the OAuth callback"],
                "what_worked": ["Redis TTL for session expiry"],
                "what_failed": ["Storing sessions in SQLite: lock contention"],
                "recommendations": ["Add rate limiting to login next"]})
            assert ins["memories"] == 5 and ins["new"] == 5
            ctx = await call(s, "get_session_context", {"task": "add rate limiting to login"})
            assert ctx.startswith("## Memory context")
            assert "### Recent sessions" in ctx and "Add rate limiting to login next" in ctx
            assert ins["session_memory"] in ctx

            stats = await call(s, "graph_stats", {})
            assert stats["memories"] >= 10 and stats["links"] >= 2
            shared = await call(s, "share", {"memory_id": gotcha["id"]})
            assert shared["shared"] is True

            synced = await call(s, "memory_auto_sync", {"direction": "to-auto",
                                                        "minConfidence": 0.7})
            index = Path(synced["path"])
            assert index.is_file() and index.is_relative_to(tmp_path / "claude")
            assert "server-side sessions" in index.read_text()
            pulled = await call(s, "memory_auto_sync", {"direction": "from-auto"})
            assert pulled["direction"] == "from-auto" and "imported" in pulled
            rec = await call(s, "memory_auto_record", {
                "category": "debugging", "summary": "Flaky login test: freeze the clock",
                "detail": "The token expiry check reads time.time(); inject a clock.",
                "confidence": 0.9})
            assert rec["is_new"] and rec["in_auto_memory"] is True

    asyncio.run(scenario())
    with Kenning(db, project="mcp-proj", embedder=None) as k:
        assert k.get(f1_id(k)).metadata["sources"] == ["agent:security-reviewer",
                                                       "swarm:s42:pentester"]


def f1_id(k: Kenning) -> str:
    hits = [m for m in k.list(limit=100) if "rate limiting" in m.content
            and m.metadata.get("sources")]
    assert len(hits) == 1
    return hits[0].id


def _seed(db: Path) -> dict[str, str]:
    with Kenning(db, project="mcp-proj") as k:
        a = k.remember("Use pnpm workspaces for the monorepo", type="decision", topic="tooling")
        b = k.remember("Tests need Redis running", type="gotcha")
    return {"decision": a.id, "gotcha": b.id}


UNKNOWN = "01M81ZZZZZZZZZZZZZZZZZZZZZ"
HUGE = "x" * 300_000
PATHS = ["../../etc/passwd", "/etc/passwd", "..\\..\\windows\\system32", "%2e%2e%2fsecret",
         "src/\x00evil", "~/.ssh/id_rsa"]


def fuzz_cases(ids: dict[str, str]) -> list[tuple[str, Any]]:
    """Arguments every tool must refuse: wrong types, missing fields, huge strings, path
    tricks, unknown ids, out-of-range numbers, bad enums."""
    wrong = [5, 3.5, True, None, [], {}, ["a"], {"a": 1}]
    cases: list[tuple[str, Any]] = []
    required = {
        "save": {"text": "ok"}, "evolve_outcome": {"memory_id": ids["decision"],
                                                  "status": "success"},
        "recall": {"query": "pnpm"}, "get": {"ids": [ids["decision"]]},
        "why": {"topic": "tooling"}, "impact": {"memory_id": ids["decision"]},
        "related": {"memory_id": ids["decision"]},
        "record_discovery": {"file_path": "src/a.py", "description": "entry"},
        "record_gotcha": {"gotcha": "watch out"},
        "record_finding": {"text": "a finding", "source": "agent:x"},
        "share": {"memory_id": ids["gotcha"]},
        "memory_auto_record": {"category": "debugging", "summary": "s"},
    }
    for tool, good in required.items():
        for field in good:
            cases.append((tool, {k: v for k, v in good.items() if k != field}))  # missing
            for bad in wrong:
                if isinstance(good[field], list) and isinstance(bad, list) and bad == []:
                    continue
                cases.append((tool, {**good, field: bad}))
            if isinstance(good[field], str):
                cases.append((tool, {**good, field: HUGE}))
                cases.append((tool, {**good, field: ""}))
    for p in PATHS:
        cases += [("get", {"ids": [p]}), ("impact", {"memory_id": p}),
                  ("record_discovery", {"file_path": p, "description": "secrets"}),
                  ("record_gotcha", {"gotcha": "g", "files": [p]}),
                  ("save", {"text": "t", "supersedes": [p]}),
                  ("why", {"topic": "a\x00b" if p.startswith("src") else p + "\x01"})]
    cases += [
        ("get", {"ids": [UNKNOWN]}), ("impact", {"memory_id": UNKNOWN}),
        ("related", {"memory_id": UNKNOWN}), ("share", {"memory_id": UNKNOWN}),
        ("evolve_outcome", {"memory_id": UNKNOWN, "status": "failed"}),
        ("save", {"text": "new", "supersedes": [UNKNOWN]}),
        ("save", {"text": "new", "implements": [ids["decision"], UNKNOWN]}),
        ("save", {"text": "new", "links": [{"to_id": UNKNOWN, "relationship": "x"}]}),
        ("save", {"text": "new", "links": [{"to_id": ids["decision"]}]}),
        ("save", {"text": "new", "links": [{"to_id": ids["decision"], "relationship": "x",
                                            "evil": 1}]}),
        ("save", {"text": "new", "type": "session"}), ("save", {"text": "new", "confidence": 2}),
        ("save", {"text": "new", "confidance": 0.9}), ("recall", {"query": "x", "top_k": 3}),
        ("save", {"text": "new", "scope": "galaxy"}), ("save", {"text": "new", "tags": ["x" * 99]}),
        ("recall", {"query": "x", "context_id": UNKNOWN}), ("recall", {"query": "x", "limit": 0}),
        ("recall", {"query": "x", "limit": 10_000}), ("recall", {"query": "x", "since": "soon"}),
        ("recall", {"query": "x", "mode": "psychic"}), ("recall", {"query": "x",
                                                                   "episodes": ["dream"]}),
        ("recall", {"query": "   "}), ("why", {"topic": "   "}),
        ("evolve_outcome", {"memory_id": ids["decision"], "status": "meh"}),
        ("impact", {"memory_id": ids["decision"], "window": "forever"}),
        ("impact", {"memory_id": ids["decision"], "depth": 99}),
        ("record_finding", {"text": "a finding", "source": "swarm:only-one"}),
        ("record_finding", {"text": "a finding", "source": "../../x"}),
        ("record_finding", {"text": "f", "source": "agent:x", "category": "gossip"}),
        ("save_session_insight", {}), ("save_session_insight", {"what_worked": "not a list"}),
        ("save_session_insight", {"files_understood": {"../../etc/passwd": "x"}}),
        ("save_session_insight", {"files_understood": ["a.py"]}),
        ("get_session_context", {"task": ""}), ("get_session_context", {"limit": -1}),
        ("memory_auto_sync", {"direction": "sideways"}),
        ("memory_auto_sync", {"minConfidence": 1.5}),
        ("memory_auto_sync", {"categories": ["gossip"]}),
        ("memory_auto_record", {"category": "bogus", "summary": "s"}),
        ("memory_auto_record", {"category": "debugging", "summary": "s", "confidence": -1}),
        ("no_such_tool", {}),
    ]
    return cases


def test_fuzzed_arguments_never_crash_and_never_change_the_store(tmp_path: Path) -> None:
    db = tmp_path / "fuzz.db"
    ids = _seed(db)
    cases = fuzz_cases(ids)
    assert len(cases) > 150

    async def scenario() -> tuple[str, str, list[str]]:
        async with stdio_client(stdio_params(tmp_path, db)) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            warm = await s.call_tool("graph_stats", {})
            assert not warm.is_error
            before = store_digest(db)
            accepted = []
            for tool, args in cases:
                res = await s.call_tool(tool, args)
                text = res.content[0].text if res.content else ""
                if not res.is_error:
                    accepted.append(f"{tool} {str(args)[:80]}")
                assert len(text) < 5000, (tool, text[:200])
                assert "Traceback" not in text
            after = store_digest(db)
            alive = await s.call_tool("graph_stats", {})
            assert not alive.is_error
            return before, after, accepted, json.loads(alive.content[0].text)["memories"]

    before, after, accepted, memories = asyncio.run(scenario())
    assert accepted == []
    assert before == after
    assert memories == 2


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_streamable_http_transport(tmp_path: Path) -> None:
    from mcp.client.streamable_http import streamable_http_client

    db = tmp_path / "http.db"
    port = _free_port()
    cmd = kenning_command()
    (tmp_path / "project").mkdir()
    proc = subprocess.Popen([*cmd, "mcp", "--http", f"127.0.0.1:{port}"],
                            env=server_env(tmp_path, db), cwd=tmp_path / "project",
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    pytest.fail(f"HTTP server did not start: {err[-800:]}")
                time.sleep(0.1)

        async def scenario() -> None:
            url = f"http://127.0.0.1:{port}/mcp"
            async with streamable_http_client(url) as (r, w), ClientSession(r, w) as s:
                await s.initialize()
                names = {t.name for t in (await s.list_tools()).tools}
                assert names == EXPECTED_TOOLS
                saved = await call(s, "save", {"text": "HTTP clients can save memories too",
                                               "type": "insight"})
                hits = await call(s, "recall", {"query": "http clients save"})
                assert hits["results"][0]["id"] == saved["id"]
                bad = await s.call_tool("recall", {"query": 1})
                assert bad.is_error

        asyncio.run(scenario())
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_bad_http_address_is_a_usage_error(tmp_path: Path) -> None:
    env = server_env(tmp_path, tmp_path / "x.db")
    out = subprocess.run([*kenning_command(), "mcp", "--http", "nowhere"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "HOST:PORT" in out.stderr and "Traceback" not in out.stderr
    assert not os.path.exists(tmp_path / "x.db")
