"""The MCP server's stdio front: the handshake answered at once, the SDK loaded meanwhile.

Importing the MCP SDK takes most of a second (its pydantic models), more on a busy machine, and
Claude Code shows a server that has not listed its tools by its first model request as "still
connecting" for that whole turn. What a client asks first depends only on the SDK's and
Kenning's code and the protocol version it speaks: ``initialize`` (or ``server/discover``), the
tool, prompt and resource lists, and the acknowledgement of a ``subscriptions/listen``. The
first start records the SDK's answers to those, exactly as it wrote them, in
``mcp-handshake.json`` in Kenning's data folder, stamped with the code they came from. Later
starts answer them from that record while the SDK loads in a thread, and keep everything else
(tool calls, the subscription itself) for the SDK, which reads it once loaded: it is given
``initialize`` again, and its second answer (or acknowledgement) is dropped. A changed Kenning
or SDK, an unknown protocol version or an unreadable record means the SDK answers everything,
and records anew.

The wire is the process's stdin and stdout, taken over at start: descriptor 0 then reads the
null device and descriptor 1 goes to stderr, so nothing else printed can corrupt a message.
Standard library only until the hand-over (``json`` is the heaviest import here).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sys
import threading
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kenning.facade import Kenning

RECORD = "mcp-handshake.json"


def code_stamp() -> str:
    """What the recorded answers depend on: Kenning's source files (names, sizes, times) and
    the installed SDK and Python; a different stamp makes the record worthless."""
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    parts: list[str] = [sys.version]
    for folder, _, files in sorted(os.walk(here)):
        for name in sorted(files):
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))
                parts.append(f"{folder[len(here):]}/{name}:{st.st_size}:{st.st_mtime_ns}")
    spec = importlib.util.find_spec("mcp")
    if spec is None or spec.origin is None:
        return ""
    site = os.path.dirname(os.path.dirname(spec.origin))
    parts += sorted(n for n in os.listdir(site) if n.startswith("mcp-")
                    and n.endswith(".dist-info"))
    import hashlib

    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


LOADED = object()  # put on the line queue by the loading thread once the SDK is ready
# Requests whose answer depends only on the code and the protocol version asked for.
RECORDED = frozenset({"initialize", "server/discover", "tools/list", "prompts/list",
                      "resources/list"})
VERSION_META = "io.modelcontextprotocol/protocolVersion"
LISTEN, ACK = "subscriptions/listen", "notifications/subscriptions/acknowledged"
SUBSCRIPTION_META = "io.modelcontextprotocol/subscriptionId"


class Wire:
    """The client's end: newline-delimited JSON-RPC on the stdin and stdout this process was
    started with, held on descriptors of their own; a thread reads the lines into ``lines``
    (``b""`` at the end of input)."""

    def __init__(self) -> None:
        self.reader = os.fdopen(os.dup(0), "rb")
        self.writer = os.fdopen(os.dup(1), "wb")
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        self.lock = threading.Lock()
        self.lines: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=self._read, name="kenning-mcp-stdin", daemon=True).start()

    def _read(self) -> None:
        while True:
            line = self.reader.readline()
            self.lines.put(line)
            if not line:
                return

    def send(self, text: str) -> None:
        with self.lock:
            self.writer.write(text.encode("utf-8") + b"\n")
            self.writer.flush()


class Record:
    """The recorded answers (``{"<method> <protocol version>": result}``) and the code they
    came from."""

    def __init__(self, directory: str, stamp: str) -> None:
        self.path = os.path.join(directory, RECORD)
        self.stamp = stamp
        self.answers: dict[str, Any] = {}
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
            if isinstance(data, dict) and stamp and data.get("stamp") == stamp and isinstance(
                    data.get("answers"), dict):
                self.answers = data["answers"]
        except (OSError, ValueError):
            pass  # none yet, or unreadable: the SDK answers, and a new record is written

    def keep(self, key: str, result: Any) -> None:
        """Record the SDK's answer (the file is written when it changes)."""
        if not self.stamp or self.answers.get(key) == result:
            return
        self.answers[key] = result
        from pathlib import Path

        from kenning.files import atomic_write_bytes

        # a read-only data folder: the next start lets the SDK answer, as before
        with contextlib.suppress(OSError):
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            atomic_write_bytes(Path(self.path), json.dumps(
                {"stamp": self.stamp, "answers": self.answers}).encode(), mode=0o600)


