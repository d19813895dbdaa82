"""Pure rules that turn a transcript and commits into candidate memories: commands that
failed then passed (one gotcha holding the error, its cause and the fix), build/test commands
that worked, user corrections as preferences, files edited together and decisions stated in
commits. No I/O, no model."""

from __future__ import annotations

import difflib
import os
import re
import shlex
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from kenning.extract.conventions import (
    TOOL_FAMILIES,
    find_rules,
    names_something_technical,
    offered_decision,
)
from kenning.extract.failures import (
    clip,
    code_names,
    explanation,
    naming_sentence,
    read_failure,
    sentences,
    unstamped,
)
from kenning.extract.gitlog import Commit
from kenning.extract.transcript import ToolCall, Transcript, UserText
from kenning.outcomes import check_of

# Tools that do the same job: a correction naming one rules out its siblings.
FAMILIES = (
    frozenset({"npm", "pnpm", "yarn", "bun", "npx", "pnpx"}),
    frozenset({"pip", "pip3", "uv", "poetry", "pipenv", "conda"}),
    frozenset({"python", "python3", "py"}),
    frozenset({"jest", "vitest", "mocha"}),
    frozenset({"pytest", "unittest", "nose2"}),
    frozenset({"eslint", "biome", "oxlint"}),
    frozenset({"black", "ruff", "yapf", "autopep8"}),
    frozenset({"make", "just", "task"}),
)
_PKG = FAMILIES[0]
# The name a family goes by in a failure's signature (``pnpm test`` and ``npm test`` agree).
_FAMILY_NAMES = ("npm", "pip", "python", "jest", "pytest", "eslint", "black", "make")
# Tools whose ``run`` sub-command runs another command: ``uv run pytest`` is pytest.
_RUN_WRAPPERS = {"uv", "poetry", "pipenv", "pdm", "hatch", "rye"}
_EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")
_READ_ONLY = {"ls", "cat", "head", "tail", "grep", "rg", "find", "pwd", "echo", "which", "wc",
              "git", "sed", "awk", "less", "tree", "stat", "file", "diff"}
# git sub-commands that change the working tree: `git mv jest.config.js jest.config.cjs` is a
# fix like an edit.
_GIT_WRITES = frozenset({"mv", "rm", "restore", "checkout", "apply", "stash", "reset", "revert",
                         "cherry-pick", "merge", "rebase", "pull", "switch"})


def read_only(command: str) -> bool:
    """Whether a shell line only looks at the project (``git status``, ``grep``) rather than
    changing it (``git mv``, ``sed -i``)."""
    tool, sub = command_key(command)
    if tool == "git":
        return sub not in _GIT_WRITES
    if tool == "sed":
        return not any(t.startswith("-i") for t in _tokens(main_segment(command)))
    return tool in _READ_ONLY
_DECISION = re.compile(
    r"\b(switch(?:ed|es)? (?:to|from)|migrat(?:e|ed|es) (?:to|from)|replac(?:e|ed|es) \S+.* with|"
    r"use[sd]? .+ instead of|in favou?r of|adopt(?:ed|s)?|decid(?:e|ed)|chose|choose|"
    r"deprecat(?:e|ed)|drop(?:ped)? support|move[sd]? (?:to|from))\b", re.I)
_FIX = re.compile(r"^(fix|bugfix|hotfix)(\(.+?\))?!?:\s*|^fix(es|ed)?\s+", re.I)
# Greetings and pleasantries that open a message without stating any work.
_GREETING = re.compile(
    r"^\s*(?:(?:good\s+)?(?:morning|afternoon|evening)|good\s+day|hi|hello|hey|hiya|howdy|yo|gm|"
    r"greetings|thanks|thank you|thx|ty|cheers|nice|great|cool|awesome|ok(?:ay)?|sure|lol|"
    r"welcome back)(?:\s+(?:there|again|all|team|claude|folks|everyone|so much|a lot))*"
    r"\s*(?:[!.,:;~\-—]+\s*|$)", re.I)
_PLEASANTRY = re.compile(
    r"^(?:(?:that'?s|this|it|everything)\s+)?(?:looks|is|was|seems)\s+(?:good|great|fine|"
    r"perfect|nice)|^how are you|^how'?s it going|^what'?s up|^nice work|^good job|^well done|"
    r"^that'?s all|^lol\b|^see you|^bye\b|^have a good", re.I)
MAX_TEXT = 400
MAX_GOTCHA = 800


@dataclass
class Candidate:
    """A proposed memory with how sure the rule is and where it came from."""

    kind: str  # gotcha, fix, pattern, preference, co_edit, decision
    text: str
    type: str
    category: str
    confidence: float
    episode: str
    provenance: dict[str, Any]
    topic: str | None = None
    duplicate_of: str | None = None
    similarity: float | None = None
    refined: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_item(self) -> dict[str, Any]:
        """Keyword arguments for ``Kenning.remember``."""
        via = self.provenance.get("via", "rules")
        return {
            "text": self.text, "type": self.type, "category": self.category,
            "confidence": round(self.confidence, 3), "topic": self.topic,
            "tags": ["extracted", self.kind], "source": f"extract:{via}",
            "metadata": {"episode": self.episode, "kind": self.kind, "extracted": True,
                         "provenance": self.provenance, **self.extra},
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "text": self.text, "type": self.type, "category": self.category,
            "confidence": round(self.confidence, 3), "episode": self.episode,
            "topic": self.topic, "provenance": self.provenance,
            "duplicate_of": self.duplicate_of,
            "similarity": None if self.similarity is None else round(self.similarity, 3),
            "refined": self.refined,
        }


def _clip(text: str, limit: int = MAX_TEXT) -> str:
    return clip(text, limit)


def _tokens(segment: str) -> list[str]:
    try:
        toks = shlex.split(segment)
    except ValueError:
        toks = segment.split()
    while toks and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", toks[0]):
        toks.pop(0)
    return toks


def main_segment(command: str) -> str:
    """The part of a shell line that does the work: ``cd x && npm test`` -> ``npm test``."""
    parts: list[str] = [p.strip() for p in re.split(r"&&|\|\||;|\n", command) if p.strip()]
    for part in reversed(parts):
        toks = _tokens(part.split("|")[0])
        if toks and toks[0] not in ("cd", "export", "source", ".", "set", "echo"):
            return part.split("|")[0].strip()
    return parts[-1] if parts else command.strip()


def command_key(command: str) -> tuple[str, str]:
    """(tool, sub-command) of a shell line: ``npm run build`` -> (npm, build)."""
    toks = _tokens(main_segment(command))
    if not toks:
        return "", ""
    tool = os.path.basename(toks[0])
    if tool in _RUN_WRAPPERS and toks[1:2] == ["run"]:
        inner = [t for t in toks[2:] if not t.startswith("-")]
        if inner:
            return command_key(shlex.join(toks[2 + toks[2:].index(inner[0]):]))
    # options and a toolchain pick (``cargo +1.74 check``) are not the sub-command
    rest = [t for t in toks[1:] if not t.startswith(("-", "+"))]
    if tool in _PKG and rest[:1] in (["run"], ["exec"], ["x"]):
        rest = rest[1:]
    if tool in ("python", "python3", "py") and "-m" in toks:
        i = toks.index("-m")
        return tool, toks[i + 1] if i + 1 < len(toks) else ""
    return tool, rest[0] if rest else ""


def family(tool: str) -> frozenset[str]:
    return next((f for f in FAMILIES if tool in f), frozenset({tool}))


