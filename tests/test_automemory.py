"""The auto memory bridge on real files in a temp HOME: import of the client's format, sync out,
curation limits, a person's lines kept, idempotence, redaction, concurrency."""
# ruff: noqa: F811  (pytest fixtures come from tests.automemory_fixtures)

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from kenning import Kenning
from kenning.automemory.curate import Candidate, curate_index
from kenning.automemory.files import client_view, parse_index, split_frontmatter
from kenning.automemory.options import AutoMemoryOptions
from kenning.automemory.state import state_key
from kenning.models import Filters, Memory
from tests.automemory_fixtures import (  # noqa: F401
    Clock,
    client_memory,
    home,
    kk,
    repo,
    write_client_dir,
)


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(directory.iterdir())}


def count(k: Kenning) -> int:
    return k.store.count(Filters(project=k.project))


def test_imports_the_clients_own_files_once(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    write_client_dir(d)
    r = kk.auto_import(repo)
    assert (r["files"], r["imported"], r["unchanged"], r["skipped"]) == (4, 3, 0, 0)
    ms = {m.topic: m for m in kk.store.list(Filters(project="proj"), limit=None)}
    assert set(ms) == {"user-role", "no-mocks-in-db-tests", "release-freeze"}
    mocks = ms["no-mocks-in-db-tests"]
    assert mocks.type.value == "preference" and mocks.category.value == "preferences"
    assert mocks.summary == "Integration tests must hit a real database"
    assert "**How to apply:** use the docker postgres fixture." in mocks.content
    assert mocks.metadata["claude_type"] == "feedback"
    prov = mocks.metadata["automemory"]
    assert prov["file"] == "no-mocks-in-db-tests.md" and prov["dir"] == str(d)
    assert len(prov["line_hash"]) == 16 and prov["kind"] == "memory-file"
    assert ms["release-freeze"].type.value == "context"

    again = kk.auto_import(repo)
    assert (again["imported"], again["unchanged"]) == (0, 4)
    assert count(kk) == 3


def test_a_fresh_process_rereads_only_changed_files(kk: Kenning, repo: Path, tmp_path: Path
                                                    ) -> None:
    d = kk.auto_memory_dir(repo)
    write_client_dir(d)
    kk.auto_import(repo)
    kk.close()
    (d / "release-freeze.md").write_text(client_memory(
        "release-freeze", "Merge freeze moved to 2026-03-12", "project",
        "Merge freeze moved to 2026-03-12 for the mobile release cut."))
    k2 = Kenning(tmp_path / "k.db", project="proj", embedder=None, clock=Clock())
    try:
        r = k2.auto_import(repo)
        assert (r["unchanged"], r["updated"], r["imported"]) == (3, 1, 0)
        freeze = [m for m in k2.store.list(Filters(project="proj"), limit=None)
                  if m.topic == "release-freeze"]
        assert len(freeze) == 1 and "2026-03-12" in freeze[0].content  # updated, not doubled
    finally:
        k2.close()


def test_topic_files_and_plain_index_lines(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    (d / "debugging.md").write_text(
        "# Debugging\n\n## Vite\n- vite needs --host inside docker\n- HMR breaks behind nginx\n"
        "  unless the websocket proxy is set\n\n## SQLite\nWAL mode needs a writable dir.\n")
    (d / "MEMORY.md").write_text("# Notes\n\n## Security\n- Never log request bodies\n"
                                 "- [Gone](missing.md) — a pointer whose file was deleted\n")
    r = kk.auto_import(repo)
    assert r["imported"] == 5
    ms = {m.content: m for m in kk.store.list(Filters(project="proj"), limit=None)}
    hmr = ms["HMR breaks behind nginx\nunless the websocket proxy is set"]
    assert hmr.category.value == "debugging" and hmr.type.value == "gotcha" and hmr.topic == "Vite"
    assert ms["WAL mode needs a writable dir."].topic == "SQLite"
    assert ms["Never log request bodies"].category.value == "security"
    assert "Gone: a pointer whose file was deleted" in ms


def test_a_long_memorys_line_gives_its_room_to_the_words_not_the_file_name(
        kk: Kenning, repo: Path) -> None:
    """A line is kept under 200 characters: the file name it links to repeats the memory's
    first words, so it stays short and the cause after the error still reaches the model."""
    gotcha = kk.remember(
        "Tests failed: TestGetOrderNotFound: orders_test.go:66: status = 500, want 404. Cause: "
        "sqlc's :one queries return pgx.ErrNoRows when there is no row; getOrder treated every "
        "error as a 500. Fix: check errors.Is(err, pgx.ErrNoRows) first and answer 404.",
        type="gotcha", confidence=0.9)
    kk.auto_sync(repo)
    [line] = [ln for ln in (kk.auto_memory_dir(repo) / "MEMORY.md").read_text().splitlines()
              if gotcha.id[-6:].lower() in ln]
    assert len(line) <= 200
    name = line.split("](", 1)[1].split(")", 1)[0]
    assert name == f"tests-failed-{gotcha.id[-6:].lower()}.md"
    assert "pgx.ErrNoRows" in line


def test_secrets_in_imported_files_are_redacted(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    (d / "MEMORY.md").write_text("- deploy key is AKIAIOSFODNN7EXAMPLE in us-east-1\n")
    (d / "db.md").write_text(client_memory("db", "Staging database", "reference",
                                           "postgres://app:s3cr3tPassw0rd@db.internal/app"))
    kk.auto_import(repo)
    texts = " ".join(m.content for m in kk.store.list(Filters(project="proj"), limit=None))
    assert "AKIAIOSFODNN7EXAMPLE" not in texts and "s3cr3tPassw0rd" not in texts
    assert "[REDACTED:aws_access_key]" in texts and "[REDACTED:url_password]" in texts
    kk.auto_sync(repo)
    index = (d / "MEMORY.md").read_text()
    assert "AKIAIOSFODNN7EXAMPLE" not in index and "deploy key is [REDACTED" in index


def test_a_linked_file_out_of_the_memory_folder_is_not_imported(kk: Kenning, repo: Path,
                                                                tmp_path: Path) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    private = tmp_path / "private-notes.md"
    private.write_text("- the vault's unseal order is kept by the on-call lead\n")
    (d / "notes.md").symlink_to(private)
    (d / "db.md").write_text(client_memory("db", "Staging database", "reference",
                                           "the staging database is rebuilt every night"))
    (d / "same.md").symlink_to(d / "db.md")  # a link that stays in the folder is read
    r = kk.auto_import(repo)
    texts = " ".join(m.content for m in kk.store.list(Filters(project="proj"), limit=None))
    assert "unseal" not in texts and "rebuilt every night" in texts
    assert r["errors"] == ["notes.md: a link to a file outside the memory folder; not imported"]


def test_sync_writes_client_files_and_round_trip_adds_nothing(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    write_client_dir(d)
    kk.auto_import(repo)
    high = kk.remember("Use pnpm, not npm: the lockfile is pnpm-lock.yaml", type="decision",
                       topic="package_manager", confidence=0.9)
    kk.remember("Maybe try bun some day", type="insight", confidence=0.3)
    before = count(kk)
    r = kk.auto_sync(repo)
    assert r["files_written"] == 1 and r["index_changed"]
    files = [p for p in d.glob("*.md") if "package-manager" in p.name]
    assert len(files) == 1
    fm, body = split_frontmatter(files[0].read_text())
    assert fm == {"name": files[0].stem, "description": high.summary,
                  "metadata": {"type": "project", "kenning_id": high.id}}
    assert body.strip() == high.content
    index = (d / "MEMORY.md").read_text()
    assert f"- [package_manager]({files[0].name}) — Use pnpm, not npm" in index
    assert "bun" not in index  # below min confidence
    for line in ("- [User role](user-role.md) — backend engineer, terse answers",
                 "- [Release freeze](release-freeze.md) — merge freeze from 2026-03-05"):
        assert line in index  # the client's own pointers stay
    assert index.count("user-role.md") == 1  # not indexed a second time

    r2 = kk.auto_import(repo)
    assert r2["imported"] == 0 and count(kk) == before


def test_a_memory_whose_code_changed_is_marked_in_memory_md(kk: Kenning, repo: Path) -> None:
    """MEMORY.md says "(may be outdated)" at the start of a line whose code changed since it was
    recorded, so the client never reads it as current without a warning."""
    from kenning.models import Anchor

    place = kk.remember("Config plumbing is in internal/config/config.go: Init reads "
                        "~/.shipctl.yaml", type="discovery", confidence=0.9)
    other = kk.remember("Use pnpm, not npm: the lockfile is pnpm-lock.yaml", type="decision",
                        confidence=0.9)
    kk.store.set_anchors({place.id: [Anchor(place.id, "internal/config/config.go", "Init",
                                            "f", None, "1:1", "stale", "Init changed")]})
    kk.auto_sync(repo)
    index = (kk.auto_memory_dir(repo) / "MEMORY.md").read_text()
    [line] = [ln for ln in index.splitlines() if "Config plumbing" in ln]
    assert " — (may be outdated) Config plumbing is in internal/config/config.go" in line
    [fine] = [ln for ln in index.splitlines() if "pnpm" in ln]
    assert "may be outdated" not in fine and other.summary[:20] in fine


def test_a_track_record_is_listed_only_for_a_memory_that_holds_and_is_not_listed(
        kk: Kenning, repo: Path) -> None:
    """A track record repeats its memory's words: MEMORY.md does not list it beside that
    memory's own line, nor for a memory that was replaced (it would show the old words as
    current); for a memory that holds but is not listed, it is the line that says it."""
    def record(subject: Memory) -> None:
        kk.remember(f"Track record: {subject.summary} — held up in 3 of 3 sessions that used it",
                    type="outcome", confidence=0.9, metadata={"distilled": True,
                                                              "subject": subject.id})

    listed = kk.remember("Log through structlog, never print()", type="preference",
                         confidence=0.9)
    old = kk.remember("Config lives in ~/.shipctl.yaml", type="decision", confidence=0.9)
    new = kk.remember("Config lives under os.UserConfigDir()", type="decision", confidence=0.9)
    kk.supersede(new.id, old.id, "XDG")
    faint = kk.remember("Run `make check` before a review", type="pattern", confidence=0.2)
    for subject in (listed, old, faint):
        record(subject)
    kk.auto_sync(repo)
    index = (kk.auto_memory_dir(repo) / "MEMORY.md").read_text()
    assert "Log through structlog" in index and "os.UserConfigDir()" in index
    assert index.count("Log through structlog") == 1
    assert "~/.shipctl.yaml" not in index
    assert "Track record: Run `make check` before a review" in index


def test_a_persons_line_that_no_longer_holds_gets_a_note_under_it(kk: Kenning, repo: Path
                                                                    ) -> None:
    """A person wrote "Releases: `npm run release` from main" in MEMORY.md; later a decision
    replaced it. Their line stays word for word, with Kenning's note under it naming what
    replaced it; the note is never imported as their words, and syncing again changes no
    byte."""
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True, exist_ok=True)
    person = "- Releases: `npm run release` from main, after CI is green"
    (d / "MEMORY.md").write_text(f"# Notes\n{person}\n- Docs live in docs/\n")
    kk.auto_import(repo)
    [old] = [m for m in kk.list(limit=None) if "npm run release" in m.content]
    new = kk.remember("Releases go through the GitHub Actions release workflow on a v* tag",
                      type="decision", confidence=0.9)
    kk.supersede(new.id, old.id, "releases are tagged now")
    kk.auto_sync(repo)
    lines = (d / "MEMORY.md").read_text().splitlines()
    at = lines.index(person)
    assert lines[at + 1] == ("  - Kenning: no longer current, replaced by: Releases go through "
                             "the GitHub Actions release workflow on a v* tag")
    assert "- Docs live in docs/" in lines and not any(
        "Kenning: no longer current" in ln for ln in lines[at + 2:])
    before = snapshot(d)
    count = len(kk.list(limit=None))
    r = kk.auto_sync(repo)
    assert snapshot(d) == before and not r["index_changed"]
    assert len(kk.list(limit=None)) == count  # the note was not imported


def test_sync_twice_changes_no_byte(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    write_client_dir(d)
    for i in range(30):
        kk.remember(f"Rule {i}: modules under core/ never import from web/ (layering {i})",
                    type="pattern", confidence=0.8 + i / 200)
    kk.auto_sync(repo)
    first = snapshot(d)
    # An hour later confidence has decayed a little (0.005), not past the threshold.
    kk.clock.now += 3_600_000  # type: ignore[attr-defined]
    r = kk.auto_sync(repo)
    assert snapshot(d) == first
    assert r["files_written"] == 0 and not r["index_changed"]
    assert r["imported"]["imported"] == 0


def test_a_hand_edited_line_survives_a_sync(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    m = kk.remember("Run the linter with ruff check before committing", type="pattern",
                    confidence=0.9)
    kk.auto_sync(repo)
    text = (d / "MEMORY.md").read_text()
    ours = next(ln for ln in text.splitlines() if "ruff check" in ln)
    edited = ours.replace("before committing", "before every push (CI rejects otherwise)")
    text = text.replace(ours, edited) + "- Deploys happen on Tuesdays only\n"
    (d / "MEMORY.md").write_text(text)

    r = kk.auto_sync(repo)
    after = (d / "MEMORY.md").read_text()
    assert edited in after and "- Deploys happen on Tuesdays only" in after
    assert r["human_lines_kept"] == 2
    assert after.count("ruff check") == 1  # the edited line stands for the memory
    contents = [x.content for x in kk.store.list(Filters(project="proj"), limit=None)]
    assert "Deploys happen on Tuesdays only" in contents
    assert any("before every push (CI rejects otherwise)" in c for c in contents)
    assert kk.get(m.id).content == m.content
    assert list(d.glob("run-the-linter*.md")), "the file the edited pointer names is kept"
    settled = snapshot(d)
    kk.auto_sync(repo)
    assert snapshot(d) == settled


def test_never_overwrites_or_deletes_a_persons_file(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    m = kk.remember("Feature flags live in flags.yaml", type="context", confidence=0.9)
    kk.auto_sync(repo)
    ours = next(p for p in d.glob("feature-flags*.md"))
    notes = d / "notes.md"
    notes.write_text("my own scratch notes\n")
    ours.write_text(ours.read_text().replace("flags.yaml", "config/flags.yaml (moved in March)"))
    kk.forget(m.id)
    kk.auto_sync(repo)
    assert notes.read_text() == "my own scratch notes\n"
    assert "moved in March" in ours.read_text()  # the edited file is theirs now: kept as is
    assert any("moved in March" in x.content
               for x in kk.store.list(Filters(project="proj"), limit=None))


def test_a_persons_edit_of_a_kenning_file_replaces_it_there(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    m = kk.remember("Staging deploys run from the main branch", type="context", confidence=0.9)
    kk.auto_sync(repo)
    ours = next(d.glob("staging-deploys*.md"))
    ours.write_text(ours.read_text().replace("main branch", "release/* branches"))
    kk.auto_sync(repo)
    about = [p for p in d.glob("*.md")
             if p.name != "MEMORY.md" and "Staging deploys" in p.read_text()]
    assert about == [ours] and "release/* branches" in ours.read_text()
    edited = [x for x in kk.store.list(Filters(project="proj"), limit=None)
              if "release/*" in x.content]
    assert len(edited) == 1 and edited[0].metadata["edited_from"] == m.id
    assert (d / "MEMORY.md").read_text().count(ours.name) == 1
    settled = snapshot(d)
    kk.auto_sync(repo)
    assert snapshot(d) == settled


def test_sync_removes_its_own_unchanged_file_when_the_memory_goes(kk: Kenning, repo: Path
                                                                  ) -> None:
    d = kk.auto_memory_dir(repo)
    m = kk.remember("Cache TTL is 300 seconds", type="decision", confidence=0.9)
    kk.auto_sync(repo)
    assert list(d.glob("cache-ttl*.md"))
    kk.forget(m.id)
    r = kk.auto_sync(repo)
    assert r["files_removed"] == 1 and not list(d.glob("cache-ttl*.md"))
    assert "Cache TTL" not in (d / "MEMORY.md").read_text()


def test_limits_hold_with_5000_long_multibyte_memories(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    human = [f"- 手で書いた行 {i}: " + "ü" * 150 for i in range(40)]
    (d / "MEMORY.md").write_text("\n".join(human) + "\n")
    kk.remember_many([{
        "text": f"記憶 {i} " + "データベース接続プール 🚀 " * 30, "type": "decision",
        "confidence": 0.7 + (i % 30) / 100, "topic": f"topic_{i % 50}"}
        for i in range(5000)])
    r = kk.curate(repo)
    text = (d / "MEMORY.md").read_text(encoding="utf-8")
    assert r["lines"] == len(text.splitlines()) <= 200
    assert r["bytes"] == len(text.encode("utf-8")) <= 25_000
    assert client_view(text, 200, 25_000) == text  # the client loads all of it
    assert kk.curate_preview(repo)["text"] == text  # the preview is what was written
    assert r["memories_in_index"] > 0 and r["human_lines_kept"] + r["human_lines_left_out"] == 40
    generated = [ln for ln in text.splitlines() if ln.startswith("- [topic_")]
    assert generated and all(len(ln) <= 200 for ln in generated)
    stored = {m.content for m in kk.store.list(Filters(project="proj"), limit=None)}
    assert all(h[2:] in stored for h in human)  # every person's line is in the store


def test_pure_curation_orders_by_value_and_fits_tight_limits() -> None:
    now = 1_780_000_000_000
    cands = [Candidate(f"id{i:02d}", f"- [t](f{i}.md) — fact {i} " + "é" * i, "Architecture",
                       confidence=i / 50, pagerank=0.0, touched_ms=now) for i in range(50)]
    opts = AutoMemoryOptions(max_index_lines=12, max_index_bytes=600)
    out = curate_index(cands, ["- my own line"], now, opts)
    assert out.lines <= 12 and out.bytes <= 600 and out.bytes == len(out.text.encode())
    lines = out.text.splitlines()
    assert lines[0] == "- my own line" and lines[1] == "## Architecture"
    assert lines[2].startswith("- [t](f49.md)")  # most confident first
    assert out == curate_index(list(reversed(cands)), ["- my own line"], now, opts)
    central = Candidate("pr", "- [t](pr.md) — central", "Debugging", 0.04, 1.0, now)
    ranked = curate_index([*cands[:3], central], [], now, AutoMemoryOptions())
    assert ranked.chosen[0] == "pr"  # PageRank lifts a low-confidence but central memory
    old = Candidate("old", "- [t](old.md) — old", "Debugging", 0.04, 0.0, now - 400 * 86_400_000)
    newer = Candidate("new", "- [t](new.md) — new", "Debugging", 0.04, 0.0, now)
    assert curate_index([old, newer], [], now, AutoMemoryOptions()).chosen == ("new", "old")
    tiny = curate_index(cands, ["- " + "ü" * 400], now, opts)
    assert tiny.pinned_dropped and tiny.bytes <= 600  # a too-long line is left out, not cut


def test_preview_writes_nothing_and_reports_what_the_client_loads(kk: Kenning, repo: Path
                                                                  ) -> None:
    kk.remember("API errors use RFC 7807 problem+json", type="decision", confidence=0.95)
    p = kk.curate_preview(repo)
    assert {"path", "text", "lines", "bytes", "max_lines", "max_bytes"} <= set(p)
    assert (p["max_lines"], p["max_bytes"]) == (180, 25_000)
    assert "RFC 7807" in p["text"] and not Path(p["path"]).exists()
    assert p["bytes"] == len(p["text"].encode()) and p["lines"] == len(p["text"].splitlines())
    kk.curate(repo)
    assert Path(p["path"]).read_text() == p["text"]
    assert kk.curate(repo, write=False)["changed"] is False


def test_status_reports_limits_and_pending_changes(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    (d / "MEMORY.md").write_text("".join(f"- line {i}\n" for i in range(230)))
    s = kk.auto_status(repo)
    assert s["index"]["over_limit"] and s["index"]["loaded_lines"] == 200
    assert s["changed_since_import"] == ["MEMORY.md"] and s["imported_at"] is None
    kk.auto_import(repo)
    assert kk.auto_status(repo)["changed_since_import"] == []


def test_lost_state_does_not_duplicate_kennings_own_lines(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    kk.remember("Prefer composition over inheritance in services", type="pattern",
                confidence=0.9)
    kk.auto_sync(repo)
    before = (d / "MEMORY.md").read_text()
    kk.store.set_meta(state_key(d), "{}")  # as if another store wrote the directory
    r = kk.auto_sync(repo)
    assert r["imported"]["imported"] == 0 and count(kk) == 1
    assert (d / "MEMORY.md").read_text() == before


CONCURRENT = textwrap.dedent("""
    import sys
    from kenning import Kenning
    k = Kenning(sys.argv[1], project="proj", embedder=None)
    for _ in range(5):
        k.remember(f"note from {sys.argv[3]} #" + str(_), type="decision", confidence=0.9)
        k.auto_sync(sys.argv[2])
    k.close()
""")


def test_concurrent_syncs_from_two_processes_leave_a_valid_file(kk: Kenning, repo: Path,
                                                                tmp_path: Path) -> None:
    d = kk.auto_memory_dir(repo)
    write_client_dir(d)
    kk.close()
    env = dict(os.environ)
    procs = [subprocess.Popen([sys.executable, "-c", CONCURRENT, str(tmp_path / "k.db"),
                               str(repo), name], env=env) for name in ("a", "b")]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    text = (d / "MEMORY.md").read_text()
    assert len(text.splitlines()) <= 200 and len(text.encode()) <= 25_000
    assert not [p for p in d.iterdir() if p.name.endswith(".tmp")]
    lines = [ln for ln in parse_index(text) if ln.kind == "pointer"]
    assert all((d / str(ln.file)).is_file() for ln in lines)
    assert sum("note from" in ln.text for ln in lines) == 10
    assert text.count("user-role.md") == 1


def test_frontmatter_round_trips_awkward_text() -> None:
    from kenning.automemory.files import render_memory_file

    desc = 'Use "pnpm": not npm # really, über-fast 🚀'
    text = render_memory_file("pnpm", desc, "feedback", "body: with colon", {"kenning_id": "X1"})
    fm, body = split_frontmatter(text)
    assert fm == {"name": "pnpm", "description": desc,
                  "metadata": {"type": "feedback", "kenning_id": "X1"}}
    assert body.strip() == "body: with colon"
    assert split_frontmatter("no frontmatter\n---\n") == (None, "no frontmatter\n---\n")


def test_options_are_checked_and_say_when_to_sync() -> None:
    import pytest

    from kenning.errors import ValidationError

    for bad in ({"sync_mode": "hourly"}, {"max_index_lines": 0}, {"min_confidence": 2},
                {"prune_strategy": "random"}, {"topic_mapping": {"x": "../x.md"}}):
        with pytest.raises(ValidationError):
            AutoMemoryOptions(**bad)  # type: ignore[arg-type]
    end = AutoMemoryOptions()
    assert end.sync_due("session-end", None, 0) and not end.sync_due("write", None, 0)
    assert AutoMemoryOptions(sync_mode="on-write").sync_due("write", None, 0)
    periodic = AutoMemoryOptions(sync_mode="periodic", sync_interval_ms=60_000)
    assert not periodic.sync_due("tick", 0, 59_999) and periodic.sync_due("tick", 0, 60_000)
    assert end.category_for_file("patterns.md").value == "project-patterns"
    assert end.category_for_file("notes.md") is None


def test_unused_memories_fade_out_of_memory_md(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    kept = kk.remember("Always run the contract suite before merging engine changes",
                       type="pattern", confidence=0.95)
    fading = kk.remember("The staging cluster needs the VPN profile named corp-2",
                         type="context", confidence=0.75)
    kk.auto_sync(repo)
    assert "corp-2" in (d / "MEMORY.md").read_text()
    kk.clock.now += 24 * 3_600_000  # a day without use: 0.75 - 0.12 is below 0.7
    kk.auto_sync(repo)
    index = (d / "MEMORY.md").read_text()
    assert "corp-2" not in index and kept.summary[:30] in index
    assert kk.get(fading.id).confidence < 0.7


def test_memory_md_shows_only_what_is_in_force(kk: Kenning, repo: Path) -> None:
    """A superseded decision and a failed one leave MEMORY.md; their successor stays."""
    d = kk.auto_memory_dir(repo)
    old = kk.remember("Cache order totals in Redis for five minutes", type="decision",
                      confidence=0.9)
    new = kk.remember("Compute order totals on read; no cache", type="decision", confidence=0.9)
    failed = kk.remember("Shard the ledger table by customer id", type="decision",
                         confidence=0.9)
    kk.auto_sync(repo)
    assert "Redis" in (d / "MEMORY.md").read_text()
    kk.supersede(new.id, old.id, reason="stale totals")
    kk.outcome(failed.id, "failed", "cross-shard joins")
    kk.auto_sync(repo)
    index = (d / "MEMORY.md").read_text()
    assert "Redis" not in index and "Shard the ledger" not in index
    assert "Compute order totals on read" in index


def test_a_rule_the_user_stated_stays_in_memory_md_whatever_its_confidence(
        kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)

    def rule(text: str, speaker: str) -> None:
        # Confidence 0.5: as after sessions whose checks failed with it in front of the model.
        kk.remember(text, type="preference", confidence=0.5, metadata={"rule": {
            "kind": "convention", "text": text, "speaker": speaker}})

    rule("Wrap SQL identifiers in double quotes", "user")
    rule("Squash the fixup commits before merging", "assistant")
    kk.remember("Maybe the flaky test is the cache warming", type="pattern", confidence=0.5)
    kk.auto_sync(repo)
    index = (d / "MEMORY.md").read_text()
    assert "double quotes" in index
    assert "fixup" not in index and "cache warming" not in index
