"""The message log: every raw turn kept verbatim, found again by hybrid search.

Write policy: every message of every turn is stored under its own id in the user's
MESSAGES namespace (secrets redacted first; a model reply over 32,000 characters keeps its
start and says so, ``message_text.stored_record``). Re-running a turn rewrites nothing.

What is indexed (``search_text``): the speaker's name and the date the message was said,
the message, and its neighbouring turns; the vectors are one copy of that text per sentence
of the message, led by the sentence (``message_text.sentence_led``). Dialogue answers are
often elliptic ("I chose them 'cause they help LGBTQ+ folks") while the question
before them carries the topic ("What made you pick that agency?"); the name and
date let "When did Caroline ..." match Caroline's own words. Measured on LoCoMo
(bench/locomo_recall.py) each of these lifts recall by several points.

Read policy: a larger candidate pool from the store's hybrid search, reranked by
what the query says (message_query): the named speaker, "when" questions towards
messages that date something, a referenced period, and content words found in the
message itself, each a round-number boost on the store's order (``message_rank.cue_score``,
through the shared scorer). Levers that were measured and left off (a learned fusion of the
rerank's signals, session-level ranking, query decomposition, feedback, facts and episodes as
pointers) live beside their ablation rows in ``bench/message_levers``. One result is one
message and its ``sources`` is exactly its own id: neighbours shape the ranking, never the result.
What ``recall`` gives the prompt is the user's own messages, each with the assistant's reply
after it as marked context; the assistant's messages alone only when asked what it said
(``message_replies``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from langgraph.store.base import GetOp, Item, Op, PutOp, SearchItem

from memory.layers.base import LayerBase, LayerEnv, LoggedMessage, Recalled
from memory.layers.message_query import QueryInfo, analyse
from memory.layers.message_rank import Scored, cue_score, cues, features
from memory.layers.message_replies import own_turns, with_replies
from memory.layers.message_text import (
    index_paths,
    index_value,
    logged_message,
    recalled_message,
    repeats_question,
    search_text,
    stored_record,
)
from memory.layers.scoring import parse_time
from stores.namespaces import MESSAGES

ECHO_HEADROOM = 2  # candidates searched per result, so passed-over repeats leave no gap
REPLY_HEADROOM = 2  # and again, as about half the log is the assistant's replies, passed over too
_PAGE = 500


class MessageLogLayer(LayerBase):
    """Raw past turns, hybrid search, reranked on the question's names and dates.

    Args:
        neighbours: index the turns before and after each message with it.
        date_in_index: index the date a message was said with it.
        pool: candidates fetched from the store before reranking (at least k).
        speaker_boost: weight for messages said by the speaker the query names.
        when_boost: weight, on "when"/"how long" questions, for messages that date something.
        period_boost: weight for messages said in the period the query points at.
        term_boost: weight for the share of the query's content words in the message itself.
        by_sentence: one vector per sentence of a message, each led by it (``message_text.sentence_led``).
    """

    name = "message_log"

    def __init__(
        self,
        neighbours: bool = True,
        date_in_index: bool = True,
        pool: int = 50,
        speaker_boost: float = 0.3,
        when_boost: float = 0.3,
        period_boost: float = 0.3,
        term_boost: float = 0.5,
        by_sentence: bool = True,
    ) -> None:
        self.neighbours = neighbours
        self.date_in_index = date_in_index
        self.pool = pool
        self.speaker_boost = speaker_boost
        self.when_boost = when_boost
        self.period_boost = period_boost
        self.term_boost = term_boost
        self.by_sentence = by_sentence

    # -- write policy -------------------------------------------------------

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        """Store each message with its neighbours in ``turn`` as context; skip unchanged ones.

        Returns ``last_logged`` for the thread state: the next live turn links to it.
        """
        ns = env.scope.ns(MESSAGES)
        records = [stored_record(m) for m in turn]
        for i, value in enumerate(records):
            around = (records[i - 1] if i else None, records[i + 1] if i + 1 < len(records) else None)
            prev, nxt = (r if r is not None and r["thread"] == value["thread"] else None for r in around)
            value["prev"] = prev["id"] if prev else None
            value["next"] = nxt["id"] if nxt else None
            self._index(value, prev, nxt)
        relinked = self._link_to_previous_turn(env, records)
        existing = env.store.batch([GetOp(ns, r["id"]) for r in records])
        ops: list[Op] = [
            PutOp(ns, r["id"], r, index=index_paths(r))
            for r, old in zip(records, existing)
            if not (isinstance(old, Item) and old.value == r)
        ] + relinked
        if ops:
            env.store.batch(ops)
        return {"last_logged": records[-1]["id"]} if records else None

    def session(self, env: LayerEnv, thread: str, since: datetime | None) -> list[LoggedMessage]:
        """What the log holds for ``thread`` said after ``since`` (all of it for None), in order.

        The consolidate node's session transcript at ``end_session``: the log is durable
        (the working layer compacts ``messages``) and holds only turns made with memory on.
        """
        ns, found, offset = env.scope.ns(MESSAGES), [], 0
        while True:
            page = env.store.search(ns, filter={"thread": thread}, limit=_PAGE, offset=offset, refresh_ttl=False)
            offset += len(page)
            for item in page:
                said = parse_time(item.value.get("time"))
                if said is not None and (since is None or said > since):
                    found.append((said, item.value))
            if len(page) < _PAGE:
                break
        found.sort(key=lambda pair: pair[0])
        return [logged_message(v, said) for said, v in found]

    def messages(self, env: LayerEnv, ids: Sequence[str]) -> list[LoggedMessage]:
        """The logged messages with these ids, in that order; one forgotten since is left out."""
        items = env.store.batch([GetOp(env.scope.ns(MESSAGES), i) for i in ids]) if ids else []
        found = [(parse_time(i.value.get("time")), i.value) for i in items if isinstance(i, Item)]
        return [logged_message(v, said) for said, v in found if said is not None]

    def forget(self, env: LayerEnv, ids: Sequence[str]) -> int:
        """Delete messages, and re-index their neighbours, whose indexed text quoted them.

        Without the second step a forgotten message would stay searchable through
        the context of the turns around it. Returns how many messages were deleted.
        """
        ns = env.scope.ns(MESSAGES)
        gone = {key: item.value for key in ids if (item := env.store.get(ns, key)) is not None}
        for key in gone:
            env.store.delete(ns, key)

        def survivor(key: str | None, direction: str) -> str | None:
            while key is not None and key in gone:
                key = gone[key].get(direction)
            return key

        links: dict[str, dict[str, str | None]] = {}
        for value in gone.values():
            prev, nxt = survivor(value.get("prev"), "prev"), survivor(value.get("next"), "next")
            if prev is not None:
                links.setdefault(prev, {})["next"] = nxt
            if nxt is not None:
                links.setdefault(nxt, {})["prev"] = prev
        for key, link in links.items():
            item = env.store.get(ns, key)
            if item is None:
                continue
            value = {**item.value, **link}
            around = [env.store.get(ns, value[d]) if value.get(d) else None for d in ("prev", "next")]
            env.store.put(ns, key, value, index=self._index(value, *(a.value if a else None for a in around)))
        return len(gone)

    def _link_to_previous_turn(self, env: LayerEnv, records: list[dict[str, Any]]) -> list[Op]:
        """In live chat, make the last logged message of this session the first one's neighbour.

        A turn arrives alone, so without this a question's answer would never be
        indexed with the question before it. The thread state's ``last_logged`` names
        that message; it is re-indexed with its new ``next``. Imports replay whole
        threads at once and need none of this.
        """
        if not records or records[0]["prev"] is not None:
            return []
        ns = env.scope.ns(MESSAGES)
        last_id = env.state.get("last_logged")
        last = env.store.get(ns, last_id) if last_id else None
        if last is None or last.key == records[0]["id"] or last.value.get("thread") != records[0]["thread"]:
            return []
        first = records[0]
        first["prev"] = last.key
        self._index(first, last.value, records[1] if len(records) > 1 else None)
        before = env.store.get(ns, last.value["prev"]) if last.value.get("prev") else None
        value = {**last.value, "next": first["id"]}
        return [PutOp(ns, last.key, value, index=self._index(value, before.value if before else None, first))]

    def _index(self, value: dict[str, Any], prev: dict[str, Any] | None, nxt: dict[str, Any] | None) -> list[str]:
        """Write the message's indexed texts into ``value``; the paths to put it with."""
        if not self.neighbours:
            prev = nxt = None
        return index_value(value, search_text(value, prev, nxt, self.date_in_index), self.by_sentence)

    # -- read policy --------------------------------------------------------

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        """The top-k messages scoring at least the context's ``score_floor``; past questions
        that ``query`` asks again are passed over (``repeats_question``) and others take their place.
        The assistant's replies come only as a recalled user message's context, or when ``query``
        asks what the assistant said, and never as filler (``message_replies``).
        """
        floor = float(getattr(env.context, "score_floor", 0.0))
        k = env.context.top_k
        found = self.search(env, query, k * ECHO_HEADROOM * REPLY_HEADROOM)
        kept = own_turns([r for r in found if r.score >= floor and not repeats_question(r.text, query)], query)
        return with_replies(env, kept[:k])

    def search(self, env: LayerEnv, query: str, k: int) -> list[Recalled]:
        """The ``k`` best single messages for ``query``, best first."""
        if k <= 0 or not query.strip():
            return []
        hits = self._candidates(env, query, max(self.pool, k))
        if not hits:
            return []
        info = self._analyse(env, query, hits)
        ranked = sorted(zip(self._scores(hits, info), hits), key=lambda pair: pair[0], reverse=True)
        return self._results(hits, ranked[:k])

    def _candidates(self, env: LayerEnv, query: str, limit: int) -> list[SearchItem]:
        """The store's hybrid search for ``query``, scored hits only, in the store's order."""
        return [h for h in env.store.search(env.scope.ns(MESSAGES), query=query, limit=limit) if h.score is not None]

    def _analyse(self, env: LayerEnv, query: str, hits: Sequence[SearchItem]) -> QueryInfo:
        """The query read against the speakers its candidates name."""
        speakers = {(h.value.get("name") or "").lower() for h in hits} - {""}
        return analyse(query, speakers, env.now)

    def _scores(self, found: Sequence[SearchItem], info: QueryInfo) -> list[float]:
        """One score per candidate of ``found`` (the store's order): the hand-set rerank."""
        weights = (self.speaker_boost, self.when_boost, self.period_boost, self.term_boost)
        return [cue_score(rank, cues(h.value, info, features(h.value.get("text", ""))), weights)
                for rank, h in enumerate(found)]

    @staticmethod
    def _results(hits: Sequence[SearchItem], ranked: Sequence[Scored]) -> list[Recalled]:
        """The ranked messages with a cosine-scale score: the best candidate's cosine, scaled by
        each result's standing, so the order survives a merge with other layers and an off-topic
        query still scores low against the prompt's score floor.
        """
        if not ranked:
            return []
        top_cos = max(float(h.score or 0.0) for h in hits)
        best = max(value for value, _ in ranked)
        return [recalled_message(h, top_cos * value / best) for value, h in ranked]
