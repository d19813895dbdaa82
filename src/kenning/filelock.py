"""An advisory lock on a directory, so one process at a time ingests a journal or rewrites a
file; the others skip (the work is idempotent) instead of queueing behind it."""

from __future__ import annotations

import os


class DirLock:
    def __init__(self, directory: str | os.PathLike[str], name: str = ".lock") -> None:
        self.path = os.path.join(os.fspath(directory), name)
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock without waiting; False when another process holds it."""
        os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: the work is idempotent anyway
            self._fd = fd
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock
            self._fd = None