def same_task(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Same tool and sub-command, or sibling tools doing the same sub-command."""
    return a == b or (a[1] == b[1] and a[1] != "" and b[0] in family(a[0]))


def _suite_args(command: str) -> set[str]:
    """What a check command is given beyond its tool and sub-command (paths, tags, markers),
    without the flags that only change how much it prints."""
    toks = _tokens(main_segment(command))
    tool, sub = command_key(command)
    return {t for t in toks[1:] if t != sub and not _prints_only(t)} if tool else set()


def replaces_command(new: str, old: str) -> bool:
    """Whether the project command ``new`` stands in for the stored ``old``: the same task in a
    sibling tool (``pnpm test`` for ``npm test``), or with the same tool every argument of the
    old one still given (``go test -race ./...`` for ``go test ./...``, but not ``go test
    ./...`` for the integration suite ``go test -tags=integration ./internal/db/...``)."""
    a, b = command_key(new), command_key(old)
    if not same_task(a, b):
        return False
    return a[0] != b[0] or _suite_args(old) <= _suite_args(new)


def same_check(a: str, b: str) -> bool:
    """Two command lines that run the same check (``pytest tests/x.py`` and ``uv run
    pytest``: one suite), as ``kenning.outcomes`` names checks."""
    check = check_of(a)
    return check is not None and check == check_of(b)


def runner_of(command: str) -> str:
    """The tool (by family) and sub-command a failure is filed under: ``pnpm test`` and
    ``npm test`` are both ``npm test``."""
    tool, sub = command_key(command)
    name = next((n for n, f in zip(_FAMILY_NAMES, FAMILIES, strict=True) if tool in f), tool)
    return f"{name} {sub}".strip()


def error_line(output: str) -> str:
    """The most telling line of a failed command's output (never a runner's banner)."""
    return read_failure(output).line


def _rel(path: str, cwd: str | None) -> str:
    if cwd and os.path.isabs(path):
        try:
            rel = os.path.relpath(path, cwd)
            if not rel.startswith(".."):
                return rel
        except ValueError:
            pass
    return path


def _src(t: Transcript, lines: list[int]) -> dict[str, Any]:
    return {"via": "transcript", "path": t.path, "session_id": t.session_id,
            "lines": sorted(set(lines))}


def failed_then_passed(t: Transcript) -> list[Candidate]:
    """One gotcha per recovered failure: a command that failed and later passed (itself or a
    sibling doing the same task). With edits or other commands in between, the gotcha holds
    the error, the cause the assistant gave and the fix; after a plain retry of a check (a
    test, build or lint run) it is a low-confidence flaky note, and of any other command
    nothing."""
    out: list[Candidate] = []
    calls = [c for c in t.calls if c.ok is not None]
    open_fail: dict[int, ToolCall] = {}
    for i, call in enumerate(calls):
        if call.name != "Bash" or not call.command:
            continue
        key = command_key(call.command)
        if not call.ok:
            if read_only(call.command) or any(
                    same_task(command_key(calls[j].command), key)
                    or same_check(calls[j].command, call.command) for j in open_fail):
                continue
            open_fail[i] = call
            continue
        for j, failed in list(open_fail.items()):
            if not (same_task(command_key(failed.command), key)
                    or same_check(failed.command, call.command)):
                continue
            del open_fail[j]
            if _only_imports(calls[j + 1 : i]) or _only_formatted(calls[j + 1 : i]):
                continue  # a missing import added, or the formatter's diff fixed by running the
                # formatter: nothing a later session needs to be told
            started = _services_started(calls[j + 1 : i])
            if started:  # nothing in the code was wrong: the run needs a service up first
                out.append(_setup(t, failed, call, started))
                continue
            gotcha = _gotcha(t, failed, call, calls[j + 1 : i])
            if gotcha.extra.get("flaky") and check_of(failed.command) is None:
                continue  # `docker compose up` working the second time: the machine was
                # starting, nothing about the project
            if not _own_slip(t, calls[:j], gotcha):
                out.append(gotcha)
    return out


# A command that starts a service the project runs against: a container, a database, a queue.
_SERVICE_START = re.compile(
    r"^(?:sudo\s+)?(?:(?:docker|podman)[- ]compose\s+(?:-f\s+\S+\s+)?(?:up|start)\b|"
    r"(?:docker|podman)\s+(?:start|run\s+(?:-\S+\s+)*-d)\b|brew services (?:start|restart)\b|"
    r"systemctl (?:start|restart)\b|service \S+ (?:start|restart)\b|redis-server\b|"
    r"pg_ctl\b.*\bstart\b|(?:colima|minikube|supabase) start\b)")


def _services_started(between: list[ToolCall]) -> list[str]:
    """The services started between a failure and its passing run, when starting them was all
    that happened (no edit, no other command): the run needed them up, nothing was wrong with
    the code."""
    if any(c.ok and c.file_path and c.name in _EDIT_TOOLS for c in between):
        return []
    ran = [main_segment(c.command) for c in between
           if c.name == "Bash" and c.ok and c.command and not read_only(c.command)]
    return ran if ran and all(_SERVICE_START.match(r) for r in ran) else []


_NEED_NAMES = {"test": "The tests need", "build": "The build needs", "lint": "Lint needs",
               "typecheck": "The type check needs", "format": "The format check needs"}


def _setup(t: Transcript, failed: ToolCall, passed: ToolCall, started: list[str]
           ) -> Candidate:
    """What a run needs up first, as a project pattern: "The tests need `docker compose up -d
    redis` first; without it: ... Connection refused." A later session starts it before
    running them, rather than reading a failure as a bug."""
    bad = main_segment(failed.command)
    check = check_of(bad)
    need = _NEED_NAMES.get(check.kind, f"`{bad}` needs") if check else f"`{bad}` needs"
    err = read_failure(failed.output, runner_of(failed.command),
                       rust_command=command_key(failed.command)[0] in ("cargo", "rustc")).line
    first = " and ".join(f"`{s}`" for s in dict.fromkeys(started))
    return Candidate(
        "setup", _clip(f"{need} {first} first; without it: {_sentence(err)}"), "pattern",
        "project-patterns", 0.7, "pattern", _src(t, [failed.line, passed.line]),
        extra={"setup": list(dict.fromkeys(started))})


# A cause the assistant gives as its own slip: "My bug: ...", "I built the response without
# the actor.", "typo in ...".
_SLIP_CAUSE = re.compile(r"^(?:my (?:bug|mistake|fault|typo|test|slip)|(?:a |my )?typo\b|"
                         r"i (?:built|forgot|missed|wrote|used|put|left|made|mixed up|swapped|"
                         r"added|passed|called|typed|misspelled|dropped)\b|that'?s (?:on me|my))",
                         re.I)
# Where a failure points: a source path, with its line ("src/output.rs:19:32").
_FAILURE_PATH = re.compile(r"([\w./-]+\.[a-z]{1,5}):\d+")


# The names an error points at: quoted ('onRetry', `items`), or after "undefined:" and
# "missing method".
_ERROR_NAME = re.compile(r"[`'‘](\w{3,})[`'’]|\bundefined: (\w{3,})|\bmissing (?:method|field) "
                         r"`?(\w{3,})")


def _own_slip(t: Transcript, before: list[ToolCall], gotcha: Candidate) -> bool:
    """Whether a recovered failure was a slip in code the session had just written, fixed
    with no lesson said: the assistant gave no cause or called it its own slip ("My bug:
    ..."), the fix only edited files (it ran nothing else), and either the error points into
    files this session edited before it failed (or names no file) and the fix only touched
    those, or the error names code the session's own edits had just put in or taken out (a
    field it added that a test's initializer lacks, a name it renamed). A missing field, a
    renamed variable or a lint nit on a new line: nothing a later session needs."""
    extra = gotcha.extra
    cause = extra.get("cause")
    if extra.get("flaky") or (cause and not _SLIP_CAUSE.match(str(cause))):
        return False
    edits = [c for c in before if c.ok and c.file_path and c.name in _EDIT_TOOLS]
    written = {_rel(c.file_path or "", t.cwd) for c in edits}
    fixed = extra.get("files") or []
    fix = str(extra.get("fix") or "")
    if not written or not fixed or "ran `" in fix:
        return False
    error = str(extra.get("error") or "")
    taken, put = edited_code(edits, whole=False)
    changed = set(re.findall(r"\w+", f"{taken}\n{put}"))
    if any(name in changed for found in _ERROR_NAME.findall(error) for name in found if name):
        return True
    if "instead" in fix:
        return False

    def ours(path: str) -> bool:
        return any(w == path or w.endswith("/" + path) or path.endswith("/" + w)
                   for w in written)

    return all(map(ours, fixed)) and all(map(ours, _FAILURE_PATH.findall(error)))


