"""``ExtractionService``: mining a transcript and git history for candidate memories, dropping
near-duplicates (among the candidates and of what is stored) and, on request, storing the new
ones. A gotcha met again (the same failure ``signature`` as a stored one) is not stored twice:
the stored one counts the new session as evidence. ``Kenning.extract`` delegates to it; the
rule, git, transcript and LLM modules are imported only when an extraction runs."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from kenning import validation as v
from kenning.episodes import EpisodeOptions, episode_items, prune_plan
from kenning.errors import ValidationError
from kenning.insights import SessionInsight, insight_items
from kenning.models import Filters, Memory, MemoryType, SessionEvent
from kenning.redact import redact
from kenning.text import content_hash, embedding_text, make_summary
from kenning.weights import EPISODE_TOPIC, episodic

if TYPE_CHECKING:
    from kenning.embed import Embedder
    from kenning.store.base import Store

MAX_EMBED_NOW = 16  # rules without a stored vector embedded for one comparison, the session's first
MAX_SESSIONS = 20  # session ids a recurring gotcha keeps (the latest), beside its evidence count


# Where a stated change turns from what it prescribes to what it drops.
_DROP_CUE = re.compile(r"\b(?:drop|instead of|rather than|no more|no longer|away from|remove|"
                       r"rip(?:ping)? out|get rid of|replac(?:e|ing))\b")


def _named_checks(text: str) -> list[Any]:
    """The checks a stated rule tells to run, named in code before anything it drops ("tests
    are `uv run pytest`, and lint is `uv run ruff check .`"): the first of each kind."""
    from kenning.outcomes import check_of

    head = _DROP_CUE.split(text.lower(), maxsplit=1)[0]
    found: dict[str, Any] = {}
    for code in re.findall(r"`([^`]{2,120})`", head):
        check = check_of(code)
        if check is not None:
            found.setdefault(check.kind, check)
    return list(found.values())


# What a stated change drops runs from its cue to the end of the clause.
_DROPPED = re.compile(r"\b(?:scratch|drop|ditch|no longer (?:want|use|need)|no more|get rid of|"
                      r"rip out|stop using|instead of|rather than|away from|replac(?:e|ing))\s+"
                      r"(?P<what>[^.;:!?]{2,160})", re.I)
# A name in it: code, or a technical token (assert_cmd, owo-colors, --color, skip(st),
# tests/cli.rs).
_NAME = re.compile(r"`([^`]{2,60})`|(?<![\w-])(--[a-z][\w-]+|[a-z]\w*\([\w, ]{1,30}\)|"
                   r"[a-z][\w.+]*[_./+-][\w.+/-]*\w)")


def dropped_names(text: str) -> list[str]:
    """The names a stated change drops ("scratch the assert_cmd + predicates checks" ->
    ``assert_cmd``): code and technical tokens after its cue, and the tools named there."""
    from kenning.extract.conventions import tool_mentions

    out: list[str] = []
    for m in _DROPPED.finditer(text):
        what = m.group("what")
        if m.group(0).lower().startswith("replac"):
            what = re.split(r"\s+with\s+", what, maxsplit=1)[0]  # "replace X with Y": X
        out += [a or b for a, b in _NAME.findall(what)]
        out += tool_mentions(m.group(0)[: m.start("what") - m.start()] + what)
    # a bare `make` or `just` would end every turn that says "make sure"
    return list(dict.fromkeys(n for n in out if len(n) >= 3 and n.lower() not in _PLAIN_WORDS))


def _drops_of(rule: Mapping[str, Any]) -> list[str]:
    """The names a stored rule or decision drops: for a stated change, what its words drop
    (the user's too); for a rule that names what it replaces ("Drop task_always_eager and run
    task tests through a real worker"), what its own text drops."""
    text = str(rule.get("text") or "")
    if rule.get("change"):
        return dropped_names(text + " \n " + str(rule.get("said") or ""))
    return dropped_names(text) if rule.get("replaces") else []


def _name_pattern(name: str) -> str:
    """Where ``name`` is mentioned: as a word, or for a call (``skip(st)``), the same call with
    any arguments (``skip(state)`` is the rule that ``skip(st)`` respelled)."""
    call = re.fullmatch(r"([a-z]\w*)\([^()]*\)", name, re.I)
    if call:
        return rf"(?<![\w/-]){re.escape(call.group(1))}\([^()]*\)"
    return rf"(?<![\w/-]){re.escape(name)}(?![\w/-])"


def _spelling(command: str) -> str:
    """How a person names a command in a sentence: its words before the first option, path or
    file name (``npx jest --coverage`` -> ``npx jest``, ``go test ./...`` -> ``go test``)."""
    words: list[str] = []
    for word in command.split():
        if word.startswith("-") or any(c in word for c in "/.=$<>|&;\"'`") or len(words) == 3:
            break
        words.append(word)
    if len(words) == 1 and words[0].lower() in _PLAIN_WORDS:
        return ""  # a bare `make` or `just`: in a sentence, an everyday word
    return " ".join(words)


_PLAIN_WORDS = frozenset({"make", "just", "task", "go", "run", "test", "build", "check", "lint",
                          "format", "deploy", "start", "serve", "dev"})


def _checks_in(text: str) -> list[Any]:
    """The checks the code spans of ``text`` run."""
    from kenning.outcomes import check_of

    return [c for code in re.findall(r"`([^`]{2,120})`", text)
            if (c := check_of(code)) is not None]


class ExtractionService:
    """Zero-LLM capture for one project.

    Built per call by ``Kenning`` from exactly what it uses: the store and project (to find
    stored near-duplicates), the embedder (or None: then only exact repeats are dropped), the
    facade's ``ensure_index`` (so stored memories have vectors to compare with), its
    ``remember_many`` (to store what is applied in one transaction), its ``update`` (to add
    a session's evidence to a gotcha already stored) and its clock (when a stored command is
    confirmed)."""

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        embedder: Embedder | None,
        ensure_index: Callable[[], None],
        remember_many: Callable[[Iterable[Mapping[str, Any]]], list[Memory]],
        update: Callable[..., Memory],
        clock: Callable[[], int],
        supersede: Callable[[str, str, str | None], Any] | None = None,
    ) -> None:
        self.store = store
        self._clock = clock
        self._supersede = supersede
        self.project = project
        self.embedder = embedder
        self._ensure_index = ensure_index
        self._remember_many = remember_many
        self._update = update

    def extract(
        self,
        transcript: str | os.PathLike[str] | None = None,
        repo: str | os.PathLike[str] | None = None,
        since: str | None = None,
        apply: bool = False,
        *,
        llm: bool | None = None,
        llm_budget: int | None = None,
        threshold: float = 0.85,
        episodes: EpisodeOptions | None = None,
    ) -> dict[str, Any]:
        """Collect candidates from the transcript and from the git log (of ``repo``, else of
        the session's own directory, else of the current one), de-duplicate them, refine
        them with an LLM when opted in, and with ``apply`` store the fresh ones plus the
        session's summary. Returns the report ``Kenning.extract`` documents."""
        from kenning.extract import candidates as rules
        from kenning.extract import gitlog
        from kenning.extract.transcript import read_transcript

        started = time.perf_counter()
        threshold = v.confidence(threshold)
        cands: list[rules.Candidate] = []
        sources: dict[str, Any] = {}
        tr = None
        if transcript is not None:
            tr = read_transcript(transcript)
            cands += rules.from_transcript(tr)
            learned, detector, doubted = self.learned_statements(tr, cands)
            gone = {id(c) for c in doubted}
            cands = [c for c in cands if id(c) not in gone] + learned
            sources["transcript"] = {"path": tr.path, "session_id": tr.session_id,
                                     "events": len(tr.events), "skipped_lines": tr.skipped_lines,
                                     "detector": detector, "learned": len(learned)}
        where = repo
        if where is None and tr is not None and tr.cwd and Path(tr.cwd).is_dir():
            where = tr.cwd  # the session's own project
        elif where is None and (tr is None or since is not None):
            where = os.getcwd()
        if where is not None:
            window = since if since is not None else (
                tr.first_timestamp if tr is not None else None)
            try:
                root = gitlog.repo_root(where)
                commits = gitlog.commits(root, window)
            except ValidationError as exc:
                # With a transcript to mine (the SessionEnd hook), a project without git, or
                # git failing, must not lose the session's candidates.
                if tr is None or (since is not None and repo is not None):
                    raise
                sources["git"] = {"error": str(exc)}
            else:
                cands += rules.from_commits(commits, str(root))
                sources["git"] = {"repo": str(root), "since": window, "commits": len(commits)}
        elif since is not None:
            raise ValidationError("since needs a git repository (give repo)")
        cands = self.dedupe_candidates(self.drop_known_setup(self.drop_plain_commands(cands)),
                                       threshold)
        self.match_gotchas(cands)
        fresh = [c for c in cands if c.duplicate_of is None]
        llm_report = None
        from kenning.extract import llm as llm_mod

        if llm_mod.opted_in(llm) and fresh:
            budget = llm_budget if llm_budget is not None else llm_mod.budget_from_env()
            v.positive_int(budget, "llm_budget", 1_000_000)
            fresh, llm_report = llm_mod.refine(fresh, budget=budget)
            cands = [c for c in cands if c.duplicate_of is not None] + fresh
        applied: list[Memory] = []
        session_id = None
        if apply and fresh:
            items = [c.to_item() for c in fresh]
            summary = None
            if tr is not None:
                try:
                    summary = rules.session_summary(tr, fresh)
                except Exception as exc:  # the candidates are stored all the same
                    from kenning.errorlog import log_error

                    log_error("extract: session_summary", exc)
            if summary is not None:
                items += insight_items(SessionInsight.from_dict(summary),
                                       {"source": "extract:transcript"}, children=False)
            applied = self._remember_many(items)
            if len(applied) > len(fresh):
                session_id = applied[-1].id
        recurred = [m.id for m in map(self.add_evidence, cands) if m is not None] \
            if apply else []
        confirmed: list[str] = []
        if apply and tr is not None and tr.session_id:
            # a command seen again: marked as a near-duplicate, or stored already as it is
            again = [(c, c.duplicate_of) for c in cands if c.duplicate_of] + [
                (c, m.id) for c, m in zip(fresh, applied, strict=False) if not m.is_new]
            confirmed = self.confirm_commands(cands, again, tr.session_id)
        replaced = self.supersede_changed(fresh, applied[: len(fresh)]) if apply else []
        if apply:
            replaced += self.supersede_commands(fresh, applied[: len(fresh)])
            replaced += self.supersede_dropped(fresh, applied[: len(fresh)])
            replaced += self.retire_dropped_said(fresh, applied[: len(fresh)])
            replaced += self.supersede_by_meaning(fresh, applied[: len(fresh)], replaced)
            if tr is not None:
                replaced += self.supersede_taken_out(fresh, applied[: len(fresh)],
                                                     rules.code_taken_out(tr))
        kept: list[Memory] = []
        if apply and tr is not None and episodes is not None and episodes.keep:
            kept = self._remember_many(episode_items(
                [(u.text, u.line) for u in tr.user_texts], tr.session_id))
        return {
            "candidates": [c.to_dict() for c in cands],
            "new": len(fresh),
            "duplicates": len(cands) - len(fresh),
            "applied": [m.id for m in applied[: len(fresh)] if m.is_new],
            "recurred": recurred,
            "confirmed": confirmed,
            "superseded": replaced,
            "episodes": sum(1 for m in kept if m.is_new),
            "session_insight": session_id,
            "sources": sources,
            "llm": llm_report,
            "elapsed_ms": round((time.perf_counter() - started) * 1000, 2),
        }

    def learned_statements(self, tr: Any, cands: list[Any]
                           ) -> tuple[list[Any], str, list[Any]]:
        """What the learned sentence detector finds the user stated beyond ``cands``, and how
        the detector fared ("used", or why not). Without the shipped encoder (no embedder, or
        another model configured) there is no detector to run; a missing or corrupt weights
        file, or a failure while judging, is logged for ``kenning doctor``: the session's
        other candidates, and its kept user turns, are stored all the same."""
        from kenning.extract.sentence_kinds import SentenceKinds, Weights
        from kenning.extract.statements import doubted, user_statements

        if self.embedder is None:
            return [], "no embedder", []
        try:
            weights = Weights.load()
            if weights.encoder != getattr(self.embedder, "id", None):
                return [], f"trained for {weights.encoder}, not {self.embedder.id}", []
            kinds = SentenceKinds(self.embedder, weights)
            doubts = doubted(cands, kinds.judge)
            return user_statements(tr, kinds.judge, cands), "used", doubts
        except Exception as exc:  # a missing or corrupt weights file, or a bug in judging
            from kenning.errorlog import log_error

            log_error("extract: sentence detector", exc)
            return [], f"failed: {exc}", []

    def prune_episodes(self, options: EpisodeOptions, now_ms: int) -> int:
        """Forget this project's episodes that ``episodes.prune_plan`` drops; how many."""
        stored = self.store.list(Filters(project=self.project, types=(MemoryType.CONTEXT,),
                                         topic=EPISODE_TOPIC), limit=None)
        drop = prune_plan(((m.id, m.created_at) for m in stored
                           if episodic(m.type.value, m.topic)), now_ms, options)
        return sum(1 for mid in drop if self.store.delete(mid))

    def drop_plain_commands(self, cands: list[Any]) -> list[Any]:
        """``cands`` without the check commands in their ecosystem's plain form (``go test
        ./...``, ``npm test``): a memory of one tells the agent nothing it would not run
        anyway. One is kept when it stands in for a stored command (``replaces_command``: the
        same task in a sibling tool, ``pnpm test`` after ``yarn test --ci``), so that the old
        one ends."""
        from kenning.extract.candidates import replaces_command

        plain = [c for c in cands if c.kind == "pattern" and c.extra.pop("plain", False)]
        if not plain:
            return cands
        stored = [str(m.metadata["command"]) for m in self.store.list(
            Filters(project=self.project, types=(MemoryType.PATTERN,)), limit=500)
            if m.valid_to is None and isinstance(m.metadata.get("command"), str)]
        dropped = {id(c) for c in plain if not any(
            replaces_command(str(c.extra["command"]), old) for old in stored)}
        return [c for c in cands if id(c) not in dropped]

    def drop_known_setup(self, cands: list[Any]) -> list[Any]:
        """``cands`` without a service start the project's memories already give ("Dev DB:
        `docker compose up -d db` ..."): the run that failed without it teaches nothing new."""
        setup = [c for c in cands if c.kind == "setup"]
        if not setup:
            return cands
        known = [m.content for m in self.store.list(Filters(project=self.project), limit=1000)
                 if m.valid_to is None and m.topic != EPISODE_TOPIC]
        dropped = {id(c) for c in setup
                   if all(any(f"`{start}`" in text for text in known)
                          for start in c.extra["setup"])}
        return [c for c in cands if id(c) not in dropped]

    def supersede_commands(self, fresh: list[Any], applied: list[Memory]
                           ) -> list[dict[str, str]]:
        """Retire project check commands that no longer hold: one that now works in another
        spelling of the same task (``pnpm test`` after ``npm test``: sibling tools, same
        sub-command), and one run by a tool a stated change moves away from ("let's move to
        vitest" retires ``npx jest``); ``{"new": id, "old": id}`` per replacement."""
        from kenning.extract.candidates import replaces_command
        from kenning.extract.conventions import TOOL_FAMILIES
        from kenning.outcomes import check_of

        if self._supersede is None:
            return []
        new_ones = [(str(c.extra["command"]), m) for c, m in zip(fresh, applied, strict=False)
                    if m.is_new and c.kind == "pattern" and c.extra.get("command")]
        stated = [(c.extra["rule"], m) for c, m in zip(fresh, applied, strict=False)
                  if m.is_new and isinstance(c.extra.get("rule"), dict)
                  and c.extra["rule"].get("change")]
        changes = [(r, m) for r, m in stated if r.get("subject") in TOOL_FAMILIES]
        named = [(r, m, chk) for r, m in stated for chk in _named_checks(str(r.get("text") or ""))]
        if not new_ones and not changes and not named:
            return []
        pool = [m for m in self.store.list(Filters(project=self.project,
                                                   types=(MemoryType.PATTERN,)), limit=500)
                if m.valid_to is None and isinstance(m.metadata.get("command"), str)]
        out: list[dict[str, str]] = []
        closed: set[str] = set()
        retired: list[tuple[str, Memory]] = []  # (command, the stated change that retired it)
        # a stated change of tool ("let's move to vitest") retires the command of the tool it
        # moves away from (the project's `npx jest` command), another member of that family
        for rule, new in changes:
            family = TOOL_FAMILIES[rule["subject"]]
            head = _DROP_CUE.split(str(rule.get("text") or "").lower(), maxsplit=1)[0]
            chosen = {t for t in family  # the tools it prescribes: named before what it drops
                      if re.search(rf"(?<![\w@/-]){re.escape(t)}(?![\w/-])", head)}
            for old in pool:
                check = check_of(str(old.metadata["command"]))
                tool = check.suite.split()[0] if check else ""
                if (chosen and tool in family and tool not in chosen and old.id not in closed
                        and old.created_at <= new.created_at):
                    self._supersede(new.id, old.id, f"changed: {str(rule.get('text'))[:120]}")
                    closed.add(old.id)
                    out.append({"new": new.id, "old": old.id})
                    retired.append((str(old.metadata["command"]), new))
        # a stated change that names the command to run now ("from now on run the suite with
        # `uv run pytest`") retires the project's other commands for that kind of check
        # (`make test`), unless the session still ran them
        ran = {check_of(str(c.extra["command"])) for c in fresh
               if c.kind == "pattern" and c.extra.get("command")}
        # ... and the rules that prescribe one of those (``run `tox -e lint` before pushing``)
        rules = [m for m in self.store.list(Filters(project=self.project, types=(
            MemoryType.PREFERENCE, MemoryType.DECISION)), limit=500) if m.valid_to is None]
        for rule, new, check in named:
            for old in pool:
                prior = check_of(str(old.metadata["command"]))
                if (prior is None or prior.kind != check.kind or prior == check
                        or prior in ran or old.id in closed
                        or old.created_at > new.created_at):
                    continue
                self._supersede(new.id, old.id, f"changed: {str(rule.get('text'))[:120]}")
                closed.add(old.id)
                out.append({"new": new.id, "old": old.id})
                retired.append((str(old.metadata["command"]), new))
            for old in rules:
                priors = _checks_in(old.summary)
                if (old.id == new.id or old.id in closed or old.created_at > new.created_at
                        or not priors or check in priors
                        or not all(p.kind == check.kind for p in priors)):
                    continue
                self._supersede(new.id, old.id, f"changed: {str(rule.get('text'))[:120]}")
                closed.add(old.id)
                out.append({"new": new.id, "old": old.id})
        out += self._retire_said(retired, closed)
        for command, new in new_ones:
            for old in pool:
                before = str(old.metadata["command"])
                if (old.id == new.id or old.id in closed or before == command
                        or old.created_at > new.created_at
                        or not replaces_command(command, before)):
                    continue
                closed.add(old.id)
                self._supersede(new.id, old.id, f"the project now runs `{command}`")
                out.append({"new": new.id, "old": old.id})
        return out

    def _retire_said(self, retired: list[tuple[str, Memory]], closed: set[str]
                     ) -> list[dict[str, str]]:
        """The kept user turns of earlier sessions that tell to run a command a stated change
        retired ("when you're done run make test") end with it: shown as what the user said,
        they would still present the old way as current."""
        if not retired or self._supersede is None:
            return []
        turns = self._current_turns()
        out: list[dict[str, str]] = []
        for command, new in retired:
            spelled = _spelling(command)
            if spelled:
                out += self._end_turns(new, re.compile(
                    rf"(?<![\w/-]){re.escape(spelled)}(?![\w/-])", re.I), turns, closed)
        return out

    def supersede_by_meaning(self, fresh: list[Any], applied: list[Memory],
                             earlier: Sequence[dict[str, str]] = ()) -> list[dict[str, str]]:
        """Each newly stored statement of the user (a rule, decision, command or fact, found by
        the phrase rules or the learned detector) ends the current memories it replaces, as the
        learned pair judge (``rule_pairs``) reads the two statements: the rules, decisions,
        patterns and discoveries of earlier sessions nearest by the vectors the store holds are
        short-listed, the nearest few of those by their statements' own vectors judged, and
        the likeliest whose probability of being replaced reaches the judge's threshold ended, with
        it in the reason. A statement replaces one earlier statement: besides it, only memories
        that say the same again (``SAME_STATEMENT`` near it) end, and when the phrase rules
        already ended some for it (``earlier``, the replacements made so far), only memories
        near those. A memory that runs commands for jobs the new statement never speaks of is
        not a candidate (``_other_tasks``). Kept user turns of earlier sessions that say the
        ended statement end with it.
        Without the shipped encoder or the judge's weights nothing is ended (a missing or
        corrupt weights file is logged for ``kenning doctor``). ``{"new": id, "old": id}`` per
        replacement."""
        import numpy as np

        from kenning.extract.rule_pairs import PairJudge

        stated = sorted(((c, m) for c, m in zip(fresh, applied, strict=False)
                         if m.is_new and _user_statement(c)),
                        key=lambda cm: min(cm[0].provenance.get("lines") or [0]))
        if self._supersede is None or self.embedder is None or not stated:
            return []
        try:
            judge = PairJudge()
        except Exception as exc:  # a missing or corrupt weights file
            from kenning.errorlog import log_error

            log_error("extract: pair judge", exc)
            return []
        if judge.encoder != self.embedder.id:
            return []
        pool = [m for m in self.store.list(Filters(project=self.project, types=(
            MemoryType.PREFERENCE, MemoryType.DECISION, MemoryType.PATTERN,
            MemoryType.DISCOVERY)), limit=500) if m.valid_to is None]
        if not pool:
            return []
        embedder = self.embedder
        this_session = {m.id for _, m in stated}
        said = {m.id: _statement_of(m) for m in pool}
        news = [_statement_of(m) for _, m in stated]
        vecs = dict(zip(news, embedder.embed(news), strict=True))
        # the nearest by the vectors the store already holds (a memory written moments ago
        # may still wait for its own: the newest few of those are embedded here); only the
        # statements of those nearest are embedded for the judge
        stored = dict(self.store.vectors_of([m.id for m in pool], embedder.id))
        waiting = sorted((m for m in pool if m.id not in stored and m.id not in this_session),
                         key=lambda m: -m.created_at)[:MAX_EMBED_NOW]
        if waiting:
            stored.update(zip([m.id for m in waiting], embedder.embed(
                [embedding_text(m.topic, m.summary, m.content) for m in waiting]), strict=True))

        def statement_vectors(ms: list[Memory]) -> None:
            todo = list(dict.fromkeys(said[m.id] for m in ms if said[m.id] not in vecs))
            if todo:
                vecs.update(zip(todo, embedder.embed(todo), strict=True))

        ended_before = self.store.get_many(list(dict.fromkeys(
            e["old"] for e in earlier if e["new"] in this_session)))

        def replaced_for(new_id: str) -> list[np.ndarray]:
            """The vectors of the statements the phrase rules already ended for ``new_id``
            (kept user turns aside: a whole message says more than the statement)."""
            texts = [_statement_of(m) for e in earlier
                     if e["new"] == new_id and (m := ended_before.get(e["old"])) is not None
                     and not episodic(m.type.value, m.topic)]
            todo = [t for t in dict.fromkeys(texts) if t not in vecs]
            if todo:
                vecs.update(zip(todo, embedder.embed(todo), strict=True))
            return [vecs[t] for t in texts]

        turns = self._current_turns()
        out: list[dict[str, str]] = []
        closed: set[str] = set()
        session = (stated[0][1].metadata.get("provenance") or {}).get("session_id")
        for (_, new), text in zip(stated, news, strict=True):
            # statements of one session are read together, never as replacing each other:
            # two rules said in one breath are both meant (a change said within a session is
            # for the phrase rules above, which see its words)
            olds = [m for m in pool if m.id not in this_session and m.id not in closed
                    and m.created_at <= new.created_at
                    and not (session and (m.metadata.get("provenance") or {}).get(
                        "session_id") == session)]
            near = sorted((m for m in olds if m.id in stored),
                          key=lambda m: -float(stored[m.id] @ vecs[text]))[:PAIR_SHORTLIST]
            statement_vectors(near)
            near = sorted(near, key=lambda m: -float(vecs[said[m.id]] @ vecs[text]))
            near = [m for m in near[:PAIR_CANDIDATES]
                    if float(vecs[said[m.id]] @ vecs[text]) >= PAIR_FLOOR
                    and not _other_tasks(m, new)]
            if not near:
                continue
            probs = judge.replaces(np.stack([vecs[said[m.id]] for m in near]),
                                   np.stack([vecs[text]] * len(near)),
                                   [said[m.id] for m in near], [text] * len(near))
            anchors = replaced_for(new.id)
            for old, p in sorted(zip(near, probs, strict=True), key=lambda op: -float(op[1])):
                if float(p) < judge.replaces_at:
                    break
                if anchors and max(float(a @ vecs[said[old.id]]) for a in anchors
                                   ) < SAME_STATEMENT:
                    continue  # another statement than the one this replaces: it stays
                anchors.append(vecs[said[old.id]])
                self._supersede(new.id, old.id,
                                f"replaced by a later statement (judged {float(p):.2f}): "
                                f"{new.summary[:120]}")
                if float(p) < judge.replaces_at + LOW_MARGIN:
                    from kenning.errorlog import log_notice

                    log_notice("extract: supersession judged with a low margin",
                               f"{old.id} ({old.summary[:80]!r}) ended by {new.id} "
                               f"({new.summary[:80]!r}), judged {float(p):.2f} against "
                               f"{judge.replaces_at:.2f}; `kenning why {old.id}` shows it")
                closed.add(old.id)
                out.append({"new": new.id, "old": old.id})
                words = said[old.id].split()[:TURN_QUOTE_WORDS]
                if len(" ".join(words)) >= MIN_TURN_QUOTE:
                    out += self._end_turns(new, re.compile(r"\s+".join(map(re.escape, words)),
                                                           re.I), turns, closed)
        return out

    def _current_turns(self) -> list[Memory]:
        """The project's kept user turns still current."""
        from kenning.weights import EPISODE_TOPIC

        return [m for m in self.store.list(Filters(project=self.project, types=(
            MemoryType.CONTEXT,), topic=EPISODE_TOPIC), limit=2000) if m.valid_to is None]

    def _end_turns(self, new: Memory, said: re.Pattern[str], turns: list[Memory],
                   closed: set[str]) -> list[dict[str, str]]:
        """Supersede by ``new`` the kept turns of earlier sessions that say ``said``."""
        assert self._supersede is not None
        session = (new.metadata.get("provenance") or {}).get("session_id")
        out: list[dict[str, str]] = []
        for turn in turns:
            if (turn.id in closed or turn.created_at > new.created_at
                    or (session and turn.metadata.get("session_id") == session)
                    or not said.search(turn.content)):
                continue
            self._supersede(new.id, turn.id, "what the user said here was replaced")
            closed.add(turn.id)
            out.append({"new": new.id, "old": turn.id})
        return out

    def retire_dropped_said(self, fresh: list[Any], applied: list[Memory]
                            ) -> list[dict[str, str]]:
        """A stated change that drops something by name ("scratch the assert_cmd + predicates
        checks", "we no longer want owo-colors"), or a rule or decision that names what it
        replaces ("Drop task_always_eager and run task tests through a real worker"), ends
        what prescribes or describes it as current: the rules, decisions, discoveries and
        patterns that name it (not as something to drop) and the user's words of earlier
        sessions that name it, which, kept as what the user said, would present the old way
        as current. ``{"new": id, "old": id}`` per replacement."""
        if self._supersede is None:
            return []
        drops = [(names, m) for c, m in zip(fresh, applied, strict=False)
                 if m.is_new and isinstance(rule := c.extra.get("rule"), dict)
                 and (names := _drops_of(rule))]
        if not drops:
            return []
        turns = self._current_turns()
        # what prescribes the dropped thing (rules, decisions) or describes it as the way the
        # project works (discoveries, patterns)
        rules = [m for m in self.store.list(Filters(project=self.project, types=(
            MemoryType.PREFERENCE, MemoryType.DECISION, MemoryType.DISCOVERY,
            MemoryType.PATTERN)), limit=500) if m.valid_to is None]
        fresh_ids = {m.id for m in applied}
        out: list[dict[str, str]] = []
        closed: set[str] = set()
        for names, new in drops:
            for old in rules:
                found = [f for n in names if (f := re.search(_name_pattern(n), old.summary,
                                                             re.I))]
                if (old.id in closed or old.id in fresh_ids or not found
                        or old.created_at > new.created_at
                        or any(_DROP_CUE.search(old.summary[max(0, f.start() - 25):f.start()]
                                                .lower()) for f in found)):
                    continue
                self._supersede(new.id, old.id, f"changed: {new.summary[:120]}")
                closed.add(old.id)
                out.append({"new": new.id, "old": old.id})
            out += self._end_turns(new, re.compile("|".join(map(_name_pattern, names)), re.I),
                                   turns, closed)
        return out

    def supersede_taken_out(self, fresh: list[Any], applied: list[Memory],
                            taken: tuple[str, str]) -> list[dict[str, str]]:
        """A change the session stated and made ends the older rules, decisions, patterns and
        discoveries whose code its edits took out and put back nowhere: "Switch read_csv to
        the pyarrow engine (engine='pyarrow')" once a session that goes back to pandas' C
        parser removes ``engine="pyarrow"`` from the read. Their replacement is the session's
        stated change closest in meaning (its latest without vectors); one that still names
        the code is not a replacement of it. ``taken`` is ``candidates.code_taken_out``;
        ``{"new": id, "old": id}`` per replacement."""
        from kenning.extract.candidates import named_code

        removed, added = taken
        if self._supersede is None or not removed.strip():
            return []
        changes = [m for c, m in zip(fresh, applied, strict=False)
                   if m.is_new and isinstance(rule := c.extra.get("rule"), dict)
                   and rule.get("change")
                   and m.type in (MemoryType.DECISION, MemoryType.PREFERENCE)]
        if not changes:
            return []
        fresh_ids = {m.id for m in applied}
        first = min(m.created_at for m in changes)
        pool = [m for m in self.store.list(Filters(project=self.project, types=(
            MemoryType.PREFERENCE, MemoryType.DECISION, MemoryType.DISCOVERY,
            MemoryType.PATTERN)), limit=500)
            if m.valid_to is None and m.id not in fresh_ids and m.created_at <= first]
        gone = {m.id: names for m in pool if (names := [
            n for n in named_code(m.summary) if n in removed and n not in added])}
        if not gone:
            return []
        vectors: dict[str, Any] = {}
        if self.embedder is not None and len(changes) > 1:
            vectors = dict(self.store.vectors_of([*gone, *(m.id for m in changes)],
                                                 self.embedder.id))
        out: list[dict[str, str]] = []
        for old in pool:
            if old.id not in gone:
                continue
            candidates = [m for m in changes
                          if not any(n in named_code(m.summary) for n in gone[old.id])]
            if not candidates:
                continue
            new = max(candidates, key=lambda m: (
                float(vectors[m.id] @ vectors[old.id])
                if m.id in vectors and old.id in vectors else -1.0, m.created_at))
            self._supersede(new.id, old.id,
                            f"its code was taken out ({gone[old.id][0]}): {new.summary[:100]}")
            out.append({"new": new.id, "old": old.id})
        return out

    def supersede_dropped(self, fresh: list[Any], applied: list[Memory]
                          ) -> list[dict[str, str]]:
        """A commit that drops a dependency or tool ("drop go-retryablehttp; ...") ends the
        current decisions and preferences that prescribe it (they name it, and not as
        something to drop); ``{"new": id, "old": id}`` per replacement."""
        if self._supersede is None:
            return []
        drops = [(str(c.extra["drops"]), m) for c, m in zip(fresh, applied, strict=False)
                 if m.is_new and c.extra.get("drops")]
        if not drops:
            return []
        pool = [m for m in self.store.list(Filters(project=self.project, types=(
            MemoryType.PREFERENCE, MemoryType.DECISION)), limit=500) if m.valid_to is None]
        out: list[dict[str, str]] = []
        for gone, new in drops:
            named = re.compile(rf"(?<![\w-]){re.escape(gone)}(?![\w-])", re.I)
            for old in pool:
                found = named.search(old.summary)
                if (old.id == new.id or found is None or old.created_at > new.created_at
                        or old.valid_to is not None
                        or _DROP_CUE.search(old.summary[max(0, found.start() - 25):found.start()]
                                            .lower())):
                    continue
                self._supersede(new.id, old.id, f"dropped in a commit: {new.summary[:120]}")
                out.append({"new": new.id, "old": old.id})
        return out

    def supersede_changed(self, fresh: list[Any], applied: list[Memory]
                          ) -> list[dict[str, str]]:
        """Link each newly stored convention or decision to the current one it replaces (the
        same subject, changed: another tool of the family, a reversal, a new value, an explicit
        change close in meaning; the nearest of several, with only what says it again:
        ``_one_statement``), in the order the session stated them, and close the old ones'
        validity. A rule that runs commands for jobs the new one never speaks of stays
        (``_other_tasks``). Returns ``{"new": id, "old": id}`` per replacement."""
        from kenning.extract.conventions import supersedes

        if self._supersede is None:
            return []
        stated = sorted(((c, m) for c, m in zip(fresh, applied, strict=False)
                         if m.is_new and c.extra.get("rule")),
                        key=lambda cm: min(cm[0].provenance.get("lines") or [0]))
        if not stated:
            return []
        pool = [m for m in self.store.list(Filters(project=self.project, types=(
            MemoryType.PREFERENCE, MemoryType.DECISION, MemoryType.PATTERN)), limit=500)
            if m.valid_to is None]
        order = {m.id: i for i, (_, m) in enumerate(stated)}
        rules = {m.id: r for m in pool if (r := rule_of(m)) is not None}
        vectors: dict[str, Any] = {}
        if self.embedder is not None:
            vectors = dict(self.store.vectors_of(list(rules), self.embedder.id))
            # a memory written moments ago may still wait for its vector (writes do not wait
            # for the model): the few missing are embedded here, as they will be stored
            missing = sorted((m for m in pool if m.id in rules and m.id not in vectors),
                             key=lambda m: m.id not in order)[:MAX_EMBED_NOW]
            if missing:
                fresh_vecs = self.embedder.embed([embedding_text(m.topic, m.summary, m.content)
                                                  for m in missing])
                vectors.update({m.id: fresh_vecs[i] for i, m in enumerate(missing)})
        out: list[dict[str, str]] = []
        closed: set[str] = set()
        for _, new in stated:
            new_rule = rules.get(new.id)
            if new_rule is None:
                continue
            replaced: list[tuple[float, Memory]] = []
            for old in pool:
                if old.id == new.id or old.id in closed or old.id not in rules or (
                        old.id in order and order[old.id] >= order[new.id]):
                    continue
                if old.id not in order and old.created_at > new.created_at:
                    continue
                sim = (float(vectors[new.id] @ vectors[old.id])
                       if new.id in vectors and old.id in vectors else None)
                if sim is not None and sim < 0.3 and not (
                        new_rule.subject and new_rule.subject == rules[old.id].subject):
                    continue  # far apart in meaning and in subject: not worth the rules
                if supersedes(new_rule, rules[old.id], sim) and not _other_tasks(old, new):
                    replaced.append((-1.0 if sim is None else sim, old))
            for old in _one_statement(replaced, vectors):
                self._supersede(new.id, old.id,
                                f"changed in a later session: {new_rule.text[:120]}")
                closed.add(old.id)
                out.append({"new": new.id, "old": old.id})
        out += self._supersede_moved_limits([m for _, m in stated], rules)
        return out

    def _supersede_moved_limits(self, stated: list[Memory], rules: dict[str, Any]
                                ) -> list[dict[str, str]]:
        """A gotcha about a limit that a newer rule moves ("143 B over the 2 kB budget", then
        "raise the budget to 2.5 kB") no longer holds: it ends with the rule."""
        from kenning.extract.conventions import moves_limit

        movers = [(m, rules[m.id]) for m in stated if m.id in rules and moves_limit(rules[m.id])]
        if self._supersede is None or not movers:
            return []
        out: list[dict[str, str]] = []
        for old in self.store.list(Filters(project=self.project, types=(MemoryType.GOTCHA,)),
                                   limit=500):
            if old.valid_to is not None:
                continue
            for new, rule in movers:
                if old.created_at <= new.created_at and moves_limit(rule, old.content):
                    self._supersede(new.id, old.id, f"the limit moved: {rule.text[:120]}")
                    out.append({"new": new.id, "old": old.id})
                    break
        return out

    def dedupe_candidates(self, cands: list[Any], threshold: float) -> list[Any]:
        """Drop exact and near repeats among candidates of a kind (keep the surer one) and
        mark those that repeat a stored memory of their type with ``duplicate_of``."""
        uniq: dict[str, Any] = {}
        for c in sorted(cands, key=lambda c: -c.confidence):
            # One gotcha per failure: the same signature twice in a session is one gotcha
            # (the surer one, which is the one that found a cause).
            sig = _signature(c)
            uniq.setdefault(f"sig:{sig}" if sig else content_hash(c.text), c)
        cands = list(uniq.values())
        if self.embedder is None or not cands:
            return cands
        self._ensure_index()
        vecs = self.embedder.embed([embedding_text(None, make_summary(redact(c.text).text),
                                                   redact(c.text).text) for c in cands])
        keep: list[int] = []
        for i in range(len(cands)):  # compare within a kind; gotchas of different failures
            if all(float(vecs[i] @ vecs[j]) < threshold or cands[i].kind != cands[j].kind
                   or _different_failures(cands[i], cands[j]) for j in keep):
                keep.append(i)
        cands = [cands[i] for i in keep]
        found = self.store.vector_search_many(vecs[keep], self.embedder.id,
                                              Filters(project=self.project), 5)
        floor = min(threshold, RULE_DUPLICATE)
        near = self.store.get_many([mid for hits in found for mid, s in hits if s >= floor])
        for c, hits in zip(cands, found, strict=True):
            same = [(mid, s) for mid, s in hits if mid in near
                    and near[mid].type.value == c.type
                    and (s >= threshold or (s >= RULE_DUPLICATE and _same_rule(c, near[mid])))]
            if same:
                c.duplicate_of, c.similarity = same[0]
        return cands

    def match_gotchas(self, cands: list[Any]) -> None:
        """Mark each gotcha whose failure ``signature`` a stored gotcha of the project has as
        its duplicate (``similarity`` None: matched by signature, not by meaning), and unmark
        one that only reads like a stored gotcha of a different failure."""
        gotchas = [c for c in cands if c.kind == "gotcha" and _signature(c)]
        if not gotchas:
            return
        stored = self.store.list(Filters(project=self.project, types=(MemoryType.GOTCHA,)),
                                 limit=None)
        by_sig: dict[str, Memory] = {}
        for m in stored:  # newest first: the newest episode of a failure takes its evidence
            sig = m.metadata.get("signature")
            if isinstance(sig, str) and sig and not m.metadata.get("distilled"):
                by_sig.setdefault(sig, m)
        known = {m.id: m for m in stored}
        for c in gotchas:
            sig = _signature(c) or ""
            match = by_sig.get(sig)
            if match is not None:
                c.duplicate_of, c.similarity = match.id, None
                continue
            near = known.get(c.duplicate_of or "")
            other = near.metadata.get("signature") if near is not None else None
            if other and other != sig:
                c.duplicate_of = c.similarity = None

    def confirm_commands(self, cands: list[Any], seen_again: list[tuple[Any, str]],
                         session_id: str) -> list[str]:
        """What a session's passing checks confirm, unasked (nothing put it in front of the
        model here: what was is judged with the session's trajectories): a stored project
        command that worked again, and a rule or decision of an earlier session whose named
        checks all passed here ("tests are `uv run pytest`, lint is `uv run ruff check .`").
        Each gains ``learning.ACCESS_BOOST`` once for the session. ``cands`` are the session's
        candidates, ``seen_again`` pairs each that repeats a stored memory with its id.
        Returns the ids confirmed."""
        from kenning import learning
        from kenning.outcomes import check_of

        again = {mid: c for c, mid in seen_again
                 if c.kind == "pattern" and c.extra.get("command")}
        passed = {(k.kind, k.suite) for c in cands if c.kind == "pattern"
                  and (k := check_of(str(c.extra.get("command") or ""))) is not None}
        if not passed:
            return []
        shown = {str(m.get("id")) for e in self.store.session_events(
            session_id=session_id, kinds=["injected"], limit=10_000)
            for m in e.data.get("memories") or [] if isinstance(m, dict)}
        stored = self.store.get_many(sorted(again))
        confirmed = [mid for mid, c in again.items()
                     if (m := stored.get(mid)) is not None and m.type is MemoryType.PATTERN
                     and m.valid_to is None and mid not in shown
                     and m.metadata.get("command") == c.extra["command"]]
        for m in self.store.list(Filters(project=self.project, types=(
                MemoryType.DECISION, MemoryType.PREFERENCE)), limit=500):
            named = {(k.kind, k.suite) for k in _named_checks(m.summary)}
            if (named and named <= passed and m.valid_to is None and m.id not in shown
                    and (m.metadata.get("provenance") or {}).get("session_id") != session_id):
                confirmed.append(m.id)
        if not confirmed:
            return []
        now = self._clock()
        marks = [SessionEvent(f"confirmed:{session_id}:{mid}", session_id, self.project,
                              now, "confirmed", {"memory_id": mid}) for mid in confirmed]
        fresh = set(self.store.add_session_events(marks))
        todo = [mid for mid in confirmed if f"confirmed:{session_id}:{mid}" in fresh]
        if todo:
            self.store.adjust_confidence(
                [(mid, learning.ACCESS_BOOST, f"session {session_id[:8]}: its checks passed")
                 for mid in todo], now)
        return todo

    def add_evidence(self, c: Any) -> Memory | None:
        """Count a session that met a stored gotcha again: ``evidence`` + 1 and the session in
        ``sessions`` (the latest ``MAX_SESSIONS``); when the stored one says no cause and this
        one does, its text, cause and fix replace the stored ones. A session already counted
        (the same transcript extracted twice) changes nothing. Returns the updated memory."""
        if c.kind != "gotcha" or c.duplicate_of is None:
            return None
        stored = self.store.get_many([c.duplicate_of]).get(c.duplicate_of)
        if stored is None or stored.type is not MemoryType.GOTCHA:
            return None
        meta = dict(stored.metadata)
        first = (meta.get("provenance") or {}).get("session_id")
        sessions = [s for s in meta.get("sessions") or ([first] if first else [])
                    if isinstance(s, str)]
        session = c.provenance.get("session_id") or c.provenance.get("path")
        if not session or session in sessions:
            return None
        meta["sessions"] = [*sessions, session][-MAX_SESSIONS:]
        meta["evidence"] = int(meta.get("evidence") or 1) + 1
        meta.setdefault("signature", _signature(c))
        if meta.get("cause") or not c.extra.get("cause"):
            return self._update(stored.id, metadata=meta)
        better = {**meta, **{k: c.extra[k] for k in ("cause", "fix", "files", "error", "passed")
                             if k in c.extra}}
        try:
            return self._update(stored.id, text=c.text, metadata=better)
        except ValidationError:  # that text is already another memory's: keep the stored one
            return self._update(stored.id, metadata=meta)


