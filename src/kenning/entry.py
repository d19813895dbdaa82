"""The ``kenning`` console script. ``kenning hook <event>`` goes straight to the lean hook runner
(no typer, no facade imports: hooks must answer within a few milliseconds of interpreter start);
``list``, ``show``, ``recall`` and ``--version`` try the fast read path (``kenning.fastcli``),
which hands over whatever it cannot answer exactly; every other command goes to the typer CLI.
Either way the output is cleaned of terminal control characters (``kenning.terminal``)."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

# Set when the fast read path answered: the process then holds nothing but its printed output.
_answered_fast = False


def main() -> int:
    argv = sys.argv[1:]
    if argv[:1] == ["hook"]:
        from kenning.hooks.run import main as hook_main

        return hook_main(argv[1:])
    from kenning.terminal import SafeStream

    # Whatever a command prints (memory text, errors quoting input) cannot steer the terminal;
    # errors, which may quote the command line, are redacted too, and are JSON with --json.
    options = argv[: argv.index("--")] if "--" in argv else argv
    sys.stdout = SafeStream(sys.stdout)
    sys.stderr = SafeStream(sys.stderr, redacting=True, json_errors="--json" in options)
    for n, arg in enumerate(argv, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:  # the shell passed bytes that are not UTF-8
            print(f"error: argument {n} is not valid UTF-8 text", file=sys.stderr)
            return 1
    if argv[:1] == ["mcp"] and (db := _stdio_mcp(argv[1:])) is not None:
        from kenning.mcpfront import main as mcp_main

        return mcp_main(db or None)
    if argv[:1] in (["list"], ["show"], ["recall"], ["--version"]):
        from kenning.fastcli import main as fast_main

        rc = fast_main(argv)
        if rc is not None:
            global _answered_fast
            _answered_fast = argv[0] != "recall"  # recall runs the facade: it closes normally
            return rc
    from kenning.cli import main as cli_main

    return cli_main(argv)


def _stdio_mcp(args: list[str]) -> str | None:
    """The store of a plain ``kenning mcp [--db PATH]`` ("" for the default one), which goes
    straight to the stdio front (the MCP client waits for its answer); None for anything else
    (``--http``, ``--help``...), which the CLI handles."""
    if not args:
        return ""
    if len(args) == 2 and args[0] == "--db" and args[1]:
        return args[1]
    if len(args) == 1 and args[0].startswith("--db=") and len(args[0]) > 5:
        return args[0][5:]
    return None


def run() -> NoReturn:
    """The console script: ``main``, then, when the fast read path answered, an exit that skips
    the interpreter's teardown. That path holds one read-only SQLite connection, no thread and no
    exit handler, so once its output is flushed there is nothing left to finish; the teardown of
    the modules it imported cost a 25 ms ``kenning list`` about 4 ms (measured cold, side by
    side)."""
    if sys.argv[1:2] == ["hook"]:
        from kenning.hooks.run import run as run_hook

        run_hook(sys.argv[2:])
    rc = main()
    if _answered_fast:
        from kenning.terminal import exit_flushed

        exit_flushed(rc)
    sys.exit(rc)


if __name__ == "__main__":
    run()
