"""Fact extraction with a chat model, for models capable enough to be worth it.

The same answer lists the people and pets the user tells about (``people``), which fill the
person records the rules fill (memory/layers/people.py), grounded the same way.
The model gets only the user's messages (sentences holding a secret are left out,
so a hosted model never sees them) and answers with a JSON list of facts. The
answer is validated with pydantic fact by fact, so one malformed item does not
cost the others; and, like every extractor's output, it is grounded afterwards.
Models without native structured output (the embedded one, test fakes) are asked
for plain JSON, which is parsed here.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field, ValidationError

from core.prompts import FACT_EXTRACTION_PROMPT
from memory.layers.base import LoggedMessage
from memory.write_policy.base import SLOTS, CandidateFact, safe_sentences, slot_for, user_messages
from memory.write_policy.people import PersonMention, SaidPerson
from memory.write_policy.people_words import RELATIONS
from memory.write_policy.person import third_person

log = logging.getLogger(__name__)


class ExtractedFact(BaseModel):
    """One fact as the model reports it."""

    text: str = Field(min_length=1, description="Standalone sentence about the user, e.g. 'The user ...'.")
    category: str = Field(default="other", description="identity, diet, health, work, family, preference, habit, ...")
    key: str | None = Field(default=None, description="Profile slot when the fact fills one, else null.")
    value: str | None = Field(default=None, description="The user's own words that state the fact.")
    importance: int = Field(default=5, ge=1, le=10)
    source_ids: list[str] = Field(default_factory=list, description="Ids of the messages that state it.")
    replaces: str | None = Field(default=None, description="An earlier fact this one says is no longer true.")


class ExtractedPerson(BaseModel):
    """One person or pet in the user's life as the model reports them (memory/write_policy/people.py)."""

    name: str | None = Field(default=None, description="The name as the user wrote it; null if not said.")
    relation: str = Field(description="partner, ex_partner, child, parent, sibling, grandparent, grandchild, "
                                      "friend, colleague, pet or other.")
    species: str | None = Field(default=None, description="For a pet: dog, cat, ...")
    ended: bool = Field(default=False, description="The user says the relation ended (a break-up, a death).")
    fact: str | None = Field(default=None, description="A standalone sentence the user said about them.")
    source_ids: list[str] = Field(default_factory=list, description="Ids of the messages that say it.")


class ExtractedFacts(BaseModel):
    """The whole answer: durable facts only, possibly none, and the people and pets the user tells about."""

    facts: list[ExtractedFact] = Field(default_factory=list)
    people: list[ExtractedPerson] = Field(default_factory=list)


INSTRUCTIONS = FACT_EXTRACTION_PROMPT.format(slots=", ".join(SLOTS), relations=", ".join(RELATIONS))


class LLMFactExtractor:
    """Extracts facts with ``chat_model``; the layer supplies one at session end if none was given."""

    needs_llm = True

    def __init__(self, chat_model: BaseChatModel | None = None) -> None:
        self.chat_model = chat_model

    def with_model(self, chat_model: BaseChatModel) -> LLMFactExtractor:
        """This extractor bound to ``chat_model`` unless it already has its own."""
        return self if self.chat_model is not None else LLMFactExtractor(chat_model)

    def extract(self, messages: Sequence[LoggedMessage]) -> list[CandidateFact]:
        return self.extract_all(messages)[0]

    def extract_all(self, messages: Sequence[LoggedMessage]) -> tuple[list[CandidateFact], list[SaidPerson]]:
        """The facts and the people of one answer (one model call); both are grounded by the caller."""
        if self.chat_model is None:
            raise ValueError("LLMFactExtractor needs a chat model; pass one or call with_model()")
        users = user_messages(messages)
        said = {m.id: " ".join(safe_sentences(m.text)) for m in users}
        lines = [f"[{mid}] {text}" for mid, text in said.items() if text]
        if not lines:
            return [], []
        prompt = [SystemMessage(INSTRUCTIONS), HumanMessage("User messages:\n" + "\n".join(lines))]
        ids = {m.id for m in users}
        answer = self._ask(prompt)
        facts = [c for c in (_candidate(f, ids) for f in _validated(answer)) if c is not None]
        return facts, [p for p in (_person(p, ids) for p in _validated_people(answer)) if p is not None]

    def _ask(self, prompt: list[BaseMessage]) -> Any:
        """The model's answer as a pydantic object or plain JSON data; None when unusable."""
        assert self.chat_model is not None
        try:
            structured = self.chat_model.with_structured_output(ExtractedFacts)
        except NotImplementedError:
            structured = None
        try:
            if structured is not None:
                return structured.invoke(prompt)
            reply = self.chat_model.invoke(prompt)
            return parse_json(reply.content if isinstance(reply.content, str) else str(reply.content))
        except Exception as exc:  # a model or parser failure loses this extraction, never the session
            log.warning("fact extraction failed: %s", exc)
            return None


