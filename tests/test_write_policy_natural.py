"""Facts said in passing (``memory/write_policy/chat_forms.py``), and a relation's clause that shares its subject.

The sentences are written for this file, not taken from any labelled set.
"""

from __future__ import annotations

import pytest

from memory.write_policy.base import CandidateFact
from memory.write_policy.chat_forms import statement_before_question
from tests.support.extract_helpers import grounded_facts


def _facts(text: str) -> list[CandidateFact]:
    return grounded_facts(text)


@pytest.mark.parametrize(
    ("text", "key", "value_word"),
    [
        # A statement opening a question.
        ("I'm a welder working on oil rigs, which gloves last longest?", "occupation", "welder"),
        ("I'm allergic to sesame, is tahini safe at all?", "allergies", "sesame"),
        ("I keep halal — what can I use instead of gelatine?", "diet", "halal"),
        ("As someone who's vegan, can I eat honey?", "diet", "vegan"),
        ("Green's my favourite colour, how should I paint the hallway?", "favourite_colour", "green"),
        # A relevance tag is no condition.
        ("I live in Tromsø if it helps with the daylight hours.", "location", "Tromsø"),
        # Fragments with the subject left out.
        ("Plumber, live in Cardiff, three dogs.", "occupation", "plumber"),
        ("Plumber, live in Cardiff, three dogs.", "location", "Cardiff"),
        ("Librarian at Trinity College, mostly rare books.", "employer", "Trinity"),
        ("Bus driver 20 years, seen it all.", "occupation", "driver"),
        ("Mild shellfish allergy here, nothing dramatic.", "allergies", "shellfish"),
        ("separated, three years now", "relationship_status", "separated"),
        ("finally got engaged on the beach!!", "relationship_status", "engaged"),
        ("My partner and I have been married nine years.", "relationship_status", "married"),
        ("Widower, two grown kids.", "relationship_status", "widower"),
        ("Speaking as a pharmacist, I'd like a poster about antibiotics.", "occupation", "pharmacist"),
        ("Tomasz here, first time using this.", "name", "Tomasz"),
        ("61, retired, grandmother of four.", "age", "61"),
        # An age with a tail, in digits or words.
        ("I'm 67 so keep the font large please.", "age", "67"),
        ("I'm fifty three and new to running.", "age", "fifty three"),
        # Inverted favourites and a team.
        ("Celtic are my team, through thick and thin.", "favourite_team", "Celtic"),
        ("fave drink: cold brew with oat milk", "favourite_drink", "cold"),
        # Time zones.
        ("I'm always on CET, even when travelling.", "timezone", "CET"),
        ("We moved the meeting, my timezone is UTC+3 by the way.", "timezone", "UTC+3"),
    ],
)
def test_a_fact_said_in_passing_fills_its_slot(text: str, key: str, value_word: str) -> None:
    facts = _facts(text)
    keyed = [f for f in facts if f.key == key]
    assert keyed, f"{text!r} -> {[(f.text, f.key) for f in facts]}"
    assert value_word.lower() in (keyed[0].value or "").lower()


@pytest.mark.parametrize(
    "text",
    [
        "If I'm allergic to sesame, is tahini safe?",  # a supposition, then a question
        "Is it odd that I'm a vegan who eats honey?",  # the whole sentence asks
        "As a nurse, what would you do here?",  # a role taken for the question, not a statement about the user
        "Nurse told me to rest for a week.",  # an occupation word as someone else's title
        "Senior Project Manager, Northwind Ltd",  # a signature line in title case
        "Same here, it's raining all day.",  # not a name
        "Teacher at the front said nothing.",  # someone else, no capitalised workplace
    ],
)
def test_look_alikes_store_no_profile_slot(text: str) -> None:
    facts = _facts(text)
    assert not [f for f in facts if f.key in ("allergies", "diet", "occupation", "name", "employer")], (
        f"{text!r} -> {[(f.text, f.key) for f in facts]}")


def test_statement_before_question_keeps_only_a_first_person_head() -> None:
    assert statement_before_question("I'm a baker, how early should I start the dough?") == "I'm a baker"
    assert statement_before_question("my son is deaf - any apps for signing practice?") == "my son is deaf"
    assert statement_before_question("Where do you live, I wonder?") is None
    assert statement_before_question("If I move to Oslo, what should I pack?") is None


def test_a_relations_second_clause_says_the_relation() -> None:
    facts = _facts("My brother lives in Denver and works as a pilot.")
    assert facts
    assert all("brother" in f.text.lower() for f in facts), [f.text for f in facts]
    assert not [f for f in facts if f.key in ("occupation", "location")]


def test_a_relations_shared_subject_clause_is_not_the_users_job() -> None:
    facts = _facts("my aunt moved to Halifax and teaches piano there.")
    assert facts
    assert all("aunt" in f.text.lower() for f in facts), [f.text for f in facts]
    assert not [f for f in facts if f.key is not None]
