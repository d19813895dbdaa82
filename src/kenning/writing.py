"""Writing memories behind the facade: remember (one or many), update, outcome and forget.

``WritingService`` holds what ``Kenning``'s writing methods do; the facade keeps their signatures
and documentation and builds a service on each call with the store, project, clock and embedder it
has at that moment. Every write goes through the same steps: validate, redact secrets, then store;
new memories also get their explicit, inferred and automatic links in the same transaction.

``update`` reads its fields from one table (``UPDATABLE``): each field name maps to how its value
is checked and what it changes, so adding a field is one line and the checks run in the order the
caller gave the fields.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from kenning import validation as v
from kenning.errors import ValidationError
from kenning.graph.linking import (
    EXPLICIT_CONFIDENCE,
    EXPLICIT_PARAMS,
    FREE_CONFIDENCE,
    LinkSpec,
    auto_link_batch,
    inferred_evolution,
    make_link,
    pop_spec,
)
from kenning.ids import new_id
from kenning.models import (
    BASE_CONFIDENCE,
    DEFAULT_CATEGORY,
    DEFAULT_CONFIDENCE,
    CreatedBy,
    Link,
    LinkType,
    Memory,
    MemoryType,
    OutcomeStatus,
    Scope,
)
from kenning.redact import redact, redact_obj, redact_together
from kenning.relations import table_lookup
from kenning.text import content_hash, embedding_text, make_summary
from kenning.times import to_ms
from kenning.weights import episodic

if TYPE_CHECKING:
    import numpy as np

    from kenning.embed import Embedder
    from kenning.graph.rules import LinkRules
    from kenning.relations import RelationshipResolver
    from kenning.store.base import Store


# -- update: one table of the fields that can change ---------------------------------------------

@dataclass
class Edit:
    """One update being assembled: the memory as stored, the field names the caller gave (after
    ``text`` became ``content``), the changes so far and how many secrets were redacted."""

    current: Memory
    asked: Collection[str]
    project: str
    max_content_chars: int
    changes: dict[str, Any] = field(default_factory=dict)
    redactions: int = 0


Setter = Callable[[Edit, str, Any], None]


def _checked(check: Callable[[Any], Any]) -> Setter:
    """A field stored as its check returns it (no free text, so nothing to redact)."""
    def put(edit: Edit, key: str, value: Any) -> None:
        edit.changes[key] = check(value)
    return put


def _redacted(value: Any) -> tuple[Any, int]:
    """A string redacted before it is checked (a check that cuts it to a length must not cut a
    secret in two, leaving a part the redactor no longer recognises); anything else as is."""
    if not isinstance(value, str):
        return value, 0
    red = redact(value)
    return red.text, red.count


def _redacted_text(check: Callable[[Any], str | None]) -> Setter:
    """An optional free-text field: redacted, checked, and None when it ends up empty."""
    def put(edit: Edit, key: str, value: Any) -> None:
        value, count = _redacted(value)
        edit.redactions += count
        edit.changes[key] = check(value) or None
    return put


def _content(edit: Edit, key: str, value: Any) -> None:
    """New text: redacted and re-hashed; a summary that was derived from the old text (and is
    not being set in the same update) is derived again from the new one."""
    red = redact(v.content(value, edit.max_content_chars))
    edit.redactions += red.count
    edit.changes["content"] = red.text
    edit.changes["content_hash"] = content_hash(red.text)
    current = edit.current
    if "summary" not in edit.asked and current.summary == make_summary(current.content):
        edit.changes["summary"] = make_summary(red.text)


def _summary(edit: Edit, key: str, value: Any) -> None:
    """A summary; an empty one is derived from the text as changed so far in this update."""
    body = edit.changes.get("content", edit.current.content)
    red = redact(v.summary(value) or make_summary(body))
    edit.redactions += red.count
    edit.changes["summary"] = red.text


def _metadata(edit: Edit, key: str, value: Any) -> None:
    """Metadata, with secrets redacted anywhere inside it."""
    meta, count = redact_obj(v.metadata(value))
    edit.redactions += count
    edit.changes["metadata"] = meta


def _redacted_tags(edit: Edit, key: str, value: Any) -> None:
    """Tags, each checked and redacted."""
    tags, count = _tags(value)
    edit.redactions += count
    edit.changes["tags"] = tags


def _tags(value: Any) -> tuple[tuple[str, ...], int]:
    """Checked tags with any secret in them redacted, and how many secrets went."""
    out: list[str] = []
    count = 0
    for tag in v.tags(value):
        red = redact(tag)
        count += red.count
        if red.text not in out:
            out.append(red.text)
    return tuple(out), count


def _scope(edit: Edit, key: str, value: Any) -> None:
    """A scope; user-scope memories belong to no project, the others to their own (or this)."""
    scope = v.scope(value)
    edit.changes["scope"] = scope
    edit.changes["project"] = "" if scope is Scope.USER else (
        edit.current.project or edit.project
    )


def _outcome(edit: Edit, key: str, value: Any) -> None:
    """An outcome, or None to clear it."""
    edit.changes["outcome"] = None if value is None else v.outcome(value)


def _outcome_reason(edit: Edit, key: str, value: Any) -> None:
    """Why it turned out so: checked like a source and redacted; None clears it. Unlike
    ``source``, a blank reason is stored as an empty string, not None."""
    if value is None:
        edit.changes["outcome_reason"] = None
        return
    value, count = _redacted(value)
    edit.redactions += count
    edit.changes["outcome_reason"] = (v.reason(value, "outcome reason") or "")[:500]


_FREE_TEXT = ("content", "summary", "topic", "source", "tags", "metadata", "outcome_reason")

UPDATABLE: dict[str, Setter] = {
    "content": _content,
    "summary": _summary,
    "topic": _redacted_text(v.topic),
    "type": _checked(v.memory_type),
    "category": _checked(v.category),
    "tags": _redacted_tags,
    "source": _redacted_text(v.source),
    "confidence": _checked(v.confidence),
    "metadata": _metadata,
    "scope": _scope,
    "agent": _checked(v.agent),
    "outcome": _outcome,
    "outcome_reason": _outcome_reason,
}
"""The fields ``update`` can change, each with how its value is checked and stored."""


# -- memories whose vector and links are still to come -------------------------------------------

_WRITES = itertools.count()  # the order of this process's writes within one millisecond


def _pending(project: str, spec: LinkSpec, lineage: bool, link: bool, at: tuple[int, int]
             ) -> str:
    """What a memory needs once its vector exists, as stored with it: the writer's project,
    whether it is linked automatically at all (kept user turns and a store with automatic
    links off only get their vector), the stated reason, whether an explicit link already says
    what it evolves from (no inferred one then), whether it has an evolution link of any kind
    and when it was written: the time and a count of this process's writes (ids keep neither
    an update's nor one millisecond's order)."""
    return json.dumps({"project": project, "link": link, "reason": spec.reason,
                       "evolves": spec.has_evolution, "lineage": lineage, "at": list(at)})


@dataclass
class Pending:
    """A memory whose vector and automatic links are still to come, as ``_pending`` stored it.
    The spec's one explicit entry, when there is one, stands for "an explicit evolution link
    was given": linking only asks whether there was one (the link itself is stored)."""

    memory: Memory
    project: str
    spec: LinkSpec
    lineage: bool
    link: bool
    at: tuple[int, int]

    @classmethod
    def parse(cls, memory: Memory, raw: str) -> Pending:
        data = json.loads(raw)
        explicit: list[tuple[str, str, str | None, tuple[str, ...]]] = (
            [("", "supersedes", None, ())] if data.get("evolves") else [])
        return cls(memory, str(data.get("project", "")),
                   LinkSpec(explicit=explicit, reason=data.get("reason")),
                   bool(data.get("lineage")), bool(data.get("link", True)),
                   (int(data["at"][0]), int(data["at"][1])))