# A line that only imports something, in the languages a check's failure names.
_IMPORT_LINE = re.compile(
    r"^\s*(?:import\b|from\s+[\w.]+\s+import\b|use\s+[\w:{}, *]+;|#include\b|"
    r"(?:const|let|var)\s+[\w{}, ]+\s*=\s*require\(|(?:\w+\s+)?\"[\w./-]+\"\s*$|[()]\s*$)")


# A formatter run that rewrites the files (not its --check form).
_FORMATTER = re.compile(
    r"^(?:cargo fmt|rustfmt|gofmt -(?:\w*w\w*)|go fmt|gofumpt -w|goimports -w|ruff format|"
    r"black|isort|(?:npx |pnpm exec |yarn )?prettier (?:.*\s)?--write|"
    r"(?:npm run|pnpm(?: run)?|yarn(?: run)?|bun run) (?:format|fmt)|make (?:format|fmt))\b")


def _only_formatted(between: list[ToolCall]) -> bool:
    """Whether all that was done between a failure and the pass was running the project's
    formatter (``cargo fmt`` after a format check's diff): no edit, no other command."""
    ran = [c.command for c in between if c.name == "Bash" and c.command]
    if not ran or any(c.name in _EDIT_TOOLS for c in between):
        return False
    formatted = [cmd for cmd in ran
                 if _FORMATTER.match(main_segment(cmd)) and "--check" not in cmd]
    return bool(formatted) and all(cmd in formatted or read_only(cmd) for cmd in ran)


def _only_imports(between: list[ToolCall]) -> bool:
    """Whether what was done between a failure and the pass was only adding imports (every
    edit only adds lines, each an import; no other command ran). Changing an import (``from
    pydantic import validator`` to ``field_validator``) may be a lesson and is not this."""
    edits = [c for c in between if c.ok and c.file_path and c.name in _EDIT_TOOLS]
    if not edits or any(c.ok and c.name == "Bash" and c.command
                        and not read_only(c.command) for c in between):
        return False
    for edit in edits:
        if edit.name not in ("Edit", "MultiEdit"):
            return False
        changes = edit.input.get("edits") if edit.name == "MultiEdit" else [edit.input]
        for ch in changes or []:
            if not isinstance(ch, dict):
                return False
            old = str(ch.get("old_string") or "").splitlines()
            new = str(ch.get("new_string") or "").splitlines()
            added = [ln for ln in new if ln.strip() and ln not in old]
            if (not added or any(ln not in new for ln in old)
                    or not all(_IMPORT_LINE.match(ln) for ln in added)):
                return False  # something changed besides an import added
    return True


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def _snippet(text: str) -> str:
    return clip(text.replace("`", "'"), 80)


_COMMENT_LINE = re.compile(r"^(?://|#(?!include|!\[)|--|/\*|\*|<!--)")


def _changed_lines(old: str, new: str) -> tuple[str, str]:
    """The first run of lines an edit changed: (what was there, what replaced it); the first
    run that changes code, when an earlier one only changed comments (a doc comment reworded
    above the line that fixed the bug)."""
    a = [ln.strip() for ln in old.splitlines() if ln.strip()]
    b = [ln.strip() for ln in new.splitlines() if ln.strip()]
    runs = [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        a=a, b=b, autojunk=False).get_opcodes() if tag != "equal"]
    if not runs:
        return "", ""
    was, now = next(((x, y) for x, y in runs
                     if not all(_COMMENT_LINE.match(ln) for ln in [*x, *y])), runs[0])
    return _snippet(" ".join(was)), _snippet(" ".join(now))


def _change(call: ToolCall, cwd: str | None) -> str:
    """What an edit did, in a line: ``path``: `old` -> `new`."""
    path = f"`{_rel(call.file_path or '', cwd)}`"
    args: Any = call.input
    if call.name == "MultiEdit":
        edits = args.get("edits")
        args = edits[0] if isinstance(edits, list) and edits and isinstance(edits[0], dict) \
            else {}
    old, new = args.get("old_string"), args.get("new_string")
    if call.name == "Write":
        return f"{path} written"
    if not isinstance(old, str) or not isinstance(new, str):
        return f"{path} edited"
    before, after = _changed_lines(old, new)
    if before and after:
        return f"{path}: `{before}` -> `{after}`"
    if after:
        return f"{path}: added `{after}`"
    return f"{path}: removed `{before}`" if before else f"{path} edited"


_CHECK_NAMES = {"test": "Tests", "build": "The build", "lint": "Lint",
                "typecheck": "The type check", "format": "The format check"}


def _gotcha(t: Transcript, failed: ToolCall, passed: ToolCall,
            between: list[ToolCall]) -> Candidate:
    bad, good = main_segment(failed.command), main_segment(passed.command)
    failure = read_failure(failed.output, runner_of(failed.command),
                           rust_command=command_key(failed.command)[0] in ("cargo", "rustc"))
    err = failure.line
    edits = [c for c in between if c.ok and c.file_path and c.name in _EDIT_TOOLS]
    first_edit = {_rel(c.file_path or "", t.cwd): c for c in reversed(edits)}
    files = list(dict.fromkeys(_rel(c.file_path or "", t.cwd) for c in edits))
    ran = [main_segment(c.command) for c in between if c.ok and c.name == "Bash" and c.command
           and not read_only(c.command)
           and not same_task(command_key(c.command), command_key(failed.command))
           and not same_check(c.command, failed.command)]
    meta: dict[str, Any] = {
        "command": bad, "error": err, "signature": failure.signature,
        "runner": failure.runner, "evidence": 1,
        "sessions": [t.session_id] if t.session_id else [],
    }
    check = check_of(bad)
    # a check is named by its kind, not the command line: the lesson is the failure and its
    # fix, which outlive the command (MEMORY.md would otherwise keep showing `make test` to
    # a project that now runs `uv run pytest`); the command stays in the metadata
    head = f"{_CHECK_NAMES[check.kind]} failed" if check and check.kind in _CHECK_NAMES \
        else f"`{bad}` failed"
    if not edits and not ran and good == bad:
        return Candidate(
            "gotcha", _clip(f"{head} once ({err}) and passed on a retry (flaky?)"),
            "gotcha", "debugging", 0.55, "gotcha", _src(t, [failed.line, passed.line]),
            extra={**meta, "flaky": True})
    # The cause is what the assistant said before its first edit (or, failing that, before
    # the passing run): after the edit it talks about the fix, not the failure.
    until = edits[0].line if edits else passed.line
    texts = [e for e in t.assistant_texts if failed.line < e.line < until]
    cause = explanation([e.text for e in texts], kind=failure.kind)
    if cause is None and edits:
        texts = [e for e in t.assistant_texts if failed.line < e.line < passed.line]
        cause = explanation([e.text for e in texts], kind=failure.kind)
    if cause:
        # what the fix put in, as the assistant explained it, when the cause left it out
        taken, put = edited_code(edits, whole=False)
        new_code = code_names(put) - code_names(taken)
        if not new_code & code_names(cause):
            meant = naming_sentence([e.text for e in t.assistant_texts
                                     if failed.line < e.line < passed.line], new_code)
            if meant and meant not in cause:
                cause = f"{cause} {meant}"
    steps = [_change(first_edit[f], t.cwd) for f in files[:3]]
    if len(files) > 3:
        steps.append(f"{len(files) - 3} more files")
    if ran:
        steps.append("ran " + ", ".join(f"`{r}`" for r in ran[:3]))
    if good != bad:
        steps.append(f"used `{good}` instead")
    fix = clip("; ".join(steps), 300)
    then = "then it passed" if good == bad else f"then `{good}` passed"
    text = f"{head}: {_sentence(err)}"
    if cause:
        text += f" Cause: {cause}"
    text += f" Fix: {fix}; {then}."
    lines = [failed.line, passed.line, *(c.line for c in edits),
             *(e.line for e in texts if cause)]
    return Candidate(
        "gotcha", _clip(text, MAX_GOTCHA), "gotcha", "debugging", 0.8 if cause else 0.75,
        "gotcha", _src(t, lines),
        extra={**meta, "cause": cause, "fix": fix, "files": files[:10], "passed": good})


