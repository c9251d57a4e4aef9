"""Endings said as a figure of speech (``memory/write_policy/ending_figures.py``): "X is history",
"said goodbye to X", "swapped X for Y", "went from X to Y", a divorce, a graduation, "I used to be
a nurse", two things dropped at once, and the look-alikes that end nothing.

The phrasings were written for this file before the eighth labelled batch was read; they are not
that batch's rows.
"""

from __future__ import annotations

import pytest

from bench.rule_classes_eval import stored_candidates


def _ended(text: str) -> list[str]:
    return [" ".join(filter(None, (f.value, f.negation_of))).lower() for f in stored_candidates(text)
            if f.negation_of is not None]


@pytest.mark.parametrize(("text", "word"), [
    ("Netflix is history, cancelled it last month.", "netflix"),
    ("Rodeo's behind me.", "rodeo"),
    ("The allotment is finished for me.", "allotment"),
    ("Said goodbye to the night shifts in June, finally on days.", "night shifts"),
    ("I let my gym membership lapse.", "gym membership"),
    ("Let the deer lease go this year.", "deer lease"),
    ("Swapped meat for tofu and lentils last year.", "meat"),
    ("I went from vegetarian to vegan last year.", "vegetarian"),
    ("I switched from Vodafone to EE in the spring.", "vodafone"),
    ("Sarah and I are done.", "sarah"),
    ("Tom and I got divorced.", "tom"),
    ("My husband and I divorced last year.", "husband"),
    ("I graduated from Leeds uni in July.", "leeds"),
    ("Finished my apprenticeship at Rolls-Royce last year.", "apprenticeship"),
    ("I'm retired now, used to be a teacher.", "teacher"),
    ("I used to live in Rome, back in my twenties.", "rome"),
    ("I used to play rugby but not now.", "rugby"),
    ("I've not been vegan for a year now.", "vegan"),
    ("Left Deloitte in March and joined a startup.", "deloitte"),
    ("Finally kicked the vaping.", "vaping"),
    ("I ditched the energy drinks and the pot noodles.", "pot noodles"),
    ("I cut the Coca-Cola and the white bread totally.", "white bread"),
    ("I got the sack from Greggs last week.", "greggs"),
    ("I stepped down as deacon at First Baptist.", "deacon"),
    ("I am not more in the evangelical church.", "church"),
    ("I leaved the Hospital Albert Einstein after 7 years.", "albert einstein"),
    ("I binned my snapchat.", "snapchat"),
    ("ex goalie for the under 16s lol", "goalie"),
    ("I was on the committee of the bowls club for twenty years but I stepped down at the AGM.", "committee"),
])
def test_a_figure_of_speech_ends_the_state(text: str, word: str) -> None:
    assert any(word in e for e in _ended(text)), _ended(text)


def test_a_divorce_supersedes_married_with_divorced() -> None:
    facts = stored_candidates("Tom and I got divorced.")
    status = [f for f in facts if f.key == "relationship_status"]
    assert [f.value for f in status] == ["divorced"] and status[0].negation_of is None


@pytest.mark.parametrize("text", [
    "The old days are over.",
    "The rest is history.",
    "The worst is behind me.",
    "That's behind me now.",
    "We said goodbye to my aunt at the airport.",
    "I swapped seats with my sister.",
    "I let the kids go to the park.",
    "I let it go.",
    "I cut the bread and the cheese.",
    "I'm former head of marketing at Acme and still consult for them.",
    "ex colleague at work said hi",
    "I used to live in Leeds and I still go back every month.",
    "My sister divorced Tom.",
    "My girlfriend graduated from Oxford.",
    "I finished the book last night.",
    "i gave up the biscuits for lent and i'm dying for a custard cream",
    "Should I switch from Vodafone to EE?",
    "I went from London to Paris on the train.",
    "We moved from Karachi to Birmingham in 2015.",
    "I don't want more.",
    "I quit the app and restarted it.",
    "I dropped the kids and went home.",
])
def test_a_look_alike_ends_nothing(text: str) -> None:
    ended = _ended(text)
    if text.startswith("We moved from Karachi"):
        assert ended and all("karachi" in e and "with karachi" not in e for e in ended), ended
    else:
        assert ended == [], ended


@pytest.mark.parametrize(("text", "ends"), [
    ("sold my car last year", "car"),
    ("sold my xbox to a boy in my year for 120 quid, pc gang now", "xbox"),
    ("I sold my tickets for the gig.", None),
    ("I sold my old books at the car boot.", None),
    ("My brother sold his car.", None),
])
def test_a_thing_sold_ends_only_when_it_lasted(text: str, ends: str | None) -> None:
    ended = _ended(text)
    assert (any(ends in e for e in ended) if ends else ended == []), ended
