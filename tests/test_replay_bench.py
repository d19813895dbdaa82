"""The coding-agent memory benchmark's own machinery (``benchmarks/replaykit``): the scoring
functions, the story format's checks, the transcript and payload shapes, the baselines, and one
small story replayed through the real hook processes. Scores are never asserted here."""

from __future__ import annotations

import json
import sys
from itertools import pairwise
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

from replaykit import baselines, scoring  # noqa: E402
from replaykit.noise import with_noise  # noqa: E402
from replaykit.stories import all_stories  # noqa: E402
from replaykit.story import (  # noqa: E402
    Bash,
    Commit,
    Compact,
    Edit,
    Note,
    Probe,
    Project,
    Read,
    Say,
    Session,
    Story,
    Subagent,
    User,
    Write,
    lesson,
    load_package,
    validate,
)
from replaykit.transcript import SessionWriter, structured_patch  # noqa: E402

from kenning.extract.transcript import parse_lines  # noqa: E402

PROJECT = Project("demo", "python", {"app.py": "print('hi')\n", "README.md": "# demo\n"})
BLACK = lesson("black", "convention", "Format with black", "black", "format")
RUFF = lesson("ruff", "convention", "Format with ruff format", "ruff", "format")
CMD = lesson("cmd", "command", "Run tests with uv run pytest", "uv run pytest")


def story(**kw: object) -> Story:
    sessions = kw.pop("sessions", (
        Session(day=0, events=(User("hi! going forward please format with black", states=BLACK.id),
                               Bash("uv run pytest -q", out="3 passed", states=CMD.id))),
        Session(day=3, events=(User("actually we switched: format with ruff from now on",
                                    states=RUFF.id, replaces=BLACK.id),)),
        Session(day=9, events=(Probe("tidy up app.py", needs=(RUFF.id, CMD.id)),),
                judge={CMD.id: "up"}),
    ))
    lessons = kw.pop("lessons", (BLACK, RUFF, CMD))
    return Story(id="t-demo", title="demo", project=PROJECT, lessons=lessons,  # type: ignore[arg-type]
                 sessions=sessions, **kw)  # type: ignore[arg-type]


# -- matching and units -------------------------------------------------------------------------


def test_lessons_match_at_word_starts_with_alternatives_and_regexes() -> None:
    le = lesson("x", "fact", "", "format|lint", "re:line[- ]length")
    assert le.found_in("Formatting uses line-length 100")
    assert le.found_in("lint with line length 88")
    assert not le.found_in("reformat with line length 88")  # not at a word start
    assert not le.found_in("format the file")  # every group must match


def test_units_keep_continuation_lines_with_their_bullet() -> None:
    text = "Header line\n- first memory\n  why: because\n- second\n\nplain para\nmore"
    assert scoring.split_units(text) == [
        "Header line", "- first memory why: because", "- second", "plain para more"]


def test_memory_md_is_cut_as_the_client_loads_it() -> None:
    lines = [f"- line {i}" for i in range(300)]
    assert scoring.memory_md_as_loaded("\n".join(lines)).count("\n") == 199
    wide = ["x" * 399 for _ in range(150)]  # 400 bytes a line: 62 whole lines fit in 25,000
    assert len(scoring.memory_md_as_loaded("\n".join(wide)).split("\n")) == 62


# -- the scores ---------------------------------------------------------------------------------


def view(start: list[str], memory: list[str], prompts: list[scoring.PromptView]
         ) -> scoring.SystemRun:
    run = scoring.SystemRun()
    run.sessions.append(scoring.SessionView(index=2, day=9, epochs=[scoring.Epoch(
        start_units=start, memory_units=memory, start_chars=len("".join(start)),
        memory_chars=len("".join(memory)), prompts=prompts)]))
    return run


def probe_view(units: list[str]) -> scoring.PromptView:
    return scoring.PromptView(text="tidy up app.py", units=units, context_chars=400,
                              needs=(RUFF.id, CMD.id), stale=(BLACK.id,))


def test_delivery_counts_needed_lessons_from_every_channel() -> None:
    s = story()
    run = view(["- Tests: uv run pytest -q"], [], [probe_view(["- format code with ruff"])])
    fig = scoring.score_story(s, run)
    assert fig["delivery_recall"] == 1.0
    half = view([], [], [probe_view(["- format code with ruff"])])
    assert scoring.score_story(s, half)["delivery_recall"] == 0.5


