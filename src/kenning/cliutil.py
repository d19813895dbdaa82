"""Helpers every ``kenning`` command module shares: the common options, opening the store with
one-line errors, JSON output and rich tables."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from kenning.errors import KenningError, NotFoundError

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


def fail(message: str, code: int = 1) -> NoReturn:
    """One line on stderr and exit ``code``; the message is redacted (it may quote input) and
    its control characters escaped."""
    from kenning.redact import redact
    from kenning.terminal import safe

    typer.echo(f"error: {safe(redact(message).text)}", err=True)
    raise typer.Exit(code)


@contextmanager
def open_kenning(db: str | Path | None) -> Iterator[Any]:
    from kenning.facade import Kenning

    try:
        k = Kenning(db)
    except KenningError as exc:
        fail(str(exc))
    k.on_progress = progress_printer()
    try:
        yield k
    except NotFoundError as exc:
        fail(str(exc).strip("'\""), 3)
    except KenningError as exc:
        fail(str(exc))
    except (typer.Exit, typer.Abort, KeyboardInterrupt):
        raise
    except Exception as exc:  # a bug, not bad input: keep the trace for `kenning doctor`
        from kenning.errorlog import log_error

        log_error("cli", exc)
        fail(f"internal error: {type(exc).__name__}: {exc} (logged; see kenning doctor)")
    finally:
        k.close()


def progress_printer() -> Any:
    """A rich progress bar on stderr for re-indexing; silent when stderr is not a TTY."""
    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        if not sys.stderr.isatty():
            if done == 0 and total:
                typer.echo(f"re-indexing {total} memories for the current embedder…", err=True)
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


def memory_table(memories: list[Any], title: str | None = None, scores: list[float] | None = None
                  ) -> None:
    from rich.markup import escape
    from rich.table import Table

    from kenning.terminal import safe

    table = Table(title=title, show_lines=False, header_style="bold")
    table.add_column("id", no_wrap=True, style="cyan")
    if scores is not None:
        table.add_column("score", justify="right")
    table.add_column("type", no_wrap=True)
    table.add_column("topic", no_wrap=True, style="magenta")
    table.add_column("summary")
    table.add_column("conf", justify="right")
    table.add_column("created", no_wrap=True, style="dim")
    for i, m in enumerate(memories):
        row = [m.id]
        if scores is not None:
            row.append(f"{scores[i]:.3f}")
        outcome = f" [{m.outcome.value}]" if m.outcome else ""
        if m.superseded_by:
            outcome += f" [superseded by {m.superseded_by[:8]}]"
        row += [
            # Escaped: rich would take "[failed]" or "[superseded by ...]" for markup; the
            # text is cleaned of control characters (rich writes to the raw stream).
            m.type.value, escape(safe(m.topic or "")), escape(safe(short(m.summary) + outcome)),
            f"{m.confidence:.2f}", m.created_time.strftime("%Y-%m-%d %H:%M"),
        ]
        table.add_row(*row)
    console().print(table)


def register_command_modules(app: typer.Typer) -> None:
    """Add the commands of every module in ``kenning.commands`` (each has ``register(app)``)."""
    import importlib
    import pkgutil

    from kenning import commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"kenning.commands.{info.name}")
        module.register(app)
