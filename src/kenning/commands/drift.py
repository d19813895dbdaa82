"""``kenning stale`` and ``kenning confirm``: memories whose code changed since they were
recorded, and saying one still holds (it is re-anchored to the code as it is now)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kenning.cliutil import DbOpt, JsonOpt, emit, open_kenning, short


def register(app: typer.Typer) -> None:
    @app.command()
    def stale(
        check: Annotated[bool, typer.Option(
            "--check/--no-check", help="Compare the anchored code with the files first.")] = True,
        project_root: Annotated[Path | None, typer.Option(
            "--project-root", help="Project directory (default: the current directory).")] = None,
        limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many.")] = 100,
        json_: JsonOpt = False,
        db: DbOpt = None,
    ) -> None:
        """Memories whose code changed (stale) or went (obsolete) since they were recorded,
        with why; checks the anchored files first (only those whose size or time changed are
        read)."""
        with open_kenning(db, create=False) as k:
            if project_root is not None:
                k.project_root = project_root.resolve()
            report = k.check_drift(k.project_root) if check else None
            rows = k.stale(limit)
        if json_:
            emit({"check": report, "count": len(rows), "memories": rows})
            return
        for note in (report or {}).get("notes", []):
            typer.echo(f"note: {note}", err=True)
        if not rows:
            typer.echo("no stale memories" + (
                f" ({report['anchors']} anchors on {report['files']} files checked)"
                if report else ""))
            return
        for r in rows:
            mark = "obsolete" if r["obsolete"] else "stale"
            typer.echo(f"{r['id'][:10]}  [{mark}] {short(r['summary'], 60)}")
            typer.echo(f"            code changed since: {r['stale_reason']}")
        typer.echo(f"{len(rows)} memories; `kenning confirm ID` re-anchors one that still holds")

    @app.command()
    def confirm(
        memory_id: Annotated[str, typer.Argument(help="Id or unique id prefix.")],
        project_root: Annotated[Path | None, typer.Option(
            "--project-root", help="Project directory (default: the current directory).")] = None,
        json_: JsonOpt = False,
        db: DbOpt = None,
    ) -> None:
        """Say a memory still holds for the code as it is now: it is re-anchored to today's
        code and no longer marked stale."""
        with open_kenning(db, create=False) as k:
            if project_root is not None:
                k.project_root = project_root.resolve()
            m = k.confirm(memory_id)
            anchors = k.anchors(m.id)
        if json_:
            emit({**m.to_dict(), "anchors": [a.to_dict() for a in anchors]})
            return
        where = ", ".join(f"{a.path}:{a.symbol}" if a.symbol else a.path for a in anchors)
        typer.echo(f"confirmed {m.id}  {short(m.summary, 60)}")
        typer.echo(f"anchored to {where}" if where else "anchored to no code (none it names "
                   "exists here)")
