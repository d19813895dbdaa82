"""What reaches the model across one conversation, through the real hook processes: the rules
in force at session start whatever the prompt, nothing stale, and nothing twice (briefing,
MEMORY.md and each prompt's injection never repeat one another within a conversation)."""
# ruff: noqa: F811  (pytest fixtures come from tests.test_hooks)

from __future__ import annotations

import json
from pathlib import Path

from kenning import Kenning, journal
from kenning import weights as W
from kenning.places.keys import project_key
from kenning.places.lean import journal_dir
from tests.test_hooks import context_of, env, errors, hook, payload, project  # noqa: F401

LEDGER = ("The billing ledger uses PostgreSQL with SERIALIZABLE isolation so concurrent "
          "charges cannot double-book")


def _store(env: dict[str, str], project: Path) -> Kenning:
    return Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                   embedder=None)


def _start(env: dict[str, str], project: Path, session: str, source: str = "startup") -> str:
    out = hook("SessionStart", payload("SessionStart", project, session_id=session,
                                       source=source), env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"] if out.stdout else ""


def _ask(env: dict[str, str], project: Path, session: str, prompt: str) -> str:
    return context_of(hook("UserPromptSubmit", payload("UserPromptSubmit", project,
                                                        session_id=session, prompt=prompt), env))


def test_the_rules_in_force_open_every_session_whatever_the_prompt(env, project) -> None:
    with _store(env, project) as k:
        old = k.remember("Use pnpm for installs", type="preference")
        new = k.remember("Use bun for installs and scripts", type="preference")
        k.supersede(new.id, old.id, reason="the team moved to bun")
        k.remember("Name feature branches feat/<ticket>", type="pattern")
        failed = k.remember("Cache order totals in Redis", type="decision")
        k.outcome(failed.id, "failed", "stale totals")
        k.remember("Session insight (s-0): morning! the navbar is broken", type="session")
    brief = _start(env, project, "s-1")
    rules = brief.split("Rules in force for this project:")[1]
    assert "Use bun for installs and scripts" in rules and "feat/<ticket>" in rules
    assert "pnpm" not in brief  # superseded: not in force
    assert "Redis" not in brief  # failed: not in force
    assert "morning" not in brief  # a record of a session, not a lesson


def test_nothing_is_shown_twice_in_one_conversation(env, project) -> None:
    with _store(env, project) as k:
        decision = k.remember(LEDGER, type="decision", topic="ledger_db")
        note = k.remember("Ledger isolation was raised after the March double-charge incident",
                          type="insight")
    brief = _start(env, project, "s-1")
    assert decision.id in brief and note.id in brief
    # the briefing already gave both: the prompt adds nothing
    assert _ask(env, project, "s-1", "which isolation does the billing ledger use?") == ""
    with _store(env, project) as k:  # something new arrives mid-conversation
        fresh = k.remember("Ledger writes retry twice on serialization failures",
                           type="pattern")
    first = _ask(env, project, "s-1", "how do ledger writes handle serialization conflicts?")
    assert fresh.id in first and decision.id not in first
    assert _ask(env, project, "s-1", "ledger serialization failures again?") == ""  # once
    # another conversation sees them again; so does this one after a compaction, from its
    # new briefing
    assert LEDGER in _ask(env, project, "s-2", "which isolation does the billing ledger use?")
    # what bore on a prompt is journalled even when the model already had it, marked so
    lines = (Path(journal_dir(env["KENNING_DB"])) / journal.FILE).read_text().splitlines()
    injected = [json.loads(x)["data"] for x in lines if '"injected"' in x]
    prompted = [d for d in injected if not d.get("channel")]  # not the start's record
    assert any(m["id"] == decision.id and m.get("seen") for m in prompted[0]["memories"])
    assert any(d.get("channel") == "start" and decision.id in {m["id"] for m in d["memories"]}
               for d in injected)  # what the briefing showed, for learning
    again = _start(env, project, "s-1", source="compact")
    assert fresh.id in again and decision.id in again
    assert not errors(env)


def test_what_memory_md_holds_is_not_injected_again(env, project) -> None:
    with _store(env, project) as k:
        k.remember(LEDGER, type="decision", topic="ledger_db")
    memdir = (Path(env["HOME"]) / ".claude" / "projects"
              / project_key(str(project.resolve())) / "memory")
    memdir.mkdir(parents=True, exist_ok=True)
    (memdir / "MEMORY.md").write_text(f"# Notes\n- {LEDGER}\n")  # a person wrote it
    brief = _start(env, project, "s-1")
    assert LEDGER not in brief  # the client loads MEMORY.md itself
    assert _ask(env, project, "s-1", "which isolation does the billing ledger use?") == ""


def test_the_best_match_brings_its_detail_within_the_budget(env, project) -> None:
    """A decision whose one line is already known arrives with what it says beyond it (the why,
    how to apply it), weaker matches as one line, never past the budget."""
    why = ("Why: two workers charged the same invoice in March. How to apply: open ledger "
           "transactions with ledger.db.serializable() and retry on SerializationFailure.")
    with _store(env, project) as k:
        decision = k.remember(f"{LEDGER}. {why}", summary=LEDGER, type="decision",
                              topic="ledger_db")
        for i in range(12):
            k.remember(f"Ledger report {i} lists the daily billing totals by currency "
                       f"{'and region ' * i}", type="context")
        k.build_prompt_index()
    text = _ask(env, project, "s-1", "how should the billing ledger isolate concurrent writes?")
    lines = text.splitlines()
    first = lines.index(next(ln for ln in lines if decision.id in ln))
    assert lines[first + 1].startswith("  Why: two workers charged")  # its detail, indented
    assert "serializable()" in lines[first + 1]
    assert len(text) <= 1500 and sum(ln.startswith("  ") for ln in lines) <= 2
    small = dict(env, KENNING_HOOKS_MAX_CHARS="600")
    tight = context_of(hook("UserPromptSubmit", payload(
        "UserPromptSubmit", project, session_id="s-2",
        prompt="how should the billing ledger isolate concurrent writes?"), small))
    assert decision.id in tight and len(tight) <= 600
    last = tight.splitlines()[-1]
    assert last.startswith("(+") and "more" in last  # more exists, said in one line


def test_a_known_line_comes_back_once_with_the_detail_it_lacked(env, project) -> None:
    """MEMORY.md gave the decision's one line; a prompt it bears on gets its detail (once),
    a memory whose line says it all is not repeated."""
    why = "Why: two workers charged one invoice twice in March; use ledger.db.serializable()."
    with _store(env, project) as k:
        decision = k.remember(f"{LEDGER}. {why}", summary=LEDGER, type="decision")
        plain = k.remember("Ledger isolation was raised after the March double-charge incident",
                           type="insight")
        # a rule whose detail is the user's sentence saying the same thing again
        rule = k.remember("Ledger amounts are integer cents, never floats.\n(as the user put "
                          "it: \"also, house rule: ledger amounts are integer cents, never "
                          "floats.\")", type="preference")
        k.build_prompt_index()
    memdir = (Path(env["HOME"]) / ".claude" / "projects"
              / project_key(str(project.resolve())) / "memory")
    memdir.mkdir(parents=True, exist_ok=True)
    (memdir / "MEMORY.md").write_text(f"# Notes\n- {LEDGER}\n- {plain.summary}\n- "
                                      f"{rule.summary}\n")
    _start(env, project, "s-1")
    first = _ask(env, project, "s-1", "which isolation does the billing ledger use?")
    assert decision.id in first and why in first and plain.id not in first
    assert _ask(env, project, "s-1", "billing ledger isolation once more?") == ""
    assert rule.id not in _ask(env, project, "s-1", "are ledger amounts integer cents?")


def test_a_line_cut_in_memory_md_comes_back_with_what_was_cut(env, project) -> None:
    """A long gotcha's MEMORY.md line ends before its fix: a prompt it bears on gets it whole,
    though its content adds little beyond the summary."""
    text = ("Tests failed: AssertionError: expected 201 to be 400 // Object.is equality. Fix: "
            "`src/app/api/signups/route.ts`: added `if (typeof shiftId !== \"string\") { return "
            "NextResponse.json({ error: \"shiftId is required\" }, { status: 400 }) }`; then it "
            "passed.")
    with _store(env, project) as k:
        gotcha = k.remember(text, type="gotcha")
        k.build_prompt_index()
    memdir = (Path(env["HOME"]) / ".claude" / "projects"
              / project_key(str(project.resolve())) / "memory")
    memdir.mkdir(parents=True, exist_ok=True)
    (memdir / "MEMORY.md").write_text(f"# Notes\n- [Gotcha](g.md) — {gotcha.summary[:130]}…\n")
    _start(env, project, "s-1")
    shown = _ask(env, project, "s-1", "the signups route returns 201 for a body without "
                 "shiftId, why?")
    assert gotcha.id in shown and 'is required" }, { status: 400 }' in shown


def test_a_prompt_in_other_words_reaches_the_memory_by_meaning(env, project) -> None:
    with _store(env, project) as k:
        k.remember("Customer records are soft-deleted: set deleted_at, never DELETE the row",
                   type="decision", topic="gdpr")
        k.remember("Deployments go out through scripts/ship.sh after the smoke suite",
                   type="pattern")
        k.remember("Tidepool station metadata is kept in stations.py", type="insight")
        k.build_prompt_index()
    # the index path: no prompt word is in the memories, the model's neighbours bridge them
    client = _ask(env, project, "s-1", "how do we remove a client from the system?")
    assert "deleted_at" in client and "ship.sh" not in client
    deploy = _ask(env, project, "s-2", "can you deploy this?")
    assert "scripts/ship.sh" in deploy and "deleted_at" not in deploy
    # "deployed" and "stationed" are close in one sense only: not near enough to match
    assert "stations.py" not in deploy
    assert not errors(env)


def test_a_kept_user_turn_is_not_reached_by_words_near_in_meaning_alone(env, project) -> None:
    with _store(env, project) as k:
        k.remember("can you look at why the customer import failed last night", type="context",
                   topic=W.EPISODE_TOPIC)
        k.build_prompt_index()
    assert _ask(env, project, "s-1", "any client import failure this morning?") == ""
    assert "customer import" in _ask(env, project, "s-2", "the customer import failed again")


def test_the_header_explaining_the_lines_is_given_once_per_conversation(env, project) -> None:
    with _store(env, project) as k:
        k.remember("Ledger writes retry twice on serialization failures", type="pattern")
        k.remember("Invoices are numbered per year: INV-2026-000123", type="decision")
        k.build_prompt_index()
    first = _ask(env, project, "s-1", "how do ledger writes handle failures?")
    assert first.startswith("Kenning memory: what this project learned") and "`get`" in first
    second = _ask(env, project, "s-1", "how are invoices numbered?")
    assert second.startswith("Kenning memory:\n") and "INV-2026" in second
    _start(env, project, "s-1", source="compact")  # the conversation forgot the header
    with _store(env, project) as k:
        k.remember("Credit notes reuse the invoice's number with a -CN suffix", type="decision")
    again = _ask(env, project, "s-1", "what number does a credit note get?")
    assert again.startswith("Kenning memory: what this project learned") and "-CN" in again


def test_a_prompt_gets_the_lesson_not_its_track_record(env, project) -> None:
    """A track record repeats its memory's words: the prompt gets the memory (with its marker
    when it no longer holds), never the record beside or instead of it."""
    with _store(env, project) as k:
        cache = k.remember("Put order reads behind a Redis read-through cache with a 300 s TTL",
                           type="decision")
        record = k.remember(f"Track record: {cache.summary} — held up in 2 of 3 sessions that "
                            "used it", type="outcome", metadata={"distilled": True,
                                                                 "subject": cache.id})
        k.build_prompt_index()
    text = _ask(env, project, "s-1", "should order reads go through the Redis cache?")
    assert cache.id in text and record.id not in text
    with _store(env, project) as k:  # a write since the index: the store answers, alike
        k.remember("Invoices are numbered per year", type="decision")
    text = _ask(env, project, "s-2", "should order reads go through the Redis cache?")
    assert cache.id in text and record.id not in text
