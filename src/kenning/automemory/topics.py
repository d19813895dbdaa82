"""Topic files (``debugging.md``, ``patterns.md``, ...): what a person wrote stays as they wrote
it, Kenning's entries live in one marked block, and a file over its line limit keeps its most
confident entries while the others move to an archive file. Pure: text and values in, text out.

Kenning's block::

    <!-- kenning:begin: entries below are kept in step with Kenning; edit or delete freely -->
    - Vite needs --host inside docker <!-- kenning:01JX... -->
      (the detail, indented)
    <!-- kenning:end -->

Each entry names its memory, so an entry a person edits is recognised as their version of that
memory, and Kenning knows its own entries again even when its state is lost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kenning.automemory.files import TopicEntry, clip, one_line, parse_topic

BEGIN = ("<!-- kenning:begin: entries below are kept in step with Kenning; edit or delete "
         "freely -->")
END = "<!-- kenning:end -->"
_BEGIN_PREFIX = "<!-- kenning:begin"
_ID = re.compile(r"\s*<!-- kenning:([0-9A-Za-z]{6,40}) -->\s*$")
ARCHIVE_DIR = "archive"
BLOCK_OVERHEAD = 3  # a blank line and the two markers
ENTRY_CHARS = 200  # an entry's first line, as the client asks of index lines
ENTRY_LINES = 12  # an entry's lines at most: the summary and the start of the detail


@dataclass(frozen=True, slots=True)
class Split:
    """A topic file cut in two: a person's text (``outside``) and the inside of Kenning's
    block (``block``, "" when the file has none)."""

    outside: str
    block: str
    has_block: bool


def split_block(text: str) -> Split:
    """Separate Kenning's block from the rest; the blank lines the block was set off with go
    with it. A block whose end marker is missing runs to the end of the file."""
    lines = text.split("\n")
    start = next((i for i, ln in enumerate(lines) if ln.strip().startswith(_BEGIN_PREFIX)), None)
    if start is None:
        return Split(text, "", False)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == END), len(lines))
    before = lines[:start]
    while before and not before[-1].strip():
        before.pop()
    after = lines[end + 1:]
    while after and not after[0].strip():
        after.pop(0)
    outside = "\n".join([*before, *([""] if before and after else []), *after]).rstrip("\n")
    return Split(outside + "\n" if outside else "", "\n".join(lines[start + 1:end]), True)


def entry_id(entry: TopicEntry) -> str | None:
    """The memory an entry of Kenning's block names, if it names one."""
    m = _ID.search(entry.lines[0]) if entry.lines else None
    return m.group(1) if m else None


def entry_text(entry: TopicEntry) -> str:
    """An entry's text without its bullet and without Kenning's id marker."""
    first, *rest = entry.lines
    return TopicEntry(entry.heading, [_ID.sub("", first), *rest]).text


def render_entry(memory_id: str, summary: str, content: str, max_lines: int) -> str:
    """A memory as an entry of Kenning's block: its summary on the bullet line (with the id
    marker), the rest of its text indented below when it says more."""
    first = f"- {clip(one_line(summary), ENTRY_CHARS)} <!-- kenning:{memory_id} -->"
    body = [ln.strip() for ln in content.strip().splitlines() if ln.strip()]
    if one_line(content) == one_line(summary) or not body:
        return first
    # A detail line that would read as a heading or a code fence is escaped, so the entry
    # parses back as one entry.
    body = [f"\\{ln}" if ln.startswith(("#", "```")) else ln for ln in body]
    return "\n".join([first, *(f"  {ln}" for ln in body[: max(0, max_lines - 1)])])


def with_entries(outside: str, entries: Sequence[TopicEntry]) -> str:
    """``outside`` with ``entries`` (taken from Kenning's block) appended as a person's, their
    id markers removed: a person's version of an entry is theirs."""
    moved = ["\n".join([_ID.sub("", e.lines[0]), *e.lines[1:]]) for e in entries]
    head = outside.rstrip("\n")
    return "\n\n".join(part for part in (head, "\n".join(moved)) if part) + "\n"


def compose(outside: str, entries: Sequence[str], title: str) -> str:
    """The file: a person's text, then Kenning's block when it has entries. A file that would
    hold only the block gets ``title`` as its first line."""
    head = outside.rstrip("\n")
    if not entries:
        return head + "\n" if head else ""
    block = "\n".join([BEGIN, *entries, END])
    return f"{head or title}\n\n{block}\n"


@dataclass(frozen=True, slots=True)
class Piece:
    """One entry competing for room in a file: a person's (``person``) or one of Kenning's,
    its line count, and its value (higher stays)."""

    key: str
    lines: int
    value: tuple[float, ...]
    person: bool


def fit(fixed_lines: int, pieces: Sequence[Piece], limit: int) -> set[str]:
    """The keys of the pieces that stay within ``limit`` lines, most valuable first, given
    ``fixed_lines`` lines that are not entries (headings, blank lines). Kenning's block costs
    its markers once one of its entries stays. A person's entries win ties."""
    used = fixed_lines
    block = False
    kept: set[str] = set()
    for p in sorted(pieces, key=lambda p: (tuple(-x for x in p.value), not p.person, p.key)):
        cost = p.lines + (0 if p.person or block else BLOCK_OVERHEAD)
        if used + cost > limit:
            continue
        used += cost
        kept.add(p.key)
        block = block or not p.person
    return kept


def drop_entries(text: str, entries: Sequence[TopicEntry]) -> str:
    """``text`` without the lines of ``entries`` (parsed from that text), and without the blank
    lines that would pile up where they stood."""
    gone = {n for e in entries for n in range(e.start, e.end)}
    out: list[str] = []
    for n, line in enumerate(text.split("\n")):
        if n in gone:
            continue
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return "\n".join(out).rstrip("\n") + "\n" if any(ln.strip() for ln in out) else ""


def non_entry_lines(text: str, entries: Sequence[TopicEntry]) -> int:
    """Lines of ``text`` that belong to no entry (headings, blank lines)."""
    return len(text.splitlines()) - sum(e.end - e.start for e in entries)


def archive_text(existing: str, source: str, day: str, entries: Sequence[TopicEntry]) -> str:
    """The archive file with ``entries`` of ``source`` appended under a dated heading; entries
    already archived are not added twice."""
    have = {e.text for e in parse_topic(existing)}
    fresh = [e for e in entries if e.text not in have]
    if not fresh:
        return existing
    head = existing.rstrip("\n") or f"# Archived entries of {source}"
    parts = [head, "", f"## Moved out of {source} on {day} (least confident first)"]
    for e in fresh:
        parts.append("\n".join(e.lines))
    return "\n".join(parts) + "\n"
