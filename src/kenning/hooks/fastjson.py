"""JSON through the interpreter's C accelerator alone: ``import json`` pulls in ``re`` and costs
a hook process about 5 ms (a third of its budget); ``_json`` is the same C parser without it."""

import _json


class _Context:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder``."""

    strict = False
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo: dict[str, str] = {}  # noqa: RUF012 - the scanner's own string cache

    @staticmethod
    def parse_constant(name: str) -> float:
        return float(name.replace("Infinity", "inf"))


# typeshed types the context as a make_scanner; the C scanner only reads these attributes.
_scan = _json.make_scanner(_Context())  # type: ignore[arg-type]
_SPACE = " \t\n\r"


def loads(text: str) -> object:
    """Parse one JSON document; ValueError on anything else."""
    start = len(text) - len(text.lstrip(_SPACE))
    try:
        value, end = _scan(text, start)
    except Exception:  # StopIteration, or the C scanner's own errors: let json say what is wrong
        import json

        json.loads(text)
        raise ValueError("not a JSON document") from None
    if text[end:].strip(_SPACE):
        raise ValueError(f"extra data after JSON at offset {end}")
    return value


def dumps(value: object) -> str:
    """Serialise dicts, lists, strings, numbers, booleans and None as compact ASCII JSON."""
    if isinstance(value, str):
        return _json.encode_basestring_ascii(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int | float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("NaN and infinity are not JSON")
        return repr(value)
    if isinstance(value, dict):
        return "{" + ",".join(
            _json.encode_basestring_ascii(str(k)) + ":" + dumps(v) for k, v in value.items()
        ) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    raise TypeError(f"cannot serialise {type(value).__name__}")
