"""Secret redaction speed: one megabyte of mixed code, prose and secrets, and adversarial,
secret-dense megabytes that would make a backtracking pattern take minutes (linear time is the
expectation: well under a second each on a 2-core machine). Prints a table and writes
``results/redact.json``. The inputs are the test suite's (``tests/test_redact.py``), which
checks what they redact to; this script only times them."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchkit import load_average, machine_info, render  # noqa: E402

from kenning.redact import redact  # noqa: E402
from tests.test_redact import PATHOLOGICAL, mixed_megabyte  # noqa: E402

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "redact.json"


def timed(text: str, runs: int) -> list[float]:
    """Wall seconds of ``runs`` redactions of ``text``."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        redact(text)
        out.append(time.perf_counter() - t0)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3, help="timed runs per input (median reported)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    args = p.parse_args(argv)
    inputs = {"mixed 1 MB": mixed_megabyte(), **{f"adversarial: {k}": v
                                                 for k, v in PATHOLOGICAL.items()}}
    load = load_average()
    times = {name: timed(text, args.runs) for name, text in inputs.items()}
    rows = [(name, len(inputs[name]), statistics.median(t), max(t)) for name, t in times.items()]
    print(render(f"Redaction wall time (median of {args.runs})",
                 ("input", "chars", "median s", "max s"), rows))
    result = {"machine": machine_info(), "load_start": load, "load_end": load_average(),
              "runs": args.runs,
              "inputs": {name: {"chars": len(inputs[name]), "seconds": [round(x, 4) for x in t],
                                "median_s": round(statistics.median(t), 4)}
                         for name, t in times.items()}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
