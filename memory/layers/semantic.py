"""Semantic memory: what is true about the user (profile slots and loose facts).

Read policy: the profile (name, diet, allergies, ...) is small and always
relevant, so every current slot is recalled on every turn with score 1.0 (a search
ranks the slots by relevance instead, memory/search_rank.py); loose
facts are ranked by ``scoring.combined_score`` (store cosine as relevance) and
the top ``top_k`` above ``score_floor`` are recalled; a question about the past
also gets the nearest ended values (``semantic_history``).

Write policy: after every turn the cheap extractor (rules by default, no LLM)
proposes facts from the user's messages; an LLM extractor runs once at session end
when the layer was given one, or when ``llm_extraction`` says so (by default: for every
capable ``<provider>:<model>`` spec, so a deployment needs no code change; the same call
proposes the procedural layer's rules). Every proposal
then passes the write policy's declared stages (``memory/write_policy/pipeline.py``: screened for secrets, grounded in
the user's words, then deduplicated or superseded by ``semantic_records``).
``remember`` is the explicit path for ``/remember`` and the ``remember`` tool.

People and pets the user tells about are records of their own (``people.py``), written after
every turn by rules and at session end by the capable-model extractor, and recalled when a
message names them or their relation word (``people_recall.py``).
"""

from __future__ import annotations

import logging
import re
import uuid
from collections import Counter
from collections.abc import Sequence
from typing import Any

from memory.layers.base import LayerBase, LayerEnv, LoggedMessage, Recalled
from memory.layers.people import said_people, told_of, write_people
from memory.layers.people_recall import recall_people
from memory.layers.scoring import combined_score
from memory.layers.semantic_history import recall_history
from memory.layers.semantic_records import KNOWN, NEW, UPDATED, Record, write_fact
from memory.layers.semantic_review import answer_reviews, review_items
from memory.write_policy.base import FactExtractor, split_sentences
from memory.write_policy.grounding import ground_people
from memory.write_policy.llm import LLMFactExtractor, llm_extraction_on
from memory.write_policy.pattern_extractor import PatternFactExtractor
from memory.write_policy.pipeline import normalise, propose, write, write_facts
from stores.namespaces import FACTS, PROFILE
from stores.redaction.secrets import contains_secret

log = logging.getLogger(__name__)
_LETTERS = re.compile(r"[^\W\d_]")
MIN_NOTE_LETTERS = 3  # a remembered sentence needs at least a short word
PROFILE_LIMIT = 200  # more slots than any profile has; the profile is recalled whole
MIN_POOL = 20  # facts fetched by relevance before re-ranking with recency and importance


