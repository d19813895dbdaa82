"""What the auto memory's workers (``bridge``, ``scopes``) use of the service that drives them:
its dependencies (the store, the project, the clock and the facade operations it was built with)
and the two calls the agent scopes make back into it. Declared here, apart from the service, so
the workers depend on this shape and the service on the workers, never the other way round."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from kenning.automemory.options import AutoMemoryOptions
    from kenning.models import Memory
    from kenning.store.base import Store


class Ports(Protocol):
    """The attributes and calls of ``AutoMemoryService`` that ``bridge`` and ``scopes`` use."""

    store: Store
    project: str
    clock: Callable[[], int]
    remember_many: Callable[[Iterable[Mapping[str, Any]]], list[Memory]]
    get: Callable[[str], Memory]
    update: Callable[..., Memory]
    live: Callable[[Memory, int | None], Memory]

    def import_files(self, project_root: Path | None, options: AutoMemoryOptions,
                     scope: str | None) -> dict[str, Any]: ...

    def sync(self, project_root: Path | None, options: AutoMemoryOptions, scope: str | None,
             categories: Sequence[str] | None = None) -> dict[str, Any]: ...
