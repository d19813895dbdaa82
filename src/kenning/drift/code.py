"""What a memory says about code, and whether that code has changed: the pure part of code
drift. Text and file contents in; mentions, symbols, fingerprints and verdicts out. Nothing here
reads a file or a clock: the service (``kenning.drift.service``) hands in what it read.

Symbols come from the standard library's ``ast`` for Python. For TypeScript/JavaScript, Go and
Rust a light heuristic stands in for a parser (a parser wheel per language would cost the hooks'
import time and the base install's size for a fingerprint): comments are blanked and string
contents masked, declarations are found with one regular expression per language, and a
declaration's region runs from its name to the brace that closes its body. A fingerprint is a
hash of the region with comments gone, whitespace collapsed and trailing commas (and in
JavaScript/TypeScript, semicolons, the quote marks around strings and the parentheses around a
lone arrow-function parameter) dropped; for Python, of the syntax tree without positions and
without docstrings. Reformatting, re-commenting or re-documenting code never counts as a change.

Fingerprints carry their scheme (``SCHEME``) so that an improvement here never flags every memory
anchored before it: an anchor made by an earlier version is compared with the file as that
version read it, and takes today's fingerprint once it is found unchanged.
"""

from __future__ import annotations

import ast
import copy
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
    ".txt", ".mod",
    ".vue", ".svelte", ".proto", ".tf", ".lua", ".ex", ".exs", ".zig", ".dart",
})
_EXTENSIONS = sorted({*LANGUAGES, *OTHER_EXTENSIONS}, key=len, reverse=True)
_EXT_RE = "|".join(re.escape(e[1:]) for e in _EXTENSIONS)

# -- mentions ------------------------------------------------------------------------------------

# A path: optional directories, a name and a known extension, optionally ":symbol" after it.
_PATH = re.compile(
    rf"(?<![\w/.@:-])((?:\.{{0,2}}/)?(?:[\w.+-]+/)*[\w+-][\w.+-]*\.(?:{_EXT_RE}))"
    rf"(?![\w/-])(?:(?::{{1,2}}|#)([A-Za-z_][\w.]*))?")
# a call as prose writes one: no arguments, or a few plain ones ("retry(n)", "Permanent(err)")
_CALLED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\((?:[\w.,*&: ]{0,40})\)")
_QUOTED = re.compile(r"`([A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)?)(?:\([^`)\n]{0,80}\))?`")
_SNAKE = re.compile(r"(?<![\w.])([a-z_][a-z0-9]*_[a-z0-9_]+)(?![\w(])")
_CAMEL = re.compile(r"(?<![\w.])([A-Z][a-z0-9]+[A-Z]\w*|[a-z]+[A-Z]\w*)(?![\w(])")


_EXT_HINT = re.compile(rf"\w\.(?:{_EXT_RE})(?![\w/-])")


_CODE_HINT = re.compile(r"`|\w\(\)|[a-z0-9]_[a-z]|[a-z][A-Z]|\d\.\d|[<>=~^@]=?\s*v?\d|\bv\d|"
                        r"\b(?:below|above|under|over|to|at|from)\s+v?\d")


def may_name_code(text: str) -> bool:
    """A quick test every write pays: False when ``text`` certainly names no symbol that could
    be looked up in the repository (nothing in code style, called, snake_case or camelCase) and
    no version of a dependency (``2.3``, ``>=2``, ``@14``, ``v1``, "below 2": what
    ``manifests.named`` looks for)."""
    return _CODE_HINT.search(text) is not None


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

def with_path(text: str, old: str, new: str) -> str:
    """``text`` giving ``new`` wherever it gave the path ``old`` (a moved file): the path as
    written, and its bare file name where the move renamed the file."""
    out = re.sub(rf"(?<![\w/.-]){re.escape(old)}(?![\w/-])", new, text)
    old_name, new_name = old.rsplit("/", 1)[-1], new.rsplit("/", 1)[-1]
    if old_name != new_name:
        out = re.sub(rf"(?<![\w/.-]){re.escape(old_name)}(?![\w/-])", new_name, out)
    return out


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


SCHEME = "v2:"  # the prefix of today's code fingerprints; none: the first scheme (docstrings
# and JavaScript's quote marks counted)


def _digest(text: str, legacy: bool = False) -> str:
    digest = hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:20]
    return digest if legacy else SCHEME + digest


