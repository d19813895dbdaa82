"""``kenning scope list | transfer``: agent memory scopes (project / local / user) and knowledge
transfer of high-confidence memories between them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kenning.cliutil import DbOpt, JsonOpt, emit, open_kenning


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="Agent memory scopes: list them, transfer knowledge between them.",
                        no_args_is_help=True)
    app.add_typer(group, name="scope")

    @group.command("list")
    def list_(
        json_: JsonOpt = False, db: DbOpt = None,
        project_root: Annotated[Path | None, typer.Option(
            "--project-root", help="Project directory (default: the current directory).")] = None,
    ) -> None:
        """Agent scopes from the store, from .claude/agent-memory* and agent definitions."""
        with open_kenning(db) as k:
            rows = k.agent_scopes(project_root)
        if json_:
            emit({"scopes": rows})
            return
        if not rows:
            typer.echo("no agent memory scopes")
            return
        for r in rows:
            where = r["dir"] + ("" if r["exists"] else " (not created)")
            typer.echo(f"{r['scope']:<28} {r['memories']:>6} memories  {where}")

    @group.command("transfer")
    def transfer(
        from_: Annotated[str, typer.Option("--from", help="e.g. project:reviewer")],
        to: Annotated[str, typer.Option("--to", help="e.g. user:reviewer")],
        min_confidence: Annotated[float, typer.Option(
            "--min-confidence",
            help="Only memories more confident than this now (decay applied).")] = 0.8,
        json_: JsonOpt = False, db: DbOpt = None,
    ) -> None:
        """Copy high-confidence memories from one agent scope to another (no duplicates)."""
        with open_kenning(db) as k:
            r = k.transfer(from_, to, min_confidence)
        if json_:
            emit(r)
            return
        typer.echo(f"{r['from']} -> {r['to']}: {r['transferred']} transferred, "
                   f"{r['already_there']} already there ({r['considered']} with confidence "
                   f"above {r['min_confidence']})")