def preferences(t: Transcript) -> list[Candidate]:
    """The conventions and decisions the user stated (every sentence of every message, several
    per message), and the decisions the assistant committed to, each as one candidate whose
    text is the rule itself. Chatter, questions, reports and one-off requests yield nothing.
    A correction right after a command ("no, use pnpm" after ``npm install``) also names the
    tool it rules out; a decision the assistant proposed and the user then approved ("go for
    it") is held as surely as the user's own."""
    out: list[Candidate] = []
    last_tool: str | None = None
    proposed: list[Candidate] = []  # the assistant's decisions since the user last spoke
    offered: list[tuple[Any, int]] = []  # and what it offered to do, with the line it is on
    heard: list[str] = []  # and everything it said
    for e in t.events:
        if isinstance(e, ToolCall):
            if e.name == "Bash" and e.command:
                last_tool = command_key(e.command)[0]
            continue
        speaker = "user" if isinstance(e, UserText) else "assistant"
        agreed = speaker == "user" and bool(_APPROVAL.search(e.text)) and not _DISSENT.search(
            e.text)
        if speaker == "user":
            if proposed and not agreed and _REJECTED.match(e.text):
                # "no no, please don't ever edit a migration that's already been applied":
                # what the assistant proposed right before is not the project's decision
                out = [c for c in out if all(c is not p for p in proposed)]
            if (proposed or offered) and agreed:
                out += [rule_candidate(rule, _src(t, [line]), "assistant")
                        for rule, line in offered]
                proposed += out[len(out) - len(offered):]
                for c in proposed:  # the user said yes to it: the project's decision now
                    c.confidence = APPROVED_CONFIDENCE
                    c.provenance["lines"] = [*c.provenance.get("lines", []), e.line]
                    c.extra["approved"] = _clip(" ".join(e.text.split()), 200)
            proposed, offered = [], []
        found = find_rules(e.text, speaker=speaker)  # type: ignore[arg-type]
        for rule in found:
            if speaker == "user" and last_tool and not rule.replaces:
                rule = _instead_of(rule, last_tool)
            out.append(rule_candidate(rule, _src(t, [e.line]), speaker))
            if speaker == "assistant" and rule.kind == "decision":
                proposed.append(out[-1])
            if agreed and _agreed_with(rule, e.text):
                _with_approach(out[-1], rule, heard)
        if speaker == "user":
            heard = []
        else:
            heard.append(e.text)
        if speaker == "assistant" and not found:
            offer = offered_decision(e.text)  # "Drop X and run Y: ...": kept if the user agrees
            if offer is not None:
                offered.append((offer, e.line))
    return out


MAX_APPROACH = 240


def _agreed_with(rule: Any, message: str) -> bool:
    """Whether the sentence of ``message`` that states ``rule`` is also the one saying yes
    ("do it, switch to keyset ..."), rather than another rule said after the yes."""
    head = " ".join(rule.said.split())[:40].lower()
    return any(head in " ".join(part.split()).lower() and _APPROVAL.search(part)
               for part in re.split(r"(?<=[.!?])\s+|\n+", message))


def _with_approach(cand: Candidate, rule: Any, heard: list[str]) -> None:
    """``cand``, a rule the user stated while agreeing to what the assistant just proposed ("do
    it, switch to keyset with a next_cursor"), with the assistant's sentence that says how
    (the one sharing most of the rule's words): the rule alone leaves out what was agreed."""
    terms = {w for w in rule.terms if len(w) >= 4}
    best, shared = None, 0
    for sentence in sentences(heard):
        words = set(re.findall(r"[\w.+-]+", sentence.lower()))
        n = len(terms & words)
        if n > shared and len(sentence) <= MAX_APPROACH:
            best, shared = sentence, n
    if best is not None and best.lower() not in cand.text.lower():
        cand.text = f"{cand.text}\n(the approach agreed: \"{best}\")"
        cand.extra["approach"] = best


# A user's yes to what the assistant proposed ("a minute of lag is fine, go for it", "ok,
# let's try it", "sounds reasonable, go with 30s"), unless it pushes back.
APPROVED_CONFIDENCE = 0.7
_APPROVAL = re.compile(
    r"\b(?:go for it|go ahead|do it|let'?s (?:do|try) (?:it|that|this)|let'?s go with|go with|"
    r"sounds (?:good|great|reasonable|fine|right)|makes sense|ship it|lgtm|agreed|perfect|"
    r"yes,? please|please do|that works|works for me|fine by me|ok(?:ay)?,? (?:do|try|go)|"
    r"good (?:idea|call|plan))\b", re.I)
# A user's message that opens by turning down what was just proposed.
_REJECTED = re.compile(r"^\s*(?:no+\b|nope\b|nah\b|please don'?t\b|don'?t\b|let'?s not\b|"
                       r"rather not\b|hold on\b|wait\b)", re.I)
_DISSENT = re.compile(r"\b(?:but (?:not|don'?t|instead)|instead|rather not|no,|don'?t do|"
                      r"hold off|not yet|wait)\b", re.I)


def _instead_of(rule: Any, last_tool: str) -> Any:
    """``rule`` saying it replaces ``last_tool`` when it prescribes a sibling of that tool and
    does not mention it ("no, use pnpm" right after ``npm test``)."""
    words = set(re.findall(r"[\w+-]+(?:\.[\w+-]+)*", rule.text.lower()))
    if last_tool in words:
        return rule
    siblings = family(last_tool) - {last_tool}
    named = sorted(words & siblings)
    if not named:
        return rule
    from dataclasses import replace

    return replace(rule, text=f"{rule.text.rstrip('.')}, not {last_tool}.", replaces=last_tool)


def rule_candidate(rule: Any, provenance: dict[str, Any], speaker: str) -> Candidate:
    """A candidate for one detected rule: a convention is a ``preference`` memory, a decision a
    ``decision`` one; a user's own words start surer than an assistant's."""
    convention = rule.kind == "convention"
    confidence = 0.8 if speaker == "user" else min(0.6, rule.confidence)
    tools = [w for w in re.findall(r"[\w+-]+(?:\.[\w+-]+)*", rule.text.lower())
             if w in _KNOWN_TOOLS]
    text = rule.text
    said = " ".join(rule.said.split())
    if speaker == "user" and said and said.lower().rstrip(".") != text.lower().rstrip("."):
        text = f"{text}\n(as the user put it: \"{_clip(said, 300)}\")"
    return Candidate(
        "preference" if convention else "decision", text,
        "preference" if convention else "decision",
        "preferences" if convention else "architecture", confidence,
        "pattern" if convention else "decision_made", provenance,
        extra={"rule": _rule_data(rule, speaker), "said": _clip(said, 300),
               "tool": tools[0] if tools else None, "avoid": rule.replaces})


def _rule_data(rule: Any, speaker: str) -> dict[str, Any]:
    """What a memory keeps of the rule it states (``metadata["rule"]``): enough to tell later
    whether another rule replaces it."""
    return {"kind": rule.kind, "text": rule.text, "said": rule.said, "subject": rule.subject,
            "terms": sorted(rule.terms), "change": rule.change, "replaces": rule.replaces,
            "speaker": speaker}


