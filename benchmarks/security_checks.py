"""The sections of ``bench_security.py`` that set up their own world: symbolic links leading
out of a project, the dashboard under a cross-site write and a huge body, and a PostgreSQL
server killed under writers. Each returns plain figures for the table and the JSON."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def confinement() -> dict[str, Any]:
    """Symbolic links in a project (and in the client's config dir) that lead elsewhere: how
    many files each write path put outside, and whether it said why."""
    from kenning import Kenning

    out: dict[str, Any] = {}
    cases = {
        "project agent-memory -> outside": ("project:reviewer", ".claude/agent-memory"),
        "local agent-memory -> outside": ("local:reviewer", ".claude/agent-memory-local"),
        "auto memory dir -> outside": (None, None),
    }
    for name, (scope, link) in cases.items():
        with tempfile.TemporaryDirectory(prefix="kconf-") as tmp:
            root = Path(tmp)
            project, outside, config = root / "project", root / "outside", root / "config"
            for d in (project, outside, config):
                d.mkdir()
            subprocess.run(["git", "init", "-q", str(project)], check=True)
            saved = dict(os.environ)
            os.environ.update(CLAUDE_CONFIG_DIR=str(config), KENNING_HOME=str(root / "kh"))
            error = None
            try:
                with Kenning(root / "k.db", project="conf", embedder=None) as k:
                    for n in range(6):
                        fields: dict[str, Any] = {"type": "pattern", "confidence": 0.9}
                        if scope:
                            fields.update(scope="project" if scope.startswith("project")
                                          else "local", agent="reviewer")
                        k.remember(f"Migration {n} needs an index on the foreign key", **fields)
                    if link is not None:
                        target = project / link
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.symlink_to(outside, target_is_directory=True)
                    else:
                        target = k.auto_memory_dir(project)
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.symlink_to(outside, target_is_directory=True)
                    try:
                        k.auto_sync(project, scope=scope)
                    except Exception as exc:  # the refusal, with its message
                        error = f"{type(exc).__name__}: {exc}"
            finally:
                os.environ.clear()
                os.environ.update(saved)
            written = [str(p.relative_to(outside)) for p in outside.rglob("*") if p.is_file()]
            out[name] = {"files_outside": len(written), "refused": error is not None,
                         "message": (error or "")[:200]}
    out["files_outside_total"] = sum(v["files_outside"] for v in out.values()
                                     if isinstance(v, dict))
    return out


def dashboard(sizes_mb: tuple[int, ...] = (50,)) -> dict[str, Any]:
    """Against the dashboard served by uvicorn on loopback with writes allowed: whether a
    cross-site write without Origin is accepted, and the time and peak memory a large body
    costs the server."""
    import json
    import urllib.error
    import urllib.request

    from kenning import Kenning
    from tests.web_fixtures import PROJECT, running_server

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="kweb-") as tmp:
        db = Path(tmp) / "k.db"
        with Kenning(db, project=PROJECT, embedder=None) as k:
            a = k.remember("The ledger uses SERIALIZABLE isolation")
            b = k.remember("The ledger retries serialisation failures")
            k.link(a.id, b.id, "requires")
        with running_server(db, allow_writes=True) as base:

            def post(body: bytes, headers: dict[str, str]) -> tuple[int, float]:
                req = urllib.request.Request(
                    f"{base}/api/relationships/merge", data=body, method="POST",
                    headers={"Content-Type": "application/json", **headers})
                t0 = time.perf_counter()
                try:
                    with urllib.request.urlopen(req, timeout=600) as resp:
                        status = resp.status
                except urllib.error.HTTPError as exc:
                    status = exc.code
                except (ConnectionError, urllib.error.URLError):
                    status = 0  # the server closed the connection on a refused body
                return status, time.perf_counter() - t0

            small = json.dumps({"word": "requires", "into": "needs"}).encode()
            status, _ = post(small, {})
            out["write_without_origin_status"] = status
            out["write_without_origin_accepted"] = status == 200
            status, _ = post(small, {"Origin": "http://evil.example"})
            out["write_from_other_origin_status"] = status
            rss = _Peak()
            for mb in sizes_mb:
                body = b'{"word": "' + b"w" * (mb * 1_000_000) + b'", "into": "x"}'
                with rss:
                    status, seconds = post(body, {"Origin": base})
                out[f"body_{mb}mb_status"] = status
                out[f"body_{mb}mb_seconds"] = round(seconds, 3)
                out[f"body_{mb}mb_server_rss_growth_mb"] = round(rss.growth / 1e6, 1)
    return out


class _Peak:
    """Peak growth of this process's resident memory while the block runs (the server runs
    in a thread of this process)."""

    def __enter__(self) -> _Peak:
        import psutil

        self._proc = psutil.Process()
        self._base = self._proc.memory_info().rss
        self._peak = self._base
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def _watch(self) -> None:
        while not self._stop.is_set():
            self._peak = max(self._peak, self._proc.memory_info().rss)
            time.sleep(0.02)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def growth(self) -> int:
        return self._peak - self._base


def postgres_outage(writers: int, down_s: float) -> dict[str, Any]:
    """Writers against a server killed with SIGKILL and started again ``down_s`` later."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.pg_outage import outage

    res = outage(writers, down_s)
    back = [r for r in res["recovery_s"] if r is not None]
    calls = res["call_s_during_outage"]
    res["recovery_s_max"] = max(back) if back else None
    res["recovery_s_median"] = statistics.median(back) if back else None
    res["call_s_during_outage_max"] = max(calls) if calls else None
    return res