def test_what_an_earlier_prompt_of_the_conversation_injected_still_counts() -> None:
    s = story()
    earlier = scoring.PromptView(text="first", units=["- format code with ruff"],
                                 context_chars=30, needs=(), stale=())
    fig = scoring.score_story(s, view(["- Tests: uv run pytest -q"], [],
                                      [earlier, probe_view([])]))
    assert fig["delivery_recall"] == 1.0
    run = view(["- Tests: uv run pytest -q"], [], [earlier])
    run.sessions[0].epochs.append(scoring.Epoch(  # a compaction: the conversation starts over
        start_units=[], memory_units=[], start_chars=0, memory_chars=0,
        prompts=[probe_view([])]))
    assert scoring.score_story(s, run)["delivery_recall"] == 0.0


def test_a_stale_lesson_counts_only_when_presented_as_current() -> None:
    s = story()
    assert s.stale_for(2, s.sessions[2].events[0]) == (BLACK.id,)  # type: ignore[arg-type]
    shown = scoring.score_story(s, view([], ["- Always format with black"], [probe_view([])]))
    assert shown["stale_shown"] == 1.0
    for unit in ("- format with black (superseded by ruff)",
                 "- we moved from black to ruff to format code",
                 "- [failed] format with black"):
        fig = scoring.score_story(s, view([], [unit], [probe_view([])]))
        assert fig["stale_shown"] == 0.0, unit
    handled = scoring.score_story(s, view([], ["- format code with ruff"], [probe_view([])]))
    assert (handled["stale_shown"], handled["changes_current_pairs"]) == (0.0, 1)
    both = scoring.score_story(s, view([], ["- format code with ruff", "- format with black"],
                                       [probe_view([])]))
    assert (both["stale_shown"], both["changes_current_pairs"]) == (1.0, 0)


def test_duplicates_ignore_ids_and_markup_and_count_near_copies() -> None:
    run = view(["- [decision] Use ruff to format the code (id 01KJPXPGHQ1YBNWQG9WCJKD632)"],
               ["- [Decision](use-ruff-xyp1ba.md) — Use ruff to format the code"],
               [probe_view(["- Use ruff to format the code (id 01KJPXPGHQ1YBNWQG9WCJKD633)",
                            "- Use ruff to format all the code", "- short one"])])
    again, total = scoring.duplicates(run)
    assert (again, total) == (3, 4)  # "short one" is too short to count


def test_shown_carrying_nothing_counts_what_no_annotation_backs() -> None:
    """Of what the model reads, the share no lesson (probed or also-true) backs; headings,
    lines introducing a list and very short units are framing, not counted."""
    s = story()
    run = view(["Kenning memory briefing (details: MCP tools): Rules in force for this project:",
                "- Always format with black (id 01KJPX) Key memories for this project:"],
               ["## Preferences", "- Always happy to help with anything you need"],
               [probe_view(["- format code with ruff", "(+2 more: `recall`)", "- short one"])])
    assert scoring.shown_nothing(s, run) == (1, 3)
    assert scoring.score_story(s, run)["shown_carrying_nothing"] == round(1 / 3, 4)
    lines = scoring.shown_lines(s, run)  # what `replay.py --shown` writes
    assert [(ln["channel"], ln["framing"]) for ln in lines] == [
        ("start", True), ("start", False), ("memory", True), ("memory", False),
        ("prompt 1", False), ("prompt 1", True), ("prompt 1", True)]
    assert lines[1]["lessons"] == [BLACK.id] and lines[3]["lessons"] == lines[3]["also"] == []


def test_capture_precision_and_recall() -> None:
    fig = scoring.capture(story(), {"a": "format with black", "b": "Always happy to help.",
                                    "c": "uv run pytest -q passed"})
    assert (fig["useful"], fig["stored"], fig["captured"], fig["lessons"]) == (2, 3, 2, 3)
    assert fig["missed"] == [RUFF.id]


def test_a_rule_in_force_whose_every_memory_was_ended_counts_as_hidden() -> None:
    stored = {"a": "format with black", "b": "uv run pytest -q passed",
              "c": "Run tests with `uv run pytest`", "d": "format with ruff"}
    kinds = {"a": "preference", "b": "pattern", "c": "episodic", "d": "preference"}
    # black was replaced (ending it is right); the command is in force: ended in its one
    # memory, it is hidden, whatever a kept user turn still says
    assert scoring.hidden_in_force(story(), stored, kinds, ["a", "b"]) == [CMD.id]
    assert scoring.hidden_in_force(story(), stored, kinds, ["a"]) == []
    assert scoring.hidden_in_force(story(), {**stored, "e": "uv run pytest"}, kinds,
                                   ["b"]) == []
    # nor does a session summary that still quotes it: no prompt is shown one as a rule
    assert scoring.hidden_in_force(story(), {**stored, "s": "Session insight: uv run pytest"},
                                   {**kinds, "s": "session"}, ["a", "b"]) == [CMD.id]


