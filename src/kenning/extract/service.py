"""``ExtractionService``: mining a transcript and git history for candidate memories, dropping
near-duplicates (among the candidates and of what is stored) and, on request, storing the new
ones. A gotcha met again (the same failure ``signature`` as a stored one) is not stored twice:
the stored one counts the new session as evidence. ``Kenning.extract`` delegates to it; the
rule, git, transcript and LLM modules are imported only when an extraction runs."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning import validation as v
from kenning.errors import ValidationError
from kenning.insights import SessionInsight, insight_items
from kenning.models import Filters, Memory, MemoryType
from kenning.redact import redact
from kenning.text import content_hash, embedding_text, make_summary

if TYPE_CHECKING:
    from kenning.embed import Embedder
    from kenning.store.base import Store

MAX_SESSIONS = 20  # session ids a recurring gotcha keeps (the latest), beside its evidence count


class ExtractionService:
    """Zero-LLM capture for one project.

    Built per call by ``Kenning`` from exactly what it uses: the store and project (to find
    stored near-duplicates), the embedder (or None: then only exact repeats are dropped), the
    facade's ``ensure_index`` (so stored memories have vectors to compare with), its
    ``remember_many`` (to store what is applied in one transaction) and its ``update`` (to add
    a session's evidence to a gotcha already stored)."""

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        embedder: Embedder | None,
        ensure_index: Callable[[], None],
        remember_many: Callable[[Iterable[Mapping[str, Any]]], list[Memory]],
        update: Callable[..., Memory],
    ) -> None:
        self.store = store
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
            sources["transcript"] = {"path": tr.path, "session_id": tr.session_id,
                                     "events": len(tr.events), "skipped_lines": tr.skipped_lines}
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
        cands = self.dedupe_candidates(cands, threshold)
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
            summary = rules.session_summary(tr, fresh) if tr is not None else None
            if summary is not None:
                items += insight_items(SessionInsight.from_dict(summary),
                                       {"source": "extract:transcript"}, children=False)
            applied = self._remember_many(items)
            if len(applied) > len(fresh):
                session_id = applied[-1].id
        recurred = [m.id for m in map(self.add_evidence, cands) if m is not None] \
            if apply else []
        return {
            "candidates": [c.to_dict() for c in cands],
            "new": len(fresh),
            "duplicates": len(cands) - len(fresh),
            "applied": [m.id for m in applied[: len(fresh)] if m.is_new],
            "recurred": recurred,
            "session_insight": session_id,
            "sources": sources,
            "llm": llm_report,
            "elapsed_ms": round((time.perf_counter() - started) * 1000, 2),
        }

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
        near = self.store.get_many([mid for hits in found for mid, s in hits if s >= threshold])
        for c, hits in zip(cands, found, strict=True):
            same = [(mid, s) for mid, s in hits if s >= threshold and mid in near
                    and near[mid].type.value == c.type]
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
