"""Fail when the held-out data changed since it was frozen or when the code or the tests quote
it; report how much the code quotes the dev data.

    python scripts/check_heldout_quotes.py [--show N] [--json PATH] [--freeze]

The held-out files (the story modules of ``benchmarks/replaykit/heldout/``, the ``.jsonl``
files of ``benchmarks/data/heldout/`` and ``training/data/test*.jsonl``) are frozen:
``benchmarks/heldout-frozen.json`` holds the SHA-256 of each, added by ``--freeze`` at the
commit that first holds the file (named in ``benchmarks/README.md``). A file changed, added
or removed since fails the check: a held-out set edited after its scores were seen is no
longer held out. A new held-out set is a new file, frozen when it is added and reported apart;
``--freeze`` never re-freezes a changed file.

A quality figure is believable only on data the code was never shaped by. Code written for a
benchmark's sentences gives itself away by quoting them, so this check compares runs of six
words in a row (lower-cased, split on anything that is not a letter or a digit):

- **held-out** material (the stories of ``benchmarks/replaykit/heldout/``, the files of
  ``benchmarks/data/heldout/`` and the test split of the detector's corpus,
  ``training/data/test*.jsonl``): any run of it in ``src/`` or ``tests/`` fails the check,
  with the file, the line and the words;
- **dev** material (the stories of ``benchmarks/replaykit/stories/``, the labelled sets of
  ``benchmarks/data/*.jsonl``, the corpus's train and dev splits and the relation phrases of
  ``training/data/relations/``): the runs ``src/`` quotes
  are counted and printed, never failed on. The aim is none: code is written for kinds of
  sentences, not for sentences.

Only the words people wrote are compared: what users and the assistant say, commit messages,
notes, subagent reports, the commands run and the lessons of a story, and the text fields of a
labelled set (of a code-drift case, the memory and the reason, not the code). A story's
source files and edits are code, and its tool output is the tool's fixed format ("test
result: FAILED. 2 passed; 1 failed"): a test of an output parser shares those words with any
log of that tool, which says nothing about tuning. In ``src/`` and
``tests/`` the string literals and comments of Python files are read, and the whole text of
any other file.

Exit status: 0 when the set is as frozen and no held-out run appears, 1 when a file changed or
a run appears, 2 when the material cannot be read (a story module that fails to import is an
error, not an empty set) or the set has no manifest.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import sys
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
TRAINING = ROOT / "training"
RUN = 6
FROZEN = BENCH / "heldout-frozen.json"
# Sources kept for an independent evaluation: no held-out or dev item may come from them.
RESERVED = ROOT.parent / "shared" / "reserved-for-evaluation.txt"
WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Fields of a labelled line that hold words people wrote (the rest are ids and labels).
TEXT_FIELDS = ("text", "before", "old", "new", "rule", "context", "message", "word")
# A code-drift case holds a file before and after a commit (code, not words): only the memory
# written about it and the reason are people's words.
DRIFT_FIELDS = ("memory", "why")
sys.path.insert(0, str(BENCH))  # the story format, ``replaykit``
# Not people's words: test data the tests generate, virtual environments, caches.
SKIP_DIRS = {"__pycache__", ".venv", "node_modules", ".mypy_cache", ".ruff_cache",
             ".pytest_cache"}


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def runs(text: str) -> Iterator[tuple[str, ...]]:
    """Every run of ``RUN`` consecutive words of ``text``."""
    ws = words(text)
    for i in range(len(ws) - RUN + 1):
        yield tuple(ws[i:i + RUN])


def load_stories(package: str) -> list[Any]:
    """The validated stories of a ``replaykit`` package."""
    from replaykit.story import load_package

    module = __import__(package, fromlist=["__path__"])
    return load_package(package, module.__path__)


def story_texts(stories: Iterable[Any], package: str) -> Iterator[tuple[str, str]]:
    """(where, text) for the words people wrote in every story of ``stories``."""
    from replaykit.story import Bash, Commit, Compact, Note, Say, Subagent, User

    for story in stories:
        where = f"{package}:{story.id}"
        for le in (*story.lessons, *story.also):
            yield where, le.text
        for session in story.sessions:
            for note in session.notes:
                if isinstance(note, Note):
                    yield where, note.text
            for ev in session.events:
                if isinstance(ev, User | Say):
                    yield where, ev.text
                elif isinstance(ev, Bash):
                    yield where, ev.command
                elif isinstance(ev, Commit):
                    yield where, ev.message
                elif isinstance(ev, Subagent):
                    yield where, ev.report
                elif isinstance(ev, Compact):
                    yield where, ev.instructions


def labelled_sources(paths: Iterable[Path]) -> set[str]:
    """The repositories (``owner/repo``) or pages the labelled lines name as their source."""
    out: set[str] = set()
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                for key in ("source", "source_old"):
                    if isinstance(item.get(key), str):
                        out.add(source_key(item[key]))
    return out


def source_key(source: str) -> str:
    """``owner/repo`` of a source written as ``owner/repo:path``, ``owner/repo#12`` or a
    repository's address; any other page's address as it is."""
    text = source.strip()
    if "github.com/" in text.lower():
        text = text[text.lower().index("github.com/") + len("github.com/"):]
    elif "://" in text:
        return text.lower()
    match = re.match(r"[\w.-]+/[\w.-]+", text)
    return (match.group(0) if match else text).lower()


def labelled_texts(paths: Iterable[Path]) -> Iterator[tuple[str, str]]:
    """(where, text) for the text fields of every line of the labelled ``.jsonl`` files."""
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            item = json.loads(line)
            for key in DRIFT_FIELDS if "after" in item else TEXT_FIELDS:
                value = item.get(key)
                if isinstance(value, str):
                    yield f"{_shown(path)}:{n}", value
            for rule in item.get("rules", ()) or ():
                if isinstance(rule, dict) and isinstance(rule.get("rule"), str):
                    yield f"{_shown(path)}:{n}", rule["rule"]


@dataclass
class Material:
    """The six-word runs of one body of material, each with where it was first seen."""

    origin: dict[tuple[str, ...], str] = field(default_factory=dict)

    def add(self, texts: Iterable[tuple[str, str]]) -> Material:
        for where, text in texts:
            for run in runs(text):
                self.origin.setdefault(run, where)
        return self


def code_texts(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of the string literals and comments of a Python file, or of every line of
    any other text file."""
    try:
        source = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return
    if path.suffix != ".py":
        for n, line in enumerate(source.splitlines(), start=1):
            yield n, line
        return
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        for n, line in enumerate(source.splitlines(), start=1):
            yield n, line
        return
    # Adjacent string literals ("a " "b") are one sentence split over lines: joined, so a run
    # that crosses the split is still found.
    pending: list[str] = []
    start = 0
    for tok in tokens:
        if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            if not pending:
                start = tok.start[0]
            pending.append(tok.string)
            continue
        if tok.type == tokenize.NL and pending:
            continue
        if pending:
            yield start, " ".join(pending)
            pending = []
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    if pending:
        yield start, " ".join(pending)


