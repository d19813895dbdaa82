"""The hooks' append-only journal: one JSON line per session event, appended with a single
``O_APPEND`` write so parallel hooks never interleave, and readable when the store is not
(the file-only fallback). The next healthy run ingests it into the store; a line it cannot
ingest is set aside in the quarantine beside it rather than holding up the lines after it."""

import os
import time

from kenning.journal import fastjson

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


def _memories_ok(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(m, dict) and isinstance(m.get("id"), str) and m["id"]
        and isinstance(m.get("score", 0), int | float) and isinstance(m.get("parts", {}), dict)
        for m in value)


# What ingestion and the code reading stored events (learning, checkpoints, the injection log)
# rely on in each kind's data: a field that is present must have its type.
_DATA_TYPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "injected": {"memories": list, "matched": list, "prompt_id": (str, type(None)),
                 "channel": str},
    "tool": {"tool": str, "ok": bool, "file": str, "cmd": str, "tool_use_id": str},
    "subagent": {"report": str, "agent_id": str, "agent_type": str,
                 "agent_transcript_path": str},
    "remember": {"text": str},
}


def problem(value: object) -> str | None:
    """Why a parsed journal line is not an event ingestion can store, or None when it is: the
    envelope's types (``id``, ``kind`` non-empty strings, ``session_id`` a string, ``at_ms`` an
    integer, ``data`` an object, ``project`` and ``cwd`` strings when present) and the fields
    each kind's readers use."""
    if not isinstance(value, dict):
        return "not a JSON object"
    for key in ("id", "kind"):
        if not isinstance(value.get(key), str) or not value[key]:
            return f"{key} must be a non-empty string"
    if not isinstance(value.get("session_id"), str):
        return "session_id is not a string"
    at = value.get("at_ms")
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < 2**53:
        return "at_ms is not a time in milliseconds"
    for key in ("project", "cwd"):
        if key in value and not isinstance(value[key], str):
            return f"{key} is not a string"
    data = value.get("data", {})
    if not isinstance(data, dict):
        return f"data is {type(data).__name__}, not an object"
    kind = str(value["kind"])
    if kind == "tool" and ("at" in data or "kind" in data):
        return "tool data names a step field (at or kind)"
    if kind == "remember" and not isinstance(data.get("text"), str):
        return "a pending memory without text"
    for key, types in _DATA_TYPES.get(kind, {}).items():
        if key in data and not isinstance(data[key], types):
            return f"data.{key} has the wrong type for a {kind} event"
    if kind == "injected" and not _memories_ok(data.get("memories", [])):
        return "data.memories is not a list of memories with ids"
    if kind == "injected" and not all(isinstance(x, str) for x in data.get("matched", [])):
        return "data.matched is not a list of strings"
    return None


def scan(path: str) -> tuple[list[tuple[str, dict[str, object]]], list[tuple[str, str]]]:
    """A claimed file's lines: ``(line, event)`` for each event ingestion can store, its strings
    made storable (journals written before the hooks cleaned their input may hold lone
    surrogates or NUL), and ``(line, why)`` for each line that is not one (a torn last line,
    a wrong type)."""
    events: list[tuple[str, dict[str, object]]] = []
    rejects: list[tuple[str, str]] = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            try:
                value = fastjson.loads(line)
            except ValueError as exc:
                rejects.append((line, f"not JSON: {exc}"))
                continue
            if fastjson.suspect(line):
                value = fastjson.clean(value)
            why = problem(value)
            if why is not None:
                rejects.append((line, why))
                continue
            assert isinstance(value, dict)
            value.setdefault("data", {})
            events.append((line, value))
    return events, rejects


def read(path: str) -> tuple[list[dict[str, object]], int]:
    """Events in a claimed file, and how many lines were not events (``scan`` says why)."""
    events, rejects = scan(path)
    return [e for _, e in events], len(rejects)


QUARANTINE = "quarantine.jsonl"
# The quarantine keeps the newest entries: past MAX_QUARANTINE_BYTES it is cut to three
# quarters of that, so a flood of bad events can neither fill a disk nor rewrite it each time.
MAX_QUARANTINE_BYTES = 4 * 1024 * 1024
MAX_QUARANTINED_LINE = 64 * 1024


def quarantine(directory: str, rejects: list[tuple[str, str]], now_ms: int) -> None:
    """Set journal lines that cannot be ingested aside beside the journal, each with why and
    when (``{"at_ms", "error", "line"}``, the line redacted and cut to 64 KB), so ingestion
    carries on past them and ``kenning doctor`` can show them."""
    if not rejects:
        return
    from kenning.redact import redact  # ingestion's path, never a per-event hook's

    os.makedirs(directory, mode=0o700, exist_ok=True)
    path = os.path.join(directory, QUARANTINE)
    data = "".join(fastjson.dumps({
        "at_ms": now_ms, "error": redact(error[:2000]).text,
        "line": _redacted_line(line[:MAX_QUARANTINED_LINE]),
        **({"truncated": True} if len(line) > MAX_QUARANTINED_LINE else {}),
    }) + "\n" for line, error in rejects).encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, data)
        size = os.fstat(fd).st_size
    finally:
        os.close(fd)
    if size > MAX_QUARANTINE_BYTES:
        _trim(path, MAX_QUARANTINE_BYTES * 3 // 4)


def _redacted_line(line: str) -> str:
    """A journal line redacted: a line that is JSON is redacted as its decoded strings (the
    escapes of a JSON string hide a secret's edges from the detectors), then encoded again."""
    from kenning.redact import redact, redact_obj

    try:
        value = fastjson.loads(line)
    except ValueError:
        return redact(line).text
    red, count = redact_obj(value)
    return fastjson.dumps(red) if count else line


def _trim(path: str, keep: int) -> None:
    """Keep the newest whole lines of ``path`` that fit in ``keep`` bytes (an atomic replace)."""
    with open(path, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    kept: list[bytes] = []
    total = 0
    for line in reversed(lines):
        if total + len(line) > keep:
            break
        kept.append(line)
        total += len(line)
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, b"".join(reversed(kept)))
    finally:
        os.close(fd)
    os.replace(tmp, path)


def quarantined(directory: str) -> dict[str, object]:
    """The quarantine at a glance: its path, how many events it holds, the newest one's error
    and time (None when it is empty)."""
    path = os.path.join(directory, QUARANTINE)
    count, newest = 0, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.strip():
                    count += 1
                    newest = line
    except FileNotFoundError:
        pass
    entry: object = None
    if newest is not None:
        try:
            entry = fastjson.loads(newest)
        except ValueError:
            entry = None
    last = entry if isinstance(entry, dict) else {}
    return {"path": path, "events": count, "newest_error": last.get("error"),
            "newest_at_ms": last.get("at_ms")}
