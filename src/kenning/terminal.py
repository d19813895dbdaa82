"""Terminal output that cannot be hijacked by what it prints.

A memory's text is whatever a session captured: tool output with ANSI colours, a page a model
fetched, text a person pasted. Printed as is, an escape sequence in it can move the cursor,
rewrite earlier lines, set the window title or hide text, and a bidirectional override can make
a line read differently from what it holds. ``safe`` replaces every such character by a visible
``\\uXXXX`` escape (the form JSON uses too, so JSON output stays valid): the C0 controls other
than newline and tab, a carriage return (a Windows line ending becomes a newline), DEL, the C1
controls and the Unicode bidirectional controls.

The ``kenning`` command wraps its standard output and error in ``SafeStream`` once, at start-up
(``kenning.entry``), so every command's output passes here (standard error is also redacted);
rich tables are given the raw stream (their own colours must reach the terminal) and clean
their cells with ``safe``.
"""

from __future__ import annotations

import os
import sys

# typing is imported for the type checker only: at run time it cost the fast ``list`` and
# ``show`` paths about 5 ms of a 25 ms start (python -X importtime).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any, NoReturn, TextIO

# C0 controls except \t and \n, DEL, C1 controls, and the bidirectional embeddings, overrides
# and isolates (U+202A-U+202E, U+2066-U+2069) plus the marks that steer them (U+200E, U+200F,
# U+061C).
_UNSAFE_CLASS = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
_unsafe: re.Pattern[str] | None = None


def _pattern() -> re.Pattern[str]:
    """The unsafe characters' pattern, compiled on first need: compiling it cost every start of
    the fast ``list`` and ``show`` paths 0.7 ms, and their output is nearly always printable."""
    global _unsafe
    if _unsafe is None:
        import re

        _unsafe = re.compile(_UNSAFE_CLASS)
    return _unsafe


def _escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def safe(text: str) -> str:
    """``text`` with every character that steers a terminal shown as a ``\\uXXXX`` escape."""
    # Every unsafe character is unprintable, so text that is printable once its newlines and
    # tabs are set aside has none (a check in C, without the pattern).
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():
        return text
    unsafe = _pattern()
    if not unsafe.search(text):
        return text
    return unsafe.sub(_escape, text.replace("\r\n", "\n"))


class SafeStream:
    """A text stream that writes through ``safe``; everything else is the wrapped stream's
    (``buffer`` included, so binary protocols such as MCP over stdio pass untouched). With
    ``redacting`` it also redacts secrets from what it writes: for standard error, where
    messages quote the command line (a usage error names the argument it refused). With
    ``json_errors`` (a command run with ``--json``) each ``error: ...`` line becomes one line
    of JSON, ``{"error": "..."}``, so a script reading the output reads its errors the same
    way; other lines pass as they are. Lines are then written whole, when they end."""

    def __init__(self, stream: TextIO, *, redacting: bool = False,
                 json_errors: bool = False) -> None:
        self._stream = stream
        self._redacting = redacting
        self._json_errors = json_errors
        self._pending = ""

    @property
    def raw(self) -> TextIO:
        """The wrapped stream, for writers that emit their own escape sequences (rich)."""
        return self._stream

    def write(self, text: str) -> int:
        if self._json_errors:
            self._pending += text
            lines = self._pending.split("\n")
            self._pending = lines.pop()
            for line in lines:
                self._put(line + "\n")
        else:
            self._put(text)
        return len(text)

    def _put(self, text: str) -> None:
        out = text
        if self._redacting and out.strip():
            from kenning.redact import redact

            out = redact(out).text
        if self._json_errors and out.startswith("error: "):
            import json

            out = json.dumps({"error": out[len("error: "):].rstrip("\n")},
                             ensure_ascii=False) + "\n"
        self._stream.write(safe(out))

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Write what is held of an unfinished line, then flush the wrapped stream."""
        if self._pending:
            held, self._pending = self._pending, ""
            self._put(held)
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def raw(stream: Any) -> Any:
    """The stream under a ``SafeStream`` (or the stream itself)."""
    return stream.raw if isinstance(stream, SafeStream) else stream


def exit_flushed(rc: int) -> NoReturn:
    """Flush standard output and error, then end the process at once, without the
    interpreter's teardown: for a process that holds nothing else (no thread, no exit handler,
    no open file but read-only ones). Output that cannot be flushed (a closed pipe) takes the
    normal exit, which reports it as Python always does."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(rc)
    os._exit(rc)
