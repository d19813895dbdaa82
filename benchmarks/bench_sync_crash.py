"""Killed syncs: ``auto_sync`` interrupted by SIGKILL at random points, then completed.

Run ``python benchmarks/bench_sync_crash.py [--kills 100] [--memories 300] [--out PATH]``.

One SQLite store of seeded memories and one Claude Code auto memory directory. Each round
changes the store the way sessions do (texts rewritten, memories added, forgotten, or falling
below the sync threshold), starts a sync in a child process and, once the child says the sync
has begun, kills it with SIGKILL after a random delay drawn from the length of an uninterrupted
sync (a sync that finishes first is counted and the round repeated until ``--kills`` syncs were
killed mid-way). After every round the next sync
starts from whatever the killed one left. At the end one more sync runs to completion, and the
directory is compared with a clean sync of the same store into an empty directory:

- ``detached``: memories the bridge believes a person took over (nobody edited any file);
- ``missing``: memories a clean sync writes a file for that have no file here;
- ``stray``: Kenning's files here that a clean sync would not have (never cleaned up);
- ``orphaned_tmp``: temp files left in the directory;
- ``index_differs``: whether MEMORY.md differs from the clean sync's;
- ``topic_files_differ``: topic files (``--layout topic-files``) that differ from the clean
  sync's.

The target is 0 for each. Prints a table and writes ``results/sync-crash.json`` (or
``--out``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchkit import load_average, log, machine_info, render, summarize

from kenning import Kenning
from kenning.automemory.files import split_frontmatter
from kenning.automemory.state import load_state
from kenning.models import Filters

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "sync-crash.json"
SEED = 20_261_123
NOW_MS = 1_780_000_000_000
TOPICS = ("auth", "cache", "deploy", "schema", "queue", "lint", "tests", "build", "logging")

CHILD = r"""
import sys
from pathlib import Path
from kenning import Kenning
k = Kenning(sys.argv[1], project="bench", embedder=None, clock=lambda: int(sys.argv[3]))
sys.stdout.write("go\n"); sys.stdout.flush()
k.auto_sync(Path(sys.argv[2]))
k.close()
"""


def text(rng: random.Random, i: int, rev: int) -> str:
    words = " ".join(rng.choice(("retry", "index", "token", "flag", "queue", "schema",
                                 "migration", "worker", "cache", "timeout")) for _ in range(12))
    return f"Lesson {i} (rev {rev}): {words}"


def seed_store(db: Path, n: int, rng: random.Random) -> None:
    with Kenning(db, project="bench", embedder=None, clock=lambda: NOW_MS) as k:
        k.remember_many([{
            "text": text(rng, i, 0), "type": rng.choice(("decision", "pattern", "gotcha")),
            "topic": rng.choice(TOPICS), "confidence": round(rng.uniform(0.6, 1.0), 3),
            "created_at": NOW_MS - rng.randint(0, 40) * 86_400_000,
        } for i in range(n)])


def mutate(db: Path, rng: random.Random, now: int, counter: list[int]) -> None:
    """What sessions do between syncs: rewrite, add, forget, lower and raise memories."""
    with Kenning(db, project="bench", embedder=None, clock=lambda: now) as k:
        live = k.store.list(Filters(project="bench"), limit=None)
        rng.shuffle(live)
        for m in live[:12]:
            counter[0] += 1
            k.update(m.id, text=text(rng, counter[0], counter[0]))
        for m in live[12:16]:
            k.forget(m.id)
        for m in live[16:20]:
            k.update(m.id, confidence=0.5 if m.confidence >= 0.7 else 0.9)
        for _ in range(6):
            counter[0] += 1
            k.remember(text(rng, counter[0], 0), type="decision", topic=rng.choice(TOPICS),
                       confidence=0.9)


def child(db: Path, repo: Path, env: dict[str, str], now: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(repo), str(now)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_sync(db: Path, repo: Path, env: dict[str, str], now: int) -> float:
    """An uninterrupted sync in a child; seconds from its "go" to its exit."""
    p = child(db, repo, env, now)
    assert p.stdout is not None
    p.stdout.readline()
    t = time.perf_counter()
    _, err = p.communicate()
    if p.returncode:
        raise RuntimeError(f"sync failed: {err.strip()}")
    return time.perf_counter() - t


def kenning_files(directory: Path) -> dict[str, str]:
    """Kenning id -> file name for the memory files in ``directory``."""
    out = {}
    for p in directory.glob("*.md"):
        fm, _ = split_frontmatter(p.read_text(encoding="utf-8", errors="replace"))
        meta = (fm or {}).get("metadata")
        if isinstance(meta, dict) and isinstance(meta.get("kenning_id"), str):
            out[meta["kenning_id"]] = p.name
    return out


def _text(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def measure(db: Path, repo: Path, home: Path, env: dict[str, str], now: int) -> dict[str, Any]:
    """Compare the crashed directory (after one completed sync) with a clean sync."""
    run_sync(db, repo, env, now)
    with Kenning(db, project="bench", embedder=None, clock=lambda: now) as k:
        crashed_dir = k.auto_memory_dir(repo)
        state = load_state(k.store, crashed_dir)
    clean_repo = home / "clean_repo"
    (clean_repo / ".git").mkdir(parents=True, exist_ok=True)
    clean_db = home / "clean.db"
    import shutil
    import sqlite3

    src = sqlite3.connect(db)
    dst = sqlite3.connect(clean_db)
    src.backup(dst)
    src.close()
    dst.close()
    run_sync(clean_db, clean_repo, env, now)
    with Kenning(clean_db, project="bench", embedder=None, clock=lambda: now) as k:
        clean_dir = k.auto_memory_dir(clean_repo)
    crashed = kenning_files(crashed_dir)
    clean = kenning_files(clean_dir)
    per_fact = set(crashed.values()) | set(clean.values()) | {"MEMORY.md"}
    others = {p.name for d in (crashed_dir, clean_dir) for p in d.glob("*.md")} - per_fact
    topic_differs = sorted(n for n in others if _text(crashed_dir / n) != _text(clean_dir / n))
    index_here = (crashed_dir / "MEMORY.md").read_text()
    index_clean = (clean_dir / "MEMORY.md").read_text()
    tmp = sorted(p.name for p in crashed_dir.iterdir() if p.name.endswith(".tmp"))
    shutil.rmtree(clean_dir)
    clean_db.unlink()
    return {
        "detached": len(state.detached),
        "missing": len(set(clean) - set(crashed)),
        "stray": len(set(crashed) - set(clean)),
        "orphaned_tmp": len(tmp),
        "index_differs": index_here != index_clean,
        "topic_files_differ": len(topic_differs), "topic_files": len(others),
        "files": len(crashed), "clean_files": len(clean),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--memories", type=int, default=300)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--layout", default="per-fact", choices=("per-fact", "topic-files"),
                    help="[auto_memory] layout of every sync")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    load_start = load_average()
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kenning-crash-") as tmp:
        home = Path(tmp)
        env = dict(os.environ, HOME=str(home), KENNING_HOME=str(home / "kh"),
                   KENNING_EMBEDDER="none", KENNING_AUTO_MEMORY_LAYOUT=args.layout)
        env.pop("CLAUDE_CONFIG_DIR", None)
        env.pop("KENNING_DB", None)
        os.environ.update(HOME=env["HOME"], KENNING_HOME=env["KENNING_HOME"],
                          KENNING_AUTO_MEMORY_LAYOUT=args.layout)
        os.environ.pop("CLAUDE_CONFIG_DIR", None)
        repo = home / "repo"
        (repo / ".git").mkdir(parents=True)
        db = home / "k.db"
        seed_store(db, args.memories, rng)
        counter = [args.memories]
        now = NOW_MS
        durations = [run_sync(db, repo, env, now)]
        for _ in range(2):
            now += 60_000
            mutate(db, rng, now, counter)
            durations.append(run_sync(db, repo, env, now))
        span = max(durations[1:])
        log(f"uninterrupted sync after a round of changes: {span * 1000:.0f} ms; "
            f"{args.kills} kills follow")
        killed = finished = 0
        delays = []
        while killed < args.kills and finished < 10 * args.kills:
            now += 60_000
            mutate(db, rng, now, counter)
            p = child(db, repo, env, now)
            assert p.stdout is not None
            p.stdout.readline()
            delay = rng.uniform(0.0, span)
            delays.append(delay)
            time.sleep(delay)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
            p.communicate()
            if p.returncode != -signal.SIGKILL:
                finished += 1
                continue
            killed += 1
            if killed % 20 == 0:
                log(f"{killed}/{args.kills} syncs killed ({finished} finished first)")
        now += 60_000
        result = measure(db, repo, home, env, now)
    report = {
        "machine": machine_info(), "load_start": load_start, "load_end": load_average(),
        "args": {"kills": args.kills, "memories": args.memories, "seed": args.seed,
                 "layout": args.layout},
        "sync_s": summarize(durations[1:]), "delays_s": summarize(delays),
        "rounds_killed": killed, "rounds_finished_before_kill": finished,
        **result, "elapsed_s": round(time.perf_counter() - t_all, 1),
    }
    rows = [(name, report[name], 0) for name in ("detached", "missing", "stray", "orphaned_tmp")]
    rows.append(("index_differs", report["index_differs"], False))
    rows.append(("topic_files_differ", report["topic_files_differ"], 0))
    print(render(f"sync killed by SIGKILL mid-way {killed} times ({finished} finished first; "
                 f"{args.memories} memories, layout {args.layout}: {result['clean_files']} "
                 f"memory files, {result['topic_files']} topic files)",
                 ("after the next sync", "value", "target"), rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, default=str) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
