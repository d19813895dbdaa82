"""Cold commands: ``kenning list``, ``show`` and ``recall`` as a person runs them, each a fresh
process, beside a bare interpreter start (``python -c pass``) timed in the same rounds.

Targets: ``list`` and ``show`` within 2x the bare interpreter, ``recall`` within 0.5 s on a
2-core machine. Every case runs once per round, rounds interleave the cases (so load on a shared
machine hits them alike), the first round is a warm-up, and medians are reported. The same
commands through the typer CLI alone (``python -m kenning.cli``, what every command cost before
the fast read path) are timed too, and ``--compare VENV`` adds another installation's
``kenning`` (an older version, say) to the same rounds.

Run it with a regular install (``pip install .``: compiled bytecode, the console script as users
get it). The store is the cached one of ``bench_core.py`` (10,000 generated notes with vectors);
``--size`` picks another size. Prints a table and writes ``results/cold.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import bench_core
from benchkit import load_average, log, render, rounded, scratch_dir, summarize, working_copy

from kenning.embed import MiniLMEmbedder

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "cold.json"
TARGET_RATIO = 2.0  # list and show: at most twice a bare interpreter start
TARGET_RECALL_S = 0.5


def cases(ken: list[str], compare: list[str] | None, db: Path, memory_id: str,
          queries: list[str]) -> dict[str, list[str]]:
    """Case name -> command; ``{q}`` is replaced by a fresh query each run."""
    typer_cli = [sys.executable, "-m", "kenning.cli"]
    out = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "kenning --version": [*ken, "--version"],
        "kenning list": [*ken, "list", "--db", str(db)],
        "kenning list --json": [*ken, "list", "--db", str(db), "--json"],
        "kenning show ID": [*ken, "show", memory_id, "--db", str(db)],
        "kenning recall": [*ken, "recall", "{q}", "--db", str(db)],
        "kenning recall --mode keyword": [*ken, "recall", "{q}", "--db", str(db), "--mode",
                                          "keyword"],
        "typer CLI: list": [*typer_cli, "list", "--db", str(db)],
        "typer CLI: recall": [*typer_cli, "recall", "{q}", "--db", str(db)],
    }
    if compare:
        out.update({
            "compared: list": [*compare, "list", "--db", str(db)],
            "compared: show ID": [*compare, "show", memory_id, "--db", str(db)],
            "compared: recall": [*compare, "recall", "{q}", "--db", str(db)],
        })
    return out


def run_once(cmd: list[str], env: dict[str, str], query: str) -> tuple[float, float]:
    """Wall milliseconds and CPU milliseconds (user + system) of one process run to
    completion (it must succeed). CPU time is what load on a shared machine changes least."""
    argv = [query if part == "{q}" else part for part in cmd]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    ms = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:4])}… exited {proc.returncode}: {proc.stderr[-300:]}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return ms, cpu


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=bench_core.COLD_SIZE, help="memories in the store")
    p.add_argument("--runs", type=int, default=15, help="timed rounds (after one warm-up)")
    p.add_argument("--compare", type=Path, help="another venv whose bin/kenning joins the rounds")
    p.add_argument("--rebuild", action="store_true", help="rebuild the cached store")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    args = p.parse_args(argv)

    ken = bench_core.kenning_command()
    compare = [str(args.compare / "bin" / "kenning")] if args.compare else None
    path, _ = bench_core.cached_store(args.size, MiniLMEmbedder(), args.rebuild)
    queries = bench_core.generate_queries(args.runs + 1, "cold-cli")
    load_start = load_average()
    with working_copy(path) as db, scratch_dir() as home:
        env = {**os.environ, "KENNING_PROJECT": bench_core.PROJECT, "KENNING_HOME": str(home)}
        env.pop("KENNING_EMBEDDER", None)
        env.pop("KENNING_DB", None)
        listed = subprocess.run([*ken, "list", "--db", str(db), "--json", "-n", "1"], env=env,
                                capture_output=True, text=True, check=True)
        memory_id = json.loads(listed.stdout)["memories"][0]["id"]
        all_cases = cases(ken, compare, db, memory_id, queries)
        times: dict[str, list[float]] = {name: [] for name in all_cases}
        cpu: dict[str, list[float]] = {name: [] for name in all_cases}
        for rnd in range(args.runs + 1):
            for name, cmd in all_cases.items():
                ms, cpu_ms = run_once(cmd, env, queries[rnd])
                if rnd:
                    times[name].append(ms)
                    cpu[name].append(cpu_ms)
            log(f"round {rnd}/{args.runs}")
    base = statistics.median(times["python -c pass"])
    result: dict[str, Any] = {
        "machine": bench_core.benchkit.machine_info(), "load_start": load_start,
        "load_end": load_average(), "store_n": args.size, "runs": args.runs,
        "command": ken, "compare": compare,
        "cases": {name: {"ms": summarize(ms), "raw_ms": rounded(ms, 2),
                         "cpu_ms": summarize(cpu[name]),
                         "ratio_to_python": statistics.median(ms) / base}
                  for name, ms in times.items()},
    }
    med = {name: statistics.median(ms) for name, ms in times.items()}
    result["targets"] = {
        "list_ratio": {"value": med["kenning list"] / base, "target": TARGET_RATIO},
        "show_ratio": {"value": med["kenning show ID"] / base, "target": TARGET_RATIO},
        "recall_s": {"value": med["kenning recall"] / 1000, "target": TARGET_RECALL_S},
        "recall_cpu_s": {"value": statistics.median(cpu["kenning recall"]) / 1000,
                         "target": TARGET_RECALL_S},
    }
    rows = [(name, c["ms"]["median"], c["ms"]["p95"], c["cpu_ms"]["median"],
             c["ratio_to_python"]) for name, c in result["cases"].items()]
    print(render(f"Cold commands, {args.size:,}-memory store (median of {args.runs} interleaved "
                 f"rounds; load {load_start[:1]} -> {result['load_end'][:1]})",
                 ("command", "p50 ms", "p95 ms", "CPU ms", "x python"), rows))
    print(render("Targets", ("measure", "value", "target"),
                 [(k, v["value"], v["target"]) for k, v in result["targets"].items()]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
