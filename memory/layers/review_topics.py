"""Whether a message touches a profile slot: when a review question about it belongs in the turn.

A fact due for review is asked about only on a turn it bears on: "What should I cook
tonight?" touches the diet (and allergies), not the city or the job. A message touches a
slot when it says one of the record's own content words ("Lisbon", "vegetarian") or a
word of the slot's topic below (a food word for the diet, "office" for the job). No
model is called: this runs on every turn.
"""

from __future__ import annotations

from typing import Any

from memory.layers.message_query import stem, terms
from models.word_split import words

_FOOD = """cook cooking recipe dinner lunch breakfast brunch supper meal snack dessert dish food eat eating restaurant
menu bake baking grocery groceries ingredient cuisine hungry takeaway takeout order"""
# Topic words by a slot's category (memory/write_policy/base.py's slots), lower case.
TOPICS: dict[str, frozenset[str]] = {
    category: frozenset(text.split())
    for category, text in {
        "diet": _FOOD + " diet vegetarian vegan meat",
        "health": _FOOD + " allergy allergic allergies medicine doctor symptom health",
        "location": """live living city town move moving moved home apartment flat rent neighbourhood neighborhood
        local nearby near around weather commute visit""",
        "work": """job work working office career boss colleague colleagues coworker salary employer company
        shift interview promotion client clients meeting""",
        "identity": "name called birthday born age old pronouns hometown",
        "family": "partner wife husband married marriage relationship dating wedding anniversary single",
        "language": "language languages speak speaking translate translation word",
    }.items()
}


def _forms(word: str) -> set[str]:
    """A word, its crude stem and its singular: what a topic word may be written as."""
    out = {word, stem(word)}
    if word.endswith("s"):
        out.add(word[:-1])
    return out


def touches(record: dict[str, Any], message: str) -> bool:
    """Whether ``message`` bears on the profile ``record`` (its words, or its slot's topic)."""
    said = {form for w in words(message) for form in _forms(w)}
    own = terms(f"{record.get('text', '')} {record.get('value') or ''}") - {"user"}
    topic = {form for w in TOPICS.get(str(record.get("category")), frozenset()) for form in _forms(w)}
    return bool(said & (own | topic))
