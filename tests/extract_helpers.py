"""One user message through an extractor and grounding, as the semantic layer stores it: shared by the write-policy tests."""

from __future__ import annotations

from datetime import UTC, datetime

from nodes.extract.base import CandidateFact, FactExtractor
from nodes.extract.grounding import ground
from nodes.extract.pattern_extractor import PatternFactExtractor
from nodes.layers.base import LoggedMessage

SAID_AT = datetime(2025, 1, 1, tzinfo=UTC)
_RULES = PatternFactExtractor()


def grounded_facts(text: str, extractor: FactExtractor | None = None) -> list[CandidateFact]:
    """The facts ``extractor`` (the default rules when None) reads from one user message, grounded in it."""
    messages = [LoggedMessage(id="m1", thread="t", time=SAID_AT, role="user", text=text)]
    return ground((extractor or _RULES).extract(messages), messages)
