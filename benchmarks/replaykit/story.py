"""The story format: a fictional project, the lessons a good memory keeps, and the sessions in
which they are stated, changed and needed.

A story is plain Python data built with the small constructors below, so that it reads like a
script of the sessions and a typo is an error at import time (``validate``). Each session is a
list of events in the order the client would see them: what the user types, what the assistant
says, the tool calls it makes (with their real outcome), commits, compactions and subagents.

Annotations say what a good memory should do with it:

- ``states=`` on an event: the event is where a lesson is stated (by the user, the assistant, a
  tool's output or a commit message);
- ``replaces=`` / ``fails=``: from this session on, those lessons are superseded or failed (stale);
  when the same event also ``states`` a lesson, that lesson is their successor;
- ``Probe``: a user prompt in a later session that needs some lessons (``needs=``); the lessons
  it replaced are the stale ones it must not see presented as current (``stale=`` adds more);
- ``Session(judge={lesson: direction})``: after this session, the confidence of the memory that
  carries the lesson should have moved ``up``, ``down``, ``not_down`` or ``not_up``;
- ``Story(also=...)``: lessons that are true and worth keeping but that no probe needs, listed in
  a second annotation pass made without looking at any system's output. They take no part in
  probes, changes or learning; scoring counts a stored memory that carries one as useful in
  ``capture_precision_with_also`` and reports how many of them were kept (``also_recall``).

A lesson is recognised in text by ``match``: every group must occur in the same unit (a line of
context, a memory, a user turn); a group is alternatives separated by ``|``, each matched
case-insensitively at the start of a word (``format`` matches "formatting"); ``re:`` starts a
regular expression instead.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

LANGUAGES = ("python", "typescript", "javascript", "go", "rust", "ruby", "java", "kotlin",
             "php", "elixir", "csharp", "swift", "dart", "c", "cpp", "scala", "shell")
LESSON_KINDS = ("convention", "decision", "gotcha", "fact", "command", "preference")
DIRECTIONS = ("up", "down", "not_down", "not_up")


@dataclass(frozen=True)
class Lesson:
    """Something worth remembering: ``text`` says it in plain words; ``match`` recognises it."""

    id: str
    kind: str
    text: str
    match: tuple[str, ...]

    @cached_property
    def patterns(self) -> tuple[re.Pattern[str], ...]:
        return tuple(_group_pattern(g) for g in self.match)

    def found_in(self, text: str) -> bool:
        """True when every group of ``match`` occurs in ``text``."""
        return all(p.search(text) for p in self.patterns)


def _group_pattern(group: str) -> re.Pattern[str]:
    if group.startswith("re:"):
        return re.compile(group[3:], re.I)
    alts = [a.strip() for a in group.split("|") if a.strip()]
    if not alts:
        raise ValueError(f"empty match group {group!r}")
    return re.compile("|".join(r"(?<![A-Za-z0-9])" + re.escape(a) for a in alts), re.I)


def lesson(id: str, kind: str, text: str, *match: str) -> Lesson:
    """A lesson; ``match`` groups as described in the module docstring."""
    return Lesson(id, kind, text, tuple(match))


Ids = tuple[str, ...] | str  # lesson ids; one id may be given as a plain string


def _tuple(value: Ids) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of everything that happens in a session (annotations are keyword-only; a single
    lesson id may be given as a string)."""

    states: Ids = ()
    replaces: Ids = ()
    fails: Ids = ()

    def __post_init__(self) -> None:
        for name in ("states", "replaces", "fails", "needs", "stale"):
            if hasattr(self, name):
                object.__setattr__(self, name, _tuple(getattr(self, name)))


@dataclass(frozen=True)
class User(Event):
    """The user types ``text`` (one UserPromptSubmit, one user record)."""

    text: str


@dataclass(frozen=True, kw_only=True)
class Probe(User):
    """A user prompt that needs ``needs`` to be in front of the model (scored for delivery)."""

    needs: Ids = ()
    stale: Ids = ()


@dataclass(frozen=True)
class Say(Event):
    """The assistant answers in text (no tool)."""

    text: str


@dataclass(frozen=True)
class Bash(Event):
    """A Bash tool call with its output; ``ok=False`` is a PostToolUseFailure (``exit`` code)."""

    command: str
    out: str = ""
    ok: bool = True
    exit: int = 1
    description: str = ""


