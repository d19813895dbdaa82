"""A project's identity in the store: what its memories are keyed by.

By default a project is keyed by its git root's real path, as Claude Code keys it
(``kenning.places.keys``): right for one machine, but two clones of one repository at different
paths (two people, or two checkouts) would share nothing on a team database. So on a server
store (PostgreSQL) the project is the repository itself: its normalised ``origin`` URL
(``git@github.com:Acme/Shop.git`` and ``https://github.com/acme/shop`` are both
``github.com/acme/shop``). ``[project] identity`` says which (``auto``: the remote on a server
store, the path on SQLite; ``remote``; ``path``), ``[project] id`` names the project outright,
and ``$KENNING_PROJECT`` wins over both.

``os.path`` and string operations only: the prompt hook resolves the project on every prompt.
"""

import os

IDENTITIES = ("auto", "path", "remote")


def _git_dir(root: str) -> str | None:
    """The git directory of the work tree at ``root`` (a worktree's ``.git`` file names it)."""
    dot = os.path.join(root, ".git")
    if os.path.isdir(dot):
        return dot
    try:
        with open(dot, encoding="utf-8") as f:
            first = f.readline().strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    target = first[len("gitdir:"):].strip()
    return os.path.normpath(os.path.join(root, target))


def _common_dir(git_dir: str) -> str:
    """Where the repository's config lives (a linked worktree's ``commondir``)."""
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as f:
            common = f.readline().strip()
    except OSError:
        return git_dir
    return os.path.normpath(os.path.join(git_dir, common)) if common else git_dir


def remote_url(root: str) -> str | None:
    """The URL of the ``origin`` remote of the repository at ``root`` (else of its first
    remote), read from its git config; None without one."""
    git_dir = _git_dir(root)
    if git_dir is None:
        return None
    try:
        with open(os.path.join(_common_dir(git_dir), "config"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    urls: dict[str, str] = {}
    section = None
    for raw in lines:
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            head = line[1:-1].strip()
            section = None
            if head.startswith("remote ") and head.count('"') == 2:
                section = head.split('"')[1]
            continue
        if section is None or "=" not in line:
            continue
        key, _, value = line.partition("=")
        if key.strip().lower() == "url" and section not in urls:
            urls[section] = value.strip().strip('"')
    if not urls:
        return None
    return urls.get("origin") or next(iter(urls.values()))


def normalise_remote(url: str) -> str | None:
    """``host/owner/repo`` for a remote URL in any of git's spellings (scheme, user, password,
    port, ``.git`` and case dropped); None for a local path or ``file://``."""
    u = url.strip()
    if not u:
        return None
    if "://" in u:
        scheme, _, rest = u.partition("://")
        if scheme.lower() == "file":
            return None
        authority, _, path = rest.partition("/")
        host = authority.rsplit("@", 1)[-1]
    elif ":" in u and "/" not in u.split(":", 1)[0]:  # scp-like: [user@]host:owner/repo
        authority, _, path = u.partition(":")
        host = authority.rsplit("@", 1)[-1]
    else:
        return None  # a path on this machine: nothing a teammate shares
    # the port goes (an IPv6 address keeps its brackets)
    host = host.split("]", 1)[0] + "]" if host.startswith("[") else host.split(":", 1)[0]
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[:-4]
    path = path.strip("/")
    if not host or not path:
        return None
    return f"{host.lower()}/{path.lower()}"


def project_id(root: str, location: str | None = None, identity: str = "auto",
               explicit: str = "") -> str:
    """The project key for the work tree at ``root``: ``explicit`` when set; the normalised
    remote when ``identity`` is ``remote``, or ``auto`` on a server store (``location`` is a
    URL) and the repository has one; else Claude Code's key of the path."""
    if explicit:
        return explicit
    if identity == "remote" or (identity == "auto" and location and "://" in location):
        url = remote_url(root)
        team = normalise_remote(url) if url else None
        if team:
            return team
    from kenning.places.keys import project_key

    return project_key(root)
