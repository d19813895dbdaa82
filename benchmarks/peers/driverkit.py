"""The loop every Python peer driver runs, so each system is timed the same way.

A driver is started by ``run.py`` as ``python <driver>.py fill|cold WORKLOAD DIR``:

- ``fill`` adds the workload's notes one call each into a fresh store in DIR, lets the system
  finish any work it left for later (``settle``; only Kenning defers its vectors), runs the
  warm-up queries, then times every query; it prints one JSON line with the raw figures.
- ``cold`` opens the store ``fill`` left in DIR, answers one query and prints ``answer N`` at
  once: ``run.py`` times the process from its start to that line.

Only this loop and the system's own calls are inside the timings; the workload is read first.
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


def main(open_system: Callable[[Path, bool], System]) -> None:
    """Run ``fill`` or ``cold`` (see the module docstring) over ``open_system(dir, fresh)``."""
    if len(sys.argv) != 4 or sys.argv[1] not in ("fill", "cold"):
        sys.exit(f"usage: {Path(sys.argv[0]).name} fill|cold WORKLOAD.json DIR")
    mode, workload = sys.argv[1], json.loads(Path(sys.argv[2]).read_text())
    where = Path(sys.argv[3])
    k = int(workload["k"])
    if mode == "cold":
        system = open_system(where, False)
        found = system.search(workload["cold_query"], k)
        print(f"answer {found}", flush=True)
        system.close()
        return
    system = open_system(where, True)
    add_ms: list[float] = []
    started = time.perf_counter()
    for i, note in enumerate(workload["notes"]):
        t0 = time.perf_counter()
        system.add(i, note)
        add_ms.append((time.perf_counter() - t0) * 1000)
    add_wall_s = time.perf_counter() - started
    t0 = time.perf_counter()
    system.settle()
    settle_s = time.perf_counter() - t0
    for query in workload["warmup"]:
        system.search(query, k)
    search_ms: list[float] = []
    hits: list[int] = []
    for query in workload["queries"]:
        t0 = time.perf_counter()
        hits.append(system.search(query, k))
        search_ms.append((time.perf_counter() - t0) * 1000)
    system.close()
    print(json.dumps({"add_ms": add_ms, "add_wall_s": add_wall_s, "settle_s": settle_s,
                      "search_ms": search_ms, "hits": hits}), flush=True)
