"""The rules with the learned gate as the last judge of each sentence's facts: off, reached from bench/ only.

The gate (``gate.py``) bought nothing on held-out text (bench/TRIED.md), so the runtime's
``PatternFactExtractor`` has no hook for it beyond ``_blend``; this subclass puts it back for the
trainer (``samples.py``) and the tests that measure it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from memory.write_policy.base import CandidateFact
from memory.write_policy.blend import RuleReader, blend_parsed, read
from memory.write_policy.parse import Sentence
from memory.write_policy.parse_veto import uncertain
from memory.write_policy.pattern_extractor import PatternFactExtractor


class Screen(Protocol):
    """A last judge of one sentence's facts (the learned gate, ``gate.DisclosureGate``)."""

    def screen(self, text: str, parsed: Sentence, facts: Sequence[CandidateFact],
               rules: RuleReader) -> list[CandidateFact]:
        """The facts to keep, possibly fewer or more than ``facts``."""
        ...


class GatedPatternExtractor(PatternFactExtractor):
    """``PatternFactExtractor`` whose parsed sentences (not questions or suppositions) end at ``gate``."""

    def __init__(self, gate: Screen) -> None:
        self.gate = gate

    def _blend(self, body: str, facts: list[CandidateFact], rules: RuleReader) -> list[CandidateFact]:
        parsed = read(body)
        if parsed is None:
            return list(facts)
        kept = blend_parsed(body, parsed, facts, rules)
        return kept if uncertain(parsed) else self.gate.screen(body, parsed, kept, rules)
