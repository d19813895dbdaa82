"""Code-drift benchmark for Kenning: are the right memories marked stale when code changes, and
what does the check cost a session start?

Run ``python benchmarks/bench_drift.py [--files 60] [--rounds 5] [--quick] [--out PATH]``.

Part 1 (quality) generates a git repository of Python, TypeScript, Go and Rust modules, writes
memories about it the way an agent would (one per symbol it names, "src/m3.py: parse_m3_1()
...", and some about whole files), then makes a history of commits, one round at a time, each
followed by a drift check as a session start runs it. Every file gets at most one action: change
one anchored symbol's body, reformat the file without changing what it does (layout, comments),
rename it, rename and change a symbol, delete a symbol, delete the file, change another,
unanchored symbol in it, or change a symbol and put it back in the next round; some files are
left alone and unanchored files are edited too. The
truth: a symbol memory should be flagged when its symbol changed or went; a whole-file memory
when its file's code changed or went; any memory whose file moved, since every memory here gives
its file's path, which then sends the reader to a file that is not there. Precision and recall
of the flags are reported overall and per action.

Part 2 (latency) builds a store of 10,000 memories, 1,000 of them anchored to symbols in a
generated repository of 250 files, and times the real ``kenning-hook SessionStart`` process
(median of runs) beside the drift check alone in-process, with nothing changed and after a commit
changing 10 anchored files; the SessionStart runs alternate with runs on the same store without
its anchors, so the difference is measured side by side. The machine is shared: read ratios and
medians, not absolute figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import benchkit
from benchkit import load_average, log, render, rounded, scratch_dir, summarize

from kenning import Kenning

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "drift.json"
HOOK = Path(sys.executable).parent / "kenning-hook"
SEED = 20_261_127
ACTIONS = ("edit", "reformat", "rename", "rename+edit", "delete-symbol", "delete-file",
           "edit-other", "edit+revert", "untouched")
PRECISION_TARGET = RECALL_TARGET = 0.9
SESSION_START_TARGET_MS = 200.0


# -- a generated repository ----------------------------------------------------------------------

@dataclass
class Module:
    """One generated source file: its language, path, symbols and their bodies' constants."""

    lang: str
    path: str
    symbols: list[str]
    values: dict[str, int]
    style: int = 0  # 0 compact, 1 reformatted (same code, other layout and comments)
    deleted: set[str] = field(default_factory=set)

    def render(self) -> str:
        return RENDER[self.lang](self)


def _py(m: Module) -> str:
    out = ['"""Module."""\n']
    for s in m.symbols:
        if s in m.deleted:
            continue
        v = m.values[s]
        if m.style:
            out.append(f"\n\n# {s}: computes a value\ndef {s}(items,\n        scale=1):\n"
                       f"    total = sum(\n        items\n    )\n    return (total *\n"
                       f"            {v} + scale)\n")
        else:
            out.append(f"\n\ndef {s}(items, scale=1):\n    total = sum(items)\n"
                       f"    return total * {v} + scale\n")
    return "".join(out)


def _ts(m: Module) -> str:
    out = []
    for s in m.symbols:
        if s in m.deleted:
            continue
        v = m.values[s]
        if m.style:  # Prettier-like: no semicolons, trailing commas, other indentation
            out.append(f"/** {s}: computes a value */\nexport function {s}(\n    items: "
                       f"number[],\n    scale = 1,\n): number {{\n    const total = items."
                       f"reduce((a, b) => a + b, 0) // sum\n    return total * {v} + scale\n"
                       f"}}\n\n")
        else:
            out.append(f"export function {s}(items: number[], scale = 1): number {{\n  const "
                       f"total = items.reduce((a, b) => a + b, 0);\n  return total * {v} + "
                       f"scale;\n}}\n")
    return "".join(out)


