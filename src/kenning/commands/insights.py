"""``kenning insights``: what the last sessions learned (worked / failed / gotchas / next)."""

from __future__ import annotations

from typing import Annotated

import typer

from kenning.cliutil import DbOpt, JsonOpt, emit, open_kenning, short


def register(app: typer.Typer) -> None:
    @app.command()
    def insights(
        limit: Annotated[int, typer.Option("--limit", "-n", help="How many sessions.")] = 5,
        spec: Annotated[str | None, typer.Option(help="Only this spec / worktree "
                                                 "(and project-wide sessions).")] = None,
        json_: JsonOpt = False,
        db: DbOpt = None,
    ) -> None:
        """The last sessions' insights: what worked, what failed, gotchas, what to do next."""
        with open_kenning(db) as k:
            sessions = k.insights(limit, spec=spec)
        if json_:
            emit({"sessions": sessions})
            return
        if not sessions:
            typer.echo("No session insights yet: `kenning extract --transcript PATH --apply` "
                       "or the MCP tool save_session_insight record them.")
            return
        for s in sessions:
            verdict = {True: " ✓", False: " ✗"}.get(s["success"], "")
            title = s["task"] or s["summary"] or s["session"] or ""
            typer.echo(f"{s['created_at'][:16].replace('T', ' ')}  {short(title, 70)}{verdict}"
                       f"  [{s['id']}]")
            for label, key in (("worked", "worked"), ("failed", "failed"),
                               ("gotchas", "gotchas"), ("next", "next")):
                for item in s[key]:
                    typer.echo(f"  {label:<8} {short(item, 110)}")
            typer.echo("")