@dataclass(frozen=True)
class Edit(Event):
    """An Edit of a project file: ``old`` must occur in it; the file really changes."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class Write(Event):
    """A Write of a whole project file (created or replaced)."""

    path: str
    content: str


@dataclass(frozen=True)
class Read(Event):
    """A Read of a project file (the tool's output is the file as it is then)."""

    path: str


@dataclass(frozen=True)
class Commit(Event):
    """``git commit -am`` as a Bash call, really committed in the scratch project."""

    message: str


@dataclass(frozen=True)
class Compact(Event):
    """``/compact``: PreCompact, then the compaction agent's SubagentStop (agent_type "")."""

    instructions: str = ""


@dataclass(frozen=True)
class Subagent(Event):
    """A subagent (Task tool) finishes: SubagentStop with its last message."""

    report: str
    agent_type: str = "general-purpose"


@dataclass(frozen=True)
class Note:
    """A person adds ``text`` (one line) to MEMORY.md before a session starts."""

    text: str
    states: Ids = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "states", _tuple(self.states))


@dataclass(frozen=True)
class Session:
    """One Claude Code session, ``day`` days (fractions allowed) after the story starts.

    ``end`` is the SessionEnd reason, or None for a session the client never ended (a killed
    terminal). ``notes`` are MEMORY.md lines a person writes before it starts. ``noise`` marks a
    session in which nothing worth keeping happens; ``generated`` one made by
    ``replaykit.noise`` rather than written by hand."""

    day: float
    events: tuple[Event, ...]
    judge: dict[str, str] = field(default_factory=dict)
    notes: tuple[Note, ...] = ()
    end: str | None = "other"
    source: str = "startup"
    noise: bool = False
    generated: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "events", tuple(self.events))
        object.__setattr__(self, "notes", tuple(self.notes))


@dataclass(frozen=True)
class Project:
    """A fictional project: its language and the files of its first commit."""

    name: str
    language: str
    files: dict[str, str]


