"""``kenning migrate``: copy a store between engines (SQLite <-> PostgreSQL), with progress."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from kenning.cliutil import DbOpt, JsonOpt, ProgressLines, console, emit, fail


def register(app: typer.Typer) -> None:
    @app.command()
    def migrate(
        to: Annotated[str, typer.Option("--to", help="Target: a postgresql:// DSN or a SQLite "
                                        "file path.")],
        from_: Annotated[str | None, typer.Option(
            "--from", help="Source (default: --db, $KENNING_DB or the user store).")] = None,
        batch: Annotated[int, typer.Option(help="Memories per transaction.", min=1)] = 500,
        json_: JsonOpt = False,
        db: DbOpt = None,
    ) -> None:
        """Copy memories, vectors, links, graph scores and meta into another store. Re-run it
        after an interruption: it continues without duplicates. Ends with counts and hashes."""
        import sys
        from pathlib import Path

        from kenning.errors import KenningError
        from kenning.places.paths import default_db_path
        from kenning.store.engines import is_dsn, open_store
        from kenning.store.migrate import migrate as run_migration

        source_at = from_ or db or default_db_path()
        if not is_dsn(str(source_at)) and not Path(source_at).expanduser().exists():
            fail(f"no store at {source_at}")
        if str(source_at) == to:
            fail("source and target are the same store")
        if not is_dsn(to):
            folder = Path(to).expanduser().absolute().parent
            if not folder.is_dir():
                # a mistyped path would otherwise become a tree of new folders
                fail(f"no folder {folder} for the target store (create it first)")
        try:
            source = open_store(source_at)
        except KenningError as exc:
            fail(str(exc))
        try:
            target = open_store(to)
        except KenningError as exc:
            source.close()
            fail(str(exc))
        bar: dict[str, Any] = {}

        def progress(phase: str, done: int, total: int) -> None:
            if json_ or not sys.stderr.isatty():
                lines = bar.setdefault(f"lines {phase}", ProgressLines(
                    phase if phase == "verifying" else f"copying {phase}"))
                lines(done, total)
                return
            from rich.progress import Progress

            if "bar" not in bar:
                bar["bar"] = Progress(transient=False, console=console(err=True))
                bar["bar"].start()
            if phase not in bar:
                bar[phase] = bar["bar"].add_task(phase, total=max(total, 1))
            bar["bar"].update(bar[phase], completed=done, total=max(total, 1))

        try:
            report = run_migration(source, target, batch=batch, progress=progress)
        except KenningError as exc:
            fail(str(exc))
        finally:
            if "bar" in bar:
                bar["bar"].stop()
            source.close()
            target.close()
        data = report.to_dict()
        if json_:
            emit(data)
        else:
            typer.echo(f"copied {report.source} -> {report.target}")
            typer.echo("  " + ", ".join(f"{k} {v}" for k, v in report.copied.items()))
            if any(report.skipped.values()):
                typer.echo(f"  already there: {report.skipped['memories']}; same text under "
                           f"another id: {report.skipped['duplicates']}")
            src, dst = report.source_fingerprint, report.target_fingerprint
            for part in src["counts"]:
                same = "ok" if (src["counts"][part], src["hashes"][part]) == (
                    dst["counts"][part], dst["hashes"][part]) else "DIFFERS"
                typer.echo(f"  {part:<14} {src['counts'][part]:>9} -> {dst['counts'][part]:<9} "
                           f"sha256 {src['hashes'][part][:16]} / {dst['hashes'][part][:16]} "
                           f"{same}")
        if not report.verified:
            if not json_:
                typer.echo("error: the target differs from the source (see above)", err=True)
            raise typer.Exit(1)
