"""Distilling repeated episodes at consolidation: gotchas of one failure, patterns of one
command and one preference said again become one distilled memory linked to each episode,
and consolidating again changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kenning import Kenning, distil
from kenning.models import Memory
from tests.conftest import Clock

DAY = 86_400_000
SIG = "pytest|AssertionError|test_round_half_even"


@pytest.fixture
def kk(make_kenning: Callable[..., Kenning]) -> Kenning:
    return make_kenning(embedder=None)


def gotcha(k: Kenning, n: int, *, cause: str | None = None, evidence: int = 1,
           confidence: float = 0.75, signature: str = SIG) -> Memory:
    text = f"`pytest -q` failed (run {n}): FAILED tests/test_money.py::test_round_half_even"
    if cause:
        text += f" Cause: {cause}"
    return k.remember(text, type="gotcha", confidence=confidence, metadata={
        "kind": "gotcha", "signature": signature, "cause": cause, "evidence": evidence,
        "command": "pytest -q"})


def distilled_of(k: Kenning) -> list[Memory]:
    return [m for m in k.list(limit=200) if m.metadata.get("distilled") is True]


def test_three_gotchas_of_one_failure_become_one_distilled_memory(kk: Kenning) -> None:
    episodes = [gotcha(kk, 1), gotcha(kk, 2, cause="to_cents truncates.", confidence=0.8),
                gotcha(kk, 3, evidence=2, confidence=0.6)]
    gotcha(kk, 4, signature="pytest|AssertionError|test_other")  # a different failure
    report = kk.consolidate()
    assert (report["distilled"], report["distilled_episodes"]) == (1, 3)
    [d] = distilled_of(kk)
    assert d.type.value == "gotcha" and d.confidence == 0.8
    assert d.content == "Recurring: " + episodes[1].content  # the one that says the cause
    assert d.metadata["evidence"] == 4 and d.metadata["signature"] == SIG
    assert sorted(d.metadata["episodes"]) == sorted(e.id for e in episodes)
    for e in episodes:
        assert kk.get(e.id).metadata["distilled_into"] == d.id
    links = [ln for ln in kk.links(d.id) if ln.metadata.get("distilled")]
    assert sorted(ln.to_id for ln in links) == sorted(e.id for e in episodes)
    assert {ln.relationship for ln in links} == {"derived_from"}
    assert {ln.metadata["canonical"] for ln in links} == {"inspired_by"}


def test_consolidating_twice_changes_nothing_then_a_new_episode_joins(
        kk: Kenning, clock: Clock) -> None:
    for n in range(3):
        gotcha(kk, n)
    kk.consolidate()
    before = {m.id: (m.content, m.metadata, m.updated_at) for m in kk.list(limit=200)}
    links = {m: [ln.id for ln in kk.links(m)] for m in before}
    again = kk.consolidate()
    assert (again["distilled"], again["distilled_updated"], again["distilled_episodes"]) == \
        (0, 0, 0)
    assert {m.id: (m.content, m.metadata, m.updated_at) for m in kk.list(limit=200)} == before
    assert {m: [ln.id for ln in kk.links(m)] for m in before} == links
    clock.advance(DAY)
    late = gotcha(kk, 9)
    report = kk.consolidate()
    assert (report["distilled"], report["distilled_updated"]) == (0, 1)
    [d] = distilled_of(kk)
    assert d.metadata["evidence"] == 4 and kk.get(late.id).metadata["distilled_into"] == d.id


def test_patterns_of_one_command_and_a_repeated_preference_are_distilled(kk: Kenning) -> None:
    for n, said in enumerate(("worked", "worked again", "passed in CI")):
        kk.remember(f"Project test command: `pnpm test` ({said})", type="pattern",
                    metadata={"command": "pnpm  test", "kind": "pattern"})
        kk.remember(f'User preference: use pnpm, not npm (correction: "no, use pnpm {n}")',
                    type="preference", confidence=0.7 + n / 100,
                    metadata={"tool": "pnpm", "avoid": None, "kind": "preference"})
    kk.remember("Project lint command: `pnpm lint`", type="pattern",
                metadata={"command": "pnpm lint"})
    report = kk.consolidate()
    assert report["distilled"] == 2
    by_type = {m.type.value: m for m in distilled_of(kk)}
    assert set(by_type) == {"pattern", "preference"}
    assert by_type["pattern"].metadata["command"] == "pnpm  test"
    assert by_type["preference"].confidence == pytest.approx(0.72)


def test_two_repeats_are_not_enough_and_the_plan_is_pure(kk: Kenning) -> None:
    gotcha(kk, 1)
    gotcha(kk, 2)
    memories = kk.list(limit=50)
    assert distil.plan(memories) == []
    [planned] = distil.plan(memories, min_group=2)
    assert planned.memory_id is None and planned.metadata["evidence"] == 2
    assert kk.consolidate()["distilled"] == 0 and distilled_of(kk) == []


def test_pruning_keeps_the_links_of_a_distilled_memory(kk: Kenning, clock: Clock) -> None:
    for n in range(3):
        gotcha(kk, n)
    kk.consolidate()
    [d] = distilled_of(kk)
    clock.advance(120 * DAY)  # long past the decay of any automatic association link
    kk.consolidate()
    assert len([ln for ln in kk.links(d.id) if ln.metadata.get("distilled")]) == 3


def session(k: Kenning, sid: str, memory_id: str, at: int, *, passed: bool,
            suite: str = "pytest") -> None:
    """What the hooks journal in one session: the memory injected, then a test run."""
    k.record_events([
        {"id": f"{sid}-i", "session_id": sid, "project": k.project, "at_ms": at,
         "kind": "injected", "data": {"memories": [{"id": memory_id, "score": 1.0,
                                                    "parts": {}}]}},
        {"id": f"{sid}-t", "session_id": sid, "project": k.project, "at_ms": at + 1000,
         "kind": "tool", "data": {"tool": "Bash", "cmd": f"{suite} -q", "ok": passed,
                                  "suite": suite}},
    ])
    k.learn_from_session(sid)


def track_records(k: Kenning) -> list[Memory]:
    return [m for m in distilled_of(k) if m.type.value == "outcome"]


def test_completed_trajectories_are_distilled_into_a_track_record(kk: Kenning,
                                                                  clock: Clock) -> None:
    rule = kk.remember("Round money half-even with Decimal.quantize", type="decision",
                       topic="money_rounding", confidence=0.7)
    for n, suite in enumerate(("make test", "pytest")):  # the project changed its command
        session(kk, f"s{n}", rule.id, clock() + n * DAY, passed=True, suite=suite)
    kk.consolidate()
    assert track_records(kk) == []  # two sessions are not a track record yet
    session(kk, "s2", rule.id, clock() + 2 * DAY, passed=True)
    counts = kk.consolidate()
    (record,) = track_records(kk)
    assert counts["track_records"] == 1 and record.outcome is not None
    assert record.outcome.value == "success" and record.metadata["evidence"] == 3
    # the checks by kind: the commands change, the record stays true
    assert "held up in 3 of 3 sessions that used it (tests passed afterwards)" in (
        record.content)
    assert record.metadata["checks"] == ["make test", "pytest"]
    assert [ln.relationship for ln in kk.links(rule.id) if ln.from_id == record.id] == [
        "outcome_of"]
    assert "distilled_into" not in kk.get(rule.id).metadata  # still the memory delivery shows
    (entry,) = [e for e in kk.why("money_rounding") if e.memory.id == rule.id]
    assert record.id in {o.id for o in entry.outcomes}  # "why" shows how it held up

    assert kk.consolidate()["track_records"] == 0  # nothing new: nothing changes
    session(kk, "s3", rule.id, clock() + 3 * DAY, passed=False)
    kk.consolidate()
    (again,) = track_records(kk)
    assert again.id == record.id and again.outcome is not None
    assert again.outcome.value == "partial" and again.metadata["evidence"] == 4
    assert "checks failed afterwards in 1 of 4 (tests)" in again.content


def test_what_a_commit_fixed_gets_no_track_record(kk: Kenning, clock: Clock) -> None:
    """"Fixed: ... (in `route.ts`)" is what a commit did: sessions that touched its files
    later say nothing about whether it "held up"."""
    fix = kk.remember("Fixed: return 400 for signup bodies without shiftId (in "
                      "`src/app/api/signups/route.ts`)", type="insight",
                      metadata={"kind": "fix", "extracted": True})
    for n in range(4):
        session(kk, f"s{n}", fix.id, clock() + n * DAY, passed=True)
    kk.consolidate()
    assert track_records(kk) == []


def test_the_briefing_shows_a_rule_not_its_track_record_as_well(kk: Kenning,
                                                                clock: Clock) -> None:
    """A track record repeats the rule's words: the briefing that lists the rule in force does
    not spend a line on its record too, and gives the line to another memory."""
    rule = kk.remember("Log through structlog, never print()", type="preference",
                       confidence=0.7)
    for n in range(3):
        session(kk, f"s{n}", rule.id, clock() + n * DAY, passed=True)
    kk.consolidate()
    (record,) = track_records(kk)
    fact = kk.remember("The orders API lives in src/orderdesk/api/orders.py", type="context")
    text = kk.briefing(k=1)
    assert rule.id in text and fact.id in text and record.id not in text


def test_the_briefing_shows_no_track_record_beside_its_memory_or_of_one_that_changed(
        kk: Kenning, clock: Clock) -> None:
    """Not only a rule in force: a decision the briefing lists keeps its track record out, and
    a track record of a memory whose code changed since is not shown as if it held."""
    from kenning.models import Anchor

    decision = kk.remember("Put order reads behind a Redis read-through cache with a 300 s TTL",
                           type="decision", confidence=0.9)
    place = kk.remember("Config plumbing is in internal/config/config.go, read from "
                        "~/.shipctl.yaml", type="discovery", confidence=0.3)
    for n in range(3):
        session(kk, f"s{n}", decision.id, clock() + n * DAY, passed=True)
        session(kk, f"p{n}", place.id, clock() + n * DAY, passed=True)
    kk.consolidate()
    records = {str(m.metadata["subject"]): m for m in track_records(kk)}
    assert set(records) == {decision.id, place.id}
    kk.store.set_anchors({place.id: [Anchor(place.id, "internal/config/config.go", "Init",
                                            "f", None, "1:1", "stale", "Init changed")]})
    text = kk.briefing(k=3)
    assert decision.id in text and records[decision.id].id not in text
    assert records[place.id].id not in text


def test_a_gotchas_track_record_says_its_cause_and_fix(kk: Kenning, clock: Clock) -> None:
    """A gotcha's summary opens with its error and a long one is cut before the cause: the track
    record says the failure, the cause and the fix, the part that held up."""
    error = ("--- FAIL: TestCachedStoreConcurrent: testing.go:1398: race detected during "
             "execution of test")
    cause = ("make test runs go test -race, and two requests for the same order read and write "
             "the cache's plain map at the same time; Go maps aren't safe for concurrent use.")
    gotcha = kk.remember(f"Tests failed: {error}. Cause: {cause}", type="gotcha",
                         confidence=0.7, metadata={"error": error, "cause": cause,
                                                   "fix": "guard the map with a sync.RWMutex"})
    assert "concurrent use" not in gotcha.summary  # cut before the point
    for n in range(3):
        session(kk, f"s{n}", gotcha.id, clock() + n * DAY, passed=True)
    kk.consolidate()
    (record,) = track_records(kk)
    assert record.content.startswith("Track record: --- FAIL: TestCachedStoreConcurrent")
    assert "Go maps aren't safe for concurrent use. Fix: guard the map with a sync.RWMutex — " \
        "held up in 3 of 3 sessions" in record.content


def test_the_briefing_does_not_repeat_a_memory_whose_track_record_memory_md_lists(
        kk: Kenning, clock: Clock) -> None:
    """MEMORY.md lists the track record of a fix (its line says the fix's words and how it
    held up): the session-start briefing does not show the fix again, and counts it among the
    memories the model has."""
    from kenning.journal.seen import key

    fix = kk.remember("Fixed: enforce shift capacity in a serializable transaction",
                      type="insight", confidence=0.6)
    for n in range(3):
        session(kk, f"s{n}", fix.id, clock() + n * DAY, passed=True)
    kk.consolidate()
    (record,) = track_records(kk)
    assert fix.id in kk.briefing(k=5)
    brief = kk._sessions().brief(5, 2400, {key(record.summary)})
    assert fix.id not in brief.text and record.id not in brief.text
    assert {m.id for m in brief.known} == {record.id, fix.id}


def test_a_track_record_ends_with_the_memory_it_tracks(kk: Kenning, clock: Clock) -> None:
    rule = kk.remember("Round money half-even with Decimal.quantize", type="decision",
                       topic="money_rounding", confidence=0.7)
    for n in range(3):
        session(kk, f"s{n}", rule.id, clock() + n * DAY, passed=True)
    kk.consolidate()
    (record,) = track_records(kk)
    other = kk.remember("Logs go through structlog", type="preference")
    clock.advance(4 * DAY)
    newer = kk.remember("Round money half-up, as the tax office does", type="decision",
                        topic="money_rounding")
    kk.supersede(newer.id, rule.id, "the tax office rounds half-up")
    now = kk.clock()
    assert not kk.get(record.id).current_at(now)  # it would show the replaced rule as current
    assert kk.get(record.id).superseded_by == newer.id
    assert kk.get(other.id).current_at(now)


def test_a_kept_user_turn_gets_no_track_record(kk: Kenning, clock: Clock) -> None:
    turn = kk.remember("let's keep paging dumb: limit and offset query params",
                       type="context", topic="conversation")
    for n in range(3):
        session(kk, f"s{n}", turn.id, clock() + n * DAY, passed=True)
    kk.consolidate()
    assert track_records(kk) == []  # what was said is history, not a rule that held up


def test_a_project_command_gets_no_track_record(kk: Kenning, clock: Clock) -> None:
    """A test command is judged by the checks that follow it, which are its own runs: its
    record would only say that it passed when it passed."""
    command = kk.remember("Project test command: `make test` (worked in a session)",
                          type="pattern", metadata={"command": "make test"})
    rule = kk.remember("Always thread r.Context() into the store calls", type="preference")
    for n in range(3):
        session(kk, f"s{n}", command.id, clock() + n * DAY, passed=True)
        session(kk, f"t{n}", rule.id, clock() + n * DAY, passed=True)
    kk.consolidate()
    assert [r.metadata["subject"] for r in track_records(kk)] == [rule.id]


def test_the_user_turn_that_stated_a_replaced_rule_ends_with_it(kk: Kenning) -> None:
    said = "let's keep paging dumb: limit and offset query params, the app thinks in pages"
    where = {"via": "transcript", "session_id": "s-1", "lines": [4]}
    turn = kk.remember(said, type="context", topic="conversation",
                       metadata={"episode": "user turn", "session_id": "s-1", "line": 4})
    other = kk.remember("and the refunds table needs an index on customer_id please",
                        type="context", topic="conversation",
                        metadata={"episode": "user turn", "session_id": "s-1", "line": 9})
    rule = kk.remember("Page with limit and offset query params", type="decision",
                       metadata={"provenance": where})
    newer = kk.remember("Page with a keyset cursor on (created_at, id); OFFSET is gone",
                        type="decision")
    kk.supersede(newer.id, rule.id, "offset paging skipped rows under writes")
    now = kk.clock()
    assert kk.get(turn.id).superseded_by == newer.id  # never injected as current again
    assert kk.get(other.id).current_at(now)  # another turn of that session stays


def test_a_replaced_memory_gets_no_new_track_record(kk: Kenning, clock: Clock) -> None:
    rule = kk.remember("Round money half-even with Decimal.quantize", type="decision",
                       topic="money_rounding", confidence=0.7)
    for n in range(3):
        session(kk, f"s{n}", rule.id, clock() + n * DAY, passed=True)
    newer = kk.remember("Round money half-up, as the tax office does", type="decision",
                        topic="money_rounding")
    kk.supersede(newer.id, rule.id, "the tax office rounds half-up")
    kk.consolidate()  # the sessions were judged before the change, consolidated after it
    assert [m for m in track_records(kk) if m.current_at(kk.clock())] == []


def test_a_gotcha_cut_before_its_fix_brings_the_fix_to_the_briefing(kk: Kenning) -> None:
    """The briefing shows a memory's one-line summary; for a gotcha whose summary ends before
    the fix its content gives, the line ends with the fix, so the model reads the remedy and
    not only the old way that failed."""
    cause = ("It's the mmap: copytruncate shrinks the file while it is mapped, and touching a "
             "mapped page past the new end raises SIGBUS, which kills the process outright "
             "with no error message at all.")
    gotcha = kk.remember(f"{cause} Fix: Revert memmap2 and go back to streaming with "
                         "`BufReader::with_capacity(64 * 1024)`.", type="gotcha",
                         confidence=0.8)
    assert "BufReader" not in gotcha.summary
    [line] = [ln for ln in kk.briefing(k=3).splitlines() if gotcha.id in ln]
    assert "Fix: Revert memmap2 and go back to streaming with `BufReader::with_capacity(64 * " \
           "1024)`." in line
