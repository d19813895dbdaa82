"""The client's memory files: one-fact files with ``name``/``description``/``metadata.type``
frontmatter, the MEMORY.md index of one-line pointers, and topic files (``debugging.md``,
``patterns.md``, ...: one file per topic of the auto memory options' topic mapping)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kenning.files import atomic_write_bytes

CLIENT_TYPES = ("user", "feedback", "project", "reference")
_POINTER = re.compile(
    r"^\s*[-*]\s+\[(?P<title>[^\]\n]*)\]\((?P<file>[^)\s]+\.md)\)\s*(?:[—–:-]+\s*(?P<hook>.*))?$"
)
_BULLET = re.compile(r"^[-*+]\s+(?:\[[ xX]\]\s+)?")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SPECIAL = re.compile(r"""^[\s\-?:,\[\]{}#&*!|>'"%@`]|[:#]\s|\s$|^$|[\x00-\x1f]""")


def sha(text: str) -> str:
    """Short SHA-256 of text: line and file identities in provenance and state."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# -- frontmatter -------------------------------------------------------------------------------


def _scalar(raw: str) -> Any:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        try:
            return json.loads(raw)
        except ValueError:
            return raw[1:-1]
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        return raw[1:-1].replace("''", "'")
    if raw in ("", "~", "null"):
        return None
    return raw


def split_frontmatter(text: str) -> tuple[dict[str, Any] | None, str]:
    """The YAML frontmatter as a dict (one nesting level, as the client writes it) and the body.
    No frontmatter gives ``(None, text)``."""
    if not text.startswith("---"):
        return None, text
    lines = text.split("\n")
    if lines[0].strip() != "---":
        return None, text
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        return None, text
    data: dict[str, Any] = {}
    parent: dict[str, Any] | None = None
    for line in lines[1:end]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indented = line[:1] in (" ", "\t")
        key, sep, value = line.strip().partition(":")
        if not sep:
            continue
        key = key.strip().strip("\"'")
        if indented and parent is not None:
            parent[key] = _scalar(value)
        elif not value.strip():
            parent = data.setdefault(key, {}) if isinstance(data.get(key), dict) else {}
            data[key] = parent
        else:
            parent = None
            data[key] = _scalar(value)
    return data, "\n".join(lines[end + 1:])


def _yaml(value: object) -> str:
    text = str(value)
    return json.dumps(text, ensure_ascii=False) if _SPECIAL.search(text) else text


def render_memory_file(name: str, description: str, client_type: str, body: str,
                       extra: dict[str, object] | None = None) -> str:
    """One memory as the client writes it: frontmatter, a blank line, the fact."""
    lines = ["---", f"name: {_yaml(name)}", f"description: {_yaml(one_line(description))}",
             "metadata:", f"  type: {_yaml(client_type)}"]
    lines += [f"  {k}: {_yaml(v)}" for k, v in (extra or {}).items()]
    return "\n".join([*lines, "---", "", body.strip(), ""])


# -- MEMORY.md ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IndexLine:
    """One line of MEMORY.md and what it is."""

    number: int
    text: str
    kind: str  # blank | heading | pointer | entry
    heading: str | None = None  # the ## section it sits in
    file: str | None = None  # pointer target
    title: str | None = None
    hook: str | None = None

    @property
    def fact(self) -> str:
        """The line's text without its bullet: what gets imported as a memory."""
        return _BULLET.sub("", self.text.strip(), count=1).strip()


def parse_index(text: str) -> list[IndexLine]:
    """Classify every line of a MEMORY.md (blank, heading, pointer to a file, plain entry)."""
    out: list[IndexLine] = []
    section: str | None = None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            out.append(IndexLine(n, line, "blank", section))
            continue
        if h := _HEADING.match(line.strip()):
            if len(h.group(1)) >= 2:
                section = h.group(2)
            out.append(IndexLine(n, line, "heading", section))
            continue
        if p := _POINTER.match(line):
            out.append(IndexLine(n, line, "pointer", section, p.group("file"),
                                 p.group("title").strip(), (p.group("hook") or "").strip()))
            continue
        out.append(IndexLine(n, line, "entry", section))
    return out


def one_line(text: str) -> str:
    return " ".join(text.split())


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word boundary, with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: max(1, limit - 1)]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:") + "…"


def render_pointer(title: str, file: str, hook: str, max_chars: int) -> str:
    """``- [Title](file.md) — hook``: the client's index line, kept under ``max_chars``."""
    title = clip(one_line(title).replace("[", "(").replace("]", ")"), 60)
    head = f"- [{title}]({file}) — "
    return head + clip(one_line(hook), max(10, max_chars - len(head)))


def client_view(text: str, max_lines: int, max_bytes: int) -> str:
    """What the client loads of a MEMORY.md: at most ``max_lines`` whole lines within
    ``max_bytes`` bytes (Claude Code loads 200 lines and about 25,000 bytes)."""
    out: list[str] = []
    size = 0
    for line in text.splitlines()[:max_lines]:
        cost = len(line.encode("utf-8")) + 1
        if size + cost > max_bytes:
            break
        out.append(line)
        size += cost
    return "\n".join(out) + ("\n" if out else "")


# -- topic files -------------------------------------------------------------------------------


@dataclass(slots=True)
class TopicEntry:
    """One entry of a topic file: a top-level bullet with its continuation lines, or a
    paragraph; ``heading`` is the section it sits in, ``start``/``end`` its line span (0-based,
    end exclusive) in the text it was parsed from."""

    heading: str | None
    lines: list[str] = field(default_factory=list)
    start: int = 0
    end: int = 0

    @property
    def text(self) -> str:
        first, *rest = self.lines
        body = [_BULLET.sub("", first.strip(), count=1)] + [ln.strip() for ln in rest]
        return "\n".join(b for b in body if b).strip()


def parse_topic(text: str) -> list[TopicEntry]:
    """Entries of a topic file (``## Section`` headings, ``- `` bullets, paragraphs)."""
    entries: list[TopicEntry] = []
    heading: str | None = None
    current: TopicEntry | None = None
    fence = False
    for n, raw in enumerate(text.splitlines()):
        line = raw.rstrip()
        if line.lstrip().startswith("```"):
            fence = not fence
            if current is None:
                current = TopicEntry(heading, start=n)
                entries.append(current)
            current.lines.append(line)
            current.end = n + 1
            continue
        if fence and current is not None:
            current.lines.append(line)
            current.end = n + 1
            continue
        if not line.strip():
            if current is not None and not _BULLET.match(current.lines[0].lstrip()):
                current = None
            continue
        if h := _HEADING.match(line.strip()):
            heading, current = h.group(2), None
            continue
        if _BULLET.match(line) or current is None:
            current = TopicEntry(heading, [line], n, n + 1)
            entries.append(current)
        else:
            current.lines.append(line)
            current.end = n + 1
    return [e for e in entries if e.text]


# -- writing -----------------------------------------------------------------------------------


def atomic_write(path: Path, text: str) -> bool:
    """Write ``text`` through a temp file and rename; False (nothing touched) if unchanged."""
    data = text.encode("utf-8")
    with contextlib.suppress(OSError):
        if path.read_bytes() == data:
            return False
    atomic_write_bytes(path, data)
    return True


SLUG_CHARS = 24  # the file name is part of every MEMORY.md line: what it takes, the hook loses


def slug(text: str, limit: int = SLUG_CHARS) -> str:
    """A short kebab-case ASCII slug (the client's ``name``) of the first words of ``text``."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    out = ""
    for w in words:
        if len(out) + len(w) + 1 > limit:
            break
        out = f"{out}-{w}" if out else w
    return out or "memory"
