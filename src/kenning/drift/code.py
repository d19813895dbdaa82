"""What a memory says about code, and whether that code has changed: the pure part of code
drift. Text and file contents in; mentions, symbols, fingerprints and verdicts out. Nothing here
reads a file or a clock: the service (``kenning.drift.service``) hands in what it read.

Symbols come from the standard library's ``ast`` for Python. For TypeScript/JavaScript, Go and
Rust a light heuristic stands in for a parser (a parser wheel per language would cost the hooks'
import time and the base install's size for a fingerprint): comments are blanked and string
contents masked, declarations are found with one regular expression per language, and a
declaration's region runs from its name to the brace that closes its body. A fingerprint is a
hash of the region with comments gone, whitespace collapsed and trailing commas (and in
JavaScript/TypeScript, semicolons) dropped; for Python, of the syntax tree without positions.
Reformatting or re-commenting code never counts as a change.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kenning.drift import manifests

MAX_FILE_BYTES = 1_000_000  # larger files are not anchored (generated code, data, bundles)
BINARY_PROBE = 8192  # a NUL byte in the head means a binary file

PYTHON = "python"
JS = "js"
GO = "go"
RUST = "rust"
LANGUAGES: Mapping[str, str] = {
    ".py": PYTHON, ".pyi": PYTHON,
    ".ts": JS, ".tsx": JS, ".js": JS, ".jsx": JS, ".mjs": JS, ".cjs": JS, ".mts": JS,
    ".cts": JS,
    ".go": GO,
    ".rs": RUST,
}
# Files a memory may name besides source: their whole content is the anchor.
OTHER_EXTENSIONS = frozenset({
    ".c", ".h", ".cc", ".cpp", ".hpp", ".java", ".kt", ".rb", ".php", ".cs", ".swift", ".scala",
    ".sh", ".sql", ".toml", ".yaml", ".yml", ".json", ".cfg", ".ini", ".md", ".html", ".css",
    ".vue", ".svelte", ".proto", ".tf", ".lua", ".ex", ".exs", ".zig", ".dart",
})
_EXTENSIONS = sorted({*LANGUAGES, *OTHER_EXTENSIONS}, key=len, reverse=True)
_EXT_RE = "|".join(re.escape(e[1:]) for e in _EXTENSIONS)

# -- mentions ------------------------------------------------------------------------------------

# A path: optional directories, a name and a known extension, optionally ":symbol" after it.
_PATH = re.compile(
    rf"(?<![\w/.@:-])((?:\.{{0,2}}/)?(?:[\w.+-]+/)*[\w+-][\w.+-]*\.(?:{_EXT_RE}))"
    rf"(?![\w/-])(?:(?::{{1,2}}|#)([A-Za-z_][\w.]*))?")
_CALLED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\(\)")
_QUOTED = re.compile(r"`([A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)?)(?:\(\))?`")
_SNAKE = re.compile(r"(?<![\w.])([a-z_][a-z0-9]*_[a-z0-9_]+)(?![\w(])")
_CAMEL = re.compile(r"(?<![\w.])([A-Z][a-z0-9]+[A-Z]\w*|[a-z]+[A-Z]\w*)(?![\w(])")


_EXT_HINT = re.compile(rf"\w\.(?:{_EXT_RE})(?![\w/-])")


def may_name_files(text: str) -> bool:
    """A quick test every write pays: False when ``text`` certainly names no file (no known
    extension after a name), so ``mentions`` need not run."""
    return _EXT_HINT.search(text) is not None


@dataclass(frozen=True)
class Mentions:
    """What a text names: paths (as written) and symbols (bare or qualified names)."""

    paths: tuple[str, ...]
    symbols: tuple[str, ...]
    # symbols written right after a path ("src/billing.py:compute_vat"), by that path
    pinned: tuple[tuple[str, str], ...] = ()


def mentions(text: str) -> Mentions:
    """The files and symbols ``text`` names. Symbols are only candidates: an anchor is made
    only for a name that is defined in a file the memory names (or was edited with it)."""
    paths: dict[str, None] = {}
    pinned: dict[tuple[str, str], None] = {}
    for m in _PATH.finditer(text):
        path = m.group(1).rstrip(".")
        paths[path] = None
        if m.group(2):
            pinned[(path, m.group(2))] = None
    symbols: dict[str, None] = {}
    scrubbed = _PATH.sub(" ", text)
    for pattern in (_QUOTED, _CALLED, _SNAKE, _CAMEL):
        for m in pattern.finditer(scrubbed):
            symbols[m.group(1).replace("::", ".")] = None
    for _, sym in pinned:
        symbols[sym] = None
    return Mentions(tuple(paths), tuple(symbols), tuple(pinned))


# -- files ---------------------------------------------------------------------------------------

def language(path: str) -> str | None:
    """The symbol language of a path by its extension (None: whole-file anchors only)."""
    dot = path.rfind(".")
    return LANGUAGES.get(path[dot:].lower()) if dot >= 0 else None


def anchorable_name(path: str) -> bool:
    dot = path.rfind(".")
    return dot >= 0 and (path[dot:].lower() in LANGUAGES or path[dot:].lower() in OTHER_EXTENSIONS)


def unusable(data: bytes) -> str | None:
    """Why a file's bytes cannot be anchored (too large, binary, not text), or None."""
    if len(data) > MAX_FILE_BYTES:
        return f"larger than {MAX_FILE_BYTES // 1_000_000} MB"
    if b"\0" in data[:BINARY_PROBE]:
        return "binary"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8 text"
    return None


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:20]