def test_each_supersession_is_judged_by_the_lessons_its_two_memories_carry() -> None:
    stored = {"black": "format with black", "ruff": "format with ruff from now on",
              "ruff2": "we format with ruff", "cmd": "Run tests with `uv run pytest`",
              "chat": "thanks, that was quick"}
    audit = scoring.supersession_audit(story(), stored, [
        ["black", "ruff", "changed"],  # black was replaced by ruff: right
        ["ruff", "ruff2", "changed"],  # the same rule again: nothing lost
        ["cmd", "ruff", "judged"],  # the test command is still in force: wrong
        ["black", "cmd", "judged"],  # black did go, but not for the test command
        ["chat", "ruff", "judged"],  # no lesson to judge
        ["gone", "ruff", "judged"],  # a memory the snapshots never saw: left out
    ])
    assert audit == {
        "changed": {"right": 1, "restated": 1, "wrong_in_force": 0, "wrong_partner": 0,
                    "no_lesson": 0},
        "judged": {"right": 0, "restated": 0, "wrong_in_force": 1, "wrong_partner": 1,
                   "no_lesson": 1}}


def test_a_supersessions_mechanism_is_its_reasons_opening_words() -> None:
    from replaykit.runner import mechanism

    assert mechanism("replaced by a later statement (judged 0.71): use ruff") == (
        "replaced by a later statement")
    assert mechanism("changed in a later session: use ruff") == "changed in a later session"
    assert mechanism("the project now runs `make test-all`") == "the project now runs"
    assert mechanism("what the user said here was replaced") == (
        "what the user said here was replaced")
    assert mechanism("") == "stated"


def test_also_true_lessons_count_for_precision_with_also_only() -> None:
    also = lesson("also-makefile", "command", "make check runs the linters", "make check")
    stored = {"a": "format with black", "b": "Run `make check` before a commit.",
              "c": "Always happy to help."}
    kinds = {"a": "preference", "b": "pattern", "c": "insight"}
    fig = scoring.capture(story(also=(also,)), stored, kinds)
    assert (fig["useful"], fig["useful_with_also"], fig["stored"]) == (1, 2, 3)
    assert (fig["captured"], fig["lessons"]) == (1, 3)  # recall is over the probed lessons
    assert (fig["also_captured"], fig["also"], fig["also_missed"]) == (1, 1, [])
    assert fig["precision_by_type"]["pattern"] == [0, 1]
    assert fig["precision_by_type_with_also"]["pattern"] == [1, 1]
    assert fig["carrying_nothing"] == ["insight: Always happy to help."]
    missed = scoring.capture(story(also=(also,)), {"a": "format with black"})
    assert missed["also_missed"] == ["also-makefile"]


def test_also_true_lessons_need_ids_of_their_own() -> None:
    with pytest.raises(ValueError, match="duplicate lesson ids"):
        validate(story(also=(lesson(BLACK.id, "fact", "again", "black"),)))
    with pytest.raises(ValueError, match="unknown kind"):
        validate(story(also=(lesson("also-x", "trivia", "x", "x"),)))


@pytest.mark.parametrize(("direction", "before", "after", "right"), [
    ("up", 0.6, 0.65, 1), ("up", 0.6, 0.6, 0), ("down", 0.6, 0.55, 1), ("down", 0.6, 0.6, 0),
    ("not_down", 0.6, 0.6, 1), ("not_down", 0.6, 0.55, 0), ("not_up", 0.6, 0.63, 0),
    ("up", 0.6, None, 0), ("not_down", None, 0.6, 0), ("down", 0.6, 0.0, 1),
    # at the cap a confirmed memory cannot rise, at the floor a refuted one cannot fall
    ("up", 1.0, 1.0, 1), ("down", 0.1, 0.1, 1), ("up", 0.1, 0.1, 0), ("down", 1.0, 1.0, 0),
])
def test_learning_directions(direction: str, before: float | None, after: float | None,
                             right: int) -> None:
    judged = [{"direction": direction, "before": before, "after": after}]
    assert scoring.learning(story(), judged) == (right, 1)


