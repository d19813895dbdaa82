"""Session-end work, run detached from the client: the SessionEnd hook queues a request and
starts a background worker, then answers at once, so Claude Code (``claude -p`` included) never
waits for ingestion, learning, extraction, consolidation and the MEMORY.md sync.

A request is a small JSON file in ``<journal dir>/pending-ends/``, written atomically before the
worker starts and deleted only after its session end has run, so a worker that is killed leaves
it for the next one: every SessionStart and SessionEnd starts a worker when requests are
waiting. Workers take one lock file (``session-end.lock``) and wait for it, so they run one at a
time and a request queued while another worker finishes is still picked up. Each session end
is safe to run again (ingestion, judging and extraction remember what they did).

The worker is ``python -m kenning.journal.detached <store location>``."""

from __future__ import annotations

import os
import sys

from kenning.places import lean

# typing, json and contextlib cost a session start that only asks whether a worker is busy
# about 10 ms (it answers in ~25 ms when its briefing was prepared)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from kenning.facade import Kenning

PENDING = "pending-ends"
LOCK = "session-end.lock"
SETTLE_BEFORE_PREPARING = 256  # vectors still to compute (about 2 s) before a start is prepared


def pending_dir(location: str) -> str:
    return os.path.join(lean.journal_dir(location), PENDING)


def pending(location: str) -> list[str]:
    """Queued requests, oldest first (paths)."""
    directory = pending_dir(location)
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
    except FileNotFoundError:
        return []
    return [os.path.join(directory, n) for n in names]


def queue(location: str, request: dict[str, Any], event_id: str) -> str:
    """Write one request (named after its end event, so the queue is in time order)."""
    from kenning.journal import fastjson

    directory = pending_dir(location)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    path = os.path.join(directory, f"{event_id}.json")
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, fastjson.dumps(request).encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return path


def spawn(location: str, module: str = "kenning.journal.detached", *extra: str) -> None:
    """Start a worker (``python -m module location *extra``) in its own session, its standard
    streams on the null device, so the client neither waits for it (it holds none of the
    hook's pipes) nor kills it with the hook. ``os.posix_spawn`` needs nothing more than
    ``os``: importing ``subprocess`` alone costs a fresh process 10-30 ms, as much as the rest
    of the SessionEnd hook."""
    args = [sys.executable, "-m", module, location, *extra]
    if hasattr(os, "posix_spawn"):
        null = os.devnull
        os.posix_spawn(sys.executable, args, os.environ, setsid=True, file_actions=[
            (os.POSIX_SPAWN_OPEN, 0, null, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, null, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, null, os.O_WRONLY, 0)])
        return
    import subprocess  # pragma: no cover - Windows

    subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, close_fds=True,
                     creationflags=0x00000008 | 0x00000200)  # DETACHED, NEW_PROCESS_GROUP


def busy(location: str) -> bool:
    """Whether a worker holds the lock (is running a session end now)."""
    from kenning.filelock import DirLock

    lock = DirLock(lean.journal_dir(location), LOCK)
    if lock.acquire(0):
        lock.release()
        return False
    return True


def settle(location: str, timeout_s: float) -> bool:
    """Before a session starts: let the previous session's end finish, so the new session is
    briefed from it, waiting at most ``timeout_s`` (0, the default: not at all; the start
    reads what is there). A queued end that no worker is running (its worker was killed) gets
    a new worker first. Whether there was nothing to wait for (then the MEMORY.md the client
    loaded is the one the last session end wrote)."""
    import time

    if not pending(location) and not busy(location):
        return True
    if not busy(location):
        spawn(location)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        time.sleep(0.02)
        if not pending(location) and not busy(location):
            break
    return False


def run_pending(location: str) -> int:
    """Run every queued session end, one at a time under the lock (waiting for a worker that
    holds it); how many ran. A request that fails is logged and removed: its session end ran
    as far as it could, and trying it forever would block the others."""
    from kenning.filelock import DirLock
    from kenning.journal import seen
    from kenning.times import now_ms

    lock = DirLock(lean.journal_dir(location), LOCK)
    lock.acquire(None)
    done = 0
    try:
        while True:
            todo = pending(location)
            if not todo:
                seen.prune(lean.journal_dir(location), now_ms())
                return done
            for path in todo:
                _run_one(location, path, prepare=path == todo[-1])
                done += 1
    finally:
        lock.release()


