"""The auto memory service: Claude Code's MEMORY.md and memory files, and agent memory scopes,
over one store and project. The facade's ``auto_*``, ``curate*``, ``agent_*`` and ``transfer``
methods delegate here; ``bridge`` and ``scopes`` do the work with this service's dependencies."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kenning import validation as v
from kenning.automemory import bridge, scopes
from kenning.automemory import paths as amp
from kenning.automemory.bridge import Target
from kenning.automemory.options import AutoMemoryOptions
from kenning.automemory.state import load_state
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

    def switched_off(self, project_root: Path | None, scope: str | None) -> dict[str, Any] | None:
        """For the auto memory (not an agent's), when Claude Code's own switches turn it off:
        what to answer instead of reading or writing its directory (None: it is on)."""
        if scope is not None:
            return None
        client = amp.client_auto_memory(amp.memory_root(project_root))
        if client.enabled:
            return None
        return {"dir": str(self.memory_dir(project_root)), "scope": "auto",
                "disabled": f"Claude Code's auto memory is off ({client.why}): nothing was "
                            "imported or written"}

    def import_files(self, project_root: Path | None, options: AutoMemoryOptions,
                     scope: str | None) -> dict[str, Any]:
        """Read the directory's changed files into the store; counts of what happened."""
        if off := self.switched_off(project_root, scope):
            return off
        return bridge.import_dir(self, self.target(project_root, scope), options)

    def sync(self, project_root: Path | None, options: AutoMemoryOptions, scope: str | None,
             categories: Sequence[str] | None = None) -> dict[str, Any]:
        """Import, then write memory files and the curated MEMORY.md (only ``categories``'
        memories when given)."""
        chosen = None if categories is None else frozenset(v.category(c) for c in categories)
        if off := self.switched_off(project_root, scope):
            return off
        return bridge.write_dir(self, self.target(project_root, scope), options, sync=True,
                                categories=chosen)

    def sync_if_due(self, project_root: Path | None, options: AutoMemoryOptions, event: str,
                    scope: str | None) -> dict[str, Any]:
        """Sync when ``options.sync_mode`` calls for it on ``event`` (the sync's result); at a
        session start that is not due, import instead (the import's counts); a write that is
        not due does nothing. ``synced`` says which."""
        if off := self.switched_off(project_root, scope):
            return off
        target = self.target(project_root, scope)
        last = load_state(self.store, target.dir).synced_at
        if options.sync_due(event, last, self.clock()):
            return {**bridge.write_dir(self, target, options, sync=True), "synced": True}
        if event == "write":
            return {"dir": str(target.dir), "synced": False}
        return {**bridge.import_dir(self, target, options), "synced": False}

    def status(self, project_root: Path | None, options: AutoMemoryOptions, scope: str | None
               ) -> dict[str, Any]:
        """The directory against the client's limits, its files by origin, pending changes,
        and whether Claude Code's own switches leave auto memory on."""
        out = bridge.status(self, self.target(project_root, scope), options)
        if scope is None:
            client = amp.client_auto_memory(amp.memory_root(project_root))
            out["client"] = {"enabled": client.enabled, "why": client.why}
        return out

    def curate(self, project_root: Path | None, options: AutoMemoryOptions, write: bool,
               scope: str | None) -> dict[str, Any]:
        """Import, then rewrite MEMORY.md only; without ``write``, the preview instead."""
        if not write:
            return self.curate_preview(project_root, options, scope)
        if off := self.switched_off(project_root, scope):
            return off
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

    def agents(self, project_root: Path | None, options: AutoMemoryOptions, *, sync: bool,
               running: str | None) -> dict[str, Any]:
        """Import every agent memory directory on disk; with ``sync``, then sync the scopes
        agent definitions ask for and those of the ``running`` agent."""
        root = Path(project_root) if project_root is not None else Path.cwd()
        out: dict[str, Any] = {"imported": scopes.import_all(self, root, options)}
        if sync:
            out["synced"] = scopes.sync_defined(self, root, options, running)
        return out

    def transfer(self, from_scope: str, to_scope: str, min_confidence: float) -> dict[str, Any]:
        """Copy one agent scope's confident memories into another, de-duplicated."""
        return scopes.transfer(self, from_scope, to_scope, min_confidence)
