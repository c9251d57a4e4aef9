"""Step 1: merge near-duplicate facts and episodes; settle facts that contradict each other.

Write-time dedup compares a new fact with a few stored ones; over months,
rephrasings slip through ("The user has a dog named Rex." twice in different
words) and episodes of similar sessions pile up. Here every pair is compared:
a group of near-duplicates (cosine at or above ``dedup_threshold``) keeps its
oldest member, which takes the union of the group's sources, the highest
importance and the latest time; the others are deleted after it is written.

Settling: some loose facts hold one value at a time ("The user's partner is
Sam." then "... partner is Alex."). Only the newest stays current; older ones
move to history with ``valid_to``, the way profile slots are superseded.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from langgraph.store.base import Item

from memory.clock import parse_time
from memory.layers.base import LayerEnv
from memory.layers.semantic_records import archive_record
from memory.particulars import same_particulars
from memory.upkeep.items import all_items, expired, pause, union
from memory.upkeep.report import StepReport
from stores.namespaces import EPISODES, FACTS

# "The user's partner is (called) Sam." — one partner at a time; the group names the relation.
SINGLE_VALUED = re.compile(
    r"^the user's (?P<rel>partner|wife|husband|boyfriend|girlfriend|fianc[eé]e?|spouse) is (?:called |named )?\S",
    re.IGNORECASE,
)
PARTNER_GROUP = "partner"


def merge_step(env: LayerEnv, *, dry_run: bool) -> StepReport:
    """Merge near-duplicate facts and episodes, then settle single-valued facts."""
    report = StepReport("merge")
    threshold = float(env.context.dedup_threshold)
    facts = [i for i in all_items(env, FACTS) if not expired(i.value, env.now)]
    for group in _groups(env, facts, threshold, lambda v: v.get("negation_of") is not None):
        report.add("facts merged", _merge(env, FACTS, group, dry_run))
    episodes = [i for i in all_items(env, EPISODES) if not i.value.get("level") and not expired(i.value, env.now)]
    for group in _groups(env, episodes, threshold, lambda v: None):
        report.add("episodes merged", _merge(env, EPISODES, group, dry_run))
    report.add("facts superseded", _settle(env, dry_run))
    return report


def _groups(env: LayerEnv, items: list[Item], threshold: float, polarity: Any) -> list[list[Item]]:
    """Groups (2+) of items whose texts are near-duplicates, linked transitively."""
    if len(items) < 2:
        return []
    vectors = np.asarray(env.embeddings.embed_documents([i.value["text"] for i in items]), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sims = vectors @ vectors.T
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    texts = [i.value["text"] for i in items]
    for a, b in zip(*np.nonzero(np.triu(sims >= threshold, k=1))):
        if polarity(items[a].value) == polarity(items[b].value) and same_particulars(texts[a], texts[b]):
            parent[root(int(a))] = root(int(b))
    groups: dict[int, list[Item]] = {}
    for i, item in enumerate(items):
        groups.setdefault(root(i), []).append(item)
    return [g for g in groups.values() if len(g) > 1]


def _oldest_first(group: list[Item]) -> list[Item]:
    return sorted(group, key=lambda i: (str(i.value.get("created_at") or i.value.get("time") or ""), i.key))


def _merge(env: LayerEnv, kind: str, group: list[Item], dry_run: bool) -> int:
    """Write the survivor with the group's union, then delete the rest; returns how many went."""
    keep, *rest = _oldest_first(group)
    merged = dict(keep.value)
    values = [keep.value, *(i.value for i in rest)]
    merged["sources"] = union(*(v.get("sources", []) for v in values))
    merged["importance"] = max(v.get("importance", 0) for v in values)
    for stamp in ("updated_at", "time", "expires_at"):
        stamps = [v[stamp] for v in values if v.get(stamp)]
        if stamps:
            merged[stamp] = max(stamps, key=parse_time)
    if dry_run:
        return len(rest)
    ns = env.scope.ns(kind)
    if merged != keep.value:
        env.store.put(ns, keep.key, merged)  # first the union, so a kill here loses no source
        pause()
    for item in rest:
        env.store.delete(ns, item.key)
    return len(rest)


def _settle(env: LayerEnv, dry_run: bool) -> int:
    """Archive all but the newest of each single-valued relation; returns how many were archived."""
    by_relation: dict[str, list[dict[str, Any]]] = {}
    for item in all_items(env, FACTS):
        match = SINGLE_VALUED.match(item.value["text"])
        if match and item.value.get("negation_of") is None:
            by_relation.setdefault(PARTNER_GROUP, []).append(item.value)
    archived = 0
    for records in by_relation.values():
        records.sort(key=lambda r: (parse_time(r["updated_at"]), r["id"]))
        newest = records[-1]
        for old in records[:-1]:
            archived += 1
            if not dry_run:
                archive_record(env, FACTS, old, newest["updated_at"], superseded_by=newest["text"])
                pause()
    return archived
