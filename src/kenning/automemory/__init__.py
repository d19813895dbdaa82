"""Claude Code auto memory bridge (MEMORY.md and memory files kept in step with the store) and
agent memory scopes.

Paths resolve as the real client does, files are parsed and written in the client's own format,
curation is a pure function, and the facade's ``auto_*`` / ``curate`` / ``transfer`` methods
delegate to ``service.AutoMemoryService``, which hands ``bridge`` and ``scopes`` the store and
the operations they need rather than the facade.
"""

from kenning.automemory.options import AutoMemoryOptions

__all__ = ["AutoMemoryOptions"]