def _known_tools() -> frozenset[str]:
    return frozenset(t for members in TOOL_FAMILIES.values() for t in members if " " not in t)


_KNOWN_TOOLS = _known_tools()


def _words_of(text: str) -> list[str]:
    """``text`` as shell words, quotes and backticks taken off."""
    words = (re.sub(r"[`'\"]", "", w) for w in text.split())
    return [w for w in words if w]


def _dictated(part: str, said: list[list[str]]) -> bool:
    """Whether a user message gives the command ``part`` word for word (quotes, and flags
    that only change how much it prints, aside)."""
    words = [w for w in _words_of(part) if not _prints_only(w)]
    n = len(words)
    return n >= 2 and any(words == msg[i:i + n] for msg in said
                          for i in range(len(msg) - n + 1))


_ENV_LEAD = re.compile(r"^((?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|\"[^\"]*\"|\S+)\s+)+)(.+)$")
MAX_ENV_LEAD = 30


def _spelled(command: str) -> str:
    """A command as a memory shows it: in backticks, with long environment settings after the
    command itself (``go test -tags=integration ./internal/db/...`` with ``TEST_DATABASE_URL=
    ...`` set), so a line cut short for an index still says what runs."""
    lead = _ENV_LEAD.match(command)
    if lead is None or len(lead.group(1)) <= MAX_ENV_LEAD:
        return f"`{command}`"
    return f"`{lead.group(2)}` with `{lead.group(1).strip()}` set"


def patterns(t: Transcript, prefs: list[Candidate]) -> list[Candidate]:
    """The project's check commands (test, build, lint, typecheck, format) that worked, one per
    suite in its latest spelling, minus tools the user corrected away from. A run narrowed to
    one test or file (``-k``, ``-run``, ``::``, a path) is not the project's command, unless
    the user gave that very command ("the way to run them is: ... go test -tags=integration
    ./internal/db/..."); a command the user gave is spelled as they gave it."""
    preferred = {p.extra["tool"] for p in prefs if p.extra.get("tool")}
    ruled_out = {tool for pref in preferred for tool in family(pref) if tool != pref}
    ruled_out |= {p.extra["avoid"] for p in prefs if p.extra.get("avoid")}
    said = [_words_of(u.text) for u in t.user_texts]
    seen: dict[str, tuple[str, list[tuple[ToolCall, str]]]] = {}
    for c in t.calls:
        if c.name != "Bash" or not c.ok or not c.command:
            continue
        # each check of a passing chain ("go test ./... && go vet ./...") under its own kind,
        # spelled as that part of the line (the chain's last part is not the test command)
        for part in _segments(c.command):
            check = check_of(part)
            key = command_key(part)
            if check is None or key[0] in ruled_out or (
                    _NARROWED.search(part) and not _dictated(part, said)):
                continue
            kind, runs = seen.get(check.suite, (check.kind, []))
            seen[check.suite] = (kind, [*runs, (c, part)])
    out = []
    for kind, runs in seen.values():
        given = [part for _, part in runs if _dictated(part, said)]
        cmd = min(given, key=len) if given else runs[-1][1]
        out.append(Candidate(
            "pattern", _clip(f"Project {kind} command: {_spelled(cmd)} (worked in a session)"),
            "pattern", "project-patterns", min(0.8, 0.6 + 0.1 * (len(runs) - 1)), "pattern",
            _src(t, [c.line for c, _ in runs]), extra={"command": cmd, "plain": plain_check(cmd)}))
    return out


# Check commands in the plain form their ecosystem documents: what any agent runs unprompted in
# a Go, Rust, JavaScript or Python project. Remembering one tells the agent nothing; a wrapper
# (make, tox, uv run, npx), another runner (nextest), an environment or arguments do.
_PLAIN_CHECKS = frozenset({
    "go test ./...", "go build ./...", "go vet ./...", "go test .", "go build .", "go vet .",
    "go fmt ./...", "gofmt -l .", "gofmt -w .", "gofmt -l -w .",
    "cargo test", "cargo build", "cargo check", "cargo fmt", "cargo clippy",
    "cargo fmt --check", "cargo fmt -- --check", "cargo fmt --all", "cargo test --all",
    "npm test", "npm run test", "pnpm test", "pnpm run test", "yarn test", "yarn run test",
    "bun test", "npm run build", "pnpm build", "pnpm run build", "yarn build", "npm run lint",
    "pnpm lint", "pnpm run lint", "yarn lint", "tsc --noEmit", "npx tsc --noEmit",
    "pytest", "python -m pytest", "python3 -m pytest", "ruff check", "ruff check .",
    "ruff check src", "ruff check src tests", "ruff format", "ruff format .", "mypy .",
    "mypy src", "golangci-lint run", "golangci-lint run ./...", "eslint .", "npx eslint .",
    "npm run typecheck", "pnpm typecheck", "pnpm run typecheck", "yarn typecheck",
    "npm run format", "pnpm format", "pnpm run format", "yarn format", "npx tsc",
    "npx jest", "npx vitest", "npx vitest run", "npx playwright test", "cargo build --release",
    "npx prettier --check .", "npx prettier --write .",
})
# Flags that change how much a check prints or whether it reuses cached results, not what it
# checks.
_QUIET_FLAGS = frozenset({"-q", "-qq", "-v", "-vv", "-x", "--quiet", "--verbose", "-count=1",
                          "--tb=short", "--tb=line", "--tb=no", "--no-header"})


def _prints_only(flag: str) -> bool:
    """Whether ``flag`` only changes how much a check prints or whether it reuses cached
    results (``-q``, ``-count=3``), not what it checks."""
    return flag in _QUIET_FLAGS or re.fullmatch(r"-count=\d+", flag) is not None


def plain_check(command: str) -> bool:
    """Whether ``command`` is a check in its ecosystem's plain form (``go test ./...``,
    ``npm test``, ``python -m pytest -q``): nothing a later session needs to be told."""
    try:
        toks = shlex.split(command)
    except ValueError:
        return False
    return " ".join(t for t in toks if t not in _QUIET_FLAGS) in _PLAIN_CHECKS


def _segments(command: str) -> list[str]:
    """The commands of a shell line, each before any pipe and without a ``time`` that only
    measures it (``cd x && time npm test | tee log`` -> ``cd x``, ``npm test``)."""
    return [re.sub(r"^time\s+", "", p.split("|")[0].strip())
            for p in re.split(r"&&|\|\||;|\n", command) if p.split("|")[0].strip()]


# Arguments that narrow a check to one test, file or package.
_NARROWED = re.compile(r"(?:^|\s)(?:-k|-run|--run|-t|--testNamePattern|--grep|--filter|-p)\s|"
                       r"::|\s\S+\.(?:py|go|rs|ts|tsx|js|jsx|mjs|java|kt|rb)\b|"
                       r"\s(?:\./)?(?:tests?|src|internal|pkg|cmd|crates)/")


# A commit that takes a dependency or tool out: "drop go-retryablehttp; ...", "Remove lodash,
# use native methods", "deps: rip out moment". The dropped thing is one token that looks like a
# package (a dash, dot, slash or @ in it, or a known tool's name) ending the clause.
_DROPS = re.compile(
    r"^(?:[\w./-]+(?:\([\w./-]+\))?!?:\s*)?(?:drop|remove|rip out|get rid of)\s+"
    r"`?(?P<old>@?[\w]+(?:[-./@][\w]+)+|[a-z][\w]*)`?(?:\s+(?:dependency|library|package|crate|"
    r"module))?(?=\s*(?:[;,:(]|$|\s+(?:and|in favou?r|for|from)\b))", re.I)


