"""The ``kenning`` console script. ``kenning hook <event>`` goes straight to the lean hook runner
(no typer, no facade imports: hooks must answer within a few milliseconds of interpreter start);
every other command goes to the typer CLI, its output cleaned of terminal control characters
(``kenning.terminal``)."""

from __future__ import annotations

import sys


def main() -> int:
    argv = sys.argv[1:]
    if argv[:1] == ["hook"]:
        from kenning.hooks.run import main as hook_main

        return hook_main(argv[1:])
    from kenning.terminal import SafeStream

    # Whatever a command prints (memory text, errors quoting input) cannot steer the terminal;
    # errors, which may quote the command line, are redacted too.
    sys.stdout = SafeStream(sys.stdout)
    sys.stderr = SafeStream(sys.stderr, redacting=True)
    from kenning.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
