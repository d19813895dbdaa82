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


def suspect(text: str) -> bool:
    """Whether parsing ``text`` may give strings a store cannot take: a ``\\u`` escape of a
    surrogate or of NUL, or a raw NUL. A few substring scans in C, so payloads without them
    (nearly all) skip ``clean`` entirely."""
    if "\x00" in text:
        return True
    if "\\u" not in text:
        return False
    return "\\ud" in text or "\\uD" in text or "\\u0000" in text


def _clean_str(s: str) -> str:
    if "\x00" in s:
        s = s.replace("\x00", "")
    if s.isascii():
        return s
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, e.g. a message cut in the middle of an emoji
        return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return s


def clean(value: object) -> object:
    """``value`` with every string in it, keys too, made storable: each lone surrogate becomes
    U+FFFD and NUL characters are dropped. A store rejects such strings (UTF-8 cannot encode a
    lone surrogate), so one of them in a journalled event would stop every later ingestion."""
    if isinstance(value, str):
        return _clean_str(value)
    if isinstance(value, dict):
        return {_clean_str(str(k)): clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean(v) for v in value]
    return value