WHOLE = "v2f:"  # a whole source file: "v2f:<the rest's digest>:<symbol digests, sorted>"
_PART = 6  # hex digits of each symbol's digest in a WHOLE fingerprint
_IMPORT_LINES: Mapping[str, re.Pattern[str]] = {
    # JavaScript/TypeScript imports and re-exports, Go's import (one or a group), Rust's use
    JS: re.compile(r"(?m)^[ \t]*(?:import\b[^;\n]*(?:;|$)|"
                   r"export\b[^;\n]*\bfrom\b[^;\n]*(?:;|$))"),
    GO: re.compile(r"(?m)^import[ \t]*(?:\([^)]*\)|[^\n]*)"),
    RUST: re.compile(r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t][^;]*;"),
}


def _whole(text: str, lang: str) -> tuple[str, dict[str, str]] | None:
    """(the file's code outside its symbols and imports, its symbol table) by today's scheme;
    None when it does not parse."""
    if lang == PYTHON:
        try:
            tree = _python_tree(text)
        except (SyntaxError, ValueError, RecursionError):
            return None
        table = _python_symbols(text, _Seal(False)) or {}
        _python_shells(tree.body, "", table)
        table.pop("__all__", None)  # the export list: it grows with every symbol added
        outside = [n for n in tree.body
                   if not _defines(n) and not isinstance(n, ast.Import | ast.ImportFrom)]
        return ast.dump(ast.Module(body=outside, type_ignores=[]), include_attributes=False), \
            table
    found = _brace_table(text, lang, _Seal(False))
    if found is None:
        return None
    table, plain, regions = found
    kept = list(plain)
    for _, start, end in regions:
        kept[start:end] = " " * (end - start)
    # a class or an impl without the symbols inside it: those are in the set themselves
    table = {**table, **_brace_shells(table, plain, regions, lang)}
    rest = _IMPORT_LINES[lang].sub(" ", "".join(kept))
    return layout_free(rest, lang), table


def _defines(node: ast.stmt) -> bool:
    """Whether a statement defines a symbol of the table (a function, a class, a value given
    to names): what a whole file's or a class's own code leaves to the symbols."""
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) or (
        isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets)) or (
        isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name))


def _python_shells(body: Iterable[ast.stmt], prefix: str, table: dict[str, str]) -> None:
    """Each class of ``table`` fingerprinted without the functions and classes defined in it
    (they are symbols of their own there): a method added to a class is a symbol added."""
    for node in body:
        if isinstance(node, ast.ClassDef):
            name = prefix + node.name
            kept = [n for n in node.body if not _defines(n)]
            shell = copy.copy(node)  # the tree itself is left as it is
            shell.body = kept
            if name in table:
                table[name] = _digest(ast.dump(shell, include_attributes=False))
            _python_shells(node.body, name + ".", table)
        elif isinstance(node, ast.If | ast.Try):
            _python_shells(node.body, prefix, table)


def _outgrown(before: str, now: str) -> bool:
    """Whether a ``WHOLE`` fingerprint ``now`` differs from ``before`` only by symbols added:
    the code outside the symbols the same, and every symbol there before still there as it
    was."""
    old_rest, _, old_parts = before[len(WHOLE):].partition(":")
    new_rest, _, new_parts = now[len(WHOLE):].partition(":")
    return old_rest == new_rest and set(filter(None, old_parts.split(","))) <= set(
        new_parts.split(","))


def is_legacy(fingerprint: str) -> bool:
    """Whether a code fingerprint was made by the first scheme (20 hex digits, no prefix)."""
    return len(fingerprint) == 20 and all(c in "0123456789abcdef" for c in fingerprint)


_WS = re.compile(r"\s+")
_TIGHT = re.compile(r" ?([{}()\[\];,.:=<>+\-*/%&|!?^~@]) ?")


def squeeze(text: str) -> str:
    """Whitespace collapsed, and dropped beside punctuation: layout-free text."""
    return _TIGHT.sub(r"\1", _WS.sub(" ", text)).strip()


_TRAILING_COMMA = re.compile(r",(?=[)\]}])")
_JS_QUOTED = re.compile(r"`(?:\\.|[^`\\])*`|'((?:\\.|[^'\\\n])*)'|\"((?:\\.|[^\"\\\n])*)\"")
_LONE_PARAM = re.compile(r"\(([A-Za-z_$][\w$]*)\)=>")


