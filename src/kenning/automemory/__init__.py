"""Claude Code auto memory bridge (ADR-048) and agent memory scopes (ADR-049, ADR-048 App. A).

Paths resolve as the real client does, files are parsed and written in the client's own format,
curation is a pure function, and the facade's ``auto_*`` / ``curate`` / ``transfer`` methods
delegate here.
"""

from kenning.automemory.options import AutoMemoryOptions

__all__ = ["AutoMemoryOptions"]