_WS = re.compile(r"\s+")
_TIGHT = re.compile(r" ?([{}()\[\];,.:=<>+\-*/%&|!?^~@]) ?")


def squeeze(text: str) -> str:
    """Whitespace collapsed, and dropped beside punctuation: layout-free text."""
    return _TIGHT.sub(r"\1", _WS.sub(" ", text)).strip()


_TRAILING_COMMA = re.compile(r",(?=[)\]}])")


def layout_free(text: str, lang: str) -> str:
    """Comment-free code (``_strip``'s first half) as formatters leave its meaning: whitespace
    collapsed, trailing commas dropped (rustfmt and Prettier add them), and for JavaScript and
    TypeScript the semicolons too (Prettier's ``semi`` option adds or drops them)."""
    out = _TRAILING_COMMA.sub("", squeeze(text))
    return out.replace(";", "") if lang == JS else out


def file_fingerprint(path: str, text: str) -> str:
    """The fingerprint of a whole file: its syntax tree for Python (when it parses), its
    comment-free, whitespace-collapsed text for brace languages, its whitespace-collapsed
    text otherwise."""
    lang = language(path)
    if lang == PYTHON:
        try:
            return _digest(ast.dump(ast.parse(text), include_attributes=False))
        except (SyntaxError, ValueError, RecursionError):
            pass
    elif lang is not None:
        return _digest(layout_free(_strip(text, lang)[0], lang))
    return _digest(squeeze(text))


def symbols(path: str, text: str) -> dict[str, str] | None:
    """``qualified name -> fingerprint`` of the functions, classes and methods (and Go/Rust
    types) defined in a file; None when the language is unknown or the file does not parse
    (no symbol-level verdict is given then)."""
    if manifests.is_manifest(path):
        return manifests.declared(path, text)
    lang = language(path)
    if lang == PYTHON:
        return _python_symbols(text)
    if lang is None:
        return None
    return _brace_symbols(text, lang)


