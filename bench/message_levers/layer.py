"""The message log with every ranking lever the LoCoMo ablation measured, each off unless asked for.

The runtime's ``MessageLogLayer`` keeps only what runs by default (the hand-set rerank). The
ablation rows (bench/locomo_rows.py) and the benchmarks that compare levers build this
subclass instead, so a lever that lost stays measurable without living in the runtime.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from langgraph.store.base import SearchItem

from bench.learned_fusion.model import FusionModel, candidate_features, shipped_model
from bench.message_levers.pointers import Pointers, pointed
from bench.message_levers.rank import (
    analysed,
    entity_share,
    feedback_words,
    interleave,
    part_info,
    session_lift,
    spread,
    sub_queries,
)
from memory.layers.base import LayerEnv, Recalled
from memory.layers.message_log import MessageLogLayer
from memory.layers.message_query import QueryInfo
from memory.layers.message_rank import Scored, features
from memory.layers.scoring import boosted


class LeverMessageLog(MessageLogLayer):
    """``MessageLogLayer`` with the measured levers; with none set it ranks exactly as the runtime does.

    Args (beyond ``MessageLogLayer``'s):
        session_weight: lift for turns of a session whose turns keep turning up (0: off).
        per_session: at most this many of the first results from one session (0: off).
        decompose: search each part of "X and also Y" too, fused with the whole query.
        feedback: words shared by the first results searched again, at most this many (0: off).
        entity_boost: weight for the share of the query's capitalised words in the message itself.
        fusion: score candidates with this learned model instead of the boosts: ``"shipped"`` is the
            model in ``bench/learned_fusion`` (trained on locomo-dev, CC BY-NC 4.0); None: the boosts.
        pointers: lift the messages the facts and episodes the query finds came from (off).
    """

    def __init__(
        self,
        *,
        session_weight: float = 0.0,
        per_session: int = 0,
        decompose: bool = False,
        feedback: int = 0,
        entity_boost: float = 0.0,
        fusion: FusionModel | Literal["shipped"] | None = None,
        pointers: Pointers = Pointers(),
        **runtime: object,
    ) -> None:
        super().__init__(**runtime)  # type: ignore[arg-type]
        if isinstance(fusion, str) and fusion != "shipped":
            raise ValueError(f"unknown fusion {fusion!r}: expected 'shipped', a FusionModel or None")
        self.session_weight = session_weight
        self.per_session = per_session
        self.decompose = decompose
        self.feedback = feedback
        self.entity_boost = entity_boost
        self.fusion: FusionModel | None = shipped_model() if fusion == "shipped" else fusion
        self.pointers = pointers

    def _analyse(self, env: LayerEnv, query: str, hits: Sequence[SearchItem]) -> QueryInfo:
        speakers = {(h.value.get("name") or "").lower() for h in hits} - {""}
        return analysed(query, speakers, env.now)

    def search(self, env: LayerEnv, query: str, k: int) -> list[Recalled]:
        if k <= 0 or not query.strip():
            return []
        limit = max(self.pool, k)
        hits = self._candidates(env, query, limit)
        if not hits:
            return []
        info = self._analyse(env, query, hits)
        lift, joined = pointed(env, query, self.pointers, hits)
        searches = [(info, hits + joined)]
        ranked = self._ranked(searches, k, lift)
        if self.feedback and (extra := feedback_words([h.value.get("text", "") for _, h in ranked[:5]], info,
                                                       self.feedback)):
            searches.append((info, self._candidates(env, f"{query} {' '.join(extra)}", limit)))
            ranked = self._ranked(searches, k, lift)
        if self.decompose and (parts := sub_queries(query)):
            each = [[(part_info(self._analyse(env, p, hits), info), self._candidates(env, p, limit))] for p in parts]
            ranked = interleave([ranked, *(self._ranked(search, k, lift) for search in each)], k)
        return self._results(hits, ranked)

    def _scores(self, found: Sequence[SearchItem], info: QueryInfo) -> list[float]:
        """The learned fusion's scores when one is set; else the runtime's boosts and the entity cue."""
        if self.fusion is not None:
            return [float(s) for s in self.fusion.scores(candidate_features(found, info))]
        base = super()._scores(found, info)
        return [boosted(score, [(self.entity_boost, entity_share(info, features(h.value.get("text", ""))[0]))])
                for score, h in zip(base, found)]

    def _ranked(self, searches: list[tuple[QueryInfo, list[SearchItem]]], k: int,
                lift: dict[str, float]) -> list[Scored]:
        """The first ``k`` candidates of one or more searches (the whole query, its parts, its
        feedback), each scored against the query that found it; a message found twice keeps its best.
        ``lift``: the pointed messages' strengths (``pointers``).
        """
        best: dict[str, tuple[float, SearchItem]] = {}
        for info, found in searches:
            scored_hits = [x for x in found if x.score is not None]
            for h, score in zip(scored_hits, self._scores(scored_hits, info)):
                score = boosted(score, [(self.pointers.weight, lift.get(h.key, 0.0))])
                if h.key not in best or score > best[h.key][0]:
                    best[h.key] = (score, best[h.key][1] if h.key in best else h)
        scored = sorted(session_lift(list(best.values()), self.session_weight), key=lambda pair: pair[0], reverse=True)
        return spread(scored, self.per_session, k)[:k]
