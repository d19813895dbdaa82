"""The ``kenning`` command: a thin layer over ``kenning.Kenning``. Every command takes ``--json``
and ``--db``; errors are one line on stderr with a non-zero exit."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from kenning import memtable
from kenning.cliutil import (
    AgentOpt,
    DbOpt,
    JsonOpt,
    ScopeOpt,
    SinceOpt,
    TopicOpt,
    TypesOpt,
    UntilOpt,
    emit,
    fail,
    memory_table,
    open_kenning,
    register_command_modules,
    short,
)
from kenning.errors import KenningError
from kenning.fastcli import missing_store, nothing_here

app = typer.Typer(
    name="kenning",
    help="Local-first, self-learning memory for AI coding agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        from kenning import __version__

        typer.echo(f"kenning {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print Kenning's version and exit.")] = False,
) -> None:
    """Local-first, self-learning memory for AI coding agents."""

@app.command()
def remember(
    text: Annotated[str, typer.Argument(help="What to remember ('-' reads stdin).")],
    type_: Annotated[str, typer.Option("--type", "-t", help="decision, checkpoint, insight, "
                                       "context, pattern, gotcha, outcome, discovery, session, "
                                       "preference.")] = "insight",
    topic: Annotated[str | None, typer.Option(help="Topic key, e.g. auth_strategy.")] = None,
    summary: Annotated[str | None, typer.Option(help="One-line summary.")] = None,
    category: Annotated[str | None, typer.Option(help="project-patterns, debugging, "
                                                 "architecture, preferences, performance, "
                                                 "security.")] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Tag (repeatable).")] = None,
    source: Annotated[str | None, typer.Option(help="Who or what learned it.")] = None,
    confidence: Annotated[float | None, typer.Option(help="0 to 1.")] = None,
    scope: Annotated[str, typer.Option(help="project, local or user.")] = "project",
    agent: Annotated[str | None, typer.Option(help="Agent name.")] = None,
    metadata: Annotated[str | None, typer.Option(help="JSON object.")] = None,
    created_at: Annotated[str | None, typer.Option("--created-at", help="ISO time.")] = None,
    supersedes: Annotated[list[str] | None, typer.Option(help="Id this replaces.")] = None,
    refines: Annotated[list[str] | None, typer.Option(help="Id this refines.")] = None,
    improves: Annotated[list[str] | None, typer.Option(help="Id this improves.")] = None,
    implements: Annotated[list[str] | None, typer.Option(help="Id this implements.")] = None,
    outcome_of: Annotated[list[str] | None, typer.Option("--outcome-of",
                                                         help="Id this is the outcome of.")
                          ] = None,
    link: Annotated[list[str] | None, typer.Option(
        "--link", help="ID:RELATIONSHIP, any words (repeatable).")] = None,
    reason: Annotated[str | None, typer.Option(help="Why (kept with the links).")] = None,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Remember something (secrets are redacted before anything is stored)."""
    if text == "-":
        text = sys.stdin.read()
    meta = None
    if metadata is not None:
        try:
            meta = json.loads(metadata)
        except ValueError as exc:
            fail(f"--metadata is not valid JSON: {exc}")
    links = []
    for item in link or ():
        target, sep, rel = item.partition(":")
        if not sep or not target.strip() or not rel.strip():
            fail(f"--link {item!r}: use ID:RELATIONSHIP, e.g. 01KSR4:inspired_by", 2)
        links.append({"to_id": target.strip(), "relationship": rel.strip()})
    explicit = {"supersedes": supersedes, "refines": refines, "improves": improves,
                "implements": implements, "outcome_of": outcome_of}
    fields: dict[str, Any] = dict(
        type=type_, topic=topic, summary=summary, category=category, tags=tag or (),
        source=source, confidence=confidence, scope=scope, agent=agent, metadata=meta,
        created_at=created_at, links=links, reason=reason,
        **{key: value for key, value in explicit.items() if value})

    def kept_in_files(why: str) -> None:
        from kenning import fileonly

        r = fileonly.cli_remember(db, text, fields, why)
        if json_:
            emit({**r, "created": False, "store_error": why})
        else:
            typer.echo(f"warning: {why}", err=True)
            typer.echo(f"kept {r['id']} in {r['journal']}: it is stored when the store is back")

    with open_kenning(db, file_only=kept_in_files) as k:
        from kenning.fileonly import ingest_pending

        ingest_pending(k)  # what was kept while the store was unavailable comes first
        m = k.remember(text, **fields)
        if json_:
            emit({**m.to_dict(), "created": m.is_new})
        elif m.is_new:
            typer.echo(f"remembered {m.id}  {m.type.value}  {short(m.summary, 70)}")
        else:
            typer.echo(f"already remembered as {m.id}  {short(m.summary, 70)}")


