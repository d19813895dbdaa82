"""Shared fixtures: real SQLite files in tmp dirs, the real embedder loaded once per session."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.embed import MiniLMEmbedder

T0 = 1_780_000_000_000  # a fixed "now" (2026-05-28) for deterministic tests


class Clock:
    """A hand-driven clock in Unix milliseconds."""

    def __init__(self, start: int = T0) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
                   ) -> None:
    """Never touch the developer's real data dir or error log."""
    home = tmp_path_factory.mktemp("kenning-home")
    monkeypatch.setenv("KENNING_HOME", str(home))
    monkeypatch.delenv("KENNING_DB", raising=False)
    monkeypatch.delenv("KENNING_EMBEDDER", raising=False)


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_kenning(tmp_path: Path, embedder: MiniLMEmbedder, clock: Clock
                 ) -> Iterator[Callable[..., Kenning]]:
    opened: list[Kenning] = []

    def make(name: str = "k.db", **kw: object) -> Kenning:
        kw.setdefault("project", "proj")
        kw.setdefault("embedder", embedder)
        kw.setdefault("clock", clock)
        k = Kenning(tmp_path / name, **kw)  # type: ignore[arg-type]
        opened.append(k)
        return k

    yield make
    for k in opened:
        k.close()


@pytest.fixture
def k(make_kenning: Callable[..., Kenning]) -> Kenning:
    return make_kenning()


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["KENNING_HOME"] = str(tmp_path / "home")
    env["KENNING_DB"] = str(tmp_path / "cli.db")
    env["KENNING_PROJECT"] = "cli-proj"
    env.pop("KENNING_EMBEDDER", None)
    return env
