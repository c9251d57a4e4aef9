"""The knowledge layer: passages of the operator's shared documents, recalled beside memory.

Read policy (``recall``): the store's hybrid search (dense and lexical, fused) over
``KNOWLEDGE_CHUNKS``, read through the user's gate, which lets every user read the
knowledge base and no one write it. Each passage keeps its citation (document,
section, chunk) in ``meta``; the prompt shows them in a ``<knowledge>`` block of
their own, within ``knowledge_budget_tokens``, apart from the user's memories.

Write policy: none. Knowledge is not learned from conversations; the operator adds
it with ``memory-agent knowledge add`` (memory/knowledge/base.py).
"""

from __future__ import annotations

from memory.layers.base import LayerBase, LayerEnv, Recalled
from stores.namespaces import KNOWLEDGE_CHUNKS


class KnowledgeLayer(LayerBase):
    """Shared documents, cited; see the module docstring."""

    name = "knowledge"

    def __init__(self, k: int | None = None) -> None:
        self.k = k  # passages recalled per message; None: the context's ``top_k``

    def can_recall(self, env: LayerEnv, query: str) -> bool:
        return bool(env.store.search(KNOWLEDGE_CHUNKS, limit=1))  # no document added: nothing to search

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        ctx = env.context
        hits = env.store.search(KNOWLEDGE_CHUNKS, query=query, limit=self.k or ctx.top_k)
        out = []
        for hit in hits:
            score = max(0.0, hit.score or 0.0)
            if score < ctx.score_floor:
                continue
            v = hit.value
            meta = {"doc": v.get("doc"), "title": v.get("title"), "section": v.get("section") or "",
                    "chunk": int(v.get("chunk", 0)) + 1}
            out.append(Recalled(kind="knowledge", text=v["text"], score=score, key=hit.key, meta=meta))
        return out