def _one_quote(m: re.Match[str]) -> str:
    """A JavaScript string in one quote style: Prettier picks single or double quotes for the
    fewest escapes, which changes the text and never the value."""
    if m.group(1) is None and m.group(2) is None:
        return m.group(0)  # a template literal: its backticks are not a style
    body = m.group(1) if m.group(1) is not None else m.group(2)
    return '"' + body.replace("\\'", "'").replace('\\"', '"') + '"'


def layout_free(text: str, lang: str, legacy: bool = False) -> str:
    """Comment-free code (``_strip``'s first half) as formatters leave its meaning: whitespace
    collapsed, trailing commas dropped (rustfmt and Prettier add them), and for JavaScript and
    TypeScript the semicolons too (Prettier's ``semi`` option adds or drops them), strings in
    one quote style and a lone arrow-function parameter without parentheses (Prettier's
    ``singleQuote`` and ``arrowParens``); in Rust, a ``;`` right after a ``}`` (rustfmt adds
    it after a macro's arm). ``legacy``: as the first scheme read it."""
    out = _TRAILING_COMMA.sub("", squeeze(text))
    if lang == RUST and not legacy:
        return out.replace("};", "}")
    if lang != JS:
        return out
    out = out.replace(";", "")
    if legacy:
        return out
    # commas go the way of semicolons: TypeScript separates the members of a type literal with
    # either, and Prettier rewrites one as the other
    return _LONE_PARAM.sub(r"\1=>", _JS_QUOTED.sub(_one_quote, out)).replace(",", "")


