"""How a search ranks memories for a question: the CLI and MCP ``recall`` and the ``search_memory`` tool.

A turn's prompt takes the whole profile and every rule (each recalled with score 1.0): they are
few and shape every answer. A search is different: "what is my job?" asked for five results must
get the job, not the five most important profile slots. So here each profile slot is scored like a
loose fact (``scoring.combined_score``: relevance, recency, importance, usage; under
``score_floor`` it is dropped), its relevance being the cosine of the question with the nearer of
its sentence and its topic words (``[profile_topics]`` in memory/words.toml). The question is
compared by its content words: every slot's sentence is templated ("The user is ..."), so words
like "is" or "my" would make any slot look related to any question under a bag-of-words model.

A rule says how to answer, not what is true, so a search keeps one only when it is about the
question (cosine at least ``RULE_FLOOR``) or when the caller asked for rules by kind; it is then
scored the same way, with a middling importance. The full list stays one call away (the MCP
``memory://rules`` resource). The prompt-only kinds (``summary``, ``history``, ``review``: a
question for the user, not a memory) are left out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import numpy as np

from memory.kinds import KINDS, SEARCHED_BY_DEFAULT, check_kinds
from memory.layers.base import LayerEnv, MemoryLayer, Recalled
from memory.layers.scoring import combined_score
from memory.text import content_words
from memory.words import profile_topic

# Cosine (question's content words against the rule) at which a rule is about the question. With MiniLM,
# questions about a rule gave 0.42-0.84 ("use emojis" / "Don't use emojis." 0.84, "answer" / "Answer in
# French." 0.42) and ten unrelated questions at most 0.29 ("job" / "Answer in French.").
RULE_FLOOR = 0.35
RULE_IMPORTANCE = 5.0  # rules carry no importance of their own: the middle of the 0-10 scale


def rank_memories(
    env: LayerEnv, layers: Sequence[MemoryLayer], query: str, k: int, kinds: Iterable[str] | None = None
) -> list[Recalled]:
    """The ``k`` best memories over ``layers`` for ``query``, best first.

    ``kinds`` keeps only those kinds (memory/kinds.py; an unknown one raises ``UnknownKind``);
    None searches ``SEARCHED_BY_DEFAULT``.
    """
    if k <= 0:
        raise ValueError("k must be positive")
    asked = check_kinds(kinds)
    wanted = set(SEARCHED_BY_DEFAULT if asked is None else asked)
    env = dataclasses.replace(env, context=dataclasses.replace(env.context, top_k=k))
    found: list[Recalled] = []
    for layer in layers:
        found += [item for item in layer.recall(env, query) if item.kind in wanted and item.kind in KINDS]
    merged = rescored(env, query, found, rules_asked=asked is not None and "rule" in asked)
    merged.sort(key=lambda item: item.score, reverse=True)  # stable: ties keep layer order
    return merged[:k]


def rescored(env: LayerEnv, query: str, items: list[Recalled], rules_asked: bool = False) -> list[Recalled]:
    """``items`` with each profile slot and rule scored for ``query`` (see the module doc); others as they are."""
    placed = [i for i in items if i.kind in ("profile", "rule")]
    if not placed:
        return list(items)
    texts = [i.text for i in placed] + [profile_topic(str(i.key)) for i in placed if i.kind == "profile"]
    probe = " ".join(content_words(query)) or query  # "what is my job?" -> "job": see the module doc
    cosines = iter(relevances(env, probe, texts))
    own = {id(i): next(cosines) for i in placed}
    for i in placed:
        if i.kind == "profile":
            own[id(i)] = max(own[id(i)], next(cosines))
    out: list[Recalled] = []
    for item in items:
        if id(item) not in own:
            out.append(item)
            continue
        relevance = own[id(item)]
        if item.kind == "rule" and relevance < RULE_FLOOR and not rules_asked:
            continue
        score = _score(env, item, relevance)
        if score >= env.context.score_floor or (item.kind == "rule" and rules_asked):
            out.append(dataclasses.replace(item, score=score))
    return out


def _score(env: LayerEnv, item: Recalled, relevance: float) -> float:
    ctx = env.context
    importance = float(item.meta.get("importance", RULE_IMPORTANCE))
    return combined_score(relevance, item.meta.get("updated_at"), importance, env.now, ctx.weights,
                          ctx.recency_half_life_days, int(item.meta.get("use_count") or 0))


def relevances(env: LayerEnv, query: str, texts: Sequence[str]) -> list[float]:
    """Cosine of the question (embedded as a query, as a store search does) with each text, floored at 0."""
    if not texts:
        return []
    q = np.asarray(env.embeddings.embed_query(query), dtype=np.float64)
    docs = np.asarray(env.embeddings.embed_documents(list(texts)), dtype=np.float64)
    norms = np.linalg.norm(docs, axis=1) * (np.linalg.norm(q) or 1.0)
    norms[norms == 0] = 1.0
    return [max(float(x), 0.0) for x in (docs @ q) / norms]
