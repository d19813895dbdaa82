"""Import from and sync to one Claude Code memory directory (auto memory or an agent's): the
glue between the store, the file formats and the pure curation."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning.automemory.curate import Candidate, Curated, curate_index, rank_key
from kenning.automemory.files import (
    CLIENT_TYPES,
    IndexLine,
    atomic_write,
    client_view,
    one_line,
    parse_index,
    parse_topic,
    render_memory_file,
    render_pointer,
    sha,
    slug,
    split_frontmatter,
)
from kenning.automemory.options import AutoMemoryOptions
from kenning.automemory.paths import INDEX
from kenning.automemory.state import DirState, dir_lock, fingerprint, load_state, save_state
from kenning.errors import NotFoundError, ValidationError
from kenning.models import Category, Filters, Memory, MemoryType, Scope, iso
from kenning.redact import redact
from kenning.weights import record

if TYPE_CHECKING:
    from kenning.automemory.service import AutoMemoryService

LABELS: dict[Category, str] = {
    Category.PROJECT_PATTERNS: "Project Patterns",
    Category.ARCHITECTURE: "Architecture",
    Category.DEBUGGING: "Debugging",
    Category.PERFORMANCE: "Performance",
    Category.SECURITY: "Security",
    Category.PREFERENCES: "Preferences",
}
_LABEL_CATEGORY = {label.lower(): cat for cat, label in LABELS.items()}

# The client's metadata.type -> (Kenning type, category); Kenning type -> the client's type.
CLIENT_TO_KENNING: dict[str, tuple[MemoryType, Category]] = {
    "user": (MemoryType.PREFERENCE, Category.PREFERENCES),
    "feedback": (MemoryType.PREFERENCE, Category.PREFERENCES),
    "project": (MemoryType.CONTEXT, Category.PROJECT_PATTERNS),
    "reference": (MemoryType.CONTEXT, Category.PROJECT_PATTERNS),
}
CATEGORY_TYPE: dict[Category, MemoryType] = {
    Category.DEBUGGING: MemoryType.GOTCHA,
    Category.PREFERENCES: MemoryType.PREFERENCE,
    Category.PROJECT_PATTERNS: MemoryType.PATTERN,
}


@dataclass(frozen=True, slots=True)
class Target:
    """One memory directory and the store slice it mirrors (agent None: the auto memory)."""

    dir: Path
    scope: Scope | None
    agent: str | None

    @property
    def label(self) -> str:
        return "auto" if self.agent is None else f"{self.scope}:{self.agent}"

    def filters(self, project: str) -> Filters:
        if self.agent is None:
            return Filters(project=project)
        assert self.scope is not None
        return Filters(project=project, scopes=(self.scope,), agent=self.agent)

    def fields(self) -> dict[str, Any]:
        """Scope and agent for memories imported from this directory."""
        if self.agent is None:
            return {"scope": Scope.PROJECT}
        return {"scope": self.scope, "agent": self.agent}


def client_type(m: Memory) -> str:
    """The client's ``metadata.type`` for a memory."""
    kept = m.metadata.get("claude_type")
    if kept in CLIENT_TYPES:
        return str(kept)
    return "feedback" if m.type is MemoryType.PREFERENCE else "project"


SECTION_HEADINGS = frozenset(f"## {label}" for label in LABELS.values())


def _md_files(directory: Path) -> list[Path]:
    """The directory's markdown files, MEMORY.md last (files it points to are known first)."""
    if not directory.is_dir():
        return []
    return sorted((p for p in directory.glob("*.md") if p.is_file()
                   and not p.name.startswith(".")), key=lambda p: (p.name == INDEX, p.name))


def render_line(m: Memory, name: str, opts: AutoMemoryOptions) -> str:
    """A memory's MEMORY.md line: ``- [topic](file.md) — summary``."""
    return render_pointer(m.topic or m.type.value.capitalize(), name, m.summary,
                          opts.max_line_chars)


def render_file(m: Memory, name: str, opts: AutoMemoryOptions) -> str:
    """A memory as the client's one-fact file, tagged with its Kenning id."""
    body = "\n".join(m.content.splitlines()[: opts.max_topic_file_lines])
    return render_memory_file(name.removesuffix(".md"), m.summary, client_type(m), body,
                              {"kenning_id": m.id})


