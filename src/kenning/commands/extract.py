"""``kenning extract``: mine commits, diffs and a Claude Code transcript for candidate memories
(dry run by default; ``--apply`` stores the new ones)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kenning.cliutil import DbOpt, JsonOpt, emit, open_kenning, short


def register(app: typer.Typer) -> None:
    @app.command()
    def extract(
        since: Annotated[str | None, typer.Option(
            help="Commits after this revision (HEAD~5) or date/age (3d).")] = None,
        transcript: Annotated[Path | None, typer.Option(
            help="A Claude Code transcript (.jsonl) to mine.")] = None,
        repo: Annotated[Path | None, typer.Option(
            help="Git repository (default: the current one).")] = None,
        apply: Annotated[bool, typer.Option("--apply", help="Store the new candidates "
                                            "(default: only show them).")] = False,
        llm: Annotated[bool, typer.Option("--llm", help="Refine with an LLM (needs "
                                          "ANTHROPIC_API_KEY and kenning[llm]).")] = False,
        budget: Annotated[int | None, typer.Option(
            help="LLM token budget (default $KENNING_LLM_BUDGET or 4000).")] = None,
        json_: JsonOpt = False,
        db: DbOpt = None,
    ) -> None:
        """Propose memories from what happened: failed-then-fixed commands (a gotcha with its
        error, cause and fix; one already stored counts the session as evidence),
        build/test commands that worked, conventions and decisions stated in the conversation
        (a changed one supersedes the stored one), decisions stated in commits.
        Near-duplicates of stored memories are marked, not proposed."""
        with open_kenning(db) as k:
            result = k.extract(transcript, repo, since, apply, llm=llm or None,
                               llm_budget=budget)
        if json_:
            emit(result)
            return
        cands = result["candidates"]
        if not cands:
            typer.echo("No candidates.")
        for c in cands:
            mark = f"dup of {c['duplicate_of']}" if c["duplicate_of"] else "new"
            typer.echo(f"{c['kind']:<10} {c['confidence']:.2f}  {mark:<12} "
                       f"{short(c['text'], 100)}")
        verb = "stored" if apply else "would store (use --apply)"
        typer.echo(f"\n{result['new']} new, {result['duplicates']} duplicate; {verb}"
                   + (f": {len(result['applied'])} memories" if apply else "")
                   + (f", {len(result['recurred'])} gotchas met again"
                      if result.get("recurred") else "")
                   + f"  ({result['elapsed_ms']:.0f} ms)")
        if result.get("llm"):
            typer.echo(f"llm: {result['llm']}", err=True)
