"""A session start made ahead: the briefing the next SessionStart would give, kept with what it
was made from, so that start can answer without opening the store (a full start imports the
facade and runs every step: 130-600 ms from 1k to 100k memories, most of it imports).

A full start of a SQLite store leaves one, and so does the session-end worker once it has
nothing left to do: the common case, a conversation started after the last one ended, then
finds its briefing ready. The SessionStart hook reads it with ``os`` and the C JSON parser
alone and uses it only while everything the briefing came from is as it was then:

- the store: its write marker and its session-event marker (``kenning.places.lean``) are
  unchanged, so no memory was written and no conversation began or ended in it since;
- Kenning's version, the settings a start reads (the hooks', auto memory's, episodes', the
  project's and the store's), where Claude Code keeps its files and whether the environment
  switches auto memory off (``key``);
- the files a start reads: Claude Code's settings, the auto memory and agent memory
  directories (every file in them), the code files memories are anchored to and, when one of
  those is missing, the git HEAD (``signature``: size, time and inode of each; a file changed
  within ``RACY_NS`` of the snapshot, by the file system's clock, also by a checksum of its
  bytes, since a second change in the same clock tick would leave its time as it was);
- the hook journal holds nothing to ingest but the starting conversation's own recent start,
  stop and tool events and its briefings (``PENDING_MAX_MS``); no session end is queued or
  running, nothing else waits to be remembered;
- no conversation was open when it was made (a full start would learn from one that went
  quiet) but the one it was made for, if any (``session``: then it holds for that one's starts
  only, a resume or a compaction);
- it is at most ``MAX_AGE_MS`` old (briefings rank by live confidence and recency, which move
  over days), and no memory it weighed has stopped holding since (``until_ms``: a successor
  taking over at a set time).

Anything else, or any doubt (an unreadable file, a huge directory), is a full start."""

import os
import stat  # loaded with os

from kenning.journal import fastjson
from kenning.places import lean

DIR = "prepared"
# A day, so the next morning's start is ready too: what a briefing ranks by (live confidence,
# recency) moves over days, so within one it can differ from a full start's only at the margin
# (the order of two lines, the last key memory); a memory that stops holding meanwhile ends it
# sooner (``until_ms``).
MAX_AGE_MS = 24 * 3_600_000
# A file changed this close to the snapshot is checksummed too: a change after the snapshot
# within the file system's clock tick (a few ms on Linux and Windows, 1 ns on APFS) could leave
# its time as it was.
RACY_NS = 100_000_000
MAX_FILES = 2000  # a start watching more files than this is not prepared
MAX_JOURNAL_BYTES = 256 * 1024  # more than this to ingest: a full start, not a long read
# How old an event a restore leaves in the journal may be: under lifecycle's idle hour (a test
# holds it there), so the conversation it belongs to is never one a full start would take for
# abandoned and learn from.
PENDING_MAX_MS = 50 * 60_000
# Environment the start's file locations and switches come from (the configuration's own
# variables, KENNING_*, are in the settings the key holds).
ENV = ("HOME", "USERPROFILE", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_DISABLE_AUTO_MEMORY")
# Journal kinds whose ingestion leaves a briefing as it is (no memory, no confidence, no
# access time changes): a session's start, its stops and tool calls; an injection only when it
# is a briefing's (``channel`` set), since a prompt's injection records co-access.
_QUIET_KINDS = ("start", "stop", "tool")


def key(settings: dict[str, object]) -> str:
    """What the start's configuration and environment are, as one string to compare."""
    from kenning import __version__

    return fastjson.dumps([__version__, settings, {name: os.environ.get(name) for name in ENV}])


def markers(location: str) -> str:
    """The store's write marker and its session-event marker, as one string to compare."""
    return (lean.read_version(lean.version_file(location))
            + lean.read_version(lean.sessions_version_file(location))).hex()


def file_for(directory: str, project: str) -> str:
    """The prepared start of ``project`` in a store's journal directory."""
    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in project)[:100]
    return os.path.join(directory, DIR, f"start-{name or '-'}.json")


def _stamp(path: str, racy_after_ns: int | None, checksum: bool) -> list[int] | None:
    """A file's size, modification time and inode (None when it is missing or not a regular
    file), with the CRC-32 of its bytes when ``checksum`` or when it changed at or after
    ``racy_after_ns``."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    out = [st.st_size, st.st_mtime_ns, st.st_ino]
    if checksum or (racy_after_ns is not None and max(st.st_mtime_ns, st.st_ctime_ns)
                    >= racy_after_ns):
        import zlib  # only for a file changed a moment ago

        try:
            with open(path, "rb") as f:
                out.append(zlib.crc32(f.read()))
        except OSError:
            return None
    return out


def file_system_now(directory: str) -> int:
    """The time the file system gives a file made now in ``directory`` (made and removed):
    file times come from its clock, which need not be this process's (a server's, a test's)."""
    os.makedirs(directory, mode=0o700, exist_ok=True)
    probe = os.path.join(directory, f".now-{os.getpid()}")
    fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        return os.fstat(fd).st_mtime_ns
    finally:
        os.close(fd)
        os.unlink(probe)


