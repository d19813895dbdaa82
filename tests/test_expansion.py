"""The ranking stages after fusion (``kenning.expansion``), each shown on a small real store
(a SQLite file, the bundled embedder) finding what plain keyword and vector fusion misses, and
each compared with the same store ranked with that stage turned off."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from kenning import Kenning
from kenning.expansion import (
    adjacent_context,
    linked_context,
    mentions,
    nearest,
    query_names,
    query_periods,
    sitting,
    spread,
    strongest,
    within,
    without_names,
)
from kenning.memtable import explain
from kenning.models import Category, Filters, Memory, MemoryType, Scope
from kenning.ranking import RankWeights
from tests.conftest import T0

MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
# Every stage off: recall as plain fusion and the final factors.
PLAIN = RankWeights(adjacent_weight=0, linked_weight=0, feedback_weight=0, dated_boost=0,
                    name_weight=0)


def texts(k: Kenning, query: str, n: int) -> list[str]:
    return [h.memory.content for h in k.recall(query, k=n, track=False)]


def test_a_reply_is_found_through_the_turn_it_answers(
    make_kenning: Callable[..., Kenning],
) -> None:
    """The answer shares no word with the question; the turn before it does."""
    answer = "The runner image lost its network after the upgrade; pinning ubuntu 22.04 fixed it."
    notes = [
        {"text": "Why does the nightly deploy pipeline keep failing on the integration stage?",
         "created_at": T0 - 30 * DAY},
        {"text": answer, "created_at": T0 - 30 * DAY + MINUTE},
        {"text": "Lunch order for Friday: two vegetarian pizzas.",
         "created_at": T0 - 30 * DAY + 2 * MINUTE},
        # three hours later: another sitting, so not the question's neighbour
        {"text": "The upgrade of the runner image is scheduled for next quarter.",
         "created_at": T0 - 30 * DAY + 3 * HOUR},
        {"text": "The deploy pipeline dashboard moved to the new Grafana folder.",
         "created_at": T0 - 25 * DAY},
        {"text": "Integration stage of the pipeline now runs in parallel shards.",
         "created_at": T0 - 21 * DAY},
        {"text": "Failing tests on the nightly build are reported to the team channel.",
         "created_at": T0 - 18 * DAY},
    ]
    query = "why was the nightly deploy pipeline failing"
    notes = [dict(n, type="context") for n in notes]  # turns of a conversation
    with_stage = make_kenning("on.db", weights=replace(PLAIN, adjacent_weight=0.5))
    without = make_kenning("off.db", weights=PLAIN)
    for k in (with_stage, without):
        k.remember_many(notes)
    assert answer in texts(with_stage, query, 3)
    assert answer not in texts(without, query, 3)
    hit = next(h for h in with_stage.recall(query, k=3, track=False, explain=True)
               if h.memory.content == answer)
    assert hit.parts is not None and hit.parts["adjacent"] > 0


def test_a_memory_linked_to_a_strong_hit_joins_the_results(
    make_kenning: Callable[..., Kenning],
) -> None:
    """The incident the decision was made for matches none of the question's words."""
    incident = "Two cron workers ran the invoice export at once and billed customers twice."
    notes = [
        {"text": "Decision: the job queue takes a Postgres advisory lock before each run.",
         "created_at": T0 - 20 * DAY},
        {"text": incident, "created_at": T0 - 18 * DAY},
        {"text": "The job queue dashboard shows runs per hour.", "created_at": T0 - 16 * DAY},
        {"text": "Queue names must be lower case.", "created_at": T0 - 14 * DAY},
        {"text": "Advisory notes for new hires are in the handbook.",
         "created_at": T0 - 12 * DAY},
    ]
    query = "why does the job queue take an advisory lock"
    with_stage = make_kenning("on.db", weights=replace(PLAIN, linked_weight=0.5))
    without = make_kenning("off.db", weights=PLAIN)
    for k in (with_stage, without):
        decision, cause = k.remember_many(notes)[:2]
        k.link(decision.id, cause.id, "prevents")
    assert incident in texts(with_stage, query, 3)
    assert incident not in texts(without, query, 3)


