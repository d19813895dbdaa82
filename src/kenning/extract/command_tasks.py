"""The tasks that the commands named in a statement do, and whether a newer statement speaks of
them at all.

A rule often prescribes a command: a package manager's script that prepares the workspace, say.
A later statement that names the same tool for another of its jobs (how it installs now) or moves
the tool to a new version changes that job, not every job the tool runs. Neither the phrase rules
nor the learned pair judge see this reliably: both read two sentences about one tool as one
subject, and ending the older rule hides a rule still in force.
Here the commands' structure decides it: a command's task is its sub-command's parts
(``dev:prepare`` -> ``dev``, ``prepare``) and, for a check, its kind (test, lint, build...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kenning.extract.candidates import command_key
from kenning.outcomes import check_of

_SPAN = re.compile(r"`([^`\n]{2,120})`")
# a code span that is a command line: a program name, then at least one more word
_COMMAND = re.compile(r"^[A-Za-z][\w.+-]*\s")
# ... and not a line of program code (an assignment, a call, a block, an arrow function)
_PROGRAM_CODE = re.compile(r"\s=\s|[(){}]|=>")
_PARTS = re.compile(r"[.:_/-]+")


@dataclass(frozen=True)
class Task:
    """What one command named in a statement does: its program, the parts of its sub-command
    and its kind of check, if it is one."""

    tool: str
    parts: frozenset[str]
    check: str | None


def tasks_in(text: str) -> list[Task]:
    """The tasks of the command lines ``text`` names in backticks."""
    out: list[Task] = []
    for code in _SPAN.findall(text):
        code = code.strip()
        if not _COMMAND.match(code) or _PROGRAM_CODE.search(code):
            continue
        tool, sub = command_key(code)
        if not tool:
            continue
        check = check_of(code)
        out.append(Task(tool.lower(), frozenset(p for p in _PARTS.split(sub.lower()) if p),
                        check.kind if check else None))
    return out


def _said(term: str, text: str) -> bool:
    """Whether ``text`` holds ``term`` as a word of its own (not inside a longer name)."""
    return re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text) is not None


def other_tasks(old: str, new: str) -> bool:
    """Whether ``new`` cannot replace ``old`` because ``old`` prescribes commands for tasks
    ``new`` never speaks of: ``old`` names command lines, ``new`` names none of their
    sub-command parts, runs no command sharing one or doing the same kind of check, and yet
    names one of their programs or commands of its own (so it is about other jobs, not a
    statement that says nothing of commands). False when ``old`` names no command: then the
    commands cannot tell."""
    olds = tasks_in(old)
    if not olds:
        return False
    said = new.lower()
    news = tasks_in(new)
    for task in olds:
        if not task.parts and _said(task.tool, said):
            return False  # a bare program (`ruff check` is a part; `pytest -q` has none)
        if any(_said(part, said) for part in task.parts):
            return False
        if any(task.parts & n.parts or (task.check is not None and task.check == n.check)
               for n in news):
            return False
    return bool(news) or any(_said(task.tool, said) for task in olds)
