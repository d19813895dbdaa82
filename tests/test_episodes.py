"""Episodes: what the user said is kept (redacted) as low-weight memories that recall and the
prompt hook can find when no rule captured it, never ahead of a learned memory, never in the
briefing or MEMORY.md, and pruned by age and count. End to end through ``kenning-hook``."""
# ruff: noqa: F811  (pytest fixtures come from tests.test_hooks)

from __future__ import annotations

import json
from pathlib import Path

from kenning import Kenning
from kenning.episodes import EpisodeOptions, chunks, episode_items, prune_plan
from kenning.places.keys import project_key
from kenning.weights import DAY_MS, EPISODE_TOPIC
from tests.mcp_fixtures import TranscriptWriter
from tests.test_hooks import env, hook, payload, project  # noqa: F401

SAID = ("morning! quick context before we start: the staging database is called orders_stg "
        "and ops wipe it every sunday night, so never keep fixtures you care about in there.")
CHITCHAT = "thanks, looks great!"
SECRET = "the deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 btw"


def test_a_turn_becomes_runs_of_sentences_without_the_greetings() -> None:
    parts = chunks(SAID + " " + "x " * 10 + "Also the read replica lags about two seconds "
                   "behind the primary during the nightly batch window.")
    assert parts and all(len(p) <= 320 for p in parts)
    assert any("orders_stg" in p for p in parts)
    assert any("read replica lags" in p for p in parts)
    assert chunks(CHITCHAT) == [] and chunks("hi") == []
    items = episode_items([(SAID, 7)], "s-1")
    assert {i["topic"] for i in items} == {EPISODE_TOPIC}
    assert all(i["type"] == "context" and "episodic" in i["tags"] for i in items)


def test_prune_drops_old_ones_then_the_oldest_beyond_the_cap() -> None:
    now = 1_000 * DAY_MS
    rows = [("old", now - 100 * DAY_MS), ("a", now - 3 * DAY_MS), ("b", now - 2 * DAY_MS),
            ("c", now - DAY_MS)]
    assert prune_plan(rows, now, EpisodeOptions(keep_days=90, max_per_project=10)) == ["old"]
    assert prune_plan(rows, now, EpisodeOptions(keep_days=90, max_per_project=2)) == [
        "old", "a"]


def _session_end(env: dict[str, str], project: Path, session: str, *turns: str) -> None:
    t = TranscriptWriter(cwd=str(project), session=session)
    for text in turns:
        t.user(text)
        t.say("Noted.")
    path = t.write(project / f"{session}.jsonl")
    result = hook("SessionEnd", payload("SessionEnd", project, session_id=session,
                                        transcript_path=str(path), reason="other"), env)
    assert result.returncode == 0 and not result.stderr, result.stderr


