"""``kenning serve``: the dashboard in a browser (loopback only and read-only by default)."""

from __future__ import annotations

from typing import Annotated

import typer

from kenning.cliutil import DbOpt, JsonOpt, emit, fail, open_kenning


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to bind; anything but loopback "
                                          "exposes your memories.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port.")] = 7077,
        open_: Annotated[bool, typer.Option("--open", help="Open a browser.")] = False,
        allow_writes: Annotated[bool, typer.Option(
            "--allow-writes", help="Let the page merge relationship words, forget memories "
            "and delete or down-vote links.")] = False,
        json_: JsonOpt = False,
        db: DbOpt = None,
    ) -> None:
        """Serve the dashboard: memories, graph, timelines, health, injections, MEMORY.md."""
        from kenning.extras import MissingExtra, require

        try:
            require("web")
        except MissingExtra as exc:
            fail(str(exc))
        from kenning.web.server import serve as run_server
        from kenning.web.server import url_for

        with open_kenning(db) as k:
            def say(line: str) -> None:
                if json_:
                    emit({"url": url_for(host, port), "read_only": not allow_writes,
                          "store": k.store.location})
                else:
                    typer.echo(line)

            run_server(k, host=host, port=port, allow_writes=allow_writes, open_browser=open_,
                       say=say, warn=lambda line: typer.echo(line, err=True))