def parse_json(text: str) -> Any:
    """The first JSON object or list in ``text`` (models wrap JSON in prose and fences)."""
    match = re.search(r"[\[{].*[\]}]", text, re.DOTALL)
    if match is None:
        log.warning("fact extraction returned no JSON: %r", text[:200])
        return None
    try:
        return json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        log.warning("fact extraction returned invalid JSON (%s): %r", exc, text[:200])
        return None


def _validated(answer: Any) -> list[ExtractedFact]:
    """Each well-formed fact in the answer; malformed ones are logged and dropped."""
    if isinstance(answer, BaseModel):
        answer = answer.model_dump()
    items = answer.get("facts") if isinstance(answer, dict) else answer
    if not isinstance(items, list):
        return []
    facts: list[ExtractedFact] = []
    for item in items:
        try:
            facts.append(ExtractedFact.model_validate(item))
        except ValidationError as exc:
            log.info("dropped malformed extracted fact %r: %s", item, exc.errors()[0]["msg"])
    return facts


def _validated_people(answer: Any) -> list[ExtractedPerson]:
    """Each well-formed person in the answer (a plain list answer has none)."""
    if isinstance(answer, BaseModel):
        answer = answer.model_dump()
    items = answer.get("people") if isinstance(answer, dict) else None
    people: list[ExtractedPerson] = []
    for item in items if isinstance(items, list) else []:
        try:
            people.append(ExtractedPerson.model_validate(item))
        except ValidationError as exc:
            log.info("dropped malformed extracted person %r: %s", item, exc.errors()[0]["msg"])
    return people


def _person(person: ExtractedPerson, message_ids: set[str]) -> SaidPerson | None:
    """The model's person as the rules would say it; an unknown relation is dropped."""
    relation = re.sub(r"[\W_]+", "_", person.relation.strip().lower()).strip("_")
    if relation not in RELATIONS:
        log.info("dropped extracted person with unknown relation %r", person.relation)
        return None
    fact = person.fact.strip() if person.fact and person.fact.strip() else None
    if fact and re.match(r"^(?:i|i'm|my)\b", fact, re.IGNORECASE):
        fact = third_person(fact)
    name = person.name.strip() if person.name and person.name.strip() else None
    species = person.species.strip().lower() if relation == "pet" and person.species else None
    mention = PersonMention(name=name, relation=relation, species=species, ended=person.ended, fact=fact)
    return SaidPerson(mention, [s for s in person.source_ids if s in message_ids])


def _candidate(fact: ExtractedFact, message_ids: set[str]) -> CandidateFact | None:
    key = re.sub(r"\W+", "_", fact.key.strip().lower()).replace("favorite_", "favourite_") if fact.key else None
    slot = slot_for(key)
    text = fact.text.strip()
    if re.match(r"^(?:i|i'm|my)\b", text, re.IGNORECASE):
        text = third_person(text)
    return CandidateFact(
        text=text,
        category=slot.category if slot else fact.category.strip().lower() or "other",
        key=slot.name if slot else None,
        value=fact.value,
        importance=fact.importance,
        sources=[s for s in fact.source_ids if s in message_ids],
        negation_of=fact.replaces,
    )
