"""The MCP server's stdio front (``kenning.mcpfront``): after a first start has recorded the
SDK's handshake answers, later starts answer ``initialize`` and ``tools/list`` from that record
while the SDK loads, identically to the SDK, and hand everything else to it."""

from __future__ import annotations

import asyncio
import json
import queue
from pathlib import Path
from typing import Any

from mcp import ClientSession, stdio_client

from kenning import mcpfront
from tests.mcp_fixtures import stdio_params

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
CALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "recall", "arguments": {"query": "billing"}}}


async def session(tmp_path: Path, db: Path) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """One conversation through the official client: the server's answer to ``initialize``,
    its tools, and the text of one tool call."""
    async with stdio_client(stdio_params(tmp_path, db)) as (r, w), ClientSession(r, w) as s:
        info = await s.initialize()
        tools = [t.model_dump(mode="json") for t in (await s.list_tools()).tools]
        saved = await s.call_tool("save", {"text": "The billing service retries twice "
                                                   "before it gives up on a charge"})
        assert not saved.is_error, saved.content[0].text
        found = await s.call_tool("recall", {"query": "billing retries"})
        return info.model_dump(mode="json"), tools, found.content[0].text


def test_a_second_start_answers_the_handshake_from_the_record_as_the_sdk_did(
        tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"
    record = tmp_path / "home" / mcpfront.RECORD
    first = asyncio.run(session(tmp_path, db))
    assert record.exists()  # the first start recorded what the SDK answered
    kept = json.loads(record.read_text())
    assert kept["stamp"] == mcpfront.code_stamp()
    second = asyncio.run(session(tmp_path, db))
    assert second[0] == first[0]  # initialize, from the record
    assert second[1] == first[1]  # every tool with its schema, from the record
    assert "billing service retries twice" in second[2]  # the SDK answers the calls


def test_a_record_of_other_code_is_never_used(tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"
    first = asyncio.run(session(tmp_path, db))
    record = tmp_path / "home" / mcpfront.RECORD
    kept = json.loads(record.read_text())
    for answers in kept["answers"].values():
        answers["tools"] = {"tools": []}  # what an older Kenning might have offered
    kept["stamp"] = "another version"
    record.write_text(json.dumps(kept))
    again = asyncio.run(session(tmp_path, db))
    assert again[1] == first[1]
    assert json.loads(record.read_text())["stamp"] == mcpfront.code_stamp()  # recorded anew


class FakeWire:
    """The client's end as the front sees it: lines in (then the SDK loaded), messages out."""

    def __init__(self, *messages: dict[str, Any], end: bool = False) -> None:
        self.lines: queue.Queue[Any] = queue.Queue()
        for m in messages:
            self.lines.put(json.dumps(m).encode() + b"\n")
        if end:
            self.lines.put(b"")
        self.lines.put(mcpfront.LOADED)
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def recorded(tmp_path: Path, answers: dict[str, Any]) -> mcpfront.Handshake:
    stamp = mcpfront.code_stamp()
    (tmp_path / mcpfront.RECORD).write_text(json.dumps({"stamp": stamp, "answers": answers}))
    return mcpfront.Handshake(mcpfront.Record(str(tmp_path), stamp))


def test_the_front_answers_the_handshake_and_keeps_the_rest_for_the_sdk(tmp_path: Path
                                                                        ) -> None:
    tools = {"tools": [{"name": "recall", "inputSchema": {"type": "object"}}]}
    init = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
            "serverInfo": {"name": "kenning", "version": "1"}}
    handshake = recorded(tmp_path, {"initialize 2025-06-18": init,
                                    "tools/list 2025-06-18": tools})
    wire = FakeWire(INIT, INITIALIZED, CALL, LIST)
    assert handshake.front(wire)  # type: ignore[arg-type]
    # answered at once, the tool list too although a call came before it
    assert wire.sent == [{"jsonrpc": "2.0", "id": 1, "result": init},
                         {"jsonrpc": "2.0", "id": 2, "result": tools}]
    # the SDK is told the handshake again, and the call; its second answer to the handshake
    # never reaches the client
    assert [json.loads(line) for line in handshake.for_sdk] == [INIT, INITIALIZED, CALL]
    assert not handshake.sent(json.dumps({"jsonrpc": "2.0", "id": 1, "result": init}))
    assert handshake.sent(json.dumps({"jsonrpc": "2.0", "id": 3, "result": {"content": []}}))


def test_requests_of_the_stateless_protocol_are_answered_by_their_own_version(tmp_path: Path
                                                                               ) -> None:
    meta = {"_meta": {mcpfront.VERSION_META: "2026-07-28"}}
    discover = {"cacheScope": "private", "capabilities": {"tools": {"listChanged": True}}}
    tools = {"tools": [], "resultType": "complete"}
    handshake = recorded(tmp_path, {"server/discover 2026-07-28": discover,
                                    "tools/list 2026-07-28": tools})
    listen = {"jsonrpc": "2.0", "id": "listen:0", "method": "subscriptions/listen",
              "params": meta}
    wire = FakeWire({"jsonrpc": "2.0", "id": "probe", "method": "server/discover",
                     "params": meta}, listen,
                    {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": meta},
                    {"jsonrpc": "2.0", "id": 4, "method": "tools/list",
                     "params": {"_meta": {mcpfront.VERSION_META: "2027-01-01"}}})
    assert handshake.front(wire)  # type: ignore[arg-type]
    assert wire.sent == [{"jsonrpc": "2.0", "id": "probe", "result": discover},
                         {"jsonrpc": "2.0", "id": 3, "result": tools}]
    kept = [json.loads(line) for line in handshake.for_sdk]
    assert [m["id"] for m in kept] == ["listen:0", 4]  # another version: the SDK's to answer
    handshake.sent(json.dumps({"jsonrpc": "2.0", "id": 4, "result": {"tools": ["x"]}}))
    assert json.loads((tmp_path / mcpfront.RECORD).read_text())["answers"][
        "tools/list 2027-01-01"] == {"tools": ["x"]}


def test_a_subscription_is_acknowledged_at_once_and_served_by_the_sdk(tmp_path: Path) -> None:
    """A client of the stateless protocol waits for its subscription to be acknowledged
    before it lists the tools: the front acknowledges it from the record (with this
    subscription's id) and drops the SDK's own acknowledgement later."""
    meta = {"_meta": {mcpfront.VERSION_META: "2026-07-28"}}
    asked = {"toolsListChanged": True}
    listen = {"jsonrpc": "2.0", "id": "listen:0", "method": mcpfront.LISTEN,
              "params": {**meta, "notifications": asked}}
    key = f"{mcpfront.LISTEN} 2026-07-28 {json.dumps(asked)}"
    handshake = recorded(tmp_path, {key: {"notifications": asked}})
    wire = FakeWire(listen)
    assert handshake.front(wire)  # type: ignore[arg-type]
    assert wire.sent == [{"jsonrpc": "2.0", "method": mcpfront.ACK, "params": {
        "notifications": asked, "_meta": {mcpfront.SUBSCRIPTION_META: "listen:0"}}}]
    assert [json.loads(line) for line in handshake.for_sdk] == [listen]
    sdk_ack = {"jsonrpc": "2.0", "method": mcpfront.ACK, "params": {
        "notifications": asked, "_meta": {mcpfront.SUBSCRIPTION_META: "listen:0"}}}
    assert not handshake.sent(json.dumps(sdk_ack))
    # a first start records the SDK's acknowledgement, without the subscription's id
    (tmp_path / "fresh").mkdir()
    fresh = recorded(tmp_path / "fresh", {})
    fresh.seen(json.dumps(listen).encode())
    assert fresh.sent(json.dumps(sdk_ack))
    assert json.loads((tmp_path / "fresh" / mcpfront.RECORD).read_text())["answers"] == {
        key: {"notifications": asked}}


def test_input_that_ends_early_still_gets_its_answers(tmp_path: Path) -> None:
    handshake = recorded(tmp_path, {})
    wire = FakeWire(INIT, end=True)
    assert handshake.front(wire)  # type: ignore[arg-type]
    assert wire.sent == [] and [json.loads(x) for x in handshake.for_sdk] == [INIT]
    assert wire.lines.get() == b""  # the SDK reads the end after what was kept
    assert not recorded(tmp_path, {}).front(FakeWire(end=True))  # type: ignore[arg-type]


def test_init_primes_the_record_so_a_first_session_is_answered_from_it(tmp_path: Path,
                                                                       monkeypatch: Any) -> None:
    """``kenning init`` asks a scratch ``kenning mcp`` what a client of the latest protocol asks
    first (``mcpfront.prime``): the record then holds every such answer, the same whatever the
    client's own envelope, so the first session Claude Code starts is answered at once."""
    import subprocess

    from mcp.types import LATEST_PROTOCOL_VERSION

    from tests.mcp_fixtures import kenning_command, server_env

    env = server_env(tmp_path, tmp_path / "unused.db")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    home = Path(env["KENNING_HOME"])
    command = [*kenning_command(), "mcp", "--db", str(tmp_path / "scratch.db")]
    assert not mcpfront.primed(str(home), LATEST_PROTOCOL_VERSION)
    assert mcpfront.prime(command, str(home), LATEST_PROTOCOL_VERSION) is None
    assert mcpfront.primed(str(home), LATEST_PROTOCOL_VERSION)
    assert not (tmp_path / "unused.db").exists()  # nothing of the user's store was touched
    recorded = json.loads((home / mcpfront.RECORD).read_text())["answers"]

    # a client with another envelope (as Claude Code sends it) gets what the SDK itself
    # answers it on a fresh home: the record does not depend on who asked
    def asked(envelope: dict[str, Any]) -> bytes:
        return b"".join(json.dumps({**m, "params": {**m["params"], "_meta": {
            **m["params"]["_meta"], **envelope}}}).encode() + b"\n" for m in (
                mcpfront._first(i, method, params, LATEST_PROTOCOL_VERSION)
                for i, (method, params) in enumerate(mcpfront._FIRST_ASKED)))

    claude = {"io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": True}},
              "io.modelcontextprotocol/clientInfo": {"name": "claude-code", "version": "2"}}
    fresh = {**env, "KENNING_HOME": str(tmp_path / "fresh-home")}
    run = subprocess.run(command, input=asked(claude), capture_output=True, env=fresh,
                         timeout=120, check=True)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    by_id = {a.get("id"): a.get("result") for a in answers if "id" in a}
    assert by_id["prime-4"] == recorded[f"tools/list {LATEST_PROTOCOL_VERSION}"]
    assert by_id["prime-0"] == recorded[f"server/discover {LATEST_PROTOCOL_VERSION}"]