def person_lines(svc: AutoMemoryService, state: DirState, lines: list[IndexLine],
                 opts: AutoMemoryOptions) -> list[IndexLine]:
    """The MEMORY.md lines Kenning did not write (or that were changed since): a person's or
    the client's. Ours: lines recorded at the last write, our section headings, and pointers
    to our files that read exactly as we would write them (so lost state adds no copies)."""
    own = set(state.own_lines)
    by_file = {n: mid for mid, n in state.synced.items() if n in state.owned}
    mems = svc.store.get_many([by_file[ln.file] for ln in lines
                               if ln.kind == "pointer" and ln.file in by_file])

    def ours(ln: IndexLine) -> bool:
        if sha(ln.text) in own or (ln.kind == "heading" and ln.text.strip() in SECTION_HEADINGS):
            return True
        if ln.kind == "pointer" and ln.file in by_file:
            m = mems.get(by_file[ln.file])
            return m is not None and render_line(m, ln.file, opts) == ln.text
        return False

    return [ln for ln in lines if ln.kind != "blank" and not ours(ln)]


# -- import ------------------------------------------------------------------------------------


def _provenance(target: Target, name: str, kind: str, now: int, **extra: Any) -> dict[str, Any]:
    return {"automemory": {"dir": str(target.dir), "file": name, "kind": kind,
                           "imported_at": iso(now), **extra}}


def _index_items(svc: AutoMemoryService, target: Target, state: DirState, text: str,
                 opts: AutoMemoryOptions, existing: set[str], now: int) -> list[dict[str, Any]]:
    """A person's (or the client's) MEMORY.md lines as memories; pointers to files that exist
    are skipped (the file itself is imported)."""
    items = []
    for line in person_lines(svc, state, parse_index(text), opts):
        if line.kind == "heading":
            continue
        if line.kind == "pointer" and line.file in existing and line.file not in state.owned:
            continue  # the client's pointer: its file is imported itself
        fact = line.fact if line.kind == "entry" else one_line(
            f"{line.title}: {line.hook}" if line.hook else str(line.title))
        if not fact:
            continue
        cat = _LABEL_CATEGORY.get((line.heading or "").lower(), Category.PROJECT_PATTERNS)
        items.append({
            "text": fact, "type": CATEGORY_TYPE.get(cat, MemoryType.INSIGHT), "category": cat,
            "tags": ["auto-memory"], "confidence": opts.import_confidence,
            "source": f"auto-memory:{INDEX}",
            "metadata": _provenance(target, INDEX, "index-line", now, line=line.number,
                                    line_hash=sha(line.text)),
            **target.fields(),
        })
    return items


def _topic_items(target: Target, name: str, text: str, opts: AutoMemoryOptions, now: int
                 ) -> list[dict[str, Any]]:
    cat = opts.category_for_file(name) or Category.PROJECT_PATTERNS
    items = []
    for entry in parse_topic(text):
        body = "\n".join(entry.text.splitlines()[: opts.max_topic_file_lines])
        items.append({
            "text": body, "type": CATEGORY_TYPE.get(cat, MemoryType.INSIGHT), "category": cat,
            "topic": entry.heading[:200] if entry.heading else None,
            "tags": ["auto-memory", name.removesuffix(".md")[:64]],
            "confidence": opts.import_confidence, "source": f"auto-memory:{name}",
            "metadata": _provenance(target, name, "topic", now, line_hash=sha(entry.text)),
            **target.fields(),
        })
    return items


def _client_item(target: Target, name: str, fm: Mapping[str, Any], body: str,
                 opts: AutoMemoryOptions, now: int) -> dict[str, Any] | None:
    meta = fm.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    ctype = str(meta.get("type") or fm.get("type") or "project").lower()
    mtype, cat = CLIENT_TO_KENNING.get(ctype, (MemoryType.CONTEXT, Category.PROJECT_PATTERNS))
    description = one_line(str(fm.get("description") or ""))
    text = "\n".join(body.strip().splitlines()[: opts.max_topic_file_lines]).strip()
    text = text or description
    if not text:
        return None
    topic = one_line(str(fm.get("name") or name.removesuffix(".md")))[:200]
    return {
        "text": text, "summary": description[:500] or None, "type": mtype, "category": cat,
        "topic": topic, "tags": ["auto-memory", f"claude:{ctype}"[:64]],
        "confidence": opts.import_confidence, "source": f"auto-memory:{name}",
        "metadata": {**_provenance(target, name, "memory-file", now, line_hash=sha(text)),
                     "claude_type": ctype},
        **target.fields(),
    }


