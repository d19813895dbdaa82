"""What the bridge remembers between processes about one memory directory, kept in the store's
meta table: file fingerprints, which files, entries and MEMORY.md lines Kenning wrote, the
writes it has begun, and a lock."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kenning.automemory.files import sha
from kenning.errors import KenningError
from kenning.filelock import FileLock
from kenning.places.paths import data_dir
from kenning.store.base import Store


@dataclass
class DirState:
    """Per-directory bridge state (JSON in meta under ``automemory:<dir hash>``)."""

    dir: str
    files: dict[str, list[Any]] = field(default_factory=dict)  # name -> [mtime_ns, size, sha]
    sources: dict[str, list[str]] = field(default_factory=dict)  # name -> imported memory ids
    owned: dict[str, str] = field(default_factory=dict)  # name -> sha of the bytes we wrote
    synced: dict[str, str] = field(default_factory=dict)  # memory id -> file name
    own_lines: list[str] = field(default_factory=list)  # sha of MEMORY.md lines we wrote
    dropped_lines: list[str] = field(default_factory=list)  # person's lines left out for room
    detached: list[str] = field(default_factory=list)  # ids whose file a person took over
    topics: list[str] = field(default_factory=list)  # files read as topic files
    entries: dict[str, list[str]] = field(default_factory=dict)  # topic file -> our entries' sha
    # Writes begun and not known to be finished (see ``kenning.automemory.writes``):
    # name -> [sha before, sha after, owned before, kind, what Kenning owned of it before]
    pending: dict[str, list[Any]] = field(default_factory=dict)
    imported_at: int | None = None
    synced_at: int | None = None
    curated_at: int | None = None


def state_key(directory: Path) -> str:
    return f"automemory:{sha(str(directory))}"


def load_state(store: Store, directory: Path) -> DirState:
    raw = store.get_meta(state_key(directory))
    if raw:
        with contextlib.suppress(ValueError, TypeError):
            data = json.loads(raw)
            known = DirState.__dataclass_fields__
            return DirState(**{k: v for k, v in data.items() if k in known})
    return DirState(dir=str(directory))


def save_state(store: Store, directory: Path, state: DirState) -> None:
    store.set_meta(state_key(directory), json.dumps(asdict(state), separators=(",", ":")))


def fingerprint(path: Path, digest: str) -> list[Any]:
    st = path.stat()
    return [st.st_mtime_ns, st.st_size, digest]


@contextlib.contextmanager
def dir_lock(directory: Path, timeout_s: float) -> Iterator[None]:
    """One bridge writer per memory directory across processes (a lock file in Kenning's data
    dir, never a file in the client's directory), waiting up to ``timeout_s``."""
    lock_dir = data_dir() / "locks"
    lock_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(lock_dir / f"automemory-{sha(str(directory))}.lock")
    if not lock.acquire(timeout_s):
        raise KenningError(f"{directory} is busy: another Kenning process is syncing it")
    try:
        yield
    finally:
        lock.release()
