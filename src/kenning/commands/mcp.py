"""``kenning mcp``: the MCP server for agents (stdio, or streamable HTTP with ``--http``)."""

from __future__ import annotations

from typing import Annotated

import typer

from kenning.cliutil import DbOpt, JsonOpt, emit, fail


def register(app: typer.Typer) -> None:
    @app.command("mcp")
    def mcp_command(
        http: Annotated[str | None, typer.Option(
            "--http", help="Serve streamable HTTP at HOST:PORT (e.g. 127.0.0.1:8765) "
            "instead of stdio.")] = None,
        json_: JsonOpt = False,
        db: DbOpt = None,
    ) -> None:
        """Run the MCP server (what `kenning init` registers in .mcp.json)."""
        from kenning.errors import KenningError
        from kenning.mcpfront import serve
        from kenning.mcpserver import open_resilient, parse_http

        if http is not None:
            try:
                parse_http(http)
            except KenningError as exc:
                fail(str(exc), 2)

        def say(url: str) -> None:
            if json_:
                emit({"url": url, "transport": "streamable-http"})
            else:
                typer.echo(f"kenning MCP server at {url}", err=True)

        try:
            # The store may be unavailable (corrupt, locked, unreachable): the server still
            # starts, keeps what it is told in files and opens the store once it answers.
            k = open_resilient(str(db) if db else None, lambda w: typer.echo(w, err=True))
        except KenningError as exc:
            fail(str(exc))
        try:
            serve(k, http=http, say=say)
        finally:
            k.close()
