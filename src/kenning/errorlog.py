"""An append-only log of internal errors (hooks fail open and land here); ``doctor`` shows it.
Every line is redacted: an exception's message and trace can quote the data that failed."""

from __future__ import annotations

import json
import os
import traceback
from pathlib import Path
from typing import Any

from kenning.places.paths import data_dir
from kenning.times import now_ms

MAX_BYTES = 1_000_000


def log_path() -> Path:
    return data_dir() / "errors.jsonl"


def log_error(where: str, exc: BaseException) -> None:
    """Append one JSON line; never raises (a broken log must not break the caller)."""
    try:
        entry = {"at_ms": now_ms(), "where": where, "error": f"{type(exc).__name__}: {exc}",
                 "trace": traceback.format_exception(exc)[-3:]}
    except Exception:
        return
    _append(entry)


def log_notice(where: str, message: str) -> None:
    """Append a decision worth a second look (no failure: ``notice`` is set), which ``doctor``
    lists with the errors; never raises."""
    try:
        entry = {"at_ms": now_ms(), "where": where, "error": message, "notice": True}
    except Exception:
        return
    _append(entry)


def _append(entry: dict[str, Any]) -> None:
    try:
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        from kenning.redact import redact_obj

        clean, _ = redact_obj(entry)
        line = (json.dumps(clean, ensure_ascii=False) + "\n").encode()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
        if path.stat().st_size > MAX_BYTES:
            _trim(path)
    except Exception:
        pass


def _trim(path: Path) -> None:
    data = path.read_bytes()[-MAX_BYTES // 2 :]
    data = data[data.find(b"\n") + 1 :]
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def recent_errors(limit: int = 5) -> list[dict[str, Any]]:
    """The last ``limit`` logged errors, newest last."""
    path = log_path()
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()[-limit:]
    out = []
    for ln in lines:
        try:
            out.append(json.loads(ln))
        except ValueError:
            continue
    return out
