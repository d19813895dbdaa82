"""Topic files: the ``topic-files`` layout (one file per category with Kenning's entries in a
marked block), a person's topic file never copied out into one-fact files, topic files kept
within ``max_topic_file_lines`` (the least confident entries archived, a person's text kept),
and a lowercase ``memory.md`` migrated as the client does."""
# ruff: noqa: F811  (pytest fixtures come from tests.automemory_fixtures)

from __future__ import annotations

from pathlib import Path

from kenning import Kenning
from kenning.automemory.files import parse_topic
from kenning.automemory.options import AutoMemoryOptions
from kenning.automemory.topics import BEGIN, END
from kenning.models import Filters
from tests.automemory_fixtures import home, kk, repo  # noqa: F401

TOPIC = AutoMemoryOptions(layout="topic-files")


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def md_files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.glob("*.md"))


def test_topic_files_layout_writes_one_file_per_category(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    gotcha = kk.remember("Vite needs --host inside docker, or the dev server is unreachable",
                         type="gotcha", category="debugging", confidence=0.9)
    kk.remember("Services talk through the event bus, never by direct import",
                type="decision", category="architecture", confidence=0.85)
    kk.remember("Run ruff check before committing", type="pattern", confidence=0.8)
    kk.remember("A hunch about caching", type="insight", category="debugging", confidence=0.4)
    r = kk.auto_sync(repo, TOPIC)
    assert md_files(d) == ["MEMORY.md", "architecture.md", "debugging.md", "patterns.md"]
    assert r["topic_files_written"] == 3 and r["files_written"] == 0
    debugging = (d / "debugging.md").read_text()
    assert debugging.startswith("# Debugging\n\n" + BEGIN + "\n")
    assert "- Vite needs --host inside docker" in debugging and gotcha.id in debugging
    assert "hunch" not in debugging  # below min confidence
    index = (d / "MEMORY.md").read_text()
    assert "](debugging.md) — Vite needs --host" in index and "](patterns.md) — Run ruff" in index

    settled = snapshot(d)
    again = kk.auto_sync(repo, TOPIC)
    assert snapshot(d) == settled and again["imported"]["imported"] == 0
    assert kk.store.count(Filters(project="proj")) == 4  # nothing came back as a new memory


def test_a_persons_topic_file_is_never_copied_out_into_files(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    text = "# Debugging\n\n" + "".join(f"- error {i}: restart the worker {i}\n"
                                       for i in range(400))
    (d / "debugging.md").write_text(text)
    r = kk.auto_sync(repo)  # the default, one-fact layout
    assert r["imported"]["imported"] == 400
    assert md_files(d) == ["MEMORY.md", "debugging.md"] and r["files_written"] == 0
    assert (d / "debugging.md").read_text() == text  # within 500 lines: untouched
    assert "restart the worker" not in (d / "MEMORY.md").read_text()


def test_a_persons_topic_files_are_left_byte_for_byte(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    files = {"debugging.md": "# Debugging\n", "security.md": "- rotate keys\n\n\n",
             "notes.md": "no trailing newline"}
    for name, text in files.items():
        (d / name).write_text(text)
    kk.remember("Run migrations in a transaction", type="pattern", confidence=0.9)
    for layout in ("per-fact", "topic-files"):
        kk.auto_sync(repo, AutoMemoryOptions(layout=layout))
        assert (d / "debugging.md").read_text() == files["debugging.md"]  # not emptied
        assert {n: (d / n).read_text() for n in ("security.md", "notes.md")} == {
            n: files[n] for n in ("security.md", "notes.md")}


def test_a_persons_text_stays_and_their_edit_of_an_entry_is_theirs(kk: Kenning, repo: Path
                                                                   ) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    mine = "# Debugging\n\nMy notes.\n\n- flaky test: run it alone first\n"
    (d / "debugging.md").write_text(mine)
    m = kk.remember("Clear the Vite cache after switching branches", type="gotcha",
                    category="debugging", confidence=0.9)
    kk.auto_sync(repo, TOPIC)
    text = (d / "debugging.md").read_text()
    assert text.startswith(mine + "\n" + BEGIN) and text.endswith(END + "\n")
    assert md_files(d) == ["MEMORY.md", "debugging.md"]

    edited = text.replace("Clear the Vite cache", "Clear the Vite and npm caches")
    (d / "debugging.md").write_text(edited)
    kk.auto_sync(repo, TOPIC)
    after = (d / "debugging.md").read_text()
    assert after.count("Clear the Vite") == 1 and "Vite and npm caches" in after
    theirs = [x for x in kk.store.list(Filters(project="proj"), limit=None)
              if "npm caches" in x.content]
    assert len(theirs) == 1 and theirs[0].metadata["edited_from"] == m.id
    assert after.startswith(mine)
    settled = snapshot(d)
    kk.auto_sync(repo, TOPIC)
    assert snapshot(d) == settled


def test_switching_layouts_moves_kennings_entries(kk: Kenning, repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    for i in range(3):
        kk.remember(f"Architecture rule {i}: keep adapters thin", type="decision",
                    category="architecture", confidence=0.9)
    kk.auto_sync(repo)
    assert len(md_files(d)) == 4  # three one-fact files and MEMORY.md
    kk.auto_sync(repo, TOPIC)
    assert md_files(d) == ["MEMORY.md", "architecture.md"]
    kk.auto_sync(repo)
    assert len(md_files(d)) == 4 and "architecture.md" not in md_files(d)


def test_a_topic_file_over_its_limit_archives_the_least_confident_entries(kk: Kenning,
                                                                          repo: Path) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    lines = [f"- step {i}: check the queue depth of worker {i}" for i in range(700)]
    (d / "debugging.md").write_text("\n".join(lines) + "\n")
    kk.auto_import(repo)
    weak = {f"step {i}:" for i in range(0, 700, 7)}  # 100 entries a person's use lowered
    for m in kk.store.list(Filters(project="proj"), limit=None):
        if m.content.split(" check")[0] in weak:
            kk.update(m.id, confidence=0.2)
    r = kk.auto_sync(repo)
    kept = (d / "debugging.md").read_text().splitlines()
    archive = (d / "archive" / "debugging.md").read_text()
    assert len(kept) <= 500 and r["entries_archived"] == 700 - len(kept)
    moved = [e.text for e in parse_topic(archive)]
    assert all(line in kept or line[2:] in moved for line in lines)  # nothing lost
    assert {t.split(" check")[0] for t in moved} >= weak  # the least confident went first
    assert kept == [ln for ln in lines if ln in kept]  # the person's order is kept
    assert kk.store.count(Filters(project="proj")) == 700  # and the archive is not imported
    settled = snapshot(d)
    kk.auto_sync(repo)
    assert snapshot(d) == settled


def test_a_lowercase_memory_md_is_migrated_not_imported_as_a_topic(kk: Kenning, repo: Path
                                                                   ) -> None:
    d = kk.auto_memory_dir(repo)
    d.mkdir(parents=True)
    (d / "memory.md").write_text("- Deploys happen on Tuesdays only\n")
    kk.auto_import(repo)
    assert md_files(d) == ["MEMORY.md"]
    (m,) = kk.store.list(Filters(project="proj"), limit=None)
    assert m.metadata["automemory"]["kind"] == "index-line"
    assert m.metadata["automemory"]["file"] == "MEMORY.md"
