"""The loop every Python peer driver runs, so each system is timed the same way.

A driver is started by ``run.py`` as ``python <driver>.py serve|cold WORKLOAD DIR``:

- ``serve`` opens a fresh store in DIR, prints ``{"ready": true}`` and then answers one JSON
  command per line on stdin with one JSON line on stdout, so that ``run.py`` can interleave
  the systems block by block: ``{"op": "add", "from": i, "to": j}`` adds notes ``i..j-1`` one
  call each (``add_ms`` per call, ``wall_s`` for the block); ``{"op": "settle"}`` lets the
  system finish work it left for later (only Kenning defers its vectors; ``settle_s``);
  ``{"op": "search", "set": "queries"|"warmup", "from": i, "to": j}`` runs those queries
  (``search_ms`` and ``hits`` per query); ``{"op": "close"}`` closes the store and exits.
- ``cold`` opens the store a ``serve`` run left in DIR, answers one query and prints
  ``answer N`` at once: ``run.py`` times the process from its start to that line.

Only the system's own calls are inside the timings; the workload is read first.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class System:
    """One opened store, as the calls the benchmark makes on it."""

    add: Callable[[int, dict[str, Any]], None]
    search: Callable[[str, int], int]  # query, k -> how many hits came back
    settle: Callable[[], None]
    close: Callable[[], None]


def reply(message: dict[str, Any]) -> None:
    """One JSON line on stdout."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(system: System, workload: dict[str, Any]) -> None:
    """Answer ``run.py``'s commands until it says ``close``."""
    k = int(workload["k"])
    reply({"ready": True})
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd["op"]
        if op == "add":
            add_ms: list[float] = []
            started = time.perf_counter()
            for i in range(cmd["from"], cmd["to"]):
                t0 = time.perf_counter()
                system.add(i, workload["notes"][i])
                add_ms.append((time.perf_counter() - t0) * 1000)
            reply({"add_ms": add_ms, "wall_s": time.perf_counter() - started})
        elif op == "settle":
            t0 = time.perf_counter()
            system.settle()
            reply({"settle_s": time.perf_counter() - t0})
        elif op == "search":
            search_ms: list[float] = []
            hits: list[int] = []
            for query in workload[cmd["set"]][cmd["from"]:cmd["to"]]:
                t0 = time.perf_counter()
                hits.append(system.search(query, k))
                search_ms.append((time.perf_counter() - t0) * 1000)
            reply({"search_ms": search_ms, "hits": hits})
        elif op == "close":
            system.close()
            reply({"closed": True})
            return
        else:
            raise SystemExit(f"unknown command {cmd!r}")


def main(open_system: Callable[[Path, bool], System]) -> None:
    """Run ``serve`` or ``cold`` (see the module docstring) over ``open_system(dir, fresh)``."""
    if len(sys.argv) != 4 or sys.argv[1] not in ("serve", "cold"):
        sys.exit(f"usage: {Path(sys.argv[0]).name} serve|cold WORKLOAD.json DIR")
    mode, workload = sys.argv[1], json.loads(Path(sys.argv[2]).read_text())
    where = Path(sys.argv[3])
    if mode == "serve":
        serve(open_system(where, True), workload)
        return
    system = open_system(where, False)
    found = system.search(workload["cold_query"], int(workload["k"]))
    print(f"answer {found}", flush=True)
    system.close()