# -- the service --------------------------------------------------------------------------------

class WritingService:
    """What writing a memory does: validation, redaction, links made at remember time,
    embeddings, updates and deletion.

    Built per call by ``Kenning`` from exactly what it uses: the store, the project, the clock,
    the embedder (or None), the content limit, the automatic link rules and whether they apply,
    and the facade's own operations it leans on (get, embedding texts, the relationship words in
    use and the relationship resolver, the last one asked for only when a link needs it)."""

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        clock: Callable[[], int],
        embedder: Embedder | None,
        max_content_chars: int,
        link_rules: LinkRules,
        auto_link: bool,
        get: Callable[[str], Memory],
        embed: Callable[[Sequence[str]], np.ndarray | None],
        known_relationships: Callable[[], dict[str, str]],
        relations: Callable[[], RelationshipResolver],
    ) -> None:
        self.store = store
        self.project = project
        self.clock = clock
        self.embedder = embedder
        self.max_content_chars = max_content_chars
        self.link_rules = link_rules
        self.auto_link = auto_link
        self._get = get
        self._embed = embed
        self._known_relationships = known_relationships
        self._relations = relations

    def prepare(
        self,
        text: str,
        *,
        type: MemoryType | str = MemoryType.INSIGHT,
        topic: str | None = None,
        summary: str | None = None,
        category: str | None = None,
        tags: Iterable[str] | str = (),
        source: str | None = None,
        confidence: float | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_at: object = None,
        scope: Scope | str = Scope.PROJECT,
        agent: str | None = None,
    ) -> tuple[Memory, int]:
        """Validate, redact and build a Memory; returns it with the number of redactions."""
        now = self.clock()
        mtype = v.memory_type(type)
        body = v.content(text, self.max_content_chars)
        if source is not None and not isinstance(source, str):
            v.source(source)  # the type error, before anything is redacted
        # Every field of the memory redacted together: a secret found in one is taken out of
        # the others too (the terms of a rule in the metadata, a tag cut from the text).
        record, count = redact_obj({
            "content": body, "summary": v.summary(summary) or "", "topic": v.topic(topic) or "",
            "source": source or "", "tags": list(v.tags(tags)),
            "metadata": v.metadata(dict(metadata) if metadata else None)})
        assert isinstance(record, dict)
        red_text: str = record["content"]
        meta = record["metadata"]
        tag_values = tuple(dict.fromkeys(record["tags"]))
        source = v.source(record["source"])
        mscope = v.scope(scope)
        created = now if created_at is None else to_ms(created_at, now, name="created_at")
        conf = (
            v.confidence(confidence)
            if confidence is not None
            else DEFAULT_CONFIDENCE.get(mtype, BASE_CONFIDENCE)
        )
        memory = Memory(
            id=new_id(max(0, created)),
            type=mtype,
            topic=record["topic"] or None,
            summary=record["summary"] or make_summary(red_text),
            content=red_text,
            category=v.category(category) if category else DEFAULT_CATEGORY[mtype],
            tags=tag_values,
            source=source,
            confidence=conf,
            outcome=None,
            outcome_reason=None,
            project="" if mscope is Scope.USER else self.project,
            scope=mscope,
            agent=v.agent(agent),
            created_at=created,
            updated_at=now,
            last_accessed_at=None,
            access_count=0,
            content_hash=content_hash(red_text),
            metadata=meta,
        )
        return memory, count

    def remember(self, text: str, *, defer: bool = False, **fields: Any) -> Memory:
        """One memory: a batch of one."""
        return self.remember_many([{"text": text, **fields}], defer=defer)[0]

    def remember_many(self, items: Iterable[Mapping[str, Any]], *, defer: bool = False
                      ) -> list[Memory]:
        """Validate every item first (an error names the item when there are several), then
        make the links, embed all texts in one pass and insert everything in one transaction.

        With ``defer`` (and an embedder) nothing waits for the model: the memories, their
        keyword index and their explicit links are committed with a mark saying their vector
        and automatic links are to come; ``settle`` computes them later, in batches."""
        items = list(items)
        prepared: list[Memory] = []
        specs: list[LinkSpec] = []
        redactions = 0
        for n, item in enumerate(items):
            fields = dict(item)
            text = fields.pop("text", None)
            where = f"item {n}: " if len(items) > 1 else ""
            if text is None:
                raise ValidationError(f"{where}missing 'text'")
            try:
                spec = pop_spec(fields)
                if spec.reason:
                    spec.reason = redact(v.reason(spec.reason) or "").text
                    fields["metadata"] = {**(fields.get("metadata") or {}), "reason": spec.reason}
                memory, count = self.prepare(text, **fields)
            except (TypeError, ValidationError) as exc:
                if isinstance(exc, TypeError) and "argument" not in str(exc):
                    raise
                raise ValidationError(f"{where}{exc}") from exc
            prepared.append(memory)
            specs.append(spec)
            redactions += count
        if not prepared:
            return []
        now = self.clock()
        links = self.explicit_links(prepared, specs, now)
        # Kept user turns are records, not lessons: they are not linked automatically.
        linked = [i for i, m in enumerate(prepared) if not episodic(m.type.value, m.topic)]
        if defer and self.embedder is not None:
            lineage = {ln.from_id for ln in links if ln.link_type is LinkType.EVOLUTION}
            auto = set(linked) if self.auto_link else set()
            pending = {m.id: _pending(self.project, specs[i], m.id in lineage, i in auto,
                                      (now, next(_WRITES))) for i, m in enumerate(prepared)}
            return self.store.insert(prepared, None, None, redactions, links,
                                     pending_links=pending)
        vectors = self._embed([embedding_text(m.topic, m.summary, m.content) for m in prepared])
        if self.auto_link and linked:
            links += self._auto_links(
                self.project, [prepared[i] for i in linked], [specs[i] for i in linked],
                vectors[linked] if vectors is not None else None, now,
                frozenset(ln.from_id for ln in links if ln.link_type is LinkType.EVOLUTION))
        embedder_id = self.embedder.id if self.embedder else None
        return self.store.insert(prepared, vectors, embedder_id, redactions, links)

    def _auto_links(
        self, project: str, memories: Sequence[Memory], specs: Sequence[LinkSpec],
        vectors: np.ndarray | None, now: int, lineage: frozenset[str],
        exclude: frozenset[str] = frozenset(),
    ) -> list[Link]:
        """The links inferred from reasoning and the automatic link rules for a batch."""
        embedder_id = self.embedder.id if self.embedder else None
        links = inferred_evolution(self.store, project, memories, specs, vectors, embedder_id,
                                   now, self._embed)
        lineage |= {ln.from_id for ln in links if ln.link_type is LinkType.EVOLUTION}
        return links + auto_link_batch(self.store, project, memories, vectors, embedder_id,
                                       self.link_rules, now, lineage, exclude)

    def settle(self, *, batch: int = 128, stop: Callable[[], bool] = lambda: False,
               limit: int | None = None,
               progress: Callable[[int, int], None] | None = None) -> int:
        """Compute the vectors and automatic links of memories written without waiting for the
        model, ``batch`` at a time, oldest first; each batch is stored in one transaction with
        its marks cleared, so a killed process leaves the rest for the next one. Links are
        made exactly as a waiting write makes them, the batch's own items counting as earlier
        batch items rather than as stored memories. ``stop`` is asked between batches; at most
        ``limit`` memories are settled (all when None); ``progress(done, total)`` is told after
        each batch (the total counts every memory still without a vector). Returns how many
        were settled."""
        if self.embedder is None:
            return 0
        settled = 0
        total = self.store.count_missing_vectors(self.embedder.id) if progress else 0
        while not stop() and (limit is None or settled < limit):
            todo = self.store.pending_links(batch if limit is None
                                            else min(batch, limit - settled))
            if not todo:
                break
            found = self.store.get_many([mid for mid, _ in todo])
            groups: dict[str, list[Pending]] = {}
            for mid, raw in todo:
                if mid in found:
                    item = Pending.parse(found[mid], raw)
                    groups.setdefault(item.project, []).append(item)
            vectors: list[tuple[str, np.ndarray]] = []
            links: list[Link] = []
            now = self.clock()
            for project, group in groups.items():
                group.sort(key=lambda p: p.at)  # the order of the writes
                memories = [p.memory for p in group]
                vecs = self._embed([embedding_text(m.topic, m.summary, m.content)
                                    for m in memories])
                if vecs is None:
                    continue
                vectors += [(m.id, vecs[i]) for i, m in enumerate(memories)]
                linked = [i for i, p in enumerate(group) if p.link]
                if not linked:
                    continue
                made = self._auto_links(
                    project, [memories[i] for i in linked], [group[i].spec for i in linked],
                    vecs[linked], now, frozenset(p.memory.id for p in group if p.lineage),
                    frozenset(found))
                # A link dates from the write that made it due, as a waiting write's does
                # (automatic links decay from their creation); each touches a new memory.
                written = {p.memory.id: p.at[0] for p in group}
                links += [replace(ln, created_at=max(written[i] for i in (ln.from_id, ln.to_id)
                                                     if i in written)) for ln in made]
            self.store.settle_links(self.embedder.id, vectors, links, [mid for mid, _ in todo])
            settled += len(todo)
            if progress:
                progress(settled, max(total, settled))
        return settled

    def explicit_links(
        self, prepared: Sequence[Memory], specs: Sequence[LinkSpec], now: int
    ) -> list[Link]:
        """Links named at remember time; every target must exist (else nothing is written)."""
        out: list[Link] = []
        for m, spec in zip(prepared, specs, strict=True):
            for target, rel_word, why, tags in spec.explicit:
                target_id = self._get(target).id
                rel_word, reason, *words = redact_together(
                    [v.relationship(rel_word), v.reason(why) or "", *_tags(tags)[0]])
                # Store words matter only when the table does not know the word.
                known = {} if table_lookup(rel_word) else self._known_relationships()
                rel = self._relations().resolve(rel_word, known)
                conf = EXPLICIT_CONFIDENCE if rel_word in EXPLICIT_PARAMS else FREE_CONFIDENCE
                created_by = CreatedBy.USER if rel_word in EXPLICIT_PARAMS else CreatedBy.LLM
                out.append(make_link(
                    m.id, target_id, rel, confidence=conf, created_by=created_by, now_ms=now,
                    reason=reason or None, tags=list(dict.fromkeys(words)),
                ))
        return out

    def update(self, memory_id: str, **fields: Any) -> Memory:
        """Apply the fields in the order given, each through its entry in ``UPDATABLE`` (an
        unknown name fails where it stands); nothing is written unless all pass. Text changes
        are re-embedded; the confidence is stored as of now because decay restarts from the new
        ``updated_at``."""
        current = self._get(memory_id)
        if "text" in fields:
            fields["content"] = fields.pop("text")
        # The free-text fields redacted together first (a secret found in one is taken out of
        # the others); each setter then checks its field.
        given = {key: fields[key] for key in _FREE_TEXT if fields.get(key) is not None}
        red, found = redact_obj(given)
        assert isinstance(red, dict)
        fields.update(red)
        edit = Edit(current, fields, self.project, self.max_content_chars, redactions=found)
        for key, value in fields.items():
            put = UPDATABLE.get(key)
            if put is None:
                raise ValidationError(f"cannot update {key!r}")
            put(edit, key, value)
        changes = edit.changes
        if not changes:
            return current
        changes["updated_at"] = self.clock()
        # Moving updated_at restarts decay from here: store the confidence as of now.
        changes.setdefault("confidence", current.confidence)
        vector = None
        if {"content", "summary", "topic"} & changes.keys() and self.embedder is not None:
            merged = replace(current, **{k: changes[k] for k in ("content", "summary", "topic")
                                         if k in changes})
            vector = self._embed([embedding_text(merged.topic, merged.summary, merged.content)])
        updated = self.store.update(
            current.id,
            changes,
            None if vector is None else vector[0],
            self.embedder.id if self.embedder else None,
            edit.redactions,
        )
        if "confidence" in fields:
            self.store.adjust_confidence([(updated.id, 0.0, "set")], changes["updated_at"])
        return updated

    def outcome(self, memory_id: str, status: OutcomeStatus | str, reason: str | None) -> Memory:
        """An update of the outcome (checked here first) and its reason."""
        return self.update(memory_id, outcome=v.outcome(status), outcome_reason=reason)

    def forget(self, memory_id: str) -> Memory:
        """Delete the memory (by id or unique prefix) and return it as it was."""
        memory = self._get(memory_id)
        self.store.delete(memory.id)
        return memory