# Files that only document the project: a change to them alone fixes no code.
_DOCS_FILE = re.compile(r"(?:^|/)(?:docs?/|README|CHANGELOG|CHANGES|LICENSE|AUTHORS|"
                        r"CONTRIBUTING)|\.(?:md|mdx|rst|adoc)$", re.I)


def from_commits(commits: list[Commit], repo: str) -> list[Candidate]:
    """Decisions and fixes stated in commit messages; files that keep changing together."""
    out: list[Candidate] = []
    for c in commits:
        prov = {"via": "git", "repo": repo, "commit": c.sha[:12]}
        message = c.subject + ("\n" + c.body.split("\n\n")[0] if c.body else "")
        dropped = _DROPS.match(c.subject)
        gone = dropped.group("old") if dropped else ""
        if gone and not _DECISION.search(message) and (
                not gone.isalnum() or gone.lower() in _KNOWN_TOOLS):
            # "client: drop go-retryablehttp; retry GETs only": the decisions that chose it
            # end here (``ExtractionService.supersede_dropped``)
            out.append(Candidate("decision", _clip(message.replace("\n", " — ", 1)),
                                 "decision", "architecture", 0.7, "historical_context", prov,
                                 extra={"drops": gone}))
            continue
        if _DECISION.search(message):
            # a commit that replaces something ("Replace structlog with stdlib logging") carries
            # its rule, so the conventions and decisions it changes are superseded
            change = next((r for r in find_rules(c.subject) if r.replaces), None)
            extra = {} if change is None else {"rule": _rule_data(change, "git")}
            out.append(Candidate("decision", _clip(message.replace("\n", " — ", 1)), "decision",
                                 "architecture", 0.7, "historical_context", prov, extra=extra))
        elif _FIX.match(c.subject) and (c.body or len(c.subject) > 30) and not (
                c.files and all(_DOCS_FILE.search(f) for f in c.files)):
            # a fix to the docs alone (a README badge) teaches nothing about the code
            what = _FIX.sub("", c.subject)
            why = f" — {c.body.splitlines()[0]}" if c.body else ""
            # where the fix lives: the subject says what changed, rarely in which file
            where = f" (in {', '.join(f'`{f}`' for f in c.files[:3])}" \
                + (f" and {len(c.files) - 3} more" if len(c.files) > 3 else "") + ")" \
                if c.files else ""
            out.append(Candidate("fix", _clip(f"Fixed: {what}{where}{why}"), "insight",
                                 "debugging", 0.55, "task_outcome", prov,
                                 extra={"files": c.files[:10]}))
    pairs: Counter[tuple[str, str]] = Counter()
    for c in commits:
        if 2 <= len(c.files) <= 12:
            pairs.update(combinations(sorted(set(c.files)), 2))
    for (a, b), n in pairs.most_common(5):
        if n >= 2:
            out.append(Candidate("co_edit", f"`{a}` and `{b}` usually change together "
                                 f"({n} commits)", "insight", "project-patterns",
                                 min(0.75, 0.5 + 0.05 * n), "codebase_discovery",
                                 {"via": "git", "repo": repo}, extra={"files": [a, b]}))
    return out


def from_transcript(t: Transcript) -> list[Candidate]:
    """Every rule's candidates from one transcript. A rule that breaks on some transcript is
    logged (``kenning doctor`` shows it) and yields nothing, so the others' findings of that
    session are not lost with it."""
    prefs = _guarded(preferences, t)

    def project_commands(tr: Transcript) -> list[Candidate]:
        return patterns(tr, prefs)

    return [*_guarded(failed_then_passed, t), *_guarded(did_nothing, t), *prefs,
            *_guarded(project_commands, t), *_guarded(code_places, t),
            *_guarded(told_places, t), *_guarded(stated_constraints, t)]


def _guarded(rule: Callable[[Transcript], list[Candidate]], t: Transcript) -> list[Candidate]:
    try:
        return rule(t)
    except Exception as exc:  # one rule's bug must not lose the session's other findings
        from kenning.errorlog import log_error

        log_error(f"extract: {getattr(rule, '__name__', 'rule')}", exc)
        return []


# A run that succeeded without doing what was wanted: no migration applied, no test run.
_NOOP = re.compile(r"\bno (?:migrations? to (?:run|apply)|pending migrations|tests? (?:ran|found|"
                   r"to run))\b|\bnothing to (?:migrate|be done for)\b|\bcollected 0 items\b|"
                   r"(?:^|\s)0 tests? (?:ran|run|passed)\b", re.I)


def did_nothing(t: Transcript) -> list[Candidate]:
    """A command that ran clean but did nothing after the session changed something ("goose:
    no migrations to run" after editing an applied migration), with the cause the assistant
    gave and what it chose to do instead: a gotcha no failing command shows. At most one a
    session, and only with a cause said."""
    edited = False
    calls = list(t.calls)
    for i, call in enumerate(calls):
        if call.name in _EDIT_TOOLS and call.ok:
            edited = True
            continue
        if call.name != "Bash" or not call.ok or not call.command or not edited:
            continue
        noop = _NOOP.search(call.output or "")
        if noop is None:
            continue
        until = next((c.line for c in calls[i + 1:] if c.name != "Read"), None)
        texts = [e for e in t.assistant_texts
                 if e.line > call.line and (until is None or e.line < until)]
        said = [e.text for e in texts]
        cause = explanation(said)
        if cause is None:
            continue
        line = next((unstamped(ln.strip()) for ln in (call.output or "").splitlines()
                     if noop.group().strip() in ln), noop.group().strip())
        plan = next((p.group("plan") for p in map(_PLAN.match, sentences(said)) if p), None)
        command = main_segment(call.command)
        text = f"`{command}` ran but did nothing ({clip(line, 120)}). Cause: {cause}"
        if plan:
            text += f" Fix: {plan[:1].upper()}{plan[1:]}"
        return [Candidate("gotcha", _clip(text, MAX_GOTCHA), "gotcha", "debugging", 0.7,
                          "gotcha", _src(t, [call.line, *(e.line for e in texts)]),
                          extra={"command": command, "cause": cause, "fix": plan})]
    return []


# What the assistant found must (not) be done, said as a rule about the code or a tool ("Task
# arguments have to be plain data", "Careful: Prisma can't tell a rename from a drop"), not a
# plan of its own ("I have to check the logs") or an instruction to the user.
# A constraint that opens by saying what it is ("The catch is ...", "The robust fix is to ..."):
# it says its own why, the sentence before it is about something else.
_OPENER = (r"(?:careful:|the catch is\b|the gotcha\b|gotcha:|watch out\b|the (?:robust |real |"
           r"proper |right |only |safe )?fix is to\b)")
_SAYS_ITSELF = re.compile(_OPENER, re.I)
_CONSTRAINT = re.compile(
    r"^" + _OPENER + r"|"
    r"^(?:so,?\s+)?(?!(?:i|we|you|let|let's|i'll|we'll|i'd|it|this|that|so|then|now|here|"
    r"there)\b)"
    r"[\w`'.+/:#\[\]-]+(?:\s+[\w`'.+/:()#\[\];-]+){0,10}?\s+(?:must(?: not)?|has to|have to|"
    r"needs? to|needs?\s+(?=`|[A-Z]{3,}\b)|can(?:'t|not)|never|only (?:exists|works|runs)\b)"
    r"\s*\S|^it (?:has to|must) be\s+(?=.{0,40}[`.:/=])", re.I)
_CODE_TOKEN = re.compile(r"`[^`]+`|\w+\(\)|\b\w+[._:/]\w+|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|"
                         r"\b[a-z][\w+.-]*://")
MAX_CONSTRAINTS = 3  # per session
WHY_FIRST_MAX = 120  # characters of why that may come before the constraint it explains
# A constraint that goes on from the sentence before it ("And a pipe can't be mapped at all"):
# that sentence is the main one, and leads however long it is.
_GOES_ON = re.compile(r"(?:and|but|also|plus|so|which)\b", re.I)
# An acknowledgement opening a sentence ("Reproduced, and yes, it's the mmap."): not the why.
_ACK = re.compile(r"^(?:(?:reproduced|confirmed|found it|yes|yep|yeah|right|ok|okay|sure|"
                  r"indeed|good catch|got it|green|all green|done|fixed)\b[\s,.!:;—-]*"
                  r"(?:and\s+)?)+", re.I)


