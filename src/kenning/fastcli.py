"""The reading commands a person types most, answered in a fresh process without typer:
``kenning list``, ``kenning show``, ``kenning recall`` and ``kenning --version``.

The typer CLI costs ~0.2-0.3 s before a command runs (typer, click, pydantic and rich imports,
plus typer building every parameter), and the facade ~0.1 s more; ``list`` and ``show`` must
answer in about twice the time an interpreter takes to start. So, like the prompt hook, ``list``
and ``show`` read a SQLite store with the ``_sqlite3`` C module alone, read-only, and print
through ``kenning.memtable`` (the typer commands print through it too, so the output is the
same byte for byte: ``tests/test_fastcli.py`` runs both paths and compares). ``recall`` parses
its arguments here, then uses the facade; its embedding model loads only when the store holds
memories in scope.

Anything this path is not sure to answer exactly as the typer command would (an option it does
not know, ``--help``, a PostgreSQL store, a store that does not exist or has another schema
version, a value the full command would refuse, an empty result that needs explaining, an
unknown or ambiguous id, missing vectors to re-index) returns ``None``: ``kenning.entry`` then
hands the command to the typer CLI, which answers in full.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False  # typing is not imported: it costs this path several milliseconds
if TYPE_CHECKING:
    from typing import Any

try:  # the C module alone: the sqlite3 package adds datetime and friends
    import _sqlite3 as sqlite
except ImportError:  # pragma: no cover - interpreters without the split module
    import sqlite3 as sqlite  # type: ignore[no-redef]

# The values kenning.models and kenning.store.base define (tests/test_fastcli.py keeps them
# equal): importing those modules would cost this path more than its whole budget.
TYPES = ("decision", "checkpoint", "insight", "context", "pattern", "gotcha", "outcome",
         "discovery", "session", "preference")
SCOPES = ("project", "local", "user")
SCHEMA_VERSION = 5
ID_LENGTH = 26
_ID_CHARS = frozenset("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
_COLUMNS = (
    "id, type, topic, summary, content, category, tags, source, confidence, outcome, "
    "outcome_reason, project, scope, agent, created_at, updated_at, last_accessed_at, "
    "access_count, content_hash, metadata, valid_from, valid_to, superseded_by, drift, "
    "drift_reason"
)
_LINK_COLUMNS = "id, from_id, to_id, link_type, confidence, created_by, metadata, created_at"

# command -> option -> (kind, destination); kind: "flag", "one" (a value), "many" (repeatable)
_OPTIONS = {
    "list": {"--type": ("many", "types"), "-t": ("many", "types"), "--topic": ("one", "topic"),
             "--since": ("one", "since"), "--until": ("one", "until"),
             "--scope": ("many", "scopes"), "--agent": ("one", "agent"),
             "--limit": ("one", "limit"), "-n": ("one", "limit"),
             "--offset": ("one", "offset"), "--json": ("flag", "json"), "--db": ("one", "db")},
    "show": {"--json": ("flag", "json"), "--db": ("one", "db")},
    "recall": {"-k": ("one", "k"), "--limit": ("one", "k"), "--type": ("many", "types"),
               "-t": ("many", "types"), "--topic": ("one", "topic"),
               "--since": ("one", "since"), "--until": ("one", "until"),
               "--scope": ("many", "scopes"), "--agent": ("one", "agent"),
               "--explain": ("flag", "explain"), "--mode": ("one", "mode"),
               "--weak": ("flag", "weak"), "--json": ("flag", "json"), "--db": ("one", "db")},
}


class _Fallback(Exception):
    """This path cannot answer exactly as the typer command would: hand over."""


def main(argv: list[str]) -> int | None:
    """Answer ``argv`` (without the program name), or None to let the typer CLI answer."""
    if argv == ["--version"]:
        from kenning import __version__

        sys.stdout.write(f"kenning {__version__}\n")
        return 0
    if not argv or argv[0] not in _OPTIONS:
        return None
    try:
        args = _parse(argv[0], argv[1:])
        if argv[0] == "recall":
            return _recall(args)
        conn = _connect(args.get("db"))
        try:
            return _list(conn, args) if argv[0] == "list" else _show(conn, args)
        finally:
            conn.close()
    except (_Fallback, sqlite.Error, ValueError, OSError):
        return None


def _parse(command: str, tokens: list[str]) -> dict[str, Any]:
    spec = _OPTIONS[command]
    args: dict[str, Any] = {"positional": []}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        name, eq, inline = token.partition("=") if token.startswith("--") else (token, "", "")
        if token == "--":
            args["positional"] += tokens[i + 1:]
            break
        if not token.startswith("-") or token == "-":
            args["positional"].append(token)
            i += 1
            continue
        if name not in spec:
            raise _Fallback  # --help, an option this path does not know, a typo
        kind, dest = spec[name]
        if kind == "flag":
            if eq:
                raise _Fallback
            args[dest] = True
            i += 1
            continue
        if eq:
            value = inline
            i += 1
        elif i + 1 < len(tokens):
            value = tokens[i + 1]
            i += 2
        else:
            raise _Fallback
        if kind == "many":
            args.setdefault(dest, []).append(value)
        else:
            args[dest] = value
    want = 0 if command == "list" else 1
    if len(args["positional"]) != want:
        raise _Fallback
    return args


def default_location() -> str:
    """Where the store is when no ``--db`` is given, as ``kenning.places.paths.default_db_path``
    decides it (with ``os.path`` alone): ``$KENNING_DB``, else ``[store] db`` of the effective
    ``kenning.toml``, else ``<data dir>/kenning.db``. Raises ``kenning.config.ConfigError``."""
    from kenning.places import lean

    location = os.environ.get("KENNING_DB")
    if not location:
        from kenning import config

        cwd = os.getcwd()
        root = lean.git_root(cwd) or os.path.realpath(cwd)
        location = str(config.load(root).get("store", "db") or "")
    if not location:
        return os.path.join(lean.data_dir(), "kenning.db")
    return location if "://" in location else os.path.expanduser(location)


def _location(db: object) -> str:
    """The store a command names (``--db``) or the default one; a bad kenning.toml hands
    over (the full command reports it)."""
    if db:
        return os.path.expanduser(str(db))
    from kenning.config import ConfigError

    try:
        return default_location()
    except ConfigError:
        raise _Fallback from None


def _connect(db: str | None) -> Any:
    path = _location(db)
    if "://" in path or not os.path.isfile(path):
        raise _Fallback  # a server, or no store yet (the full command explains)
    conn = sqlite.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)
    conn.execute("PRAGMA query_only = ON")
    if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
        conn.close()
        raise _Fallback  # the full command migrates, or refuses a newer store
    return conn


def _project() -> str:
    """The current directory's project, under its kenning.toml's ``[project]`` settings as the
    full CLI reads them (a bad file hands over: the full command reports it)."""
    from kenning.config import ConfigError, load
    from kenning.places.lean import git_root, project_for

    start = os.getcwd()
    try:
        settings = load(git_root(start) or os.path.realpath(start)).section("project")
    except ConfigError:
        raise _Fallback from None
    return project_for(None, None, settings)


def _choices(values: Any, allowed: tuple[str, ...]) -> list[str]:
    out = []
    for v in values or ():
        v = v.strip().lower()
        if v not in allowed:
            raise _Fallback  # the full command names the allowed values
        out.append(v)
    return out


def _int(value: object, low: int, high: int) -> int:
    if not isinstance(value, str) or not value.strip().lstrip("-").isdigit():
        raise _Fallback
    n = int(value)
    if not low <= n <= high:
        raise _Fallback
    return n


def _where(args: dict[str, Any], project: str, now: int) -> tuple[str, list[Any]]:
    """As ``kenning.store.sqlite``'s filters: the project's memories and the user's."""
    clauses: list[str] = ["(project = ? OR scope = 'user')"]
    params: list[Any] = [project]
    types = _choices(args.get("types"), TYPES)
    if types:
        clauses.append(f"type IN ({', '.join('?' for _ in types)})")
        params += types
    topic = " ".join(str(args["topic"]).split()) if args.get("topic") is not None else ""
    if len(topic) > 200:
        raise _Fallback
    if topic:
        clauses.append("topic = ?")
        params.append(topic)
    for key, op in (("since", ">="), ("until", "<")):
        if args.get(key) is not None:
            from kenning.errors import KenningError
            from kenning.times import to_ms

            try:
                params.append(to_ms(args[key], now, name=key))
            except KenningError:
                raise _Fallback from None
            clauses.append(f"created_at {op} ?")
    scopes = _choices(args.get("scopes"), SCOPES)
    if scopes:
        clauses.append(f"scope IN ({', '.join('?' for _ in scopes)})")
        params += scopes
    agent = args.get("agent")
    if agent not in (None, ""):
        text = str(agent)
        if not (0 < len(text) <= 64 and ".." not in text
                and all(c.isascii() and (c.isalnum() or c in "._-") for c in text)):
            raise _Fallback
        clauses.append("agent = ?")
        params.append(text)
    return " WHERE " + " AND ".join(clauses), params