@dataclass(frozen=True)
class Story:
    """A multi-session story in one project. ``sources`` names the public material its user
    turns were taken from (``owner/repo`` of a public repository, or a page's address): the
    held-out set is split from the dev set by source, so no source feeds both."""

    id: str
    title: str
    project: Project
    lessons: tuple[Lesson, ...]
    sessions: tuple[Session, ...]
    hand_written: bool = True
    also: tuple[Lesson, ...] = ()
    sources: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "lessons", tuple(self.lessons))
        object.__setattr__(self, "also", tuple(self.also))
        object.__setattr__(self, "sources", tuple(self.sources))
        object.__setattr__(self, "sessions", tuple(self.sessions))

    @cached_property
    def by_id(self) -> dict[str, Lesson]:
        return {lesson.id: lesson for lesson in self.lessons}

    def stated_in(self) -> dict[str, int]:
        """Each lesson's first stating session (index)."""
        out: dict[str, int] = {}
        for i, s in enumerate(self.sessions):
            for ev in _annotated(s):
                for lid in ev.states:
                    out.setdefault(lid, i)
        return out

    def ended_in(self) -> dict[str, tuple[int, str]]:
        """Each stale lesson's session of replacement or failure, and which (``replaced`` or
        ``failed``)."""
        out: dict[str, tuple[int, str]] = {}
        for i, s in enumerate(self.sessions):
            for ev in s.events:
                for lid in ev.replaces:
                    out.setdefault(lid, (i, "replaced"))
                for lid in ev.fails:
                    out.setdefault(lid, (i, "failed"))
        return out

    def successors(self) -> dict[str, set[str]]:
        """Lessons stated by the event that replaced or failed another: old -> new ones
        (computed once per story; scoring asks for it per probe and per stale lesson)."""
        return self._successors

    @cached_property
    def _successors(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for s in self.sessions:
            for ev in s.events:
                for old in (*ev.replaces, *ev.fails):
                    out.setdefault(old, set()).update(ev.states)
        return out

    def stale_for(self, session: int, probe: Probe) -> tuple[str, ...]:
        """The stale lessons a probe must not see as current: those its needs replaced (directly
        or through a chain), plus its explicit ``stale``, if stale by then."""
        ended = self.ended_in()
        succ = self.successors()
        needs = set(probe.needs)
        out = [lid for lid, (i, _) in ended.items() if i <= session
               and _reaches(lid, needs, succ)]
        out += [lid for lid in probe.stale if lid not in out]
        return tuple(out)


def _reaches(start: str, targets: set[str], succ: dict[str, set[str]]) -> bool:
    seen: set[str] = set()
    todo = [start]
    while todo:
        cur = todo.pop()
        for nxt in succ.get(cur, ()):
            if nxt in targets:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def _annotated(session: Session) -> list[Event | Note]:
    return [*session.notes, *session.events]


def validate(story: Story) -> None:
    """Raise ValueError naming the first thing wrong with ``story``."""
    where = f"story {story.id!r}"
    if story.project.language not in LANGUAGES:
        raise ValueError(f"{where}: unknown language {story.project.language!r}")
    ids = [le.id for le in (*story.lessons, *story.also)]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{where}: duplicate lesson ids")
    for le in (*story.lessons, *story.also):
        if le.kind not in LESSON_KINDS:
            raise ValueError(f"{where}: lesson {le.id!r} has unknown kind {le.kind!r}")
        if not le.match:
            raise ValueError(f"{where}: lesson {le.id!r} has no match groups")
        le.patterns  # noqa: B018 - compiles every group now, so a bad pattern fails here
    days = [s.day for s in story.sessions]
    if days != sorted(days):
        raise ValueError(f"{where}: sessions are not in day order")
    stated = story.stated_in()
    ended = story.ended_in()
    for i, s in enumerate(story.sessions):
        for d in s.judge.values():
            if d not in DIRECTIONS:
                raise ValueError(f"{where}: session {i} judges with unknown direction {d!r}")
        for ev in _annotated(s):
            names = (*ev.states, *getattr(ev, "replaces", ()), *getattr(ev, "fails", ()),
                     *getattr(ev, "needs", ()), *getattr(ev, "stale", ()))
            for lid in (*names, *s.judge):
                if lid not in story.by_id:
                    raise ValueError(f"{where}: session {i} names unknown lesson {lid!r}")
            for lid in (*getattr(ev, "replaces", ()), *getattr(ev, "fails", ())):
                if stated.get(lid, i + 1) > i:
                    raise ValueError(f"{where}: session {i} ends {lid!r} before it is stated")
            if isinstance(ev, Probe):
                if not ev.needs:
                    raise ValueError(f"{where}: a probe in session {i} needs nothing")
                for lid in ev.needs:
                    if stated.get(lid, i) >= i:
                        raise ValueError(
                            f"{where}: probe in session {i} needs {lid!r}, not stated before it")
                    if lid in ended and ended[lid][0] <= i:
                        raise ValueError(
                            f"{where}: probe in session {i} needs {lid!r}, stale by then")
        for lid in s.judge:
            if stated.get(lid, i + 1) > i:
                raise ValueError(f"{where}: session {i} judges {lid!r} before it is stated")
    _check_files(story, where)
    for le in story.lessons:
        if le.id not in stated:
            raise ValueError(f"{where}: lesson {le.id!r} is never stated")
    texts = [event_text(ev) for s in story.sessions for ev in _annotated(s)]
    for le in story.also:
        if not any(le.found_in(t) for t in texts):
            raise ValueError(f"{where}: also-true lesson {le.id!r} is in no event's text")
    for i, s in enumerate(story.sessions):
        for ev in _annotated(s):
            for lid in ev.states:
                if not story.by_id[lid].found_in(event_text(ev)):
                    raise ValueError(f"{where}: session {i} states {lid!r} but its match "
                                     f"groups are not all in that event's text")


def _check_files(story: Story, where: str) -> None:
    """Play the story's file events on its project's files, as the replay does: an Edit or a Read
    needs its file, an Edit its old text, and a Commit something changed since the last one."""
    files = dict(story.project.files)
    dirty = False
    for i, s in enumerate(story.sessions):
        for ev in s.events:
            if isinstance(ev, (Edit, Read)) and ev.path not in files:
                raise ValueError(f"{where}: session {i} uses {ev.path!r}, which does not exist")
            if isinstance(ev, Edit):
                if ev.old not in files[ev.path]:
                    raise ValueError(f"{where}: session {i} edits {ev.path!r}, old text not found")
                files[ev.path] = files[ev.path].replace(ev.old, ev.new, 1)
                dirty = dirty or ev.old != ev.new
            elif isinstance(ev, Write):
                dirty = dirty or files.get(ev.path) != ev.content
                files[ev.path] = ev.content
            elif isinstance(ev, Commit):
                if not dirty:
                    raise ValueError(f"{where}: session {i} commits with nothing changed")
                dirty = False


def event_text(ev: Event | Note) -> str:
    """The words an event puts in the session (what a memory of it could carry)."""
    if isinstance(ev, Bash):
        return f"{ev.command}\n{ev.out}"
    if isinstance(ev, Edit):
        return f"{ev.path}\n{ev.old}\n{ev.new}"
    if isinstance(ev, Write):
        return f"{ev.path}\n{ev.content}"
    if isinstance(ev, Read):
        return ev.path
    if isinstance(ev, Commit):
        return ev.message
    if isinstance(ev, Compact):
        return ev.instructions
    if isinstance(ev, Subagent):
        return ev.report
    return str(getattr(ev, "text", ""))


def load_package(name: str, path: Iterable[str]) -> list[Story]:
    """Every story listed in ``STORIES`` by the modules of package ``name`` (found on ``path``),
    validated, in module then story order; duplicate ids are an error."""
    out: list[Story] = []
    for info in sorted(pkgutil.iter_modules(list(path)), key=lambda m: m.name):
        module = importlib.import_module(f"{name}.{info.name}")
        for story in getattr(module, "STORIES", ()):
            validate(story)
            out.append(story)
    ids = [s.id for s in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"duplicate story ids: {', '.join(dupes)}")
    return out