def _go(m: Module) -> str:
    out = ["package gen\n"]
    for s in m.symbols:
        if s in m.deleted:
            continue
        v = m.values[s]
        if m.style:
            out.append(f"\n// {s} computes a value\nfunc {s}(items []int, scale int) int {{\n"
                       f"\ttotal := 0\n\tfor _, x := range items {{\n\t\ttotal += x\n\t}}\n"
                       f"\treturn total*{v} + scale\n}}\n")
        else:
            out.append(f"\nfunc {s}(items []int, scale int) int {{\n\ttotal := 0\n"
                       f"\tfor _, x := range items {{ total += x }}\n\treturn total * {v} + "
                       f"scale\n}}\n")
    return "".join(out)


def _rs(m: Module) -> str:
    out = []
    for s in m.symbols:
        if s in m.deleted:
            continue
        v = m.values[s]
        if m.style:  # rustfmt-like: one parameter a line, a trailing comma
            out.append(f"/// {s} computes a value\npub fn {s}(\n    items: &[i64],\n    "
                       f"scale: i64,\n) -> i64 {{\n    let total: i64 = items.iter().sum();\n"
                       f"    total * {v} + scale\n}}\n\n")
        else:
            out.append(f"pub fn {s}(items: &[i64], scale: i64) -> i64 {{ let total: i64 = "
                       f"items.iter().sum(); total * {v} + scale }}\n")
    return "".join(out)


RENDER = {"py": _py, "ts": _ts, "go": _go, "rs": _rs}


def symbol_name(lang: str, i: int, j: int) -> str:
    return {"py": f"parse_m{i}_{j}", "rs": f"parse_m{i}_{j}", "ts": f"parseM{i}x{j}",
            "go": f"ParseM{i}x{j}"}[lang]


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def make_repo(root: Path, n_files: int, per_file: int, rng: random.Random) -> list[Module]:
    (root / "src").mkdir(parents=True)
    git(root, "init", "-q")
    git(root, "config", "user.email", "bench@example.com")
    git(root, "config", "user.name", "bench")
    mods = []
    for i in range(n_files):
        lang = ("py", "ts", "go", "rs")[i % 4]
        syms = [symbol_name(lang, i, j) for j in range(per_file)]
        m = Module(lang, f"src/m{i}.{lang}", syms, {s: rng.randint(2, 9) for s in syms})
        (root / m.path).write_text(m.render())
        mods.append(m)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return mods


# -- part 1: quality -----------------------------------------------------------------------------