def _iso(ms: int | None) -> str | None:
    """As ``kenning.models.iso`` (ISO 8601, milliseconds, Z), without importing datetime."""
    if ms is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


def _confidence(row: tuple[Any, ...], now: int) -> float:
    """The stored confidence as of ``now`` (``kenning.learning``: episodic kinds decay)."""
    from kenning.learning import anchor_ms, decayed

    return decayed(float(row[8]), anchor_ms(int(row[14]), int(row[15]), row[16]), now, row[1])


def memory_dict(row: tuple[Any, ...], now: int) -> dict[str, Any]:
    """A memory row as ``Memory.to_dict()`` gives it, confidence as of ``now``."""
    conf = _confidence(row, now)
    return {
        "id": row[0], "type": row[1], "topic": row[2], "summary": row[3], "content": row[4],
        "category": row[5], "tags": list(_json(row[6])), "source": row[7],
        "confidence": round(conf, 4), "outcome": row[9] or None, "outcome_reason": row[10],
        "project": row[11], "scope": row[12], "agent": row[13] or None,
        "created_at": _iso(int(row[14])), "updated_at": _iso(int(row[15])),
        "last_accessed_at": _iso(None if row[16] is None else int(row[16])),
        "access_count": int(row[17]), "content_hash": row[18],
        "metadata": _json(row[19]) or {},
        "valid_from": _iso(int(row[14]) if row[20] is None else int(row[20])),
        "valid_to": _iso(None if row[21] is None else int(row[21])),
        "superseded_by": row[22], "current": row[21] is None,
        "stale": row[23] is not None, "stale_reason": row[24], "obsolete": row[23] == "obsolete",
    }


