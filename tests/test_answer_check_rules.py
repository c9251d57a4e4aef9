"""Checkable procedural rules: each kind, complying and not."""

from __future__ import annotations

import pytest

from nodes.check.memories import gather_checks


def _rule(text: str, topic: str) -> dict:
    return {"kind": "rule", "text": text, "meta": {"topic": topic}}


CASES = [
    (_rule("Keep answers concise.", "length"), "Boil pasta, add tomatoes. Done.", " ".join(["word"] * 101), ["101 words"]),
    (_rule("Do not use emojis.", "emojis"), "Here is a soup recipe.", "Here is a soup recipe 🍲!", ["🍲"]),
    (_rule("Write in prose, not bullet points.", "format"), "First boil the water. Then add rice.",
     "Steps:\n- boil the water\n- add rice", ["bullet points"]),
    (_rule("Do not apologise.", "apologies"), "Here is the recipe.", "Sorry, here is the recipe.", ["sorry"]),
    (_rule("Do not end answers with follow-up questions.", "questions"), "Try lentil soup. It is warming.",
     "Try lentil soup. Would you like another idea?", ["a follow-up question"]),
    (_rule("Answer in Spanish.", "language"), "Puedes preparar una sopa de lentejas con zanahorias y comino.",
     "You can make a lentil soup with carrots and cumin tonight.", ["English"]),
]


@pytest.mark.parametrize(("rule", "ok", "bad", "items"), CASES, ids=[c[0]["meta"]["topic"] for c in CASES])
def test_rule_kind_both_outcomes(rule: dict, ok: str, bad: str, items: list[str]) -> None:
    checks, unchecked = gather_checks([rule])
    assert unchecked == [] and len(checks) == 1
    assert checks[0].find(ok) == []
    assert checks[0].find(bad) == items


def test_language_rule_ignores_replies_too_short_to_tell() -> None:
    checks, _ = gather_checks([_rule("Answer in Spanish.", "language")])
    assert checks[0].find("OK, thanks!") == []


@pytest.mark.parametrize("rule", [
    _rule("Use a formal tone.", "tone"), _rule("Use bullet points.", "format"),
    _rule("Give detailed, thorough answers.", "length"), _rule("Always cite sources.", "custom"),
])
def test_other_rules_are_left_to_the_prompt(rule: dict) -> None:
    checks, unchecked = gather_checks([rule])
    assert checks == [] and unchecked == [f"rule: {rule['text']}"]
