"""Stopwords and a regex-free word splitter: hooks tokenise prompts with it because importing
``re`` alone costs a fresh process about 5 ms of its ~15 ms budget."""

# Words that carry no topic in a question; dropping them keeps BM25 on the words that matter.
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only
    or other our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you
    your yours yourself yourselves s t don didn doesn isn wasn weren ll ve re d m o y let
    us also get got
    """.split()
)


# Every ASCII character that is not a letter or digit, mapped to a space: ``str.translate`` and
# ``str.split`` then cut the text at them in C. Tokenising a prompt's 40 candidate memories
# character by character in Python was most of the store fallback's ranking time.
_ASCII_BREAKS = {c: " " for c in range(128) if not chr(c).isalnum()}


def _runs(text: str) -> list[str]:
    """Runs of letters and digits, lower-cased, one character at a time (any text)."""
    out: list[str] = []
    start = -1
    for i, ch in enumerate(text):
        if ch.isalnum():
            if start < 0:
                start = i
        elif start >= 0:
            out.append(text[start:i].lower())
            start = -1
    if start >= 0:
        out.append(text[start:].lower())
    return out


def words(text: str) -> list[str]:
    """Runs of letters and digits, lower-cased (the same split as ``[^\\W_]+``)."""
    out: list[str] = []
    for piece in text.translate(_ASCII_BREAKS).split():
        if piece.isalnum():
            out.append(piece.lower())
        else:  # a character outside ASCII that is not a letter or digit (a dash, a quote)
            out += _runs(piece)
    return out


def query_terms(text: str, limit: int = 32) -> list[str]:
    """Distinct words without stopwords (all words if only stopwords), first ``limit``."""
    found = words(text)
    kept = [w for w in found if w not in STOPWORDS]
    return list(dict.fromkeys(kept or found))[:limit]
