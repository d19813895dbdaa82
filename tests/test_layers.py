"""The package's layers, read from the source (every import, at module level or inside a
function): which modules import the hook adapter, and which import one another in a cycle.

Both lists below are debts, written down so that they only shrink: a new module importing
``kenning.hooks`` or a new cycle fails here, and so does one that went away while still listed
(take it off the list). The hook adapter and the command-line adapters that run it
(``kenning.entry``, ``kenning.commands.claude``) may import it."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
ADAPTERS = ("kenning.hooks", "kenning.entry", "kenning.commands.claude")

# Core modules that still reach into the hook adapter, and for what.
HOOK_IMPORTS_OWED: dict[str, str] = {}

# Cycles among modules, counting imports made inside functions.
CYCLES_OWED = [
    {"kenning.drift.hook", "kenning.drift.service", "kenning.facade", "kenning.fileonly",
     "kenning.journal.detached", "kenning.lifecycle", "kenning.status"},
]


def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in (SRC / "kenning").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of the package ``name`` imports anywhere in its source (the package root
    itself left out: every submodule's import runs it first anyway)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            named.add(base)
            named.update(f"{base}.{a.name}" for a in node.names)
    out: set[str] = set()
    for target in named:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target not in (name, "kenning"):
            out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: set[str] = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_only_the_adapters_import_the_hook_adapter_and_the_debt_only_shrinks() -> None:
    users = {name for name, deps in graph().items()
             if not name.startswith(ADAPTERS) and any(d.startswith("kenning.hooks")
                                                       for d in deps)}
    assert users - HOOK_IMPORTS_OWED.keys() == set(), "a new module imports kenning.hooks"
    assert HOOK_IMPORTS_OWED.keys() - users == set(), "paid off: take it off the list"


def test_no_new_import_cycle_and_the_known_ones_only_shrink() -> None:
    found = cycles(graph())
    new = [sorted(c) for c in found if not any(c <= owed for owed in CYCLES_OWED)]
    assert new == [], "a new import cycle"
    gone = [sorted(owed) for owed in CYCLES_OWED if not any(c == owed for c in found)]
    assert gone == [], "a listed cycle changed or went: update the list"


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [{"a", "b", "c"}]