# "I'll build the promise by hand and pin tsconfig's lib to ES2022": what the assistant will do.
_PLAN = re.compile(r"^(?:so\s+)?(?:i'?ll|i will|i'?m going to)\s+(?P<plan>(?!check|look|see|try|"
                   r"ask|let|run|verify|confirm|test)\w+\b.{10,300})$", re.I)


def _plan_after(parts: list[str], last: str) -> str | None:
    """The plan the assistant states after a constraint in the same message ("I'll build the
    promise by hand and pin tsconfig's lib to ES2022"), when it names something of the code:
    the fix it chose. None when it says none, or only that it will look further."""
    for sentence in parts[parts.index(last) + 1:] if last in parts else ():
        plan = _PLAN.match(sentence.strip())
        if plan and (_CODE_TOKEN.search(plan.group("plan"))
                     or names_something_technical(plan.group("plan"))):
            text = plan.group("plan")
            return text[:1].upper() + text[1:]
    return None


def stated_constraints(t: Transcript) -> list[Candidate]:
    """The constraints the assistant stated while working (a sentence with must / has to /
    can't about something technical, or one opened by "Careful:" / "The catch is"), with the
    sentence before it when that says why: gotchas that no failing-then-passing command shows.
    At most ``MAX_CONSTRAINTS`` a session."""
    out: list[Candidate] = []
    for said in t.assistant_texts:
        parts = sentences([said.text])
        last = -2  # the sentence the latest constraint of this message ends with
        said_here: list[tuple[str, list[str]]] = []  # (why, its sentences) per constraint
        for i, sentence in enumerate(parts):
            if (not _CONSTRAINT.search(sentence) or not _CODE_TOKEN.search(sentence)
                    or sentence.rstrip().endswith("?") or len(sentence) > 400):
                continue
            if last == i - 1 and said_here:
                # "The catch is the URL scheme: ... The URL has to say postgresql+psycopg://":
                # one constraint said in two sentences in a row is one gotcha
                said_here[-1][1].append(sentence)
                last = i
                continue
            last = i
            before = _ACK.sub("", parts[i - 1]) if i else ""
            before = before[:1].upper() + before[1:]
            why = before if before and not re.match(
                r"(?:i|we|let|ok|okay|sure|found it|right)\b", before, re.I) and not (
                _SAYS_ITSELF.match(sentence)) else ""
            said_here.append((why, [sentence]))
        for why, stated in said_here:
            body = " ".join(stated)
            # the why leads when it is short; a long one would push the constraint itself past
            # where a summary or an index line is cut, so it follows
            text = (f"{why} {body}".strip() if len(why) <= WHY_FIRST_MAX or _GOES_ON.match(body)
                    else f"{_sentence(body)} Why: {why}")
            fix = next((r.text for r in find_rules(said.text, speaker="assistant")
                        if r.kind == "decision" and r.text not in text), None) or _plan_after(
                parts, stated[-1])
            if fix:  # what the assistant chose to do about it, said in the same breath
                text = f"{_sentence(text)} Fix: {fix}"
            out.append(Candidate(
                "constraint", _clip(text, MAX_GOTCHA if fix or len(stated) > 1 else MAX_TEXT),
                "gotcha", "debugging", 0.6, "gotcha", _src(t, [said.line])))
            if len(out) == MAX_CONSTRAINTS:
                return out
    return out


# Source file extensions a place can name.
_SOURCE_EXT = "py|pyi|ts|tsx|js|jsx|mjs|go|rs|rb|java|kt|swift|c|h|cpp|cs|php|ex|exs"
# "All Celery tasks live in src/orderdesk/worker.py", "Routes are wired in internal/api/
# router.go": where something lives in the code, said as a fact (not "I'll add it in ...").
_PLACE = re.compile(
    r"(?P<what>\b[\w`'().,/ -]{3,80}?)\s+(?:(?:lives?|are|is|sit|sits)\s+(?:already\s+|all\s+|"
    r"currently\s+|still\s+|now\s+)*"
    r"(?:(?:wired|defined|registered|kept|configured|declared|implemented|built|set up|handled)"
    r"\s+)?in|(?:now\s+|all\s+|already\s+)*(?:goes|go|run|runs|pass|passes)\s+through|"
    r"(?:comes?|are read|is read)\s+from\s+(?:the\s+)?[\w`-]+(?:\s+[\w`-]+)?\s+in)"
    r"\s+(?:`?[A-Z][A-Z0-9_]{2,}`?\s+in\s+)?`?(?P<path>[\w./-]+/[\w.-]+\.(?:" + _SOURCE_EXT
    + r"|toml|ya?ml))`?")
# "src/index.ts is the package's public surface", "tsup.config.ts builds src/index.ts as cjs
# and esm": a file named first, then what it is or does.
_PATH_FIRST = re.compile(
    r"(?:^|:\s+)`?(?P<path>(?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\.(?:" + _SOURCE_EXT
    + r"|toml|ya?ml))`?\s+(?:is the|are the|holds|defines|builds|re-exports|exports|owns|"
    r"declares|configures|wires|sets up|is where|sets|patches|registers|overrides|creates|"
    r"loads|mocks|runs)\b")
# "`filter::apply` in src/filter.rs compares ...", "The models in src/tidepool/schema.py (...)
# are v1-style": a thing named with its file, then what it does.
_NAMED_PLACE = re.compile(
    r"^(?:the\s+)?(?P<what>(?:[\w:-]+\s+){0,2}`[^`]{2,60}`(?:\s+[\w:]+)?|[\w:]+(?:\s+[\w:]+)?)"
    r"\s+in\s+`?(?P<path>[\w./-]+/"
    r"[\w.-]+\.(?:" + _SOURCE_EXT + r"))`?"
    r"\s+(?:\([^)]*\)\s+)?(?:is|are|has|have|keeps?|compares|calls|builds|reads|writes|"
    r"returns|handles|uses|holds|parses|wires)\b", re.I)
_NOT_A_FACT = re.compile(r"\b(?:I'?ll|I will|I'?m going to|let me|we'?ll|we could|should|"
                         r"would|might|could|if|when|once|after|before|maybe|probably|"
                         r"instead|bug|problem|issue|error|failure|typo|mistake|regression|"
                         r"crash|broken|fails?|complaint|warning)\b", re.I)
MAX_PLACES = 3  # per session: the places an assistant named first are the ones it looked up


def code_places(t: Transcript) -> list[Candidate]:
    """Where things live in the code, as the assistant stated it after reading (a sentence
    naming a source file in the present tense, not a plan): the fact a later session would
    otherwise look up again. One per file, at most ``MAX_PLACES`` a session."""
    out: list[Candidate] = []
    files: set[str] = set()
    for said in t.assistant_texts:
        for sentence in sentences([said.text]):
            found = (_PLACE.search(sentence) or _NAMED_PLACE.search(sentence)
                     or _PATH_FIRST.search(sentence))
            if (found is None or len(sentence) > 400 or _NOT_A_FACT.search(
                    sentence[: found.end()]) or found.group("path") in files):
                continue
            files.add(found.group("path"))
            out.append(Candidate(
                "fact", _clip(sentence), "discovery", "project-patterns", 0.6,
                "codebase_discovery", _src(t, [said.line]), extra={"path": found.group("path")}))
            if len(out) == MAX_PLACES:
                return out
    return out