def _signature(c: Any) -> str | None:
    """The failure signature of a gotcha candidate (None for anything else)."""
    sig = c.extra.get("signature") if c.kind == "gotcha" else None
    return sig if isinstance(sig, str) and sig else None


def _different_failures(a: Any, b: Any) -> bool:
    """Two gotchas with signatures that differ: distinct failures however alike they read."""
    sa, sb = _signature(a), _signature(b)
    return sa is not None and sb is not None and sa != sb


# A stated rule this close in meaning to a stored, current one on the same subject (and not
# replacing it) says the same thing again.
RULE_DUPLICATE = 0.75
# The earlier memories a new statement is judged against: its nearest few by vector, no farther
# than this cosine (far apart in meaning, no judge is needed to keep both).
PAIR_CANDIDATES = 8
PAIR_FLOOR = 0.3
# A statement replaces one earlier statement; what else it ends must say that same statement
# again, this near it (a rule kept as a preference and its command kept as a pattern measure
# about 0.6 to 0.95; a rule beside it on another subject below 0.55, on the dev stories).
SAME_STATEMENT = 0.6
# A replacement judged this little above the judge's threshold is logged for ``kenning doctor``
# (a wrong one hides a rule still in force).
LOW_MARGIN = 0.1
# How many are short-listed first by the vectors the store holds (of a memory's whole text, not
# the statement alone): embedding the statements of every current memory at each session end
# would cost about 4 ms each, 2 s for a store of 500.
PAIR_SHORTLIST = 3 * PAIR_CANDIDATES
# An ended statement's first words, which a kept user turn must hold to end with it (when they
# are at least MIN_TURN_QUOTE characters: a short one could be anybody's words).
TURN_QUOTE_WORDS = 10
MIN_TURN_QUOTE = 20


