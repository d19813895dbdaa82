"""kenning.filelock, the one file-lock helper: trying, waiting and waiting up to a timeout, and
its three users (the journal's DirLock, the auto-memory bridge's dir_lock, the findings lock).
A raw ``fcntl.flock`` stands for another process, including one running older Kenning code."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from kenning.automemory.files import sha
from kenning.automemory.state import dir_lock
from kenning.errors import KenningError
from kenning.filelock import DirLock, FileLock
from kenning.findings import lock, lock_file
from kenning.places.paths import data_dir

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="holds locks with fcntl")


def free(path: Path) -> bool:
    """Whether another open file of ``path`` could take the lock now (it is put back at once)."""
    import fcntl

    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing drops the flock when it was taken
    return True


class Held:
    """An exclusive flock on ``path`` through its own open file, as another process holds it."""

    def __init__(self, path: Path) -> None:
        import fcntl

        path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        self.closed = False

    def close(self) -> None:
        self.closed = True
        os.close(self.fd)


def test_dir_lock_skips_while_held_and_is_free_after_release(tmp_path: Path) -> None:
    first, second = DirLock(tmp_path / "journal"), DirLock(tmp_path / "journal")
    assert first.path == str(tmp_path / "journal" / ".lock")
    assert first.acquire()
    assert not second.acquire()
    first.release()
    assert second.acquire()
    second.release()


def test_dir_lock_and_an_outside_flock_exclude_each_other(tmp_path: Path) -> None:
    held = Held(tmp_path / ".lock")
    try:
        assert not DirLock(tmp_path).acquire()
    finally:
        held.close()
    mine = DirLock(tmp_path)
    assert mine.acquire()
    assert not free(tmp_path / ".lock")
    mine.release()
    assert free(tmp_path / ".lock")


def test_file_lock_gives_up_after_its_timeout(tmp_path: Path) -> None:
    held = Held(tmp_path / "x.lock")
    try:
        assert not FileLock(tmp_path / "x.lock").acquire(0.1)
        assert not FileLock(tmp_path / "x.lock").acquire(0)
    finally:
        held.close()
    mine = FileLock(tmp_path / "x.lock")
    assert mine.acquire(0.1)
    mine.release()


def test_file_lock_waits_until_free(tmp_path: Path) -> None:
    held = Held(tmp_path / "x.lock")
    threading.Timer(0.1, held.close).start()
    with FileLock(tmp_path / "x.lock"):
        assert held.closed  # it got the lock only once the holder let go
        assert not free(tmp_path / "x.lock")
    assert free(tmp_path / "x.lock")


def test_bridge_lock_times_out_with_its_message(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    path = data_dir() / "locks" / f"automemory-{sha(str(directory))}.lock"
    held = Held(path)
    try:
        with pytest.raises(KenningError, match="is busy: another Kenning process is syncing it"), \
                dir_lock(directory, 0.05):
            pass
    finally:
        held.close()
    with dir_lock(directory, 0.05):
        assert not free(path)
    assert free(path)


def test_findings_lock_is_the_file_beside_the_store(tmp_path: Path) -> None:
    class FileStore:
        location = str(tmp_path / "k.db")

    path = lock_file(FileStore.location)
    assert path == tmp_path / "k.db.findings.lock"
    with lock(FileStore()):
        assert not free(path)
    assert free(path)
