"""What the prompt hook injects: compact markdown, one line per memory with its id, and the
prompt words that explain the match."""

from kenning import learning
from kenning import weights as W
from kenning.drift import drift_note
from kenning.journal.seen import key as seen_key
from kenning.words import STOPWORDS, query_terms, words

TYPE_CHECKING = False
if TYPE_CHECKING:  # the prompt hook never imports collections
    from collections.abc import Collection
    from typing import Any

_OUTCOME = dict(W.OUTCOME_FACTOR)
_DRIFT = dict(W.DRIFT_FACTOR)

PROMPT_CHARS = 4000  # only the head of a huge prompt is searched
MAX_TERMS = 16
CANDIDATES = 40  # best keyword matches that are scored in full
COMMON_FRACTION = 0.05  # in large stores, terms in more than 5 % of memories are dropped
COMMON_FROM = 2000


def hit(mid: str, mtype: str, topic: str | None, summary: str, stored_confidence: float,
        created: int, updated: int, accessed: int | None, outcome: str | None,
        relevance: float, pagerank: float, valid_to: int | None, now_ms: int, *, graph: bool,
        min_confidence: float = 0.0, detail: str = "", use: float = 1.0,
        drift: str | None = None, drift_reason: str | None = None
        ) -> dict[str, object] | None:
    """One candidate scored as ``kenning.ranking.final_scores`` scores it (keyword relevance,
    decayed confidence, recency, PageRank, outcome), with its parts; None when its confidence
    is below ``min_confidence`` or a successor superseded it by ``now_ms``: the model is never
    shown a memory that stopped being true. Both prompt paths (index and store) use it. ``use``
    scales it by what earlier injections taught (``kenning.usage.injection_factor``, carried by
    the prompt index; 1.0 on the store fallback and in recall, which never learned it).
    ``drift`` ranks down a memory whose code changed (stale) or went (obsolete), as recall
    does; its reason is shown with it."""
    if W.superseded(valid_to, now_ms):
        return None
    confidence = learning.decayed(stored_confidence,
                                  learning.anchor_ms(created, updated, accessed), now_ms, mtype)
    if confidence < min_confidence:
        return None
    rec = W.recency(created, now_ms)
    score = relevance * (1 - W.CONFIDENCE_WEIGHT + W.CONFIDENCE_WEIGHT * confidence)
    score *= 1 - W.RECENCY_WEIGHT + W.RECENCY_WEIGHT * rec
    said = W.EPISODE_FACTOR if W.episodic(mtype, topic) else 1.0
    score *= said
    if graph:
        score = W.GRAPH_ALPHA * score + (1 - W.GRAPH_ALPHA) * pagerank
    out_f = _OUTCOME.get(outcome, 1.0) if outcome else 1.0
    drift_f = _DRIFT.get(drift, 1.0) if drift else 1.0
    score *= out_f * drift_f * use
    return {
        "id": mid, "type": mtype, "topic": topic or None, "summary": summary,
        "confidence": round(confidence, 3), "outcome": outcome or None, "score": round(score, 4),
        "detail": detail, "drift": drift or None, "drift_reason": drift_reason or None,
        "parts": {"keyword": round(relevance, 4), "confidence": round(confidence, 3),
                  "recency": round(rec, 3), "pagerank": round(pagerank, 4), "outcome": out_f,
                  "episode": said, "use": round(use, 3), "drift": drift_f},
    }


def _number(value: object) -> float:
    """A hit's score as a number (a hit is a loosely typed dict: it goes to the journal as
    JSON)."""
    return float(value) if isinstance(value, int | float) else 0.0


def _text(value: object) -> str | None:
    """A hit's optional text field (its topic)."""
    return value if isinstance(value, str) else None


def matching_rows(rows: "list[tuple[Any, ...]]", asked: list[str]) -> "list[tuple[Any, ...]]":
    """The store fallbacks' candidate rows (as ``best_rows`` takes them, plus content and tags,
    then drift and its reason) that share enough of the prompt's words (``asked``) to be shown, as
    ``best_rows`` takes them: the content turned into the memory's detail, the tags dropped."""
    from kenning.promptindex import format as F

    wanted = {F.stem(t) for t in asked}
    kept = []
    for r in rows:
        if W.track_record_line(str(r[1]), str(r[3])):
            continue  # as the prompt index leaves it out: it repeats its memory's words
        have = set(F.terms_of(f"{r[2] or ''} {r[3]} {r[12]} {r[13]}"))
        if matches_enough(r[1], r[2], len(wanted & have), len(asked)):
            kept.append((*r[:12], F.detail_of(str(r[3]), str(r[12] or "")), *r[14:16]))
    return kept


