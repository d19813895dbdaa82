"""The ``kenning`` console script. ``kenning hook <event>`` goes straight to the lean hook runner
(no typer, no facade imports: hooks must answer within a few milliseconds of interpreter start);
``list``, ``show``, ``recall`` and ``--version`` try the fast read path (``kenning.fastcli``),
which hands over whatever it cannot answer exactly; every other command goes to the typer CLI.
Either way the output is cleaned of terminal control characters (``kenning.terminal``)."""

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
    if argv[:1] in (["list"], ["show"], ["recall"], ["--version"]):
        from kenning.fastcli import main as fast_main

        rc = fast_main(argv)
        if rc is not None:
            return rc
    from kenning.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