IMPORT_BATCH = 256  # entries per remember_many call on import


def _store_items(svc: AutoMemoryService, items: list[dict[str, Any]], errors: list[str]
                 ) -> list[Memory | None]:
    """``remember_many`` in one batch; if any item is bad, item by item (bad ones reported)."""
    if not items:
        return []
    try:
        return list(svc.remember_many(items))
    except ValidationError:
        out: list[Memory | None] = []
        for item in items:
            try:
                out.append(svc.remember_many([item])[0])
            except ValidationError as exc:
                errors.append(f"{item['metadata']['automemory']['file']}: {exc}")
                out.append(None)
        return out


def _update_client(svc: AutoMemoryService, memory_id: str, item: dict[str, Any]) -> bool | None:
    """A client file changed: update the memory it was imported as (the client updates files
    rather than adding duplicates). True if it changed; None when that memory is gone."""
    try:
        current = svc.get(memory_id)
    except NotFoundError:
        return None
    try:
        after = svc.update(current.id, text=item["text"], summary=item["summary"],
                           topic=item["topic"], metadata={**current.metadata, **item["metadata"]})
    except ValidationError:  # the new text duplicates another memory: that one stands
        return False
    return after.content_hash != current.content_hash or after.summary != current.summary


def _adopt(svc: AutoMemoryService, target: Target, state: DirState, name: str,
           fm: Mapping[str, Any] | None, text: str, opts: AutoMemoryOptions) -> bool:
    """A file Kenning wrote that this state does not know (state lost, another process): if it
    still reads exactly as Kenning writes its memory, it is Kenning's again, not a new fact."""
    meta = (fm or {}).get("metadata")
    kid = meta.get("kenning_id") if isinstance(meta, dict) else None
    if not isinstance(kid, str) or name in state.owned:
        return False
    m = svc.store.get_many([kid]).get(kid)
    if m is None or m.agent != target.agent or render_file(m, name, opts) != text:
        return False
    state.owned[name] = sha(text)
    state.synced[m.id] = name
    return True


def import_dir(svc: AutoMemoryService, target: Target, opts: AutoMemoryOptions, *, lock: bool = True
               ) -> dict[str, Any]:
    """Read changed files of ``target.dir`` into the store. Unchanged files (same mtime and
    size, or same bytes) are not parsed again; entries already stored count as skipped."""
    ctx = dir_lock(target.dir, opts.lock_timeout_s) if lock else contextlib.nullcontext()
    with ctx:
        state = load_state(svc.store, target.dir)
        before = {**asdict(state), "imported_at": None}
        first = state.imported_at is None
        counts = _import(svc, target, opts, state)
        if first or {**asdict(state), "imported_at": None} != before:
            save_state(svc.store, target.dir, state)  # a no-op import writes nothing
    return counts


