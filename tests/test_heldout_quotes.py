"""The CI check that keeps held-out data out of the code (``scripts/check_heldout_quotes.py``):
six words in a row of held-out text, found wherever the code or the tests hold words people
wrote (string literals, comments, other text files), and nowhere else. The texts here are made
up for the test; no held-out data is read."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "check_heldout_quotes.py"
_spec = importlib.util.spec_from_file_location("check_heldout_quotes", SCRIPT)
assert _spec is not None and _spec.loader is not None
check = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = check
_spec.loader.exec_module(check)

HELD = "Every invoice export gets a checksum column, and nobody edits exported rows by hand."


def found(tmp_path: Path, name: str, text: str) -> list[str]:
    path = tmp_path / name
    path.write_text(text)
    material = check.Material().add([("heldout:story", HELD)])
    return [q.run for q in check.quotes(material, [path])]


def test_a_sentence_quoted_in_a_string_fails(tmp_path: Path) -> None:
    runs = found(tmp_path, "a.py", 'HINT = "every invoice export gets a checksum column"\n')
    assert runs == ["every invoice export gets a checksum", "invoice export gets a checksum column"]


def test_a_quote_split_over_adjacent_literals_or_in_a_comment_is_found(tmp_path: Path) -> None:
    split = 'X = ("nobody edits exported "\n     "rows by hand")\n'
    assert found(tmp_path, "b.py", split) == ["nobody edits exported rows by hand"]
    comment = "x = 1  # as the user said: nobody edits exported rows by hand\n"
    assert found(tmp_path, "c.py", comment) == ["nobody edits exported rows by hand"]


def test_other_text_files_are_read_whole(tmp_path: Path) -> None:
    assert found(tmp_path, "d.json", '{"t": "a checksum column, and nobody edits"}\n') == [
        "a checksum column and nobody edits"]


def test_five_words_or_the_same_words_in_code_are_no_quote(tmp_path: Path) -> None:
    assert found(tmp_path, "e.py", 'X = "every invoice export gets a"\n') == []
    code = "every.invoice.export.gets.a.checksum(column)\n"
    assert found(tmp_path, "f.py", code) == []


def test_sources_are_compared_by_repository() -> None:
    assert check.source_key("Owner/Repo:docs/AGENTS.md") == "owner/repo"
    assert check.source_key("owner/repo#1234") == "owner/repo"
    assert check.source_key("https://github.com/owner/repo/pull/7") == "owner/repo"
    assert check.source_key("https://example.org/adr/12") == "https://example.org/adr/12"


def test_a_frozen_set_reports_every_file_changed_added_or_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = tmp_path / "benchmarks"
    (bench / "replaykit" / "heldout").mkdir(parents=True)
    (bench / "data" / "heldout").mkdir(parents=True)
    monkeypatch.setattr(check, "ROOT", tmp_path)
    monkeypatch.setattr(check, "BENCH", bench)
    monkeypatch.setattr(check, "TRAINING", tmp_path / "training")
    monkeypatch.setattr(check, "FROZEN", bench / "heldout-frozen.json")
    story = bench / "replaykit" / "heldout" / "shop.py"
    story.write_text("STORIES = []\n")
    (bench / "replaykit" / "heldout" / "__init__.py").write_text("")
    labels = bench / "data" / "heldout" / "rules.jsonl"
    labels.write_text('{"id": "h1"}\n')
    assert check.frozen_changes() is None  # not frozen yet: main() refuses to pass
    assert check.freeze() == ["benchmarks/data/heldout/rules.jsonl",
                              "benchmarks/replaykit/heldout/shop.py"]
    assert check.frozen_changes() == []
    labels.write_text('{"id": "h1", "edited": true}\n')
    story.unlink()
    (bench / "data" / "heldout" / "more.jsonl").write_text("{}\n")
    (bench / "data" / "heldout" / "README.md").write_text("docs may change\n")
    assert check.frozen_changes() == [
        "changed: benchmarks/data/heldout/rules.jsonl",
        "added: benchmarks/data/heldout/more.jsonl",
        "removed: benchmarks/replaykit/heldout/shop.py"]
    assert check.freeze() is None  # a changed or removed file is never re-frozen
    labels.write_text('{"id": "h1"}\n')
    story.write_text("STORIES = []\n")
    assert check.freeze() == ["benchmarks/data/heldout/more.jsonl"]  # a new set is added
    assert check.frozen_changes() == []