def quality(n_files: int, rounds: int, scratch: Path) -> dict[str, Any]:
    rng = random.Random(SEED)
    root = scratch / "quality"
    mods = make_repo(root, n_files, 4, rng)
    k = Kenning(scratch / "quality.db", project="bench", embedder=None)
    k.project_root = root
    # memories: symbols 0 and 1 of each file are named (symbol memories); every third file gets
    # a whole-file memory; symbol 3 is never named (changing it is "edit-other")
    memo: dict[str, tuple[str, str, str | None]] = {}  # id -> (kind, path at write, symbol)
    for m in mods:
        for s in m.symbols[:2]:
            mem = k.remember(f"{m.path}: {s}() returns the scaled total of the items",
                             type="pattern")
            memo[mem.id] = ("symbol", m.path, s)
        if int(m.path.split("m")[1].split(".")[0]) % 3 == 0:
            mem = k.remember(f"{m.path} holds the generated helpers", type="context")
            memo[mem.id] = ("file", m.path, None)
    anchors = len(k.store.anchors(project="bench"))
    # every file gets one action, spread over the rounds
    actions = [ACTIONS[i % len(ACTIONS)] for i in range(len(mods))]
    rng.shuffle(actions)
    plan = list(zip(mods, actions, strict=True))
    truth: set[str] = set()
    action_of: dict[str, str] = {}
    checks: list[dict[str, Any]] = []
    reverts: list[Module] = []  # edited last round, put back as they were this round
    for r in range(rounds):
        for m in reverts:
            m.values[m.symbols[0]] -= 1
            (root / m.path).write_text(m.render())
        reverts = []
        for m, action in plan[r::rounds]:
            target = m.symbols[0]
            changed = False  # whether the file's code (not its layout) changed
            if action == "edit+revert":
                m.values[target] += 1
                changed = r + 1 == rounds  # no round left to revert it in
                if not changed:
                    reverts.append(m)
            if action in ("edit", "rename+edit"):
                m.values[target] += 1
                changed = True
            elif action == "reformat":
                m.style = 1
            elif action == "delete-symbol":
                m.deleted.add(target)
                changed = True
            elif action == "edit-other":
                m.values[m.symbols[3]] += 1
                changed = True
            if action in ("rename", "rename+edit"):
                new = m.path.replace("/m", "/moved_m")
                git(root, "mv", m.path, new)
                m.path = new
            if action == "delete-file":
                (root / m.path).unlink()
                changed = True
            elif action != "untouched":
                (root / m.path).write_text(m.render())
            for mid, (kind, path, sym) in memo.items():
                if path != m.path and not (action.startswith("rename") and
                                           path == m.path.replace("/moved_m", "/m")):
                    continue
                action_of[mid] = action
                symbol_went = kind == "symbol" and (action == "delete-file" or (
                    sym == target and action in ("edit", "rename+edit", "delete-symbol")) or (
                    sym == target and action == "edit+revert" and changed))
                if (kind == "file" and changed) or symbol_went or action.startswith("rename"):
                    truth.add(mid)
        # an unanchored file changes too, every round
        (root / f"src/unanchored_{r}.py").write_text(f"def helper_{r}():\n    return {r}\n")
        git(root, "add", "-A")
        git(root, "commit", "-qm", f"round {r}")
        t0 = time.perf_counter()
        report = k.check_drift()
        checks.append({"round": r, "ms": (time.perf_counter() - t0) * 1000,
                       "read": report["read"], "files": report["files"],
                       "notes": len(report["notes"])})
    flagged = {m.id for m in k.list(limit=None) if m.drift is not None}
    k.close()

    def pr(ids: set[str]) -> dict[str, Any]:
        tp = len(flagged & truth & ids)
        fp = len((flagged - truth) & ids)
        fn = len((truth - flagged) & ids)
        return {"memories": len(ids), "should_flag": len(truth & ids),
                "flagged": len(flagged & ids), "true_pos": tp, "false_pos": fp, "false_neg": fn,
                "precision": tp / (tp + fp) if tp + fp else 1.0,
                "recall": tp / (tp + fn) if tp + fn else 1.0}

    everything = set(memo)
    by_action = {a: pr({mid for mid in memo if action_of.get(mid, "untouched") == a})
                 for a in ACTIONS}
    by_kind = {kind: pr({mid for mid, v in memo.items() if v[0] == kind})
               for kind in ("symbol", "file")}
    by_lang = {lang: pr({mid for mid, v in memo.items() if v[1].endswith("." + lang)})
               for lang in ("py", "ts", "go", "rs")}
    return {"files": n_files, "rounds": rounds, "memories": len(memo), "anchors": anchors,
            "overall": pr(everything), "by_action": by_action, "by_kind": by_kind,
            "by_language": by_lang, "checks": checks}


# -- part 2: latency -----------------------------------------------------------------------------

def timed(cmd: list[str], stdin: str, env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, input=stdin.encode(), env=env, capture_output=True, check=False)
    return (time.perf_counter() - t0) * 1000


