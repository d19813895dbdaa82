"""Hook benchmark: wall time of each Claude Code hook, process start to exit, at 1k and 10k
memories, beside a bare interpreter start (ADR-050's budgets, issue 3's bars), plus confidence
decay over 10k memories.

Run ``python benchmarks/bench_hooks.py [--sizes 1000,10000] [--runs 60] [--out PATH]
[--compare VENV]`` (``--compare``: another installation's hook in the same per-prompt rounds).
Every hook run is a fresh process started the way Claude Code starts it (the ``kenning-hook``
script ``kenning init`` registers), fed a real payload on stdin. Runs of the bare interpreter and
of each hook are interleaved so machine load affects them alike. Bytecode caching is on, as in
an installed package (this sandbox sets PYTHONDONTWRITEBYTECODE; the benchmark unsets it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import bench_core
import benchkit
from benchkit import load_average, log, render, scratch_dir, summarize, working_copy

from kenning import Kenning, learning
from kenning.embed import MiniLMEmbedder
from kenning.journal import detached, prepared
from kenning.places import lean

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.mcp_fixtures import recorded_session

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "hooks.json"
BIN = Path(sys.executable).parent
HOOK = BIN / "kenning-hook"
SESSION_RUNS = 5


def payloads(project_dir: Path, n: int) -> dict[str, list[str]]:
    """Real-shaped payloads (FINDINGS §2) for each event; prompts are distinct questions."""
    base = {"session_id": "bench-session", "transcript_path": str(project_dir / "t.jsonl"),
            "cwd": str(project_dir)}
    prompts = bench_core.generate_queries(n, "hook-prompts")
    out: dict[str, list[str]] = {
        "UserPromptSubmit": [json.dumps({**base, "hook_event_name": "UserPromptSubmit",
                                         "permission_mode": "default", "prompt": p})
                             for p in prompts],
        "PostToolUse": [],
    }
    for i in range(n):
        if i % 2:
            tool = {"tool_name": "Edit", "tool_input": {
                "file_path": str(project_dir / f"src/mod{i}.py"), "old_string": "a",
                "new_string": "b"}, "tool_response": {"filePath": str(project_dir / "x.py"),
                                                      "structuredPatch": []}}
        else:
            tool = {"tool_name": "Bash", "tool_input": {"command": "pytest -q tests/test_x.py"},
                    "tool_response": {"stdout": "1 passed", "stderr": "", "interrupted": False}}
        out["PostToolUse"].append(json.dumps({**base, "hook_event_name": "PostToolUse",
                                              "tool_use_id": f"toolu_{i}", **tool}))
    return out


def timed(cmd: list[str], stdin: str, env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, input=stdin.encode(), env=env, capture_output=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{cmd} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return seconds


def settle(location: str) -> None:
    """Wait until the detached session-end worker has finished what is queued."""
    while detached.pending(location) or detached.busy(location):
        time.sleep(0.01)


def bench_size(n: int, runs: int, embedder: MiniLMEmbedder,
               compare: Path | None = None) -> dict[str, Any]:
    path, info = bench_core.cached_store(n, embedder, rebuild=False)
    with contextlib.ExitStack() as stack:
        db = stack.enter_context(working_copy(path))
        scratch = stack.enter_context(scratch_dir())
        with Kenning(db, project=bench_core.PROJECT, embedder=embedder) as k:
            graph = k.consolidate()  # PageRank for the prompt ranking, as at a session end
        # A git repository of its own, and a throwaway HOME: the session hooks import and sync
        # Claude Code's auto memory of the project, which must not be the caller's.
        project_dir = scratch / "project"
        project_dir.mkdir()
        subprocess.run(["git", "init", "-q", str(project_dir)], check=True)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(KENNING_DB=str(db), KENNING_PROJECT=bench_core.PROJECT,
                   KENNING_HOME=str(scratch / "home"), HOME=str(scratch / "home"))
        loads = payloads(project_dir, runs)
        bare = [str(BIN / "python"), "-c", "pass"]
        for _ in range(3):  # warm the page cache and write bytecode once
            timed(bare, "", env)
            timed([str(HOOK), "UserPromptSubmit"], loads["UserPromptSubmit"][0], env)
            timed([str(HOOK), "PostToolUse"], loads["PostToolUse"][0], env)
        samples: dict[str, list[float]] = {
            "bare": [], "UserPromptSubmit": [], "PostToolUse": [],
            "UserPromptSubmit (no index)": []}
        # Another installation's hook in the same rounds, right after this one's, under its
        # own session id (what one session was shown changes what its next prompt gets).
        other = str(compare / "bin" / "kenning-hook") if compare else None
        if other:
            samples.update({f"compared: {name}": [] for name in list(samples) if name != "bare"})

        def also(name: str, event: str, stdin: str) -> None:
            if other:
                samples[f"compared: {name}"].append(
                    timed([other, event], stdin.replace("bench-session", "bench-compared"), env))

        injected = 0
        start = json.dumps({"session_id": "bench-session", "cwd": str(project_dir),
                            "hook_event_name": "SessionStart", "source": "startup"})
        for phase in ("no index", "index"):
            if phase == "index":  # as in a session: SessionStart builds the prompt index
                timed([str(HOOK), "SessionStart"], start, env)
            for i in range(runs):
                samples["bare"].append(timed(bare, "", env))
                t0 = time.perf_counter()
                out = subprocess.run([str(HOOK), "UserPromptSubmit"],
                                     input=loads["UserPromptSubmit"][i].encode(), env=env,
                                     capture_output=True)
                name = "UserPromptSubmit" + (" (no index)" if phase == "no index" else "")
                samples[name].append(time.perf_counter() - t0)
                also(name, "UserPromptSubmit", loads["UserPromptSubmit"][i])
                injected += b"additionalContext" in out.stdout and phase == "index"
                if phase == "index":
                    samples["PostToolUse"].append(
                        timed([str(HOOK), "PostToolUse"], loads["PostToolUse"][i], env))
                    also("PostToolUse", "PostToolUse", loads["PostToolUse"][i])
        end = json.dumps({"session_id": "bench-session", "cwd": str(project_dir),
                          "hook_event_name": "SessionEnd", "reason": "other"})
        if other:  # the compared conversation ends (an open one is learned from by a start)
            timed([other, "SessionEnd"], end.replace("bench-session", "bench-compared"), env)
            settle(str(db))
        # A full start: nothing prepared (what every start was before a start could be made
        # ahead); then the same conversation starting again (a resume, a compaction), which
        # answers from the start the last one prepared.
        ready = prepared.file_for(lean.journal_dir(str(db)), bench_core.PROJECT)
        samples["SessionStart (full)"] = []
        for _ in range(SESSION_RUNS):
            Path(ready).unlink(missing_ok=True)
            samples["SessionStart (full)"].append(timed([str(HOOK), "SessionStart"], start, env))
        samples["SessionStart (same conversation again)"] = [
            timed([str(HOOK), "SessionStart"], start, env) for _ in range(SESSION_RUNS)]
        # SessionEnd answers once it has queued the work; the detached worker's whole run is
        # timed apart (until it is done), and beside both, the same session end run inside
        # the hook ([hooks] detach_session_end = false), as the client waited for it before.
        inline = dict(env, KENNING_HOOKS_DETACH_SESSION_END="false")
        samples["SessionEnd"], samples["SessionEnd (background work)"] = [], []
        samples["SessionEnd (in place)"] = []
        for _ in range(SESSION_RUNS):
            t0 = time.perf_counter()
            samples["SessionEnd"].append(timed([str(HOOK), "SessionEnd"], end, env))
            settle(str(db))
            samples["SessionEnd (background work)"].append(time.perf_counter() - t0)
            samples["SessionEnd (in place)"].append(timed([str(HOOK), "SessionEnd"], end,
                                                          inline))
        # The common start: a new conversation after the last one ended, its end's worker
        # done. Each installation on its own copy of the store, its own project and home (one
        # conversation of each would otherwise be open in the other's store), round by round.
        rounds = [("SessionStart (next conversation)", HOOK, db, env, project_dir)]
        if compare:
            theirs = stack.enter_context(working_copy(path))
            other_dir = scratch / "compared"
            (other_dir / "home").mkdir(parents=True)
            subprocess.run(["git", "init", "-q", str(other_dir / "project")], check=True)
            rounds.append(("compared: SessionStart (next conversation)",
                           compare / "bin" / "kenning-hook", theirs,
                           dict(env, KENNING_DB=str(theirs), KENNING_HOME=str(other_dir / "home"),
                                HOME=str(other_dir / "home")), other_dir / "project"))
        for i in range(SESSION_RUNS + 1):
            for name, hook, store, hook_env, where in rounds:
                said = {"session_id": f"bench-next-{i}", "cwd": str(where)}
                took = timed([str(hook), "SessionStart"], json.dumps(
                    {**said, "hook_event_name": "SessionStart", "source": "startup"}), hook_env)
                if i:  # the first start has no session end before it
                    samples.setdefault(name, []).append(took)
                timed([str(hook), "SessionEnd"], json.dumps(
                    {**said, "hook_event_name": "SessionEnd", "reason": "other"}), hook_env)
                settle(str(store))
        # What /clear does: the conversation's end is queued (its detached worker starts
        # capturing from a real transcript) and the next conversation starts at once. Its
        # SessionStart either reads what is there (``session_start_wait_ms`` 0) or waits up
        # to 3 s for that worker, interleaved run by run.
        transcript = recorded_session(scratch / "session.jsonl")
        waits = {"SessionStart (after /clear)": "0",
                 "SessionStart (after /clear, waiting up to 3 s)": "3000"}
        samples.update({name: [] for name in waits})
        for i in range(SESSION_RUNS):
            for name, wait in waits.items():
                sid = f"bench-clear-{wait}-{i}"
                timed([str(HOOK), "SessionEnd"], json.dumps({
                    "session_id": sid, "cwd": str(project_dir), "hook_event_name": "SessionEnd",
                    "reason": "clear", "transcript_path": str(transcript)}), env)
                samples[name].append(timed([str(HOOK), "SessionStart"], json.dumps({
                    "session_id": sid + "-next", "cwd": str(project_dir),
                    "hook_event_name": "SessionStart", "source": "clear"}),
                    dict(env, KENNING_HOOKS_SESSION_START_WAIT_MS=wait)))
                settle(str(db))
        errors = (scratch / "home" / "errors.jsonl")
        error_lines = errors.read_text().splitlines() if errors.exists() else []
    stats = {name: summarize(values) for name, values in samples.items()}
    base = stats["bare"]["median"]
    return {
        "n": n, "runs": runs, "store": info.get("key"), "graph": graph,
        "ms": {name: {k: v * 1000 for k, v in s.items()} for name, s in stats.items()},
        "ratio_to_bare": {name: s["median"] / base for name, s in stats.items()},
        "prompts_with_context": injected, "hook_errors": error_lines[-5:],
        "raw_ms": {name: [round(v * 1000, 3) for v in values] for name, values in samples.items()},
    }


def bench_decay(n: int, embedder: MiniLMEmbedder) -> dict[str, Any]:
    """Confidence as of now for every memory: the pure rule alone, and through ``list``."""
    path, _ = bench_core.cached_store(n, embedder, rebuild=False)
    with working_copy(path) as db, Kenning(db, project=bench_core.PROJECT, embedder=None) as k:
        raw = k.store.list(k._filters(), limit=None)
        now = bench_core.NOW_MS + 30 * 86_400_000
        pure, listed = [], []
        for _ in range(7):
            t0 = time.perf_counter()
            for m in raw:
                learning.decayed(m.confidence, learning.anchor_ms(
                    m.created_at, m.updated_at, m.last_accessed_at), now, m.type.value)
            pure.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            k.list(limit=None)
            listed.append(time.perf_counter() - t0)
    return {"n": len(raw), "pure_ms": statistics.median(pure) * 1000,
            "list_with_decay_ms": statistics.median(listed) * 1000}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--compare", type=Path,
                    help="another venv whose bin/kenning-hook joins the per-prompt rounds")
    args = ap.parse_args()
    if not HOOK.exists():
        sys.exit(f"{HOOK} not found: install kenning into this interpreter's environment")
    embedder = MiniLMEmbedder()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = {"machine": benchkit.machine_info(), "load_before": load_average(), "sizes": []}
    for n in sizes:
        log(f"hooks at {n:,} memories: {args.runs} runs per event")
        results["sizes"].append(bench_size(n, args.runs, embedder, args.compare))
    results["decay"] = bench_decay(max(sizes), embedder)
    results["load_after"] = load_average()
    rows = []
    for r in results["sizes"]:
        names = ["bare", "UserPromptSubmit", "UserPromptSubmit (no index)", "PostToolUse",
                 "SessionStart (full)", "SessionStart (same conversation again)",
                 "SessionStart (next conversation)", "SessionStart (after /clear)",
                 "SessionStart (after /clear, waiting up to 3 s)", "SessionEnd",
                 "SessionEnd (background work)", "SessionEnd (in place)"]
        for name in [*names, *(n for n in r["ms"] if n.startswith("compared: "))]:
            ms = r["ms"][name]
            rows.append([f"{r['n']:,}", name, f"{ms['median']:.2f}", f"{ms['p95']:.2f}",
                         f"{r['ratio_to_bare'][name]:.2f}x"])
    print(render("Hook wall time, process start to exit (ms)",
                 ["memories", "event", "p50", "p95", "vs bare"], rows))
    d = results["decay"]
    print(f"\ndecay over {d['n']:,} memories: {d['pure_ms']:.2f} ms pure, "
          f"{d['list_with_decay_ms']:.1f} ms for list() with decay applied")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
