"""Claude Code's project key, importable without ``pathlib`` (hooks resolve it on every prompt)."""

import os


def _js_hash36(text: str) -> str:
    """Base-36 of a 32-bit string hash (Java/JS ``hashCode`` form), as Claude Code suffixes keys."""
    h = 0
    units = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(units), 2):  # JavaScript strings hash UTF-16 code units
        h = (h * 31 + (units[i] | units[i + 1] << 8)) & 0xFFFFFFFF
    if h >= 1 << 31:
        h -= 1 << 32
    h = abs(h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        h, r = divmod(h, 36)
        out = digits[r] + out
        if h == 0:
            return out


def project_key(root: str | os.PathLike[str]) -> str:
    """Claude Code's project key, ``path.replace(/[^a-zA-Z0-9]/g, "-")`` as JavaScript does it:
    one '-' per UTF-16 code unit, so a character outside the BMP gives two.

    Keys longer than 200 characters are cut to 200 and get ``-<base36 hash>`` appended, as
    Claude Code does.
    """
    text = str(root)
    key = "".join(
        c if c.isascii() and c.isalnum() else ("--" if ord(c) > 0xFFFF else "-") for c in text
    )
    if len(key) > 200:
        key = f"{key[:200]}-{_js_hash36(text)}"
    return key
