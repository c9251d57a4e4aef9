"""The parse reader of people (memory/write_policy/people_parse.py): other orders and links than the regexes',
and the traps it must leave alone. Needs the spaCy pipeline, as the rule-classes eval does.
"""

from __future__ import annotations

import pytest

from memory.write_policy.people import mentions_in


@pytest.mark.parametrize(("text", "expected"), [
    ("Sara's my wife and she loves jazz", [("Sara", "partner", None)]),
    ("Finn and Oscar, my boys, love football", [("Finn", "child", None), ("Oscar", "child", None)]),
    ("I have two kids, Finn and Oscar", [("Finn", "child", None), ("Oscar", "child", None)]),
    ("my sister, who is called Anna, lives in Berlin", [("Anna", "sibling", None)]),
    ("Skip and Meg, my two collies, won't stop barking", [("Skip", "pet", "dog"), ("Meg", "pet", "dog")]),
    ("We've a new addition, a rescue greyhound called Biscuit", [("Biscuit", "pet", "dog")]),
    ("Daughter Mia has soccer at 5", [("Mia", "child", None)]),
    ("My brother-in-law Tom is a plumber", [("Tom", "other", None)]),
    ("Could you help me write a card for my sister Leah?", [("Leah", "sibling", None)]),
    ("My dad drove four hours to help me", [(None, "parent", None)]),
    ("my kids are called Finn and Oscar", [("Finn", "child", None), ("Oscar", "child", None)]),
    ("our baby girl Ava was born yesterday!", [("Ava", "child", None)]),
    ("We got a puppy last week and we've named him Otis", [("Otis", "pet", "dog")]),
    ("my mother in law Sue is staying with us", [("Sue", "other", None)]),
    ("ngl my manager at the cafe, sophie, is the best boss", [("Sophie", "colleague", None)]),
    ("i told my mom about him and she already likes him", [(None, "parent", None)]),
])
def test_the_parse_links_a_name_to_the_users_relation(text: str, expected: list[tuple[str | None, str, str | None]]) -> None:
    assert sorted((m.name, m.relation, m.species) for m in mentions_in(text)) == sorted(expected)


@pytest.mark.parametrize("text", [
    "My colleague's wife Anja is a doctor",  # the colleague's, not the user's
    "I don't have a sister called Anna",
    "Sara isn't my wife",
    "I'd call my dog Rex",
    "my neighbour has a dog called Rex",
    "Mother Teresa was a saint",
    "Baby Driver is my favourite film",
    "Max is my favourite character",
    "You're my best friend, Claude",
    "My brother is Deaf.",
    "Is Tom my cousin?",
    "I want to call my baby Rowan",
    "my sister, bless her, tried",
])
def test_the_parse_leaves_traps_alone(text: str) -> None:
    assert [m.name for m in mentions_in(text) if m.name is not None] == []


@pytest.mark.parametrize("text", ["my mom called Verizon about the bill", "my dad called Anna yesterday",
                                  "Hug my dog for me"])
def test_a_phoned_name_or_an_imperative_verb_is_no_name(text: str) -> None:
    assert [m.name for m in mentions_in(text) if m.name] == []
