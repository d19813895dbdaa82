"""Where things live: the user's data directory, the project root and Claude Code's project key."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from kenning.places.keys import project_key

APP = "kenning"
__all__ = ["APP", "current_project", "data_dir", "default_db_path", "git_root",
           "project_for", "project_key", "project_root"]


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


def default_db_path() -> Path | str:
    """``$KENNING_DB`` if set, else ``[store] db`` of the effective ``kenning.toml`` (the
    hooks read the same), else ``<data dir>/kenning.db``. A ``postgresql://`` DSN stays a
    string."""
    location = os.environ.get("KENNING_DB")
    if not location:
        from kenning.config import ConfigError, load
        from kenning.errors import ValidationError

        try:
            location = str(load(str(project_root())).get("store", "db") or "")
        except ConfigError as exc:
            raise ValidationError(str(exc)) from None
    if location:
        if location.startswith(("postgresql://", "postgres://")):
            return location
        return Path(location).expanduser()
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


def current_project(location: str | None = None) -> str:
    """``$KENNING_PROJECT`` if set, else the current directory's project (see
    ``project_for``)."""
    return project_for(None, location)


def project_for(start: str | os.PathLike[str] | None, location: str | None = None) -> str:
    """``$KENNING_PROJECT`` if set, else the project of ``start``'s project root under its
    ``[project]`` settings (``kenning.places.identity``): Claude Code's key of the path, or on
    a server store (``location``) the repository's normalised remote."""
    if env := os.environ.get("KENNING_PROJECT"):
        return env
    root = project_root(start)
    from kenning.config import ConfigError, load
    from kenning.errors import ValidationError
    from kenning.places.identity import project_id

    try:
        settings = load(str(root)).section("project")
    except ConfigError as exc:
        raise ValidationError(str(exc)) from None
    return project_id(str(root), location, str(settings["identity"]), str(settings["id"]))

