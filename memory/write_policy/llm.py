"""Fact (and rule) extraction with a chat model, for models capable enough to be worth it.

The same answer lists the people and pets the user tells about (``people``), which fill the
person records the rules fill (memory/layers/people.py), grounded the same way.
The model gets only the user's messages (sentences holding a secret are left out,
so a hosted model never sees them) and answers with a JSON list of facts and one
of standing rules (``llm_rules.py``). The answer is validated with pydantic item by
item, so one malformed item does not cost the others; and, like every extractor's
output, it is grounded afterwards. Models without native structured output (the
embedded one, test fakes) are asked for plain JSON, which is parsed here; so is a
structured answer the schema refused.

One session end asks once: the semantic layer (facts) and the procedural layer
(rules) run as parallel nodes and share ``session_answer``, which keeps the last few
answers per model and prompt. The procedural node also re-runs on a rule-review
resume, and must then meet the same proposals: the kept answer gives it them.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field, ValidationError

from core.prompts import FACT_EXTRACTION_PROMPT
from memory.layers.base import LoggedMessage
from memory.text import content_words
from memory.write_policy.base import SLOTS, CandidateFact, safe_sentences, slot_for, user_messages
from memory.write_policy.llm_rules import ExtractedRule
from memory.write_policy.people_words import RELATIONS
from memory.write_policy.person import third_person
from memory.write_policy.person_mention import PersonMention, SaidPerson
from models.loader import EMBEDDED_CHAT

log = logging.getLogger(__name__)
_Item = TypeVar("_Item", bound=BaseModel)


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
    """The whole answer: durable facts, standing rules, and the people and pets the user tells about."""

    facts: list[ExtractedFact] = Field(default_factory=list)
    rules: list[ExtractedRule] = Field(default_factory=list)
    people: list[ExtractedPerson] = Field(default_factory=list)


INSTRUCTIONS = FACT_EXTRACTION_PROMPT.format(slots=", ".join(SLOTS), relations=", ".join(RELATIONS))
KEPT_ANSWERS = 8  # sessions ending at once in one process, and a review's resume


def llm_extraction_on(setting: str, chat_spec: str) -> bool:
    """``llm_extraction``: 'on' or 'off' as set; 'auto' is on for a provider spec, off for the embedded models."""
    if setting != "auto":
        return setting == "on"
    return chat_spec not in EMBEDDED_CHAT


class LLMFactExtractor:
    """Extracts facts with ``chat_model``; the layer supplies one at session end if none was given."""

    needs_llm = True

    def __init__(self, chat_model: BaseChatModel | None = None, max_tokens: int | None = None) -> None:
        self.chat_model = chat_model
        self.max_tokens = max_tokens

    def with_model(self, chat_model: BaseChatModel, max_tokens: int | None = None) -> LLMFactExtractor:
        """This extractor bound to ``chat_model`` unless it already has its own."""
        return self if self.chat_model is not None else LLMFactExtractor(chat_model, max_tokens or self.max_tokens)

    def extract(self, messages: Sequence[LoggedMessage]) -> list[CandidateFact]:
        return self.extract_all(messages)[0]

    def extract_all(self, messages: Sequence[LoggedMessage]) -> tuple[list[CandidateFact], list[SaidPerson]]:
        """The facts and the people of one answer (one model call); both are grounded by the caller."""
        if self.chat_model is None:
            raise ValueError("LLMFactExtractor needs a chat model; pass one or call with_model()")
        ids = {m.id for m in user_messages(messages)}
        answer = session_answer(self.chat_model, messages, self.max_tokens)
        facts = [c for c in (_candidate(f, ids) for f in answer.facts) if c is not None]
        return facts, [p for p in (_person(p, ids) for p in answer.people) if p is not None]


_answers: OrderedDict[tuple[int, str], tuple[BaseChatModel, ExtractedFacts]] = OrderedDict()
_asking: dict[tuple[int, str], threading.Lock] = {}
_guard = threading.Lock()


def session_answer(
    chat_model: BaseChatModel, messages: Sequence[LoggedMessage], max_tokens: int | None = None
) -> ExtractedFacts:
    """What ``chat_model`` extracts from the user's ``messages``: asked once per model and prompt
    (the answer is kept for the layers that ask after the first), empty when unusable. ``max_tokens``
    lifts the model's reply limit for this answer: a chat reply's is too short for a session's JSON.
    """
    said = {m.id: " ".join(safe_sentences(m.text)) for m in user_messages(messages)}
    lines = "\n".join(f"[{mid}] {text}" for mid, text in said.items() if text)
    if not lines:
        return ExtractedFacts()
    key = (id(chat_model), lines)
    with _guard:
        asking = _asking.setdefault(key, threading.Lock())
    with asking:  # a second layer waits for the first's answer instead of asking again
        with _guard:
            kept = _answers.get(key)
        if kept is not None and kept[0] is chat_model:
            return kept[1]
        prompt = [SystemMessage(INSTRUCTIONS), HumanMessage("User messages:\n" + lines)]
        answer = _validated(_ask(_sized(chat_model, max_tokens), prompt))
        with _guard:
            _answers[key] = (chat_model, answer)
            while len(_answers) > KEPT_ANSWERS:
                _asking.pop(_answers.popitem(last=False)[0], None)
    return answer


def _sized(chat_model: BaseChatModel, max_tokens: int | None) -> BaseChatModel:
    """``chat_model`` with its reply limit (``max_tokens``, or Ollama's ``num_predict``) set to ``max_tokens``."""
    for name in ("max_tokens", "num_predict"):
        if max_tokens and name in type(chat_model).model_fields:
            return chat_model.model_copy(update={name: max_tokens})
    return chat_model


def _ask(chat_model: BaseChatModel, prompt: list[BaseMessage]) -> Any:
    """The model's answer as a pydantic object or plain JSON data; None when unusable."""
    try:
        structured = chat_model.with_structured_output(ExtractedFacts, include_raw=True)
    except NotImplementedError:
        structured = None
    try:
        if structured is None:
            reply = chat_model.invoke(prompt)
            return parse_json(reply.content if isinstance(reply.content, str) else str(reply.content))
        answer = structured.invoke(prompt)
    except Exception as exc:  # a model or parser failure loses this extraction, never the session
        log.warning("fact extraction failed: %s", exc)
        return None
    if isinstance(answer, dict) and "parsing_error" in answer:
        if answer.get("parsed") is not None:
            return answer["parsed"]
        log.info("the structured answer failed its schema (%s); reading it item by item", answer["parsing_error"])
        return _raw_json(answer.get("raw"))
    return answer


def _raw_json(raw: Any) -> Any:
    """The JSON a structured reply carried (a tool call's arguments, or its text), for item-by-item checks."""
    if not isinstance(raw, AIMessage):
        return None
    if raw.tool_calls:
        return raw.tool_calls[0]["args"]
    if raw.invalid_tool_calls:
        return parse_json(raw.invalid_tool_calls[0].get("args") or "")
    return parse_json(raw.text)


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


def _validated(answer: Any) -> ExtractedFacts:
    """Each well-formed fact and rule in the answer; malformed ones are logged and dropped."""
    if isinstance(answer, BaseModel):
        answer = answer.model_dump()
    if not isinstance(answer, (dict, list)):
        return ExtractedFacts()
    facts = answer.get("facts") if isinstance(answer, dict) else answer
    rules = answer.get("rules") if isinstance(answer, dict) else None
    people = answer.get("people") if isinstance(answer, dict) else None
    return ExtractedFacts(facts=_items(ExtractedFact, facts), rules=_items(ExtractedRule, rules),
                          people=_items(ExtractedPerson, people))


def _items(schema: type[_Item], items: Any) -> list[_Item]:
    if not isinstance(items, list):
        return []
    kept: list[_Item] = []
    for item in items:
        try:
            kept.append(schema.model_validate(item))
        except ValidationError as exc:
            log.info("dropped a malformed extracted %s %r: %s", schema.__name__, item, exc.errors()[0]["msg"])
    return kept


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


_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself)\b")  # "I" in any case is the pronoun


def _candidate(fact: ExtractedFact, message_ids: set[str]) -> CandidateFact | None:
    key = re.sub(r"\W+", "_", fact.key.strip().lower()).replace("favorite_", "favourite_") if fact.key else None
    slot = slot_for(key)
    text = fact.text.strip()
    if re.match(r"^(?:i|i'm|my)\b", text, re.IGNORECASE):
        text = third_person(text)
    if _FIRST_PERSON.search(text):
        log.info("dropped an extracted fact still in the first person: %r", text[:80])
        return None  # recalled later, "I" would read as the assistant; a weak model's "Punter I am ..."
    if fact.value and not set(content_words(text)) & set(content_words(fact.value)):
        log.info("dropped an extracted fact whose text does not state its value: %r", text[:80])
        return None  # grounding checks the value, so a text ("...") unrelated to it must not ride along
    return CandidateFact(
        text=text,
        category=slot.category if slot else fact.category.strip().lower() or "other",
        key=slot.name if slot else None,
        value=fact.value,
        importance=fact.importance,
        sources=[s for s in fact.source_ids if s in message_ids],
        negation_of=fact.replaces,
    )
