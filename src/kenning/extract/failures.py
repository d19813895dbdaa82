"""What a failed check's output says and what the assistant said about it, by pure rules.

``read_failure`` finds the line of a failed command's output that names the failure (never a
test runner's banner or progress line), knowing the formats of pytest, jest, Go, Rust, tsc,
mypy, ruff and eslint, then Python exceptions and any error-looking line. It also gives the
failure a ``signature``: runner, error type and test or symbol, with numbers, paths and ids
removed, so the same failure met in two sessions is recognised as one.

``explanation`` picks, from what the assistant wrote between a failure and its fix, the first
sentence or two that say why it failed (not "Let me look at ..."), which is the part of a
gotcha worth reading next time."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_ERROR = 200
MAX_CAUSE = 240

# Lines that carry no information about the failure: rules, section banners, session
# headers, progress and summary counts, echoed scripts, exit codes.
_NOISE = re.compile(
    r"^[\s=_\-*#~.+]*$"
    r"|^[=_\-*]{3,}.*[=_\-*]{3,}$"
    r"|test session starts|^(FAILURES|ERRORS|warnings summary)$|short test summary info"
    r"|^(platform|rootdir|cachedir|configfile|plugins|collected|collecting|testpaths|"
    r"hypothesis profile)\b"
    r"|^\S*\s*[.FEsxX]+\s*\[\s*\d+%\]$"
    r"|^(error: )?exit code \d+$"
    r"|^> "
    r"|^npm (ERR!|error) (code|errno|path|command|A complete log|Lifecycle script)"
    r"|^error Command failed with exit code"
    r"|^error: (could not compile|aborting due to|test failed, to rerun|recipe)"
    r"|^(Tests|Test Suites|Snapshots|Time):\s|^Ran all test suites"
    r"|^\d+ (failed|passed|errors?|error)\b"
    r"|^(FAIL|ok)\s+\S+\s+[\d.]+s$|^FAIL$|^exit status \d+$",
    re.I,
)
_PYTEST_SUMMARY = re.compile(r"^(FAILED|ERROR) (\S+?)(?: - (.+))?$")
_PYTEST_E = re.compile(r"^E\s+(\S.*)$")
_PYTEST_HEADER = re.compile(r"^_{3,} (\S.*?) _{3,}$")
_EXC = re.compile(r"^((?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|"
                  r"Warning|Failure)))(?::\s*(.*))?$")
_JEST = re.compile(r"^● (?!Console\b)(.+)$")
_GO_FAIL = re.compile(r"^--- FAIL: (\S+)")
_GO_LINE = re.compile(r"^(\S+\.go):\d+(?::\d+)?: (.+)$")
_RUST = re.compile(r"^error(?:\[(E\d{4})\])?: (.+)$")
_RUST_AT = re.compile(r"^--> (\S+)")
_RUST_PANIC = re.compile(r"^thread '([^']+)' panicked at (.+)$")
_TSC = re.compile(r"\berror (TS\d+): (.+)$")
_MYPY = re.compile(r"^\S+\.pyi?:\d+(?::\d+)?: error: (.+?)(?:\s+\[([\w-]+)\])?$")
_RUFF = re.compile(r"^\S+:\d+:\d+: ([A-Z]{1,4}\d{2,4}) (?:\[\*\] )?(.+)$")
_ESLINT = re.compile(r"^\d+:\d+\s+error\s+(.+?)\s{2,}(\S+)$")
_ERRORISH = re.compile(r"error|ERR!|FAIL|failed|exception|traceback|cannot|not found|"
                       r"no such|denied|undefined|expected|assert", re.I)


@dataclass(frozen=True)
class Failure:
    """The telling line of a failed command's output and the key that identifies it."""

    line: str  # the meaningful error text, as shown in a gotcha
    runner: str  # pytest, jest, go, rust, tsc, mypy, ruff, eslint, or the command's tool
    kind: str  # the error type: an exception class, an error code, FAIL, panic ...
    name: str  # the failing test or the symbol / message it is about

    @property
    def signature(self) -> str:
        """runner|kind|name with numbers, paths and ids removed: equal for the same failure
        met again, whatever the line numbers, temp paths or timings of that run."""
        return "|".join((self.runner.lower(), self.kind, normalise(self.name)))


