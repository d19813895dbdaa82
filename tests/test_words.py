"""The hooks' regex-free word splitter cuts text exactly where ``[^\\W_]+`` would, whatever the
text holds: ASCII punctuation, accented letters, dashes and quotes outside ASCII, digits of other
scripts, combining marks, and the odd whitespace characters ``str.split`` also breaks at."""

from __future__ import annotations

import random
import re

from kenning.journal.seen import KEY_WORDS, key
from kenning.words import query_terms, words

WORD = re.compile(r"[^\W_]+")
ALPHABET = list("abcXYZ019 _-.,;:'\"/\t\n\r\x0b\x0c\x1c\x1f\x85\xa0éüßİ’—–\u2028\u3000日本"
                "\u0307٣\U0001f600")


def test_words_match_the_regular_expression_on_any_text() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40)))
        assert words(text) == [w.lower() for w in WORD.findall(text)], repr(text)


def test_real_sentences() -> None:
    assert words("Use `ruff` — not flake8’s plugins; see café_notes/V2.md!") == [
        "use", "ruff", "not", "flake8", "s", "plugins", "see", "café", "notes", "v2", "md"]
    assert query_terms("How do we run the tests?") == ["run", "tests"]


def test_a_lines_key_is_its_first_words() -> None:
    long = " ".join(f"Word{i}," for i in range(30))
    assert key(long) == " ".join(f"word{i}" for i in range(KEY_WORDS))
    assert key("Use PgBouncer — transaction mode!") == "use pgbouncer transaction mode"
