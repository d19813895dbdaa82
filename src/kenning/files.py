"""Atomic file writes: a temp file in the same directory, fsync, then rename over the target,
so a reader sees the old bytes or the new ones, never half of either; and the check that a
directory Kenning writes into stays inside the place it belongs to."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from kenning.errors import ValidationError


def confined(path: Path, root: Path, what: str) -> Path:
    """``path`` after checking that its real location (every symbolic link on the way
    followed) is ``root``'s real location or inside it; else a ValidationError that says where
    it leads. A repository may hold a symbolic link (``.claude/agent-memory -> ~``) that would
    otherwise make Kenning write wherever the link points."""
    real_root = root.resolve()
    real = path.resolve()
    if real != real_root and real_root not in real.parents:
        raise ValidationError(
            f"refusing to write {what} {path}: it leads to {real} through a symbolic link, "
            f"outside {real_root}; remove or fix the link")
    return path


def atomic_write_bytes(path: Path, data: bytes, mode: int | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
