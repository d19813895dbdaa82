"""The tool hook's part in code drift: after an edit to a file some memory is anchored to, check
that file's anchors at once, so the memories it changed are marked before the next prompt.

Edits to other files cost one read of a small list (``anchored-paths`` beside the journal,
kept by ``kenning.drift.service``) and nothing else; only an anchored file opens the store (about
0.1 s in a fresh process, inside the tool hook's budget)."""

import os

from kenning.places import lean

ANCHORED_FILE = "anchored-paths"  # as kenning.drift.service.ANCHORED_FILE


def is_anchored(location: str, path: str) -> bool:
    """Whether ``path`` (absolute, as the edit tool gives it) is on the anchored-file list."""
    try:
        with open(os.path.join(lean.journal_dir(location), ANCHORED_FILE),
                  encoding="utf-8") as f:
            listed = f.read()
    except OSError:
        return False
    real = os.path.realpath(path)
    return f"\n{real}\n" in f"\n{listed}"


def after_edit(location: str, cwd: str | None, path: str, settings: dict[str, object]) -> None:
    """Check the anchors on ``path`` when it is anchored."""
    if not os.path.isabs(path) and cwd:
        path = os.path.join(cwd, path)
    if not is_anchored(location, path):
        return
    from pathlib import Path

    from kenning.facade import Kenning

    root = lean.git_root(os.path.dirname(path)) or (os.path.realpath(cwd) if cwd else None)
    if root is None:
        return
    project = lean.project_for(root, location, settings.get("project"))  # type: ignore[arg-type]
    with Kenning(location, project=project, embedder=None) as k:
        k.check_drift(Path(root), paths=[path])