def _python_symbols(text: str) -> dict[str, str] | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    out: dict[str, str] = {}

    def visit(body: Iterable[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + node.name
                out.setdefault(name, _digest(ast.dump(node, include_attributes=False)))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, name + ".")
            elif isinstance(node, ast.If | ast.Try):  # definitions under a guard
                visit(node.body, prefix)

    visit(tree.body, "")
    return out


# One pattern per brace language: group "name" is the declared name, "owner" (when present)
# the type a method belongs to.
_DECLS: Mapping[str, re.Pattern[str]] = {
    JS: re.compile(
        r"(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?"
        r"(?:(?:async[ \t]+)?function\*?[ \t]*(?P<fn>[A-Za-z_$][\w$]*)"
        r"|(?:class|interface|enum)[ \t]+(?P<cls>[A-Za-z_$][\w$]*)"
        r"|(?:const|let|var)[ \t]+(?P<var>[A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[ \t]*"
        r"(?:async[ \t]*)?(?:function\b|\([^)]*\)[ \t]*(?::[^=\n]+)?=>|[A-Za-z_$][\w$]*[ \t]*=>)"
        r"|(?:(?:public|private|protected|static|readonly|async|override|get|set)[ \t]+)*"
        r"(?P<method>[A-Za-z_$][\w$]*)[ \t]*(?:<[^>\n]*>)?\([^)\n]*\)[ \t]*(?::[^{\n]+)?\{)"),
    GO: re.compile(
        r"(?m)^[ \t]*func[ \t]*(?:\([ \t]*\w*[ \t]*\*?[ \t]*(?P<owner>\w+)[^)]*\)[ \t]*)?"
        r"(?P<fn>\w+)|^[ \t]*type[ \t]+(?P<cls>\w+)(?:\[[^\]\n]*\])?[ \t]+"
        r"(?:struct|interface)\b"),
    RUST: re.compile(
        r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:(?:async|const|unsafe|extern[ \t]+\"\w+\")"
        r"[ \t]+)*fn[ \t]+(?P<fn>\w+)"
        r"|^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:struct|enum|trait|union)[ \t]+(?P<cls>\w+)"
        r"|^[ \t]*impl(?:<[^>\n]*>)?[ \t]+(?:[\w:<>, ]+[ \t]+for[ \t]+)?(?P<impl>\w+)"),
}
_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "return", "function", "else",
                       "do", "with", "new", "typeof", "await", "constructor"})


def _strip(text: str, lang: str) -> tuple[str, str]:
    """(text without comments, the same with string contents masked), both the length of
    ``text`` so positions agree: comments become spaces, string contents become ``_``."""
    if lang == RUST:
        strings = r'r#*"(?:.|\n)*?"#*|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\\\'\n])\''
    elif lang == GO:
        strings = r'`[^`]*`|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\\\'\n])+\''
    else:
        strings = r'`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
    token = re.compile(rf"(//[^\n]*|/\*(?:.|\n)*?\*/)|({strings})")
    plain: list[str] = []
    masked: list[str] = []
    pos = 0
    for m in token.finditer(text):
        plain.append(text[pos:m.start()])
        masked.append(text[pos:m.start()])
        found = m.group(0)
        if m.group(1):
            blank = re.sub(r"[^\n]", " ", found)
            plain.append(blank)
            masked.append(blank)
        else:
            plain.append(found)
            masked.append(found[0] + re.sub(r"[^\n]", "_", found[1:-1]) + found[-1]
                          if len(found) >= 2 else found)
        pos = m.end()
    plain.append(text[pos:])
    masked.append(text[pos:])
    return "".join(plain), "".join(masked)


