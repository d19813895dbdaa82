"""MCP server and extraction benchmark: tool-call latency through the official MCP client over
stdio against a real ``kenning mcp`` process, and ``Kenning.extract`` on the recorded transcript.

Run ``python benchmarks/bench_mcp.py [--memories 500] [--runs 25]``. The store is seeded with
``--memories`` synthetic memories (embedded), the server is spawned once; each tool is called
``--runs`` times after one warm-up call. Medians are what to quote; the JSON keeps every value.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import benchkit
from benchkit import load_average, log, render, rounded, summarize

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from mcp import ClientSession, stdio_client  # noqa: E402

from kenning import Kenning  # noqa: E402
from tests.mcp_fixtures import (  # noqa: E402
    kenning_command,
    recorded_session,
    server_env,
    stdio_params,
)

DEFAULT_OUT = HERE / "results" / "mcp.json"
AREAS = ["auth", "billing", "search", "checkout", "deploy", "logging", "cache", "email"]


def seed(db: Path, n: int) -> None:
    items = [{"text": f"{AREAS[i % 8]} note {i}: the {AREAS[(i * 3) % 8]} service "
                      f"{'retries twice' if i % 2 else 'logs every call'} (case {i})",
              "type": ["decision", "insight", "gotcha", "pattern"][i % 4],
              "topic": f"{AREAS[i % 8]}_strategy" if i % 4 == 0 else None} for i in range(n)]
    with Kenning(db, project="mcp-proj") as k:
        for start in range(0, n, 200):
            k.remember_many(items[start:start + 200])
        k.settle()  # the store the server opens has every vector and link


async def measure(db: Path, tmp: Path, runs: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    async with stdio_client(stdio_params(tmp, db)) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        start_ms = (time.perf_counter() - t0) * 1000
        t = time.perf_counter()
        first = await s.call_tool("recall", {"query": "auth retries"})
        first_recall_ms = (time.perf_counter() - t) * 1000
        mid = json.loads(first.content[0].text)["results"][0]["id"]
        counter = iter(range(10_000))
        calls = {
            # Fresh query text each call: the embedder's query cache would hide the model.
            "recall": lambda: ("recall", {"query": f"how does billing retry, case "
                                                   f"{next(counter)}?"}),
            "recall full": lambda: ("recall", {"query": f"checkout cache {next(counter)}",
                                               "detail": "full"}),
            "get": lambda: ("get", {"ids": [mid]}),
            "why": lambda: ("why", {"topic": "auth_strategy"}),
            "graph_stats": lambda: ("graph_stats", {}),
            "get_session_context": lambda: ("get_session_context", {
                "task": f"speed up the search cache, step {next(counter)}"}),
            "save": lambda: ("save", {"text": f"Benchmark insight number {next(counter)} "
                                              "about deploy windows"}),
            "record_finding": lambda: ("record_finding", {
                "text": f"Email worker {next(counter)} drops messages over 10 MB",
                "source": "agent:bench"}),
            "invalid args": lambda: ("recall", {"query": 5}),
        }
        out: dict[str, list[float]] = {}
        for name, make in calls.items():
            tool, args = make()
            await s.call_tool(tool, args)  # warm-up
            times = []
            for _ in range(runs):
                tool, args = make()
                t = time.perf_counter()
                res = await s.call_tool(tool, args)
                times.append((time.perf_counter() - t) * 1000)
                assert res.is_error == (name == "invalid args"), res.content[0].text
            out[name] = times
    return {"start_ms": start_ms, "first_recall_ms": first_recall_ms, "calls": out}


def start_times(tmp: Path, db: Path, runs: int) -> dict[str, list[float]]:
    """``kenning mcp`` started the way a client starts it, ``initialize`` and ``tools/list``
    asked at once, then stdin closed: the time to each answer and to the process's exit, with
    the handshake answered by the SDK (no record: as at a first start, or before the front)
    and from the record the first start wrote (``kenning.mcpfront``), alternating."""
    from kenning.mcpfront import RECORD

    env = server_env(tmp, db)
    record = tmp / "home" / RECORD
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}}
    follow = [{"jsonrpc": "2.0", "method": "notifications/initialized"},
              {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    out: dict[str, list[float]] = {}
    for n in range(2 * runs + 1):
        recorded = n % 2 == 1
        if not recorded:
            record.unlink(missing_ok=True)
        t0 = time.perf_counter()
        p = subprocess.Popen([*kenning_command(), "mcp"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                             cwd=str(tmp))
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write((json.dumps(init) + "\n").encode())
        p.stdin.flush()
        p.stdout.readline()
        t1 = time.perf_counter()
        p.stdin.write("".join(json.dumps(m) + "\n" for m in follow).encode())
        p.stdin.flush()
        assert json.loads(p.stdout.readline())["result"]["tools"]
        t2 = time.perf_counter()
        p.stdin.close()
        p.wait()
        t3 = time.perf_counter()
        if n == 0:
            continue  # the first start also writes bytecode and the record
        label = "recorded handshake" if recorded else "SDK handshake"
        for what, ms in (("initialize", t1 - t0), ("tools/list", t2 - t0),
                         ("exit after stdin closes", t3 - t2)):
            out.setdefault(f"start, {label}: {what}", []).append(ms * 1000)
    return out


def extract_times(tmp: Path, runs: int) -> dict[str, list[float]]:
    path = recorded_session(tmp / "session.jsonl")
    out: dict[str, list[float]] = {"extract (rules + dedupe)": [], "extract (rules only)": []}
    with Kenning(tmp / "x.db", project="x") as k, \
            Kenning(tmp / "y.db", project="y", embedder=None) as plain:
        k.extract(path)
        for _ in range(runs):
            t = time.perf_counter()
            k.extract(path)
            out["extract (rules + dedupe)"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            plain.extract(path)
            out["extract (rules only)"].append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--memories", type=int, default=500)
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = ap.parse_args()
    with benchkit.scratch_dir() as tmp:
        db = tmp / "mcp.db"
        log(f"seeding {a.memories} memories")
        seed(db, a.memories)
        log("spawning kenning mcp and calling tools")
        res = asyncio.run(measure(db, tmp, a.runs))
        log("starting kenning mcp, with and without the recorded handshake")
        starts = start_times(tmp, db, max(5, a.runs // 3))
        log("timing extract on the recorded transcript")
        ext = extract_times(tmp, a.runs)
    series = {**res["calls"], **starts, **ext}
    rows = [[name, summarize(v)["median"], summarize(v)["p95"]] for name, v in series.items()]
    rows += [["server start + initialize", res["start_ms"], float("nan")],
             ["first recall (loads the model)", res["first_recall_ms"], float("nan")]]
    print(render(f"MCP tool calls over stdio and extract ({a.memories} memories, "
                 f"{a.runs} runs, ms)", ["operation", "median", "p95"], rows))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps({
        "machine": benchkit.machine_info(load_average=load_average()),
        "memories": a.memories, "runs": a.runs, "start_ms": round(res["start_ms"], 2),
        "first_recall_ms": round(res["first_recall_ms"], 2),
        "summary": {k: {m: round(x, 3) for m, x in summarize(v).items()}
                    for k, v in series.items()},
        "raw_ms": {k: rounded(v, 3) for k, v in series.items()},
    }, indent=2) + "\n")
    log(f"wrote {a.out}")


if __name__ == "__main__":
    main()