def files_under(*dirs: Path) -> Iterator[Path]:
    for top in dirs:
        for path in sorted(top.rglob("*")):
            if path.is_file() and not SKIP_DIRS.intersection(path.relative_to(ROOT).parts):
                yield path


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


@dataclass(frozen=True)
class Quote:
    path: str
    line: int
    run: str
    origin: str


def quotes(material: Material, paths: Iterable[Path]) -> list[Quote]:
    """Every place in ``paths`` that holds a run of ``material`` (each run once per file)."""
    found: list[Quote] = []
    for path in paths:
        seen: set[tuple[str, ...]] = set()
        for line, text in code_texts(path):
            for run in runs(text):
                if run in material.origin and run not in seen:
                    seen.add(run)
                    found.append(Quote(_shown(path), line, " ".join(run),
                                       material.origin[run]))
    return found


def heldout_files() -> list[Path]:
    """The frozen files: held-out story modules and labelled sets (not their package's loader
    or the README that describes them)."""
    stories = [p for p in sorted((BENCH / "replaykit" / "heldout").glob("*.py"))
               if p.name != "__init__.py"]
    return stories + labelled_heldout()


def labelled_heldout() -> list[Path]:
    """The held-out labelled files: the benchmarks', and the test splits of the detector corpus
    and of the statement pairs."""
    return sorted((BENCH / "data" / "heldout").glob("*.jsonl")) + sorted(
        (TRAINING / "data").glob("test*.jsonl")) + sorted(
        (TRAINING / "data" / "pairs").glob("test*.jsonl"))


def labelled_dev() -> list[Path]:
    """The dev labelled files: the benchmarks' sets written here, the train and dev splits of
    the detector corpus and of the statement pairs, and the relation phrases."""
    corpus = [TRAINING / "data" / f"{name}.jsonl" for name in ("train", "dev")]
    pairs = [TRAINING / "data" / "pairs" / f"{name}.jsonl" for name in ("train", "dev")]
    relations = sorted((TRAINING / "data" / "relations").glob("*.jsonl"))
    return sorted((BENCH / "data").glob("*.jsonl")) + [
        p for p in corpus + pairs if p.exists()] + relations


def digests() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in heldout_files()}


def frozen_changes() -> list[str] | None:
    """What differs from the manifest (changed, added, removed files), or None without one."""
    if not FROZEN.exists():
        return None
    want: dict[str, str] = json.loads(FROZEN.read_text(encoding="utf-8"))["files"]
    have = digests()
    return ([f"changed: {p}" for p in sorted(want.keys() & have.keys()) if want[p] != have[p]]
            + [f"added: {p}" for p in sorted(have.keys() - want.keys())]
            + [f"removed: {p}" for p in sorted(want.keys() - have.keys())])