def _message(line: bytes) -> dict[str, Any] | None:
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    return msg if isinstance(msg, dict) else None


class Handshake:
    """What passed through the front, and what the SDK must be told and must not repeat."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.for_sdk: list[bytes] = []  # lines the SDK is to read first, in their order
        self.answered: set[str] = set()  # ids of requests said again whose answer was given
        self.asked: dict[str, str] = {}  # id -> the record key of an answer to record
        self.acked: set[str] = set()  # subscriptions whose acknowledgement was given
        self.version: str | None = None  # the protocol version ``initialize`` asked for

    def key(self, msg: dict[str, Any]) -> str | None:
        """The record key of a request whose answer the record may hold: the method and the
        protocol version, and for a subscription (whose acknowledgement is recorded, the
        subscription itself being the SDK's) the notifications it asks for."""
        method, params = msg.get("method"), msg.get("params")
        params = params if isinstance(params, dict) else {}
        if (method not in RECORDED and method != LISTEN) or msg.get("id") is None or (
                params.get("cursor")):
            return None
        if method == "initialize":
            version = params.get("protocolVersion")
        else:
            meta = params.get("_meta")
            version = (meta.get(VERSION_META) if isinstance(meta, dict) else None
                       ) or self.version
        if not isinstance(version, str):
            return None
        if method == LISTEN:
            return f"{method} {version} {json.dumps(params.get('notifications'), sort_keys=True)}"
        return f"{method} {version}"

    def front(self, wire: Wire) -> bool:
        """Answer what the record holds until the SDK is loaded (``LOADED`` on the queue);
        keep the rest for it. False when the input ended with nothing for the SDK."""
        ended = False
        while True:
            item = wire.lines.get()
            if item is LOADED:
                if ended:
                    wire.lines.put(b"")  # the SDK reads the end of input too
                return True
            if not item:
                if not any(self.unanswered(line) for line in self.for_sdk):
                    return False  # nobody is left to read what the SDK would answer
                ended = True  # what is kept still gets its answers
                continue
            msg = _message(item)
            key = self.key(msg) if msg is not None else None
            result = self.record.answers.get(key) if key is not None else None
            if msg is None or result is None:
                self.seen(item)
                self.for_sdk.append(item)
                continue
            if msg.get("method") == LISTEN:  # acknowledged now, served by the SDK once loaded
                meta = {**(result.get("_meta") or {}), SUBSCRIPTION_META: msg["id"]}
                wire.send(json.dumps({"jsonrpc": "2.0", "method": ACK,
                                      "params": {**result, "_meta": meta}}))
                self.acked.add(json.dumps(msg["id"]))
                self.for_sdk.append(item)
                continue
            wire.send(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}))
            if msg.get("method") == "initialize":  # the SDK must be initialized all the same
                self.version = key.split(" ", 1)[1] if key else None
                self.answered.add(json.dumps(msg["id"]))
                self.for_sdk.append(item)

    def unanswered(self, line: bytes) -> bool:
        """Whether a kept line is a request (or unreadable) whose answer the client awaits."""
        msg = _message(line)
        return msg is None or (msg.get("id") is not None and json.dumps(msg["id"]) not in
                               self.answered | self.acked)

    def seen(self, line: bytes) -> None:
        """A line on its way to the SDK: note the answers to record."""
        msg = _message(line)
        if msg is None:
            return
        key = self.key(msg)
        if msg.get("method") == "initialize" and key is not None:
            self.version = key.split(" ", 1)[1]
        if key is not None:
            self.asked[json.dumps(msg["id"])] = key

    def sent(self, text: str) -> bool:
        """An SDK message on its way out: False for an answer the front already gave."""
        if not self.answered and not self.asked and not self.acked:
            return True
        msg = _message(text.encode("utf-8"))
        if msg is not None and msg.get("method") == ACK:
            return self._acknowledged(msg)
        if msg is None or "id" not in msg or "method" in msg:
            return True
        rid = json.dumps(msg["id"])
        if rid in self.answered:
            self.answered.discard(rid)
            return False
        key = self.asked.pop(rid, None)
        if key is not None and "result" in msg:
            self.record.keep(key, msg["result"])
        return True

    def _acknowledged(self, msg: dict[str, Any]) -> bool:
        """The SDK's acknowledgement of a subscription: dropped when the front gave it,
        recorded (without the subscription's id) when asked for."""
        params = msg.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        if not isinstance(params, dict) or not isinstance(meta, dict):
            return True
        sid = json.dumps(meta.get(SUBSCRIPTION_META))
        if sid in self.acked:
            self.acked.discard(sid)
            return False
        key = self.asked.pop(sid, None)
        if key is not None:
            rest = {k: v for k, v in meta.items() if k != SUBSCRIPTION_META}
            self.record.keep(key, {**params, "_meta": rest} if rest else {
                k: v for k, v in params.items() if k != "_meta"})
        return True


