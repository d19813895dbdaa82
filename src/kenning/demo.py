"""``kenning demo``: a decision, its implementation, a failure, the decision that replaced it,
and recall that finds them, on a throwaway store."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kenning.facade import Kenning
from kenning.times import now_ms

DAY = 86_400_000


def run_demo(
    db: str | os.PathLike[str] | None = None, echo: Callable[[str], None] | None = print
) -> dict[str, Any]:
    """Run the story; returns what happened (ids, recall results, timings) for ``--json``."""
    say = echo or (lambda _line: None)
    started = time.perf_counter()
    tmp: str | None = None
    if db:
        path = Path(db)
    else:
        tmp = tempfile.mkdtemp(prefix="kenning-demo-")
        path = Path(tmp) / "demo.db"
    report: dict[str, Any] = {"store": str(path), "steps": []}
    try:
        with Kenning(path, project="kenning-demo") as k:
            engine = k.embedder.id if k.embedder else "keyword only (no model installed)"
            say(f"Kenning demo: throwaway store at {path}")
            say(f"embedder: {engine}\n")
            t0 = now_ms() - 30 * DAY

            def step(title: str, **kw: Any) -> Any:
                m = k.remember(kw.pop("text"), **kw)
                say(f"  remembered {m.type.value:<10} {m.id}  {m.summary}")
                report["steps"].append({"step": title, "id": m.id, "type": m.type.value})
                return m

            say("1. The team decides how to do auth")
            jwt = step("decision", text="Use JWT for auth: stateless tokens scale across "
                       "services without a session store", type="decision",
                       topic="auth_strategy", created_at=t0, confidence=0.8, tags=["auth"])
            say("2. It gets built")
            step("implementation", text="Implemented JWT auth in auth.ts with a 15 minute "
                 "access token and a refresh endpoint", type="checkpoint",
                 topic="auth_strategy", created_at=t0 + 2 * DAY, implements=jwt.id)
            say("3. It fails in production (and a secret slips into the notes)")
            failure = step("failure", text="Token refresh took 900 ms under load; users were "
                           "logged out mid-session. Debug with "
                           "AUTH_SECRET=sk_live_51HdemoDEMOdemoDEMOdemo00 set locally.",
                           type="outcome", topic="auth_strategy", created_at=t0 + 9 * DAY,
                           outcome_of=jwt.id)
            k.outcome(jwt.id, "failed", "performance issues with token refresh")
            say(f"  marked {jwt.id} as failed; the secret was stored as: "
                f"{k.get(failure.id).content.split('with ')[-1]}")
            say("4. A new decision supersedes the old one")
            sess = step("superseding decision", text="Switch to server-side sessions in Redis "
                        "instead of JWT: refresh latency was hurting users", type="decision",
                        topic="auth_strategy", created_at=t0 + 10 * DAY, confidence=0.9,
                        supersedes=jwt.id, reason="token refresh too slow")
            k.link(sess.id, failure.id, "motivated by")
            step("unrelated", text="CI runs pytest with -x and caches the pip wheel directory",
                 type="pattern", topic="ci", created_at=t0 + 11 * DAY)
            step("unrelated", text="Prefer pnpm over npm in this repo", type="preference",
                 created_at=t0 + 12 * DAY)

            say("\n5. Later, someone asks")
            report["recall"] = []
            for query in ("why did we move away from JWT?", "how do we keep users logged in?"):
                hits = k.recall(query, k=3, explain=True)
                say(f'  recall "{query}"')
                for h in hits:
                    outcome = f" [{h.memory.outcome.value}]" if h.memory.outcome else ""
                    say(f"    {h.score:.3f}  {h.memory.type.value:<10} {h.memory.summary[:70]}"
                        f"{outcome}")
                report["recall"].append(
                    {"query": query, "hits": [{"id": h.memory.id, "score": round(h.score, 4),
                                               "summary": h.memory.summary} for h in hits]}
                )
            say('\n6. "Why did we decide auth_strategy?" (the evolution chain, newest first)')
            chain = k.why("auth_strategy")
            for e in chain:
                m = e.memory
                status = f" [{m.outcome.value}: {m.outcome_reason}]" if m.outcome else ""
                say(f"    {m.summary[:60]}{status}")
                for rel, _target, reason in e.evolves:
                    say(f"      {rel} the earlier decision ({reason})")
                for o in e.outcomes:
                    say(f"      outcome: {o.summary[:60]}")
            report["why"] = [e.to_dict() for e in chain]
            graph = k.consolidate()
            links = k.links(jwt.id)
            say(f"\n7. The graph: {graph['links']} links ("
                + ", ".join(sorted({f"{ln.relationship}" for ln in links}))
                + f" on the JWT decision), {graph['communities']} communities")
            report["links"] = [ln.to_dict() for ln in links]
            report["memories"] = k.count()
            report["redactions"] = k.status()["redactions"]
        report["seconds"] = round(time.perf_counter() - started, 3)
        say(f"\nDone in {report['seconds']:.1f} s: {report['memories']} memories, "
            f"{report['redactions']} secret redacted.")
        return report
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