def _prompt(env: dict[str, str], project: Path, text: str) -> str:
    """The context injected for ``text`` as the first prompt of a new conversation."""
    import uuid

    result = hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt=text,
                                              session_id=str(uuid.uuid4())), env)
    assert result.returncode == 0, result.stderr
    if not result.stdout:
        return ""
    return str(json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"])


def test_what_the_user_said_is_found_later_but_never_first(env, project) -> None:
    _session_end(env, project, "s-1", SAID, CHITCHAT, SECRET)
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        episodes = [m for m in k.list(limit=None) if m.topic == EPISODE_TOPIC]
        assert any("orders_stg" in m.content for m in episodes)
        assert not any("thanks, looks great" in m.content for m in episodes)
        assert not any("ghp_abcdefghij" in m.content for m in episodes)  # redacted
        # recall finds it, and a learned memory on the same words is not crowded out
        rule = k.remember("Staging fixtures live in tests/fixtures/staging, never in "
                          "orders_stg", type="pattern")
        hits = k.recall("orders_stg staging database fixtures", k=5, explain=True)
        assert rule.id in [h.memory.id for h in hits]
        said = [h for h in hits if h.memory.topic == EPISODE_TOPIC]
        assert said and all(h.parts and h.parts["episode"] == 0.5 for h in said)
        assert k.briefing() and "ops wipe it" not in k.briefing()  # what was said, verbatim
        assert all(EPISODE_TOPIC not in line for line in k.briefing().splitlines())
        k.build_prompt_index()
    shown = _prompt(env, project, "can I keep my fixtures in the orders_stg staging database?")
    lines = [ln for ln in shown.splitlines() if ln.startswith("- [")]
    assert any(ln.startswith("- [pattern]") for ln in lines)
    assert sum("the user said earlier" in ln and "orders_stg" in ln for ln in lines) == 1


def test_episodes_can_be_switched_off_and_are_pruned_by_age(env, project, tmp_path) -> None:
    (tmp_path / "kdata").mkdir(exist_ok=True)
    (tmp_path / "kdata" / "kenning.toml").write_text("[episodes]\nkeep = false\n")
    _session_end(env, project, "s-1", SAID)
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        assert not [m for m in k.list(limit=None) if m.topic == EPISODE_TOPIC]
    (tmp_path / "kdata" / "kenning.toml").write_text("[episodes]\nkeep_days = 1\n")
    _session_end(env, project, "s-2", SAID)
    key = project_key(str(project.resolve()))
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        assert [m for m in k.list(limit=None) if m.topic == EPISODE_TOPIC]
    later = Kenning(env["KENNING_DB"], project=key, embedder=None,
                    clock=lambda: 10**13 + 3 * DAY_MS)
    with later:
        assert later.prune_episodes(EpisodeOptions(keep_days=1)) >= 1
        assert not [m for m in later.list(limit=None) if m.topic == EPISODE_TOPIC]


def test_at_most_one_kept_turn_per_prompt_whatever_their_scores() -> None:
    from kenning.promptindex import inject

    hits = [{"id": f"e{i}", "type": "context", "topic": EPISODE_TOPIC, "score": 1.0 - i / 10,
             "summary": f"said {i}"} for i in range(4)]
    hits.append({"id": "p", "type": "pattern", "topic": None, "score": 0.1, "summary": "rule"})
    chosen = inject.best(hits, 3)  # type: ignore[arg-type]
    assert [h["id"] for h in chosen] == ["e0", "p"]


def test_a_kept_turn_is_not_shown_for_one_shared_everyday_word(env, project) -> None:
    """What the user said is long everyday text: a prompt sharing one or two words with it
    ("sunday"; "staging database") gets nothing, one sharing three gets it, on the prompt
    index and on the store fallback."""
    _session_end(env, project, "s-1", "morning! the staging database is called orders_stg "
                 "and ops wipe it every sunday night. our standup moved to 10:30 btw.")
    unrelated = "make the navbar button blue before sunday"
    loosely = "can I keep test fixtures in the staging database?"  # staging, database
    related = "does the staging database still get wiped every sunday?"  # + sunday
    assert "orders_stg" in _prompt(env, project, related)
    assert _prompt(env, project, loosely) == ""
    assert _prompt(env, project, unrelated) == ""
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        k.remember("The navbar uses the design-system Button component", type="context")
    # the write made the index stale: the store answers, by the same rule
    assert "orders_stg" in _prompt(env, project, related)
    assert "orders_stg" not in _prompt(env, project, unrelated)


def test_a_turn_that_only_asks_to_look_at_a_file_is_not_kept() -> None:
    """"could you skim X, I want to refactor it later", "what does X do again? I forgot": the
    file says more than the ask, and whatever the agent finds is in its answer. What is said
    next to such an ask is kept when it names something technical."""
    for turn in ("yo. did you see the retro notes? anyway, small thing today. could you skim "
                 "internal/api/orders.go, I want to refactor it later",
                 "hey, back after the long weekend. anything on fire?. what does "
                 "internal/api/orders_test.go do again? I forgot",
                 "take a look at cmd/deploy.go and tell me if anything stands out",
                 "can you remind me what's in docker-compose.yml?",
                 "put today's meeting notes in notes/n0-0.md, nothing fancy"):
        assert chunks(turn) == [], turn
    kept = chunks("can you remind me which commands the CLI has? the staging database is "
                  "called orders_stg and ops wipe it every sunday night")
    assert kept == ["the staging database is called orders_stg and ops wipe it every sunday "
                    "night"]
    # "read it once on first use" says how the feature works, not where to look
    assert chunks("the ops folks want their own level names via LOGSIFT_LEVEL_ALIASES. read "
                  "it once on first use and merge it over the built-in table") != []


def test_an_ask_to_look_is_not_shown_when_a_prompt_names_its_file(env, project) -> None:
    _session_end(env, project, "s-1", "could you skim internal/api/orders.go, I want to "
                 "refactor it later")
    assert "the user said earlier" not in _prompt(
        env, project, "refactor internal/api/orders.go: split the handlers, I want it later")
