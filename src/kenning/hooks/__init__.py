"""Claude Code hooks: one entry point (``kenning hook <event>`` / ``kenning-hook <event>``) for
every event. The per-prompt and per-tool paths import only the standard library's C modules;
session start and end may load the facade."""