def _tree(root: str, into: list[str]) -> bool:
    """Add every regular file under ``root`` (at any depth) to ``into``; False past
    ``MAX_FILES`` or when a directory cannot be read. A missing directory adds nothing (its
    appearance adds files)."""
    try:
        entries = list(os.scandir(root))
    except (NotADirectoryError, FileNotFoundError):
        return True
    except OSError:
        return False
    for entry in entries:
        if len(into) > MAX_FILES:
            return False
        if entry.is_dir(follow_symlinks=False):
            if not _tree(entry.path, into):
                return False
        else:
            into.append(entry.path)
    return len(into) <= MAX_FILES


def signature(files: list[str], trees: list[str], *, racy_after_ns: int | None = None,
              checksummed: frozenset[str] = frozenset()) -> dict[str, list[int] | None] | None:
    """Each watched file's stamp (``files``, and every file under each of ``trees``), keyed by
    path; None when there are more than ``MAX_FILES``. ``checksummed``: paths whose bytes are
    compared too (those the snapshot found racy)."""
    listed = list(files)
    for root in trees:
        if not _tree(root, listed):
            return None
    return {path: _stamp(path, racy_after_ns, path in checksummed)
            for path in dict.fromkeys(listed)}


def _journal_quiet(directory: str, session_id: str, since_ms: int) -> bool:
    """Whether a full start would ingest nothing that changes a briefing: no claimed journal
    file or pending memory, and the live journal small and holding only ``session_id``'s
    quiet events (``_QUIET_KINDS``, briefings' injections) from ``since_ms`` on."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return True
    for name in names:
        if name.startswith(("claimed-", "pending")) and name != "pending-ends":
            return False
    from kenning.journal import FILE

    path = os.path.join(directory, FILE)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_JOURNAL_BYTES + 1)
    except FileNotFoundError:
        return True
    if len(raw) > MAX_JOURNAL_BYTES:
        return False
    for line in raw.decode("utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            event = fastjson.loads(line)
        except ValueError:
            return False
        if not isinstance(event, dict) or event.get("session_id") != session_id:
            return False
        at = event.get("at_ms")
        if not isinstance(at, int) or at < since_ms:
            return False
        kind, data = event.get("kind"), event.get("data")
        if kind not in _QUIET_KINDS and not (
                kind == "injected" and isinstance(data, dict) and data.get("channel")):
            return False
    return True


def save(location: str, project: str, state: dict[str, object]) -> bool:
    """Keep ``state`` (``made_ms``, ``until_ms``, ``session``, ``markers``, ``key``, ``root``,
    ``files``, ``trees``, ``signature``, ``briefing``, ``shown``, ``shown_ids``) as the project's
    prepared start, written atomically, unless the store was written since ``markers`` were
    read (by a thread of the process that made it, or another process): then a later start
    could not tell the briefing is older than the store. Whether it was kept."""
    if state.get("markers") != markers(location):
        return False
    from pathlib import Path  # not on a restore's path

    from kenning.files import atomic_write_bytes

    path = file_for(lean.journal_dir(location), project)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)  # it holds memories' words
    atomic_write_bytes(Path(path), fastjson.dumps({**state, "project": project}).encode("utf-8"),
                       mode=0o600)
    return True


def restore(location: str, project: str, root: str | None, settings_key: str, session_id: str,
            now_ms: int) -> tuple[str, list[str], list[str]] | None:
    """The project's prepared start when it still holds for a start of ``session_id`` at
    ``now_ms`` in ``root`` under ``settings_key`` (see the module's conditions), as the
    briefing, the line keys and the memory ids it shows; None when it does not hold, or when
    something cannot be read or checked (then the start is a full one)."""
    if "://" in location:
        return None
    try:
        state = _restore(location, project, root, settings_key, session_id, now_ms)
    except Exception:  # any doubt is a full start, never a lost briefing
        return None
    if state is None:
        return None
    briefing, shown, ids = state.get("briefing"), state.get("shown"), state.get("shown_ids")
    if not isinstance(briefing, str) or not isinstance(shown, list) \
            or not isinstance(ids, list) or not all(isinstance(x, str) for x in shown + ids):
        return None
    return briefing, shown, ids


def _restore(location: str, project: str, root: str | None, settings_key: str,
             session_id: str, now_ms: int) -> dict[str, object] | None:
    directory = lean.journal_dir(location)
    try:
        with open(file_for(directory, project), encoding="utf-8") as f:
            state = fastjson.loads(f.read())
    except (OSError, ValueError):
        return None
    if not isinstance(state, dict) or state.get("project") != project \
            or state.get("root") != root or state.get("key") != settings_key \
            or state.get("session") not in (None, session_id):
        return None
    made, until = state.get("made_ms"), state.get("until_ms")
    if not isinstance(made, int) or not 0 <= now_ms - made <= MAX_AGE_MS:
        return None
    if until is not None and (not isinstance(until, int) or now_ms >= until):
        return None  # a memory it weighed stops holding by now
    if state.get("markers") != markers(location):
        return None
    if not _journal_quiet(directory, session_id, now_ms - PENDING_MAX_MS):
        return None
    files, trees, seen = state.get("files"), state.get("trees"), state.get("signature")
    if not isinstance(files, list) or not isinstance(trees, list) or not isinstance(seen, dict):
        return None
    racy = frozenset(p for p, stamp in seen.items() if isinstance(stamp, list) and len(stamp) > 3)
    if signature(files, trees, checksummed=racy) != seen:
        return None
    return state