def _import(svc: AutoMemoryService, target: Target, opts: AutoMemoryOptions, state: DirState
            ) -> dict[str, Any]:
    now = svc.clock()
    paths = _md_files(target.dir)
    existing = {p.name for p in paths}
    counts: dict[str, Any] = {"dir": str(target.dir), "scope": target.label, "files": len(paths),
                              "imported": 0, "updated": 0, "unchanged": 0, "skipped": 0,
                              "errors": []}
    pending: list[tuple[str, list[Any], list[str], list[dict[str, Any]]]] = []
    for path in paths:
        name = path.name
        try:
            st = path.stat()
            prev = state.files.get(name)
            if prev and prev[0] == st.st_mtime_ns and prev[1] == st.st_size:
                counts["unchanged"] += 1
                continue
            if st.st_size > opts.max_import_bytes:
                counts["errors"].append(f"{name}: larger than {opts.max_import_bytes:,} bytes")
                continue
            raw = path.read_bytes()
        except OSError as exc:
            counts["errors"].append(f"{name}: {exc.strerror or exc}")
            continue
        digest = sha(raw.decode("utf-8", errors="replace"))
        mark = [st.st_mtime_ns, st.st_size, digest]
        if (prev and prev[2] == digest) or state.owned.get(name) == digest:
            state.files[name] = mark
            counts["unchanged"] += 1
            continue
        text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n")
        edited_from: list[str] = []
        if name in state.owned:  # a person edited a file Kenning wrote: theirs from now on
            state.owned.pop(name)
            edited_from = [m for m, f in state.synced.items() if f == name]
            for mid in edited_from:
                state.synced.pop(mid)
            # Their version stands for the memory here: it is not written back beside it.
            state.detached = distinct([*state.detached, *edited_from])[-5000:]
        client_file = False
        if name == INDEX:
            items = _index_items(svc, target, state, text, opts, existing, now)
        else:
            fm, body = split_frontmatter(text)
            if _adopt(svc, target, state, name, fm, text, opts):
                state.files[name] = mark
                counts["unchanged"] += 1
                continue
            client_file = bool(fm) and ("name" in fm or "description" in fm)  # type: ignore[operator]
            if client_file:
                item = _client_item(target, name, fm or {}, body, opts, now)
                if item and edited_from:
                    item["metadata"]["edited_from"] = edited_from[0]
                items = [item] if item else []
            else:
                items = _topic_items(target, name, text, opts, now)
        previous = state.sources.get(name, [])
        if client_file and items and previous:
            changed = _update_client(svc, previous[0], items[0])
            if changed is not None:
                counts["updated" if changed else "skipped"] += 1
                state.files[name] = mark
                continue
        pending.append((name, mark, previous, items))
    # New entries are stored together: one embedding pass over all of them, not one per file.
    flat = [item for *_, items in pending for item in items]
    stored_all: list[Memory | None] = []
    for start in range(0, len(flat), IMPORT_BATCH):
        stored_all += _store_items(svc, flat[start:start + IMPORT_BATCH], counts["errors"])
    at = 0
    for name, mark, previous, items in pending:
        stored = stored_all[at:at + len(items)]
        at += len(items)
        for m in stored:
            if m is None:
                continue
            counts["imported" if m.is_new else "skipped"] += 1
        ids = [m.id for m in stored if m is not None]
        state.sources[name] = list(dict.fromkeys([*previous, *ids]))[-1000:]
        state.files[name] = mark
    for gone in set(state.files) - existing:
        state.files.pop(gone)
    state.imported_at = now
    return counts


# -- curation and sync -------------------------------------------------------------------------


@dataclass
class Plan:
    """What a sync or curate would write."""

    path: Path
    current: str
    curated: Curated
    files: dict[str, str]  # file name -> text, for memories Kenning writes files for
    keep: set[str]  # owned file names still wanted
    names: dict[str, str]  # memory id -> file name


def _file_name(m: Memory, state: DirState, taken: set[str]) -> str | None:
    """The file a memory is synced to: the one used before, else ``<slug>-<id tail>.md``
    (the whole id if that name is taken by someone else's file or another memory)."""
    if (name := state.synced.get(m.id)) and name in state.owned:
        return name
    base = slug(m.topic or m.summary)
    for tail in (m.id[-6:], m.id):
        name = f"{base}-{tail.lower()}.md"
        if name not in taken:
            return name
    return None


def _excluded(m: Memory, target: Target, pinned_files: set[str], dropped: set[str],
              existing: set[str]) -> bool:
    """Memories the directory already shows (a person's line, the client's own file) or that
    a person removed from it."""
    prov = m.metadata.get("automemory")
    if not isinstance(prov, dict) or prov.get("dir") != str(target.dir):
        return False
    kind, name = prov.get("kind"), prov.get("file")
    if kind == "index-line":
        return prov.get("line_hash") not in dropped
    if kind == "memory-file":
        return name in pinned_files or name not in existing
    return False


