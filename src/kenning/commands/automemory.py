"""The four auto memory commands: ``import-auto``, ``sync-auto``, ``auto-status`` and
``curate`` (Claude Code's MEMORY.md and memory files, or an agent's with ``--scope``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kenning.cliutil import DbOpt, JsonOpt, emit, open_kenning

if TYPE_CHECKING:
    from kenning.facade import Kenning

RootOpt = Annotated[
    Path | None,
    typer.Option("--project-root", help="Project directory (default: the current directory)."),
]
AgentScopeOpt = Annotated[
    str | None,
    typer.Option("--scope", help="An agent's memory instead: project:<agent>, local:<agent> or "
                 "user:<agent>."),
]


def _bind(k: Kenning, root: Path | None) -> None:
    """With ``--project-root``, memories are those of that project (unless KENNING_PROJECT)
    and its ``kenning.toml`` applies."""
    import os

    if root is None:
        return
    from kenning.config import ConfigError, load
    from kenning.errors import ValidationError
    from kenning.places.paths import project_for, project_root

    real = project_root(root)
    k.project_root = real
    try:
        k.config = load(str(real))
    except ConfigError as exc:
        raise ValidationError(str(exc)) from None
    if not os.environ.get("KENNING_PROJECT"):
        k.project = project_for(real, k.store.location)


def _off(r: dict[str, Any], json_: bool) -> bool:
    """Claude Code's own switches turned auto memory off: say so (exit 0)."""
    if "disabled" not in r:
        return False
    if json_:
        emit(r)
    else:
        typer.echo(f"{r['dir']}\n{r['disabled']}")
    return True


def _counts(r: dict[str, Any]) -> str:
    return (f"{r['files']} files: {r['imported']} imported, {r['updated']} updated, "
            f"{r['unchanged']} unchanged, {r['skipped']} already known")


def _errors(r: dict[str, Any]) -> None:
    for e in r.get("errors", []):
        typer.echo(f"warning: {e}", err=True)


def register(app: typer.Typer) -> None:
    @app.command("import-auto")
    def import_auto(json_: JsonOpt = False, db: DbOpt = None, project_root: RootOpt = None,
                    scope: AgentScopeOpt = None) -> None:
        """Import Claude Code's auto memory (MEMORY.md, memory files, topic files)."""
        with open_kenning(db) as k:
            _bind(k, project_root)
            r = k.auto_import(project_root, scope=scope)
        if _off(r, json_):
            return
        if json_:
            emit(r)
            return
        _errors(r)
        typer.echo(f"{r['dir']}\n{_counts(r)}")

    @app.command("sync-auto")
    def sync_auto(json_: JsonOpt = False, db: DbOpt = None, project_root: RootOpt = None,
                  scope: AgentScopeOpt = None) -> None:
        """Write high-confidence memories as Claude Code memory files and curate MEMORY.md."""
        with open_kenning(db) as k:
            _bind(k, project_root)
            r = k.auto_sync(project_root, scope=scope)
        if _off(r, json_):
            return
        if json_:
            emit(r)
            return
        _errors(r["imported"])
        typer.echo(f"{r['path']}\n{r['lines']} lines, {r['bytes']:,} bytes; "
                   f"{r['memories_in_index']} memories indexed, {r['human_lines_kept']} of your "
                   f"lines kept; {r['files_written']} files written, {r['files_removed']} removed"
                   + ("" if r["index_changed"] else " (MEMORY.md unchanged)"))

    @app.command("auto-status")
    def auto_status(json_: JsonOpt = False, db: DbOpt = None, project_root: RootOpt = None,
                    scope: AgentScopeOpt = None) -> None:
        """Where the auto memory is, how MEMORY.md fits the client's limits, pending changes."""
        with open_kenning(db) as k:
            _bind(k, project_root)
            r = k.auto_status(project_root, scope=scope)
        if json_:
            emit(r)
            return
        ix = r["index"]
        flag = "OVER THE LIMIT" if ix["over_limit"] else "within limits"
        rows = [
            ("directory", r["dir"] + ("" if r["exists"] else " (missing)")),
            ("MEMORY.md", f"{ix['lines']}/{ix['max_lines']} lines, {ix['bytes']:,}/"
                          f"{ix['max_bytes']:,} bytes, {flag}; client loads {ix['loaded_lines']}"),
            ("your lines", str(ix["human_lines"])),
            ("files", f"{r['files']['total']} ({r['files']['kenning']} by Kenning)"),
            ("changed", ", ".join(r["changed_since_import"]) or "none since last import"),
            ("eligible", f"{r['eligible_memories']} memories >= {r['min_confidence']}"),
            ("last import", str(r["imported_at"] or "never")),
            ("last sync", str(r["synced_at"] or "never")),
            ("sync mode", f"{r['sync_mode']}, layout {r['layout']}"),
        ]
        if "client" in r:
            c = r["client"]
            rows.append(("claude code", "auto memory on" if c["enabled"]
                         else f"auto memory OFF ({c['why']})"))
        for key, value in rows:
            typer.echo(f"{key:<12} {value}")

    @app.command("curate")
    def curate(
        json_: JsonOpt = False, db: DbOpt = None, project_root: RootOpt = None,
        scope: AgentScopeOpt = None,
        dry_run: Annotated[bool, typer.Option("--dry-run", help="Print, write nothing.")] = False,
    ) -> None:
        """Rewrite MEMORY.md to fit max_index_lines (180) and 25,000 bytes, best lines first;
        lines you wrote are imported first and kept."""
        with open_kenning(db) as k:
            _bind(k, project_root)
            r = k.curate(project_root, write=not dry_run, scope=scope)
        if _off(r, json_):
            return
        if json_:
            emit(r)
            return
        if dry_run:
            typer.echo(r["text"], nl=False)
            typer.echo(f"({r['lines']} lines, {r['bytes']:,} bytes; not written)", err=True)
            return
        _errors(r["imported"])
        typer.echo(f"{r['path']}\n{r['lines']} lines, {r['bytes']:,} bytes; "
                   f"{r['memories_in_index']} memories, {r['human_lines_kept']} of your lines kept"
                   + (f", {r['human_lines_left_out']} left out for room (kept in the store)"
                      if r["human_lines_left_out"] else ""))
