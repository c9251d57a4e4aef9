"""The training rows: every candidate the message log's search pools for a dev question.

Each conversation is imported into a fresh local store with the real MiniLM embedder,
as ``bench.locomo_recall`` does; per question the store's candidate pool (the layer's
``pool``) is read and turned into ``model.candidate_features`` rows, labelled 1
for an evidence message. Cached under bench/results/ (git-ignored) per conversation,
with the feature names, so a change of features re-collects.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.learned_fusion.model import FEATURES, candidate_features
from bench.locomo_recall import _env, _store, load_conversation
from bench.message_levers.rank import analysed
from memory.clock import parse_time
from memory.layers.message_log import MessageLogLayer
from models.loader import load_embeddings
from nodes.importer import import_messages
from stores.namespaces import MESSAGES

CACHE = Path(__file__).resolve().parents[1] / "results" / "fusion-candidates"


@dataclass(frozen=True)
class Pools:
    """One conversation's candidates: features, labels, which question each row is, and per question
    its category and how many evidence messages it has (those outside the pool count as missed).
    """

    x: np.ndarray
    y: np.ndarray
    question: np.ndarray
    category: np.ndarray
    n_evidence: np.ndarray


def collect(folder: Path, refresh: bool = False) -> Pools:
    """The pools of one conversation folder, from the cache when it matches today's features."""
    cached = CACHE / f"{folder.name}.npz"
    if cached.exists() and not refresh:
        data = np.load(cached, allow_pickle=False)
        if list(data["features"]) == list(FEATURES):
            return Pools(data["x"], data["y"], data["question"], data["category"], data["n_evidence"])
    messages, questions = load_conversation(folder)
    print(f"{folder.name}: importing {len(messages)} messages for {len(questions)} questions", file=sys.stderr)
    embeddings = load_embeddings("local")
    layer = MessageLogLayer()
    xs, ys, qs, cats, n_ev = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(_store(Path(tmp) / "store", embeddings), embeddings)
        import_messages(messages, env, [layer], progress=False)
        ns = env.scope.ns(MESSAGES)
        for qi, q in enumerate(questions):
            now = parse_time(q.time) or env.now
            hits = [h for h in env.store.search(ns, query=q.query, limit=layer.pool) if h.score is not None]
            speakers = {(h.value.get("name") or "").lower() for h in hits} - {""}
            info = analysed(q.query, speakers, now)
            x = candidate_features(hits, info)
            xs.append(x)
            ys.append(np.asarray([h.key in q.evidence for h in hits], dtype=np.int8))
            qs.append(np.full(len(hits), qi))
            cats.append(q.category)
            n_ev.append(len(q.evidence))
    pools = Pools(np.concatenate(xs), np.concatenate(ys), np.concatenate(qs), np.asarray(cats), np.asarray(n_ev))
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(cached, features=np.asarray(FEATURES), **{k: getattr(pools, k) for k in Pools.__dataclass_fields__})
    return pools

