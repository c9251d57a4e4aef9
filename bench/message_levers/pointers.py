"""Facts and episodes as pointers to the messages they came from: a ranking lever of the message log, off.

The semantic layer's facts and the episodic layer's episodes keep their provenance
(``sources``: message ids). A query that finds a fact ("The user started playing
acoustic guitar about five years ago") has found the message it was read from,
even when that message's own wording ranks it low. So the message log searches
those records with the query too and lifts the messages they point to; a pointed
message outside the candidate pool joins it. An episode points only at the
messages its summary quotes, not at its whole session (that is session-level ranking).

The records are read through the store's namespaces, never through the semantic or
episodic layer, so the message log imports neither. No model is called beyond the
query embedding the store already caches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langgraph.store.base import GetOp, Item, SearchItem, SearchOp

from memory.layers.base import LayerEnv
from stores.namespaces import EPISODES, FACTS, MESSAGES

_SPEAKERS = ("User: ", "Assistant: ")  # how an extractive episode labels the sentences it quotes


@dataclass(frozen=True)
class Pointers:
    """The lever's switches; ``weight`` 0 (the default) turns it off. ``Pointers(0.15)`` passed the
    LoCoMo quality rule on the hand-set rerank (bench/TRIED.md): a light lift, from the two best
    facts and the two best episodes; its cost per turn could not be shown within budget, so it is off.

    Args:
        weight: lift for a pointed message, times its pointer's cosine to the query.
        facts: follow the facts' sources.
        episodes: follow the messages an episode's summary quotes.
        neighbours: share of that lift the turns before and after a pointed message get (0: none).
        limit: facts and episodes read per query, each.
        join: pointed messages outside the candidate pool join it (False: only lift those in it).
    """

    weight: float = 0.0
    facts: bool = True
    episodes: bool = True
    neighbours: float = 0.0
    limit: int = 2
    join: bool = True


def _quoted(episode: dict, known: dict[str, Item]) -> list[str]:
    """The episode's sources whose text holds a sentence its summary quotes."""
    lines = [line.split(": ", 1)[1] for line in str(episode.get("text", "")).splitlines() if line.startswith(_SPEAKERS)]
    texts = {s: str(known[s].value.get("text", "")) for s in episode.get("sources", ()) if s in known}
    return [s for s, text in texts.items() if any(line in text for line in lines)]


def pointed(env: LayerEnv, query: str, options: Pointers, pool: Sequence[SearchItem]) -> tuple[
        dict[str, float], list[SearchItem]]:
    """Each pointed message's strength (the best cosine to the query of a record pointing at it,
    0-1), and the pointed messages missing from ``pool`` as new candidates (none when ``join`` is off).

    Two store round trips when ``neighbours`` is off: both searches in one batch, then one fetch of
    the messages they cite. Reads refresh no TTL: a pointer is a ranking hint, not a use.
    """
    if options.weight <= 0 or not (options.facts or options.episodes):
        return {}, []
    ns = env.scope.ns(MESSAGES)
    known: dict[str, Item] = {h.key: h for h in pool}
    strength: dict[str, float] = {}

    def fetch(ids: Sequence[str]) -> None:
        missing = [i for i in dict.fromkeys(ids) if i not in known]
        for item in env.store.batch([GetOp(ns, i, refresh_ttl=False) for i in missing]) if missing else []:
            if isinstance(item, Item):
                known[item.key] = item

    def point(ids: Sequence[str], score: float) -> None:
        for key in ids:
            strength[key] = max(strength.get(key, 0.0), score)

    kinds = [kind for kind, on in ((FACTS, options.facts), (EPISODES, options.episodes)) if on]
    found = env.store.batch([SearchOp(env.scope.ns(kind), query=query, limit=options.limit, refresh_ttl=False)
                             for kind in kinds])
    hits = [(kind, hit) for kind, result in zip(kinds, found) for hit in result or []]  # type: ignore[union-attr]
    fetch([str(s) for kind, hit in hits if options.join or kind == EPISODES for s in hit.value.get("sources", ())])
    for kind, hit in hits:
        cited = [str(s) for s in hit.value.get("sources", ())]
        point(_quoted(hit.value, known) if kind == EPISODES else cited, min(max(float(hit.score or 0.0), 0.0), 1.0))
    if options.neighbours > 0:
        for key, score in list(strength.items()):
            around = [known[key].value.get(d) for d in ("prev", "next")] if key in known else []
            point([a for a in around if a and a not in strength], score * options.neighbours)
        fetch(list(strength) if options.join else [])
    in_pool = {h.key for h in pool}
    extra = [SearchItem(ns, key, known[key].value, known[key].created_at, known[key].updated_at, score=0.0)
             for key in strength if key in known and key not in in_pool] if options.join else []
    return {k: s for k, s in strength.items() if k in in_pool or (options.join and k in known)}, extra