def freeze() -> list[str] | None:
    """Add the held-out files the manifest does not hold yet (a new set, frozen from now on) and
    return them; files already frozen keep their digest. None, with the reason printed, when a
    frozen file changed or went: that is never re-frozen."""
    changes = frozen_changes() or []
    broken = [c for c in changes if not c.startswith("added: ")]
    if broken:
        print("check_heldout_quotes: cannot freeze: frozen files changed (restore them; a new "
              "version is a new file):\n  " + "\n  ".join(broken), file=sys.stderr)
        return None
    frozen: dict[str, str] = (json.loads(FROZEN.read_text(encoding="utf-8"))["files"]
                              if FROZEN.exists() else {})
    have = digests()
    added = sorted(have.keys() - frozen.keys())
    frozen.update({p: have[p] for p in added})
    FROZEN.write_text(json.dumps({"files": dict(sorted(frozen.items()))}, indent=1) + "\n",
                      encoding="utf-8")
    return added


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--show", type=int, default=10,
                        help="dev quotes listed (default 10; every held-out quote is listed)")
    parser.add_argument("--json", type=Path, help="also write the counts and quotes here")
    parser.add_argument("--freeze", action="store_true",
                        help=f"add the held-out files {FROZEN.relative_to(ROOT)} does not hold "
                             "yet (once, when a new held-out set is first committed); a frozen "
                             "file is never re-frozen")
    args = parser.parse_args(argv)
    if args.freeze:
        added = freeze()
        if added is None:
            return 1
        print(f"froze {len(added)} new held-out files in {FROZEN.relative_to(ROOT)}"
              + "".join(f"\n  {p}" for p in added))
    changes = frozen_changes()
    if changes is None:
        print(f"check_heldout_quotes: no {FROZEN.relative_to(ROOT)}: the held-out set is not "
              "frozen (--freeze)", file=sys.stderr)
        return 2
    if changes:
        print("check_heldout_quotes: FAILED: the held-out set changed since it was frozen "
              "(a new set is a new version, frozen anew and reported apart):\n  "
              + "\n  ".join(changes), file=sys.stderr)
        return 1
    heldout_labelled = labelled_heldout()
    dev_files = labelled_dev()
    try:
        heldout_stories = load_stories("replaykit.heldout")
        dev_stories = load_stories("replaykit.stories")
        heldout = Material().add(story_texts(heldout_stories, "replaykit.heldout")).add(
            labelled_texts(heldout_labelled))
        dev = Material().add(story_texts(dev_stories, "replaykit.stories")).add(
            labelled_texts(dev_files))
        heldout_sources = {source_key(x) for s in heldout_stories for x in s.sources} | \
            labelled_sources(heldout_labelled)
        dev_sources = {source_key(x) for s in dev_stories for x in s.sources} | \
            labelled_sources(dev_files)
    except (ImportError, ValueError, json.JSONDecodeError) as exc:
        print(f"check_heldout_quotes: cannot read the material: {exc}", file=sys.stderr)
        return 2
    if not heldout.origin:
        print("check_heldout_quotes: no held-out material found (benchmarks/replaykit/heldout/, "
              "benchmarks/data/heldout/)", file=sys.stderr)
        return 2
    if RESERVED.exists():
        reserved = {line.split()[0].lower() for line in RESERVED.read_text().splitlines()
                    if line.strip() and not line.lstrip().startswith("#")}
        used = sorted((heldout_sources | dev_sources) & reserved)
        if used:
            print(f"check_heldout_quotes: FAILED: sources kept for independent evaluation are "
                  f"used: {', '.join(used)}", file=sys.stderr)
            return 1
    else:
        print(f"(no {RESERVED}: the reserved sources were not compared)")
    both = sorted(heldout_sources & dev_sources)
    if both:
        print(f"check_heldout_quotes: FAILED: sources in both the held-out and the dev data "
              f"(a split by source keeps each on one side): {', '.join(both)}", file=sys.stderr)
        return 1
    # A run in both sets is dev material too: the dev stories already quote it, so it cannot
    # single out the held-out set (generic tool output such as a test runner's banner).
    shared = heldout.origin.keys() & dev.origin.keys()
    for run in shared:
        del heldout.origin[run]
    leaked = quotes(heldout, files_under(ROOT / "src", ROOT / "tests"))
    dev_quotes = quotes(dev, files_under(ROOT / "src"))
    distinct_dev = len({q.run for q in dev_quotes})
    print(f"held-out material: {len(heldout.origin)} six-word runs "
          f"({len(shared)} shared with dev left out); in src/ or tests/: {len(leaked)}")
    for q in leaked:
        print(f"  {q.path}:{q.line}: \"{q.run}\" (from {q.origin})")
    print(f"dev material: {len(dev.origin)} six-word runs; quoted in src/: {distinct_dev} "
          f"distinct runs in {len({q.path for q in dev_quotes})} files (aim: none)")
    for q in dev_quotes[:args.show]:
        print(f"  {q.path}:{q.line}: \"{q.run}\" (from {q.origin})")
    if args.json:
        args.json.write_text(json.dumps({
            "heldout_runs": len(heldout.origin), "heldout_quoted": [vars(q) for q in leaked],
            "dev_runs": len(dev.origin), "dev_quoted_in_src": distinct_dev,
            "dev_quotes": [vars(q) for q in dev_quotes]}, indent=1) + "\n")
    if leaked:
        print("check_heldout_quotes: FAILED: src/ or tests/ quote held-out material",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
