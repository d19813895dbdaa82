"""Where a hook finds the store, its journal and the project, with ``os.path`` alone
(``pathlib`` imports ``re`` and ``urllib``): the same answers as ``kenning.places.paths``."""

import os
import sys

APP = "kenning"


def data_dir() -> str:
    if env := os.environ.get("KENNING_HOME"):
        return os.path.expanduser(env)
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Application Support", APP)
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return os.path.join(base, APP)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, APP)


def store_location() -> str:
    """``$KENNING_DB`` (a file path or a database URL), else ``<data dir>/kenning.db``."""
    env = os.environ.get("KENNING_DB")
    if env:
        return env if "://" in env else os.path.expanduser(env)
    return os.path.join(data_dir(), "kenning.db")


def journal_dir(location: str) -> str:
    """The hooks' append-only journal for a store: beside a SQLite file, or in the data dir
    (keyed by the URL's host and database) for a server."""
    if "://" not in location:
        return location + ".hooks"
    tail = location.rsplit("@", 1)[-1]
    key = "".join(c if c.isalnum() else "-" for c in tail)[:120]
    return os.path.join(data_dir(), "journals", key)


_ROOTS: dict[str, str | None] = {}


def git_root(start: str) -> str | None:
    """The real path of the git work tree containing ``start`` (remembered per process)."""
    if start in _ROOTS:
        return _ROOTS[start]
    _ROOTS[start] = found = _find_root(start)
    return found


def _find_root(start: str) -> str | None:
    here = os.path.realpath(start)
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def project_for(cwd: str | None, location: str | None = None,
                project: dict[str, object] | None = None) -> str:
    """``$KENNING_PROJECT``, else the project of ``cwd``'s git root under the ``[project]``
    settings (``kenning.places.identity``: the path's Claude Code key on SQLite, the git
    remote on a server ``location``)."""
    if env := os.environ.get("KENNING_PROJECT"):
        return env
    start = cwd or os.getcwd()
    root = git_root(start) or os.path.realpath(start)
    settings = project or {}
    identity = str(settings.get("identity") or "auto")
    explicit = str(settings.get("id") or "")
    if not explicit and identity == "auto" and (not location or "://" not in location):
        from kenning.places.keys import project_key  # the common case: no git config read

        return project_key(root)
    from kenning.places.identity import project_id

    return project_id(root, location, identity, explicit)


def version_file(location: str) -> str:
    """A SQLite store's write marker: every committed write puts new random bytes in it, so a
    file derived from the store (the prompt index) knows whether it is still current."""
    return os.path.join(journal_dir(location), "store-version")


def sessions_version_file(location: str) -> str:
    """A SQLite store's session-event marker: new random bytes whenever session events are
    added (they change no memory, so the write marker stays), so a start made ahead knows
    whether a conversation has begun or ended since (``kenning.journal.prepared``)."""
    return os.path.join(journal_dir(location), "sessions-version")


def mark_written(path: str) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.pwrite(fd, os.urandom(16), 0)
    finally:
        os.close(fd)


def read_version(path: str) -> bytes:
    """The marker's 16 bytes (zeros when the store has no marker yet)."""
    try:
        with open(path, "rb") as f:
            return f.read(16).ljust(16, b"\0")
    except OSError:
        return bytes(16)