def test_a_linked_memory_outside_the_filters_stays_out(
    make_kenning: Callable[..., Kenning],
) -> None:
    k = make_kenning()
    decision = k.remember("Decision: the job queue takes a Postgres advisory lock.",
                          type="decision")
    gotcha = k.remember("Two cron workers billed customers twice.", type="gotcha")
    k.link(decision.id, gotcha.id, "prevents")
    hits = k.recall("job queue advisory lock", types="decision", track=False)
    assert [h.memory.id for h in hits] == [decision.id]


def test_a_date_in_the_question_favours_what_was_recorded_then(
    make_kenning: Callable[..., Kenning],
) -> None:
    """Without it the newer, equally worded memory wins on recency."""
    march = "Released version 2 of the billing API to all customers."
    notes = [
        {"text": march, "created_at": datetime(2026, 3, 3, 15, tzinfo=UTC)},
        {"text": "Released version 3 of the billing API to all customers.",
         "created_at": datetime(2026, 4, 20, 15, tzinfo=UTC)},
    ]
    query = "which billing API version was released on 3 March 2026?"
    with_stage = make_kenning("on.db", weights=replace(PLAIN, dated_boost=0.5))
    without = make_kenning("off.db", weights=PLAIN)
    for k in (with_stage, without):
        k.remember_many(notes)
    assert texts(with_stage, query, 1) == [march]
    assert texts(without, query, 1) != [march]
    # --explain shows the factor, and the parts still multiply out to the score
    hit = with_stage.recall(query, k=1, track=False, explain=True)[0]
    p = hit.parts
    assert p is not None and p["dated"] == 1.5
    product = 1.0
    for part in ("relevance", "confidence_factor", "recency_factor", "intent", "episode",
                 "dated", "outcome", "superseded"):
        product *= p[part]
    assert abs(product - hit.score) < 1e-9
    assert "date asked for 1.50" in explain(hit.memory.id, p, RankWeights().graph_alpha)


def test_feedback_from_the_best_hit_finds_a_memory_worded_like_the_answer(
    make_kenning: Callable[..., Kenning],
) -> None:
    """The follow-up is too far from the question's words to count as relevant (cosine 0.16,
    under the 0.2 floor) but close to the memory that answers it."""
    follow_up = "Postgres on the primary now allows 200 clients."
    notes = [
        {"text": "Postgres connection pool exhausted under load; raised max_connections to 200.",
         "created_at": T0 - 10 * DAY},
        {"text": follow_up, "created_at": T0 - 5 * DAY},
        {"text": "Use pnpm, not npm, in the web folder.", "created_at": T0 - 4 * DAY},
        {"text": "The logo is an SVG in assets.", "created_at": T0 - 3 * DAY},
    ]
    query = "database connection pool exhausted"
    with_stage = make_kenning("on.db", weights=replace(PLAIN, feedback_weight=0.6))
    without = make_kenning("off.db", weights=PLAIN)
    for k in (with_stage, without):
        k.remember_many(notes)
    assert follow_up in texts(with_stage, query, 3)
    assert follow_up not in texts(without, query, 3)


def test_what_is_asked_about_a_name_finds_the_memory_that_answers_it(
    make_kenning: Callable[..., Kenning],
) -> None:
    """Every memory mentions Priya, so the name makes them all look alike to the question's
    vector; the answer shares nothing else with the question's words. Ranked by the question
    without the name, it rises; Marco's chess club, closest to the ask alone, gains nothing:
    it does not mention her."""
    answer = "Priya: on Saturday mornings I run drills for the under-12 football team."
    other = "Marco coaches the chess club after school."
    notes = [answer, other,
             "Priya said the sport centre opens at nine.",
             "Priya: what time does the standup start tomorrow?",
             "Priya asked for the coach tickets to the offsite.",
             "Priya: thanks, I'll review the pull request tonight.",
             "Priya is moving the team wiki to the new space."]
    query = "What sport does Priya coach?"
    with_stage = make_kenning("on.db", weights=replace(PLAIN, name_weight=0.3))
    without = make_kenning("off.db", weights=PLAIN)
    for k in (with_stage, without):
        k.remember_many({"text": t} for t in notes)
    assert answer in texts(with_stage, query, 3)
    assert answer not in texts(without, query, 3)
    hits = {h.memory.content: h for h in with_stage.recall(query, k=7, track=False,
                                                           explain=True)}
    named = hits[answer].parts
    assert named is not None and named["named"] > 0
    assert "from the names asked about" in explain(hits[answer].memory.id, named,
                                                   RankWeights().graph_alpha)
    assert "named" not in (hits[other].parts or {})
    # a question that names no one reads as before
    plain_query = "what sport is coached on saturday mornings"
    assert texts(with_stage, plain_query, 7) == texts(without, plain_query, 7)


