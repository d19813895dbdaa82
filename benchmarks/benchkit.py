"""What the benchmark scripts share: progress logging and the cache of built stores."""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CACHE_DIR = Path(__file__).resolve().parent / "results" / "cache"


def log(message: str) -> None:
    """Progress line on stderr."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def cached_store(
    name: str, n: int, key: str, build: Callable[[Path], dict[str, Any]], rebuild: bool
) -> tuple[Path, dict[str, Any]]:
    """The built store ``<name>-<n>-<key>.db`` from the cache, built by ``build`` on a miss
    (into a ``.partial`` file renamed when complete, so an interrupted build is never used)."""
    path = CACHE_DIR / f"{name}-{n}-{key}.db"
    info_path = path.with_suffix(".json")
    if not rebuild and path.exists() and info_path.exists():
        info = json.loads(info_path.read_text())
        if info.get("key") == key and info.get("rows") == n:
            log(f"store {n:,}: cached ({path.name})")
            return path, {**info, "cached": True}
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    for stale in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        stale.unlink(missing_ok=True)
    log(f"store {n:,}: building")
    info = {**build(partial), "key": key, "built": datetime.now(UTC).isoformat(timespec="seconds")}
    partial.replace(path)
    info_path.write_text(json.dumps(info, indent=1))
    return path, {**info, "cached": False}


@contextlib.contextmanager
def working_copy(path: Path) -> Iterator[Path]:
    """A scratch copy of a cached store: nothing a measurement does reaches the cache."""
    with tempfile.TemporaryDirectory(dir=CACHE_DIR, prefix="work-") as tmp:
        copy = Path(tmp) / path.name
        shutil.copyfile(path, copy)
        yield copy


@contextlib.contextmanager
def scratch_dir() -> Iterator[Path]:
    """A temporary directory on the same disk as the cache. A detached worker a benchmark's
    hooks started may still be writing in it at the end: its removal then leaves what it
    cannot remove rather than hiding the benchmark's own result or error."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE_DIR, prefix="tmp-",
                                     ignore_cleanup_errors=True) as tmp:
        yield Path(tmp)


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile ``q`` (0-100) of ``values``."""
    data = sorted(values)
    if not data:
        return float("nan")
    pos = (len(data) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def summarize(values: Sequence[float]) -> dict[str, float]:
    """Median, p95, mean, min, max and count of a series."""
    if not values:
        return {"n": 0, "median": float("nan"), "p95": float("nan")}
    return {"n": len(values), "median": statistics.median(values),
            "p95": percentile(values, 95), "mean": statistics.fmean(values),
            "min": min(values), "max": max(values)}


def rounded(values: Sequence[float], digits: int = 4) -> list[float]:
    """Raw figures rounded for the JSON file."""
    return [round(v, digits) for v in values]


def render(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table: first column left-aligned, the rest right-aligned."""
    cells = [[str(h) for h in headers], *[[cell(c) for c in row] for row in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        """One aligned row."""
        parts = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                          strict=True)]
        return "  ".join(parts).rstrip()

    rule = "-" * len(line(cells[0]))
    return "\n".join([title, rule, line(cells[0]), rule, *(line(r) for r in cells[1:]), ""])


def cell(value: object) -> str:
    """Format one table cell."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.3f}" if abs(value) < 0.1 else f"{value:.2f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def machine_info(**extra: Any) -> dict[str, Any]:
    """Where and with what the benchmark ran, plus the script's own data version."""
    import numpy
    import onnxruntime

    import kenning
    from kenning.store.base import SCHEMA_VERSION

    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpu_count": os.cpu_count(), "python": sys.version.split()[0],
        "platform": platform.platform(), "processor": platform.processor() or platform.machine(),
        "kenning": kenning.__version__, "schema_version": SCHEMA_VERSION,
        "sqlite": sqlite3.sqlite_version, "numpy": numpy.__version__,
        "onnxruntime": onnxruntime.__version__, **extra,
    }


def load_average() -> list[float]:
    """1, 5 and 15 minute load averages (empty where the platform has none)."""
    with contextlib.suppress(OSError, AttributeError):
        return [round(x, 2) for x in os.getloadavg()]
    return []


def recall_timings(k: Any, queries: Sequence[str], warmup: int) -> dict[str, Any]:
    """Facade ``recall`` (hybrid: keyword + vector + ranking + access tracking) per query after
    ``warmup`` of them; then each side alone over a quarter, to show which one grows."""
    for q in queries[:warmup]:
        k.recall(q, k=10)
    timed = queries[warmup:]
    times: list[float] = []
    for q in timed:
        t0 = time.perf_counter()
        k.recall(q, k=10)
        times.append((time.perf_counter() - t0) * 1000)
    sides: dict[str, float] = {}
    for mode in ("keyword", "vector"):
        side = []
        for q in timed[: max(1, len(timed) // 4)]:
            t0 = time.perf_counter()
            k.recall(q, k=10, mode=mode)
            side.append((time.perf_counter() - t0) * 1000)
        sides[f"{mode}_p50_ms"] = summarize(side)["median"]
    s = summarize(times)
    return {"p50_ms": s["median"], "p95_ms": s["p95"], **sides, "runs_ms": rounded(times, 3)}


def hnsw_against_exact(dsn: str, embedder_id: str, project: str, vectors: Any,
                       truth: Sequence[set[str]], warmup: Any, ef_search: int) -> dict[str, Any]:
    """recall@10 and latency of PostgreSQL's HNSW ``vector_search`` at one ``ef_search``,
    against the exact top 10 of each query vector (``truth``)."""
    from kenning.models import Filters
    from kenning.store.postgres import PostgresStore

    store = PostgresStore(dsn, ef_search=ef_search)
    try:
        for q in warmup:
            store.vector_search(q, embedder_id, Filters(project=project), 10)
        hits, times = [], []
        for q, want in zip(vectors, truth, strict=True):
            t0 = time.perf_counter()
            got = store.vector_search(q, embedder_id, Filters(project=project), 10)
            times.append((time.perf_counter() - t0) * 1000)
            hits.append(len(want & {i for i, _ in got}) / 10)
    finally:
        store.close()
    s = summarize(times)
    return {"ef_search": ef_search, "recall_at_10": sum(hits) / len(hits),
            "worst_query": min(hits), "p50_ms": s["median"], "p95_ms": s["p95"]}
