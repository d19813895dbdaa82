"""Storm benchmark: bursts of concurrent ``PostToolUse`` hooks on a starved CPU, and how many of
their events reach the journal that learning reads (none may be lost).

Run ``python benchmarks/bench_storm.py [--bursts 40,80,160] [--rounds 3] [--hogs 8]
[--out PATH]``. ``--hogs`` busy processes keep the CPU starved throughout (a build or a test
run beside the agent). Each burst starts that many real hook processes at once
(``kenning-hook PostToolUse`` as ``kenning init`` registers it, a real payload on stdin, each
with its own ``tool_use_id``) against one store, waits for all of them, and counts the ids
found in the journal. The machine's load average after each burst is recorded beside the
counts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import benchkit
from benchkit import load_average, log, render, scratch_dir

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "storm.json"
HOOK = Path(sys.executable).parent / "kenning-hook"


def payload(project: Path, n: int, burst: str) -> bytes:
    """A test run's PostToolUse, as the client sends it."""
    return json.dumps({
        "session_id": "storm", "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
        "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": f"{burst}-{n}",
        "tool_input": {"command": "pytest -q tests/test_x.py"},
        "tool_response": {"stdout": "3 passed in 0.41s", "stderr": "", "interrupted": False},
    }).encode()


def journalled(journal_dir: Path) -> set[str]:
    """The tool_use ids of every event in the journal (live and claimed files)."""
    ids: set[str] = set()
    for path in journal_dir.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            event = json.loads(line)
            tool_use = (event.get("data") or {}).get("tool_use_id")
            if tool_use:
                ids.add(tool_use)
    return ids


def feed(p: subprocess.Popen[bytes], data: bytes) -> None:
    assert p.stdin is not None
    try:
        p.stdin.write(data)
        p.stdin.close()
    except BrokenPipeError:  # the hook gave up before reading it: its event is lost
        pass


def burst(size: int, tag: str, project: Path, env: dict[str, str], late: bool
          ) -> dict[str, Any]:
    """Start ``size`` hooks at once and wait for every one. Each payload is written as its hook
    starts, or (``late``) only once all have started, as a client that is itself starved of CPU
    writes them."""
    t0 = time.perf_counter()
    procs = []
    for n in range(size):
        p = subprocess.Popen([str(HOOK), "PostToolUse"], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        if not late:
            feed(p, payload(project, n, tag))
        procs.append(p)
    if late:
        for n, p in enumerate(procs):
            feed(p, payload(project, n, tag))
    codes = [p.wait() for p in procs]
    return {"seconds": round(time.perf_counter() - t0, 2), "exit_codes": sorted(set(codes)),
            "load_1m": load_average()[0]}


def run_bursts(args: argparse.Namespace, sizes: list[int], results: dict[str, Any]) -> None:
    """Every round's bursts against one fresh store; adds to ``results``."""
    with scratch_dir() as scratch:
        project = scratch / "project"
        project.mkdir()
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        db = scratch / "kenning.db"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(KENNING_DB=str(db), KENNING_HOME=str(scratch / "home"),
                   HOME=str(scratch / "home"))
        journal_dir = Path(str(db) + ".hooks")
        for r in range(args.rounds):
            for size in sizes:
                for late in (False, True):
                    tag = f"r{r}-b{size}-{'late' if late else 'at-once'}"
                    run = burst(size, tag, project, env, late)
                    found = {i for i in journalled(journal_dir) if i.startswith(tag + "-")}
                    run.update(size=size, round=r, late=late, journalled=len(found),
                               lost=size - len(found))
                    results["bursts"].append(run)
                    log(f"burst of {size}{' (payloads late)' if late else ''}: "
                        f"{run['lost']} lost, {run['seconds']} s, load {run['load_1m']}")
                time.sleep(2)  # let the load fall back a little before the next burst
        errors = scratch / "home" / "errors.jsonl"
        lines = errors.read_text().splitlines() if errors.exists() else []
        results["budget_expired"] = sum("exceeded its" in ln for ln in lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bursts", default="40,80,160")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hogs", type=int, default=8)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    if not HOOK.exists():
        sys.exit(f"{HOOK} not found: install kenning into this interpreter's environment")
    sizes = [int(s) for s in args.bursts.split(",")]
    results: dict[str, Any] = {"machine": benchkit.machine_info(), "hogs": args.hogs,
                               "bursts": []}
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.hogs)]
    try:
        run_bursts(args, sizes, results)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    rows = []
    for size, late in ((size, late) for size in sizes for late in (False, True)):
        runs = [b for b in results["bursts"] if b["size"] == size and b["late"] == late]
        rows.append([str(size), "late" if late else "at once", str(len(runs)),
                     str(sum(b["lost"] for b in runs)),
                     str(sum(b["size"] for b in runs)),
                     f"{max(b['load_1m'] for b in runs):.1f}",
                     f"{sorted(b['seconds'] for b in runs)[len(runs) // 2]:.2f}"])
    print(render("PostToolUse storms: events lost (journal) under load",
                 ["burst", "payloads", "rounds", "lost", "events", "max load 1m", "median s"],
                 rows))
    print(f"\nhooks past their budget (logged): {results['budget_expired']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