def test_the_default_weights_turn_every_stage_on() -> None:
    w = RankWeights()
    assert min(w.adjacent_weight, w.linked_weight, w.feedback_weight, w.dated_boost,
               w.name_weight) > 0


# -- the pure parts --------------------------------------------------------------------------


def test_a_sitting_ends_at_a_long_pause_on_each_side() -> None:
    near = [("a", -MINUTE), ("b", MINUTE), ("c", -2 * HOUR), ("d", 20 * MINUTE),
            ("e", 2 * HOUR)]
    assert sitting(near, 30 * MINUTE) == ["a", "b", "d"]
    assert sitting(near, 3 * HOUR) == ["a", "c", "b", "d", "e"]


def test_adjacent_context_shares_the_best_neighbouring_relevance_both_ways() -> None:
    relevance = {"q": 0.9, "x": 0.2}
    neighbours = {"q": [("a", MINUTE), ("x", -MINUTE)], "x": [("q", MINUTE)]}
    got = adjacent_context(relevance, neighbours, 30 * MINUTE)
    assert got == {"q": 0.2, "a": 0.9, "x": 0.9}


def test_linked_context_follows_links_from_seeds_only_weighed_by_confidence() -> None:
    relevance = {"s": 0.8, "t": 0.5}
    links = [("s", "a", 0.5), ("b", "s", 1.0), ("t", "c", 1.0)]
    assert linked_context(relevance, ["s"], links) == {"a": 0.4, "b": 0.8}


def test_query_periods_read_days_and_months_not_bare_years_or_the_verb_may() -> None:
    now = int(datetime(2026, 5, 28, tzinfo=UTC).timestamp() * 1000)

    def day(y: int, m: int, d: int) -> int:
        return int(datetime(y, m, d, tzinfo=UTC).timestamp() * 1000)

    assert query_periods("what happened on 8 May, 2023?", now) == [
        (day(2023, 5, 8), day(2023, 5, 9))]
    assert query_periods("what did we ship on October 13, 2023", now) == [
        (day(2023, 10, 13), day(2023, 10, 14))]
    assert query_periods("the 2025-12-31 release", now) == [(day(2025, 12, 31), day(2026, 1, 1))]
    assert query_periods("outages in December 2023", now) == [
        (day(2023, 12, 1), day(2024, 1, 1))]
    assert query_periods("what broke in June", now) == [(day(2025, 6, 1), day(2025, 7, 1))]
    assert query_periods("what broke in May", now) == [(day(2026, 5, 1), day(2026, 6, 1))]
    assert query_periods("we may switch to uv in 2023", now) == []
    assert query_periods("why did it fail yesterday", now) == []
    # an impossible day still names its month
    assert query_periods("on 31 February 2023", now) == [(day(2023, 2, 1), day(2023, 3, 1))]


def test_query_names_are_capitalised_words_inside_a_sentence() -> None:
    assert query_names("What activities does Melanie partake in?") == ["Melanie"]
    assert query_names("Which city have both Jean and John visited?") == ["Jean", "John"]
    assert query_names("What are Melanie's pets' names? Did Melanie say?") == ["Melanie"]
    assert query_names("Why did we pick Redis over OpenSearch?") == ["Redis", "OpenSearch"]
    # a sentence's first word, question words, months and weekdays are not names
    assert query_names("Redis or not? When in June, On Monday, did I") == []
    assert query_names("what broke the deploy") == []


def test_without_names_takes_each_names_direction_out() -> None:
    import numpy as np

    name = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    query = np.array([0.6, 0.8, 0.0], dtype=np.float32)
    got = without_names(query, [name])
    assert np.allclose(got, [0.0, 1.0, 0.0]) and got.dtype == np.float32
    assert without_names(query, []) is query
    assert without_names(name, [name]) is name  # nothing left: the query as it was


