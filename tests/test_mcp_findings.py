"""Multi-agent findings (ADR-048 §7, M10): semantic de-duplication with source attribution, in
one process and in two processes at once; SubagentStop payloads."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.errors import ValidationError

SAME = ("The auth tests fail in CI because the JWT_SECRET environment variable is not set",
        "Auth tests are failing on CI since the JWT_SECRET env var is not set")
OTHER = "The checkout page renders twice because of a missing React key"


def test_two_agents_same_finding_in_other_words_is_one_memory(k: Kenning) -> None:
    a = k.record_finding(SAME[0], source="agent:tester", confidence=0.7)
    b = k.record_finding(SAME[1], source="swarm:s7:reviewer", confidence=0.6)
    assert a.is_new and not b.is_new and b.id == a.id
    assert b.metadata["sources"] == ["agent:tester", "swarm:s7:reviewer"]
    assert b.confidence == pytest.approx(0.75)  # corroborated by an independent source
    again = k.record_finding(SAME[1], source="swarm:s7:reviewer")
    assert again.metadata["sources"] == ["agent:tester", "swarm:s7:reviewer"]
    assert again.confidence == pytest.approx(0.75)  # the same source twice adds nothing
    c = k.record_finding(OTHER, source="agent:tester")
    assert c.is_new and c.id != a.id
    assert k.count() == 2


def test_bad_sources_are_refused_and_write_nothing(k: Kenning) -> None:
    for bad in ("", "   ", "swarm:only-id", "../../etc", "agent:x y", None, 5):
        with pytest.raises(ValidationError):
            k.record_finding(SAME[0], source=bad)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        k.record_finding("", source="agent:x")
    assert k.count() == 0


def test_spec_scoped_findings_do_not_merge_across_specs(k: Kenning) -> None:
    a = k.record_finding(SAME[0], source="agent:a", spec="spec-001")
    b = k.record_finding(SAME[1], source="agent:b", spec="spec-002")
    assert b.id != a.id and b.metadata["spec"] == "spec-002"


def test_subagent_stop_payload_becomes_an_attributed_finding(k: Kenning) -> None:
    payload = {
        "session_id": "5764c944", "hook_event_name": "SubagentStop", "agent_id": "a1b2",
        "agent_type": "code-reviewer", "agent_transcript_path": "/tmp/x/subagents/agent-a1.jsonl",
        "last_assistant_message": SAME[0], "stop_hook_active": False,
    }
    m = k.record_subagent_stop(payload)
    assert m is not None and m.metadata["sources"] == ["agent:code-reviewer"]
    assert m.agent == "code-reviewer" and m.metadata["agent_id"] == "a1b2"
    swarm = k.record_subagent_stop({**payload, "agent_type": "tester",
                                    "last_assistant_message": SAME[1]}, swarm="s9")
    assert swarm is not None and swarm.id == m.id
    assert swarm.metadata["sources"] == ["agent:code-reviewer", "swarm:s9:tester"]
    assert k.record_subagent_stop({**payload, "agent_type": ""}) is None  # compaction
    assert k.record_subagent_stop({**payload, "last_assistant_message": "done"}) is None


DST_REPORT = (
    "Traced the report path. daily_means in src/tidepool/transform.py resamples the UTC `ts` "
    "index with resample('1D'), so each 'day' runs from 00:00 to 24:00 UTC. For BOST "
    "(America/New_York) that is 20:00 EDT the previous evening to 20:00 EDT, so the 30 March "
    "mean mixes four hours of 29 March. Every station not on UTC is shifted the same way. Fix: "
    "convert each station's series to its zone from STATIONS before resampling and label the "
    "bucket with the local date; stored ts stays UTC. Nothing else aggregates by day.")


def test_a_reports_summary_is_its_finding_and_its_fix(k: Kenning) -> None:
    """What the model is shown of a report is its summary: the finding, not the opening that
    says what the agent did, and the fix the report ends on."""
    m = k.record_subagent_stop({"session_id": "s1", "agent_id": "a1", "agent_type": "Explore",
                                "last_assistant_message": DST_REPORT})
    assert m is not None and m.content == DST_REPORT
    assert m.summary == (
        "daily_means in src/tidepool/transform.py resamples the UTC `ts` index with "
        "resample('1D'), so each 'day' runs from 00:00 to 24:00 UTC. Fix: convert each "
        "station's series to its zone from STATIONS before resampling and label the bucket "
        "with the local date; stored ts stays UTC.")
    plain = k.record_subagent_stop({"session_id": "s1", "agent_id": "a2", "agent_type": "Explore",
                                    "last_assistant_message": "Searched the repo. Nothing in "
                                    "ordersvc writes 'shipped'; the fulfilment worker does."})
    assert plain is not None
    assert plain.summary == "Nothing in ordersvc writes 'shipped'; the fulfilment worker does."


WORKER = """
import sys, time
from pathlib import Path
from kenning import Kenning
db, text, source, ready, go = sys.argv[1:6]
with Kenning(db, project="p") as k:
    k.embedder.embed(["warm up"])
    Path(ready).touch()
    while not Path(go).exists():
        time.sleep(0.002)
    m = k.record_finding(text, source=source)
    print(m.id)
"""


def test_two_processes_at_once_yield_one_memory_with_both_sources(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    with Kenning(db, project="p") as k:
        k.remember("Unrelated: the logo is an SVG", type="insight")
    go = tmp_path / "go"
    ready = [tmp_path / f"ready-{n}" for n in range(2)]
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(db), text, source,
                               str(ready[n]), str(go)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for n, (text, source) in enumerate(zip(SAME, ("agent:tester", "swarm:s1:reviewer"),
                                                    strict=True))]
    deadline = time.monotonic() + 120
    while not all(r.exists() for r in ready):  # both loaded: now start them together
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs)
        time.sleep(0.01)
    go.touch()
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e for _, e in outs]
    ids = {o.strip() for o, _ in outs}
    assert len(ids) == 1
    with Kenning(db, project="p", embedder=None) as k:
        m = k.get(ids.pop())
        assert sorted(m.metadata["sources"]) == ["agent:tester", "swarm:s1:reviewer"]
        assert k.count() == 2
        assert json.dumps(m.metadata)  # plain JSON
