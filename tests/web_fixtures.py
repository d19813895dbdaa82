"""A seeded store for the dashboard tests: topic clusters of linked memories, decision chains
with outcomes, synonym and one-off relationship words (so health has recommendations), and a
running dashboard server on a free port."""

from __future__ import annotations

import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kenning import Kenning

SEED_T0 = 1_780_000_000_000  # 2026-05-28, the seed's clock
LATER = SEED_T0 + 60 * 86_400_000  # the dashboard's clock: two months on
PROJECT = "webproj"
THEMES = ["auth", "sqlite", "cache", "deploy", "testing", "logging", "parser", "billing",
          "search", "queue", "metrics", "schema"]
VERBS = ["uses", "needs", "avoids", "prefers", "breaks", "fixes", "replaces", "speeds up"]
THINGS = ["JWT tokens", "WAL mode", "an LRU cache", "blue-green deploys", "property tests",
          "structured logs", "a recursive descent parser", "idempotent webhooks", "BM25 ranking",
          "a retry queue", "histograms", "additive migrations"]
SYNONYMS = ["motivated_by", "based_on", "requires"]  # health recommends merging these


def seed(path: Path, n: int, *, group: int = 40) -> dict[str, Any]:
    """Write ``n`` memories in topic clusters of about ``group``; returns what was made."""
    rng = random.Random(20261122)
    clock = [SEED_T0]
    groups = max(1, n // group)
    topics = [f"{THEMES[g % len(THEMES)]}_{g}" for g in range(groups)]
    members: list[list[str]] = [[] for _ in range(groups)]
    decisions: list[list[str]] = [[] for _ in range(groups)]
    made = 0
    rounds = (n + groups - 1) // groups
    with Kenning(path, project=PROJECT, embedder=None, clock=lambda: clock[0]) as k:
        for r in range(rounds):
            items, owners = [], []
            for g in range(groups):
                if made + len(items) >= n:
                    break
                idx = r * groups + g
                theme = THEMES[g % len(THEMES)]
                kind = "decision" if r % 8 == 0 else ("outcome" if r % 8 == 4 else
                                                      rng.choice(["insight", "gotcha", "pattern",
                                                                  "context"]))
                text = (f"{theme} {rng.choice(VERBS)} {THINGS[g % len(THINGS)]} "
                        f"(note {idx}, cluster {g})")
                item: dict[str, Any] = {
                    "text": text, "type": kind, "topic": topics[g],
                    "created_at": SEED_T0 + idx * 60_000,
                    "agent": "claude" if idx % 3 else "codex",
                    "scope": "local" if idx % 17 == 0 else "project",
                }
                links = []
                if kind == "decision" and decisions[g]:
                    item["supersedes"] = decisions[g][-1]
                    item["reason"] = f"round {r} revisited the {theme} choice"
                elif kind == "outcome" and decisions[g]:
                    item["outcome_of"] = decisions[g][-1]
                if members[g] and idx % 29 != 7:  # a few stay isolated
                    for target in rng.sample(members[g], min(2, len(members[g]))):
                        word = rng.choice(["relates_to", "depends_on", "uses"])
                        if idx % 97 == 1:
                            word = SYNONYMS[idx % len(SYNONYMS)]
                        links.append({"to_id": target, "relationship": word,
                                      "reason": f"both about {theme}"})
                if g and r % 5 == 2 and members[g - 1]:
                    links.append({"to_id": rng.choice(members[g - 1]), "relationship":
                                  "relates_to", "reason": "neighbouring clusters"})
                if idx == groups + 3 and members[0]:
                    links.append({"to_id": members[0][0], "relationship": "sketched_beside",
                                  "reason": "a one-off word"})
                if links:
                    item["links"] = links
                items.append(item)
                owners.append((g, kind))
            if not items:
                break
            clock[0] = SEED_T0 + r * 3_600_000
            for m, (g, kind) in zip(k.remember_many(items), owners, strict=True):
                members[g].append(m.id)
                if kind == "decision":
                    decisions[g].append(m.id)
            made += len(items)
        for g in range(0, groups, 3):
            for d in decisions[g][:-1]:
                k.outcome(d, "failed" if g % 2 else "success", f"measured on cluster {g}")
        clock[0] = SEED_T0 + rounds * 3_600_000
        shown = [members[0][0], members[1][0]]  # the prompt hook's injection log
        k.record_events([{
            "id": "seed-injection-1", "session_id": "seed-session", "project": PROJECT,
            "at_ms": clock[0], "kind": "injected",
            "data": {"matched": ["WAL mode"], "memories": [
                {"id": mid, "score": 0.9 - 0.1 * i, "parts": {"keyword": 0.6, "recency": 0.2}}
                for i, mid in enumerate(shown)]},
        }])
        k.consolidate()
        return {"path": path, "n": made, "topics": topics,
                "decisions": decisions, "members": members}


def copy_store(src: Path, dst: Path) -> Path:
    """A private copy of a seeded store (closed stores are checkpointed into one file)."""
    shutil.copyfile(src, dst)
    return dst


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(path: Path, *, allow_writes: bool = False) -> Iterator[str]:
    """The real dashboard (uvicorn) over ``path`` in a thread; yields its base URL."""
    from kenning.web.server import build_server

    k = Kenning(path, project=PROJECT, embedder=None, clock=lambda: LATER)
    port = free_port()
    server = build_server(k, port=port, allow_writes=allow_writes)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # a hang guard, not a speed bound
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("dashboard server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        k.close()