def _one_statement(replaced: list[tuple[float, Memory]], vectors: Mapping[str, Any]
                   ) -> list[Memory]:
    """Of the memories one new rule would replace (each with its nearness to the rule), the
    nearest, and besides it only those that say the same statement again (``SAME_STATEMENT``
    near it): a rule changes one thing, and phrase rules that match on a tool's name alone
    ("pnpm v11 now") would end every rule naming the tool."""
    if not replaced:
        return []
    replaced = sorted(replaced, key=lambda sm: (-sm[0], sm[1].id))
    first = replaced[0][1]
    return [first] + [m for _, m in replaced[1:]
                      if first.id in vectors and m.id in vectors
                      and float(vectors[first.id] @ vectors[m.id]) >= SAME_STATEMENT]


def _other_tasks(old: Memory, new: Memory) -> bool:
    """Whether ``new`` cannot replace ``old`` because ``old`` prescribes commands for jobs
    ``new`` never speaks of (``command_tasks.other_tasks``, on each memory's summary and
    content): a change to how a tool installs, or to its version, leaves the rules that run its
    other commands in force."""
    from kenning.extract.command_tasks import other_tasks

    return other_tasks(f"{old.summary} {old.content}", f"{new.summary} {new.content}")


def _user_statement(c: Any) -> bool:
    """Whether candidate ``c`` holds something the user stated (not the assistant's, not a
    failure's or a command run's)."""
    rule = c.extra.get("rule")
    return bool(c.extra.get("learned")) or (isinstance(rule, dict)
                                            and rule.get("speaker") == "user")


