"""The prompt index, the file the per-prompt hook reads instead of the store, and what a prompt
is given from it: ``writer`` builds it (``build``, ``Entry``), ``format`` holds its binary
layout and term handling, ``reader`` looks a prompt's terms up in it, and ``inject`` scores the
memories found (as recall does) and renders what the model is shown.

The prompt hook imports this package on its way to ``format``, so it imports nothing itself
(not even ``typing``): the writer's names are loaded on first use."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kenning.promptindex.writer import FIELD_WEIGHTS, K1, B, Entry, build

__all__ = ["FIELD_WEIGHTS", "K1", "B", "Entry", "build"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from kenning.promptindex import writer

        return getattr(writer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
