"""The dashboard's JSON API: one table of routes (method, path, parameters, handler) that both
the Starlette router and the OpenAPI document are built from, so the two cannot drift apart.

Handlers are thin adapters over ``kenning.Kenning``; write routes are marked and refused unless
the server was started with ``--allow-writes``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from kenning.errors import NotFoundError, ValidationError
from kenning.web.graphdata import GraphCache
from kenning.web.sources import feature, features, unavailable

if TYPE_CHECKING:
    from kenning.facade import Kenning
    from kenning.recall import Mode

MAX_PAGE = 500


@dataclass(frozen=True)
class Param:
    """One query or path parameter, as OpenAPI describes it."""

    name: str
    where: str = "query"  # "query" or "path"
    type: str = "string"  # "string", "integer", "number"
    description: str = ""
    required: bool = False
    repeat: bool = False


@dataclass(frozen=True)
class Body:
    """A JSON request body: its properties (name -> (type, description)) and required names."""

    properties: Mapping[str, tuple[str, str]]
    required: tuple[str, ...] = ()


@dataclass(frozen=True)
class RouteSpec:
    """A JSON API route: the handler gets a Request view and returns a JSON-ready value."""

    method: str
    path: str
    summary: str
    handler: Callable[[Call], Any]
    params: tuple[Param, ...] = ()
    body: Body | None = None
    write: bool = False
    tag: str = "read"


@dataclass
class Call:
    """What a handler needs: the facade, path and query parameters, the JSON body."""

    k: Kenning
    graph: GraphCache
    path: Mapping[str, str]
    query: Any  # starlette QueryParams (get / getlist)
    body: dict[str, Any] = field(default_factory=dict)
    allow_writes: bool = False

    def text(self, name: str) -> str | None:
        value = self.query.get(name)
        return value.strip() or None if value is not None else None

    def many(self, name: str) -> list[str] | None:
        values = [s.strip() for v in self.query.getlist(name) for s in v.split(",") if s.strip()]
        return values or None

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            raise ValidationError(f"{name} must be a whole number, not {raw!r}") from None
        if not low <= value <= high:
            raise ValidationError(f"{name} must be between {low} and {high}")
        return value

    def number(self, name: str, default: float) -> float:
        raw = self.text(name)
        if raw is None:
            return default
        try:
            return float(raw)
        except ValueError:
            raise ValidationError(f"{name} must be a number, not {raw!r}") from None


FILTER_PARAMS = (
    Param("type", description="Only these memory types (repeatable or comma-separated).",
          repeat=True),
    Param("topic", description="Only this topic."),
    Param("scope", description="project, local or user (repeatable).", repeat=True),
    Param("agent", description="Only this agent's memories."),
    Param("since", description="ISO date/time or age such as 7d."),
    Param("until", description="ISO date/time or age."),
)
MEMORY_ID = Param("memory_id", "path", description="Memory id or unique prefix.", required=True)
LINK_ID = Param("link_id", "path", description="Link id.", required=True)


def _filters(c: Call) -> dict[str, Any]:
    return {"types": c.many("type"), "topic": c.text("topic"), "scope": c.many("scope"),
            "agent": c.text("agent"), "since": c.text("since"), "until": c.text("until")}


def _brief(m: Any) -> dict[str, Any]:
    """The few fields a list or link row shows about a memory."""
    return {"id": m.id, "type": m.type.value, "topic": m.topic, "summary": m.summary,
            "confidence": round(m.confidence, 4), "outcome": m.outcome.value if m.outcome
            else None, "created_at": m.to_dict()["created_at"], "drift": m.drift,
            "drift_reason": m.drift_reason}


# -- read handlers -----------------------------------------------------------------------------


def status(c: Call) -> dict[str, Any]:
    from kenning import __version__

    k = c.k
    return {
        "version": __version__,
        "project": k.project,
        "store": k.store.location,
        "read_only": not c.allow_writes,
        "memories": k.count(),
        "embedder": k.embedder.id if k.embedder is not None else None,
        "features": features(k),
        "memory_types": [t.value for t in _memory_types()],
        "scopes": ["project", "local", "user"],
    }


def _memory_types() -> list[Any]:
    from kenning.models import MemoryType

    return list(MemoryType)


def memories(c: Call) -> dict[str, Any]:
    k, f = c.k, _filters(c)
    limit = c.integer("limit", 50, 1, MAX_PAGE)
    query = c.text("q")
    if query:
        # the facade refuses a mode it does not know (a 400 here), so the text is passed as it came
        mode = cast("Mode", c.text("mode") or "hybrid")
        hits = k.recall(query, k=limit, explain=True, mode=mode, track=False, **f)
        items = [{**_brief(h.memory), "tags": list(h.memory.tags), "scope": h.memory.scope.value,
                  "agent": h.memory.agent, "score": round(h.score, 6),
                  "explain": {p: round(x, 6) for p, x in (h.parts or {}).items()}}
                 for h in hits]
        return {"query": query, "mode": mode, "total": len(items), "offset": 0, "items": items}
    offset = c.integer("offset", 0, 0, 10_000_000)
    found = k.list(limit=limit, offset=offset, **f)
    return {"query": None, "total": k.count(**f), "offset": offset,
            "items": [{**_brief(m), "tags": list(m.tags), "scope": m.scope.value,
                       "agent": m.agent} for m in found]}


def memory(c: Call) -> dict[str, Any]:
    k = c.k
    m = k.get(c.path["memory_id"])
    links = k.links(m.id)
    others = k.store.get_many(sorted({ln.to_id if ln.from_id == m.id else ln.from_id
                                      for ln in links}))
    rows = []
    for ln in links:
        outgoing = ln.from_id == m.id
        other = others.get(ln.to_id if outgoing else ln.from_id)
        rows.append({**ln.to_dict(), "direction": "out" if outgoing else "in",
                     "reason": ln.metadata.get("reason"),
                     "other": _brief(other) if other is not None else None})
    history = feature(k, "confidence_history")
    why = [e.to_dict() for e in k.why(m.topic)][:20] if m.topic else []
    return {
        "memory": m.to_dict(),
        "links": rows,
        "confidence_history": {"available": True, "items": history(m.id)} if history
        else unavailable("confidence_history"),
        "why": why,
        "impact": [{**_brief(x), "depth": r.depth, "confidence": round(r.confidence, 4),
                    "via": r.via.relationship if r.via else None}
                   for x, r in k.impact(m.id)][:50],
    }


def related(c: Call) -> dict[str, Any]:
    depth = c.integer("depth", 2, 1, 5)
    found = c.k.related(c.path["memory_id"], depth=depth,
                        min_confidence=c.number("min_confidence", 0.3))
    return {"items": [{**_brief(m), "depth": r.depth, "path_confidence": round(r.confidence, 4),
                       "via": r.via.relationship if r.via else None} for m, r in found[:200]]}


def graph(c: Call) -> dict[str, Any]:
    return c.graph.get(c.k)


def topics(c: Call) -> dict[str, Any]:
    return {"items": c.k.topics(c.integer("limit", 500, 1, 100_000))}


def why(c: Call) -> dict[str, Any]:
    topic = c.text("topic")
    if not topic:
        raise ValidationError("give a topic")
    return {"topic": topic, "items": [e.to_dict() for e in c.k.why(topic)]}


MERGE = re.compile(r"^Merge '(?P<word>.+)' into '(?P<into>.+)' \(")
ARCHIVE = re.compile(r"^Archive '(?P<word>.+)' \(")


def actions(recommendations: list[str]) -> list[dict[str, Any]]:
    """Each recommendation with the write action that carries it out, if there is one."""
    out = []
    for text in recommendations:
        merge, archive = MERGE.match(text), ARCHIVE.match(text)
        if merge:
            out.append({"text": text, "action": "merge", "word": merge["word"],
                        "into": merge["into"]})
        elif archive:
            out.append({"text": text, "action": "review_links", "word": archive["word"]})
        else:
            out.append({"text": text, "action": None})
    return out


def health(c: Call) -> dict[str, Any]:
    k = c.k
    report = k.health()
    g = c.graph.get(k)
    nodes = g["nodes"]
    isolated = [i for i, d in enumerate(nodes["degree"]) if d == 0]
    return {
        "health": report,
        "stats": k.graph_stats(),
        "recommendations": actions(report.get("recommendations", [])),
        "isolated": [{"id": nodes["id"][i], "summary": nodes["label"][i],
                      "topic": nodes["topic"][i]} for i in isolated[:25]],
        "top": [{**_brief(m), "rank": round(pr, 4), "community": com}
                for m, pr, com in k.top(10)],
        "communities": [{"community": x["community"], "size": x["size"], "topics": x["topics"]}
                        for x in k.communities(limit=10)],
    }


def word_links(c: Call) -> dict[str, Any]:
    word = c.path["word"]
    return {"relationship": word, "items": [ln.to_dict() for ln in c.k.links_with_word(word)]}


def injections(c: Call) -> dict[str, Any]:
    source = feature(c.k, "injections")
    if source is None:
        return unavailable("injections")
    return {"available": True, "items": source(limit=c.integer("limit", 50, 1, 1000))}


def stale(c: Call) -> dict[str, Any]:
    items = c.k.stale(c.integer("limit", 100, 1, MAX_PAGE))
    return {"total": len(items), "items": items}


def memory_md(c: Call) -> dict[str, Any]:
    source = feature(c.k, "curate_preview")
    if source is None:
        return unavailable("curate_preview")
    return {"available": True, **source()}


# -- write handlers ----------------------------------------------------------------------------


def _body_text(c: Call, name: str) -> str:
    value = c.body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"body field {name!r} must be a non-empty string")
    return value


def merge_relationship(c: Call) -> dict[str, Any]:
    from kenning.redact import redact

    word, into = _body_text(c, "word"), _body_text(c, "into")
    moved = c.k.merge_relationship(word, into)
    return {"word": redact(word).text, "into": redact(into).text, "moved": moved}


def forget(c: Call) -> dict[str, Any]:
    return {"forgotten": c.k.forget(c.path["memory_id"]).to_dict()}


def delete_link(c: Call) -> dict[str, Any]:
    if not c.k.unlink(c.path["link_id"]):
        raise NotFoundError(f"no link with id {c.path['link_id']}")
    return {"deleted": c.path["link_id"]}


def downvote_link(c: Call) -> dict[str, Any]:
    step = c.body.get("step", 0.2)
    if isinstance(step, bool) or not isinstance(step, int | float):
        raise ValidationError("body field 'step' must be a number")
    return {"link": c.k.downvote_link(c.path["link_id"], float(step)).to_dict()}


ROUTES: tuple[RouteSpec, ...] = (
    RouteSpec("GET", "/api/status", "Server, store and feature status", status),
    RouteSpec("GET", "/api/memories", "List memories, or search them (hybrid recall with "
              "explain) when q is given", memories, (
                  Param("q", description="Search text; empty lists newest first."),
                  Param("mode", description="hybrid, keyword or vector."),
                  *FILTER_PARAMS,
                  Param("limit", type="integer", description="Page size (1-500)."),
                  Param("offset", type="integer", description="Skip this many (list only)."),
              )),
    RouteSpec("GET", "/api/memories/{memory_id}", "A memory with its links, confidence history, "
              "topic timeline and impact", memory, (MEMORY_ID,)),
    RouteSpec("GET", "/api/memories/{memory_id}/related", "Memories within a few links",
              related, (MEMORY_ID, Param("depth", type="integer", description="1-5."),
                        Param("min_confidence", type="number",
                              description="Minimum path confidence."))),
    RouteSpec("GET", "/api/graph", "The whole graph, laid out: nodes (position, PageRank, "
              "community, type) and edges (core type, confidence) as columns", graph),
    RouteSpec("GET", "/api/topics", "Topics, most used first", topics,
              (Param("limit", type="integer", description="At most this many."),)),
    RouteSpec("GET", "/api/why", "A topic's decision timeline with outcomes", why,
              (Param("topic", description="Topic key or memory id.", required=True),)),
    RouteSpec("GET", "/api/health", "Graph health, recommendations and their actions", health),
    RouteSpec("GET", "/api/relationships/{word}/links", "Links said with exactly this "
              "relationship word", word_links,
              (Param("word", "path", description="Relationship word.", required=True),)),
    RouteSpec("GET", "/api/injections", "What Kenning injected into recent prompts, and why",
              injections, (Param("limit", type="integer", description="At most this many."),)),
    RouteSpec("GET", "/api/memory-md", "The MEMORY.md preview with its limits", memory_md),
    RouteSpec("GET", "/api/stale", "Memories whose code changed (stale) or went (obsolete) since "
              "they were recorded, with why and their anchors, as of the last check", stale,
              (Param("limit", type="integer", description="At most this many (1-500)."),)),
    RouteSpec("POST", "/api/relationships/merge", "Merge a relationship word into another",
              merge_relationship, body=Body({"word": ("string", "The word to merge away."),
                                             "into": ("string", "The word to keep.")},
                                            ("word", "into")), write=True, tag="write"),
    RouteSpec("DELETE", "/api/memories/{memory_id}", "Forget (delete) a memory with its links",
              forget, (MEMORY_ID,), write=True, tag="write"),
    RouteSpec("DELETE", "/api/links/{link_id}", "Delete a link", delete_link, (LINK_ID,),
              write=True, tag="write"),
    RouteSpec("POST", "/api/links/{link_id}/downvote", "Down-vote a link: lower its "
              "confidence", downvote_link, (LINK_ID,),
              body=Body({"step": ("number", "How much to lower it (default 0.2).")}),
              write=True, tag="write"),
)
