"""Life changes said in everyday turns of phrase (issue 45, scenario 5): quoted speech is no self fact, "the
name's X", divorce, dating and marriage with a name, a pet put down, "laid off from", "got a job as",
"X was home until ..., settled in Y now". The rules in process; the records on LangGraph's InMemoryStore."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.people import people_records
from memory.layers.semantic import SemanticLayer
from memory.write_policy.pattern_extractor import PatternFactExtractor
from memory.write_policy.people import mentions_in
from memory.write_policy.people_events import life_events
from models.loader import HashEmbeddings
from stores.namespaces import PROFILE, UserScope

T0 = datetime(2025, 2, 3, 19, 0, tzinfo=UTC)
EMB = HashEmbeddings(384)
LAYER = SemanticLayer()


def _facts(text: str) -> list[tuple[str | None, str, str | None]]:
    msg = LoggedMessage(id="m1", thread="t1", time=T0, role="user", text=text)
    return [(f.key, f.text, f.negation_of) for f in PatternFactExtractor().extract([msg])]


def test_quoted_speech_gives_no_name_and_no_self_fact() -> None:
    assert _facts('Watched The Princess Bride again tonight. "Hello. My name is Inigo Montoya. You killed my '
                  'father. Prepare to die." Still brilliant.') == []
    assert _facts('My boss said "I live in Leeds now" at lunch.') == []
    assert ("location", "The user lives in Porto.", None) in _facts('I live in Porto, my mum says "I miss you".')


@pytest.mark.parametrize(("text", "expected"), [
    ("Evening! The name's Kofi.", [("name", "The user's name is Kofi.", None)]),
    ("Hey there, the name's Ana, nice to meet you.", [("name", "The user's name is Ana.", None)]),
    ("The name's not important.", []),
    ("Got laid off from the warehouse on Friday. Twenty of us gone in one morning.",
     [("employer", "The user no longer works at the warehouse.", "The user works at the warehouse.")]),
    ("I was made redundant from my job at Nexus last week.",
     [("employer", "The user no longer works at Nexus.", "The user works at Nexus.")]),
    ("Good news, I got a job as a bus driver in Porto! I start in June.",
     [("occupation", "The user works as a bus driver.", None)]),
    ("Lisbon was home until June, but I'm settled in Porto now, the flat is near the river.",
     [("location", "The user no longer lives in Lisbon.", "The user lives in Lisbon."),
      ("location", "The user lives in Porto.", None)]),
    # someone else's news, or none: nothing
    ("My brother got laid off from the factory.", []),
    ("If I got laid off from the warehouse I'd move home.", []),
    ("My sister got a job as a pilot.", []),
    ("I'm settled in now, thanks.", []),
    ("Tom was home until 6 today.", []),  # a person at home, not a home
    ("Dad was home until June.", []),
])
def test_everyday_turns_of_phrase_fill_and_end_slots(text: str, expected: list[tuple[Any, ...]]) -> None:
    assert _facts(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Abena and I are getting divorced. Twelve years, and it's over.", [("Abena", "ex_partner", True)]),
    ("So, Raj and I have separated.", [("Raj", "ex_partner", True)]),
    ("Efua and I got married on Saturday! Small ceremony, just family.", [("Efua", "partner", False)]),
    ("Jo and I have been dating for a year.", [("Jo", "partner", False)]),
    ("Met a lovely woman at my cousin's wedding, Efua. We've been on three dates.", [("Efua", "partner", False)]),
    ("I've been on three dates with Marta.", [("Marta", "partner", False)]),
    ("We had to put Bruno down yesterday. He was thirteen.", [("Bruno", "pet", True)]),
    ("We had to have Rex put to sleep.", [("Rex", "pet", True)]),
    ("Bruno died yesterday, he was thirteen.", [("Bruno", "", True)]),  # whoever the user calls Bruno
])
def test_life_events_with_a_name(text: str, expected: list[tuple[Any, ...]]) -> None:
    assert [(m.name, m.relation, m.ended) for m in life_events(text)] == expected


@pytest.mark.parametrize("text", [
    "If Abena and I get divorced I'd be lost.",  # a hypothetical
    "My friend thinks Abena and I are getting divorced.",  # someone else's words
    "Are Efua and I getting married?",  # a question
    "Mum and I got married in the same church.",  # a relation word, not a partner's name
    "I met a guy at the gym, Sam. He's nice.",  # met, but no dates
    "We had to put Lea down for a nap.",  # a child's bedtime
    "Jo and I are separating our bins.",  # a chore, not a break-up
    "Efua and I are together at the cinema.",  # a moment
    'She said "Tom and I got married" and laughed.',  # a quote
    "Bruno died in the film, I cried.",  # fiction
    "Bruno Ganz died.",  # a full name: someone famous, not a record's first name
])
def test_life_event_traps_yield_nobody(text: str) -> None:
    assert life_events(text) == []


def _env() -> LayerEnv:
    store = InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]})
    return LayerEnv(store=store, scope=UserScope("kofi"), context=Context(), embeddings=EMB,
                    now=T0 + timedelta(days=200))


def _say(env: LayerEnv, day: int, text: str) -> None:
    LAYER.on_turn(env, [LoggedMessage(id=f"m{day}", thread="t1", time=T0 + timedelta(days=day), role="user",
                                      text=text)])


def _people(env: LayerEnv) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in people_records(env)}


def test_divorce_then_dating_then_marriage_keeps_the_history() -> None:
    env = _env()
    _say(env, 9, "My wife Abena wants to repaint the kitchen.")
    _say(env, 28, "Abena and I are getting divorced. Twelve years, and it's over.")
    people = _people(env)
    assert (people["Abena"]["relation"], people["Abena"]["current"]) == ("ex_partner", False)
    assert people["Abena"]["history"][0]["relation"] == "partner"
    _say(env, 85, "Met a lovely woman at my cousin's wedding, Efua. We've been on three dates.")
    _say(env, 155, "Efua and I got married on Saturday! Small ceremony, just family.")
    efua = _people(env)["Efua"]
    assert (efua["relation"], efua["current"]) == ("partner", True)
    assert "The user is married to Efua." in efua["text"]


def test_a_pet_put_down_is_no_longer_current_and_keeps_its_history() -> None:
    env = _env()
    _say(env, 13, "Our dog Bruno is getting old, he sleeps most of the day now.")
    _say(env, 45, "We had to put Bruno down yesterday. He was thirteen.")
    _say(env, 128, "We adopted a greyhound from the rescue, she's called Juno.")
    people = _people(env)
    assert (people["Bruno"]["relation"], people["Bruno"]["current"]) == ("pet", False)
    assert people["Bruno"]["history"][0]["valid_to"].startswith("2025-03-20")
    assert "no longer in the user's life" in people["Bruno"]["text"]
    assert people["Juno"]["current"] and people["Juno"]["species"] == "dog"
    loose = [i.value["text"] for i in env.store.search(env.scope.ns("facts"), limit=50)]
    assert not any("says we" in t for t in [*loose, people["Juno"]["text"]]), loose
    assert "The user's household adopted a greyhound from the rescue" in people["Juno"]["text"]


def test_a_death_said_with_a_name_alone_ends_the_one_record_of_that_name() -> None:
    env = _env()
    _say(env, 0, "Our cat Mochi loves the sofa.")
    _say(env, 1, "Mochi died last night.")
    _say(env, 2, "Rex died last night.")  # nobody called Rex on record: nothing is made up
    people = _people(env)
    assert (people["Mochi"]["relation"], people["Mochi"]["current"]) == ("pet", False)
    assert "Rex" not in people


def test_laid_off_ends_the_workplace_and_a_new_job_and_home_take_over() -> None:
    env = _env()
    _say(env, 2, "I live in Lisbon, up the hill near Alfama.")
    _say(env, 5, "I work at a warehouse near the airport, mostly driving the forklift.")
    _say(env, 58, "Got laid off from the warehouse on Friday.")
    _say(env, 78, "Good news, I got a job as a bus driver in Porto! I start in June.")
    _say(env, 135, "Lisbon was home until June, but I'm settled in Porto now, the flat is near the river.")
    profile = {i.key: i.value["text"] for i in env.store.search(env.scope.ns(PROFILE), limit=50)}
    assert "employer" not in profile, profile
    assert profile["occupation"] == "The user works as a bus driver."
    assert profile["location"] == "The user lives in Porto."


def test_an_ending_that_shares_only_an_article_ends_nothing() -> None:
    env = _env()
    _say(env, 0, "I work at the Royal Free.")
    _say(env, 3, "Got fired from the team on Friday.")  # "the" is all the two values share
    profile = {i.key: i.value["text"] for i in env.store.search(env.scope.ns(PROFILE), limit=50)}
    assert profile["employer"] == "The user works at the Royal Free."


def test_a_partner_who_died_is_a_late_partner_and_a_new_partner_is_current() -> None:
    env = _env()
    _say(env, 0, "My husband, Piotr, passed away in the spring.")
    _say(env, 40, "I have, to my own surprise, begun seeing someone. His name is Malik.")
    people = _people(env)
    assert (people["Piotr"]["relation"], people["Piotr"]["current"]) == ("partner", False)
    assert "late husband" in people["Piotr"]["text"] and "ex-partner" not in people["Piotr"]["text"]
    assert (people["Malik"]["relation"], people["Malik"]["current"]) == ("partner", True)


def test_a_pet_said_before_is_named_later_in_lower_case() -> None:
    env = _env()
    _say(env, 0, "we got a puppy!! no name yet, ideas?")
    _say(env, 3, "weve named the puppy biscuit 🐶")
    people = _people(env)
    assert (people["Biscuit"]["relation"], people["Biscuit"]["species"]) == ("pet", "dog")
    assert None not in people, people


@pytest.mark.parametrize(("text", "expected"), [
    ("Good evening. Allow me to introduce myself: Rosalind Achterberg, of Utrecht.",
     ("name", "The user's name is Rosalind Achterberg.", None)),
    ("hey. im tariq btw, 31, live in leeds w my gf", ("name", "The user's name is Tariq.", None)),
    ("hey. im tariq btw, 31, live in leeds w my gf", ("location", "The user lives in leeds.", None)),
    ("moved to glasgow last wk!! boxes everywhere", ("location", "The user lives in glasgow.", None)),
])
def test_introductions_and_texting_shorthand(text: str, expected: tuple[str, str, None]) -> None:
    assert expected in _facts(text)


@pytest.mark.parametrize("text", [
    "Hello. I'm tired.",
    "hey. im so done with this week",
    "Allow me to introduce myself: The Big Boss.",
    "We might name the puppy Otis.",
    "Should we call the kitten Mochi?",
    "I'm w the kids this wk",
])
def test_look_alikes_of_introductions_and_namings_store_no_name(text: str) -> None:
    assert not any(key == "name" for key, _, _ in _facts(text))
    assert not any(p.name for p in mentions_in(text))
