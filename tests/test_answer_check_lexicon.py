"""The answer check's lexicon: labelled sentences, negation, and memories it understands."""

from __future__ import annotations

import pytest

from bench.answer_check_lexicon import checks_for, load_labelled, scores
from nodes.check.memories import gather_checks, second_person

VEGETARIAN = "The user is vegetarian."


def _found(memory: str, text: str) -> list[str]:
    return [item for check in checks_for(memory) for item in check.find(text)]


def test_fixtures_are_big_enough_and_balanced() -> None:
    dev, heldout = load_labelled("dev"), load_labelled("heldout")
    assert len(dev) + len(heldout) >= 200 and len(heldout) >= 50
    for part in (dev, heldout):
        positives = sum(i.conflict for i in part)
        assert 0.3 < positives / len(part) < 0.7
        assert len({i.memory for i in part}) >= 10  # diets and allergens, not one profile


@pytest.mark.parametrize(("part", "floor"), [("dev", 0.95), ("heldout", 0.9)])
def test_precision_and_recall_floors(part: str, floor: float) -> None:
    s = scores(load_labelled(part))
    assert s["precision"] >= floor, s
    assert s["recall"] >= floor, s


@pytest.mark.parametrize("text", [
    "Make it without chicken.",
    "Instead of meat, use tofu.",
    "Look for meat alternatives in the chilled aisle.",
    "Vegetarian sausages are fine here.",
    "Swap the beef for lentils.",
    "This chili is meat-free.",
    "No fish sauce, please.",
    "Since you're vegetarian, I left out the bacon.",
])
def test_negated_and_replaced_foods_are_not_conflicts(text: str) -> None:
    assert _found(VEGETARIAN, text) == []


@pytest.mark.parametrize(("text", "item"), [
    ("Replace the tofu with chicken.", "chicken"),
    ("Instead of tofu, use chicken thighs.", "chicken"),
    ("Don't forget the bacon.", "bacon"),
    ("Top it with pepperoni.", "pepperoni"),
    ("Wrap the figs in prosciutto.", "prosciutto"),
])
def test_foods_still_suggested_are_conflicts(text: str, item: str) -> None:
    assert _found(VEGETARIAN, text) == [item]


def test_dishes_imply_their_ingredients() -> None:
    assert _found("The user is allergic to peanuts.", "Try the chicken satay.") == ["satay"]
    assert _found("The user is allergic to tree nuts.", "Toss the pasta with pesto.") == ["pesto"]
    assert _found("The user is allergic to tree nuts.", "Add nutmeg and butternut squash.") == []


def test_unknown_words_are_checked_literally_with_plurals() -> None:
    assert _found("The user does not eat mushrooms.", "Add a mushroom or two.") == ["mushroom"]
    assert _found("The user is allergic to kiwi.", "Top the pavlova with kiwis.") == ["kiwis"]


def test_which_memories_become_checks() -> None:
    recalled = [
        {"kind": "profile", "key": "diet", "text": "The user follows a keto diet.", "meta": {"value": "keto"}},
        {"kind": "profile", "key": "allergies", "text": "The user is allergic to peanuts and shellfish.",
         "meta": {"value": "peanuts and shellfish"}},
        {"kind": "fact", "text": "The user does not eat pork.", "meta": {"category": "diet"}},
        {"kind": "fact", "text": "The user is lactose intolerant.", "meta": {"category": "health"}},
        {"kind": "fact", "text": "The user has celiac disease.", "meta": {"category": "health"}},
        {"kind": "fact", "text": "The user plays tennis.", "meta": {"category": "activity"}},
        {"kind": "rule", "text": "Use a formal tone.", "meta": {"topic": "tone"}},
    ]
    checks, unchecked = gather_checks(recalled)
    assert [c.label for c in checks] == [
        "allergy: peanuts", "allergy: shellfish", "avoids: pork", "intolerance: lactose", "intolerance: gluten",
    ]
    assert unchecked == ["diet: The user follows a keto diet.", "rule: Use a formal tone."]


def test_the_memory_is_restated_in_the_second_person() -> None:
    assert second_person("The user is vegetarian.") == "you are vegetarian"
    assert second_person("The user does not eat pork.") == "you do not eat pork"
    assert second_person("The user follows a halal diet.") == "you follow a halal diet"
    assert second_person("The user never eats meat.") == "you never eat meat"
