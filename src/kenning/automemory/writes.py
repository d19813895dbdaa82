"""Kenning's writes into a memory directory, recorded before they are made.

A sync rewrites many files. Each file is replaced atomically, but a process killed half-way
leaves some files new and some old while the bridge state (in the store) still describes the
old ones; the next run would then take Kenning's own new files for a person's edits. So every
write is journalled first: the state is saved with ``pending`` (per file: the content hash on
disk before, the hash about to be written, and what Kenning owned of it before), then the files
are written, then ``pending`` is cleared. A run that finds ``pending`` set (``recover``) looks at
each file: if it holds the new bytes the write happened, if it holds the old ones it did not,
anything else is a person's change, which the import then handles as usual. Temp files of an
interrupted write are removed. Nothing is taken for a person's edit that Kenning made itself.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kenning.automemory.files import sha
from kenning.automemory.paths import INDEX
from kenning.automemory.state import DirState, fingerprint
from kenning.files import atomic_write_bytes

FILE = "file"  # a whole file of Kenning's (a one-fact memory file)
TOPIC = "topic"  # a topic file: a person's text and Kenning's block
INDEX_KIND = "index"  # MEMORY.md
ARCHIVE = "archive"  # entries moved out of a topic file


@dataclass(frozen=True, slots=True)
class Change:
    """One file to write (``text``) or delete (``text`` None), relative to the directory."""

    name: str
    text: str | None
    kind: str


def disk_sha(path: Path) -> str | None:
    """The content hash of a file as the bridge computes it, None when it does not exist."""
    try:
        return sha(path.read_bytes().decode("utf-8", errors="replace"))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        return None


def apply(directory: Path, state: DirState, changes: Sequence[Change],
          save: Callable[[DirState], None], *, index_lines_before: Sequence[str] = (),
          entries_before: Mapping[str, Sequence[str]] | None = None) -> dict[str, int]:
    """Make ``changes`` (those that change bytes), journalled: ``state`` already describes the
    directory after them except for ``owned``, which this sets; it is saved with the journal
    before the first write and again, journal cleared, after the last. ``index_lines_before``
    and ``entries_before`` are what Kenning owned before this run (its MEMORY.md lines, its
    entries per topic file), for a run that finds a file unwritten. Returns the files written
    per kind and ``removed``."""
    before_entries = dict(entries_before or {})

    def before(name: str, kind: str) -> Any:
        if kind == TOPIC:
            return list(before_entries.get(name, []))
        if kind == INDEX_KIND:
            return list(index_lines_before)
        return None

    pending: dict[str, list[Any]] = {}
    todo: list[tuple[Change, Path, str | None]] = []
    for c in changes:
        path = directory / c.name
        old = disk_sha(path)
        new = sha(c.text) if c.text is not None else None
        if old == new:
            if new is not None and c.kind == FILE:
                state.owned[c.name] = new
                state.files[c.name] = fingerprint(path, new)
            continue
        pending[c.name] = [old, new, c.name in state.owned, c.kind, before(c.name, c.kind)]
        todo.append((c, path, new))
    done = dict.fromkeys((FILE, TOPIC, INDEX_KIND, ARCHIVE, "removed"), 0)
    if not todo:
        return done
    for c, _, new in todo:
        if c.kind == FILE and new is not None:
            state.owned[c.name] = new
        elif new is None:
            state.owned.pop(c.name, None)
    state.pending = pending
    save(state)
    for c, path, new in todo:
        if c.text is None:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            state.files.pop(c.name, None)
            done["removed"] += 1
            continue
        atomic_write_bytes(path, c.text.encode("utf-8"))
        if c.kind != ARCHIVE:
            state.files[c.name] = fingerprint(path, new or "")
        done[c.kind] += 1
    state.pending = {}
    save(state)
    return done


def recover(directory: Path, state: DirState, *, remove_temp: bool = True) -> int:
    """Settle a journal an interrupted run left in ``state``: per file, the write happened
    (new bytes), did not (old bytes) or a person changed the file meanwhile (neither: left to
    the import). Removes the interrupted writes' temp files. Returns how many files were
    journalled (0: nothing to do). ``state`` is changed in place; the caller saves it
    (``remove_temp=False``: a dry run that touches no file)."""
    if not state.pending:
        return 0
    for name, (old, new, was_owned, kind, before) in state.pending.items():
        path = directory / name
        disk = disk_sha(path)
        made = disk == new
        if made:
            if new is None:
                state.owned.pop(name, None)
                state.files.pop(name, None)
            elif kind != ARCHIVE:
                state.files[name] = fingerprint(path, new)
        else:
            if was_owned and old is not None:
                state.owned[name] = old
            else:
                state.owned.pop(name, None)
            if disk is not None and disk == old and kind != ARCHIVE:
                state.files[name] = fingerprint(path, old)
            else:
                state.files.pop(name, None)  # read again by the import
            if kind == TOPIC:
                state.entries[name] = list(before or [])
            elif kind == INDEX_KIND:
                state.own_lines = list(before or [])
        for tmp in path.parent.glob(f".{path.name}.*.tmp") if remove_temp else ():
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    count = len(state.pending)
    gone = {n for n in state.pending if n not in state.owned}
    state.synced = {mid: n for mid, n in state.synced.items()
                    if n not in gone or n in state.entries or n == INDEX}
    state.pending = {}
    return count


def stray_temp_files(directory: Path) -> list[Path]:
    """Temp files of Kenning's atomic writes left in ``directory`` (for status)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob(".*.tmp") if p.is_file())
