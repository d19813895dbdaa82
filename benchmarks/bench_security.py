"""Security and reliability benchmark: does any secret get stored or printed, how often is
ordinary text redacted by mistake, does anything get written outside its place, and how fast
does Kenning recover from a PostgreSQL outage.

Run ``python benchmarks/bench_security.py [--sections redactor,capitalised,false_positives,
paths,confinement,dashboard,postgres] [--paths api.remember.text,...] [--samples N]
[--out results/security.json]``. Sections:

- ``redactor``: every kind of the secret corpus (``tests/secret_corpus.py``) through
  ``redact`` alone: caught exactly, caught with another kind, missed; the held-out part
  (``HELDOUT``, frozen in ``data/heldout/prose_secrets.jsonl``) is counted apart, in figures
  only (its misses are never listed).
- ``capitalised``: random credentials starting with a capital (the shape that once read as a
  type annotation) in ``key: Value`` forms (YAML, prose, a header, ``key=Value``, an upper-case
  key, a log line), ``--values`` per form and alphabet: how many are missed.
- ``false_positives``: snippets of ordinary code and prose redacted by mistake: the generated
  corpus (``tests/ordinary_corpus.py``: SHAs, UUIDs, digests, base64 fixtures, annotations...),
  the standard library's own sources in 20-line chunks, and this repository's docs and sources.
- ``speed``: ``redact`` over 1 MB of mixed text and adversarial megabytes, and the time of one
  ``remember`` (all of its redaction included).
- ``paths``: every kind through every write path of ``tests/secret_paths.py`` (the Python API
  field by field, links, the CLI and its errors, the MCP tools, a whole hook session,
  ``kenning extract`` dry run and apply, the auto memory import, the dashboard, the error log,
  the journal); a leak is a secret found in the raw bytes of any file Kenning wrote or in
  anything it printed. The held-out kinds go through every path too, counted apart.
- ``confinement``: symlinked agent-memory and auto-memory directories pointing outside: files
  written outside.
- ``dashboard``: a cross-site write without an Origin header, and the time and memory a large
  request body costs.
- ``postgres``: writers against a real PostgreSQL server that is killed mid-write and started
  again: acknowledged writes lost, seconds from the server's return to the first successful
  write of every writer, and how long a call blocks while the server is down.

Every figure of a run is kept in the JSON; the table shows the summary. Run it against an
older checkout with ``PYTHONPATH=<old>/src:. python benchmarks/bench_security.py`` to compare.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # the corpora live with the tests

import benchkit  # noqa: E402
from benchkit import load_average, log, render  # noqa: E402

from kenning.redact import redact  # noqa: E402
from tests.ordinary_corpus import ORDINARY  # noqa: E402
from tests.secret_corpus import CORPUS, HELDOUT, SecretSample  # noqa: E402

DEFAULT_OUT = HERE / "results" / "security.json"
SECTIONS = ("redactor", "capitalised", "false_positives", "speed", "paths", "confinement",
            "dashboard", "postgres")


# -- redactor ----------------------------------------------------------------------------------

def _results(samples: list[SecretSample]) -> list[dict[str, str]]:
    """Each sample through ``redact``: exact (the secret replaced by its kind's marker), other
    kind (replaced, another marker), missed (the secret still there)."""
    rows = []
    for s in samples:
        out = redact(s.text).text
        missed = s.secret in out
        exact = out == s.text.replace(s.secret, f"[REDACTED:{s.kind}]")
        rows.append({"name": s.name, "kind": s.kind, "group": s.group,
                     "result": "missed" if missed else "exact" if exact else "other"})
    return rows


def _counts(rows: list[dict[str, str]]) -> dict[str, int]:
    return {"kinds": len(rows), **{r: sum(1 for x in rows if x["result"] == r)
                                   for r in ("exact", "other", "missed")}}


def redactor() -> dict[str, Any]:
    """Each corpus kind through ``redact`` (dev), and the held-out kinds in figures only."""
    rows = _results(CORPUS)
    return {**_counts(rows), "missed_names": [x["name"] for x in rows
                                              if x["result"] == "missed"],
            "issue37_dev": _counts([x for x in rows if x["group"]]),
            "heldout": _counts(_results(HELDOUT)), "rows": rows}


# -- capitalised key: Value --------------------------------------------------------------------

FORMS = {
    "yaml": "db:\n  host: db.internal\n  password: {v}\n  pool: 5",
    "prose": "The staging admin password: {v} (rotate it after the demo).",
    "header": "curl -H 'X-Api-Key: {v}' https://api.acme.test/v2/orders",
    "key=Value": "api_token={v} ./sync.sh",
    "UPPER: Value": "SECRET: {v}\nREGION: eu-west-1",
    "log line": "2024-05-02 INFO created user admin. Password: {v} - change it",
}


def capitalised(values: int) -> dict[str, Any]:
    """Random credentials with a capital first letter, ``values`` per form and alphabet."""
    rng = random.Random("kenning-capitalised")
    out: dict[str, Any] = {}
    for alphabet_name, alphabet in (("letters+digits", string.ascii_letters + string.digits),
                                    ("letters", string.ascii_letters)):
        for form, template in FORMS.items():
            missed = 0
            for _ in range(values):
                n = rng.randint(12, 24)
                value = rng.choice(string.ascii_uppercase) + "".join(
                    rng.choice(alphabet) for _ in range(n - 1))
                if value in redact(template.format(v=value)).text:
                    missed += 1
            out[f"{form} / {alphabet_name}"] = {"values": values, "missed": missed,
                                                "missed_rate": missed / values}
    total = sum(v["values"] for v in out.values())
    missed_all = sum(v["missed"] for v in out.values())
    return {"values": total, "missed": missed_all, "missed_rate": missed_all / total,
            "forms": out}


# -- false positives ---------------------------------------------------------------------------

def _chunks(paths: list[Path], base: Path, lines: int = 20) -> list[tuple[str, str]]:
    out = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        rows = text.split("\n")
        for i in range(0, len(rows), lines):
            out.append((f"{path.relative_to(base)}:{i + 1}", "\n".join(rows[i:i + lines])))
    return out


def false_positives() -> dict[str, Any]:
    """Ordinary snippets changed by ``redact``, per corpus (every change is a false positive,
    except in the standard library, where a changed chunk is listed for review: its docs hold
    a few example passwords)."""
    import sysconfig

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    skip = {"test", "tests", "site-packages", "idlelib"}
    std_files = sorted(p for p in stdlib.rglob("*.py") if not skip & set(p.parts))
    repo = HERE.parent
    own = {"redact.py", "secret_corpus.py", "ordinary_corpus.py", "secret_paths.py",
           "test_redact.py", "test_secrets_at_rest.py", "bench_security.py"}
    repo_files = sorted(p for pattern in ("docs/*.md", "README.md", "src/kenning/**/*.py")
                        for p in repo.glob(pattern) if p.name not in own)
    corpora = {
        "generated": [(f"#{i}", t) for i, t in enumerate(ORDINARY)],
        "stdlib": _chunks(std_files, stdlib),
        "repository": _chunks(repo_files, repo),
    }
    out: dict[str, Any] = {}
    for name, items in corpora.items():
        changed = []
        for where, text in items:
            red = redact(text)
            if red.count:
                changed.append({"where": where, "kinds": list(red.kinds)})
        out[name] = {"snippets": len(items), "changed": len(changed),
                     "rate": len(changed) / max(1, len(items)), "changed_at": changed}
    return out


# -- speed -------------------------------------------------------------------------------------

def speed(runs: int = 5) -> dict[str, Any]:
    """Medians over ``runs``: ``redact`` over 1 MB of mixed text (secrets, ordinary code and
    prose), the slowest of the adversarial megabytes, and one ``remember`` (no embedder, a
    fresh SQLite store: validation, redaction, the store's guard, the write)."""
    import statistics

    from tests.secret_corpus import NEGATIVE_SAMPLES, SECRET_SAMPLES

    chunk = "\n".join(NEGATIVE_SAMPLES + [t for t, _ in SECRET_SAMPLES[:10]]) + "\n"
    filler = ("def handler(event, context):\n    user = event['user']\n    return {'ok': True}\n"
              "The service retries three times with exponential backoff before giving up.\n")
    block = chunk + filler * 40
    mixed = (block * (1_000_000 // len(block) + 1))[:1_000_000]
    adversarial = {
        "assignments": ("password=" * 120_000)[:1_000_000],
        "yaml-keys": ("token: abc " * 100_000)[:1_000_000],
        "open-quotes": ('"password": "' * 80_000)[:1_000_000],
        "headers": ("Authorization: " * 70_000)[:1_000_000],
        "hex": ("0123456789abcdef" * 62_500)[:1_000_000],
    }

    def timed(fn: Any) -> float:
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0

    mixed_s = statistics.median(timed(lambda: redact(mixed)) for _ in range(runs))
    worst = {name: statistics.median(timed(lambda t=text: redact(t)) for _ in range(3))
             for name, text in adversarial.items()}
    from kenning import Kenning

    with tempfile.TemporaryDirectory(prefix="kspeed-") as tmp, \
            Kenning(Path(tmp) / "k.db", project="speed", embedder=None) as k:
        notes = [f"Note {n}: the {n % 7}th retry of the ledger batch {n} used backoff "
                 f"{n % 5} s and DB_PASSWORD=Hunter{n}Xq9z was rotated" for n in range(300)]
        per = [timed(lambda t=t: k.remember(t)) * 1000 for t in notes]
    return {"redact_mixed_mb_s": round(1 / mixed_s, 2),
            "redact_adversarial_worst_s": round(max(worst.values()), 3),
            "redact_adversarial_s": {k: round(v, 3) for k, v in worst.items()},
            "remember_ms_median": round(statistics.median(per), 3),
            "remember_ms_p95": round(benchkit.percentile(per, 95), 3)}


# -- write paths ---------------------------------------------------------------------------------

def paths(names: list[str], samples: int) -> dict[str, Any]:
    """Every kind through every write path, each path in a fresh sandbox."""
    from tests.secret_paths import PATHS, run_path

    corpus = CORPUS[:samples] if samples else CORPUS
    heldout = {s.name for s in HELDOUT}
    out: dict[str, Any] = {}
    for name in names or list(PATHS):
        log(f"paths: {name} ({len(corpus)} kinds, {len(HELDOUT)} held-out)")
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="kenning-leak-") as tmp:
            try:
                res = run_path(name, Path(tmp), corpus + HELDOUT)
            except Exception as exc:  # a path that breaks is reported, not fatal
                res = {"attempts": 0, "leaked": [], "error": f"{type(exc).__name__}: {exc}"}
        # Held-out leaks are counted, never named.
        res["heldout_leaked"] = sum(1 for n in res["leaked"] if n in heldout)
        res["leaked"] = [n for n in res["leaked"] if n not in heldout]
        res["kinds"] = len(corpus)
        res["heldout_kinds"] = len(HELDOUT)
        res["seconds"] = round(time.perf_counter() - t0, 1)
        out[name] = res
    by_kind: dict[str, list[str]] = {s.name: [] for s in corpus}
    for name, res in out.items():
        for leaked in res["leaked"]:
            by_kind[leaked].append(name)
    return {"paths": out, "leaks": sum(len(r["leaked"]) for r in out.values()),
            "heldout_leaks": sum(r["heldout_leaked"] for r in out.values()),
            "by_kind": {k: v for k, v in by_kind.items() if v}}


# -- the table ---------------------------------------------------------------------------------

def table(result: dict[str, Any]) -> str:
    parts = []
    if "redactor" in result:
        r = result["redactor"]
        rows = [["held-out (issue 37)", h["kinds"], h["exact"], h["other"], h["missed"]]
                for h in [r.get("heldout")] if h]
        rows += [["dev: issue 37 groups", d["kinds"], d["exact"], d["other"], d["missed"]]
                 for d in [r.get("issue37_dev")] if d]
        rows.append(["dev: whole corpus", r["kinds"], r["exact"], r["other"], r["missed"]])
        parts.append(render("Secret corpus through redact()", ["part", "kinds", "exact",
                                                              "other kind", "missed"], rows))
    if "capitalised" in result:
        c = result["capitalised"]
        rows = [[form, v["values"], v["missed"], f"{100 * v['missed_rate']:.1f} %"]
                for form, v in c["forms"].items()]
        rows.append(["all", c["values"], c["missed"], f"{100 * c['missed_rate']:.1f} %"])
        parts.append(render("Capitalised key: Value credentials", ["form", "values", "missed",
                                                                   "rate"], rows))
    if "false_positives" in result:
        rows = [[name, v["snippets"], v["changed"], f"{100 * v['rate']:.2f} %"]
                for name, v in result["false_positives"].items()]
        parts.append(render("Ordinary text redacted by mistake", ["corpus", "snippets",
                                                                  "changed", "rate"], rows))
    if "speed" in result:
        rows = [[k, v] for k, v in result["speed"].items() if not isinstance(v, dict)]
        parts.append(render("Speed (medians)", ["figure", "value"], rows))
    if "paths" in result:
        p = result["paths"]
        rows = [[name, r["kinds"], r.get("heldout_kinds", ""), r["attempts"], len(r["leaked"]),
                 r.get("heldout_leaked", ""), r.get("error", "")]
                for name, r in p["paths"].items()]
        rows.append(["all paths", "", "", "", p["leaks"], p.get("heldout_leaks", ""), ""])
        parts.append(render("Secrets in what Kenning wrote or printed, per write path",
                            ["path", "kinds", "held-out", "attempts", "kinds leaked",
                             "held-out leaked", "error"], rows))
    if "confinement" in result:
        rows = [[case, v["files_outside"], v["refused"]]
                for case, v in result["confinement"].items() if isinstance(v, dict)]
        parts.append(render("Symbolic links leading out of their place",
                            ["case", "files written outside", "refused"], rows))
    if "dashboard" in result:
        rows = [[k, v] for k, v in result["dashboard"].items()]
        parts.append(render("Dashboard (status 0: the server answered and closed the "
                            "connection before the upload ended)", ["figure", "value"], rows))
    if "postgres" in result:
        p = result["postgres"]
        rows = [[k, p[k]] for k in (
            "writers", "down_s", "acknowledged", "lost", "recovered", "recovery_s_median",
            "recovery_s_max", "calls_during_outage", "failed_during_outage",
            "call_s_during_outage_max")]
        rows.append(["recovery_s per writer", " ".join(str(r) for r in p["recovery_s"])])
        parts.append(render("PostgreSQL killed under writers and started again",
                            ["figure", "value"], rows))
    return "\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sections", default=",".join(SECTIONS))
    ap.add_argument("--paths", default="", help="Only these write paths (comma-separated).")
    ap.add_argument("--samples", type=int, default=0, help="Only the first N kinds (paths).")
    ap.add_argument("--values", type=int, default=500, help="Values per capitalised form.")
    ap.add_argument("--pg-writers", type=int, default=8)
    ap.add_argument("--pg-outage", type=float, default=5.0, help="Seconds the server is down.")
    ap.add_argument("--label", default="", help="A name for this run (e.g. before, after).")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    sections = [s for s in args.sections.split(",") if s]
    import kenning

    result: dict[str, Any] = {"label": args.label, "kenning_src": str(Path(
        kenning.__file__).parent), "load_average": load_average()}
    if "redactor" in sections:
        result["redactor"] = redactor()
    if "capitalised" in sections:
        result["capitalised"] = capitalised(args.values)
    if "false_positives" in sections:
        result["false_positives"] = false_positives()
    if "speed" in sections:
        result["speed"] = speed()
    if "paths" in sections:
        result["paths"] = paths([p for p in args.paths.split(",") if p], args.samples)
    if "confinement" in sections:
        from security_checks import confinement

        result["confinement"] = confinement()
    if "dashboard" in sections:
        from security_checks import dashboard

        result["dashboard"] = dashboard()
    if "postgres" in sections:
        from security_checks import postgres_outage

        result["postgres"] = postgres_outage(args.pg_writers, args.pg_outage)
    result["load_average_after"] = load_average()
    result["machine"] = benchkit.machine_info()
    print(table(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, default=str))
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