def plan(svc: AutoMemoryService, target: Target, opts: AutoMemoryOptions, state: DirState, *,
         files_for: int) -> Plan:
    """Choose memories for the index (and the first ``files_for`` for files); pure curation
    decides the text."""
    path = target.dir / INDEX
    try:
        current = path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n")
    except OSError:
        current = ""
    pinned = person_lines(svc, state, parse_index(current), opts)
    pinned_files = {ln.file for ln in pinned if ln.file}
    dropped = set(state.dropped_lines)
    detached = set(state.detached)
    existing = {p.name for p in _md_files(target.dir)}
    taken = existing - set(state.owned)

    rows = [r for r in svc.store.node_rows(target.filters(svc.project))
            if r[4] >= opts.min_confidence]
    ranks = svc.store.graph_scores([r[0] for r in rows]) if rows else {}
    now = svc.clock()
    pre = [Candidate(r[0], "", "", r[4], ranks.get(r[0], (0.0, 0))[0], r[3]) for r in rows]
    reference = min(now, max((c.touched_ms for c in pre), default=now))
    pre.sort(key=lambda c: (tuple(-x for x in rank_key(c, reference, opts.prune_strategy)),
                            c.id))
    # The same pool whatever is asked for, so a preview shows exactly what a sync writes.
    want = max(opts.max_index_lines, opts.max_files)
    chosen: list[tuple[Memory, Candidate, bool]] = []
    names: dict[str, str] = {}
    for start in range(0, len(pre), 400):
        if len(chosen) >= 2 * want:
            break
        batch = pre[start:start + 400]
        found = svc.store.get_many([c.id for c in batch])
        for c in batch:
            m = found.get(c.id)
            if m is None or m.agent != target.agent or not m.current_at(now) or record(
                    m.type.value, m.topic):
                continue  # another agent's, superseded, or a session record: MEMORY.md shows
                # the lessons that hold now
            m = svc.live(m, now)  # confidence as of now: unused memories fade out of the index
            if m.confidence < opts.min_confidence:
                continue
            if m.id in detached or _excluded(m, target, pinned_files, dropped, existing) or (
                    state.synced.get(m.id) in pinned_files):
                continue  # shown by a line a person wrote or kept
            prov = m.metadata.get("automemory")
            client_file = (isinstance(prov, dict) and prov.get("dir") == str(target.dir)
                           and prov.get("kind") == "memory-file")
            name = prov["file"] if client_file and isinstance(prov, dict) else (
                _file_name(m, state, taken))
            if name is None:
                continue
            names[m.id] = name
            taken.add(name)  # one file per memory, even if two slugs meet
            line = render_line(m, name, opts)
            touched = max(m.updated_at, m.last_accessed_at or 0)
            chosen.append((m, Candidate(m.id, line, LABELS[m.category], m.confidence,
                                        c.pagerank, touched), not client_file))
    # A person's lines are kept, with any secret in them redacted (they reach every prompt).
    curated = curate_index([c for _, c, _ in chosen], [redact(ln.text).text for ln in pinned],
                           now, opts)
    in_index = set(curated.chosen)
    ref2 = min(now, max((c.touched_ms for _, c, _ in chosen), default=now))
    ranked = sorted(chosen, key=lambda t: (tuple(-x for x in rank_key(
        t[1], ref2, opts.prune_strategy)), t[1].id))
    wanted = {m.id for m, _, _ in ranked[:files_for]} | in_index
    files: dict[str, str] = {}
    for m, _, ours in ranked:
        if m.id not in wanted or not ours:
            continue
        files[names[m.id]] = render_file(m, names[m.id], opts)
    keep = set(files) | (pinned_files & set(state.owned))
    return Plan(path, current, curated, files, keep, names)


