"""Code drift as a service: anchor memories to the code they describe, check the anchors, list
and re-confirm the memories whose code changed.

Built per call by the facade from its store, project, clock and the project's directory (a
``Repo``). The decisions are ``kenning.drift.code``'s; this module reads the files it needs (only
anchored ones, skipped when their size and modification time are unchanged) and writes the
verdicts through the store."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from kenning.drift import code, hook
from kenning.drift.repo import Repo
from kenning.errors import ValidationError
from kenning.models import Anchor, Memory
from kenning.store.base import Store

MOVED = " moved to "  # in a reason: "<old path> moved to <new path>[ in <sha>]"
MAX_COMMIT_LOOKUPS = 20  # per check: "changed in <sha>" asks git; past this, "since <sha>"
ANCHORED_FILE = hook.ANCHORED_FILE  # beside the journal: files whose edits the hook checks


@dataclass
class CheckReport:
    """What a drift check did: anchors and files looked at, files read, what it flagged."""

    anchors: int = 0
    files: int = 0
    read: int = 0
    stale: list[str] = field(default_factory=list)
    obsolete: list[str] = field(default_factory=list)
    fresh_again: list[str] = field(default_factory=list)
    moved: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"anchors": self.anchors, "files": self.files, "read": self.read,
                "stale": self.stale, "obsolete": self.obsolete,
                "fresh_again": self.fresh_again, "moved": self.moved, "notes": self.notes}


class DriftService:
    """Anchors and drift of one project's memories. ``repo`` is the project's directory (None
    when the caller has none: nothing is anchored or checked, and the report says why);
    ``journal_dir`` is where the list of anchored files for the tool hook is kept."""

    def __init__(self, store: Store, project: str, clock: Callable[[], int],
                 repo: Repo | None, journal_dir: str | None = None) -> None:
        self.store = store
        self.project = project
        self.clock = clock
        self.repo = repo
        self.journal_dir = journal_dir

    # -- anchoring -----------------------------------------------------------------------------

    def anchor(self, memories: Sequence[Memory], hints: Iterable[str] = ()) -> dict[str, int]:
        """Anchor each memory to the files and symbols its text names (and to symbols it names
        that are defined in the ``hints``: files edited while it was recorded). A memory that
        was stored before (re-recorded) is re-anchored, which clears its drift; a new memory
        that names no code costs one regular expression. Returns ``memory id -> anchors``."""
        repo = self.repo
        if repo is None or not memories:
            return {}
        hinted = [rel for rel in (repo.relative(h) for h in hints) if rel]
        texts: dict[str, str] = {}
        for m in memories:
            text = f"{m.topic or ''}\n{m.content}"
            if hinted or not m.is_new or code.may_name_code(text) or (
                    code.may_name_files(text) and code.mentions(text).paths):
                texts[m.id] = text
        if not texts:
            return {}
        named = {mid: self._named(text, hinted) for mid, text in texts.items()}
        found = self._defined(
            {mid: text for mid, text in texts.items() if not named[mid]})
        existing: dict[str, list[Anchor]] = {}
        if any(not m.is_new for m in memories if m.id in texts):
            for a in self.store.anchors(memory_ids=[m.id for m in memories
                                                    if m.id in texts and not m.is_new]):
                existing.setdefault(a.memory_id, []).append(a)
        cache: dict[str, tuple[str | None, str | None]] = {}
        out: dict[str, list[Anchor]] = {}
        for mid, text in texts.items():
            whole = [a.path for a in existing.get(mid, []) if not a.symbol]
            near = [*(a.path for a in existing.get(mid, []) if a.symbol), *hinted,
                    *found.get(mid, [])]
            anchors = self._anchors_for(mid, text, [*named[mid], *whole], near, cache)
            if anchors or mid in existing:
                out[mid] = anchors
        if out:
            self.store.set_anchors(out)
            self._remember_paths({a.path for items in out.values() for a in items})
        return {mid: len(items) for mid, items in out.items()}

    def _named(self, text: str, hinted: Sequence[str]) -> list[str]:
        """The repo-relative files ``text`` names: a path as written from the root, or a path's
        tail (a bare file name, or its last directories) matching an edited file's, or else
        the one file git tracks that ends so."""
        assert self.repo is not None
        out: list[str] = []
        for raw in code.mentions(text).paths:
            rel = self.repo.relative(raw)
            if rel is not None and self.repo.stat(rel) is not None:
                out.append(rel)
                continue
            tail = "/" + raw.lstrip("./")
            edited = [h for h in hinted if ("/" + h).endswith(tail)]
            if edited:
                out += edited
                continue
            tracked = [t for t in self.repo.tracked() or () if ("/" + t).endswith(tail)]
            if len(tracked) == 1:  # two files of that name: which one is not known
                out += tracked
        return list(dict.fromkeys(out))

    def _defined(self, texts: dict[str, str]) -> dict[str, list[str]]:
        """For memories that name no file: ``memory id -> files`` where the symbols they name
        in code style are defined, each symbol defined in exactly one tracked file (a name
        defined in several is ambiguous and anchors nothing), plus the dependency manifests at
        the project's root (a memory anchors to one only where it names a dependency with its
        version in view). One ``git grep`` for all of them."""
        assert self.repo is not None
        if not texts or not self.repo.is_git:
            return {}
        wanted: dict[str, list[str]] = {}
        for mid, text in texts.items():
            names = [s.rsplit(".", 1)[-1] for s in code.mentions(text).symbols]
            wanted[mid] = [n for n in dict.fromkeys(names) if len(n) > 2]
        places = self.repo.defining([n for names in wanted.values() for n in names])
        roots = self.repo.top_manifests()
        out: dict[str, list[str]] = {}
        for mid, names in wanted.items():
            files = [places[n][0] for n in names if len(places.get(n, ())) == 1]
            versions = code.may_name_code(texts[mid]) and any(c.isdigit() for c in texts[mid])
            found = list(dict.fromkeys(files + (roots if versions else [])))
            if found:
                out[mid] = found
        return out

    def _anchors_for(self, mid: str, text: str, named: Sequence[str], near: Sequence[str],
                     cache: dict[str, tuple[str | None, str | None]]) -> list[Anchor]:
        assert self.repo is not None
        now = self.clock()
        head = self.repo.head()

        def load(rel: str) -> tuple[str | None, str | None]:
            if rel not in cache:
                text_, st, _ = self.repo.read(rel)  # type: ignore[union-attr]
                cache[rel] = (text_, st)
            return cache[rel]

        files = {rel: t for rel in dict.fromkeys(named) if (t := load(rel)[0]) is not None}
        hinted = {rel: t for rel in dict.fromkeys(near)
                  if rel not in files and (t := load(rel)[0]) is not None}
        return [Anchor(mid, s.path, s.symbol, s.fingerprint, head, load(s.path)[1] or "",
                       anchored_at=now, checked_at=now)
                for s in code.spots(text, files, hinted)]

    def moves(self, memory: Memory) -> dict[str, str]:
        """``old path -> new path`` of the files a memory gives that have moved since (what its
        stale anchors' reasons say), for its text to give the new path when confirmed."""
        out: dict[str, str] = {}
        for a in self.store.anchors(memory_ids=[memory.id]):
            old, sep, rest = (a.reason or "").partition(MOVED)
            if a.state == code.STALE and sep and (rest == a.path or rest.startswith(
                    a.path + " ")):
                out[old] = a.path
        return out

    def confirm(self, memory: Memory) -> list[Anchor]:
        """Re-anchor a memory to the code as it is now (a person or the agent says it still
        holds): its anchors take today's fingerprints and its drift is cleared; anchors whose
        file or symbol is gone are dropped."""
        if self.repo is None:
            raise ValidationError("confirm needs the project's directory: run it inside the "
                                  "project, or give --project-root")
        had = self.store.anchors(memory_ids=[memory.id])
        # every anchored file missing, though no check found them deleted: the wrong directory
        if had and all(self.repo.stat(a.path) is None and a.state != code.OBSOLETE
                       for a in had):
            raise ValidationError(
                f"none of the files {memory.id} is anchored to is under {self.repo.root} "
                f"({', '.join(sorted({a.path for a in had}))}): is it the project's directory?")
        self.anchor([replace(memory, is_new=False)])
        return self.store.anchors(memory_ids=[memory.id])

    # -- checking ------------------------------------------------------------------------------

    def check(self, paths: Sequence[str] | None = None) -> CheckReport:
        """Compare anchored code with the files now (only ``paths`` when given: the files an
        edit touched). Files whose size and modification time match what the anchor saw are not
        read. A changed symbol or file marks its memories stale, a deleted one obsolete (after
        following a rename git knows of), a reverted change makes them fresh again. No verdict
        is given where none can be backed: unreadable, huge or binary files, code that does not
        parse, renames git cannot see."""
        report = CheckReport()
        repo = self.repo
        if repo is None:
            report.notes.append("no project directory: code drift is not checked")
            return report
        if paths is not None:
            rels = [r for r in (repo.relative(p) for p in paths) if r]
            hit = {a.memory_id for a in self.store.anchors(project=self.project, paths=rels)}
            anchors = self.store.anchors(memory_ids=sorted(hit)) if hit else []
        else:
            anchors = self.store.anchors(project=self.project)
        report.anchors = len(anchors)
        by_path: dict[str, list[Anchor]] = {}
        for a in anchors:
            by_path.setdefault(a.path, []).append(a)
        report.files = len(by_path)
        now = self.clock()
        head = repo.head()
        dated: list[tuple[tuple[str, str, str], str | None, str]] = []  # to date: key, commit, path
        renames: dict[str, dict[str, str] | None] = {}
        updated: dict[tuple[str, str, str], Anchor] = {}  # (memory, path, symbol) -> new
        stats = {path: repo.stat(path) for path in by_path}
        if (paths is None and not repo.is_git and len(by_path) > 1
                and all(st is None for st in stats.values())):
            # Not one anchored file here, and no git to say where they went: the wrong
            # directory for this project rather than every file deleted. (In git, a missing
            # file is judged by the renames since its anchor's commit, which this clone must
            # know.)
            report.notes.append(f"none of the {len(by_path)} anchored files is under "
                                f"{repo.root}: not checked (is it this project's directory?)")
            return report
        for path, group in by_path.items():
            st = stats[path]
            if all(a.stat == (st or "") for a in group):
                continue  # unchanged since the last look (a gone file is recorded as "")
            target = path
            text: str | None = None
            if st is None:
                moved_to = self._moved(path, group, renames)
                if moved_to is False:
                    report.notes.append(f"{path}: missing, and git cannot say whether it moved")
                    continue
                if isinstance(moved_to, str):
                    target = moved_to
                    report.moved[path] = moved_to
            if repo.stat(target) is not None:
                text, st, why = repo.read(target)
                report.read += 1
                if text is None:
                    report.notes.append(f"{target}: {why}; not checked")
                    continue
            # A memory that gives the old path now points the reader to a file that is not
            # there: it is outdated even where the code it describes did not change.
            misled = self._naming(path, target, group) if target != path else set()
            for a in group:
                verdict = code.judge(replace(_spot(a), path=target), text,
                                     label=None if target == path else target)
                if verdict.state in (code.FRESH, None) and a.memory_id in misled:
                    verdict = replace(verdict, state=code.STALE,
                                      reason=f"{path}{MOVED}{target}")
                if verdict.state is None:
                    report.notes.append(f"{target}: does not parse; {a.symbol} not checked")
                    continue
                reason = a.reason
                if verdict.state != code.FRESH and verdict.state != a.state:
                    reason = verdict.reason or ""
                    dated.append((_key(a), a.commit, target))
                elif verdict.state == code.FRESH:
                    reason = None
                # Still matching: the anchor holds at the commit checked out now, so a later
                # change is dated from here (and a move is not taken for a change).
                held = head if verdict.state == code.FRESH and head else a.commit
                # Found unchanged, an anchor of an earlier scheme takes today's fingerprint.
                kept = (verdict.fingerprint if verdict.state == code.FRESH
                        and verdict.fingerprint else a.fingerprint)
                new = a._replace(path=target, state=verdict.state, reason=reason,
                                 stat=st or "", checked_at=now, commit=held,
                                 fingerprint=kept)
                if new != a:
                    updated[_key(a)] = new
                    if new.state != a.state:
                        {code.STALE: report.stale, code.OBSOLETE: report.obsolete,
                         code.FRESH: report.fresh_again}[new.state].append(a.memory_id)
        for key, suffix in self._when(dated).items():
            updated[key] = updated[key]._replace(reason=(updated[key].reason or "") + suffix)
        if updated:
            changes: dict[str, list[Anchor]] = {}
            touched = {k[0] for k in updated}
            for a in anchors:
                if a.memory_id in touched:
                    changes.setdefault(a.memory_id, []).append(updated.get(_key(a), a))
            self.store.set_anchors(changes)
            if report.moved:
                self._remember_paths(set(report.moved.values()))
        for bucket in (report.stale, report.obsolete, report.fresh_again):
            bucket[:] = list(dict.fromkeys(bucket))
        if paths is None:
            self.refresh_paths([updated.get(_key(a), a) for a in anchors])
        return report

    def _naming(self, path: str, target: str, group: Sequence[Anchor]) -> set[str]:
        """The memories of ``group`` whose text gives ``path`` (moved to ``target``) as it no
        longer is: the path itself, or its bare file name when the move renamed the file."""
        assert self.repo is not None
        renamed = path.rsplit("/", 1)[-1] != target.rsplit("/", 1)[-1]
        out: set[str] = set()
        found = self.store.get_many(sorted({a.memory_id for a in group}))
        for mid, memory in found.items():
            for raw in code.mentions(f"{memory.topic or ''}\n{memory.content}").paths:
                bare = "/" not in raw.strip("./")
                if (bare and renamed and raw.strip("./") == path.rsplit("/", 1)[-1]) or (
                        not bare and self.repo.relative(raw) == path):
                    out.add(mid)
                    break
        return out

    def _moved(self, path: str, group: Sequence[Anchor],
               renames: dict[str, dict[str, str] | None]) -> str | bool | None:
        """Where a missing file went: its new path, None when it was deleted, False when git
        cannot tell (then no verdict). Outside git a missing file counts as deleted."""
        assert self.repo is not None
        if not self.repo.is_git:
            return None
        commits = [a.commit for a in group if a.commit]
        if not commits:
            return None
        commit = commits[0]
        if commit not in renames:
            renames[commit] = self.repo.renames(commit)
        moved = renames[commit]
        if moved is None:
            return False
        return moved.get(path)

    def _when(self, dated: Sequence[tuple[tuple[str, str, str], str | None, str]]
              ) -> dict[tuple[str, str, str], str]:
        """The end of each new reason: " in <sha>" (the latest commit since the anchor's that
        touched the file), " (not committed yet)", or " since <sha>" past
        ``MAX_COMMIT_LOOKUPS`` distinct anchor commits; nothing outside git. One git call per
        distinct anchor commit."""
        assert self.repo is not None
        out: dict[tuple[str, str, str], str] = {}
        if not self.repo.is_git:
            return out
        by_commit: dict[str, list[tuple[tuple[str, str, str], str]]] = {}
        for key, commit, path in dated:
            if commit:
                by_commit.setdefault(commit, []).append((key, path))
        for n, (commit, items) in enumerate(by_commit.items()):
            found = (self.repo.last_changes(commit, sorted({p for _, p in items}))
                     if n < MAX_COMMIT_LOOKUPS else None)
            for key, path in items:
                if found is None:
                    out[key] = f" since {commit[:7]}"
                elif path in found:
                    out[key] = f" in {found[path]}"
                else:
                    out[key] = " (not committed yet)"
        return out

    # -- reading -------------------------------------------------------------------------------

    def drifted(self, limit: int = 100) -> list[tuple[Memory, list[Anchor]]]:
        """The project's memories whose code changed or went, obsolete first, then by id, each
        with its anchors."""
        anchors = self.store.anchors(project=self.project)
        by_memory: dict[str, list[Anchor]] = {}
        for a in anchors:
            by_memory.setdefault(a.memory_id, []).append(a)
        flagged = [mid for mid, items in by_memory.items()
                   if any(a.state != code.FRESH for a in items)]
        found = self.store.get_many(flagged)
        out = [(found[mid], by_memory[mid]) for mid in flagged if mid in found]
        out.sort(key=lambda t: (t[0].drift != code.OBSOLETE, t[0].id))
        return out[:limit]

    # -- the tool hook's list of anchored files ------------------------------------------------

    def _remember_paths(self, rels: set[str]) -> None:
        """Add absolute paths of newly anchored files to the list the tool hook reads."""
        if not rels or self.repo is None or self.journal_dir is None:
            return
        wanted = {os.path.join(self.repo.root, r) for r in rels}
        have = anchored_paths(self.journal_dir)
        if wanted <= have:
            return
        _write_paths(self.journal_dir, have | wanted)

    def refresh_paths(self, anchors: Sequence[Anchor] | None = None) -> None:
        """Rewrite this project's part of the anchored-file list from the store (or from
        ``anchors``, all of the project's as a check just wrote them)."""
        if self.repo is None or self.journal_dir is None:
            return
        root = self.repo.root + os.sep
        if anchors is None:
            anchors = self.store.anchors(project=self.project)
        mine = {root + path for path in {a.path for a in anchors if a.state != code.OBSOLETE}}
        have = anchored_paths(self.journal_dir)
        others = {p for p in have if not p.startswith(root)}
        if others | mine != have:
            _write_paths(self.journal_dir, others | mine)


def _spot(a: Anchor) -> code.Spot:
    return code.Spot(a.path, a.symbol, a.fingerprint)


def _key(a: Anchor) -> tuple[str, str, str]:
    return (a.memory_id, a.path, a.symbol)


def anchored_paths(journal_dir: str) -> set[str]:
    """The absolute paths the tool hook treats as anchored (empty when there is no list)."""
    try:
        with open(os.path.join(journal_dir, ANCHORED_FILE), encoding="utf-8") as f:
            return {line.rstrip("\n") for line in f if line.strip()}
    except OSError:
        return set()


def _write_paths(journal_dir: str, paths: set[str]) -> None:
    """Atomically replace the anchored-file list."""
    os.makedirs(journal_dir, mode=0o700, exist_ok=True)
    target = os.path.join(journal_dir, ANCHORED_FILE)
    tmp = f"{target}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("".join(p + "\n" for p in sorted(paths)))
    os.replace(tmp, target)

