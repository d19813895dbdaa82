"""The tool hook's part in code drift: after an edit to a file some memory is anchored to, check
that file's anchors, so the memories it changed are marked before long (the next prompt, as a
rule).

Edits to other files cost one read of a small list (``anchored-paths`` beside the journal, kept
by ``kenning.drift.service``) and nothing else. An edit to an anchored file starts a detached
worker (``python -m kenning.drift.hook <store> <project dir> <project> <file>``) and returns at
once: opening the store and checking in the hook itself costs a fresh process 0.1-0.2 s on an
idle machine and passed the tool hook's 1 s budget on a loaded one."""

import os
import sys

from kenning import config
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
    """Start a check of ``path``'s anchors in the background when it is anchored."""
    if not os.path.isabs(path) and cwd:
        path = os.path.join(cwd, path)
    if not is_anchored(location, path):
        return
    root = lean.git_root(os.path.dirname(path)) or (os.path.realpath(cwd) if cwd else None)
    if root is None:
        return
    project = lean.project_for(root, location, config.table(settings, "project"))
    from kenning.journal import detached

    detached.spawn(location, "kenning.drift.hook", root, project, path)


def check(location: str, root: str, project: str, path: str) -> None:
    """The worker: check the anchors on ``path`` (errors are logged for ``kenning doctor``)."""
    from pathlib import Path

    from kenning.facade import Kenning

    try:
        with Kenning(location, project=project, embedder=None) as k:
            k.check_drift(Path(root), paths=[path])
    except Exception as exc:
        from kenning.errorlog import log_error

        log_error("drift check after an edit", exc)


if __name__ == "__main__":  # pragma: no cover - run as the detached worker
    if len(sys.argv) == 5:
        check(*sys.argv[1:5])