def _python_tree(text: str, legacy: bool = False) -> ast.Module:
    """The parsed module, without the docstrings of the module, its classes and functions (a
    docstring documents the code; rewording it changes nothing the code does). Raises what
    ``ast.parse`` raises."""
    tree = ast.parse(text)
    if legacy:
        return tree
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            node.kind = None  # u"..." and "..." are one string
        for name in ("body", "orelse", "finalbody"):
            stmts = getattr(node, name, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                setattr(node, name, _sorted_imports([s for s in stmts if not _is_note(s)]))
    return tree


def _is_note(node: ast.stmt) -> bool:
    """A string standing alone as a statement: a docstring, or one documenting the attribute
    above it. It does nothing when the code runs."""
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def _sorted_imports(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` with each run of consecutive imports in one order, one name an import (isort
    and Ruff sort, merge and split them; what is imported stays the same)."""
    out: list[ast.stmt] = []
    run: list[ast.stmt] = []
    for node in [*body, None]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                one = ast.Import(names=[alias]) if isinstance(node, ast.Import) else \
                    ast.ImportFrom(module=node.module, names=[alias], level=node.level)
                run.append(one)
            continue
        out += sorted(run, key=ast.dump)
        run = []
        if node is not None:
            out.append(node)
    return out


def file_fingerprint(path: str, text: str, legacy: bool = False) -> str:
    """The fingerprint of a whole file: its syntax tree for Python (when it parses), its
    comment-free, whitespace-collapsed text for brace languages, its whitespace-collapsed
    text otherwise; for a manifest, what it declares. A source file whose symbols can be read
    gets a ``WHOLE`` fingerprint instead: the code outside its symbols and imports, and a short
    digest of each symbol, so that a symbol added later is not taken for a change (``judge``).
    ``legacy``: by the first scheme."""
    lang = language(path)
    if not legacy and manifests.is_manifest(path):
        declared = manifests.fingerprint(path, text)
        if declared is not None:
            return _digest(declared)
    if not legacy and lang is not None:
        parts = _whole(text, lang)
        if parts is not None:
            rest, table = parts
            digests = sorted({d[-_PART:] for d in table.values()})
            return f"{WHOLE}{_digest(rest)[-20:]}:{','.join(digests)}"
    if lang == PYTHON:
        try:
            return _digest(ast.dump(_python_tree(text, legacy), include_attributes=False),
                           legacy)
        except (SyntaxError, ValueError, RecursionError):
            pass
    elif lang is not None:
        return _digest(layout_free(_strip(text, lang, legacy)[0], lang, legacy), legacy)
    return _digest(squeeze(text), legacy)


def symbols(path: str, text: str, legacy: bool = False) -> dict[str, str] | None:
    """``qualified name -> fingerprint`` of the functions, classes and methods (and Go/Rust
    types) defined in a file; None when the language is unknown or the file does not parse
    (no symbol-level verdict is given then). ``legacy``: fingerprints by the first scheme."""
    if manifests.is_manifest(path):
        return manifests.declared(path, text)
    lang = language(path)
    if lang == PYTHON:
        return _python_symbols(text, _Seal(legacy))
    if lang is None:
        return None
    return _brace_symbols(text, lang, _Seal(legacy))


def defined(path: str, text: str) -> Mapping[str, str] | None:
    """The names ``symbols`` finds in a file, without fingerprints (each maps to ""): what a
    look-up of a name in the repository needs, at a fraction of the cost on a large file."""
    lang = language(path)
    if lang == PYTHON:
        return _python_symbols(text, _Seal(False, names_only=True))
    if lang is None or manifests.is_manifest(path):
        return symbols(path, text)
    return _brace_symbols(text, lang, _Seal(False, names_only=True))


class _Seal:
    """How a symbol table fingerprints a region: by today's scheme, the first one
    (``legacy``), or not at all (``names_only``: the region is never even read out)."""

    def __init__(self, legacy: bool, names_only: bool = False) -> None:
        self.legacy = legacy
        self.names_only = names_only

    def node(self, node: ast.AST) -> str:
        """The fingerprint of a Python definition."""
        if self.names_only:
            return ""
        return _digest(ast.dump(node, include_attributes=False), self.legacy)

    def span(self, plain: str, start: int, end: int, lang: str, legacy: bool) -> str:
        """The fingerprint of a brace-language region of ``plain``, read as ``legacy`` says."""
        if self.names_only:
            return ""
        return _digest(layout_free(plain[start:end], lang, legacy), self.legacy)


def _python_symbols(text: str, seal: _Seal) -> dict[str, str] | None:
    legacy = seal.legacy
    try:
        tree = ast.parse(text) if seal.names_only else _python_tree(text, legacy)
    except (SyntaxError, ValueError, RecursionError):
        return None
    out: dict[str, str] = {}

    def visit(body: Iterable[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + node.name
                out.setdefault(name, seal.node(node))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, name + ".")
            elif isinstance(node, ast.If | ast.Try):  # definitions under a guard
                visit(node.body, prefix)
            elif not legacy and isinstance(node, ast.Assign | ast.AnnAssign):
                # a constant, a setting, an attribute with its default: a value a memory
                # may give ("the timeout is 30 s")
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                digest = seal.node(node)
                for target in targets:
                    for leaf in target.elts if isinstance(target, ast.Tuple) else [target]:
                        if isinstance(leaf, ast.Name):
                            out.setdefault(prefix + leaf.id, digest)

    visit(tree.body, "")
    if not legacy and not seal.names_only:
        _with_callees(out, _python_uses(tree.body, "", out))
        shells = dict(out)
        _python_shells(tree.body, "", shells)
        _as_containers(out, shells)
    return out


def _python_uses(body: Iterable[ast.stmt], prefix: str, table: Mapping[str, str],
                 owner: str = "") -> dict[str, set[str]]:
    """``function -> the symbols of the same file it uses``: names it reads or calls, and the
    attributes of ``self`` or ``cls`` (its class's own)."""
    out: dict[str, set[str]] = {}
    for node in body:
        if isinstance(node, ast.ClassDef):
            out.update(_python_uses(node.body, prefix + node.name + ".", table,
                                    prefix + node.name))
        elif isinstance(node, ast.If | ast.Try):
            out.update(_python_uses(node.body, prefix, table, owner))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            used: set[str] = set()
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and sub.id in table:
                    used.add(sub.id)
                elif (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
                      and sub.value.id in ("self", "cls") and f"{owner}.{sub.attr}" in table):
                    used.add(f"{owner}.{sub.attr}")
            used.discard(prefix + node.name)
            if used:
                out[prefix + node.name] = used
    return out


def _with_callees(table: dict[str, str], uses: Mapping[str, set[str]]) -> None:
    """Each symbol's fingerprint joined with those of the same file's symbols it uses (one
    step: the helper it calls, the constant it reads), so that what it does through them
    changing counts as a change to it."""
    own = dict(table)
    holders = {name.rsplit(".", 1)[0] for name in table if "." in name}
    for name, used in uses.items():
        # a class it names (to build one, to test for one) is not what it does: leave out
        # what has members of its own
        used = {u for u in used if u not in holders}
        if name in table and used:
            table[name] = _digest(own[name] + "|" + ",".join(sorted(own[u] for u in used)))


def _as_containers(table: dict[str, str], shells: Mapping[str, str]) -> None:
    """Give each symbol with members (a class and its methods, a Go type and its methods) a
    ``WHOLE`` fingerprint: its own code without its members' (``shells``), and a short digest
    of each member's, so that ``judge`` can tell a member added (no change to what a memory
    said of the class) from one edited or removed."""
    members: dict[str, list[str]] = {}
    for name in table:
        owner = name.rsplit(".", 1)[0] if "." in name else None
        if owner is not None and owner in table:
            members.setdefault(owner, []).append(table[name])
    for owner, digests in members.items():
        own = shells.get(owner, table[owner])
        table[owner] = f"{WHOLE}{own[-20:]}:{','.join(sorted({d[-_PART:] for d in digests}))}"


# One pattern per brace language: group "name" is the declared name, "owner" (when present)
# the type a method belongs to.
_DECLS: Mapping[str, re.Pattern[str]] = {
    JS: re.compile(
        r"(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?"
        r"(?:(?:module\.)?exports(?:\.[\w$]+)?[ \t]*=[ \t]*)?"
        r"(?:(?:async[ \t]+)?function\*?[ \t]*(?P<fn>[A-Za-z_$][\w$]*)"
        r"|(?:class|interface|enum)[ \t]+(?P<cls>[A-Za-z_$][\w$]*)"
        r"|(?:const|let|var)[ \t]+(?P<var>[A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[ \t]*"
        r"(?:async[ \t]*)?(?:function\b|\([^)]*\)[ \t]*(?::[^=\n]+)?=>|[A-Za-z_$][\w$]*[ \t]*=>)"
        r"|(?:(?:public|private|protected|static|readonly|async|override|get|set)[ \t]+)*"
        r"(?P<method>[A-Za-z_$][\w$]*)[ \t]*(?:<[^>\n]*>)?\([^)\n]*\)[ \t]*(?::[^{\n]+)?\{"
        # a class field holding an arrow function: a method written as one
        r"|(?:(?:public|private|protected|static|readonly)[ \t]+)*(?P<field>[A-Za-z_$][\w$]*)"
        r"[ \t]*(?::[^=\n]+)?=[ \t]*(?:async[ \t]*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)[ \t]*"
        r"(?::[^=\n]+)?=>)"),
    GO: re.compile(
        r"(?m)^[ \t]*func[ \t]*(?:\([ \t]*\w*[ \t]*\*?[ \t]*(?P<owner>\w+)[^)]*\)[ \t]*)?"
        r"(?P<fn>\w+)|^[ \t]*type[ \t]+(?P<cls>\w+)(?:\[[^\]\n]*\])?[ \t]+"
        r"(?:struct|interface)\b"),
    RUST: re.compile(
        r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:(?:async|const|unsafe|extern[ \t]+\"\w+\")"
        r"[ \t]+)*fn[ \t]+(?P<fn>\w+)"
        r"|^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:struct|enum|trait|union)[ \t]+(?P<cls>\w+)"
        r"|^[ \t]*impl(?:<[^>\n]*>)?[ \t]+(?:(?P<trait>[\w:<>, ]+)[ \t]+for[ \t]+)?"
        r"(?P<impl>\w+)"),
}
_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "return", "function", "else",
                       "do", "with", "new", "typeof", "await", "constructor"})


def _strip(text: str, lang: str, legacy: bool = False) -> tuple[str, str]:
    """(text without comments, the same with string contents masked), both the length of
    ``text`` so positions agree: comments become spaces, string contents become ``_``. An
    escape may be a backslash before a line break (a string continued on the next line);
    ``legacy``: as the first scheme read strings, which missed that."""
    if lang == RUST:
        strings = r'r#*"(?:.|\n)*?"#*|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\\\'\n])\''
    elif lang == GO:
        strings = r'`[^`]*`|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\\\'\n])+\''
    else:
        strings = r'`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
    if not legacy:
        strings = strings.replace(r"\\.", r"\\[\s\S]")
        if lang == JS:  # a regular expression literal: its brackets and quotes are not code
            strings += r"|/(?![*/])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])+/[A-Za-z]*"
    token = re.compile(rf"(//[^\n]*|/\*(?:.|\n)*?\*/)|({strings})")
    plain: list[str] = []
    masked: list[str] = []
    pos = 0
    for m in token.finditer(text):
        plain.append(text[pos:m.start()])
        masked.append(text[pos:m.start()])
        found = m.group(0)
        if found[0] == "/" and m.group(2) and not _regex_may_start(text, m.start()):
            plain.append(found)  # a division, not a regular expression
            masked.append(found)
        elif m.group(1):
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


def _regex_may_start(text: str, at: int) -> bool:
    """Whether a ``/`` at ``at`` can open a regular expression in JavaScript: after an operator,
    an opening bracket, a separator or ``return``, never after a name, a number or a closing
    bracket (a division)."""
    j = at - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    if j < 0 or text[j] in "=(,:[!&|?{};+-*%<>~^":
        return True
    return text[max(0, j - 5):j + 1].endswith(("return", "typeof", "case", "yield"))


def _block_end(masked: str, start: int, legacy: bool = False) -> int | None:
    """The end (exclusive) of the brace block opening at the first ``{`` after ``start`` and
    outside parentheses (a parameter's default ``= {}`` is not the body), unless a ``;`` ends
    the declaration first (no body); None when the braces never close. ``legacy``: as the
    first scheme found it, parentheses not skipped."""
    i = start
    n = len(masked)
    parens = 0
    while i < n and (masked[i] not in "{;" or parens > 0):
        if not legacy and masked[i] in "()":
            parens += 1 if masked[i] == "(" else -1
            parens = max(parens, 0)
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


def _brace_symbols(text: str, lang: str, seal: _Seal) -> dict[str, str] | None:
    found = _brace_table(text, lang, seal)
    return found[0] if found is not None else None


def _brace_table(text: str, lang: str, seal: _Seal
                 ) -> tuple[dict[str, str], str, list[tuple[str, int, int]]] | None:
    """The symbol table of a brace-language file, its comment-free text and each symbol's
    region in it (``(name, start, end)``); None when its braces do not balance."""
    legacy = seal.legacy
    plain, masked = _strip(text, lang, legacy)
    if masked.count("{") != masked.count("}"):
        return None  # unbalanced: the heuristic would guess, so it gives no verdict
    out: dict[str, str] = {}
    regions: list[tuple[str, int, int]] = []
    bodiless: dict[str, tuple[int, int]] = {}
    blocks: list[tuple[int, int, str]] = []  # (start, end, name) of classes, impls
    for m in _DECLS[lang].finditer(masked):
        groups = m.groupdict()
        name = next((groups[g] for g in ("fn", "cls", "var", "method", "impl", "field")
                     if groups.get(g)), None)
        if not name or name in _KEYWORDS:
            continue
        end = _block_end(masked, m.end() if groups.get("method") is None else m.end() - 1,
                         legacy)
        if end is None:
            continue
        owner = groups.get("owner")
        if groups.get("impl"):
            blocks.append((m.start(), end, name))
            if groups.get("trait") and not legacy:  # "impl Default for Builder": the
                # type's Default, one place a memory may speak of
                trait = re.sub(r"<.*", "", groups["trait"]).rsplit("::", 1)[-1].strip()
                out.setdefault(f"{name}.{trait}", seal.span(plain, m.start(), end, lang, False))
                regions.append((f"{name}.{trait}", m.start(), end))
            continue
        if owner is None:
            inside = [b for b in blocks if b[0] < m.start() < b[1]]
            if (groups.get("method") or groups.get("field")) and not inside:
                continue  # a call or a control statement at top level, not a method
            if groups.get("field") and (legacy or not inside):
                continue
            owner = inside[-1][2] if inside else None
        if groups.get("cls"):
            blocks.append((m.start(), end, name))
        qualified = f"{owner}.{name}" if owner else name
        if not legacy and masked[end - 1] != "}" and qualified not in out:
            # a declaration without a body (a TypeScript overload, a `declare`): the one
            # with the body, if any, is the symbol
            bodiless.setdefault(qualified, (m.start(), end))
            continue
        out.setdefault(qualified, seal.span(plain, m.start(), end, lang, legacy))
        regions.append((qualified, m.start(), end))
    if not legacy:
        for name, (start, end) in _values(masked, lang).items():
            out.setdefault(name, seal.span(plain, start, end, lang, False))
            regions.append((name, start, end))
        for name, (start, end) in bodiless.items():
            out.setdefault(name, seal.span(plain, start, end, lang, False))
            regions.append((name, start, end))
        if not seal.names_only:
            _with_callees(out, _brace_uses(out, plain, regions))
            _as_containers(out, _brace_shells(out, plain, regions, lang))
    return out, plain, regions


# a name a region uses: a member of its own type (``this.x``, ``self.x``), or a bare name
_USED_NAME = re.compile(
    r"(?<![\w$.])(?:this|self)\.([A-Za-z_$][\w$]*)|(?<![\w$.])([A-Za-z_$][\w$]*)")


def _brace_uses(table: Mapping[str, str], plain: str, regions: list[tuple[str, int, int]]
                ) -> dict[str, set[str]]:
    """``symbol -> the symbols of the same file its region uses``: names it reads or calls,
    and the members of its own type written ``this.x`` or ``self.x``. Regions holding others
    (classes, impls) are left out: their members are theirs already."""
    holders = {name for name, start, end in regions
               if any(start < a and b <= end and o != name for o, a, b in regions)}
    out: dict[str, set[str]] = {}
    for name, start, end in regions:
        if name in holders:
            continue
        owner = name.rsplit(".", 1)[0] if "." in name else ""
        used: set[str] = set()
        for m in _USED_NAME.finditer(plain, start, end):
            member, word = m.group(1), m.group(2)
            if member and owner and f"{owner}.{member}" in table:
                used.add(f"{owner}.{member}")
            elif word and word in table:
                used.add(word)
        used.discard(name)
        used.discard(name.rsplit(".", 1)[-1])
        if used:
            out[name] = used
    return out


def _brace_shells(table: Mapping[str, str], plain: str, regions: list[tuple[str, int, int]],
                  lang: str) -> dict[str, str]:
    """The fingerprint of each symbol whose region holds others (a class, an impl), without
    them."""
    out: dict[str, str] = {}
    for name, start, end in regions:
        inner = [(a, b) for other, a, b in regions if start < a and b <= end and other != name]
        if inner and name in table:
            shell = list(plain[start:end])
            for a, b in inner:
                shell[a - start:b - start] = " " * (b - a)
            out[name] = _digest(layout_free("".join(shell), lang))
    return out


# Top-level values: constants, variables and type aliases, by the name they define (group
# "name"); a Go group (``const (`` ... ``)``) by its keyword (group "group").
_VALUES: Mapping[str, re.Pattern[str]] = {
    JS: re.compile(r"(?m)^(?:export[ \t]+)?(?:declare[ \t]+)?(?:const|let|var|type)[ \t]+"
                   r"(?P<name>[A-Za-z_$][\w$]*)"),
    GO: re.compile(r"(?m)^(?:const|var|type)[ \t]+(?:(?P<group>\()|(?P<name>\w+))"),
    RUST: re.compile(r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:const|static|type)[ \t]+"
                     r"(?:mut[ \t]+)?(?P<name>\w+)"),
}
_GO_SPEC = re.compile(r"(?m)^[ \t]*(\w+)")
_OPENERS = {"(": ")", "[": "]", "{": "}"}


def _values(masked: str, lang: str) -> dict[str, tuple[int, int]]:
    """``name -> (start, end)`` of each top-level value a file defines, its region starting at
    the name (so ``type X = Y`` reads the same alone and in a Go group): to its ``;``, or to the
    end of its line outside brackets."""
    out: dict[str, tuple[int, int]] = {}
    for m in _VALUES[lang].finditer(masked):
        if m.group("name"):
            out.setdefault(m.group("name"), (m.start("name"), _value_end(masked, m.end())))
            continue
        close = _value_end(masked, m.start("group"))  # the group, to its ")"
        for spec in _GO_SPEC.finditer(masked, m.end(), close - 1):
            out.setdefault(spec.group(1), (spec.start(1), _value_end(masked, spec.end())))
    return out


def _value_end(masked: str, start: int) -> int:
    """Where a value starting at ``start`` ends: a ``;`` or a line break outside brackets."""
    stack: list[str] = []
    i, n = start, len(masked)
    while i < n:
        c = masked[i]
        if c in _OPENERS:
            stack.append(_OPENERS[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack and c == ")" and masked[start] == "(":
                return i + 1
        elif not stack and (c == ";" or c == "\n"):
            return i
        i += 1
    return n


_WORD_NAME = re.compile(
    r"(?<![\w.$/-])([A-Za-z_]\w*(?:(?:\.|::|#|'s )[A-Za-z_]\w*)?)(?![\w$/-])")
# What a sentence calls a name of the code when it writes it as a plain word ("the parse
# function", "method run"): these are code structure, not meaning.
_KIND_WORDS = frozenset({"function", "functions", "method", "methods", "class", "struct",
                         "trait", "interface", "enum", "constant", "helper", "fn", "func",
                         "def", "decorator", "declaration", "signature"})


def written_plainly(text: str, table: Mapping[str, str], beside_kind_only: bool = False
                    ) -> list[str]:
    """The symbols of ``table`` (a file's, one the text names) that ``text`` writes as plain
    words, without code style: a name with a capital inside or after its first letter, a digit
    or a qualifier (``Router``, ``Client.Do``, ``Cache#get``) wherever it stands, an all
    lower-case one (``parse``) only beside a word that says it is code ("the parse function");
    with ``beside_kind_only``, only names beside such a word."""
    out: dict[str, None] = {}
    words = list(_WORD_NAME.finditer(text))
    for i, m in enumerate(words):
        word = m.group(1)
        q = find_symbol(table, re.sub(r"::|#|'s ", ".", word))
        if q is None:
            continue
        near = {w.group(1).lower() for w in words[max(0, i - 1):i + 2] if w is not m}
        if beside_kind_only and not near & _KIND_WORDS:
            continue
        if not any(sep in word for sep in (".", "::", "#", "'s ")):
            if word.islower():
                if not near & _KIND_WORDS:
                    continue
            elif word[0].isupper() and word[1:].islower() and (
                    not text[:m.start()].strip() or text[:m.start()].rstrip()[-1] in ".!?:"):
                continue  # a capitalised word opening a sentence may be just that
        out[q] = None
    return list(out)


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
        # the requirements it speaks of; of a manifest it names, the dependencies it names;
        # the language's version only when it speaks of no dependency ("tomli only before
        # Python 3.11" is about tomli)
        named = manifests.named(text, table)
        packages = [d for d in named if d not in manifests.LANGUAGE_KEYS] or (
            manifests.mentioned(text, table) if whole else [])
        found = dict.fromkeys(packages or named)
    elif table:
        for sym in said.symbols:
            q = find_symbol(table, sym)
            if q is not None:
                found[q] = None
        # a name beside a word saying it is code ("the populate declaration") counts beside
        # the code-style ones; other plain words only where no code-style name is defined
        found.update(dict.fromkeys(written_plainly(text, table, beside_kind_only=bool(found))))
        # two names it gives that make one qualified name ("the `Display` impl for `Error`",
        # "`Cart` ... its `total`"): the narrower symbol is the one it speaks of
        names = [n.rsplit(".", 1)[-1] for n in said.symbols] + [
            q.rsplit(".", 1)[-1] for q in found]
        for a in names:
            for b in names:
                if a != b and f"{a}.{b}" in table:
                    found.pop(a, None)
                    found[f"{a}.{b}"] = None
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
    ``label`` names the spot in the reason (its path when it moved). A spot anchored by the
    first scheme is compared by that scheme; found unchanged, its verdict carries today's
    fingerprint for the anchor to take."""
    name = spot.symbol or label or spot.path
    if content is None:
        return Verdict(OBSOLETE, f"{label or spot.path} was deleted")
    legacy = is_legacy(spot.fingerprint)
    if not spot.symbol:
        now = file_fingerprint(spot.path, content, legacy)
        if now == spot.fingerprint:
            return Verdict(FRESH, None, file_fingerprint(spot.path, content) if legacy else now)
        if spot.fingerprint.startswith(WHOLE) and now.startswith(WHOLE) and _outgrown(
                spot.fingerprint, now):
            # only new symbols: what the memory said of the file still stands, and the anchor
            # keeps its own fingerprint (a later change to a new symbol is not its concern)
            return Verdict(FRESH, None, spot.fingerprint)
        return Verdict(STALE, f"{name} changed", now)
    table = symbols(spot.path, content, legacy)
    if table is None:
        return Verdict(None)
    if spot.symbol not in table:
        return Verdict(OBSOLETE, f"{spot.symbol} was removed from {label or spot.path}")
    now = table[spot.symbol]
    if now == spot.fingerprint:
        if legacy:
            now = (symbols(spot.path, content) or {}).get(spot.symbol, now)
        return Verdict(FRESH, None, now)
    if spot.fingerprint.startswith(WHOLE) and now.startswith(WHOLE) and _outgrown(
            spot.fingerprint, now):
        return Verdict(FRESH, None, spot.fingerprint)  # members added to it, none changed
    if manifests.is_manifest(spot.path):  # "pyproject.toml: pydantic >=1.10,<2 -> >=2.7"
        return Verdict(STALE, f"{label or spot.path}: {name} {spot.fingerprint or '(any)'} -> "
                              f"{now or '(any)'}", now)
    return Verdict(STALE, f"{name} changed", now)


def worst(states: Iterable[str]) -> str:
    """The memory's state from its anchors': obsolete over stale over fresh."""
    return max(states, key=lambda s: SEVERITY.get(s, 0), default=FRESH)
