"""How the semantic layer writes facts: records, dedup, supersession, history.

Storage layout (all namespaces from ``UserScope.ns``):

- ``PROFILE``, key = slot ("diet"): the one current value of each profile slot.
- ``FACTS``, key = random id: loose facts, indexed on ``text`` for recall.
- ``PROFILE_HISTORY``, key = "<profile|fact>:<id>:<valid_to>": superseded or
  ended records with ``valid_to``, kept for audit and never recalled as current.

Times are statement times (when the user said it), so replaying an old
conversation or a late LLM pass cannot let an older statement win over a newer.
Similarity is computed with ``env.embeddings`` rather than read from the store's
search score, so dedup means the same thing on every store.
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory.clock import parse_time
from memory.layers.base import LayerEnv
from memory.particulars import same_particulars
from memory.text import cosine_similarities
from memory.write_policy.base import CandidateFact, Slot, join_values, slot_for
from stores.namespaces import FACTS, PROFILE, PROFILE_HISTORY

log = logging.getLogger(__name__)
Record = dict[str, Any]
SEARCH_POOL = 10  # stored facts compared with each new one for dedup and conflicts
# What writing one fact did, for a reply that says what was really kept.
NEW, KNOWN, UPDATED = "new", "already known", "updated"


def store_fact(env: LayerEnv, fact: CandidateFact) -> Record | None:
    """Write one grounded, secret-free fact. Returns the record now current (or,
    for a fact that ends a slot, the archived one); None when nothing changed.
    """
    return write_fact(env, fact)[1]


def write_fact(env: LayerEnv, fact: CandidateFact) -> tuple[str, Record | None]:
    """``store_fact`` with what it did: ``NEW``, ``KNOWN`` (a re-statement) or ``UPDATED``."""
    when = (fact.stated_at or env.now).isoformat()
    slot = slot_for(fact.key)
    if slot is not None:
        return _store_keyed(env, fact, slot, when)
    return _store_loose(env, fact, when)


def cosines(env: LayerEnv, text: str, others: list[str]) -> list[float]:
    """Cosine similarity of ``text`` with each of ``others`` under ``env.embeddings``."""
    return cosine_similarities(env.embeddings, text, others)


@dataclass
class _SlotOutcome:
    """What one slot update did: the record to return and the value it archived, if any."""

    result: Record | None = None
    archived: Record | None = None
    done: str = KNOWN


def _store_keyed(env: LayerEnv, fact: CandidateFact, slot: Slot, when: str) -> tuple[str, Record | None]:
    """Update a profile slot as one transaction (``MemoryGate.atomic_update``): two
    runs adding to the same multi-value slot at once must both be kept.
    """
    if fact.negation_of is None:
        _archive_opposites(env, fact.text, negated=False, when=when)
    outcome = _SlotOutcome()

    def change(current: Record | None) -> Record | None:
        outcome.result, outcome.archived, outcome.done = None, None, KNOWN  # a retried transaction starts afresh
        if fact.negation_of is not None:
            return _end_slot(outcome, current, fact, slot, when)
        return _add_to_slot(env, outcome, current, fact, slot, when)

    env.gate.atomic_update(env.scope.ns(PROFILE), slot.name, change)
    if outcome.archived is not None:
        _archive_copy(env, PROFILE, outcome.archived, when, superseded_by=fact.text)
    return outcome.done, outcome.result


def _add_to_slot(
    env: LayerEnv, outcome: _SlotOutcome, current: Record | None, fact: CandidateFact, slot: Slot, when: str
) -> Record | None:
    """The slot's new value for a positive fact (``current`` returned as is: no change)."""
    if current is None:
        outcome.result, outcome.done = _new_record(env, fact, slot.name, when, slot), NEW
        return outcome.result
    if slot.multi:
        known = {_norm(v) for v in current["values"]}
        merged = current["values"] + [v for v in _values(fact.value or "") if _norm(v) not in known]
        if len(merged) == len(current["values"]):
            outcome.result = _refresh_fields(current, fact, when)
            return outcome.result
        updated = {**_refresh_fields(current, fact, when), "values": merged, "value": join_values(merged)}
        outcome.result, outcome.done = {**updated, "text": slot.template.format(values=updated["value"])}, UPDATED
        return outcome.result
    if _norm(current["value"]) == _norm(fact.value or ""):
        outcome.result = _refresh_fields(current, fact, when)
        return outcome.result
    if _after(current["updated_at"], when):
        log.info("kept %r: %r was said earlier", current["text"], fact.text)
        return current
    outcome.archived, outcome.done = current, UPDATED
    outcome.result = _new_record(env, fact, slot.name, when, slot)
    return outcome.result


