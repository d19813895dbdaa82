"""Code drift on real commits: is a memory about code flagged stale when, and only when, a real
commit changed what it describes?

    python benchmarks/drift_cases.py [--cases PATH] [--out results/drift-heldout.json]
    python benchmarks/drift_cases.py --dev [--mirror DIR] [--show]

Each case of ``data/heldout/drift_cases.jsonl`` (held-out: taken from real commits of public
repositories, written without looking at Kenning's drift code, frozen) holds one file before and
after a commit, a memory an agent wrote about the file's earlier version, what the commit did
(``change``) and whether the memory went stale. Per case: a fresh git repository holding the
file as it was, a fresh store whose project root is that repository, the memory remembered as an
agent would (anchored by Kenning as it anchors any memory), then the commit (the file edited,
moved or deleted), then ``check_drift()`` as a session start runs it. A memory flagged after it is
a positive.

Prints precision and recall overall, per language and per kind of change, and the share of
memories Kenning anchored at all (a memory with no anchor can never be flagged), beside the
generated-repository figures of ``bench_drift.py`` (the dev set: its generator was written here)
when ``results/drift.json`` exists. Writes figures only: no per-case detail, since nobody reads
held-out material while changing the code.

``--dev`` runs the dev cases instead (``data/drift_cases_dev*.jsonl``: real commits of other
public repositories, labelled here, looked at while changing the code). Those files hold no code:
each case names its commit (``source``, ``owner/repo@sha``) and path, and the file before and after
is read from a local git snapshot of the repository (``--mirror``: a folder of
``owner+name/repo`` git directories); cases whose snapshot is missing are counted and skipped.
``--show`` prints each dev case the code gets wrong.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchkit import load_average, machine_info

from kenning import Kenning

HERE = Path(__file__).resolve().parent
DEFAULT_CASES = HERE / "data" / "heldout" / "drift_cases.jsonl"
DEFAULT_OUT = HERE / "results" / "drift-heldout.json"
DEV_CASES = sorted((HERE / "data").glob("drift_cases_dev*.jsonl"))
DEV_OUT = HERE / "results" / "drift-dev-real.json"
DEFAULT_MIRROR = Path("/work/.mirror")
DEV_RESULTS = HERE / "results" / "drift.json"
GIT_ENV = {"GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
           "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com",
           "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True, capture_output=True)


def run_case(case: dict[str, Any], work: Path) -> tuple[bool, bool]:
    """Replay one case in ``work``; returns (anchored, flagged)."""
    repo = work / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    before = repo / case["path"]
    before.parent.mkdir(parents=True, exist_ok=True)
    before.write_text(case["before"], encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "before")
    with Kenning(work / "store.db", project="case", embedder=None) as k:
        k.project_root = repo
        memory = k.remember(case["memory"],
                            type="pattern" if case.get("symbol") else "context")
        anchored = bool(k.store.anchors(project="case"))
        after_path = case.get("path_after")
        if case.get("after") is None:
            git(repo, "rm", "-q", case["path"])
        else:
            if after_path and after_path != case["path"]:
                (repo / after_path).parent.mkdir(parents=True, exist_ok=True)
                git(repo, "mv", case["path"], after_path)
            (repo / (after_path or case["path"])).write_text(case["after"], encoding="utf-8")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "after", "--allow-empty")
        k.check_drift()
        flagged = k.get(memory.id).drift is not None
    return anchored, flagged


def scores(rows: Iterable[tuple[bool, bool, bool]]) -> dict[str, Any]:
    """Precision and recall of the flags from (truth, anchored, flagged) rows."""
    rows = list(rows)
    tp = sum(t and f for t, _, f in rows)
    fp = sum(f and not t for t, _, f in rows)
    fn = sum(t and not f for t, _, f in rows)
    return {"cases": len(rows), "stale": sum(t for t, _, _ in rows),
            "anchored_share": round(sum(a for _, a, _ in rows) / len(rows), 3) if rows else None,
            "flagged": tp + fp, "false_pos": fp, "false_neg": fn,
            "precision": round(tp / (tp + fp), 3) if tp + fp else None,
            "recall": round(tp / (tp + fn), 3) if tp + fn else None}


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        raise SystemExit(f"drift_cases: no cases at {path}")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _show(git_dir: Path, spec: str) -> str | None:
    done = subprocess.run(["git", "--git-dir", str(git_dir), "show", spec],
                          capture_output=True, check=False)
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


def materialize(case: dict[str, Any], mirror: Path) -> dict[str, Any] | None:
    """A dev case with its file before and after, read from the repository's snapshot under
    ``mirror``; None when the snapshot or the commit is not there."""
    repo, _, sha = case["source"].partition("@")
    git_dir = mirror / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir() or not sha:
        return None
    before = _show(git_dir, f"{sha}^:{case['path']}")
    if before is None:
        return None
    after = None
    if not case.get("deleted"):
        after = _show(git_dir, f"{sha}:{case.get('path_after') or case['path']}")
        if after is None:
            return None
    return {**case, "before": before, "after": after}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--dev", action="store_true",
                    help="the dev cases (real commits read from --mirror), not the held-out")
    ap.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR)
    ap.add_argument("--show", action="store_true", help="print the dev cases gotten wrong")
    args = ap.parse_args(argv)
    if args.show and not args.dev:
        raise SystemExit("drift_cases: --show is for --dev only (nobody reads held-out cases)")
    missing = 0
    if args.dev:
        named = [c for path in DEV_CASES for c in load(path)]
        cases = [m for c in named if (m := materialize(c, args.mirror)) is not None]
        missing = len(named) - len(cases)
        out = args.out or DEV_OUT
    else:
        cases = load(args.cases)
        out = args.out or DEFAULT_OUT
    load_start = load_average()
    results: list[tuple[dict[str, Any], bool, bool]] = []
    errors: list[str] = []
    for case in cases:
        with tempfile.TemporaryDirectory(prefix="drift-case-") as tmp:
            try:
                anchored, flagged = run_case(case, Path(tmp))
            except (OSError, subprocess.CalledProcessError, ValueError) as exc:
                errors.append(f"{case['id']}: {type(exc).__name__}")
                continue
        results.append((case, anchored, flagged))

    def group(key: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for value in sorted({c[key] for c, _, _ in results}):
            out[value] = scores((c["stale"], a, f) for c, a, f in results if c[key] == value)
        return out

    source = ", ".join(str(p.relative_to(HERE)) for p in DEV_CASES) if args.dev else (
        str(args.cases.relative_to(HERE)) if args.cases.is_relative_to(HERE)
        else str(args.cases))
    report = {
        "cases": source, "without_snapshot": missing,
        "overall": scores((c["stale"], a, f) for c, a, f in results),
        "by_language": group("lang"), "by_change": group("change"),
        "errors": errors, "machine": machine_info(), "load_start": load_start,
        "load_end": load_average(),
    }
    dev = None
    if DEV_RESULTS.exists():
        dev = json.loads(DEV_RESULTS.read_text()).get("quality", {}).get("overall")
    print("| set | cases | stale | anchored | precision | recall | false pos | false neg |")
    print("|---|---|---|---|---|---|---|---|")

    def row(name: str, s: dict[str, Any]) -> None:
        print(f"| {name} | {s['cases']} | {s['stale']} | {s['anchored_share']} | "
              f"{s['precision']} | {s['recall']} | {s['false_pos']} | {s['false_neg']} |")

    row("dev: real commits" if args.dev else "held-out: real commits", report["overall"])
    for lang, s in report["by_language"].items():
        row(f"- {lang}", s)
    for change, s in report["by_change"].items():
        row(f"- {change}", s)
    if dev:
        print(f"dev (generated repository, bench_drift.py): precision "
              f"{dev.get('precision')}, recall {dev.get('recall')}")
        report["dev_generated"] = dev
    if errors:
        print(f"{len(errors)} cases could not be replayed: {', '.join(errors)}")
    if missing:
        print(f"{missing} dev cases skipped: no snapshot of their commit under {args.mirror}")
    if args.show:
        for c, a, f in results:
            if c["stale"] != f:
                kind = "missed" if c["stale"] else "false flag"
                print(f"\n{c['id']} ({kind}; {c['change']}; anchored: {a}) {c['source']} "
                      f"{c['path']}{' -> ' + c['path_after'] if c.get('path_after') else ''}\n"
                      f"  memory: {c['memory']}\n  why: {c.get('why', '')}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"JSON: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
