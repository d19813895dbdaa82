"""Whether a session acted on a memory it was shown: the memory's distinctive terms found in
what the session did after the injection (the files it edited, the commands and check suites it
ran, the tools it called).

Being put in front of the model proves nothing about a memory; being followed is evidence that it
mattered. Only terms that could not match by accident count: file paths, identifiers joined by
``_ . / -`` or written in CamelCase, backticked code, and the names of programs the session
actually ran. Plain prose words never do ("the billing ledger" does not make every edit of a
``ledger.py`` a use). Pure: a memory and event data in, a yes or no out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from kenning.models import Memory
from kenning.words import STOPWORDS, words

# Tool event fields that say what the session did (see kenning.hooks.handlers.record_tool).
TARGET_FIELDS = ("file", "cmd", "suite", "tool")
# Program and subcommand words too common to say which memory was followed.
GENERIC_COMMANDS = frozenset(
    """
    cd ls cat echo printf git python python3 py bash sh zsh make run test tests check build
    install uv pip pip3 npx node sudo env rm cp mv mkdir touch find grep rg sed awk head tail
    true false set export source which time timeout open start stop status add commit push
    pull diff log show help version init update upgrade list new exec do go read write edit
    glob task ok
    """.split()
)

_TOKEN = re.compile(r"[A-Za-z0-9_./~\-]+")
_BACKTICKED = re.compile(r"`([^`\n]{1,200})`")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]")
_JOINERS = frozenset("_./-")
_EDGES = ".,;:!?()[]{}<>\"'-/~"


def _identifier(token: str) -> bool:
    """A path or code identifier: joined by ``_ . / -`` or CamelCase, with a word of two or
    more letters or digits in it (so neither "e.g" nor "3.11" counts)."""
    if not any(c.isalpha() for c in token) or max(map(len, re.split(r"[_./\-]+", token))) < 2:
        return False
    return any(c in _JOINERS for c in token) or _CAMEL.search(token) is not None


def _plain(word: str) -> bool:
    """A word that may name a program: not a stopword, not a ubiquitous command."""
    return len(word) >= 2 and word not in STOPWORDS and word not in GENERIC_COMMANDS


def distinctive_terms(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """``(terms, names)`` of ``text``, lower-cased: ``terms`` are identifiers and backticked code
    (matched against files, commands, suites and tools), ``names`` its other words that could
    name a program (matched only against the programs the session ran)."""
    terms: set[str] = set()
    for span in _BACKTICKED.findall(text):
        span = span.strip()
        if any(c.isalpha() for c in span) and (" " in span or _plain(span.lower())
                                               or _identifier(span)):
            terms.add(span.lower())
        for piece in span.split():
            piece = piece.strip(_EDGES)
            if _identifier(piece) or _plain(piece.lower()):
                terms.add(piece.lower())
    for token in _TOKEN.findall(text):
        token = token.strip(_EDGES)
        # The whole token and its distinctive pieces: ``LedgerStore.charge`` names the file
        # ``LedgerStore.ts``, ``src/ui/Navbar.tsx`` the file ``Navbar.tsx`` wherever it is.
        for piece in {token, *token.split("/"), *re.split(r"[./]", token)}:
            if _identifier(piece):
                terms.add(piece.lower())
    names = frozenset(w for w in words(text) if _plain(w) and not w.isdigit())
    return frozenset(terms), names


def _occurs(term: str, text: str) -> bool:
    """``term`` in ``text`` (both lower-cased) not glued to a longer word on either side."""
    start = text.find(term)
    while start >= 0:
        end = start + len(term)
        before = start == 0 or not _word_char(text[start - 1]) or not _word_char(term[0])
        after = end == len(text) or not _word_char(text[end]) or not _word_char(term[-1])
        if before and after:
            return True
        start = text.find(term, start + 1)
    return False


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _targets(events: Iterable[Mapping[str, object]]) -> tuple[list[str], set[str]]:
    """Lower-cased texts of what the events did, and the programs they ran (the first word of
    each command and check suite: ``alembic`` of ``alembic upgrade``, never its subcommand)."""
    texts: list[str] = []
    programs: set[str] = set()
    for e in events:
        for name in TARGET_FIELDS:
            value = e.get(name)
            if isinstance(value, str) and value.strip():
                texts.append(value.lower())
                if name in ("cmd", "suite"):
                    programs.add(value.lower().split()[0])
    return texts, programs


def referenced(memory: Memory, later_tool_events: Sequence[Mapping[str, object]]) -> bool:
    """Whether the tool events that followed the memory's injection (their ``data``: ``file``,
    ``cmd``, ``suite``, ``tool``) name one of its distinctive terms: a file it mentions was
    edited, a program or check suite it names was run, an identifier or backticked snippet of it
    appears in a path or command."""
    texts, programs = _targets(later_tool_events)
    if not texts:
        return False
    text = "\n".join(filter(None, (memory.topic, memory.summary, memory.content,
                                   " ".join(memory.tags))))
    terms, names = distinctive_terms(text)
    if names & programs:
        return True
    return any(_occurs(term, target) for term in terms for target in texts)


# -- what injection has taught: memories shown often and never acted on rank lower ------------

MIN_SHOWN = 3  # sessions a memory must have been shown in before its use rate counts
USE_FLOOR = 0.5  # the lowest factor a never-used memory falls to


def injection_factor(shown: int, used: int) -> float:
    """How a memory's injection score is scaled by what sessions did with it: ``shown``
    sessions put it in front of the model for a prompt, ``used`` of them acted on it. Until it
    was shown in ``MIN_SHOWN`` sessions nothing is known (1.0); then a memory used in a third
    of them or more keeps 1.0, and one never used falls towards ``USE_FLOOR``."""
    if shown < MIN_SHOWN:
        return 1.0
    return max(USE_FLOOR, min(1.0, (used + 1) / (shown / 3 + 1)))


def use_counts(injected: Iterable[tuple[str, Sequence[str]]],
               used: Iterable[tuple[str, str]]) -> dict[str, tuple[int, int]]:
    """Per memory id, ``(sessions shown, sessions used)``: ``injected`` holds ``(session id,
    memory ids a prompt injection showed)``, ``used`` holds ``(session id, memory id)`` for each
    session that acted on a memory it was shown."""
    shown: dict[str, set[str]] = {}
    for session, ids in injected:
        for mid in ids:
            shown.setdefault(mid, set()).add(session)
    acted: dict[str, set[str]] = {}
    for session, mid in used:
        if mid in shown and session in shown[mid]:
            acted.setdefault(mid, set()).add(session)
    return {mid: (len(s), len(acted.get(mid, ()))) for mid, s in shown.items()}
