"""The coding-agent memory benchmark: authored multi-session stories replayed through Kenning's
real hook processes, scored on what the model would see (see ``benchmarks/replay.py``)."""