def clip(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_PATH = re.compile(r"(?:[A-Za-z]:)?[\w.~@+-]*[/\\][\w.~@+/\\-]*")
_FILE = re.compile(r"\b[\w-]+\.(?:py|pyi|js|jsx|ts|tsx|mjs|cjs|go|rs|rb|java|kt|c|cc|cpp|h|"
                   r"hpp|cs|php|swift|json|toml|yaml|yml)\b")
_IDS = re.compile(r"\b0x[0-9a-f]+\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
                  r"[0-9a-f]{12}\b|\b[0-9a-f]{10,}\b", re.I)


def normalise(text: str) -> str:
    """``text`` without paths, file names, hex ids, numbers and parametrisation brackets,
    whitespace collapsed, cut to 120 characters."""
    text = re.sub(r"\[[^\]]*\]$", "", text.strip())
    text = _PATH.sub("", text)
    text = _FILE.sub("", text)
    text = _IDS.sub("", text)
    text = re.sub(r"\d+", "", text)
    text = re.sub(r"\(\s*[,\s]*\)", "", text)
    return " ".join(text.split()).strip(" :-,.;")[:120]


def _error_type(message: str) -> str:
    """The exception class a message starts with; ``assert ...`` is an AssertionError."""
    m = _EXC.match(message.strip())
    if m:
        return m.group(2)
    return "AssertionError" if message.lstrip().startswith("assert ") else "failed"


def _detail(message: str) -> str:
    """A message without the exception class it starts with."""
    m = _EXC.match(message.strip())
    return m.group(3) or message if m else message


def _test_name(node: str) -> str:
    """A pytest node id without its file: ``tests/a.py::TestX::test_y[1]`` -> TestX::test_y."""
    name = node.split("::", 1)[1] if "::" in node else node
    return re.sub(r"\[.*\]$", "", name)


def _pytest(lines: list[str]) -> Failure | None:
    """The short summary's first ``FAILED node - message`` line, else the first ``E`` line
    under its test's ``____ test_x ____`` header (``lines`` still hold the banners)."""
    summary = [m for m in map(_PYTEST_SUMMARY.match, lines)
               if m and (m.group(3) or "::" in m.group(2) or m.group(2).endswith(".py"))]
    if summary:
        first = summary[0]
        message = first.group(3) or ""
        more = f" (+{len(summary) - 1} more)" if len(summary) > 1 else ""
        node = first.group(2)  # a collection error names a file: its message says more
        # "FAILED" only repeats what the gotcha's head says; "ERROR" (a test that could not
        # even be collected or set up) tells more
        line = first.group(0).removeprefix("FAILED ")
        return Failure(clip(line, MAX_ERROR - len(more)) + more, "pytest",
                       _error_type(message) if message else first.group(1).lower(),
                       _test_name(node) if "::" in node or not message else _detail(message))
    for i, line in enumerate(lines):
        m = _PYTEST_E.match(line)
        if not m:
            continue
        message = m.group(1)
        name = next((h.group(1) for h in map(_PYTEST_HEADER.match, reversed(lines[:i])) if h),
                    "")
        return Failure(clip(f"{name}: {message}" if name else message, MAX_ERROR), "pytest",
                       _error_type(message), name or _detail(message))
    return None


def _jest(lines: list[str]) -> Failure | None:
    for i, line in enumerate(lines):
        m = _JEST.match(line)
        if not m:
            continue
        test = m.group(1).strip()
        block: list[str] = []
        for follow in lines[i + 1 :]:
            if _JEST.match(follow) or follow.startswith("at "):
                break
            block.append(follow)
        detail = [b for b in block if re.match(r"(Expected|Received)\b", b)][:2]
        if not detail:
            detail = [b for b in block if _EXC.match(b) or _ERRORISH.search(b)][:1]
        if not detail:
            detail = block[:1]
        kind = next((_error_type(b) for b in detail if _EXC.match(b)), "failed")
        text = f"● {test}" + (": " + "; ".join(detail) if detail else "")
        return Failure(clip(text, MAX_ERROR), "jest", kind, test)
    return None


def _go(lines: list[str]) -> Failure | None:
    for i, line in enumerate(lines):
        m = _GO_FAIL.match(line)
        if not m:
            continue
        detail = next((f for f in lines[i + 1 : i + 8] if _GO_LINE.match(f)), None)
        text = m.group(1) + (f": {detail}" if detail else "")  # "--- FAIL:" says "failed"
        return Failure(clip(text, MAX_ERROR), "go", "FAIL", m.group(1))
    for line in lines:
        m = _GO_LINE.match(line)
        if m:
            return Failure(clip(line, MAX_ERROR), "go", "build", m.group(2))
    return None


def _rust(lines: list[str], rust_command: bool) -> Failure | None:
    for i, line in enumerate(lines):
        m = _RUST_PANIC.match(line)
        if m:
            rest = m.group(2).rstrip()
            if rest.endswith(":") and i + 1 < len(lines):
                rest = f"{rest} {lines[i + 1]}"
            return Failure(clip(line if rest == m.group(2) else
                                f"thread '{m.group(1)}' panicked at {rest}", MAX_ERROR),
                           "rust", "panic", m.group(1))
        m = _RUST.match(line)
        if not m:
            continue
        at = next((a.group(1) for a in map(_RUST_AT.match, lines[i + 1 : i + 4]) if a), None)
        if not (m.group(1) or at or rust_command):
            continue
        text = line + (f" --> {at}" if at else "")
        return Failure(clip(text, MAX_ERROR), "rust", m.group(1) or "error", m.group(2))
    return None


def _checkers(lines: list[str]) -> Failure | None:
    """tsc, mypy, ruff and eslint: one diagnostic per line, with a code."""
    for line in lines:
        m = _TSC.search(line)
        if m:
            return Failure(clip(line, MAX_ERROR), "tsc", m.group(1), m.group(2))
        m = _MYPY.match(line)
        if m:
            return Failure(clip(line, MAX_ERROR), "mypy", m.group(2) or "error", m.group(1))
        m = _RUFF.match(line)
        if m:
            return Failure(clip(line, MAX_ERROR), "ruff", m.group(1), m.group(2))
        m = _ESLINT.match(line)
        if m:
            return Failure(clip(line, MAX_ERROR), "eslint", m.group(2), m.group(1))
    return None


def _exception(lines: list[str], runner: str) -> Failure | None:
    """The last exception line (Python prints the one raised last); a message after it."""
    for line in reversed(lines):
        m = _EXC.match(line)
        if m and m.group(3):
            return Failure(clip(line, MAX_ERROR), runner, m.group(2), m.group(3))
    for line in lines:
        m = re.search(r"\b([A-Za-z_]\w*(?:Error|Exception)):\s*(.+)$", line)
        if m:
            return Failure(clip(line, MAX_ERROR), runner, m.group(1), m.group(2))
    return None


# A log line's leading date and time ("2024/06/03 09:14:52 ", "[2024-06-03T09:14:52.120Z] "):
# the moment it was printed says nothing about the failure, and it would fill a summary.
_STAMP = re.compile(r"^\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?"
                    r"(?:Z|[+-]\d{2}:?\d{2})?\]?\s+(?=\S)")


def unstamped(line: str) -> str:
    """``line`` without a leading log date and time."""
    return _STAMP.sub("", line, count=1)


def read_failure(output: str, runner: str = "", *, rust_command: bool = False) -> Failure:
    """The failure a command's output reports. ``runner`` names the command's tool for output
    in no known format; ``rust_command`` lets plain ``error: ...`` lines count as rustc's."""
    raw = [ln for ln in (unstamped(x.strip()) for x in output.splitlines()) if ln]
    lines = [ln for ln in raw if not _NOISE.search(ln)]
    runner = runner or "command"
    found = _pytest(raw) or _jest(lines) or _go(lines) or _rust(lines, rust_command) \
        or _checkers(lines) or _exception(lines, runner)
    if found is not None:
        return found
    line = next((ln for ln in lines if _ERRORISH.search(ln)), lines[0] if lines else "")
    if not line:
        return Failure("non-zero exit", runner, "exit", "")
    return Failure(clip(line, MAX_ERROR), runner, "error", line)


# -- what the assistant said about it --------------------------------------------------------

_FENCE = re.compile(r"```.*?(?:```|$)", re.S)
_BULLET = re.compile(r"^\s*(?:[-*+>#]+|\d+[.)])\s*")
_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|great|good|perfect|alright|right|got it|now|first|next|then|so|"
    r"and)[,!.]?\s+)*(?:let me|let's|let us|i'll|i will|i'm going to|i am going to|i need to|"
    r"we need to|going to|time to|i'?ll now|now i'?ll|running|checking|looking at|reading)\b",
    re.I)