def test_mentions_a_name_as_a_whole_word_in_any_field_and_case() -> None:
    m = Memory(id="M1", type=MemoryType.CONTEXT, topic=None, summary="Melanie: hi",
               content="Melanie: hi", category=Category.DEBUGGING, tags=("jean",), source=None,
               confidence=0.6, outcome=None, outcome_reason=None, project="p",
               scope=Scope.PROJECT, agent=None, created_at=T0, updated_at=T0,
               last_accessed_at=None, access_count=0, content_hash="h")
    assert mentions(m, ["Melanie"]) and mentions(m, ["Jean"]) and mentions(m, ["MELANIE"])
    assert not mentions(m, ["Mel"]) and not mentions(m, ["John"])


def test_mentions_any_of_several_names_and_never_a_part_of_a_word() -> None:
    m = Memory(id="M1", type=MemoryType.DECISION, topic="cache", summary="Chose C++ over Go",
               content="Redis.io docs; a+b", category=Category.ARCHITECTURE, tags=(),
               source=None, confidence=0.6, outcome=None, outcome_reason=None, project="p",
               scope=Scope.PROJECT, agent=None, created_at=T0, updated_at=T0,
               last_accessed_at=None, access_count=0, content_hash="h")
    assert mentions(m, ["Kafka", "Redis"]) and mentions(m, ["Redis", "Kafka"])
    assert mentions(m, ["Go", "Rust"]) and not mentions(m, ["Rust", "Kafka"])
    assert not mentions(m, ["Cach", "Ch"]) and not mentions(m, [])
    assert mentions(m, ["A+b"])  # a name is matched as it is written, not as a pattern


def test_nearest_and_strongest_rank_best_first_with_ties_by_id_at_any_limit() -> None:
    import random

    import numpy as np

    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 40)
        # Few distinct values: ties at the cut are common.
        rows = {f"m{rng.randrange(10**6):06d}": np.array(
            [rng.choice([0.0, 0.5, 1.0]), rng.choice([0.0, 1.0])], dtype=np.float32)
            for _ in range(n)}
        query = np.array([1.0, 0.5], dtype=np.float32)
        sims = {mid: float(v @ query) for mid, v in rows.items()}
        for limit in (0, 1, 2, 5, len(rows) - 1, len(rows), len(rows) + 3):
            expected = sorted(sims.items(), key=lambda t: (-t[1], t[0]))[:limit]
            assert nearest(query, rows, limit) == expected
            assert strongest(sims, limit) == [mid for mid, _ in expected]
    assert nearest(np.zeros(2, dtype=np.float32), {}, 3) == []


def test_spread_normalises_over_the_candidates() -> None:
    assert spread([("a", 0.9), ("b", 0.5), ("c", 0.7)]) == {"a": 1.0, "b": 0.0,
                                                             "c": pytest.approx(0.5)}
    assert spread([("a", 0.4), ("b", 0.4)]) == {"a": 1.0, "b": 1.0}
    assert spread([]) == {}


def test_within_applies_the_filters_as_the_store_does() -> None:
    m = Memory(id="M1", type=MemoryType.GOTCHA, topic="db", summary="s", content="c",
               category=Category.DEBUGGING,
               tags=(), source=None, confidence=0.6, outcome=None, outcome_reason=None,
               project="other", scope=Scope.USER, agent=None, created_at=T0, updated_at=T0,
               last_accessed_at=None, access_count=0, content_hash="h")
    assert within(Filters(project="p"), m)  # a user-scope memory shows in every project
    assert not within(Filters(project="p"), replace(m, scope=Scope.PROJECT))
    assert not within(Filters(types=(MemoryType.DECISION,)), m)
    assert within(Filters(topic="db", since=T0, until=T0 + 1), m)
    assert not within(Filters(until=T0), m)
    assert not within(Filters(agent="reviewer"), m)


def test_lessons_saved_in_one_sitting_lend_each_other_nothing(
    make_kenning: Callable[..., Kenning],
) -> None:
    """Adjacency is evidence between turns of a conversation, not between lessons: the styling
    rule saved a minute after the Redis decision is not a Redis result."""
    k = make_kenning("lessons.db", weights=replace(PLAIN, adjacent_weight=0.5))
    k.remember_many([
        {"text": "Use Redis for the session store", "type": "decision",
         "created_at": T0 - DAY},
        {"text": "Tailwind for styling the dashboard", "type": "decision",
         "created_at": T0 - DAY + MINUTE},
    ])
    assert texts(k, "Redis", 5) == ["Use Redis for the session store"]
