"""The user's standing statements as the learned sentence detector reads them.

The phrase rules of ``conventions.find_rules`` miss what they were never written for: plain
imperatives, facts about the project, a "label: command" line, another language. Here every
sentence the user typed is judged by the trained detector (``sentence_kinds``); a statement it
is sure enough is worth keeping, and that no other candidate of the session already carries,
becomes a candidate whose text is the statement whole, as said. Sentences in a row on one line
that are all kept are one statement (a rule and its second half, "... Never page by offset."),
while each bullet or line stays its own.

Pure: the transcript, a judge (sentences in, judgements out) and the session's other
candidates in, candidates out. The judge runs where capture runs (the detached session-end
worker), never in a per-prompt hook.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from kenning.extract.candidates import Candidate, _clip, _rule_data, _src
from kenning.extract.conventions import rule_as_said
from kenning.extract.sentence_kinds import Judged, Sentence, sentences
from kenning.extract.transcript import Transcript

Judge = Callable[[Sequence[Sentence]], list[Judged]]

# How likely a sentence must be worth keeping (its kept labels' probabilities summed) to be
# kept; chosen on the dev stories and the corpus's dev split (never the held-out ones).
KEEP_AT = 0.6
# Share of a statement's words that another candidate of the same message must hold for the
# statement to count as already captured.
COVERED_SHARE = 0.6
# Per session, the surest first: a pasted instruction file must not flood the store at once
# (what it says is kept in the user's turn all the same).
MAX_STATEMENTS = 12
MIN_WORDS = 2  # words (``_WORD``) outside code
# A statement is a sentence and at most one more on its line (a rule and its second half), in at
# most this many characters: a whole paragraph of kept sentences is several statements.
MAX_RUN = 2
MAX_RUN_CHARS = 300
# A user rule the phrase rules found is dropped when the detector finds this little of its
# sentence worth keeping (the kept labels' probabilities summed): the phrase rules match the
# shape of a rule ("add X", "we need Y") that one-off requests share.
DOUBT_AT = 0.3
# A question states nothing, whatever its words: the detector, trained mostly on written
# documentation, can read a question about a file as a fact about the project.
_QUESTION_MARKS = ("?", "？")
# A word: three letters or digits or more, or one character of a script written without spaces
# (kana, CJK ideographs, hangul syllables).
_UNSPACED = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_WORD = re.compile(rf"[^\W_{_UNSPACED}]{{3,}}|[{_UNSPACED}]", re.U)
# Code blocks and spans: a statement needs MIN_WORDS words outside them (a message of commands
# or code alone states nothing in words).
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.S)

# Each label the detector gives, as the memory it becomes: (candidate kind, memory type,
# category, episode, the rule kind a later change matches against or None).
_AS_MEMORY: dict[str, tuple[str, str, str, str, Literal["convention", "decision"] | None]] = {
    "convention": ("preference", "preference", "preferences", "pattern", "convention"),
    "prohibition": ("preference", "preference", "preferences", "pattern", "convention"),
    "command": ("preference", "preference", "preferences", "pattern", "convention"),
    "decision": ("decision", "decision", "architecture", "decision_made", "decision"),
    "change": ("decision", "decision", "architecture", "decision_made", "decision"),
    "fact": ("fact", "discovery", "project-patterns", "codebase_discovery", None),
}
# A label outside the kept ones (the run's likeliest label is "other" while its kept labels
# together pass KEEP_AT) is read as a convention.
_DEFAULT = _AS_MEMORY["convention"]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _covered(text: str, others: list[set[str]]) -> bool:
    words = _words(text)
    return not words or any(len(words & o) >= COVERED_SHARE * len(words) for o in others)


def _runs(judged: list[Judged], keep_at: float) -> list[list[Judged]]:
    """Kept sentences grouped into statements: one that follows a kept sentence on its line
    joins it (up to ``MAX_RUN`` sentences, ``MAX_RUN_CHARS`` characters); one that opens a line
    (a bullet, a new line) starts its own. Questions are never kept."""
    runs: list[list[Judged]] = []
    joined = False
    for j in judged:
        if j.kept_probability < keep_at or j.text.rstrip().endswith(_QUESTION_MARKS):
            joined = False
            continue
        if (joined and not j.opens_line and len(runs[-1]) < MAX_RUN
                and sum(len(x.text) + 1 for x in runs[-1]) + len(j.text) <= MAX_RUN_CHARS):
            runs[-1].append(j)
        else:
            runs.append([j])
        joined = True
    return runs


def _label(run: list[Judged]) -> str:
    """The run's label: that of its surest kept sentence."""
    return max(run, key=lambda j: j.kept_probability).label


def user_statements(t: Transcript, judge: Judge, others: Iterable[Candidate],
                    keep_at: float = KEEP_AT) -> list[Candidate]:
    """Candidates for what the user stated that the detector keeps and ``others`` (the session's
    candidates so far) do not already carry, at most ``MAX_STATEMENTS``, surest first."""
    by_line: dict[int, list[set[str]]] = {}
    for c in others:
        said = str(c.extra.get("said") or "")
        for line in c.provenance.get("lines", ()):
            by_line.setdefault(int(line), []).append(_words(f"{c.text} {said}"))
    found: list[tuple[float, Candidate]] = []
    for u in t.user_texts:
        items = sentences(u.text)
        if not items:
            continue
        covered = by_line.get(u.line, [])
        for run in _runs(judge(items), keep_at):
            text = " ".join(j.text for j in run)
            if len(_words(_CODE.sub(" ", text))) < MIN_WORDS or _covered(text, covered):
                continue
            sure = min(j.kept_probability for j in run)
            label = _label(run)
            kind, mtype, category, episode, rule_kind = _AS_MEMORY.get(label, _DEFAULT)
            # a user's own words start between 0.6 (just sure enough) and 0.8 (the phrase
            # rules' user rules)
            confidence = round(0.6 + 0.2 * (sure - keep_at) / max(1e-9, 1 - keep_at), 3)
            extra: dict[str, Any] = {"said": _clip(text, 300), "learned": label,
                                     "kept_probability": round(sure, 3)}
            if rule_kind is not None:
                rule = rule_as_said(text, rule_kind, change=label == "change",
                                    confidence=confidence)
                extra |= {"rule": _rule_data(rule, "user"), "tool": None,
                          "avoid": rule.replaces}
            found.append((sure, Candidate(kind, _clip(text), mtype, category, confidence,
                                          episode, _src(t, [u.line]), extra=extra)))
    found.sort(key=lambda pair: -pair[0])
    return [c for _, c in found[:MAX_STATEMENTS]]


def doubted(cands: Iterable[Candidate], judge: Judge, doubt_at: float = DOUBT_AT
            ) -> list[Candidate]:
    """The user rules among ``cands`` that the phrase rules found and the detector reads as
    not worth keeping: no sentence of what the user said reaches ``doubt_at``."""
    said = [(c, sentences(str((c.extra.get("rule") or {}).get("said") or c.text)))
            for c in cands if not c.extra.get("learned")
            and (c.extra.get("rule") or {}).get("speaker") == "user"]
    items = [s for _, ss in said for s in ss]
    if not items:
        return []
    judged = iter(judge(items))
    out = []
    for c, ss in said:
        sure = max((next(judged).kept_probability for _ in ss), default=1.0)
        if ss and sure < doubt_at:
            out.append(c)
    return out
