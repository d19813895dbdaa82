"""Claude Code integration commands: ``kenning init``, ``kenning hook`` and ``kenning config``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from kenning.cliutil import JsonOpt, emit, fail


def register(app: typer.Typer) -> None:
    @app.command()
    def init(
        user: Annotated[bool, typer.Option(
            "--user", help="Wire into ~/.claude (every project) instead of this project.")] = False,
        uninstall: Annotated[bool, typer.Option(
            "--uninstall", help="Remove exactly what init added.")] = False,
        project_root: Annotated[Path | None, typer.Option(
            help="Project to wire (default: the git root of the current directory).")] = None,
        json_: JsonOpt = False,
    ) -> None:
        """Wire Kenning's hooks and MCP server into Claude Code (idempotent)."""
        from kenning import claudeinit
        from kenning.errors import KenningError
        from kenning.places.paths import project_root as find_root

        root = (project_root or find_root()).resolve()
        try:
            result = (claudeinit.uninstall if uninstall else claudeinit.install)(root, user=user)
        except KenningError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write Claude Code settings: {exc}")
        if not uninstall:
            result["mcp_primed"] = prime_mcp()
        if json_:
            emit(result)
            return
        for path, what in result["files"].items():
            typer.echo(f"{what:<10} {path}")
        if not uninstall:
            typer.echo(f"hooks run: {result['hook_command']}")
            typer.echo(result["mcp_permission"])
            primed = result["mcp_primed"]
            typer.echo("MCP server: its first answers are recorded, so Claude Code has "
                       "Kenning's tools from a session's first turn" if primed is True else
                       f"note: the MCP server's first answers could not be recorded ({primed}): "
                       "Claude Code may show it as still connecting on a first turn")
            if not user:
                typer.echo("Nothing was written to files your team commits: each person runs "
                           "kenning init once on their machine.")
            typer.echo("Claude Code now gets Kenning memories in each prompt; "
                       "undo with kenning init --uninstall")

    def prime_mcp() -> bool | str:
        """Start the MCP server as Claude Code will (on a scratch store) and ask it what a
        client asks first, so the record its front answers from exists before the first
        session (``kenning.mcpfront.prime``): True, or why not."""
        import tempfile

        from kenning import claudeinit, mcpfront
        from kenning.places.lean import data_dir

        try:
            from mcp.types import LATEST_PROTOCOL_VERSION
        except ImportError as exc:
            return f"the MCP SDK cannot be imported: {exc}"
        entry = claudeinit.mcp_entry()
        with tempfile.TemporaryDirectory(prefix="kenning-prime-") as scratch:
            why = mcpfront.prime([entry["command"], *entry["args"], "--db",
                                  os.path.join(scratch, "prime.db")], data_dir(),
                                 LATEST_PROTOCOL_VERSION)
        return True if why is None else why

    @app.command(context_settings={"allow_extra_args": False})
    def hook(
        event: Annotated[str, typer.Argument(
            help="SessionStart, UserPromptSubmit, PostToolUse, PostToolUseFailure, PreCompact, "
                 "Stop, SubagentStop or SessionEnd (or kebab-case).")],
    ) -> None:
        """Run one Claude Code hook: JSON payload on stdin, Claude Code's protocol on stdout.
        Always exits 0 (errors go to the log that kenning doctor shows)."""
        from kenning.hooks.run import main as hook_main

        raise typer.Exit(hook_main([event]))

    config_app = typer.Typer(help="Effective configuration (kenning.toml + environment).",
                             no_args_is_help=True)
    app.add_typer(config_app, name="config")

    @config_app.command("show")
    def config_show(
        project_root: Annotated[Path | None, typer.Option(
            help="Project whose kenning.toml applies (default: current git root).")] = None,
        json_: JsonOpt = False,
    ) -> None:
        """Every setting's effective value and where it came from."""
        from kenning import config
        from kenning.places.paths import project_root as find_root

        root = (project_root or find_root()).resolve()
        try:
            cfg = config.load(str(root))
        except config.ConfigError as exc:
            fail(str(exc))
        if json_:
            emit({"files": cfg.files, "user_file": config.user_config_path(),
                  "project_file": config.project_config_path(str(root)),
                  "values": {k: {"value": v, "source": s} for k, v, s in cfg.table()}})
            return
        typer.echo(f"user file     {config.user_config_path()}")
        typer.echo(f"project file  {config.project_config_path(str(root))}")
        for key, value, source in cfg.table():
            typer.echo(f"{key:<36} {value!s:<24} {source}")