def test_tokens_per_prompt_is_characters_over_four() -> None:
    fig = scoring.score_story(story(), view([], [], [probe_view([]), probe_view([])]))
    assert fig["tokens_per_prompt"] == 100.0


# -- stories ------------------------------------------------------------------------------------


def test_story_checks_catch_annotation_mistakes() -> None:
    validate(story())
    bad_probe = (Session(day=0, events=(User("format with black", states=BLACK.id),)),
                 Session(day=1, events=(Probe("go", needs=(RUFF.id,)),)))
    with pytest.raises(ValueError, match="not stated before"):
        validate(story(sessions=bad_probe))
    unmatched = (Session(day=0, events=(User("use the usual formatter", states=BLACK.id),)),)
    with pytest.raises(ValueError, match="match groups are not all"):
        validate(story(sessions=unmatched, lessons=(BLACK,)))
    stale_need = (*story().sessions[:2],
                  Session(day=5, events=(Probe("tidy", needs=(BLACK.id,)),)))
    with pytest.raises(ValueError, match="stale by then"):
        validate(story(sessions=stale_need))


def test_story_checks_play_the_file_events_as_the_replay_does() -> None:
    def with_events(*events: object) -> Story:
        return story(sessions=(Session(day=0, events=(
            User("hi! going forward please format with black", states=BLACK.id), *events)),),
            lessons=(BLACK,))

    validate(with_events(Edit("app.py", "hi", "hello"), Commit("Say hello")))
    with pytest.raises(ValueError, match="old text not found"):
        validate(with_events(Edit("app.py", "hello", "bye")))
    with pytest.raises(ValueError, match="does not exist"):
        validate(with_events(Read("src/missing.py")))
    with pytest.raises(ValueError, match="nothing changed"):
        validate(with_events(Commit("Empty")))
    # A file written earlier in the story can be edited later.
    validate(with_events(Write("lib.py", "x = 1\n"), Edit("lib.py", "x = 1", "x = 2")))