def _run_one(location: str, path: str, *, prepare: bool) -> None:
    from kenning.errorlog import log_error

    try:
        from kenning.journal import fastjson

        with open(path, encoding="utf-8") as f:
            request = fastjson.loads(f.read())
        if not isinstance(request, dict):
            raise ValueError("a queued session end is not a JSON object")
        finish(location, request, prepare=prepare)
    except FileNotFoundError:
        return
    except Exception as exc:
        log_error("hook SessionEnd (background)", exc)
    try:  # noqa: SIM105 - contextlib is not worth its import on a hook's path
        os.unlink(path)
    except FileNotFoundError:
        pass


def finish(location: str, request: dict[str, Any], *, prepare: bool = False) -> None:
    """Run one session end (``Kenning.end_session``) as the request describes it; with
    ``prepare`` (the last of the queue), then prepare the next start of its project."""
    from pathlib import Path

    from kenning.automemory.options import AutoMemoryOptions
    from kenning.episodes import EpisodeOptions
    from kenning.facade import Kenning

    transcript = request.get("transcript")
    root = request.get("root")
    k = Kenning(location, project=str(request["project"]))
    try:
        k.end_session(str(request.get("session_id") or ""),
                      transcript=Path(transcript) if isinstance(transcript, str) else None,
                      project_root=Path(root) if isinstance(root, str) else None,
                      options=AutoMemoryOptions.from_config(request.get("auto_memory") or {}),
                      episodes=EpisodeOptions.from_section(request.get("episodes") or {}),
                      log_as="hook SessionEnd")
        update = request.get("update")
        if isinstance(update, dict):
            _write_update(location, k, update)
        start = request.get("start")
        if prepare and isinstance(start, dict) and isinstance(root, str):
            _prepare(location, k, Path(root), start, request.get("auto_memory") or {})
    finally:
        k.close()


def _prepare(location: str, k: Kenning, root: Path, start: dict[str, Any],
             auto_memory: dict[str, Any]) -> None:
    """The start the project's next conversation would make, made now (``kenning.journal.
    prepared``): a start finding it still holds answers from it without opening the store.
    Run as a start's steps are (what fails is logged); nothing is kept when one failed."""
    import time

    from kenning.automemory.options import AutoMemoryOptions
    from kenning.journal import prepared

    # the vectors and links of what the session taught, now rather than by a thread writing
    # after the briefing (which would leave it unkept); not a bulk import's backlog, which the
    # worker leaves to later processes as before (the briefing would not be kept)
    if k.embedder is not None and \
            k.store.count_missing_vectors(k.embedder.id) > SETTLE_BEFORE_PREPARING:
        return
    k.settle()
    # the files the session end just wrote are then past the racy window: stamped, not read
    time.sleep(prepared.RACY_NS / 1e9)
    report = k.start_session(root, AutoMemoryOptions.from_config(auto_memory),
                             briefing_k=int(start["briefing_k"]),
                             max_chars=int(start["max_chars"]),
                             log_as="hook SessionEnd (background): preparing the next start",
                             prepare=True)
    if report.prepared is not None:
        prepared.save(location, k.project, {**report.prepared, "key": str(start["key"])})


def _write_update(location: str, k: Any, update: dict[str, Any]) -> None:
    """Leave, for the first prompt of the session that queued these ends, what changed since
    its briefing (``SessionService.since_briefing``): ``<seen file>.update``, JSON with the
    text and the ids it shows, written atomically ("" when nothing changed, so the prompt hook
    stops looking)."""
    from pathlib import Path

    from kenning.files import atomic_write_bytes
    from kenning.journal import fastjson, seen

    file = seen.path(lean.journal_dir(location), str(update.get("session_id") or ""))
    shown = update.get("shown")
    since = update.get("since_ms")
    if file is None or not isinstance(since, int):
        return
    text, ids = k._sessions().since_briefing(
        [str(x) for x in shown] if isinstance(shown, list) else [], since)
    os.makedirs(os.path.dirname(file), mode=0o700, exist_ok=True)
    atomic_write_bytes(Path(seen.update_path(file)), fastjson.dumps(
        {"text": text, "ids": ids}).encode("utf-8"), mode=0o600)


def main(argv: list[str]) -> int:
    """The worker: run what is queued for the store at ``argv[0]``; never raises."""
    if len(argv) != 1:
        sys.stderr.write("usage: python -m kenning.journal.detached <store location>\n")
        return 2
    try:
        run_pending(argv[0])
    except BaseException as exc:
        from kenning.errorlog import log_error

        log_error("hook SessionEnd (background)", exc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