def best_rows(rows: "list[tuple[Any, ...]]", now_ms: int, k: int,
              min_confidence: float = 0.0, seen: "Collection[str]" = ()
              ) -> list[dict[str, object]]:
    """The top ``k`` of a store's candidate rows: (id, type, topic, summary, confidence, created,
    updated, accessed, outcome, keyword score (higher is better), PageRank or None, valid_to,
    detail, and optionally drift and its reason), keyword scores taken relative to the best.
    Both store fallbacks (SQLite, PostgreSQL) use it."""
    if not rows:
        return []
    top = max(float(r[9]) for r in rows)
    graph = any(r[10] is not None for r in rows)
    return best([
        hit(mid, mtype, topic, summary, conf, created, updated, accessed, outcome,
            (float(s) / top) if top > 0 else 1.0, pr or 0.0, valid_to, now_ms,
            graph=graph, min_confidence=min_confidence, detail=detail,
            drift=drift[0] if drift else None, drift_reason=drift[1] if drift else None)
        for (mid, mtype, topic, summary, conf, created, updated, accessed, outcome, s, pr,
             valid_to, detail, *drift) in rows], k, seen)


MAX_EPISODES = 1  # records (kept user turns, session summaries) shown per prompt, at most
EPISODE_MIN_TERMS = 3  # distinct prompt words a record must share to be shown


def matches_enough(mtype: str, topic: str | None, matched: int, asked: int,
                   said: int | None = None) -> bool:
    """Whether a candidate shares enough of the prompt's words to be worth showing: ``matched``
    prompt words reach it, ``said`` of them (all when None) in their own form rather than by a
    word near in meaning. A record of a session (a kept user turn, a session summary) is long,
    everyday text: one shared word ("test", "make") says nothing, so it needs
    ``EPISODE_MIN_TERMS`` of the prompt's own words (or every word of a shorter prompt); a
    near word does not count for it (its many words have many neighbours). A learned memory is
    short and specific: one word, or one near in meaning, is evidence. A session summary is
    never shown: what it holds reaches the prompt as the lessons and the user's own words it
    was made from (``kenning insights`` and recall still find it)."""
    if mtype == "session":
        return False
    if W.record(mtype, topic):
        return (matched if said is None else said) >= min(EPISODE_MIN_TERMS, max(1, asked))
    return matched >= 1


def best(hits: list[dict[str, object] | None], k: int, seen: "Collection[str]" = ()
         ) -> list[dict[str, object]]:
    """The top ``k`` scored hits, ties by id; at most ``MAX_EPISODES`` of them records, so what
    was said verbatim never crowds out what was learned; no two with the same line. A hit the
    model was already shown in this conversation (its id or its line's key in ``seen``) does
    not count towards ``k``: it comes back marked ``"seen": True``, for the journal (it bears on
    this prompt, so what follows judges it) but not for the model. One whose line the model has
    (from MEMORY.md or the briefing) but whose detail it has not comes back marked
    ``"known_line": True``: ``render`` shows it only with its detail."""
    kept = [h for h in hits if h is not None]
    kept.sort(key=lambda h: (-_number(h["score"]), str(h["id"])))
    # one hit per line, in the place of the best-scored; the one with detail if any has some
    first: dict[str, int] = {}
    chosen: list[dict[str, object]] = []
    for h in kept:
        line = seen_key(str(h["summary"]))
        if line not in first:
            first[line] = len(chosen)
            chosen.append(h)
        elif h.get("detail") and not chosen[first[line]].get("detail"):
            chosen[first[line]] = h
    out: list[dict[str, object]] = []
    episodes = fresh = 0
    for h in chosen:
        line = seen_key(str(h["summary"]))
        if h["id"] in seen or (line in seen and not adds_to(str(h["summary"]),
                                                          str(h.get("detail") or ""))):
            if len(out) - fresh < k:
                out.append({**h, "seen": True})
            continue
        if line in seen:  # its line is known, its detail is not: worth it only with the detail
            h = {**h, "known_line": True}
        if W.record(str(h["type"]), _text(h["topic"])):
            if episodes >= MAX_EPISODES:
                continue
            episodes += 1
        out.append(h)
        fresh += 1
        if fresh == k:
            break
    return out


