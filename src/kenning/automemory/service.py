"""The auto memory service: Claude Code's MEMORY.md and memory files, and agent memory scopes,
over one store and project. The facade's ``auto_*``, ``curate*``, ``agent_*`` and ``transfer``
methods delegate here; ``bridge`` and ``scopes`` do the work with this service's dependencies."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from kenning.automemory import bridge, scopes
from kenning.automemory import paths as amp
from kenning.automemory.bridge import Target
from kenning.automemory.options import AutoMemoryOptions
from kenning.models import Memory
from kenning.store.base import Store


class AutoMemoryService:
    """Import from, sync to and curate one Claude Code memory directory (the project's auto
    memory or an agent scope's), list agent scopes and copy memories between them.

    Built per call by ``Kenning`` from exactly what it uses: the store, the project, the clock,
    and the facade operations it composes (``remember_many``, ``get``, ``update``, and ``live``:
    a memory's confidence as of a time). They are passed in rather than the facade itself, so
    nothing here depends on the facade, and a changed clock, project or operation is seen at
    once. ``bridge`` and ``scopes`` read these attributes."""

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        clock: Callable[[], int],
        remember_many: Callable[[Iterable[Mapping[str, Any]]], list[Memory]],
        get: Callable[[str], Memory],
        update: Callable[..., Memory],
        live: Callable[[Memory, int | None], Memory],
    ) -> None:
        self.store = store
        self.project = project
        self.clock = clock
        self.remember_many = remember_many
        self.get = get
        self.update = update
        self.live = live

    def target(self, project_root: Path | None, scope: str | None) -> Target:
        """The directory to work on: the auto memory of ``project_root`` when ``scope`` is None,
        else the agent scope's (``project:<agent>``, ``local:<agent>``, ``user:<agent>``)."""
        if scope is None:
            return Target(amp.auto_memory_dir(project_root), None, None)
        kind, agent = amp.parse_scope(scope)
        return Target(amp.agent_memory_dir(kind, agent, project_root), kind, agent)

    def memory_dir(self, project_root: Path | None) -> Path:
        """The project's auto memory directory."""
        return self.target(project_root, None).dir

    def agent_memory_dir(self, scope: str, project_root: Path | None) -> Path:
        """An agent scope's memory directory."""
        return self.target(project_root, scope).dir

    def import_files(self, project_root: Path | None, options: AutoMemoryOptions,
                     scope: str | None) -> dict[str, Any]:
        """Read the directory's changed files into the store; counts of what happened."""
        return bridge.import_dir(self, self.target(project_root, scope), options)

    def sync(self, project_root: Path | None, options: AutoMemoryOptions, scope: str | None
             ) -> dict[str, Any]:
        """Import, then write memory files and the curated MEMORY.md."""
        return bridge.write_dir(self, self.target(project_root, scope), options, sync=True)

    def status(self, project_root: Path | None, options: AutoMemoryOptions, scope: str | None
               ) -> dict[str, Any]:
        """The directory against the client's limits, its files by origin, pending changes."""
        return bridge.status(self, self.target(project_root, scope), options)

    def curate(self, project_root: Path | None, options: AutoMemoryOptions, write: bool,
               scope: str | None) -> dict[str, Any]:
        """Import, then rewrite MEMORY.md only; without ``write``, the preview instead."""
        if not write:
            return self.curate_preview(project_root, options, scope)
        return bridge.write_dir(self, self.target(project_root, scope), options, sync=False)

    def curate_preview(self, project_root: Path | None, options: AutoMemoryOptions,
                       scope: str | None) -> dict[str, Any]:
        """The MEMORY.md a curation would write now; nothing is imported or written."""
        return bridge.preview(self, self.target(project_root, scope), options)

    def agent_scopes(self, project_root: Path | None) -> list[dict[str, Any]]:
        """Agent scopes known from the store, from disk and from agent definitions (relative
        to ``project_root``, else the working directory)."""
        return scopes.list_scopes(
            self, Path(project_root) if project_root is not None else Path.cwd())

    def transfer(self, from_scope: str, to_scope: str, min_confidence: float) -> dict[str, Any]:
        """Copy one agent scope's confident memories into another, de-duplicated."""
        return scopes.transfer(self, from_scope, to_scope, min_confidence)