class _Lines:
    """The SDK's stdin: the lines kept for it, then the rest of the wire."""

    def __init__(self, wire: Wire, handshake: Handshake) -> None:
        self.wire = wire
        self.handshake = handshake

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        import anyio

        for line in self.handshake.for_sdk:
            yield line.decode("utf-8", errors="replace")
        while True:
            line = await anyio.to_thread.run_sync(self.wire.lines.get, abandon_on_cancel=True)
            if not line:
                return
            self.handshake.seen(line)
            yield line.decode("utf-8", errors="replace")


class _Out:
    """The SDK's stdout: the wire, less the answers the front already gave."""

    def __init__(self, wire: Wire, handshake: Handshake) -> None:
        self.wire = wire
        self.handshake = handshake

    async def write(self, text: str) -> None:
        text = text.rstrip("\n")
        if self.handshake.sent(text):
            self.wire.send(text)

    async def flush(self) -> None:
        return None


def main(db: str | None) -> int:
    """``kenning mcp`` on stdio, started without the CLI's imports: the store and the SDK
    are opened by the loading thread while the front answers."""
    from kenning.places.lean import data_dir

    opened: dict[str, Any] = {}

    def build() -> Any:
        from kenning.mcpserver import build_server, open_resilient

        opened["k"] = open_resilient(db, lambda warning: print(warning, file=sys.stderr))
        return build_server(opened["k"])

    try:
        serve_stdio(build, data_dir())
    except Exception as exc:
        from kenning.errors import KenningError
        from kenning.redact import redact

        if not isinstance(exc, KenningError):
            raise
        print(f"error: {redact(str(exc)).text}", file=sys.stderr)
        return 1
    finally:
        if "k" in opened:
            opened["k"].close()
    return 0


def serve(k: Kenning, *, http: str | None = None, say: Callable[[str], None] | None = None
          ) -> None:
    """Run the server of ``kenning.mcpserver`` over ``k`` (on stdio, with the handshake
    answered at once by this front, or streamable HTTP at ``http``) until the client goes
    away or the process is interrupted."""
    from kenning.mcpserver import build_server, parse_http

    where = parse_http(http) if http else None
    if where is None:
        from kenning.places.lean import data_dir

        serve_stdio(lambda: build_server(k), data_dir())
        return
    app = build_server(k)
    if say is not None:
        say(f"http://{where[0]}:{where[1]}/mcp")
    app.run("streamable-http", host=where[0], port=where[1])


def serve_stdio(build: Callable[[], Any], data_dir: str) -> None:
    """Serve MCP on stdio: ``build`` (run in a thread as soon as this starts) returns the
    SDK's ``MCPServer``; the front answers from the record meanwhile. Returns when the client
    closes its end."""
    wire = Wire()
    built: dict[str, Any] = {}

    def load() -> None:
        try:
            built["app"] = build()
        except BaseException as exc:  # raised again where the SDK is needed
            built["error"] = exc
        wire.lines.put(LOADED)

    threading.Thread(target=load, name="kenning-mcp-load", daemon=True).start()
    handshake = Handshake(Record(data_dir, code_stamp()))
    if not handshake.front(wire):
        return  # the client left having asked nothing the record could not answer
    if "error" in built:
        raise built["error"]
    import anyio

    anyio.run(_run_sdk, built["app"], _Lines(wire, handshake), _Out(wire, handshake))


