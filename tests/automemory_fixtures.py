"""Shared pieces of the auto memory tests: a temp HOME with a git repo, a Kenning without the
embedding model (faster; the bridge does not need vectors), and the client's file format."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kenning import Kenning

T0 = 1_780_000_000_000


class Clock:
    def __init__(self, start: int = T0) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return h


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "my_repo.dir"
    (r / ".git").mkdir(parents=True)
    (r / "src").mkdir()
    return r


@pytest.fixture
def kk(tmp_path: Path, home: Path) -> Iterator[Kenning]:
    k = Kenning(tmp_path / "k.db", project="proj", embedder=None, clock=Clock())
    yield k
    k.close()


def client_memory(name: str, description: str, ctype: str, body: str) -> str:
    """A memory file exactly as Claude Code 2.1.330's instructions describe it."""
    return (f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: {ctype}\n---\n\n"
            f"{body}\n")


def write_client_dir(directory: Path) -> None:
    """A directory as the client leaves it: one fact per file plus MEMORY.md pointers."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "user-role.md").write_text(client_memory(
        "user-role", "User is a backend engineer who prefers terse answers", "user",
        "The user is a backend engineer; keep answers terse."))
    (directory / "no-mocks-in-db-tests.md").write_text(client_memory(
        "no-mocks-in-db-tests", "Integration tests must hit a real database", "feedback",
        "Integration tests must hit a real database, not mocks.\n**Why:** a mocked migration "
        "passed while prod broke.\n**How to apply:** use the docker postgres fixture."))
    (directory / "release-freeze.md").write_text(client_memory(
        "release-freeze", "Merge freeze begins 2026-03-05 for the mobile release", "project",
        "Merge freeze begins 2026-03-05 for the mobile release cut. [[no-mocks-in-db-tests]]"))
    (directory / "MEMORY.md").write_text(
        "- [User role](user-role.md) — backend engineer, terse answers\n"
        "- [No mocks in DB tests](no-mocks-in-db-tests.md) — real database in integration tests\n"
        "- [Release freeze](release-freeze.md) — merge freeze from 2026-03-05\n"
    )