def write_dir(svc: AutoMemoryService, target: Target, opts: AutoMemoryOptions, *, sync: bool
              ) -> dict[str, Any]:
    """Import first (a person's lines become memories before anything is rewritten), then
    write the memory files and MEMORY.md atomically. ``sync`` also writes files beyond the
    index (up to ``max_files``) and removes Kenning's own unchanged files no longer wanted."""
    with dir_lock(target.dir, opts.lock_timeout_s):
        state = load_state(svc.store, target.dir)
        imported = _import(svc, target, opts, state)
        p = plan(svc, target, opts, state, files_for=opts.max_files if sync else 0)
        written = removed = 0
        target.dir.mkdir(parents=True, exist_ok=True)
        for name, text in sorted(p.files.items()):
            path = target.dir / name
            if path.exists() and name not in state.owned:
                continue  # never overwrite a file someone else wrote
            if atomic_write(path, text):
                written += 1
            state.owned[name] = sha(text)
            state.files[name] = fingerprint(path, sha(text))
        state.synced = {**{mid: n for mid, n in state.synced.items() if n in p.keep},
                        **{mid: n for mid, n in p.names.items() if n in state.owned}}
        if sync:
            for name in sorted(set(state.owned) - p.keep):
                path = target.dir / name
                with contextlib.suppress(OSError):
                    if sha(path.read_bytes().decode("utf-8", errors="replace")) == (
                            state.owned[name]):
                        path.unlink()
                        removed += 1
                state.owned.pop(name, None)
                state.files.pop(name, None)
            state.synced = {mid: n for mid, n in state.synced.items() if n in state.owned}
        index_changed = atomic_write(p.path, p.curated.text)
        state.files[INDEX] = fingerprint(p.path, sha(p.curated.text))
        state.own_lines = sorted({sha(line) for line in p.curated.own_lines})
        dropped_now = {sha(line) for line in p.curated.pinned_dropped}
        state.dropped_lines = sorted(set(state.dropped_lines) | dropped_now)[-5000:]
        now = svc.clock()
        state.curated_at = now
        if sync:
            state.synced_at = now
        save_state(svc.store, target.dir, state)
    return {
        "dir": str(target.dir), "scope": target.label, "path": str(p.path),
        "lines": p.curated.lines, "bytes": p.curated.bytes,
        "memories_in_index": len(p.curated.chosen), "human_lines_kept": len(p.curated.pinned_kept),
        "human_lines_left_out": len(p.curated.pinned_dropped), "files_written": written,
        "files_removed": removed, "index_changed": index_changed, "imported": imported,
    }


def preview(svc: AutoMemoryService, target: Target, opts: AutoMemoryOptions) -> dict[str, Any]:
    """The MEMORY.md a curate would write now (no import, nothing written)."""
    state = load_state(svc.store, target.dir)
    p = plan(svc, target, opts, state, files_for=0)
    return {
        "path": str(p.path), "text": p.curated.text, "lines": p.curated.lines,
        "bytes": p.curated.bytes, "max_lines": opts.max_index_lines,
        "max_bytes": opts.max_index_bytes, "changed": p.curated.text != p.current,
    }


def status(svc: AutoMemoryService, target: Target, opts: AutoMemoryOptions) -> dict[str, Any]:
    """How the directory and the bridge stand: sizes against the client's limits, files by
    origin, files changed since the last import, memories eligible to sync."""
    state = load_state(svc.store, target.dir)
    path = target.dir / INDEX
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        text = ""
    lines = text.splitlines()
    size = len(text.encode("utf-8"))
    loaded = client_view(text, opts.max_index_lines, opts.max_index_bytes)
    paths = _md_files(target.dir)
    changed = []
    for p in paths:
        prev = state.files.get(p.name)
        with contextlib.suppress(OSError):
            st = p.stat()
            if not prev or prev[0] != st.st_mtime_ns or prev[1] != st.st_size:
                changed.append(p.name)
    human = person_lines(svc, state, parse_index(text), opts)
    eligible = sum(1 for r in svc.store.node_rows(target.filters(svc.project))
                   if r[4] >= opts.min_confidence)
    return {
        "dir": str(target.dir), "scope": target.label, "exists": target.dir.is_dir(),
        "index": {"path": str(path), "exists": path.is_file(), "lines": len(lines),
                  "bytes": size, "max_lines": opts.max_index_lines,
                  "max_bytes": opts.max_index_bytes,
                  "over_limit": len(lines) > opts.max_index_lines or size > opts.max_index_bytes,
                  "loaded_lines": len(loaded.splitlines()),
                  "human_lines": len(human)},
        "files": {"total": len(paths), "kenning": len(set(state.owned) & {p.name for p in paths}),
                  "other": len([p for p in paths if p.name not in state.owned])},
        "changed_since_import": changed,
        "eligible_memories": eligible,
        "min_confidence": opts.min_confidence,
        "sync_mode": opts.sync_mode,
        "imported_at": iso(state.imported_at), "synced_at": iso(state.synced_at),
        "curated_at": iso(state.curated_at),
    }


def distinct(values: list[str]) -> list[str]:
    """``values`` without repeats, first occurrence kept."""
    return list(dict.fromkeys(values))
