"""Kenning's one home of OS-level file locking: an exclusive advisory lock on one lock file
(``fcntl.flock`` on POSIX, ``msvcrt.locking`` of its first byte on Windows), taken without
waiting, waiting, or waiting up to a timeout. Closing the file, or the process dying, drops it.

``DirLock`` is the directory form: one process at a time ingests a journal or rewrites a file;
the others skip (the work is idempotent) instead of queueing behind it."""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt
else:
    import fcntl

POLL_S = 0.02  # how often a lock with a timeout tries again


def _try(fd: int) -> bool:
    """Take the lock on ``fd`` without waiting; False when another process holds it."""
    if sys.platform == "win32":  # pragma: no cover
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _wait(fd: int) -> None:
    """Take the lock on ``fd``, waiting until it is free (on Windows ``msvcrt`` gives up with
    OSError after ten tries a second apart)."""
    if sys.platform == "win32":  # pragma: no cover
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
    else:
        fcntl.flock(fd, fcntl.LOCK_EX)


def _unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)


class FileLock:
    """An exclusive lock on the file at ``path`` (created when missing, mode 0600).

    ``acquire(None)`` waits until it is free, ``acquire(0)`` tries once, ``acquire(t)`` tries
    every 20 ms until ``t`` seconds have passed; each returns whether the lock is now held. As a
    context manager it waits (``acquire(None)``) and releases on exit."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._fd: int | None = None

    def acquire(self, timeout_s: float | None = None) -> bool:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if timeout_s is None:
                _wait(fd)
            else:
                deadline = time.monotonic() + timeout_s
                while not _try(fd):
                    if timeout_s <= 0 or time.monotonic() > deadline:
                        os.close(fd)
                        return False
                    time.sleep(POLL_S)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                _unlock(fd)
            finally:
                os.close(fd)

    def __enter__(self) -> None:
        self.acquire(None)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


class DirLock(FileLock):
    """The lock file ``name`` in ``directory`` (created, mode 0700, when missing), taken without
    waiting: whoever finds it held skips the work."""

    def __init__(self, directory: str | os.PathLike[str], name: str = ".lock") -> None:
        super().__init__(os.path.join(os.fspath(directory), name))

    def acquire(self, timeout_s: float | None = 0) -> bool:
        """Take the lock without waiting (by default); False when another process holds it."""
        os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
        return super().acquire(timeout_s)