def _end_slot(
    outcome: _SlotOutcome, current: Record | None, fact: CandidateFact, slot: Slot, when: str
) -> Record | None:
    """'I'm no longer vegetarian': the slot without the value the user says has ended."""
    if current is None or _after(current["updated_at"], when):
        return current
    if slot.multi:
        ended = {_norm(v) for v in _values(fact.value or "")}
        remaining = [v for v in current["values"] if _norm(v) not in ended]
        if len(remaining) == len(current["values"]):
            return current
        outcome.archived = outcome.result = _archived(PROFILE, current, when, fact.text)
        outcome.done = UPDATED
        if not remaining:
            return None
        value = join_values(remaining)
        return {**_refresh_fields(current, fact, when), "values": remaining, "value": value,
                "text": slot.template.format(values=value)}
    if not _overlaps(current["value"], fact.value or ""):
        return current
    outcome.archived = outcome.result = _archived(PROFILE, current, when, fact.text)
    outcome.done = UPDATED
    return None


def _store_loose(env: LayerEnv, fact: CandidateFact, when: str) -> tuple[str, Record | None]:
    negated = fact.negation_of is not None
    ended = _archive_opposites(env, fact.negation_of or fact.text, negated=negated, when=when)
    duplicate = _duplicate(env, fact.text, negated)
    if duplicate is not None:
        return (UPDATED if ended else KNOWN), _refresh(env, duplicate[0], duplicate[1], fact, when)
    record = _new_record(env, fact, uuid.uuid4().hex, when, None)
    return (UPDATED if ended else NEW), _put(env, FACTS, record["id"], record, index=True)


def _duplicate(env: LayerEnv, text: str, negated: bool) -> tuple[str, Record] | None:
    """The stored fact (or profile entry) most similar to ``text``, if it says the same thing."""
    pool = [(FACTS, i.value) for i in env.store.search(env.scope.ns(FACTS), query=text, limit=SEARCH_POOL)]
    if not negated:
        pool += [(PROFILE, i.value) for i in env.store.search(env.scope.ns(PROFILE), limit=200)]
    pool = [(k, r) for k, r in pool
            if (r.get("negation_of") is not None) == negated and same_particulars(text, r["text"])]
    sims = cosines(env, text, [r["text"] for _, r in pool])
    best = max(zip(sims, pool), key=lambda x: x[0], default=None)
    return best[1] if best is not None and best[0] >= env.context.dedup_threshold else None


def _archive_opposites(env: LayerEnv, base: str, negated: bool, when: str) -> int:
    """Archive loose facts of the opposite polarity about the same thing: a new
    'no longer plays tennis' ends 'plays tennis', and a new 'plays tennis' ends
    an older 'no longer plays tennis'. ``base`` is the positive form of the new fact.
    """
    items = env.store.search(env.scope.ns(FACTS), query=base, limit=SEARCH_POOL)
    opposite = [i.value for i in items if (i.value.get("negation_of") is not None) != negated
                and same_particulars(base, i.value.get("negation_of") or i.value["text"])]
    sims = cosines(env, base, [r.get("negation_of") or r["text"] for r in opposite])
    threshold = env.context.dedup_threshold
    ended = [r for sim, r in zip(sims, opposite) if sim >= threshold and not _after(r["updated_at"], when)]
    for record in ended:
        _archive(env, FACTS, record, when, superseded_by=None)
    return len(ended)