_ACK = re.compile(r"^(?:ok(?:ay)?|sure|great|good|perfect|alright|got it|done|excellent|nice|"
                  r"all (?:tests )?pass(?:ing)?(?: now)?|fixed)\W*$", re.I)
_CAUSAL = re.compile(
    r"\b(?:because|since|caus(?:e|es|ed|ing)|the (?:problem|issue|bug|culprit|reason|root "
    r"cause|error)|due to|which means|instead of|rather than|truncat\w*|missing|never|must|"
    r"should|needs? to|expects?|expected|doesn'?t|does not|isn'?t|is not|aren'?t|wasn'?t|"
    r"can'?t|cannot|returns?|undefined|null|none|wrong|incorrect|mismatch\w*|off[- ]by|"
    r"rounds?|overflows?|race|stale|outdated|not installed|not found|typo)\b", re.I)
_RESTATE = re.compile(r"^(?:the |a |one |some |two |three )?(?:tests?|build|command|check|"
                      r"lint\w*|type ?check\w*|suite)\s+(?:is |are |still )*(?:fail\w*|"
                      r"broke\w*|errored|did not pass)\b[^.:]*[.!]?$", re.I)
_LEAD_IN = re.compile(
    r"^(?:(?:ah|aha|ok(?:ay)?|i see|found it|got it)[,!.:]?\s*)*(?:(?:so|now)\s+)?"
    r"(?:(?:i (?:see|found)|found|here'?s) )?(?:the|that'?s the) (?:problem|issue|bug|culprit|"
    r"root cause|cause)(?: is)?(?: that)?\s*[:,-]\s*|"
    r"^(?:(?:ah|aha|i see|reproduced(?: it)?|confirmed|found it|got it|there it is|yep|yup)"
    r"[,!.:]\s*)+", re.I)


