"""Reading commits and the working-tree diff through the ``git`` command (no Python git
library): subjects, bodies and the files each commit touched."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from kenning.errors import ValidationError

MAX_COMMITS = 200
_DATE_LIKE = re.compile(r"^\d{4}-\d{2}-\d{2}|^\d+\s*(s|m|h|d|w|sec|min|hour|day|week)s?( ago)?$",
                        re.I)


@dataclass
class Commit:
    sha: str
    author: str
    timestamp: int  # Unix seconds
    subject: str
    body: str
    files: list[str] = field(default_factory=list)


def _git(repo: Path, *args: str) -> str:
    exe = shutil.which("git")
    if exe is None:
        raise ValidationError("git is not installed: cannot read commits")
    try:
        out = subprocess.run([exe, "-C", str(repo), *args], capture_output=True, text=True,
                             timeout=30, check=False, encoding="utf-8", errors="replace")
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ValidationError(f"git failed: {exc}") from exc
    if out.returncode != 0:
        first = (out.stderr.strip().splitlines() or ["unknown error"])[0]
        raise ValidationError(f"git {args[0]} failed in {str(repo)!r}: {first}")
    return out.stdout


def repo_root(path: str | os.PathLike[str]) -> Path:
    """The top of the git work tree holding ``path``; a ValidationError when there is none."""
    p = Path(path).expanduser()
    if not p.is_dir():
        raise ValidationError(f"repository {str(p)!r} is not a directory")
    return Path(_git(p, "rev-parse", "--show-toplevel").strip())


def _range_args(repo: Path, since: str | None) -> list[str]:
    """``since`` is a revision (HEAD~5, a sha, a tag) or a date/age (2026-11-01, 3d)."""
    if since is None:
        return ["-n", "20"]
    if not isinstance(since, str) or not since.strip() or since.startswith("-"):
        raise ValidationError("since must be a revision (HEAD~5) or a date/age (3d)")
    since = since.strip()
    if _DATE_LIKE.match(since):
        age = re.match(r"^(\d+)\s*([smhdw])", since)
        units = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
        when = f"{age.group(1)} {units[age.group(2).lower()]} ago" if age and \
            not since[:4].isdigit() else since
        return [f"--since={when}"]
    try:
        _git(repo, "rev-parse", "--verify", "--quiet", f"{since}^{{commit}}")
    except ValidationError as exc:
        raise ValidationError(f"unknown revision {since!r} in {str(repo)!r}") from exc
    return [f"{since}..HEAD"]


def commits(repo: str | Path, since: str | None = None) -> list[Commit]:
    """Commits after ``since`` (newest first), each with the files it changed."""
    root = repo_root(repo)
    fmt = "%x1e%H%x1f%an%x1f%at%x1f%s%x1f%b%x1f"
    out = _git(root, "log", f"--max-count={MAX_COMMITS}", "--no-merges", f"--format={fmt}",
               "--name-only", *_range_args(root, since))
    result = []
    for chunk in out.split("\x1e"):
        parts = chunk.split("\x1f")
        if len(parts) < 6:
            continue
        sha, author, ts, subject, body, files = parts[:6]
        result.append(Commit(sha.strip(), author, int(ts or 0), subject.strip(), body.strip(),
                             [f for f in files.splitlines() if f.strip()]))
    return result