def _new_record(env: LayerEnv, fact: CandidateFact, rid: str, when: str, slot: Slot | None) -> Record:
    record: Record = {
        "id": rid,
        "text": fact.text,
        "category": fact.category,
        "key": slot.name if slot else None,
        "value": fact.value,
        "importance": fact.importance,
        "created_at": when,
        "updated_at": when,
        "sources": list(dict.fromkeys(fact.sources)),
        "user_id": env.scope.user_id,
        "explicit": fact.explicit,
        "negation_of": fact.negation_of,
    }
    if slot is not None and slot.multi:
        record["values"] = _values(fact.value or "")
        record["value"] = join_values(record["values"])
        record["text"] = slot.template.format(values=record["value"])
    return record


def _refresh_fields(record: Record, fact: CandidateFact, when: str) -> Record:
    """A re-statement: newer ``updated_at``, more sources, the higher importance."""
    return {
        **record,
        "updated_at": max(record["updated_at"], when, key=_ts),
        "sources": list(dict.fromkeys([*record["sources"], *fact.sources])),
        "importance": max(record["importance"], fact.importance),
        "explicit": record.get("explicit", False) or fact.explicit,
    }


def _refresh(env: LayerEnv, kind: str, record: Record, fact: CandidateFact, when: str) -> Record:
    return _put(env, kind, record["id"], _refresh_fields(record, fact, when), index=kind == FACTS)


def _archived(kind: str, record: Record, valid_to: str, superseded_by: str | None) -> Record:
    """``record`` as kept in history: with its end date and what ended it."""
    kind_name = "profile" if kind == PROFILE else "fact"
    return {**record, "valid_to": valid_to, "superseded_by": superseded_by, "archived_from": kind_name}


def _archive_copy(env: LayerEnv, kind: str, record: Record, valid_to: str, superseded_by: str | None) -> Record:
    """Write ``record``'s history entry (the current value is replaced or deleted by the caller)."""
    stamp = re.sub(r"\W", "", valid_to)
    archived = _archived(kind, record, valid_to, superseded_by)
    key = f"{archived['archived_from']}:{record['id']}:{stamp}"
    env.store.put(env.scope.ns(PROFILE_HISTORY), key, archived, index=False)
    log.info("archived %s %r (valid to %s)", archived["archived_from"], record["text"], valid_to)
    return archived


def _archive(env: LayerEnv, kind: str, record: Record, valid_to: str, superseded_by: str | None) -> Record:
    """Move ``record`` to history with its end date; it is no longer current."""
    archived = _archive_copy(env, kind, record, valid_to, superseded_by)
    env.store.delete(env.scope.ns(kind), record["id"])
    return archived


def archive_record(env: LayerEnv, kind: str, record: Record, valid_to: str, superseded_by: str | None) -> Record:
    """Public form of ``_archive`` for upkeep and review: history copy first, then the delete."""
    return _archive(env, kind, record, valid_to, superseded_by)


def _put(env: LayerEnv, kind: str, key: str, record: Record, index: bool = False) -> Record:
    """Profile entries are loaded whole every turn, so only loose facts are embedded."""
    env.store.put(env.scope.ns(kind), key, record, index=None if index else False)
    return record


def _values(value: str) -> list[str]:
    return [v.strip() for v in re.split(r",\s*|\s+and\s+|\s+or\s+", value) if v.strip()]


def _norm(value: str) -> str:
    return re.sub(r"\W+", " ", value.lower()).strip()


_FUNCTION_WORDS = frozenset("a an the my our at in on of for to and".split())


def _overlaps(current: str, ended: str) -> bool:
    """Whether the value the user says has ended is the current one ('vegetarian' vs 'vegetarian'); a shared
    article or preposition is no overlap ("the team" does not end "the Royal Free").
    """
    a, b = set(_norm(current).split()) - _FUNCTION_WORDS, set(_norm(ended).split()) - _FUNCTION_WORDS
    return bool(a & b)


def _ts(iso: str) -> datetime:
    parsed = parse_time(iso)
    assert parsed is not None
    return parsed


def _after(stored: str, when: str) -> bool:
    """Whether the stored statement is newer than the incoming one."""
    return _ts(stored) > _ts(when)
