"""Import from and sync to one Claude Code memory directory (auto memory or an agent's): the
glue between the store, the file formats and the pure curation."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning.automemory import topics, writes
from kenning.automemory.curate import Candidate, Curated, curate_index, rank_key
from kenning.automemory.files import (
    CLIENT_TYPES,
    IndexLine,
    TopicEntry,
    client_view,
    clip,
    one_line,
    parse_index,
    parse_topic,
    render_memory_file,
    render_pointer,
    sha,
    slug,
    split_frontmatter,
)
from kenning.automemory.options import CLIENT_MAX_BYTES, CLIENT_MAX_LINES, AutoMemoryOptions
from kenning.automemory.paths import INDEX
from kenning.automemory.state import DirState, dir_lock, load_state, save_state
from kenning.automemory.writes import Change
from kenning.distil import is_track_record
from kenning.errors import NotFoundError, ValidationError
from kenning.models import Category, Filters, Memory, MemoryType, OutcomeStatus, Scope, iso
from kenning.redact import redact, redact_obj
from kenning.weights import record

if TYPE_CHECKING:
    from kenning.automemory.ports import Ports

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


LOWERCASE_INDEX = "memory.md"


def _md_files(directory: Path) -> list[Path]:
    """The directory's markdown files, MEMORY.md last (files it points to are known first).
    A lowercase ``memory.md`` is an index the client has not renamed yet, never a topic file."""
    if not directory.is_dir():
        return []
    return sorted((p for p in directory.glob("*.md") if p.is_file()
                   and not p.name.startswith(".") and p.name != LOWERCASE_INDEX),
                  key=lambda p: (p.name == INDEX, p.name))


def migrate_lowercase_index(directory: Path) -> str | None:
    """Rename ``memory.md`` to ``MEMORY.md`` as Claude Code does when it loads a memory
    directory. Returns a warning when both exist as different files (the lowercase one is
    then left alone, and not imported)."""
    lower, upper = directory / LOWERCASE_INDEX, directory / INDEX
    if not lower.is_file():
        return None
    names = {p.name for p in directory.iterdir()}
    if LOWERCASE_INDEX not in names:  # a case-insensitive file system: it is MEMORY.md
        return None
    if INDEX in names:
        return (f"{LOWERCASE_INDEX} and {INDEX} both exist; {LOWERCASE_INDEX} is left alone "
                "and not imported")
    lower.rename(upper)
    return None


# The memory types a detected rule is stored as (a convention, a decision).
RULE_TYPES = frozenset({MemoryType.PREFERENCE.value, MemoryType.DECISION.value})
# How Kenning's note under a person's MEMORY.md line begins: never imported as their words.
NOTE_PREFIX = "  - Kenning: no longer current"
NOTE_CHARS = 200  # of the replacing memory's summary in a note


def _no_longer_current(svc: Ports, state: DirState,
                       lines: list[tuple[IndexLine, str]], now: int) -> dict[str, str]:
    """Notes for a person's MEMORY.md lines whose memory (imported from that very line) no
    longer holds: replaced by a later memory (named in the note) or failed. Their words stay
    as they wrote them; the note under them keeps the client from reading them as current."""
    imported = svc.store.get_many(state.sources.get(INDEX, []))
    by_line: dict[str, Memory] = {}
    for m in imported.values():
        prov = m.metadata.get("automemory")
        if isinstance(prov, dict) and prov.get("line_hash"):
            by_line[str(prov["line_hash"])] = m
    ended: dict[str, Memory] = {}
    for ln, _ in lines:
        said = by_line.get(sha(ln.text))
        if said is not None and (not said.current_at(now)
                                 or said.outcome is OutcomeStatus.FAILED):
            ended[sha(ln.text)] = said
    successors = svc.store.get_many(sorted({e.superseded_by for e in ended.values()
                                            if e.superseded_by}))
    notes: dict[str, str] = {}
    for ln, text in lines:
        old = ended.get(sha(ln.text))
        if old is None:
            continue
        new = successors.get(old.superseded_by or "")
        if new is not None:
            notes[text] = (f"{NOTE_PREFIX}, replaced by: "
                           f"{clip(one_line(redact(new.summary).text), NOTE_CHARS)}")
        else:
            notes[text] = NOTE_PREFIX + (
                f" ({one_line(redact(old.outcome_reason).text)})" if old.outcome_reason else "")
    return notes


def _without_echoes(svc: Ports, chosen: list[tuple[Memory, Candidate, bool]], now: int
                    ) -> list[tuple[Memory, Candidate, bool]]:
    """``chosen`` without the track records that only echo a memory: one whose memory is
    listed too (its line repeats that memory's words), and one whose memory no longer holds
    or whose code changed since (it would show that memory's words as current)."""
    listed = {m.id for m, _, _ in chosen}
    subjects = {str(m.metadata["subject"]) for m, _, _ in chosen if is_track_record(m)}
    if not subjects:
        return chosen
    found = svc.store.get_many(sorted(subjects - listed))

    def echo(m: Memory) -> bool:
        if not is_track_record(m):
            return False
        subject = str(m.metadata["subject"])
        if subject in listed:
            return True
        held = found.get(subject)
        return held is None or not held.current_at(now) or bool(held.drift) or (
            held.outcome is OutcomeStatus.FAILED)

    return [t for t in chosen if not echo(t[0])]


def render_line(m: Memory, name: str, opts: AutoMemoryOptions) -> str:
    """A memory's MEMORY.md line: ``- [topic](file.md) — summary``; one whose code changed
    since it was recorded starts "(may be outdated)", ahead of where a long line is cut."""
    summary = f"(may be outdated) {m.summary}" if m.drift else m.summary
    return render_pointer(m.topic or m.type.value.capitalize(), name, summary,
                          opts.max_line_chars)


def render_file(m: Memory, name: str, opts: AutoMemoryOptions) -> str:
    """A memory as the client's one-fact file, tagged with its Kenning id."""
    body = "\n".join(m.content.splitlines()[: opts.max_topic_file_lines])
    return render_memory_file(name.removesuffix(".md"), m.summary, client_type(m), body,
                              {"kenning_id": m.id})


def person_lines(svc: Ports, state: DirState, lines: list[IndexLine],
                 opts: AutoMemoryOptions) -> list[IndexLine]:
    """The MEMORY.md lines Kenning did not write (or that were changed since): a person's or
    the client's. Ours: lines recorded at the last write, our section headings, and pointers
    to our files that read exactly as we would write them (so lost state adds no copies)."""
    own = set(state.own_lines)
    by_file: dict[str, list[str]] = {}
    for mid, n in state.synced.items():
        if n in state.owned or n in state.entries:
            by_file.setdefault(n, []).append(mid)
    pointed = {ln.file for ln in lines if ln.kind == "pointer" and ln.file in by_file}
    mems = svc.store.get_many([mid for n in sorted(pointed) for mid in by_file[n]])
    rendered = {render_line(m, n, opts) for n in pointed for mid in by_file[n]
                if (m := mems.get(mid)) is not None}

    def ours(ln: IndexLine) -> bool:
        if sha(ln.text) in own or (ln.kind == "heading" and ln.text.strip() in SECTION_HEADINGS):
            return True
        if ln.text.startswith(NOTE_PREFIX):
            return True  # our note under a person's line, even when the state was lost
        return ln.kind == "pointer" and ln.text in rendered

    return [ln for ln in lines if ln.kind != "blank" and not ours(ln)]


# -- import ------------------------------------------------------------------------------------


def _provenance(target: Target, name: str, kind: str, now: int, **extra: Any) -> dict[str, Any]:
    return {"automemory": {"dir": str(target.dir), "file": name, "kind": kind,
                           "imported_at": iso(now), **extra}}


def _index_items(svc: Ports, target: Target, state: DirState, text: str,
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
    # Redacted here with the lines around them too: a secret over several lines (a key file
    # pasted in) is only told by its neighbours.
    for item, redacted in zip(items, _redacted_lines([i["text"] for i in items]), strict=True):
        item["text"] = redacted
    return items


def render_entry(m: Memory, opts: AutoMemoryOptions) -> str:
    """A memory as an entry of Kenning's block in a topic file (marked as ``render_line``
    marks it when its code changed since)."""
    summary = f"(may be outdated) {m.summary}" if m.drift else m.summary
    return topics.render_entry(m.id, summary, m.content, topics.ENTRY_LINES)


def _topic_items(svc: Ports, target: Target, state: DirState, name: str, text: str,
                 opts: AutoMemoryOptions, now: int) -> list[dict[str, Any]]:
    """A topic file's entries as memories: a person's text, and the entries of Kenning's block
    that a person changed (their version of that memory). Kenning's own entries are not
    imported; one a person edited or deleted is theirs from then on (its memory is not written
    back there)."""
    cat = opts.category_for_file(name) or Category.PROJECT_PATTERNS
    split = topics.split_block(text)
    found: list[tuple[TopicEntry, str | None]] = [(e, None) for e in parse_topic(split.outside)]
    if split.has_block or name in state.entries:
        known = set(state.entries.get(name, []))
        block = parse_topic(split.block)
        ids = [topics.entry_id(e) for e in block]
        mems = svc.store.get_many([i for i in ids if i])
        kept: list[str] = []
        present: set[str] = set()
        for e, mid in zip(block, ids, strict=True):
            raw = "\n".join(e.lines)
            m = mems.get(mid) if mid else None
            if sha(raw) in known or (m is not None and m.agent == target.agent
                                     and render_entry(m, opts) == raw):
                kept.append(sha(raw))
                if mid:
                    present.add(mid)
                    state.synced[mid] = name
                continue
            found.append((e, mid))
        gone = [mid for mid, n in state.synced.items() if n == name and mid not in present]
        for mid in gone:
            state.synced.pop(mid)
        edited = [mid for _, mid in found if mid]
        state.detached = distinct([*state.detached, *gone, *edited])[-5000:]
        state.entries[name] = kept
        if not kept:
            state.entries.pop(name)
    items = []
    for entry, edited_from in found:
        body = "\n".join(topics.entry_text(entry).splitlines()[: opts.max_topic_file_lines])
        if not body:
            continue
        meta = _provenance(target, name, "topic", now, line_hash=sha(entry.text))
        if edited_from:
            meta["edited_from"] = edited_from
        items.append({
            "text": body, "type": CATEGORY_TYPE.get(cat, MemoryType.INSIGHT), "category": cat,
            "topic": entry.heading[:200] if entry.heading else None,
            "tags": ["auto-memory", name.removesuffix(".md")[:64]],
            "confidence": opts.import_confidence, "source": f"auto-memory:{name}",
            "metadata": meta, **target.fields(),
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


def _store_items(svc: Ports, items: list[dict[str, Any]], errors: list[str]
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


def _update_client(svc: Ports, memory_id: str, item: dict[str, Any]) -> bool | None:
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


def _adopt(svc: Ports, target: Target, state: DirState, name: str,
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


def import_dir(svc: Ports, target: Target, opts: AutoMemoryOptions, *, lock: bool = True
               ) -> dict[str, Any]:
    """Read changed files of ``target.dir`` into the store. Unchanged files (same mtime and
    size, or same bytes) are not parsed again; entries already stored count as skipped."""
    ctx = dir_lock(target.dir, opts.lock_timeout_s) if lock else contextlib.nullcontext()
    with ctx:
        state = load_state(svc.store, target.dir)
        before = {**asdict(state), "imported_at": None}
        first = state.imported_at is None
        recovered = writes.recover(target.dir, state)
        warning = migrate_lowercase_index(target.dir) if target.dir.is_dir() else None
        counts = _import(svc, target, opts, state)
        counts["recovered"] = recovered
        if warning:
            counts["errors"].append(warning)
        if first or {**asdict(state), "imported_at": None} != before:
            save_state(svc.store, target.dir, state)  # a no-op import writes nothing
    return counts


def _import(svc: Ports, target: Target, opts: AutoMemoryOptions, state: DirState
            ) -> dict[str, Any]:
    now = svc.clock()
    paths = _md_files(target.dir)
    existing = {p.name for p in paths}
    counts: dict[str, Any] = {"dir": str(target.dir), "scope": target.label, "files": len(paths),
                              "imported": 0, "updated": 0, "unchanged": 0, "skipped": 0,
                              "errors": []}
    pending: list[tuple[str, list[Any], list[str], list[dict[str, Any]]]] = []
    inside = target.dir.resolve()
    for path in paths:
        name = path.name
        if path.is_symlink() and not path.resolve().is_relative_to(inside):
            # a link out of the folder would read any file of the user's into the store
            counts["errors"].append(f"{name}: a link to a file outside the memory folder; not "
                                    "imported")
            continue
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
            client_file = fm is not None and ("name" in fm or "description" in fm)
            if client_file:
                item = _client_item(target, name, fm or {}, body, opts, now)
                if item and edited_from:
                    item["metadata"]["edited_from"] = edited_from[0]
                items = [item] if item else []
                state.topics = [t for t in state.topics if t != name]
            else:
                items = _topic_items(svc, target, state, name, text, opts, now)
                state.topics = distinct([*state.topics, name])
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
        state.entries.pop(gone, None)
    state.topics = [t for t in state.topics if t in existing]
    state.imported_at = now
    return counts


# -- curation and sync -------------------------------------------------------------------------


@dataclass
class Plan:
    """What a sync or curate would write."""

    path: Path
    current: str
    curated: Curated
    files: dict[str, str]  # one-fact file name -> text, for memories Kenning writes files for
    keep: set[str]  # owned one-fact files still wanted
    names: dict[str, str]  # memory id -> the file its index line points to
    topic_texts: dict[str, str] = field(default_factory=dict)  # topic file -> new text
    topic_entries: dict[str, list[str]] = field(default_factory=dict)  # -> our entries' sha
    topic_members: dict[str, str] = field(default_factory=dict)  # memory id -> topic file
    archives: dict[str, str] = field(default_factory=dict)  # archive file -> new text
    archived: int = 0  # a person's entries moved to an archive file for room
    left_out: int = 0  # Kenning's entries left out of a topic file for room


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


def _topic_file(opts: AutoMemoryOptions, category: Category, state: DirState,
                existing: set[str]) -> str:
    """The topic file of a category (``debugging.md``...); when a file of that name exists and
    is not a topic file (someone's one-fact file), ``<name>-kenning.md`` instead."""
    name = opts.file_for_category(category)
    if name in existing and name not in state.topics and name not in state.entries:
        return f"{name.removesuffix('.md')}-kenning.md"
    return name


def _redacted_lines(lines: list[str]) -> list[str]:
    """Each line with its secrets redacted, judged together as well as one by one: a secret
    that spans lines (a key file's private lines and their MAC) is only told by the lines
    around it, and its parts are then taken out of every line (see ``redact_obj``)."""
    if not lines:
        return []
    out, _ = redact_obj(["\n".join(lines), lines])
    assert isinstance(out, list) and isinstance(out[1], list)
    return [str(line) for line in out[1]]


def _excluded(m: Memory, target: Target, pinned_files: set[str], dropped: set[str],
              existing: set[str]) -> bool:
    """Memories the directory already shows (a person's line, a topic file's entry, the
    client's own file) or that a person removed from it."""
    prov = m.metadata.get("automemory")
    if not isinstance(prov, dict) or prov.get("dir") != str(target.dir):
        return False
    kind, name = prov.get("kind"), prov.get("file")
    if kind == "index-line":
        return prov.get("line_hash") not in dropped
    if kind == "memory-file":
        return name in pinned_files or name not in existing
    return kind == "topic"  # kept in its topic file (or its archive), never copied out


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n")
    except OSError:
        return ""


def plan(svc: Ports, target: Target, opts: AutoMemoryOptions, state: DirState, *,
         files_for: int, all_topics: bool = False,
         categories: frozenset[Category] | None = None) -> Plan:
    """Choose memories for the index (and the first ``files_for`` for files or topic-file
    entries); pure curation decides the text. ``all_topics`` also brings every topic file
    within its line limit; ``categories`` leaves memories of other categories as they are."""
    path = target.dir / INDEX
    current = _read(path)
    pinned = person_lines(svc, state, parse_index(current), opts)
    pinned_files = {ln.file for ln in pinned if ln.file}
    dropped = set(state.dropped_lines)
    detached = set(state.detached)
    existing = {p.name for p in _md_files(target.dir)}
    taken = existing - set(state.owned)
    topic_layout = opts.layout == "topic-files"

    def in_scope(m: Memory) -> bool:
        return categories is None or m.category in categories

    # A rule the user stated is in force at any confidence (``Memory.user_rule``): rows of the
    # types rules are stored as come through whatever their confidence, and are told apart
    # below, once loaded.
    rows = [r for r in svc.store.node_rows(target.filters(svc.project))
            if r[4] >= opts.min_confidence or r[1] in RULE_TYPES]
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
                    m.type.value, m.topic) or m.outcome is OutcomeStatus.FAILED:
                continue  # another agent's, superseded, failed, or a session record: MEMORY.md
                # shows the lessons that hold now
            m = svc.live(m, now)  # confidence as of now: unused memories fade out of the index
            if m.confidence < opts.min_confidence and not m.user_rule:
                continue
            if m.id in detached or _excluded(m, target, pinned_files, dropped, existing) or (
                    state.synced.get(m.id) in pinned_files):
                continue  # shown by a line a person wrote or kept
            if not in_scope(m) and m.id not in state.synced:
                continue  # another category, not shown yet: this sync leaves it alone
            prov = m.metadata.get("automemory")
            client_file = (isinstance(prov, dict) and prov.get("dir") == str(target.dir)
                           and prov.get("kind") == "memory-file")
            if client_file and isinstance(prov, dict):
                name: str | None = prov["file"]
            elif topic_layout:
                name = _topic_file(opts, m.category, state, existing)
            else:
                name = _file_name(m, state, taken)
            if name is None:
                continue
            names[m.id] = name
            if client_file or not topic_layout:
                taken.add(name)  # one file per memory, even if two slugs meet
            line = render_line(m, name, opts)
            touched = max(m.updated_at, m.last_accessed_at or 0)
            chosen.append((m, Candidate(m.id, line, LABELS[m.category], m.confidence,
                                        c.pagerank, touched), not client_file))
    chosen = _without_echoes(svc, chosen, now)
    # A person's lines are kept, with any secret in them redacted (they reach every prompt).
    shown = list(zip(pinned, _redacted_lines([ln.text for ln in pinned]), strict=True))
    notes = _no_longer_current(svc, state, [(ln, text) for ln, text in shown
                                            if ln.kind != "heading"], now)
    curated = curate_index([c for _, c, _ in chosen], [text for _, text in shown], now, opts,
                           notes)
    in_index = set(curated.chosen)
    ref2 = min(now, max((c.touched_ms for _, c, _ in chosen), default=now))
    ranked = sorted(chosen, key=lambda t: (tuple(-x for x in rank_key(
        t[1], ref2, opts.prune_strategy)), t[1].id))
    wanted = {m.id for m, _, _ in ranked[:files_for]} | in_index
    files: dict[str, str] = {}
    keep = pinned_files & set(state.owned)
    block: dict[str, list[Memory]] = {}
    for m, _, ours in ranked:
        if not ours:
            continue
        if not in_scope(m):
            if names[m.id] in state.owned:
                keep.add(names[m.id])  # another category's file: left as it is
            continue
        if m.id not in wanted:
            continue
        if topic_layout:
            block.setdefault(names[m.id], []).append(m)
        else:
            files[names[m.id]] = render_file(m, names[m.id], opts)
    keep |= set(files)
    p = Plan(path, current, curated, files, keep, names)
    todo = set(block) | (set(state.entries) & existing)
    if all_topics:
        todo |= set(state.topics) & existing
    for name in sorted(todo):
        cat = opts.category_for_file(name)
        if categories is not None and (cat is None or cat not in categories):
            continue
        _plan_topic(svc, target, opts, state, p, name, block.get(name, []), cat, now)
    return p


def _plan_topic(svc: Ports, target: Target, opts: AutoMemoryOptions,
                state: DirState, p: Plan, name: str, ours: list[Memory],
                category: Category | None, now: int) -> None:
    """One topic file's new text: a person's text as it is, then Kenning's block with
    ``ours`` (best first). Over ``max_topic_file_lines``, the least confident entries go: a
    person's to ``archive/<name>`` (their text is kept there), Kenning's are left out."""
    current = _read(target.dir / name)
    split = topics.split_block(current)
    label = LABELS.get(category) if category else None
    title = f"# {label or name.removesuffix('.md').capitalize()}"
    # the title Kenning wrote above its block, alone: not a person's text
    outside = "" if split.has_block and split.outside.strip() == title else split.outside
    own = set(state.entries.get(name, []))
    theirs = [e for e in parse_topic(split.block) if sha("\n".join(e.lines)) not in own]
    if theirs:  # entries a person wrote or changed inside the block move out of it, as theirs
        outside = topics.with_entries(outside, theirs)
    person = parse_topic(outside)
    rendered = [(m, render_entry(m, opts)) for m in ours]
    entries_lines = sum(e.end - e.start for e in person)
    fixed = topics.non_entry_lines(outside, person) if outside.strip() else 1
    ours_lines = sum(len(r.splitlines()) for _, r in rendered)
    total = fixed + entries_lines + (ours_lines + topics.BLOCK_OVERHEAD if rendered else 0)
    archived: list[TopicEntry] = []
    kept = rendered
    if total > opts.max_topic_file_lines:
        values = _entry_values(svc, state, name, now)
        pieces = [topics.Piece(f"p{i}", e.end - e.start,
                               (values.get(sha(e.text), opts.import_confidence), i), True)
                  for i, e in enumerate(person)]
        pieces += [topics.Piece(m.id, len(r.splitlines()), (m.confidence, 0), False)
                   for m, r in rendered]
        stay = topics.fit(fixed, pieces, opts.max_topic_file_lines)
        archived = [e for i, e in enumerate(person) if f"p{i}" not in stay]
        kept = [(m, r) for m, r in rendered if m.id in stay]
    if not split.has_block and not kept and not archived:
        p.topic_entries[name] = []
        return  # nothing of Kenning's to write: a person's file stays byte for byte
    if archived:
        outside = topics.drop_entries(outside, archived)
    text = topics.compose(outside, [r for _, r in kept], title)
    if text != current:
        p.topic_texts[name] = text
    p.topic_entries[name] = [sha(r) for _, r in kept]
    p.topic_members.update({m.id: name for m, _ in kept})
    p.left_out += len(rendered) - len(kept)
    if archived:
        archive = f"{topics.ARCHIVE_DIR}/{name}"
        day = iso(now)[:10] if now else ""
        p.archives[archive] = topics.archive_text(_read(target.dir / archive), name, day,
                                                  archived)
        p.archived += len(archived)


def _entry_values(svc: Ports, state: DirState, name: str, now: int
                  ) -> dict[str, float]:
    """A topic file's entries (by the hash of their text) -> the live confidence of the
    memory each was imported as."""
    out: dict[str, float] = {}
    for m in svc.store.get_many(state.sources.get(name, [])).values():
        prov = m.metadata.get("automemory")
        if isinstance(prov, dict) and prov.get("file") == name and prov.get("line_hash"):
            out[str(prov["line_hash"])] = svc.live(m, now).confidence
    return out


def write_dir(svc: Ports, target: Target, opts: AutoMemoryOptions, *, sync: bool,
              categories: frozenset[Category] | None = None) -> dict[str, Any]:
    """Import first (a person's lines become memories before anything is rewritten), then
    write the memory files (or topic files) and MEMORY.md atomically, each write journalled
    first so an interrupted run is completed by the next one. ``sync`` also writes files beyond
    the index (up to ``max_files``), keeps every topic file within its line limit and removes
    Kenning's own unchanged files no longer wanted; ``categories`` limits the run to them."""
    with dir_lock(target.dir, opts.lock_timeout_s):
        state = load_state(svc.store, target.dir)
        recovered = writes.recover(target.dir, state)
        warning = migrate_lowercase_index(target.dir) if target.dir.is_dir() else None
        imported = _import(svc, target, opts, state)
        imported["recovered"] = recovered
        if warning:
            imported["errors"].append(warning)
        p = plan(svc, target, opts, state, files_for=opts.max_files if sync else 0,
                 all_topics=sync, categories=categories)
        target.dir.mkdir(parents=True, exist_ok=True)
        changes = [Change(n, t, writes.ARCHIVE) for n, t in sorted(p.archives.items())]
        changes += [Change(n, t or None, writes.TOPIC) for n, t in sorted(p.topic_texts.items())]
        for name, text in sorted(p.files.items()):
            if (target.dir / name).exists() and name not in state.owned:
                continue  # never overwrite a file someone else wrote
            changes.append(Change(name, text, writes.FILE))
        if sync:
            for name in sorted(set(state.owned) - p.keep):
                if writes.disk_sha(target.dir / name) in (state.owned[name], None):
                    changes.append(Change(name, None, writes.FILE))
                else:  # changed since the import: left to the next import, never deleted
                    state.owned.pop(name)
        changes.append(Change(INDEX, p.curated.text, writes.INDEX_KIND))
        owned_after = (set(state.owned) | {c.name for c in changes
                                           if c.kind == writes.FILE and c.text is not None}) - {
            c.name for c in changes if c.kind == writes.FILE and c.text is None}
        entries_before = {n: list(e) for n, e in state.entries.items()}
        state.entries = {**{n: e for n, e in state.entries.items() if n not in p.topic_entries},
                         **{n: e for n, e in p.topic_entries.items() if e}}
        state.topics = distinct([*state.topics, *(n for n, t in p.topic_texts.items() if t)])
        state.synced = {
            **{mid: n for mid, n in state.synced.items()
               if (n in p.keep and n in owned_after) or (n in state.entries
                                                          and mid not in p.names)},
            **{mid: n for mid, n in p.names.items() if n in owned_after},
            **p.topic_members,
        }
        lines_before = list(state.own_lines)
        state.own_lines = sorted({sha(line) for line in p.curated.own_lines})
        dropped_now = {sha(line) for line in p.curated.pinned_dropped}
        state.dropped_lines = sorted(set(state.dropped_lines) | dropped_now)[-5000:]
        now = svc.clock()
        state.curated_at = now
        if sync:
            state.synced_at = now
        done = writes.apply(
            target.dir, state, changes, lambda st: save_state(svc.store, target.dir, st),
            index_lines_before=lines_before, entries_before=entries_before)
        save_state(svc.store, target.dir, state)
    return {
        "dir": str(target.dir), "scope": target.label, "path": str(p.path),
        "layout": opts.layout,
        "lines": p.curated.lines, "bytes": p.curated.bytes,
        "memories_in_index": len(p.curated.chosen), "human_lines_kept": len(p.curated.pinned_kept),
        "human_lines_left_out": len(p.curated.pinned_dropped),
        "files_written": done[writes.FILE], "files_removed": done["removed"],
        "topic_files_written": done[writes.TOPIC],
        "entries_archived": p.archived, "entries_left_out": p.left_out,
        "index_changed": bool(done[writes.INDEX_KIND]), "imported": imported,
        "categories": sorted(c.value for c in categories) if categories is not None else None,
    }


def preview(svc: Ports, target: Target, opts: AutoMemoryOptions) -> dict[str, Any]:
    """The MEMORY.md a curate would write now (no import, nothing written)."""
    state = load_state(svc.store, target.dir)
    writes.recover(target.dir, state, remove_temp=False)  # as the next write will see it
    p = plan(svc, target, opts, state, files_for=0)
    return {
        "path": str(p.path), "text": p.curated.text, "lines": p.curated.lines,
        "bytes": p.curated.bytes, "max_lines": opts.max_index_lines,
        "max_bytes": opts.max_index_bytes, "changed": p.curated.text != p.current,
    }


def status(svc: Ports, target: Target, opts: AutoMemoryOptions) -> dict[str, Any]:
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
    loaded = client_view(text, CLIENT_MAX_LINES, CLIENT_MAX_BYTES)
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
                  "cut_by_client": len(lines) > CLIENT_MAX_LINES or size > CLIENT_MAX_BYTES,
                  "loaded_lines": len(loaded.splitlines()),
                  "human_lines": len(human)},
        "files": {"total": len(paths), "kenning": len(set(state.owned) & {p.name for p in paths}),
                  "other": len([p for p in paths if p.name not in state.owned])},
        "changed_since_import": changed,
        "eligible_memories": eligible,
        "min_confidence": opts.min_confidence,
        "sync_mode": opts.sync_mode, "layout": opts.layout,
        "interrupted_writes": len(state.pending),
        "temp_files": len(writes.stray_temp_files(target.dir)),
        "imported_at": iso(state.imported_at), "synced_at": iso(state.synced_at),
        "curated_at": iso(state.curated_at),
    }


def distinct(values: list[str]) -> list[str]:
    """``values`` without repeats, first occurrence kept."""
    return list(dict.fromkeys(values))
