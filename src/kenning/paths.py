"""Where things live: the user's data directory, the project root and Claude Code's project key."""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "kenning"


def data_dir() -> Path:
    """Kenning's data directory: ``$KENNING_HOME``, else the platform's user data directory."""
    if env := os.environ.get("KENNING_HOME"):
        return Path(env).expanduser()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / APP
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP


def default_db_path() -> Path:
    """``$KENNING_DB`` if set, else ``<data dir>/kenning.db``."""
    if env := os.environ.get("KENNING_DB"):
        return Path(env).expanduser()
    return data_dir() / "kenning.db"


def git_root(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The real path of the git work tree containing ``start`` (walks up looking for ``.git``)."""
    here = Path(start or os.getcwd()).resolve()
    for p in (here, *here.parents):
        if (p / ".git").exists():
            return p
    return None


def project_root(start: str | os.PathLike[str] | None = None) -> Path:
    """The git root of ``start`` if there is one, else ``start`` itself (real path)."""
    return git_root(start) or Path(start or os.getcwd()).resolve()


def _js_hash36(text: str) -> str:
    """Base-36 of a 32-bit string hash (Java/JS ``hashCode`` form), as Claude Code suffixes keys."""
    h = 0
    for ch in text:
        h = (h * 31 + ord(ch)) & 0xFFFFFFFF
    if h >= 1 << 31:
        h -= 1 << 32
    h = abs(h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        h, r = divmod(h, 36)
        out = digits[r] + out
        if h == 0:
            return out


def project_key(root: str | os.PathLike[str]) -> str:
    """Claude Code's project key: every character outside [A-Za-z0-9] becomes '-'.

    Keys longer than 200 characters are cut to 200 and get ``-<base36 hash>`` appended
    (FINDINGS §4).
    """
    text = str(root)
    key = "".join(c if c.isascii() and c.isalnum() else "-" for c in text)
    if len(key) > 200:
        key = f"{key[:200]}-{_js_hash36(text)}"
    return key


def current_project() -> str:
    """``$KENNING_PROJECT`` if set, else the key of the current directory's project root."""
    if env := os.environ.get("KENNING_PROJECT"):
        return env
    return project_key(project_root())