# A closing clause that announces the next step: "...; I'll guard it."
_INTENT_TAIL = re.compile(r"\s*(?:[;,:]|\s[-—])\s*(?:so\s+|and\s+)?(?:i'll|i will|let me|let's|"
                          r"i'm going to|i need to)\b[^;]*$", re.I)


def sentences(texts: list[str]) -> list[str]:
    """The sentences of ``texts`` (code blocks and bullets set aside), in order."""
    out: list[str] = []
    for text in texts:
        for line in _FENCE.sub(" ", text).splitlines():
            line = _BULLET.sub("", line).strip()
            out += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`'\"(])", line)
                    if s.strip()]
    return out


# Error kinds too common to tell which sentence is about this failure.
_GENERIC_KINDS = frozenset({"FAIL", "failed", "error", "exit", "panic", "build", "AssertionError",
                            "Error", "Exception", "TypeError", "ValueError", "RuntimeError"})


def explanation(texts: list[str], limit: int = MAX_CAUSE, kind: str = "") -> str | None:
    """The first one or two sentences of ``texts`` (the assistant's words after a failure)
    that say why it failed, without lead-ins ("The problem is that"), cut to ``limit``;
    None when it only announced what it would do next. A sentence naming the failure's own
    ``kind`` (its exception class or error code: "... (AmbiguousTimeError)") is about it,
    whatever words it uses."""
    said = [s for s in sentences(texts) if not _FILLER.match(s) and not _ACK.match(s)]
    said = [s for s in said if _CAUSAL.search(s) or not _RESTATE.match(s)]
    start = next((i for i, s in enumerate(said) if _CAUSAL.search(s)
                  or (len(kind) >= 5 and kind not in _GENERIC_KINDS and kind in s)), None)
    if start is None:
        start = next((i for i, s in enumerate(said) if len(s) >= 20), None)
    if start is None:
        return None
    cause = _LEAD_IN.sub("", said[start]).strip() or said[start]
    cause = _INTENT_TAIL.sub("", cause) or cause
    if start + 1 < len(said) and _CAUSAL.search(said[start + 1]) \
            and len(cause) + len(said[start + 1]) < limit:
        cause = f"{cause} {said[start + 1]}"
    if not cause.endswith((".", "!", "?", "…")):
        cause += "."
    return clip(cause, limit)


# A name that is clearly code: camelCase, snake_case or dotted, six characters or more.
_CODE_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
MAX_FIX_SENTENCE = 160


def code_names(text: str) -> set[str]:
    """The names in ``text`` that are clearly code (``advanceTimersByTimeAsync``,
    ``task_always_eager``, ``pd.read_csv``), with each dotted name's last part too."""
    out: set[str] = set()
    for name in _CODE_NAME.findall(text):
        for part in {name, name.rsplit(".", 1)[-1]}:
            if len(part) >= 6 and ("_" in part.strip("_") or "." in part
                                   or re.search(r"[a-z][A-Z]", part)):
                out.add(part)
    return out


def naming_sentence(texts: list[str], names: set[str]) -> str | None:
    """The first sentence (or clause after a full stop) of ``texts`` that names one of
    ``names``, the code a fix put in: "jest.advanceTimersByTimeAsync flushes pending promises
    between timers; it has to be awaited." tells a later session what the fix means, where
    the first sentence of the explanation often only says what went wrong."""
    if not names:
        return None
    for sentence in sentences(texts):
        for piece in re.split(r"(?<=[.!?])\s+", sentence):
            if len(piece) <= MAX_FIX_SENTENCE and names & code_names(piece):
                return piece if piece.endswith((".", "!", "?")) else piece + "."
    return None
