"""Fact extraction with a chat model, for models capable enough to be worth it.

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


class ExtractedFacts(BaseModel):
    """The whole answer: durable facts only, possibly none."""

    facts: list[ExtractedFact] = Field(default_factory=list)


INSTRUCTIONS = FACT_EXTRACTION_PROMPT.format(slots=", ".join(SLOTS))


class LLMFactExtractor:
    """Extracts facts with ``chat_model``; the layer supplies one at session end if none was given."""

    needs_llm = True

    def __init__(self, chat_model: BaseChatModel | None = None) -> None:
        self.chat_model = chat_model

    def with_model(self, chat_model: BaseChatModel) -> LLMFactExtractor:
        """This extractor bound to ``chat_model`` unless it already has its own."""
        return self if self.chat_model is not None else LLMFactExtractor(chat_model)

    def extract(self, messages: Sequence[LoggedMessage]) -> list[CandidateFact]:
        if self.chat_model is None:
            raise ValueError("LLMFactExtractor needs a chat model; pass one or call with_model()")
        users = user_messages(messages)
        said = {m.id: " ".join(safe_sentences(m.text)) for m in users}
        lines = [f"[{mid}] {text}" for mid, text in said.items() if text]
        if not lines:
            return []
        prompt = [SystemMessage(INSTRUCTIONS), HumanMessage("User messages:\n" + "\n".join(lines))]
        ids = {m.id for m in users}
        return [c for c in (_candidate(f, ids) for f in _validated(self._ask(prompt))) if c is not None]

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