@app.command()
def recall(
    query: Annotated[str, typer.Argument(help="What you are looking for.")],
    k_: Annotated[int, typer.Option("-k", "--limit", help="How many results.")] = 10,
    type_: TypesOpt = None,
    topic: TopicOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    scope: ScopeOpt = None,
    agent: AgentOpt = None,
    explain: Annotated[bool, typer.Option(help="Show each part of every score.")] = False,
    mode: Annotated[str, typer.Option(help="hybrid, keyword or vector.")] = "hybrid",
    context: Annotated[str | None, typer.Option(
        help="Boost memories linked to this one (contextual search).")] = None,
    weak: Annotated[bool, typer.Option(
        help="Return the k best even when they match no keyword and are not close in "
        "meaning (by default such weak hits are left out).")] = False,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Find the memories that matter for a query (keyword + vector, fused and ranked)."""
    def from_files(why: str) -> None:
        from kenning import fileonly

        found = fileonly.cli_recall(db, query, k_)
        if json_:
            emit({"query": query, "count": len(found), "store_error": why, "file_only": True,
                  "hits": [{"id": h.id, "score": round(h.score, 4), "where": h.where,
                            "text": h.text} for h in found]})
            return
        typer.echo(f"warning: {why}; searching files only", err=True)
        for h in found:
            typer.echo(f"{h.score:.2f}  {h.where}  {short(h.text, 90)}")
        if not found:
            typer.echo("no memories match in the files")

    with open_kenning(db, file_only=from_files, create=False) as k:
        hits = k.recall(
            query, k=k_, types=type_, topic=topic, since=since, until=until, scope=scope,
            agent=agent, explain=explain, mode=mode, context=context, weak=weak,
        )
        if json_:
            emit({"query": query, "count": len(hits), "hits": [h.to_dict() for h in hits]})
            return
        if not hits:
            typer.echo(nothing_here(k, db, "no memories match" if weak else
                                    "no memories match (--weak lists the nearest ones anyway)"))
            return
        ids = memory_table(k, [h.memory for h in hits], scores=[h.score for h in hits])
        if explain:
            for h in hits:
                typer.echo(memtable.explain(ids[h.memory.id], h.parts or {},
                                            k.weights.graph_alpha))


@app.command()
def show(
    memory_id: Annotated[str, typer.Argument(help="Id or unique id prefix.")],
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Show one memory in full, with its links."""
    with open_kenning(db, create=False) as k:
        m = k.get(memory_id)
        links = k.links(m.id)
        if json_:
            emit({**m.to_dict(), "links": [ln.to_dict() for ln in links]})
            return
        typer.echo(memtable.render_memory(m.to_dict(), [ln.to_dict() for ln in links]),
                   nl=False)


@app.command("list")
def list_(
    type_: TypesOpt = None,
    topic: TopicOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    scope: ScopeOpt = None,
    agent: AgentOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many.")] = 50,
    offset: Annotated[int, typer.Option(min=0, help="Skip this many.")] = 0,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """List memories of this project, newest first."""
    with open_kenning(db, create=False) as k:
        filters = dict(types=type_, topic=topic, since=since, until=until, scope=scope,
                       agent=agent)
        memories = k.list(**filters, limit=limit, offset=offset)
        total = k.count(**filters)
        if json_:
            emit({"count": len(memories), "total": total,
                   "memories": [m.to_dict() for m in memories]})
            return
        if not memories:
            typer.echo(nothing_here(k, db, "no memories"))
            return
        memory_table(k, memories, title=f"{len(memories)} of {total}")


@app.command()
def update(
    memory_id: Annotated[str, typer.Argument(help="Id or unique id prefix.")],
    text: Annotated[str | None, typer.Option(help="New content.")] = None,
    summary: Annotated[str | None, typer.Option()] = None,
    topic: Annotated[str | None, typer.Option()] = None,
    type_: Annotated[str | None, typer.Option("--type", "-t")] = None,
    category: Annotated[str | None, typer.Option()] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Replace tags.")] = None,
    confidence: Annotated[float | None, typer.Option()] = None,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Change fields of a memory."""
    given = {
        "text": text, "summary": summary, "topic": topic, "type": type_, "category": category,
        "tags": tag, "confidence": confidence,
    }
    fields = {key: value for key, value in given.items() if value is not None}
    if not fields:
        fail("nothing to update: give --text, --summary, --topic, --type, --category, --tag "
              "or --confidence", 2)
    with open_kenning(db) as k:
        m = k.update(memory_id, **fields)
        if json_:
            emit(m.to_dict())
        else:
            typer.echo(f"updated {m.id}  {short(m.summary, 70)}")


@app.command()
def forget(
    memory_id: Annotated[str, typer.Argument(help="Id or unique id prefix.")],
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Delete a memory, its vectors and its links."""
    with open_kenning(db) as k:
        m = k.forget(memory_id)
        if json_:
            emit({"forgotten": m.id, "memory": m.to_dict()})
        else:
            typer.echo(f"forgot {m.id}  {short(m.summary, 70)}")


@app.command()
def reindex(json_: JsonOpt = False, db: DbOpt = None) -> None:
    """Compute the vectors (and links) still missing: writes other processes left, or every
    memory after a model change. Shows progress; interrupted, it resumes where it stopped."""
    with open_kenning(db) as k:
        n = k.reindex(progress=k.on_progress)
        if json_:
            emit({"embedded": n, "embedder": k.embedder.id if k.embedder else None})
        else:
            typer.echo(f"embedded {n} memories with {k.embedder.id if k.embedder else '-'}")


@app.command()
def outcome(
    memory_id: Annotated[str, typer.Argument(help="The decision (id or prefix).")],
    status: Annotated[str, typer.Argument(help="success, failed or partial.")],
    reason: Annotated[str | None, typer.Option(help="What happened.")] = None,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Record how a decision turned out."""
    with open_kenning(db) as k:
        m = k.outcome(memory_id, status, reason)
        if json_:
            emit(m.to_dict())
        else:
            why = f": {m.outcome_reason}" if m.outcome_reason else ""
            typer.echo(f"{m.id} {m.outcome.value if m.outcome else '-'}{why}")


@app.command()
def link(
    from_id: Annotated[str, typer.Argument(help="From memory (id or prefix).")],
    to_id: Annotated[str, typer.Argument(help="To memory (id or prefix).")],
    rel: Annotated[str, typer.Option("--rel", help="Relationship, any words, any language.")
                   ] = "relates_to",
    reason: Annotated[str | None, typer.Option(help="Why they are linked.")] = None,
    confidence: Annotated[float | None, typer.Option(help="0 to 1.")] = None,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Link two memories with any relationship words."""
    with open_kenning(db) as k:
        ln = k.link(from_id, to_id, rel, reason=reason, confidence=confidence)
        if json_:
            emit(ln.to_dict())
        else:
            canonical = ln.metadata.get("canonical")
            also = f" (as {canonical})" if canonical and canonical != ln.relationship else ""
            typer.echo(f"linked {ln.from_id} -[{ln.relationship}{also}, {ln.link_type.value}, "
                       f"{ln.confidence:.2f}]-> {ln.to_id}")


@app.command()
def supersede(
    new_id: Annotated[str, typer.Argument(help="The memory that replaces (id or prefix).")],
    old_id: Annotated[str, typer.Argument(help="The memory it replaces (id or prefix).")],
    reason: Annotated[str | None, typer.Option(help="Why it was replaced.")] = None,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Mark a memory as replaced by a newer one: no longer current from now on."""
    with open_kenning(db) as k:
        ln = k.supersede(new_id, old_id, reason)
        old = k.get(ln.to_id)
        if json_:
            emit({"link": ln.to_dict(), "superseded": old.to_dict()})
        else:
            typer.echo(f"{ln.to_id} superseded by {ln.from_id} (link {ln.id})")


@app.command()
def unlink(
    link_id: Annotated[str, typer.Argument(help="Link id (from show --json).")],
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Delete one link."""
    with open_kenning(db) as k:
        gone = k.unlink(link_id)
        if json_:
            emit({"deleted": gone, "link_id": link_id})
        elif gone:
            typer.echo(f"deleted link {link_id}")
        else:
            fail(f"no link with id {link_id!r}", 3)


@app.command()
def why(
    topic: Annotated[str, typer.Argument(help="A topic (or a memory id: its topic).")],
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Why did we decide X? The topic's decisions, newest first, with outcomes."""
    with open_kenning(db, create=False) as k:
        chain = k.why(topic)
        if json_:
            emit({"topic": topic, "chain": [e.to_dict() for e in chain]})
            return
        if not chain:
            typer.echo(f"no decisions on {topic!r}")
            return
        for e in chain:
            m = e.memory
            status = f"  [{m.outcome.value.upper()}: {m.outcome_reason or '-'}]" if m.outcome \
                else ""
            typer.echo(f"{m.created_time:%Y-%m-%d}  {m.id}  {m.summary}{status}")
            for rel, target, reason in e.evolves:
                typer.echo(f"    {rel} {target}" + (f" ({reason})" if reason else ""))
            for o in e.outcomes:
                typer.echo(f"    outcome: {o.summary}")
            for c in e.implementations:
                typer.echo(f"    implemented by: {c.summary}")


@app.command()
def impact(
    memory_id: Annotated[str, typer.Argument(help="Id or prefix.")],
    window: Annotated[str, typer.Option(help="Temporal links within this age, e.g. 7d.")
                      ] = "7d",
    depth: Annotated[int, typer.Option(help="1 to 5.")] = 5,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """What happened after X? Implementations, outcomes and later decisions."""
    with open_kenning(db, create=False) as k:
        found = k.impact(memory_id, window=window, depth=depth)
        _print_reached(found, json_, "nothing followed")


@app.command()
def related(
    memory_id: Annotated[str, typer.Argument(help="Id or prefix.")],
    depth: Annotated[int, typer.Option(help="1 to 5.")] = 2,
    json_: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Memories linked to this one, most confidently connected first."""
    with open_kenning(db, create=False) as k:
        _print_reached(k.related(memory_id, depth=depth), json_, "no linked memories")


def _print_reached(found: list[Any], json_: bool, empty: str) -> None:
    if json_:
        emit({"count": len(found), "memories": [
            {"depth": r.depth, "confidence": round(r.confidence, 4),
             "via": r.via.relationship if r.via else None, "memory": m.to_dict()}
            for m, r in found]})
        return
    if not found:
        typer.echo(empty)
    for m, r in found:
        via = r.via.relationship if r.via else "-"
        typer.echo(f"{'  ' * (r.depth - 1)}{m.id}  {m.type.value:<10} via {via:<12} "
                   f"{r.confidence:.2f}  {short(m.summary, 70)}")


graph_app = typer.Typer(help="The memory graph: stats, communities, top, health.",
                        no_args_is_help=True)
app.add_typer(graph_app, name="graph")


@graph_app.command("stats")
def graph_stats(json_: JsonOpt = False, db: DbOpt = None) -> None:
    """Links by core type, edge kind and creator."""
    with open_kenning(db, create=False) as k:
        s = k.graph_stats()
        if json_:
            emit(s)
            return
        for key, value in s.items():
            if isinstance(value, dict):
                value = ", ".join(f"{a} {b}" for a, b in sorted(value.items())) or "-"
            typer.echo(f"{key:<19} {value if value is not None else '-'}")


@graph_app.command("consolidate")
def graph_consolidate(json_: JsonOpt = False, db: DbOpt = None) -> None:
    """Recompute PageRank and communities, add co-access links, prune weak links."""
    with open_kenning(db) as k:
        r = k.consolidate()
        if json_:
            emit(r)
            return
        typer.echo(f"{r['memories']} memories, {r['links']} links, {r['communities']} "
                   f"communities; {r['co_accessed_links']} co-access links, {r['pruned_links']} "
                   f"weak links pruned ({sum(r['timings_ms'].values()):.0f} ms)")


@graph_app.command("top")
def graph_top(
    k_: Annotated[int, typer.Option("-k", "--limit", help="How many.")] = 10,
    json_: JsonOpt = False, db: DbOpt = None,
) -> None:
    """The most central memories (PageRank; run graph consolidate first)."""
    with open_kenning(db, create=False) as k:
        top = k.top(k_)
        if json_:
            emit({"count": len(top), "top": [
                {"pagerank": round(pr, 4), "community": c, "memory": m.to_dict()}
                for m, pr, c in top]})
            return
        if not top:
            typer.echo("no graph scores yet: run kenning graph consolidate")
        for m, pr, c in top:
            typer.echo(f"{pr:.3f}  c{c:<4} {m.id}  {m.type.value:<10} {short(m.summary, 70)}")


@graph_app.command("communities")
def graph_communities(json_: JsonOpt = False, db: DbOpt = None) -> None:
    """Communities of memories (label propagation), largest first."""
    with open_kenning(db, create=False) as k:
        comms = k.communities()
        if json_:
            emit({"count": len(comms), "communities": comms})
            return
        if not comms:
            typer.echo("no graph scores yet: run kenning graph consolidate")
        for c in comms:
            topics = ", ".join(c["topics"]) or "-"
            typer.echo(f"c{c['community']:<4} {c['size']:>5} memories  topics: {topics}")
            for m in c["central"]:
                typer.echo(f"        {m['id']}  {short(m['summary'], 70)}")


@graph_app.command("health")
def graph_health_cmd(json_: JsonOpt = False, db: DbOpt = None) -> None:
    """Connectivity, isolated memories, orphaned relationships and what to do about them."""
    with open_kenning(db, create=False) as k:
        h = k.health()
        if json_:
            emit(h)
            return
        for key, value in h.items():
            if key == "recommendations":
                continue
            if isinstance(value, list):
                value = ", ".join(value) or "-"
            elif isinstance(value, float):
                value = f"{value:.3f}"
            typer.echo(f"{key:<24} {value}")
        for r in h["recommendations"]:
            typer.echo(f"- {r}")


@graph_app.command("links")
def graph_links(
    rel: Annotated[str, typer.Option("--rel", help="Relationship words; synonyms count too.")],
    json_: JsonOpt = False, db: DbOpt = None,
) -> None:
    """Links said with these words or their synonyms, in any language."""
    with open_kenning(db, create=False) as k:
        found = k.links_by_relationship(rel)
        if json_:
            emit({"count": len(found), "links": [ln.to_dict() for ln in found]})
            return
        if not found:
            typer.echo(f"no links like {rel!r}")
        for ln in found:
            typer.echo(f"{ln.from_id} -[{ln.relationship}, {ln.confidence:.2f}]-> {ln.to_id}")


@graph_app.command("merge")
def graph_merge(
    word: Annotated[str, typer.Argument(help="Relationship word to retire.")],
    into: Annotated[str, typer.Argument(
        metavar="[into] TARGET", help="Word to file its links under ('into' may come first, "
        "as health recommends: graph merge WORD into TARGET).")],
    target: Annotated[str | None, typer.Argument(hidden=True)] = None,
    json_: JsonOpt = False, db: DbOpt = None,
) -> None:
    """Merge one relationship word into another (a health recommendation)."""
    if target is not None:
        if into.lower() != "into":
            fail(f"graph merge takes WORD [into] TARGET, not {into!r} before {target!r}", 2)
        into = target
    with open_kenning(db) as k:
        n = k.merge_relationship(word, into)
        if json_:
            emit({"merged": n, "from": word, "into": into})
        else:
            typer.echo(f"moved {n} links from {word!r} to {into!r}")


def disk_line(free: int) -> str:
    """Doctor's line on the free space beside the store."""
    from kenning.status import LOW_DISK_BYTES

    text = f"{free / 1e6:,.0f} MB free beside the store"
    if free < LOW_DISK_BYTES:
        text += (": the disk is full, writes fail until space is freed" if free < 1_000_000
                 else ": nearly full, writes will fail soon")
    return text


@app.command()
def doctor(json_: JsonOpt = False, db: DbOpt = None) -> None:
    """Store path, schema version, embedder, counts, the optional parts installed, how Claude
    Code is wired for this project (and what to fix), and the last internal errors."""
    from kenning.claudeinit import check
    from kenning.extras import EXTRAS, installed
    from kenning.places.paths import project_root

    def without_store(why: str) -> None:
        from kenning import fileonly

        r = fileonly.cli_status(db, why)
        if json_:
            emit(r)
            return
        rows = [("store", f"{r['store']}: UNAVAILABLE ({why})"), ("project", r["project"]),
                ("waiting", f"{r['pending_memories']} memories kept in {r['pending_file']}, "
                            "stored when the store is back"),
                ("hooks", f"journal {r['hooks']['journal_pending_bytes']:,} bytes waiting in "
                          f"{r['hooks']['journal']}"),
                ("auto memory", str(r["auto_memory_dir"] or "-")),
                ("config", ", ".join(r["config_files"]) or "defaults"),
                ("error log", r["error_log"])]
        for key, value in rows:
            typer.echo(f"{key:<15} {value}")
        for e in r["recent_errors"]:
            typer.echo(f"  {e.get('where')}: {e.get('error')}")

    absent = missing_store(db)
    with open_kenning(db, file_only=without_store, create=False) as k:
        s = {**k.status(), "extras": {name: installed(name) for name in EXTRAS},
             "claude_code": check(project_root())}
        s.update(store=absent or s["store"], store_exists=absent is None)
        if json_:
            emit(s)
            return
        emb = s["embedder"]
        emb_line = (
            f"{emb['id']} ({emb['dim']} dims)" if emb["available"]
            else f"none: {emb['reason']}; using {emb['fallback']}"
        )
        vectors = ", ".join(f"{n} x {e}" for e, n in s["vectors"].items()) or "none"
        by_type = ", ".join(f"{t} {n}" for t, n in sorted(s["memories_by_type"].items())) or "-"
        held = s["hooks"]["quarantine"]
        lines = [
            ("store", f"{s['store']} ({s['engine']}, {s['size_bytes'] / 1e6:.2f} MB)"
                      if s["store_exists"] else f"{s['store']} (not created yet: kenning "
                      "remember or a Claude Code session creates it)"),
            *([("disk", disk_line(s["disk_free_bytes"]))]
              if s.get("disk_free_bytes") is not None else []),
            ("schema version", str(s["schema_version"])),
            ("project", s["project"]),
            ("embedder", emb_line),
            ("memories", f"{s['memories']} ({s['project_memories']} visible here): {by_type}"),
            ("vectors", vectors + (f"; {s['vectors_missing']} missing (run kenning reindex)"
                                   if s["vectors_missing"] else "")),
            ("links", str(s["links"])),
            ("code drift", (lambda d: f"{d['anchors']} anchors on {d['files']} files for "
                            f"{d['memories']} memories; {d['stale']} stale, {d['obsolete']} "
                            "obsolete" + (" (kenning stale lists them)"
                                          if d["stale"] or d["obsolete"] else ""))(
                s["code_drift"])),
            *[("  stale", f"{r['id']}: {r['reason']}")
              for r in s["code_drift"]["obsolete_memories"] + s["code_drift"]["stale_memories"]],
            ("redactions", str(s["redactions"])),
            ("hooks", f"journal {s['hooks']['journal_pending_bytes']:,} bytes waiting; prompt "
                      f"index {s['hooks']['prompt_index']}; last session "
                      f"{s['hooks']['last_session_event'] or 'never'}; session ends queued "
                      f"{s['hooks']['session_ends_pending']}"),
            ("injections", (lambda u: f"{u['memories_shown']} memories shown to prompts, "
                            f"{u['memories_used']} of them used; use rate {u['use_rate']:.0%}; "
                            f"{u['shown_often_never_used']} shown often and never used (ranked "
                            "down)")(s["hooks"]["injection_use"])),
            *([("quarantine", f"{held['events']} journal events set aside in {held['path']}; "
                              f"newest: {held['newest_error']}")] if held["events"] else []),
            ("extras", ", ".join(f"{n} {'yes' if ok else 'no'}"
                                 for n, ok in s["extras"].items())),
            ("claude code", _claude_code_line(s["claude_code"])),
            *[("  fix", p) for p in s["claude_code"]["problems"]],
            ("error log", s["error_log"]),
        ]
        if pg := s.get("postgres"):
            pool = pg["pool"]
            indexes = ", ".join(
                f"{i['name']} ({'valid' if i['valid'] else 'NOT VALID'}, {i['bytes'] / 1e6:.1f} MB"
                + "".join(f", {k} {v}" for k, v in sorted(i.get("options", {}).items())) + ")"
                for i in pg["hnsw_indexes"]) or "none yet (built with the first vector)"
            lines[1:1] = [
                ("server", f"PostgreSQL {pg['server_version']}, pgvector "
                           f"{pg['pgvector_version']}, schema {pg['schema']}"),
                ("scope", f"organisation {pg['organisation'] or '-'}, "
                          f"workspace {pg['workspace'] or '-'}"),
                ("hnsw indexes", f"{indexes}; ef_search {pg['ef_search']}"),
                ("pool", f"{pool['size']}/{pool['max']} connections, {pool['available']} idle, "
                         f"{pool['waiting']} waiting, {pool['errors']} errors, "
                         f"{pool['lost']} lost"),
            ]
        for key, value in lines:
            typer.echo(f"{key:<15} {value}")
        errors = s["recent_errors"]
        typer.echo(f"{'last errors':<15} {'none' if not errors else ''}")
        from kenning.models import iso

        for e in errors:  # a notice is a decision worth a second look, not a failure
            mark = "notice: " if e.get("notice") else ""
            typer.echo(f"  {iso(e.get('at_ms'))}  {mark}{e.get('where')}: {e.get('error')}")


def _claude_code_line(cc: dict[str, Any]) -> str:
    hooks = (f"{cc['hooks']['count']} hooks in {cc['hooks']['file']}" if cc["hooks"]["scope"]
             else "no hooks")
    mcp = f"MCP server ({cc['mcp']['scope']} scope)" if cc["mcp"]["scope"] else "no MCP server"
    allowed = "tools allowed" if cc["mcp_allowed"] else "tools NOT allowed"
    trust = {True: "folder trusted", False: "folder not trusted yet", None: "trust unknown"}
    return f"{hooks}; {mcp}, {allowed}; {trust[cc['trusted']]}"


@app.command()
def demo(
    json_: JsonOpt = False,
    db: Annotated[Path | None, typer.Option("--db", help="Keep the demo store here.")] = None,
) -> None:
    """Walk through a small story end to end on a throwaway store."""
    from kenning.demo import run_demo

    try:
        report = run_demo(db, echo=None if json_ else typer.echo)
    except KenningError as exc:
        fail(str(exc))
    if json_:
        emit(report)


register_command_modules(app)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: usage errors become one line too."""
    try:
        rc = app(args=argv, standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("error: aborted", err=True)
        return 130
    except BrokenPipeError:
        # the reader went away (`kenning list | head`): stop quietly, as a shell tool does;
        # stdout goes to /dev/null so that flushing it at exit raises nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as exc:
        # typer's (vendored) click exceptions: duck-typed so any typer version works.
        message = getattr(exc, "format_message", None)
        if message is None:
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(message())
            return 0
        code = int(getattr(exc, "exit_code", 1))
        hint = " (see kenning --help)" if code == 2 else ""
        typer.echo(f"error: {message()}{hint}", err=True)
        return code
    return rc if isinstance(rc, int) else 0


if __name__ == "__main__":
    sys.exit(main())
