"""One user message through an extractor and grounding, as the semantic layer stores it: shared by the write-policy tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.runnables import RunnableLambda

from memory.layers.base import LoggedMessage
from memory.write_policy.base import CandidateFact, FactExtractor
from memory.write_policy.grounding import ground
from memory.write_policy.llm import ExtractedFacts
from memory.write_policy.pattern_extractor import PatternFactExtractor

SAID_AT = datetime(2025, 1, 1, tzinfo=UTC)
_RULES = PatternFactExtractor()


def grounded_facts(text: str, extractor: FactExtractor | None = None) -> list[CandidateFact]:
    """The facts ``extractor`` (the default rules when None) reads from one user message, grounded in it."""
    messages = [LoggedMessage(id="m1", thread="t", time=SAID_AT, role="user", text=text)]
    return ground((extractor or _RULES).extract(messages), messages)


class StructuredFake(FakeListChatModel):
    """A chat model with native structured output: plays ``responses`` to turns, answers fact extraction
    with ``answer`` and records each extraction prompt in ``prompts``."""

    answer: Any = None
    prompts: list[Any] = []

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:
        assert schema is ExtractedFacts
        return RunnableLambda(lambda prompt: (self.prompts.append(prompt), self.answer)[1])