QUOTED = "(as the user put it:"  # how a rule's content keeps the user's own sentence
NEW_WORDS = 4  # content words a detail must add to a line the model has, at least ...
NEW_SHARE = 0.3  # ... and this share of its own content words


SEEN_CHARS = 120  # of a summary, surely in the line the model has (MEMORY.md cuts the rest)


def adds_to(summary: str, detail: str) -> bool:
    """Whether ``detail`` says enough that ``summary`` does not for a line the model already
    has (from MEMORY.md or the briefing) to be worth showing again with it: the user's own
    sentence restating the rule ("also, house rule: prefer named exports ...") is not; the
    why it gives ("I want to see the SQL before anything touches my database") or a gotcha's
    cause and fix is. Only the summary's first ``SEEN_CHARS`` count as seen: a long line is
    cut in MEMORY.md."""
    detail = summary[SEEN_CHARS:] + " " + detail.removeprefix(QUOTED)
    have = {w for w in words(summary[:SEEN_CHARS].lower()) if len(w) > 2 and w not in STOPWORDS}
    said = {w for w in words(detail.lower()) if len(w) > 2 and w not in STOPWORDS}
    new = said - have
    return len(new) >= NEW_WORDS and len(new) >= NEW_SHARE * len(said)


def matched_terms(prompt: str, hits: list[dict[str, object]]) -> list[str]:
    """Prompt words found in the injected summaries: why they matched, without storing any of
    the prompt that is not already in the store."""
    text = " ".join(f"{h['topic'] or ''} {h['summary']}" for h in hits).lower()
    return [t for t in query_terms(prompt[:PROMPT_CHARS], MAX_TERMS) if t in text][:8]


DETAILED = 2  # the best matches shown with their detail (the why, the fix, the command)


HEADER = ("Kenning memory: what this project learned that bears on this prompt "
          "(ids work with the kenning MCP tools `get` and `why`):")
SHORT_HEADER = "Kenning memory:"  # once the conversation holds the full header


def render(hits: list[dict[str, object]], max_chars: int, first: bool = True
           ) -> tuple[str, list[dict[str, object]]]:
    """Compact markdown within ``max_chars``: the best matches (up to ``DETAILED`` of them, at
    least half as relevant as the best) with their detail on an indented line, the rest one line
    each, every one with its id for the MCP tools; hits marked ``seen`` left out, and those
    marked ``known_line`` unless they get their detail. When some do not fit, one short line
    says how many more there are. The header says what the lines are on the ``first``
    injection of a conversation and is two words after it. Returns the text and the hits
    shown."""
    shown: list[dict[str, object]] = []
    hits = [h for h in hits if not h.get("seen")]
    if not hits:
        return "", shown
    head = HEADER if first else SHORT_HEADER
    lines = [head]
    size = len(head)
    best_score = _number(hits[0]["score"])
    left = 0
    for n, h in enumerate(hits):
        said = W.episodic(str(h["type"]), _text(h["topic"]))
        label = "the user said earlier" if said else (
            str(h["type"]) + (f" · {h['topic']}" if h["topic"] else ""))
        extra = f"; outcome {h['outcome']}" if h["outcome"] else ""
        if h.get("drift"):  # the code it describes changed since: the model should check it
            extra += f"; {drift_note(str(h.get('drift_reason') or h['drift']))}"
        line = f"- [{label}] {h['summary']} (id {h['id']}{extra})"
        detail = str(h.get("detail") or "")
        if (detail and not said and len(shown) < DETAILED
                and _number(h["score"]) >= 0.5 * best_score
                and size + 2 + len(line) + len(detail) + 3 <= max_chars - MORE_RESERVE):
            line += "\n  " + detail
        elif h.get("known_line"):
            continue  # the model has this line already; without its detail it adds nothing
        if size + 1 + len(line) > max_chars - (MORE_RESERVE if n + 1 < len(hits) else 0):
            left = len(hits) - n
            break
        lines.append(line)
        shown.append(h)
        size += 1 + len(line)
    if not shown:
        return "", shown
    if left:
        lines.append(f"(+{left} more: `recall`)")
    return "\n".join(lines), shown


MORE_RESERVE = 24  # room kept for the "(+N more: `recall`)" line