# "those live in tests/integration and run with pnpm test:int against the crewboard_test db":
# where something lives, as the user tells it (a directory or a file), in the present tense.
_TOLD_PLACE = re.compile(
    r"^(?:(?:and|oh and|btw|fyi)[,:]?\s+)?(?:those|these|they|it|the\s+[\w-]+(?:\s+[\w-]+)?|"
    r"our\s+[\w-]+(?:\s+[\w-]+)?|[\w-]+s)\s+(?:all\s+)?(?:live|lives|sit|sits|are kept|is kept|"
    r"are|is)\s+in\s+`?(?P<path>(?:[\w.-]+/)+[\w.-]*)`?(?=[\s,.;)]|$)", re.I)
MAX_TOLD_PLACES = 2  # per session
_TOLD_PRONOUN = re.compile(r"^(?:(?:and|oh and|btw|fyi)[,:]?\s+)?(?:it|they|those|these)\b", re.I)


def told_places(t: Transcript) -> list[Candidate]:
    """Where things live in the project, as the user said it in passing ("those live in
    tests/integration and run with pnpm test:int"): a codebase discovery in their words."""
    out: list[Candidate] = []
    for said in t.user_texts:
        # chat is often lower case: split at every full stop, question or exclamation mark
        parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+|\n+", said.text) if p.strip()]
        for i, sentence in enumerate(parts):
            found = _TOLD_PLACE.match(sentence)
            if (found is None or sentence.endswith("?") or len(sentence) > 300
                    or _NOT_A_FACT.search(sentence[: found.end()])):
                continue
            before = parts[i - 1] if i else ""
            if (_TOLD_PRONOUN.match(sentence) and before.endswith(".")
                    and names_something_technical(before) and len(before) <= 200):
                # "it lives in cmd/reporter" says what "it" is only with the sentence before
                sentence = f"{before[:-1]}; {sentence}"
            text = sentence[:1].upper() + sentence[1:]
            out.append(Candidate("fact", _clip(text), "discovery", "project-patterns", 0.6,
                                 "codebase_discovery", _src(t, [said.line]),
                                 extra={"path": found.group("path")}))
            if len(out) == MAX_TOLD_PLACES:
                return out
    return out


# What makes a sentence of a user's message about the work rather than chatter around it: a
# request or a problem ("can you", "let's", "is broken") when it names nothing technical.
_ASKS = re.compile(
    r"\b(?:can you|could you|would you|will you|please|pls|let'?s|needs? (?:a|an|to|the)|"
    r"we need|i need|we want|"
    r"i want|i'?d like|need to|needs to|should|must|have to|has to|todo|to-do|task|bug|"
    r"broken|breaks?|fails?|failing|failed|crash(?:es|ed)?|wrong|fix|add|implement|"
    r"feature|ticket|issue|review|refactor|rename|remove|delete|update|upgrade|migrate|"
    r"deploy|release|investigate|debug|look into|look at|help)\b", re.I)


def _about_work(sentence: str) -> bool:
    return bool(_ASKS.search(sentence)) or names_something_technical(sentence)


def stated_work(message: str) -> str | None:
    """The work ``message`` states: from its first sentence that asks for something or names
    something technical, without greetings, small talk before it ("hope your weekend was
    better than mine, ...") or pleasantries after it; a bare ask ("... can you dig in?") takes
    the sentences before it along, since they say what it is about. None when it states no
    work at all ("hi", "thanks, looks great!", "slow day, mostly meetings")."""
    text = message.strip()
    while True:
        m = _GREETING.match(text)
        if not m or not m.group(0):
            break
        text = text[m.end():]
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]
    first = next((i for i, s in enumerate(sentences) if _about_work(s)), None)
    if first is None:
        return None
    if first and len(sentences[first].split()) <= 6 \
            and not names_something_technical(sentences[first]):
        first = 0  # "can you dig in?" asks about what the message said before it
    work = [s for s in sentences[first:] if not _PLEASANTRY.match(s) and re.search(r"\w", s)
            and not _GREETING.fullmatch(s)]
    return " ".join(" ".join(work).split()) or None


def session_summary(t: Transcript, cands: list[Candidate]) -> dict[str, Any] | None:
    """A session_insight (the dict ``Kenning.save_insight`` takes) built from a transcript's
    candidates, so ``kenning insights`` shows what a session learned with nobody writing it
    down. None when it learned nothing: no candidates, or only the project's checks run again
    ("can you check git status?" and a `make test`), or nothing the note lists (no fix,
    failure, pattern or rule): a note of the task alone repeats the user's kept words."""
    mine = [c for c in cands if c.provenance.get("via") == "transcript"]
    if all(c.kind == "pattern" and c.extra.get("command") for c in mine):
        return None  # a session that only ran the project's checks again learned nothing new
    by: dict[str, list[str]] = {}
    for c in mine:
        by.setdefault(c.kind, []).append(c.text)
    if not any(by.get(kind) for kind in ("pattern", "gotcha", "preference", "decision")):
        return None
    # each finding once: a gotcha's text holds its failure, so it is not listed again as what
    # failed; what worked names the command that passed after the fix, which the gotcha's
    # text names only by its kind ("Tests failed")
    fixes = [f"`{c.extra['passed']}` passed after: {c.extra['fix']}" for c in mine
             if c.kind == "gotcha" and c.extra.get("fix") and c.extra.get("passed")
             and f"`{c.extra['passed']}`" not in c.text]
    task = next((w for w in map(stated_work, (u.text for u in t.user_texts)) if w), None)
    return {
        "session": t.session_id,
        "task": _clip(task, 200) if task else None,
        "what_worked": fixes,
        "gotchas_encountered": by.get("gotcha", []),
        "patterns_found": by.get("pattern", []),
        "recommendations": by.get("preference", []) + by.get("decision", []),
    }


def edited_code(calls: list[ToolCall], *, whole: bool = True) -> tuple[str, str]:
    """What the edits and writes among ``calls`` took out of the code, and what they put in:
    the lines of each edit's old text that its new text no longer has, and its new text
    (``whole``) or only the lines it added; each joined."""
    removed: list[str] = []
    added: list[str] = []
    for call in calls:
        if call.name == "Write" and isinstance(call.input.get("content"), str):
            added.append(call.input["content"])
            continue
        if call.name not in ("Edit", "MultiEdit"):
            continue
        changes = call.input.get("edits") if call.name == "MultiEdit" else [call.input]
        for ch in changes if isinstance(changes, list) else []:
            if not isinstance(ch, dict):
                continue
            old, new = str(ch.get("old_string") or ""), str(ch.get("new_string") or "")
            kept, was = set(new.splitlines()), set(old.splitlines())
            removed += [ln for ln in old.splitlines() if ln.strip() and ln not in kept]
            added += [new] if whole else [ln for ln in new.splitlines() if ln not in was]
    return "\n".join(removed), "\n".join(added)


def code_taken_out(t: Transcript) -> tuple[str, str]:
    """What the session's edits took out of the code, and everything they put in
    (``edited_code``), with quotes made double (``engine='pyarrow'`` and ``engine="pyarrow"``
    are one spelling)."""
    removed, added = edited_code(t.calls)
    return removed.replace("'", '"'), added.replace("'", '"')


# The code a memory names: a span in backticks, a keyword argument or setting with its value
# (engine='pyarrow'), or an identifier that is clearly code (task_always_eager, pd.read_csv).
_CODE_NAMED = re.compile(r"`([^`\n]{4,60})`|(?<![\w.])([a-z_]\w*\s?=\s?(?:'[^'\n]{1,40}'|"
                         r"\"[^\"\n]{1,40}\"))|(?<![\w.-])([a-z]\w*(?:_\w+|\.[a-z_]\w*)+)", re.I)


def named_code(text: str) -> list[str]:
    """The pieces of code ``text`` names (quotes made double), at least six characters each."""
    out = [(a or b or c).replace("'", '"') for a, b, c in _CODE_NAMED.findall(text)]
    return list(dict.fromkeys(n for n in out if len(n) >= 6))
