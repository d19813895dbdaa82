"""What the benchmark scripts share: progress logging and the cache of built stores."""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
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
    """A temporary directory on the same disk as the cache."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE_DIR, prefix="tmp-") as tmp:
        yield Path(tmp)
