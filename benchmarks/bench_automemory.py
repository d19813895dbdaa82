"""Auto memory bridge benchmark: sync, import and curate times at 1k and 10k memories.

Run ``python benchmarks/bench_automemory.py [--sizes 1000,10000] [--runs 5] [--out PATH]``.
Each size gets a fresh SQLite store of seeded memories (mixed types, confidences 0.5-1.0,
multi-byte text) with PageRank computed by ``consolidate()``, and a temp Claude config dir.
Timed (medians over runs, every raw value kept in the JSON):

- ``sync_cold``: ``auto_sync`` into an empty memory directory (writes up to ``max_files`` files
  and MEMORY.md);
- ``sync_noop``: ``auto_sync`` again with nothing changed (must write no byte);
- ``curate``: ``curate_preview`` (choose and render MEMORY.md, no writes);
- ``curate_pure``: the pure ``curate_index`` over every eligible memory;
- ``import_cold``: ``auto_import`` of a directory holding ``n`` client-format memory files and a
  200-line MEMORY.md into an empty store (``n`` new memories, keyword-only store: no embedder);
- ``import_noop``: the same import again (nothing changed: no file is parsed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchkit import load_average, log, machine_info, render, rounded, scratch_dir, summarize

from kenning import Kenning
from kenning.automemory.curate import Candidate, curate_index
from kenning.automemory.files import render_memory_file
from kenning.automemory.options import AutoMemoryOptions
from kenning.models import Filters

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "automemory.json"
SEED = 20_261_122
NOW_MS = 1_780_000_000_000
TYPES = ("decision", "pattern", "gotcha", "insight", "preference", "context")
WORDS = ("cache", "auth", "retry", "schema", "index", "queue", "deploy", "flag", "token", "lint",
         "データベース", "接続", "über", "naïve", "🚀")


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def build(path: Path, n: int) -> Kenning:
    rng = random.Random(SEED + n)
    k = Kenning(path, project="bench", embedder=None, clock=lambda: NOW_MS)
    items = [{
        "text": f"{i}: {sentence(rng, rng.randint(6, 40))}",
        "type": rng.choice(TYPES), "topic": f"topic_{i % 97}",
        "confidence": round(rng.uniform(0.5, 1.0), 3),
        "created_at": NOW_MS - rng.randint(0, 90) * 86_400_000,
    } for i in range(n)]
    for start in range(0, n, 1000):
        k.remember_many(items[start:start + 1000])
    k.consolidate()
    return k


def client_dir(directory: Path, n: int) -> None:
    rng = random.Random(SEED)
    directory.mkdir(parents=True)
    pointers = []
    for i in range(n):
        name = f"fact-{i:05d}"
        (directory / f"{name}.md").write_text(render_memory_file(
            name, sentence(rng, 8), rng.choice(("user", "feedback", "project", "reference")),
            f"{i}: {sentence(rng, 30)}"), encoding="utf-8")
        if i < 200:
            pointers.append(f"- [{name}]({name}.md) — {sentence(rng, 6)}")
    (directory / "MEMORY.md").write_text("\n".join(pointers) + "\n", encoding="utf-8")


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t) * 1000, out


def bench_size(n: int, runs: int, work: Path) -> dict[str, Any]:
    log(f"{n:,} memories: building")
    k = build(work / f"store-{n}.db", n)
    repo = work / f"repo-{n}"
    (repo / ".git").mkdir(parents=True)
    opts = AutoMemoryOptions()
    raw: dict[str, list[float]] = {k_: [] for k_ in (
        "sync_cold", "sync_noop", "curate", "curate_pure", "import_cold", "import_noop")}
    facts: dict[str, Any] = {}
    for run in range(runs):
        os.environ["CLAUDE_CONFIG_DIR"] = str(work / f"cfg-{n}-{run}")
        ms, r = timed(lambda: k.auto_sync(repo, opts))
        raw["sync_cold"].append(ms)
        facts.update(lines=r["lines"], bytes=r["bytes"], files_written=r["files_written"],
                     memories_in_index=r["memories_in_index"])
        ms, r2 = timed(lambda: k.auto_sync(repo, opts))
        assert r2["files_written"] == 0 and not r2["index_changed"], "sync is not idempotent"
        raw["sync_noop"].append(ms)
        ms, p = timed(lambda: k.curate_preview(repo, opts))
        assert p["text"] == Path(r["path"]).read_text(encoding="utf-8"), "preview differs"
        raw["curate"].append(ms)
    eligible = [m for m in k.store.list(Filters(project="bench"), limit=None)
                if m.confidence >= opts.min_confidence]
    scores = k.store.graph_scores()
    cands = [Candidate(m.id, f"- [{m.topic}](f.md) — {m.summary}", m.category.value,
                       m.confidence, scores.get(m.id, (0.0, 0))[0], m.updated_at)
             for m in eligible]
    for _ in range(runs):
        ms, _out = timed(lambda: curate_index(cands, [], NOW_MS, opts))
        raw["curate_pure"].append(ms)
    k.close()

    src = work / f"client-{n}"
    client_dir(src, n)
    os.environ["CLAUDE_CONFIG_DIR"] = str(work / f"cfg-import-{n}")
    for run in range(runs):
        ki = Kenning(work / f"import-{n}-{run}.db", project="bench", embedder=None,
                     clock=lambda: NOW_MS)
        target = ki.auto_memory_dir(repo)
        if run == 0:
            target.parent.mkdir(parents=True, exist_ok=True)
            src.rename(target)
        ms, r = timed(lambda ki=ki: ki.auto_import(repo, opts))
        assert r["imported"] == n, r
        raw["import_cold"].append(ms)
        ms, r = timed(lambda ki=ki: ki.auto_import(repo, opts))
        assert r["imported"] == 0 and r["unchanged"] == n + 1, r
        raw["import_noop"].append(ms)
        ki.close()
    log(f"{n:,} memories: done")
    return {"n": n, "eligible": len(eligible), **facts,
            "median_ms": {k_: round(summarize(v)["median"], 2) for k_, v in raw.items()},
            "raw_ms": {k_: rounded(v, 2) for k_, v in raw.items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    load_before = load_average()
    with scratch_dir() as work:
        results = [bench_size(n, args.runs, work) for n in sizes]
    rows = [[f"{r['n']:,}", r["median_ms"]["sync_cold"], r["median_ms"]["sync_noop"],
             r["median_ms"]["curate"], r["median_ms"]["curate_pure"],
             r["median_ms"]["import_cold"], r["median_ms"]["import_noop"], r["lines"],
             r["bytes"]] for r in results]
    print(render("Auto memory bridge (median ms)",
                 ["memories", "sync cold", "sync no-op", "curate", "curate pure", "import cold",
                  "import no-op", "lines", "bytes"], rows))
    out = {"benchmark": "automemory", "machine": machine_info(
        load_before=load_before, load_after=load_average(), runs=args.runs),
        "options": AutoMemoryOptions().to_dict(), "results": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
