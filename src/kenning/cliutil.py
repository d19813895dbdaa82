"""Helpers every ``kenning`` command module shares: the common options, opening the store with
one-line errors, JSON output and rich tables."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from kenning.errors import KenningError, NotFoundError, disk_full
from kenning.fastcli import missing_store

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
# A string, not a Path: a PostgreSQL DSN (postgresql://...) must pass through untouched.
DbOpt = Annotated[
    str | None,
    typer.Option("--db", envvar="KENNING_DB",
                 help="Store file or postgresql:// DSN (default: user data dir)."),
]
TypesOpt = Annotated[
    list[str] | None, typer.Option("--type", "-t", help="Only these types (repeatable).")
]
TopicOpt = Annotated[str | None, typer.Option("--topic", help="Only this topic.")]
SinceOpt = Annotated[str | None, typer.Option("--since", help="ISO date/time or age (7d, 12h).")]
UntilOpt = Annotated[str | None, typer.Option("--until", help="ISO date/time or age.")]
ScopeOpt = Annotated[
    list[str] | None, typer.Option("--scope", help="project, local or user (repeatable).")
]
AgentOpt = Annotated[str | None, typer.Option("--agent", help="Only this agent's memories.")]


DISK_FULL = ("the disk is full: nothing was written and the store is as it was (free some "
             "space, then run the command again)")


def fail(message: str, code: int = 1) -> NoReturn:
    """One line on stderr and exit ``code``; the message is redacted (it may quote input) and
    its control characters escaped."""
    from kenning.redact import redact
    from kenning.terminal import safe

    typer.echo(f"error: {safe(redact(message).text)}", err=True)
    raise typer.Exit(code)


@contextmanager
def open_kenning(db: str | Path | None, file_only: Callable[[str], None] | None = None, *,
                 create: bool = True) -> Iterator[Any]:
    """The facade over the store ``db`` names, with one-line errors. With ``file_only``, a
    store that cannot be used (corrupt, locked, unreachable: ``kenning.fileonly``) runs
    ``file_only(reason)`` instead of failing, and the command ends there with exit 0. A
    read-only command passes ``create=False``: a SQLite store that does not exist yet is then
    read as an empty one made in a temporary folder and removed afterwards, so reading never
    creates a file or a folder where the store would be."""
    import tempfile

    from kenning.facade import Kenning
    from kenning.fileonly import unavailable

    scratch = None
    try:
        if not create and missing_store(db) is not None:
            scratch = tempfile.TemporaryDirectory(prefix="kenning-empty-")
            k = Kenning(Path(scratch.name) / "empty.db")
        else:
            k = Kenning(db)
    except Exception as exc:
        if scratch is not None:
            scratch.cleanup()
        if file_only is not None and (why := unavailable(exc)) is not None:
            _without_store(file_only, why)
            raise typer.Exit(0) from None
        if isinstance(exc, KenningError):
            fail(str(exc))
        if disk_full(exc):
            fail(DISK_FULL)
        raise
    k.on_progress = progress_printer()
    try:
        yield k
    except NotFoundError as exc:
        fail(str(exc), 3)
    except (typer.Exit, typer.Abort, KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as exc:
        if file_only is not None and (why := unavailable(exc)) is not None:
            _without_store(file_only, why)
            return
        if isinstance(exc, KenningError):
            fail(str(exc))
        if disk_full(exc):
            fail(DISK_FULL)
        # a bug, not bad input: keep the trace for `kenning doctor`
        from kenning.errorlog import log_error

        log_error("cli", exc)
        fail(f"internal error: {type(exc).__name__}: {exc} (logged; see kenning doctor)")
    finally:
        k.close()
        if scratch is not None:
            scratch.cleanup()


def _without_store(file_only: Callable[[str], None], why: str) -> None:
    """Run a command's file-only fallback; bad input there is a one-line error too, and so is
    a disk too full to take the files."""
    try:
        file_only(why)
    except KenningError as exc:
        fail(str(exc))
    except OSError as exc:
        if disk_full(exc):
            fail(DISK_FULL)
        raise


PROGRESS_EVERY_S = 10.0  # a log or a pipe gets a progress line this often during long work


class ProgressLines:
    """Progress of long work for a log or a pipe, where a bar cannot be drawn: a line when it
    starts, then one at most every ``PROGRESS_EVERY_S`` with the counts and the time left, and
    one when it ends. ``clock`` (seconds) is injected for tests."""

    def __init__(self, label: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.label = label
        self.clock = clock
        self.started: float | None = None
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.started is None:
            self.started = self.last = now
            typer.echo(f"{self.label}: {total:,} to do…", err=True)
            if done < total:
                return
        assert self.started is not None
        if done >= total:
            typer.echo(f"{self.label}: {done:,} of {total:,} done in "
                       f"{_duration(now - self.started)}", err=True)
            return
        if now - self.last < PROGRESS_EVERY_S or done <= 0:
            return
        self.last = now
        left = (now - self.started) / done * (total - done)
        typer.echo(f"{self.label}: {done:,} of {total:,} ({done * 100 // max(total, 1)}%), "
                   f"about {_duration(left)} left", err=True)


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def progress_printer() -> Any:
    """A rich progress bar on stderr for re-indexing; on a log or a pipe, progress lines
    (``ProgressLines``)."""
    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        if not sys.stderr.isatty():
            lines = state.setdefault("lines", ProgressLines("re-indexing memories"))
            lines(done, total)
            if done >= total:
                state.pop("lines")
            return
        from rich.progress import Progress

        if "bar" not in state:
            bar = Progress(transient=True, console=console(err=True))
            bar.start()
            state["bar"], state["task"] = bar, bar.add_task("re-indexing", total=total or 1)
        state["bar"].update(state["task"], completed=done, total=max(total, 1))
        if done >= total:
            state.pop("bar").stop()

    return update


def console(err: bool = False) -> Any:
    from rich.console import Console

    from kenning.terminal import raw

    # rich writes its own colours: it gets the stream under the control-character filter, and
    # what it prints of a memory is cleaned by ``terminal.safe`` (``memory_table``).
    stream = raw(sys.stderr if err else sys.stdout)
    # Piped output keeps whole rows rather than squeezing into 80 columns.
    width = None if stream.isatty() else 200
    return Console(file=stream, highlight=False, soft_wrap=False, width=width)


def emit(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def short(text: str, width: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def memory_table(k: Any, memories: list[Any], title: str | None = None,
                 scores: list[float] | None = None) -> dict[str, str]:
    """Memories as the plain table ``kenning.memtable`` draws, ids as short as the store
    allows (``k`` is the open facade); returns the short ids it used."""
    from kenning import memtable

    wanted = [m.id for m in memories] + [m.superseded_by for m in memories if m.superseded_by]
    ids = memtable.short_ids(wanted, k.store.resolve_prefix)
    typer.echo(memtable.render([memtable.row_of(m) for m in memories], ids, scores=scores,
                               title=title), nl=False)
    return ids


def register_command_modules(app: typer.Typer) -> None:
    """Add the commands of every module in ``kenning.commands`` (each has ``register(app)``)."""
    import importlib
    import pkgutil

    from kenning import commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"kenning.commands.{info.name}")
        module.register(app)