def test_a_story_module_package_loads_every_story_and_refuses_duplicate_ids(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "somestories"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    body = (
        "from replaykit.story import Project, Session, Story, User, lesson\n"
        "P = Project('p', 'ruby', {'Gemfile': 'source \\'x\\'\\n'})\n"
        "L = lesson('l', 'convention', 'Use rspec', 'rspec')\n"
        "S = (Session(day=0, events=(User('we use rspec', states='l'),)),)\n"
        "STORIES = [Story(id=SID, title='t', project=P, lessons=(L,), sources=('a/b',),\n"
        "                 sessions=S)]\n")
    (pkg / "a.py").write_text(body.replace("SID", "'s-one'"))
    (pkg / "b.py").write_text(body.replace("SID", "'s-two'"))
    monkeypatch.syspath_prepend(str(tmp_path))
    stories = load_package("somestories", [str(pkg)])
    assert [s.id for s in stories] == ["s-one", "s-two"]
    assert stories[0].sources == ("a/b",) and stories[0].project.language == "ruby"
    (pkg / "b.py").write_text(body.replace("SID", "'s-one'"))
    for name in ("somestories.a", "somestories.b"):
        sys.modules.pop(name, None)
    with pytest.raises(ValueError, match="duplicate story ids: s-one"):
        load_package("somestories", [str(pkg)])


def test_the_held_out_table_puts_held_out_first_with_the_gap() -> None:
    import replay

    def result(delivery: float) -> dict[str, object]:
        return {"systems": {name: {"delivery_recall": delivery, "stale_shown": None}
                            for name in replay.SYSTEMS}}

    heldout, dev = result(0.5), result(0.75)
    gap = replay.gaps(heldout, dev)
    assert gap["kenning"]["delivery_recall"] == -0.25
    assert gap["bm25"]["stale_shown"] is None
    text = replay.gap_tables(heldout, dev)
    head = [cell.strip() for cell in text.splitlines()[0].split("|")[1:5]]
    assert head == ["kenning", "held-out", "dev", "gap"]
    row = next(line for line in text.splitlines() if line.startswith("| delivery_recall"))
    assert [cell.strip() for cell in row.split("|")[1:5]] == [
        "delivery_recall", "0.500", "0.750", "-0.250"]
    assert sum(line.startswith("| recency ") for line in text.splitlines()) == 1


def test_a_held_out_run_keeps_figures_and_no_text() -> None:
    import replay

    run = {"systems": {"kenning": {"delivery_recall": 0.5}},
           "stories": {"kenning": {"s": {"delivery_recall": 0.5, "captured_by_kind": {"fact": 1},
                                         "missed": ["a lesson's words"],
                                         "carrying_nothing": ["a memory's words"]}}},
           "probes": {"kenning": {"s": [{"text": "a prompt"}]}},
           "kenning_learning": {"s": [{"lesson": "x"}]}, "run": {"stories": 1}}
    kept = replay.figures_only(run)
    assert kept["stories"] == {"kenning": {"s": {"delivery_recall": 0.5,
                                                 "captured_by_kind": {"fact": 1}}}}
    assert "probes" not in kept and "kenning_learning" not in kept
    assert kept["systems"] == run["systems"] and kept["run"] == run["run"]


def test_the_shipped_stories_are_valid_and_large_enough() -> None:
    stories = all_stories()
    assert len(stories) >= 40
    with_filler = [with_noise(s, 3) for s in stories]  # replay.py adds 3 by default
    assert sum(len(s.sessions) for s in with_filler) >= 300
    assert sum(len(s.sessions) for s in stories) >= 200  # hand-written sessions
    assert {s.project.language for s in stories} >= {"python", "typescript", "go", "rust"}
    real = [s for s in stories if s.sources]  # dev stories built from public material
    assert len(real) >= 20 and all(s.id.startswith("dv-") for s in real)
    for s in with_filler:
        validate(s)


def test_filler_sessions_never_move_annotations() -> None:
    s = story()
    noisy = with_noise(s, 3)
    assert len(noisy.sessions) == 6
    assert [x for x in noisy.sessions if not x.generated] == list(s.sessions)
    assert all(x.noise and not ev.states for x in noisy.sessions if x.generated
               for ev in x.events)


# -- transcripts and payloads -------------------------------------------------------------------


def test_transcript_records_read_back_as_the_client_wrote_them() -> None:
    w = SessionWriter("sid-1", "/h/.claude/projects/-p/sid-1.jsonl", "/p")
    records, prompt = w.user("fix the test", 1_000)
    calls, results, (event, fail) = w.bash("python -m pytest -q", "1 failed", False, 1, "", 2_000,
                                           500)
    records += calls + results
    calls, results, (ok_event, ok) = w.bash("python -m pytest -q", "1 passed", True, 0, "",
                                            3_000, 500)
    records += calls + results + w.say("Fixed.", 4_000)
    t = parse_lines([json.dumps(r) for r in records])
    assert [u.text for u in t.user_texts] == ["fix the test"]
    assert [(c.command, c.ok, c.exit_code) for c in t.calls] == [
        ("python -m pytest -q", False, 1), ("python -m pytest -q", True, 0)]
    assert (event, ok_event) == ("PostToolUseFailure", "PostToolUse")
    # The keys the real client sends (captured from Claude Code 2.1.330).
    assert set(prompt) == {"session_id", "transcript_path", "cwd", "prompt_id",
                           "permission_mode", "hook_event_name", "prompt"}
    assert set(fail) >= {"tool_name", "tool_input", "tool_use_id", "error", "is_interrupt"}
    assert fail["error"].startswith("Exit code 1\n")
    assert set(ok["tool_response"]) == {"stdout", "stderr", "interrupted", "isImage",
                                        "noOutputExpected"}
    assert all(r["parentUuid"] == p["uuid"] for p, r in pairwise(records))


def test_structured_patch_describes_the_change() -> None:
    hunk, = structured_patch("a\nb\nc\n", "a\nB\nc\n")
    assert hunk["lines"] == [" a", "-b", "+B", " c", " "]
    assert (hunk["oldStart"], hunk["newStart"]) == (1, 1)


# -- baselines ----------------------------------------------------------------------------------


def test_bm25_prefers_the_turn_that_shares_rare_words() -> None:
    docs = ["please format with ruff", "the weather is nice", "format the weather report"]
    assert baselines.bm25_top("ruff format", docs, k=2) == docs[::2]
    assert baselines.bm25_top("nothing shared", docs) == []


def test_dense_ranks_by_meaning_where_no_word_is_shared() -> None:
    docs = ["the weather is lovely on the coast today",
            "service calls authenticate with signed JWT tokens",
            "lunch is at noon on fridays"]
    assert baselines.dense_top("how do our microservices prove who they are to each other?",
                               docs, k=1) == [docs[1]]
    assert baselines.bm25_top("how do our microservices prove who they are to each other?",
                              docs) == []
    assert baselines.dense_top("anything", []) == []


def test_dense_baseline_searches_only_earlier_sessions() -> None:
    run = baselines.dense(story())
    first, later = run.sessions[0].epochs[0].prompts, run.sessions[2].epochs[0].prompts
    assert all(p.units == [] for p in first)
    assert set(later[0].units) == {"hi! going forward please format with black",
                                   "actually we switched: format with ruff from now on"}


def test_baselines_see_only_the_past() -> None:
    s = story(sessions=(*story().sessions[:2], Session(day=9, events=(
        Probe("tidy up app.py", needs=(RUFF.id,)),),
        notes=(Note("- format with ruff", states=RUFF.id),))))
    recency = baselines.recency(s).sessions
    assert recency[0].epochs[0].start_units == []
    assert recency[2].epochs[0].start_units == [
        "hi! going forward please format with black",
        "actually we switched: format with ruff from now on"]
    md = baselines.memory_md_only(s)
    assert md.sessions[1].epochs[0].memory_units == []
    assert md.sessions[2].epochs[0].memory_units == ["- format with ruff"]
    assert scoring.score_story(s, md)["delivery_recall"] == 1.0
    assert scoring.score_story(s, baselines.none(s))["delivery_recall"] == 0.0


# -- one story through the real hooks -----------------------------------------------------------


@pytest.mark.slow
def test_a_story_replays_through_the_real_hook_processes(tmp_path: Path) -> None:
    from replaykit.runner import StoryReplay, kenning_snapshot

    kenning = Path(sys.executable).parent / "kenning"
    assert kenning.exists(), "the test environment installs Kenning's console script"
    s = story(sessions=(
        Session(day=0, events=(
            User("morning! one thing: format with black before every commit", states=BLACK.id),
            Bash("uv run pytest -q", out="E   assert 1 == 2\n1 failed in 0.1s", ok=False,
                 states=CMD.id),
            Edit("app.py", "print('hi')", "print('hello')"),
            Write("src/util.py", "def f():\n    return 1\n"),
            Bash("uv run pytest -q", out="1 passed in 0.1s"),
            Subagent("Found it: the fixture was stale."),
            Compact(instructions="keep the formatting rule"),
            Say("Done."),
        )),
        Session(day=8, events=(Probe("tidy up app.py", needs=(BLACK.id,)),), end=None),
    ))
    start = 1_772_438_400_000  # 2026-03-02
    replay = StoryReplay(s, tmp_path / "w", kenning, start)
    run = replay.replay(kenning_snapshot)
    assert set(run.latencies) >= {"SessionStart", "UserPromptSubmit", "PostToolUse",
                                  "PostToolUseFailure", "PreCompact", "SubagentStop",
                                  "SessionEnd"}
    assert len(run.latencies["SessionEnd"]) == 1  # the second session was never ended
    assert len(run.sessions[0].epochs) == 2  # compaction starts a new conversation
    assert (tmp_path / "w" / "proj" / "app.py").read_text() == "print('hello')\n"
    assert run.hook_errors == [] and run.hook_timeouts == 0
    transcript = next((replay.client_dir).glob("*.jsonl"))
    parsed = parse_lines(transcript.read_text().splitlines())
    assert [c.ok for c in parsed.calls if c.name == "Bash"] == [False, True]
    assert run.stored, "session end stored something from the first session"
    # Every hook ran on the story's clock: memories are dated on its first day.
    from kenning import Kenning

    with Kenning(replay.store_path, project=replay.kenning_project, embedder=None) as k:
        created = {m.created_at // 86_400_000 for m in k.list(limit=None)}
    assert created == {start // 86_400_000}


def test_session_end_work_left_running_is_waited_for(tmp_path: Path) -> None:
    """A detached child of a hook carries the story's token, so the replay waits for it."""
    import subprocess
    import threading

    from replaykit.runner import hook_env, processes_with

    env = hook_env(tmp_path, "tok-123")
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], env=env,
                             start_new_session=True)
    try:
        for _ in range(200):  # until the child has exec'd and its environment can be read
            if child.pid in processes_with("tok-123"):
                break
            threading.Event().wait(0.05)
        assert child.pid in processes_with("tok-123")
        assert child.pid not in processes_with("tok-999")
    finally:
        child.kill()
        child.wait()
    assert child.pid not in processes_with("tok-123")