def latency(n_memories: int, n_anchored: int, runs: int, scratch: Path) -> dict[str, Any]:
    rng = random.Random(SEED + 1)
    root = scratch / "latency"
    per_file = 4
    mods = make_repo(root, n_anchored // per_file, per_file, rng)
    db = scratch / "latency.db"
    log(f"latency: writing {n_memories:,} memories ({n_anchored:,} anchored)")
    with Kenning(db, project="bench", embedder=None) as k:
        k.project_root = root
        items: list[dict[str, Any]] = [
            {"text": f"{m.path}: {s}() returns the scaled total of the items",
             "type": "pattern"} for m in mods for s in m.symbols]
        words = ("cache", "deploy", "schema", "retry", "token", "queue", "index", "build")
        items += [{"text": f"note {i}: the {rng.choice(words)} step uses the "
                           f"{rng.choice(words)} {i % 97} setting", "type": "context"}
                  for i in range(n_memories - len(items))]
        for start in range(0, len(items), 500):
            k.remember_many(items[start:start + 500])
        anchors = len(k.store.anchors(project="bench"))
        k.check_drift()
        # in-process: the check alone, unchanged tree, then after a commit touching 10 files
        steady = []
        for _ in range(runs):
            t0 = time.perf_counter()
            k.check_drift()
            steady.append((time.perf_counter() - t0) * 1000)
        after = []
        for r in range(max(3, runs // 5)):
            for m in mods[r * 10:(r + 1) * 10]:
                m.values[m.symbols[0]] += 1
                (root / m.path).write_text(m.render())
            git(root, "commit", "-qam", f"change {r}")
            t0 = time.perf_counter()
            k.check_drift()
            after.append((time.perf_counter() - t0) * 1000)
        stale = sum(1 for m in k.list(limit=None) if m.drift)
        k.build_prompt_index()
    # The real SessionStart hook in the repository, alternating with the same store without
    # its anchors (a copy), so the difference is the drift check's.
    bare = scratch / "no-anchors.db"
    shutil.copyfile(db, bare)
    with Kenning(bare, project="bench", embedder=None) as k:
        k.store.set_anchors({a.memory_id: [] for a in k.store.anchors()})
        k.build_prompt_index()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    env.update(KENNING_PROJECT="bench", KENNING_HOME=str(scratch / "home"),
               HOME=str(scratch / "home"), KENNING_AUTO_MEMORY_ENABLED="false")
    start = json.dumps({"session_id": "bench", "cwd": str(root),
                        "hook_event_name": "SessionStart", "source": "startup"})
    anchored_env, bare_env = dict(env, KENNING_DB=str(db)), dict(env, KENNING_DB=str(bare))
    for _ in range(3):
        timed([str(HOOK), "SessionStart"], start, anchored_env)
        timed([str(HOOK), "SessionStart"], start, bare_env)
    with_drift, without = [], []
    for _ in range(runs):
        with_drift.append(timed([str(HOOK), "SessionStart"], start, anchored_env))
        without.append(timed([str(HOOK), "SessionStart"], start, bare_env))
    # PostToolUse after an Edit: of an anchored file (its anchors are checked at once) and of
    # a file nothing is anchored to (one read of the anchored-file list), alternating
    (root / "notes.txt").write_text("free text\n")

    def edit(path: Path) -> str:
        return json.dumps({"session_id": "bench", "cwd": str(root), "tool_name": "Edit",
                           "hook_event_name": "PostToolUse", "tool_input": {
                               "file_path": str(path)}, "tool_response": {}})

    anchored_file = root / mods[-1].path
    edit_anchored, edit_plain = [], []
    for _ in range(runs):
        mods[-1].values[mods[-1].symbols[1]] += 1
        anchored_file.write_text(mods[-1].render())
        edit_anchored.append(timed([str(HOOK), "PostToolUse"], edit(anchored_file),
                                   anchored_env))
        edit_plain.append(timed([str(HOOK), "PostToolUse"], edit(root / "notes.txt"),
                                anchored_env))
    return {
        "memories": n_memories, "anchors": anchors, "files": len(mods), "runs": runs,
        "stale_after_commits": stale,
        "check_steady_ms": summarize(steady), "check_after_commit_ms": summarize(after),
        "session_start_ms": summarize(with_drift),
        "session_start_no_drift_ms": summarize(without),
        "post_tool_use_anchored_ms": summarize(edit_anchored),
        "post_tool_use_unanchored_ms": summarize(edit_plain),
        "drift_share": statistics.median(steady) / statistics.median(with_drift),
        "raw": {"check_steady_ms": rounded(steady, 2), "check_after_commit_ms": rounded(after, 2),
                "session_start_ms": rounded(with_drift, 2),
                "session_start_no_drift_ms": rounded(without, 2),
                "post_tool_use_anchored_ms": rounded(edit_anchored, 2),
                "post_tool_use_unanchored_ms": rounded(edit_plain, 2)},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=64, help="files in the quality repository")
    ap.add_argument("--rounds", type=int, default=5, help="commit rounds (session starts)")
    ap.add_argument("--memories", type=int, default=10_000)
    ap.add_argument("--anchored", type=int, default=1_000)
    ap.add_argument("--runs", type=int, default=30, help="timed runs per latency figure")
    ap.add_argument("--quick", action="store_true", help="smaller, for a smoke run")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = ap.parse_args()
    if a.quick:
        a.files, a.memories, a.anchored, a.runs = 32, 2_000, 200, 8
    before = load_average()
    with scratch_dir() as scratch:
        log(f"quality: {a.files} files, {a.rounds} rounds")
        q = quality(a.files, a.rounds, scratch)
        lat = latency(a.memories, a.anchored, a.runs, scratch)
    o = q["overall"]
    rows = [["all", o["memories"], o["should_flag"], o["flagged"], o["precision"], o["recall"]]]
    rows += [[f"  {name}", r["memories"], r["should_flag"], r["flagged"], r["precision"],
              r["recall"]] for name, r in (*q["by_action"].items(), *q["by_kind"].items(),
                                          *q["by_language"].items())]
    print(render(f"Stale flags: {q['memories']} memories, {q['anchors']} anchors, "
                 f"{q['files']} files, {q['rounds']} commit rounds",
                 ["memories", "count", "should flag", "flagged", "precision", "recall"], rows))
    print()
    print(render(f"SessionStart at {lat['memories']:,} memories, {lat['anchors']:,} anchors on "
                 f"{lat['files']} files (medians, ms; {lat['runs']} runs)",
                 ["what", "median", "p95"], [
                     ["SessionStart hook, drift checked", lat["session_start_ms"]["median"],
                      lat["session_start_ms"]["p95"]],
                     ["SessionStart hook, same store unanchored", lat["session_start_no_drift_ms"]
                      ["median"], lat["session_start_no_drift_ms"]["p95"]],
                     ["drift check alone, nothing changed", lat["check_steady_ms"]["median"],
                      lat["check_steady_ms"]["p95"]],
                     ["drift check after 10 files changed", lat["check_after_commit_ms"]
                      ["median"], lat["check_after_commit_ms"]["p95"]],
                     ["PostToolUse Edit, anchored file", lat["post_tool_use_anchored_ms"]
                      ["median"], lat["post_tool_use_anchored_ms"]["p95"]],
                     ["PostToolUse Edit, other file", lat["post_tool_use_unanchored_ms"]
                      ["median"], lat["post_tool_use_unanchored_ms"]["p95"]],
                 ]))
    print(f"drift check's share of SessionStart: {lat['drift_share']:.1%}; targets: precision "
          f"and recall >= {PRECISION_TARGET}, SessionStart <= {SESSION_START_TARGET_MS:.0f} ms")
    out = {"machine": benchkit.machine_info(bench="drift-v1"), "load_before": before,
           "quality": q, "latency": lat, "load_after": load_average(),
           "targets": {"precision": PRECISION_TARGET, "recall": RECALL_TARGET,
                       "session_start_ms": SESSION_START_TARGET_MS}}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=1))
    log(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