def _table_row(row: tuple[Any, ...], now: int) -> dict[str, Any]:
    """A memory row as ``kenning.memtable`` draws it."""
    return {"id": row[0], "type": row[1], "topic": row[2], "summary": row[3],
            "confidence": _confidence(row, now), "created_at": int(row[14]),
            "outcome": row[9] or None, "superseded_by": row[22], "drift": row[23]}


def _now() -> int:
    return time.time_ns() // 1_000_000


RANGE_IDS = 2000  # ids read at most to shorten a page's ids in one range read


def _short_ids(conn: Any, wanted: list[str]) -> dict[str, str] | None:
    """The page's short ids from one read of the ids around them (a page is the newest
    memories, whose ids are close together), or None when that range is too wide."""
    from kenning import memtable

    lo, hi = min(wanted), max(wanted)
    known = [r[0] for r in conn.execute(
        "SELECT id FROM memories WHERE id >= ? AND id <= ? ORDER BY id LIMIT ?",
        (lo, hi, RANGE_IDS + 1))]
    if len(known) > RANGE_IDS:
        return None
    below = conn.execute("SELECT max(id) FROM memories WHERE id < ?", (lo,)).fetchone()[0]
    above = conn.execute("SELECT min(id) FROM memories WHERE id > ?", (hi,)).fetchone()[0]
    return memtable.short_ids_among(wanted, [*([below] if below else []), *known,
                                              *([above] if above else [])])