async def _run_sdk(app: Any, stdin: _Lines, stdout: _Out) -> None:
    """The SDK's own stdio loop over the front's streams (what ``MCPServer.run("stdio")``
    does over the process's)."""
    from mcp.server.stdio import stdio_server

    server = app._lowlevel_server  # the SDK's stdio runner uses it the same way
    async with stdio_server(stdin=stdin, stdout=stdout) as (read, write):  # type: ignore[arg-type]
        await server.run(read, write, server.create_initialization_options())


# What a client of the latest protocol asks first (Claude Code does, in this order): discovery,
# a subscription to the list changes, and the three lists.
_FIRST_ASKED: tuple[tuple[str, dict[str, Any]], ...] = (
    ("server/discover", {}),
    (LISTEN, {"notifications": {"toolsListChanged": True, "promptsListChanged": True,
                                "resourcesListChanged": True}}),
    ("prompts/list", {}), ("resources/list", {}), ("tools/list", {}))


def primed(data_dir: str, version: str) -> bool:
    """Whether the record holds, for today's code, every first answer a client of protocol
    ``version`` asks for."""
    record = Record(data_dir, code_stamp())
    handshake = Handshake(record)
    return all(record.answers.get(handshake.key(_first(i, method, params, version)) or "")
               is not None for i, (method, params) in enumerate(_FIRST_ASKED))


def _first(i: int, method: str, params: dict[str, Any], version: str) -> dict[str, Any]:
    """The ``i``-th first request, with the envelope a client of ``version`` sends."""
    return {"jsonrpc": "2.0", "id": f"prime-{i}", "method": method, "params": {**params, "_meta": {
        VERSION_META: version, "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "kenning-init", "version": "1"}}}}


def prime(command: list[str], data_dir: str, version: str, timeout_s: float = 60.0
          ) -> str | None:
    """Start ``command`` (``kenning mcp`` as the client will start it) and ask it, as a client
    of protocol ``version`` does first, what the front records, so that the first start the
    client makes answers at once and the model has Kenning's tools on its first turn. None
    when the record holds it all afterwards (or did already), else why not."""
    import select
    import subprocess
    import time

    if primed(data_dir, version):
        return None
    try:
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
    except OSError as exc:
        return f"cannot start {command[0]}: {exc}"
    assert proc.stdin is not None and proc.stdout is not None
    waiting = {f"prime-{i}" for i in range(len(_FIRST_ASKED))}
    try:
        proc.stdin.write(b"".join(json.dumps(_first(i, method, params, version)).encode()
                                  + b"\n" for i, (method, params) in enumerate(_FIRST_ASKED)))
        proc.stdin.flush()
        deadline = time.monotonic() + timeout_s
        out = proc.stdout.fileno()
        buffered = b""
        while waiting and time.monotonic() < deadline:
            ready, _, _ = select.select([out], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(out, 65536)
            if not chunk:
                break
            buffered += chunk
            *lines, buffered = buffered.split(b"\n")
            for line in lines:
                msg = _message(line)
                if msg is None:
                    continue
                meta = (msg.get("params") or {}).get("_meta") or {}
                if "error" in msg:
                    return f"the MCP server refused {msg.get('id')}: {msg['error']}"
                answered = msg.get("id") if "method" not in msg else (
                    meta.get(SUBSCRIPTION_META) if msg.get("method") == ACK else None)
                waiting.discard(str(answered))
    except OSError as exc:
        return f"the MCP server stopped answering: {exc}"
    finally:
        with contextlib.suppress(OSError):
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if waiting:
        return f"no answer to {', '.join(sorted(waiting))} within {timeout_s:.0f} s"
    return None if primed(data_dir, version) else "the answers were not recorded"