class SemanticLayer(LayerBase):
    """Profile + facts. ``extractor`` defaults to the rule extractor; an extractor
    that ``needs_llm`` runs at session end, with the rules still running per turn.
    """

    name = "semantic"

    def __init__(self, extractor: FactExtractor | None = None) -> None:
        chosen = extractor if extractor is not None else PatternFactExtractor()
        self.turn_extractor: FactExtractor = PatternFactExtractor() if chosen.needs_llm else chosen
        self.session_extractor: FactExtractor | None = chosen if chosen.needs_llm else None

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        return (recall_profile(env) + review_items(env, query) + recall_facts(env, query) + recall_history(env, query)
                + recall_people(env, query))

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        users = normalise(turn)
        if users:
            # the write policy (memory/write_policy/pipeline.py); a fact about someone goes on their record
            facts, people = told_of(propose(self.turn_extractor, users), said_people(users))
            write_facts(env, facts, users)
            write_people(env, people)  # people and pets, as records of their own (layers/people.py)
            answer_reviews(env, users)  # after the extractor: a new value has superseded the fact already
        return None

    def on_session_end(self, env: LayerEnv, session: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        extractor = self.session_extractor
        if extractor is None and llm_extraction_on(env.context.llm_extraction, env.context.chat_model):
            extractor = LLMFactExtractor(max_tokens=env.context.extraction_max_tokens)  # by setting, not code
        if extractor is None:
            return None
        if isinstance(extractor, LLMFactExtractor) and extractor.chat_model is None:
            if env.chat_model is None:
                return None
            extractor = extractor.with_model(env.chat_model, env.context.extraction_max_tokens)
        if isinstance(extractor, LLMFactExtractor):  # one answer: facts and the people they name
            users = normalise(session)
            facts, people = extractor.extract_all(users)
            write_facts(env, facts, users)
            write_people(env, ground_people(people, users))
            return None
        write(env, extractor, session)
        return None


def remember(env: LayerEnv, text: str, sources: Sequence[str] = ()) -> list[Record]:
    """``remember_outcomes`` less what each write did: the records now current."""
    return [record for _, record in remember_outcomes(env, text, sources)]


def record_kind(record: Record) -> str:
    """A written record's kind (memory/kinds.py): a profile slot has its slot's key, a loose fact none."""
    return "profile" if record.get("key") else "fact"


def kept_summary(outcomes: Sequence[tuple[str, Record]]) -> str:
    """What a /remember really kept, in words: "1 new", "1 already known", "1 updated"."""
    counts = Counter(done for done, _ in outcomes)
    return ", ".join(f"{counts[done]} {done}" for done in (NEW, UPDATED, KNOWN) if counts[done])


def remember_outcomes(env: LayerEnv, text: str, sources: Sequence[str] = ()) -> list[tuple[str, Record]]:
    """Store what the user explicitly asked to remember ("/remember I'm vegan").

    The text is the user's own request, so it is not grounded against a turn, and
    it is stored even when no durable-statement pattern matches (as a note). It
    is still refused whole when it contains a secret. Without ``sources`` (no
    logged message carried the request) its provenance is a fresh
    ``remember:<id>``. With the user's memory off the gate raises ``MemoryOff``.
    """
    if contains_secret(text):
        log.info("refused to remember text that contains a secret")
        return []
    sources = list(sources) or [f"remember:{uuid.uuid4().hex}"]
    rules = PatternFactExtractor()
    written: list[tuple[str, Record]] = []
    for sentence in split_sentences(text):
        if len(_LETTERS.findall(sentence)) < MIN_NOTE_LETTERS:
            continue  # punctuation or a stray word from a model's call ("{."): nothing to keep
        for fact in rules.sentence_facts(sentence, sources=list(sources), stated_at=env.now, explicit=True):
            done, record = write_fact(env, fact)
            if record is not None:
                written.append((done, record))
    return written


def recall_profile(env: LayerEnv) -> list[Recalled]:
    """Every current profile slot, most important first."""
    items = env.store.search(env.scope.ns(PROFILE), limit=PROFILE_LIMIT)
    records = sorted((i.value for i in items), key=lambda r: (-r["importance"], r["id"]))
    return [
        Recalled(kind="profile", text=r["text"], score=1.0, sources=tuple(r["sources"]), key=r["id"],
                 meta={"value": r["value"], "category": r["category"], "updated_at": r["updated_at"],
                       "importance": r["importance"], "use_count": r.get("use_count", 0)})
        for r in records
    ]


def recall_facts(env: LayerEnv, query: str) -> list[Recalled]:
    """The ``top_k`` loose facts by combined score, dropping those under ``score_floor``."""
    ctx = env.context
    items = env.store.search(env.scope.ns(FACTS), query=query or None, limit=max(ctx.top_k * 4, MIN_POOL))
    scored = [
        (combined_score(max(item.score or 0.0, 0.0), item.value["updated_at"], item.value["importance"],
                        env.now, ctx.weights, ctx.recency_half_life_days, item.value.get("use_count", 0)), item.value)
        for item in items
    ]
    ranked = sorted((s for s in scored if s[0] >= ctx.score_floor), key=lambda s: -s[0])[: ctx.top_k]
    return [
        Recalled(kind="fact", text=r["text"], score=score, sources=tuple(r["sources"]), key=r["id"],
                 meta={"category": r["category"], "importance": r["importance"], "updated_at": r["updated_at"]})
        for score, r in ranked
    ]