def _resolver(conn: Any) -> Any:
    def resolve(prefix: str, limit: int) -> list[str]:
        p = prefix.upper()
        return [r[0] for r in conn.execute(
            "SELECT id FROM memories WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            (p, p + "\U0010ffff", limit))]
    return resolve


def _json(text: str) -> Any:
    import json  # only when a row's JSON is read: tables do not need it

    return json.loads(text)


def _emit(data: Any) -> None:
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _list(conn: Any, args: dict[str, Any]) -> int:
    now = _now()
    limit = _int(args.get("limit", "50"), 1, 100_000)
    offset = _int(args.get("offset", "0"), 0, 2**62)
    where, params = _where(args, _project(), now)
    c = conn  # the C module's connection
    rows = c.execute(
        f"SELECT {_COLUMNS} FROM memories{where} ORDER BY created_at DESC, id DESC "
        "LIMIT ? OFFSET ?", [*params, limit, offset]).fetchall()
    if not rows:
        raise _Fallback  # "no memories", and why (no store, project scoping): the full command
    total = c.execute(f"SELECT count(*) FROM memories{where}",
                      params).fetchone()[0]
    if args.get("json"):
        _emit({"count": len(rows), "total": total,
               "memories": [memory_dict(r, now) for r in rows]})
        return 0
    from kenning import memtable

    wanted = [r[0] for r in rows] + [r[22] for r in rows if r[22]]
    ids = _short_ids(conn, wanted) or memtable.short_ids(wanted, _resolver(conn))
    sys.stdout.write(memtable.render([_table_row(r, now) for r in rows], ids,
                                     title=f"{len(rows)} of {total}"))
    return 0


def _show(conn: Any, args: dict[str, Any]) -> int:
    now = _now()
    key = str(args["positional"][0]).strip().upper()
    c = conn
    row = c.execute(f"SELECT {_COLUMNS} FROM memories WHERE id = ?",
                    (key,)).fetchone()
    if row is None:
        if len(key) < 6 or (len(key) == ID_LENGTH and set(key) <= _ID_CHARS):
            raise _Fallback  # not found: the full command says so
        found = _resolver(conn)(key, 2)
        if len(found) != 1:
            raise _Fallback  # unknown or ambiguous: the full command says which
        row = c.execute(f"SELECT {_COLUMNS} FROM memories WHERE id = ?",
                        (found[0],)).fetchone()
    d = memory_dict(row, now)
    links = [_link_dict(r) for r in c.execute(
        f"SELECT {_LINK_COLUMNS} FROM memory_links WHERE from_id = ? UNION "
        f"SELECT {_LINK_COLUMNS} FROM memory_links WHERE to_id = ?", (row[0], row[0]))]
    links.sort(key=lambda ln: (ln["_at"], ln["id"]))
    for ln in links:
        del ln["_at"]
    if args.get("json"):
        _emit({**d, "links": links})
        return 0
    from kenning import memtable

    sys.stdout.write(memtable.render_memory(d, links))
    return 0


def _link_dict(row: tuple[Any, ...]) -> dict[str, Any]:
    """A link row as ``Link.to_dict()`` gives it (plus its time, for ordering)."""
    meta = _json(row[6])
    return {"id": row[0], "from_id": row[1], "to_id": row[2], "link_type": row[3],
            "relationship": str(meta.get("original_relationship") or row[3]),
            "confidence": round(float(row[4]), 4), "created_by": row[5], "metadata": meta,
            "created_at": _iso(int(row[7])), "_at": int(row[7])}


def _recall(args: dict[str, Any]) -> int:
    """Parse here, recall through the facade, print through ``kenning.memtable``."""
    path = _location(args.get("db"))
    if "://" in path or not os.path.isfile(path):
        raise _Fallback  # a server (the full command), or no store yet (it explains)
    k_ = _int(args.get("k", "10"), 1, 1000)
    mode = str(args.get("mode", "hybrid"))
    if mode not in ("hybrid", "keyword", "vector"):
        raise _Fallback
    types = _choices(args.get("types"), TYPES)
    scopes = _choices(args.get("scopes"), SCOPES)
    query = str(args["positional"][0])
    from kenning.embed import default_embedder
    from kenning.errors import KenningError
    from kenning.facade import Kenning

    try:
        k = Kenning(path, embedder=default_embedder(quick_start=True))  # one query, then exit
    except KenningError:
        raise _Fallback from None
    try:
        if k.embedder is not None and mode != "keyword":
            missing = k.store.count_missing_vectors(k.embedder.id)
            # Memories written without waiting for the model are settled by recall itself;
            # any other missing vector means re-indexing, with a progress bar: the full command.
            if missing and missing > len(k.store.pending_links(missing)):
                raise _Fallback
        try:
            hits = k.recall(query, k=k_, types=types or None, topic=args.get("topic"),
                            since=args.get("since"), until=args.get("until"),
                            scope=scopes or None, agent=args.get("agent"),
                            explain=bool(args.get("explain")), mode=mode,  # type: ignore[arg-type]
                            weak=bool(args.get("weak")))
        except KenningError:
            raise _Fallback from None
        if args.get("json"):
            _emit({"query": query, "count": len(hits), "hits": [h.to_dict() for h in hits]})
            return 0
        from kenning import memtable

        if not hits:
            sys.stdout.write(nothing_here(k, path, "no memories match" if args.get("weak") else
                                          "no memories match (--weak lists the nearest ones "
                                          "anyway)") + "\n")
            return 0
        memories = [h.memory for h in hits]
        wanted = [m.id for m in memories] + [m.superseded_by for m in memories if m.superseded_by]
        ids = memtable.short_ids(wanted, k.store.resolve_prefix)
        out = memtable.render([memtable.row_of(m) for m in memories], ids,
                              scores=[h.score for h in hits])
        if args.get("explain"):
            out += "".join(memtable.explain(ids[h.memory.id], h.parts or {},
                                            k.weights.graph_alpha) + "\n" for h in hits)
        sys.stdout.write(out)
        return 0
    finally:
        k.close()


def missing_store(db: str | os.PathLike[str] | None) -> str | None:
    """The SQLite file a command would open, if it does not exist yet (None: it exists, or the
    store is a PostgreSQL server)."""
    from kenning.config import ConfigError

    try:
        target = str(db) if db is not None else default_location()
    except ConfigError:
        return None  # opening the store reports the bad kenning.toml
    if target.startswith(("postgresql://", "postgres://")):
        return None
    path = os.path.expanduser(target)
    return None if os.path.exists(path) else path


def nothing_here(k: Any, db: str | os.PathLike[str] | None, what: str) -> str:
    """Why a command found nothing, when that is not the whole story: no store yet, or
    memories that exist but belong to other projects (and how to see them)."""
    from kenning.models import Filters

    absent = missing_store(db)
    if absent is not None:
        return f"{what}: no store at {absent} yet (kenning remember or a Claude Code session " \
               "creates it)"
    if k.count() > 0:
        return what
    store = k.store
    total = store.count(Filters())
    if not total:
        return what
    others = sorted({m.project for m in store.list(Filters(), limit=200)} - {k.project})
    named = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
    return (f"{what} in this project ({k.project}); the store holds {total} in other "
            f"projects ({named}): run kenning in that project's folder, or set KENNING_PROJECT "
            "to its key, e.g. KENNING_PROJECT=" + (others[0] if others else "<key>")
            + " kenning list")
