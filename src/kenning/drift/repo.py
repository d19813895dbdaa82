"""What code drift asks of a project directory: its files (read with limits, never outside it)
and, when it is a git work tree, the commit checked out, renames and the commit that changed a
file. HEAD is read from the ``.git`` files (no process); renames and the changing commit ask
``git`` itself, only for the few anchors a check found changed or gone. Any git failure (no git,
a shallow clone without the anchor's commit, a detached HEAD, a broken repository) gives None:
the caller then gives no verdict it cannot back, rather than a false one."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from collections.abc import Sequence
from pathlib import Path

from kenning.drift import code, manifests

GIT_TIMEOUT_S = 3.0
# Keywords that open a definition in the languages whose symbols are read (Python, JavaScript
# and TypeScript, Go, Rust): what a line defining a name has before it.
_DEFINES = ("def|class|function|func|fn|struct|enum|trait|interface|type|impl|const|let|var|"
            "static")
_IDENT = re.compile(r"[A-Za-z_]\w{2,}")


class Repo:
    """A project directory (``root``, a real path) and its git metadata when it has some."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = os.path.realpath(root)
        self._git_dir = _git_dir(self.root)
        self._tracked: list[str] | None = None

    @property
    def is_git(self) -> bool:
        return self._git_dir is not None

    # -- files ---------------------------------------------------------------------------------

    def relative(self, path: str) -> str | None:
        """``path`` (as a memory or a tool wrote it: relative to the root, or absolute) as a
        clean repo-relative POSIX path; None when it points outside the project (``..``, an
        absolute path elsewhere, a symlink out) or into ``.git``."""
        if not path or "\0" in path:
            return None
        full = path if os.path.isabs(path) else os.path.join(self.root, path)
        real = os.path.realpath(full)
        if real != self.root and not real.startswith(self.root + os.sep):
            return None
        rel = os.path.relpath(real, self.root).replace(os.sep, "/")
        if rel == "." or rel == ".git" or rel.startswith(".git/"):
            return None
        return rel

    def stat(self, rel: str) -> str | None:
        """``size:mtime_ns`` of a file, None when it is not a regular file."""
        try:
            st = os.stat(self.root + os.sep + rel)
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(st.st_mode):
            return None
        return f"{st.st_size}:{st.st_mtime_ns}"

    def read(self, rel: str) -> tuple[str | None, str | None, str | None]:
        """(text, stat, note): the file's text and stat, or None and why it cannot be anchored
        (missing, too large, binary, not UTF-8, unreadable)."""
        full = os.path.join(self.root, rel)
        st = self.stat(rel)
        if st is None:
            return None, None, "missing"
        if int(st.split(":", 1)[0]) > code.MAX_FILE_BYTES:
            return None, st, f"larger than {code.MAX_FILE_BYTES // 1_000_000} MB"
        try:
            data = Path(full).read_bytes()
        except OSError as exc:
            return None, st, f"unreadable ({exc.strerror or exc})"
        why = code.unusable(data)
        if why is not None:
            return None, st, why
        return data.decode("utf-8"), st, None

    # -- git -----------------------------------------------------------------------------------

    def head(self) -> str | None:
        """The commit checked out (full sha), read from the ``.git`` files; None outside git or
        on an unborn branch."""
        if self._git_dir is None:
            return None
        try:
            ref = Path(self._git_dir, "HEAD").read_text().strip()
        except OSError:
            return None
        if not ref.startswith("ref:"):
            return ref if _is_sha(ref) else None  # a detached HEAD names its commit
        name = ref[4:].strip()
        common = _common_dir(self._git_dir)
        for base in (self._git_dir, common):
            try:
                sha = Path(base, name).read_text().strip()
                return sha if _is_sha(sha) else None
            except OSError:
                continue
        try:
            for line in Path(common, "packed-refs").read_text().splitlines():
                sha, _, refname = line.partition(" ")
                if refname.strip() == name and _is_sha(sha):
                    return sha
        except OSError:
            pass
        return None

    def _git(self, *args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", self.root, *args], capture_output=True, text=True,
                timeout=GIT_TIMEOUT_S, env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
                check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    def tracked(self) -> list[str] | None:
        """The repo-relative paths git tracks (one ``git ls-files`` per ``Repo``); None outside
        git or when git cannot tell."""
        if self._tracked is None and self._git_dir is not None:
            out = self._git("ls-files", "-z")
            self._tracked = out.split("\0")[:-1] if out is not None else None
        return self._tracked

    def top_manifests(self) -> list[str]:
        """The dependency manifests at the project's root and one folder down (what git
        tracks; outside git, the root's own)."""
        tracked = self.tracked()
        if tracked is None:
            try:
                names = sorted(os.listdir(self.root))
            except OSError:
                return []
            return [n for n in names if manifests.is_manifest(n) and self.stat(n) is not None]
        return [t for t in tracked if t.count("/") <= 1 and manifests.is_manifest(t)]

    def defining(self, names: Sequence[str], limit: int = 40) -> dict[str, list[str]]:
        """For each of ``names`` (identifiers), the tracked source files that define it (by
        their symbol table). One ``git grep`` for the names as words (fixed strings: a regular
        expression over every line costs git ten times as much), then only the files with a
        line that may define one are read: a ``def``, ``class``, ``function``, ``func``, ``fn``,
        type or constant keyword before the name, or the name opening a line before ``(`` (a
        method of a JavaScript class); at most ``limit`` files."""
        wanted = sorted({n for n in names if _IDENT.fullmatch(n)})
        if self._git_dir is None or not wanted:
            return {}
        args = [arg for n in wanted for arg in ("-e", n)]
        out = self._git("grep", "-I", "-n", "-w", "-F", *args, "--",
                        *(f"*{ext}" for ext in code.LANGUAGES))
        if out is None:
            return {}
        alternatives = "|".join(wanted)
        defines = re.compile(
            rf"(?:(?<![\w$])(?:{_DEFINES})\s+(?:\([^)]*\)\s*)?|^\s*(?:(?:async|static|get|set|"
            rf"public|private|protected)\s+)*)(?:{alternatives})(?![\w$])")
        files: dict[str, None] = {}
        for line in out.splitlines():
            path, _, rest = line.partition(":")
            if path not in files and defines.search(rest.partition(":")[2]):
                files[path] = None
        found: dict[str, list[str]] = {}
        for rel in list(files)[:limit]:
            text, _, _ = self.read(rel)
            table = code.defined(rel, text) if text is not None else None
            if not table:
                continue
            for name in wanted:
                if code.find_symbol(table, name) is not None:
                    found.setdefault(name, []).append(rel)
        return found

    def renames(self, commit: str) -> dict[str, str] | None:
        """``old path -> new path`` for files renamed between ``commit`` and the work tree (git's
        similarity detection); None when git cannot tell (no git, the commit is not in this
        clone)."""
        if self._git_dir is None or not _is_sha(commit):
            return None
        out = self._git("diff", "-M", "--name-status", "--diff-filter=R", "-z", commit, "--")
        if out is None:
            return None
        parts = out.split("\0")
        moved: dict[str, str] = {}
        i = 0
        while i + 2 < len(parts):
            if parts[i].startswith("R"):
                moved[parts[i + 1]] = parts[i + 2]
                i += 3
            else:
                i += 2
        return moved

    def last_changes(self, commit: str, rels: list[str]) -> dict[str, str] | None:
        """``path -> short sha`` of the latest commit after ``commit`` that touched each of
        ``rels`` (a path no commit touched is left out: its change is not committed yet), in
        one ``git log``; None when git cannot tell (the commit is not in this clone)."""
        if self._git_dir is None or not _is_sha(commit) or not rels:
            return None
        out = self._git("log", "--format=%x00%h", "--name-only", "--no-renames",
                        f"{commit}..HEAD", "--", *rels)
        if out is None:
            return None
        found: dict[str, str] = {}
        sha = ""
        for line in out.splitlines():
            if line.startswith("\0"):
                sha = line[1:].strip()
            elif line.strip() and sha:
                found.setdefault(line.strip(), sha)
        return found


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def _git_dir(root: str) -> str | None:
    dot = os.path.join(root, ".git")
    if os.path.isdir(dot):
        return dot
    try:  # a worktree or submodule: ".git" is a file naming the real directory
        line = Path(dot).read_text().strip()
    except OSError:
        return None
    if not line.startswith("gitdir:"):
        return None
    target = line[7:].strip()
    target = target if os.path.isabs(target) else os.path.join(root, target)
    return target if os.path.isdir(target) else None


def _common_dir(git_dir: str) -> str:
    try:
        rel = Path(git_dir, "commondir").read_text().strip()
    except OSError:
        return git_dir
    return os.path.normpath(rel if os.path.isabs(rel) else os.path.join(git_dir, rel))
