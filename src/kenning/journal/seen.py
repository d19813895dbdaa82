"""What the model has already been shown in a conversation, so no channel repeats another: the
SessionStart hook writes what its briefing and MEMORY.md put in front of the model, each prompt
injection leaves out what is listed and adds what it showed. A compaction starts the list anew
(the conversation forgot the details).

One small file per session in ``<journal dir>/seen/``: a line per memory id and per text key
(the first words of a line, lower-cased, so a MEMORY.md line and the memory it came from are
recognised as one). The prompt hook reads it with ``os`` alone."""

import os

from kenning.words import words

DIR = "seen"
KEY_WORDS = 10  # a line's first words identify it (MEMORY.md cuts long lines after ~100 chars)
KEEP_DAYS = 7  # older files are removed by the session-end worker
HEADER = "#header"  # listed once a prompt injection explained what Kenning's lines are
# The start queued the end of a session that never had one: what it teaches arrives after the
# briefing, in ``<file>.update``, for the next prompt to show (then ``UPDATE_SHOWN``).
UPDATE_DUE = "#update-due"
UPDATE_SHOWN = "#update-shown"


def path(journal_dir: str, session_id: str) -> str | None:
    """The session's file, or None for an empty or unusable session id."""
    name = "".join(c for c in session_id if c.isalnum() or c in "-_")[:80]
    return os.path.join(journal_dir, DIR, name) if name else None


def key(text: str) -> str:
    """A line's identity: its first ``KEY_WORDS`` words, lower-cased, punctuation dropped."""
    return " ".join(words(text[:40 * KEY_WORDS].lower())[:KEY_WORDS])


def update_path(file: str) -> str:
    return file + ".update"


def take_update(file: str | None) -> tuple[str, list[str]] | None:
    """The update the session-end worker left for this conversation (text, ids), removing the
    file; None while it has not been written yet."""
    if file is None:
        return None
    path = update_path(file)
    try:
        with open(path, encoding="utf-8") as f:
            data = f.read()
    except OSError:
        return None
    try:
        os.unlink(path)
    except OSError:
        return None  # another prompt took it
    from kenning.journal import fastjson

    try:
        found = fastjson.loads(data)
        text, ids = found["text"], found["ids"]  # type: ignore[index]
    except (ValueError, KeyError, TypeError):
        return "", []
    if not isinstance(text, str) or not isinstance(ids, list):
        return "", []
    return text, [str(i) for i in ids]


def load(file: str | None) -> set[str]:
    if file is None:
        return set()
    try:
        with open(file, encoding="utf-8") as f:
            return {line.rstrip("\n") for line in f if line.strip()}
    except OSError:
        return set()


def write(file: str | None, keys: list[str], *, append: bool) -> None:
    """Record ``keys`` (start anew unless ``append``): one O_APPEND write, so concurrent
    prompt hooks never interleave lines."""
    if file is None or (append and not keys):
        return
    os.makedirs(os.path.dirname(file), mode=0o700, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    data = "".join(k.replace("\n", " ") + "\n" for k in keys if k).encode("utf-8")
    fd = os.open(file, flags, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def prune(journal_dir: str, now_ms: int) -> int:
    """Remove the files of sessions untouched for ``KEEP_DAYS``; how many."""
    directory = os.path.join(journal_dir, DIR)
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return 0
    done = 0
    for name in names:
        file = os.path.join(directory, name)
        try:
            if now_ms / 1000 - os.stat(file).st_mtime > KEEP_DAYS * 86_400:
                os.unlink(file)
                done += 1
        except OSError:
            continue
    return done
