"""The hooks' append-only journal: one JSON line per session event, appended with a single
``O_APPEND`` write so parallel hooks never interleave, and readable when the store is not
(the file-only fallback). The next healthy run ingests it into the store."""

import os
import time

from kenning.hooks import fastjson

FILE = "events.jsonl"
# Past this size new events are dropped (and counted in the error log) rather than filling a disk
# when nothing has ingested the journal for a very long time.
MAX_BYTES = 64 * 1024 * 1024


def new_event_id(at_ms: int) -> str:
    """Time-ordered unique id: milliseconds, then 12 random hex digits."""
    return f"{at_ms:013x}{os.urandom(6).hex()}"


def append(directory: str, events: list[dict[str, object]]) -> None:
    """Append events (dicts with id, session_id, project, at_ms, kind, data) in one write."""
    if not events:
        return
    os.makedirs(directory, mode=0o700, exist_ok=True)
    path = os.path.join(directory, FILE)
    data = "".join(fastjson.dumps(e) + "\n" for e in events).encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        if os.fstat(fd).st_size > MAX_BYTES:
            raise OSError(f"hook journal {path} is over {MAX_BYTES} bytes; run kenning doctor")
        os.write(fd, data)
    finally:
        os.close(fd)


def claim(directory: str) -> list[str]:
    """Move the live journal aside for ingestion (an atomic rename, so appends that race with
    it land either in the claimed file or in a new live one) and return every claimed file,
    including any left by an ingestion that died half-way."""
    live = os.path.join(directory, FILE)
    claimed = os.path.join(directory, f"claimed-{new_event_id(time.time_ns() // 1_000_000)}.jsonl")
    try:  # noqa: SIM105 - contextlib is not worth its import on a hook's path
        os.replace(live, claimed)
    except FileNotFoundError:
        pass
    try:
        names = sorted(n for n in os.listdir(directory) if n.startswith("claimed-"))
    except FileNotFoundError:
        return []
    return [os.path.join(directory, n) for n in names]


def read(path: str) -> tuple[list[dict[str, object]], int]:
    """Events in a claimed file, and how many lines were unreadable (a torn last line)."""
    events: list[dict[str, object]] = []
    bad = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                value = fastjson.loads(line)
            except ValueError:
                bad += 1
                continue
            if isinstance(value, dict) and {"id", "session_id", "kind", "at_ms"} <= value.keys():
                events.append(value)
            else:
                bad += 1
    return events, bad
