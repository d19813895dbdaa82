"""What the user stated, as the learned sentence detector reads it, becomes candidates: whole
statements in the user's words, one per line or bullet, never a question, never one another
candidate of the same message already carries."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kenning import Kenning
from kenning.embed import MiniLMEmbedder
from kenning.extract.candidates import Candidate
from kenning.extract.sentence_kinds import Judged, Sentence, SentenceKinds
from kenning.extract.statements import MAX_STATEMENTS, doubted, user_statements
from kenning.extract.transcript import read_transcript
from tests.mcp_fixtures import CWD, TranscriptWriter


def transcript(tmp_path: Path, *messages: str) -> Path:
    path = tmp_path / "session.jsonl"
    rows = [{"type": "user", "sessionId": "s1", "cwd": str(tmp_path),
             "timestamp": f"2026-12-01T10:0{i}:00Z",
             "message": {"role": "user", "content": text}} for i, text in enumerate(messages)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def judge_by_marker(items: Sequence[Sentence]) -> list[Judged]:
    """A stand-in detector: a sentence is a rule when it holds "RULE", a fact with "FACT", a
    change with "NOW", else chatter."""
    out = []
    for s in items:
        label = ("convention" if "RULE" in s.text else "fact" if "FACT" in s.text
                 else "change" if "NOW" in s.text else "other")
        kept = 0.9 if label != "other" else 0.1
        out.append(Judged(s.text, label, kept, kept, s.opens_line))
    return out


def test_sentences_in_a_row_on_a_line_are_one_statement_and_each_bullet_its_own(
        tmp_path: Path) -> None:
    t = read_transcript(transcript(
        tmp_path, "RULE keep handlers thin. RULE never page by offset.\n"
                  "- RULE tabs for indentation\n- FACT prices are kept in cents\nthanks!"))
    got = user_statements(t, judge_by_marker, [])
    assert [c.text for c in got] == [
        "RULE keep handlers thin. RULE never page by offset.", "RULE tabs for indentation",
        "FACT prices are kept in cents"]
    rule, fact = got[0], got[2]
    assert (rule.type, rule.extra["learned"]) == ("preference", "convention")
    assert rule.extra["rule"]["speaker"] == "user" and rule.extra["said"] == rule.text
    assert fact.type == "discovery" and "rule" not in fact.extra
    assert all(0.6 <= c.confidence <= 0.8 for c in got)


def test_questions_chatter_and_what_other_candidates_carry_are_left_out(tmp_path: Path) -> None:
    t = read_transcript(transcript(
        tmp_path, "RULE is this the right place?", "ok",
        "RULE all money goes through the Decimal type in billing", "NOW we deploy with fly"))
    covered = Candidate("preference", "Money goes through the Decimal type", "preference",
                        "preferences", 0.8, "pattern",
                        {"lines": [t.user_texts[2].line]},
                        extra={"said": "all money goes through the Decimal type in billing"})
    got = user_statements(t, judge_by_marker, [covered])
    assert [c.text for c in got] == ["NOW we deploy with fly"]
    assert got[0].type == "decision" and got[0].extra["rule"]["change"] is True


def test_a_pasted_instruction_file_gives_at_most_the_surest_few(tmp_path: Path) -> None:
    t = read_transcript(transcript(
        tmp_path, "\n".join(f"- RULE number {n} of the house style" for n in range(40))))
    assert len(user_statements(t, judge_by_marker, [])) == MAX_STATEMENTS


def test_the_shipped_models_keep_what_the_phrase_rules_miss_and_end_what_a_change_replaces(
        tmp_path: Path, k: Kenning) -> None:
    """Real capture with the shipped detector and pair judge: a fact no phrase rule reads is
    stored in the user's words, a question is not, and a later change ends the statement it
    replaces while an unrelated one stays current."""
    first = TranscriptWriter(cwd=CWD, session="s-learned-1")
    first.user("The staging deploy runs on Heroku through `git push heroku main`.")
    first.user("Integration tests run against a throwaway Postgres started by `make db-up`.")
    first.user("what does src/billing/ledger.py do again?")
    report = k.extract(first.write(tmp_path / "one.jsonl"), repo=tmp_path, apply=True)
    assert report["sources"]["transcript"]["detector"] == "used"
    stored = {m.content.splitlines()[0]: m for m in k.list(limit=None)
              if m.metadata.get("learned")}
    deploy = stored["The staging deploy runs on Heroku through `git push heroku main`."]
    postgres = stored["Integration tests run against a throwaway Postgres started by "
                      "`make db-up`."]
    assert not any("ledger.py" in text for text in stored)
    second = TranscriptWriter(cwd=CWD, session="s-learned-2")
    second.user("Integration tests now run against SQLite in memory, the Postgres container "
                "is gone.")
    report = k.extract(second.write(tmp_path / "two.jsonl"), repo=tmp_path, apply=True)
    now = k.clock()
    ended = k.get(postgres.id)
    assert not ended.current_at(now) and ended.superseded_by is not None
    assert "SQLite" in k.get(ended.superseded_by).content
    assert k.get(deploy.id).current_at(now)


def test_a_paragraph_of_kept_sentences_is_several_statements_of_two_at_most(
        tmp_path: Path) -> None:
    t = read_transcript(transcript(
        tmp_path, "RULE one is here. RULE two is here. RULE three is here. RULE four is here. "
                  "RULE five is here."))
    got = [c.text for c in user_statements(t, judge_by_marker, [])]
    assert got == ["RULE one is here. RULE two is here.",
                   "RULE three is here. RULE four is here.", "RULE five is here."]


def test_bad_input_gives_no_statement_and_no_error(tmp_path: Path,
                                                  embedder: MiniLMEmbedder) -> None:
    """With the shipped detector: code alone, commands alone, binary junk and a huge message
    state nothing; a stand-in shows the words outside code are what count."""
    t = read_transcript(transcript(
        tmp_path, "```\ndef f(x):\n    return x + 1\n```", "`make test` `make lint`",
        "\x00\x01\x02 \ufffd\ufffd \x7f", "x" * 200_000))
    assert user_statements(t, SentenceKinds(embedder).judge, []) == []
    t = read_transcript(transcript(tmp_path, "RULE ```\nmake test\n```", "RULE `make test`",
                                   "RULE 常にテストを書く。"))
    assert [c.text for c in user_statements(t, judge_by_marker, [])] == ["RULE 常にテストを書く。"]


def test_a_user_rule_the_phrase_rules_found_is_dropped_when_the_detector_doubts_it(
        tmp_path: Path) -> None:
    """The phrase rules read the shape of a rule; the detector reads what the sentence does:
    a one-off request with a rule's shape is doubted, a rule it reads as one is not, and
    neither the assistant's rules nor the detector's own statements are judged again."""

    def rule(said: str, speaker: str = "user", learned: bool = False) -> Candidate:
        extra: dict[str, object] = {"rule": {"said": said, "speaker": speaker}}
        if learned:
            extra["learned"] = "convention"
        return Candidate("preference", said, "preference", "preferences", 0.8, "pattern",
                         {"lines": [1]}, extra=extra)

    one_off = rule("we need a settings table, write the migration. thanks")
    kept = rule("RULE every migration is reversible. and another thing")
    theirs = rule("we need a settings table", speaker="assistant")
    learned = rule("we need a settings table", learned=True)
    got = doubted([one_off, kept, theirs, learned], judge_by_marker)
    assert got == [one_off]
    assert doubted([], judge_by_marker) == []


@pytest.mark.parametrize("margin", [0.3, 0.01])
def test_a_change_ends_the_statement_it_replaces_not_every_one_the_judge_would(
        tmp_path: Path, k: Kenning, monkeypatch: pytest.MonkeyPatch, margin: float) -> None:
    """A judge that would end every near statement (here: one that says "replaces" of them
    all) ends only the likeliest and what says that same statement again; a rule on another
    subject stays current. A replacement judged just above the threshold is logged where
    ``kenning doctor`` shows it; a sure one is not."""
    from kenning.errorlog import recent_errors
    from kenning.extract import rule_pairs

    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    first = TranscriptWriter(cwd=CWD, session="s-one-1")
    first.user("Integration tests run against a throwaway Postgres started by `make db-up`.")
    first.user("Integration tests live in tests/integration and are marked slow.")
    k.extract(first.write(tmp_path / "one.jsonl"), repo=tmp_path, apply=True)
    stored = {m.content.splitlines()[0]: m for m in k.list(limit=None)
              if m.type.value in ("preference", "decision", "discovery")}
    postgres = next(m for text, m in stored.items() if "Postgres" in text)
    marked = next(m for text, m in stored.items() if "marked slow" in text)

    def judged(self: rule_pairs.PairJudge, old: np.ndarray, *_: object) -> np.ndarray:
        return np.full(len(old), min(1.0, self.replaces_at + margin), dtype=np.float32)

    monkeypatch.setattr(rule_pairs.PairJudge, "replaces", judged)
    second = TranscriptWriter(cwd=CWD, session="s-one-2")
    second.user("Integration tests now run against SQLite in memory, the Postgres container "
                "is gone.")
    k.extract(second.write(tmp_path / "two.jsonl"), repo=tmp_path, apply=True)
    now = k.clock()
    assert not k.get(postgres.id).current_at(now)
    assert k.get(marked.id).current_at(now)
    notices = [e for e in recent_errors(50) if e.get("notice")]
    if margin < 0.1:
        assert [e["where"] for e in notices] == [
            "extract: supersession judged with a low margin"]
        assert postgres.id in notices[0]["error"]
    else:
        assert notices == []


def test_a_rule_ends_the_nearest_of_what_it_would_replace_and_what_says_that_again() -> None:
    """Phrase rules that match on a tool's name would end every rule naming it: of several,
    the nearest ends, and with it only memories saying the same statement again."""
    from types import SimpleNamespace

    from kenning.extract.service import _one_statement

    def mem(mid: str) -> Any:
        return SimpleNamespace(id=mid)  # all a candidate memory is read for here

    def unit(*xs: float) -> np.ndarray:
        v = np.array(xs, dtype=np.float32)
        return v / np.linalg.norm(v)

    vectors = {"v10": unit(1, 0, 0), "v10-again": unit(0.95, 0.3, 0),
               "build-all": unit(0, 1, 0), "no-vector": unit(1, 0, 0)}
    replaced = [(0.4, mem("build-all")), (0.7, mem("v10")), (0.5, mem("v10-again")),
                (0.6, mem("unknown"))]
    assert [m.id for m in _one_statement(replaced, vectors)] == ["v10", "v10-again"]
    assert _one_statement([], vectors) == []
    assert [m.id for m in _one_statement([(-1.0, mem("unknown"))], vectors)] == ["unknown"]