def _block_end(masked: str, start: int) -> int | None:
    """The end (exclusive) of the brace block opening at the first ``{`` after ``start``,
    unless a ``;`` ends the declaration first (no body); None when the braces never close."""
    i = start
    n = len(masked)
    while i < n and masked[i] not in "{;":
        i += 1
    if i >= n or masked[i] == ";":
        semi = masked.find("\n", i)
        return None if i >= n else (semi if semi >= 0 else n)
    depth = 0
    while i < n:
        c = masked[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _brace_symbols(text: str, lang: str) -> dict[str, str] | None:
    plain, masked = _strip(text, lang)
    if masked.count("{") != masked.count("}"):
        return None  # unbalanced: the heuristic would guess, so it gives no verdict
    out: dict[str, str] = {}
    blocks: list[tuple[int, int, str]] = []  # (start, end, name) of classes, impls
    for m in _DECLS[lang].finditer(masked):
        groups = m.groupdict()
        name = next((groups[g] for g in ("fn", "cls", "var", "method", "impl")
                     if groups.get(g)), None)
        if not name or name in _KEYWORDS:
            continue
        end = _block_end(masked, m.end() if groups.get("method") is None else m.end() - 1)
        if end is None:
            continue
        owner = groups.get("owner")
        if groups.get("impl"):
            blocks.append((m.start(), end, name))
            continue
        if owner is None:
            inside = [b for b in blocks if b[0] < m.start() < b[1]]
            if groups.get("method") and not inside:
                continue  # a call or a control statement at top level, not a method
            owner = inside[-1][2] if inside else None
        if groups.get("cls"):
            blocks.append((m.start(), end, name))
        qualified = f"{owner}.{name}" if owner else name
        out.setdefault(qualified, _digest(layout_free(plain[m.start():end], lang)))
    return out


def find_symbol(table: Mapping[str, str], wanted: str) -> str | None:
    """The qualified name in ``table`` that ``wanted`` names: itself, or a unique definition
    whose last part(s) it is (``compute_vat`` -> ``Billing.compute_vat``)."""
    if wanted in table:
        return wanted
    tail = "." + wanted
    found = [q for q in table if q.endswith(tail)]
    return found[0] if len(found) == 1 else None


# -- anchors and verdicts --------------------------------------------------------------------

@dataclass(frozen=True)
class Spot:
    """A place in the code a memory describes: a file, or a symbol in it, and its
    fingerprint when anchored."""

    path: str
    symbol: str  # "" for the whole file
    fingerprint: str


def spots(text: str, files: Mapping[str, str], hinted: Mapping[str, str] = {}) -> list[Spot]:
    """Where ``text`` points in the code. ``files`` are the files it names (repo-relative path
    -> content); ``hinted`` are files it was recorded beside (edited in the same session) that
    it does not name: those count only through a symbol defined in them. A named file whose
    symbols the text does not name is anchored whole."""
    said = mentions(text)
    out: list[Spot] = []
    for path, content in files.items():
        out += _spots_in(path, content, text, said, whole=True)
    for path, content in hinted.items():
        if path not in files:
            out += _spots_in(path, content, text, said, whole=False)
    return out


def _spots_in(path: str, content: str, text: str, said: Mentions, whole: bool) -> list[Spot]:
    table = symbols(path, content)
    found: dict[str, None] = {}
    if table and manifests.is_manifest(path):
        found = dict.fromkeys(manifests.named(text, table))  # the requirements it speaks of
    elif table:
        for sym in said.symbols:
            q = find_symbol(table, sym)
            if q is not None:
                found[q] = None
    if found and table:
        return [Spot(path, q, table[q]) for q in found]
    return [Spot(path, "", file_fingerprint(path, content))] if whole else []


FRESH = "fresh"
STALE = "stale"
OBSOLETE = "obsolete"
SEVERITY = {FRESH: 0, STALE: 1, OBSOLETE: 2}


@dataclass(frozen=True)
class Verdict:
    """What became of an anchored spot: ``state`` (fresh, stale, obsolete, or None when no
    verdict can be given: the file is unreadable, too large, or does not parse), a reason
    without the commit, and the fingerprint it has now."""

    state: str | None
    reason: str | None = None
    fingerprint: str | None = None


def judge(spot: Spot, content: str | None, label: str | None = None) -> Verdict:
    """Compare an anchored spot with its file's content now (None: the file is gone).
    ``label`` names the spot in the reason (its path when it moved)."""
    name = spot.symbol or label or spot.path
    if content is None:
        return Verdict(OBSOLETE, f"{label or spot.path} was deleted")
    if not spot.symbol:
        now = file_fingerprint(spot.path, content)
        return Verdict(FRESH if now == spot.fingerprint else STALE,
                       None if now == spot.fingerprint else f"{name} changed", now)
    table = symbols(spot.path, content)
    if table is None:
        return Verdict(None)
    if spot.symbol not in table:
        return Verdict(OBSOLETE, f"{spot.symbol} was removed from {label or spot.path}")
    now = table[spot.symbol]
    if now == spot.fingerprint:
        return Verdict(FRESH, None, now)
    if manifests.is_manifest(spot.path):  # "pyproject.toml: pydantic >=1.10,<2 -> >=2.7"
        return Verdict(STALE, f"{label or spot.path}: {name} {spot.fingerprint or '(any)'} -> "
                              f"{now or '(any)'}", now)
    return Verdict(STALE, f"{name} changed", now)


def worst(states: Iterable[str]) -> str:
    """The memory's state from its anchors': obsolete over stale over fresh."""
    return max(states, key=lambda s: SEVERITY.get(s, 0), default=FRESH)