def _statement_of(m: Memory) -> str:
    """A memory as a statement to judge: the user's words when it keeps them, else its
    summary."""
    rule = m.metadata.get("rule")
    said = m.metadata.get("said") or (rule.get("said") if isinstance(rule, dict) else None)
    return str(said) if isinstance(said, str) and said.strip() else m.summary


def _same_rule(cand: Any, stored: Memory) -> bool:
    """Whether a rule candidate restates ``stored``: same subject, neither replacing the
    other, and ``stored`` still current."""
    from kenning.extract.conventions import Rule, same_subject, supersedes

    data = cand.extra.get("rule")
    old = rule_of(stored)
    if not isinstance(data, dict) or old is None or stored.valid_to is not None:
        return False
    new = Rule("decision" if data.get("kind") == "decision" else "convention", data["text"],
               data["text"], str(data.get("subject") or ""), frozenset(data.get("terms") or ()),
               bool(data.get("change")), data.get("replaces"), cand.confidence)
    return same_subject(new, old) and not supersedes(new, old)


def rule_of(memory: Memory) -> Any:
    """The rule a convention or decision memory states: the one the detector stored with it,
    else its summary read as a rule; None when the stored rule is malformed."""
    from kenning.extract.conventions import Rule, as_rule

    data = memory.metadata.get("rule")
    if isinstance(data, dict) and isinstance(data.get("text"), str):
        try:
            kind: Literal["convention", "decision"] = (
                "decision" if data.get("kind") == "decision" else "convention")
            return Rule(kind, data["text"], data["text"], str(data.get("subject") or ""),
                        frozenset(str(t) for t in data.get("terms") or ()),
                        bool(data.get("change")), data.get("replaces") or None,
                        float(memory.confidence))
        except (TypeError, ValueError):
            return None
    return as_rule(memory.summary,
                   "decision" if memory.type is MemoryType.DECISION else "convention")
