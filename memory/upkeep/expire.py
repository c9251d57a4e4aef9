"""Step 4: expire what is past its TTL, bytes included; date important facts for review.

Expiry reads each item's own ``expires_at`` against the pass's clock (``env.now``,
so simulated time works), deletes through the gate, then scrubs the user's
namespaces so the deleted bytes leave the FAISS files, the FTS index and the WAL
(``MemoryGate.scrub``). The store's own TTL sweeper, which runs on wall-clock
time, still removes what carries a store TTL. ``memory-agent expire`` runs this
step's expiry for every user (``expire_everyone``), so it and upkeep agree on
what has expired: an imported episode dated a year ago carries a store TTL
counted from its import, but its ``expires_at`` from when it was said.

Review: a profile slot that can change over a life (diet, where the user lives,
work, relationship) gets ``review_at`` = last confirmed + ``upkeep_review_days``.
Once that date passes, the semantic layer asks the user to confirm it
(memory/layers/semantic_review.py).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base import BaseStore

from memory.clock import parse_time
from memory.layers.base import LayerEnv
from memory.upkeep.items import all_items, expired, pause, read_state, write_state
from memory.upkeep.report import StepReport
from stores.namespaces import EPISODES, FACTS, PROFILE, stored_users

REVIEWED_SLOTS = frozenset({"diet", "location", "occupation", "employer", "relationship_status"})
EXPIRING_KINDS = (EPISODES, FACTS)


def expire_step(env: LayerEnv, *, dry_run: bool, review: bool = True) -> StepReport:
    """Delete the user's expired items and scrub their bytes; then set due review dates."""
    report = StepReport("expire")
    doomed = {kind: [i for i in all_items(env, kind) if expired(i.value, env.now)] for kind in EXPIRING_KINDS}
    for kind, gone in doomed.items():
        report.add(f"{kind} expired", len(gone))
    if not dry_run:
        if any(doomed.values()):  # bookkeeping, written even with memory off
            write_state(env, scrub_owed=True)  # a pass killed after deleting still scrubs on its rerun
        for kind, gone in doomed.items():
            for item in gone:
                env.store.delete(env.scope.ns(kind), item.key)
            pause()
        if any(doomed.values()) or read_state(env).get("scrub_owed"):
            env.gate.scrub(env.scope.root)  # deletions made physical: a deleted row's bytes are gone
            write_state(env, scrub_owed=False)
    if review:
        report.add("review dates set", _review_dates(env, dry_run))
    return report


def expire_everyone(store: BaseStore, context: Any, embeddings: Embeddings) -> int:
    """Every user's items past their ``expires_at`` (at the clock's now), deleted and scrubbed; how many."""
    removed = 0
    for scope in stored_users(store):
        env = LayerEnv(store=store, scope=scope, context=context, embeddings=embeddings)
        removed += sum(expire_step(env, dry_run=False, review=False).counts.values())
    return removed


def review_due(record: dict[str, Any], days: float) -> str | None:
    """The ``review_at`` a reviewed slot's record should carry (None for slots never reviewed)."""
    if record.get("key") not in REVIEWED_SLOTS:
        return None
    confirmed = parse_time(record.get("updated_at"))
    return (confirmed + timedelta(days=days)).isoformat() if confirmed is not None else None


def _review_dates(env: LayerEnv, dry_run: bool) -> int:
    days = float(env.context.upkeep_review_days)
    changed = 0
    for item in all_items(env, PROFILE):
        due = review_due(item.value, days)
        old = parse_time(item.value.get("review_at"))
        if due is None or (old is not None and old >= parse_time(due)):  # type: ignore[operator]
            continue
        changed += 1
        if dry_run:
            continue

        def change(current: dict[str, Any] | None, due: str = due) -> dict[str, Any] | None:
            if current is None or current.get("review_at") == due:
                return current
            return {**current, "review_at": due}

        env.gate.atomic_update(env.scope.ns(PROFILE), item.key, change)
    return changed
