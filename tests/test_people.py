"""People and pets: the rules that read them, their records (relations with history), recall by name
or relation word, the prompt's one people block, forget, isolation, and the capable-model extractor
filling the same records. The semantic layer on LangGraph's InMemoryStore with hash embeddings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.people import people_records
from memory.layers.semantic import SemanticLayer
from memory.privacy.export import export_user
from memory.privacy.forget import forget, would_forget
from memory.prompt import volatile_part
from memory.write_policy.llm import ExtractedFacts, ExtractedPerson, LLMFactExtractor
from memory.write_policy.people import mentions_in
from memory.write_policy.person_mention import PersonMention
from models.loader import HashEmbeddings
from stores.namespaces import UserScope
from tests.support.extract_helpers import StructuredFake

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
EMB = HashEmbeddings(384)
LAYER = SemanticLayer()


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm seeing someone new, her name is Marta.", [("Marta", "partner", None, False)]),
    ("I adopted a cat called Pierogi.", [("Pierogi", "pet", "cat", False)]),
    ("We got a puppy! His name is Churro.", [("Churro", "pet", "dog", False)]),
    ("Marta and I broke up.", [("Marta", "ex_partner", None, True)]),
    ("We have two cats, Mochi and Tofu.", [("Mochi", "pet", "cat", False), ("Tofu", "pet", "cat", False)]),
    ("Our dog Rex died last week.", [("Rex", "pet", "dog", True)]),
    ("Anna is my sister.", [("Anna", "sibling", None, False)]),
    ("I've started dating someone, he's called Omar.", [("Omar", "partner", None, False)]),
    ("I've just started seeing someone new, her name is Lina.", [("Lina", "partner", None, False)]),
    ("I started dating someone, they're called Sam.", [("Sam", "partner", None, False)]),
    ("My cat is called Mr Whiskers.", [("Mr Whiskers", "pet", "cat", False)]),  # a title is part of the name
    ("Meet Luna, my new kitten!", [("Luna", "pet", "cat", False)]),  # an apposition that closes
    ("my wife (Claire) says hi", [("Claire", "partner", None, False)]),
    ("Can you help me plan a party for my brother Sam?", [("Sam", "sibling", None, False)]),  # a request
    ("Been married to Dev for six years.", [("Dev", "partner", None, False)]),  # no subject, as in chat
    ("Divorced from Paul since 2020.", [("Paul", "ex_partner", None, True)]),
    ("We adopted a neutered greyhound 🐕 she's called Flo", [("Flo", "pet", "dog", False)]),
    ("I have twin girls, Rose and Lily.", [("Rose", "child", None, False), ("Lily", "child", None, False)]),
    ("my daughter name is priya and she is 9", [("Priya", "child", None, False)]),  # all lower case
    ("me and my sis jo are off to rome", [("Jo", "sibling", None, False)]),
    ("We have a dog and two cats. The dog is called Bruno.", [("Bruno", "pet", "dog", False),
                                                               (None, "pet", "cat", False)]),
    ("Got a puppy today, a spaniel called Max", [("Max", "pet", "dog", False)]),
])
def test_the_rules_read_people_and_pets(text: str, expected: list[tuple[Any, ...]]) -> None:
    assert [(m.name, m.relation, m.species, m.ended) for m in mentions_in(text)] == expected


@pytest.mark.parametrize("text", [
    "How should I celebrate with my girlfriend?",  # a question
    "If I got a dog I would call it Rex.",  # a hypothetical
    "I'm thinking of adopting a cat called Luna.",
    "My friend's dog Max is adorable.",  # someone else's pet
    'She said "my husband John is a pilot".',  # a quote
    "I have a dog allergy.",
    "My sister started dating someone, he's called Omar.",  # someone else's partner
    "If I started dating someone, he'd be called Omar.",
    "Have you started dating someone?",
    "I've started seeing a therapist, she's called Dr Lee.",  # seeing, not dating
    "I told him 'my sister Anna is a nurse' yesterday.",  # a quote in single quotes is still a quote
    "I have a pet peeve about loud chewing.",  # "pet" before a noun is no pet
    "Tom and I split the bill.",  # a break-up verb with an object of its own
    "I left my wife a note.",
    "In the game my wife Lara is a warrior.",  # fiction
    "Should I call my new puppy Biscuit?",  # a question about what to call someone
    "I have tutored kids for years.",  # a verb in -ed after "have" is no description
    "I bought my son Lego for Christmas.",  # two objects of giving, not a name
    "I gave my dog Benadryl for his allergies.",
    "my mother tongue is polish",  # a compound, not a name, even in lower case
    "divorced from reality lol",
    "You're my best friend, Claude!",  # said to the assistant
    "Thanks, my friend!",
])
def test_traps_yield_nobody(text: str) -> None:
    assert mentions_in(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("I want to thank my aunt Maria for the gift", [("Maria", "other")]),  # a want leaves who she is
    ("I'm planning to take my son Noah to the zoo", [("Noah", "child")]),
    ("Should I tell my boyfriend Liam about the job offer?", [("Liam", "partner")]),  # a modal question
    ("Our cat Biscuit keeps throwing up after eating, should I worry?", [("Biscuit", "pet")]),
    ("my sis jade keeps stealing my hoodies", [("Jade", "sibling")]),  # lower case before more verbs
    ("my ex tyler texted me at 2am again", [("Tyler", "ex_partner")]),
    ("my husbend Tom works nights", [("Tom", "partner")]),  # a common misspelling
    ("i have one daughter her name is Aisha she is 12", [("Aisha", "child")]),  # a dictated run-on
    ("Kiki my tortoise hasnt eaten for 3 days", [("Kiki", "pet")]),  # the name first, no comma
    ("Grandma Rosa turns 90 next week, she raised me while mum worked nights",
     [("Rosa", "grandparent"), ("-", "parent")]),  # a grandparent's title; "mum" with no "my"
    ("we have two goats Daisy and Bramble", [("Daisy", "pet"), ("Bramble", "pet")]),  # a plural, then names
    ("my wife and I just had a baby girl, her name is Nora", [("-", "partner"), ("Nora", "child")]),
])
def test_fresh_phrasings_still_say_who(text: str, expected: list[tuple[str, str]]) -> None:
    got = [(m.name or "-", m.relation) for m in mentions_in(text)]  # "-": nameless
    assert got == expected


@pytest.mark.parametrize("text", [
    "What if my husband Tom leaves me?",  # a supposition, even in a question
    "I might name my daughter Rose.",  # a naming
    "I'm thinking of calling my baby Rose.",
    "I want to get my son Lego for Christmas.",  # giving, after a want
    "my daughter graduated",  # a verb in a lower-case name slot
    "my mom phone died",  # a thing she owns, written without "'s"
    "my sister wedding is next week",
    "my sister met a guy he is called Tom",  # a run-on naming someone else
    "Sorry my son is sick",  # a word that starts a sentence is no name
    "Meanwhile my husband slept",
    "Proud my daughter won",
    "Tell my son I said hi",  # an imperative first
    "His mum said no",  # someone else's mum
])
def test_fresh_traps_yield_no_name(text: str) -> None:
    assert [m.name for m in mentions_in(text) if m.name is not None] == []


def test_a_passing_state_says_who_exists_and_keeps_no_fact() -> None:
    assert mentions_in("My mom is sick today.") == [PersonMention(name=None, relation="parent", word="mom")]
    assert [(m.name, m.relation) for m in mentions_in("my older sister and I haven't spoken in years")] == [
        (None, "sibling")]


@pytest.mark.parametrize("text", ["My dad is Irish.", "My husband is Jewish.", "My brother is Deaf."])
def test_a_nationality_faith_or_state_after_is_is_no_name(text: str) -> None:
    assert [m.name for m in mentions_in(text)] in ([], [None])


def test_a_fact_about_someone_is_kept_with_them() -> None:
    [sister] = mentions_in("My sister Anna lives in Berlin.")
    assert sister == PersonMention(name="Anna", relation="sibling", fact="The user's sister Anna lives in Berlin.",
                                   word="sister")


@pytest.mark.parametrize(("text", "fact"), [
    ("My sister Ana lives in Rome and I have a dog called Rex.", "The user's sister Ana lives in Rome."),
    ("My brother Tom plays guitar but I prefer drums.", "The user's brother Tom plays guitar."),
    ("My wife Anna works as a nurse and we live in Leeds.", "The user's wife Anna works as a nurse."),
    ("my son Leo is 5 and loves trains", "The user's son Leo is 5 and loves trains."),
])
def test_a_fact_about_someone_stops_where_the_user_starts_talking_of_themselves(text: str, fact: str) -> None:
    """The user's own clause ("and I have a dog") is not said about the sister."""
    assert [m.fact for m in mentions_in(text) if m.fact] == [fact]


def _env(user: str = "u1", store: InMemoryStore | None = None) -> LayerEnv:
    store = store or InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]})
    return LayerEnv(store=store, scope=UserScope(user), context=Context(), embeddings=EMB, now=T0 + timedelta(days=60))


def _say(env: LayerEnv, day: int, text: str) -> None:
    LAYER.on_turn(env, [LoggedMessage(id=f"m{day}", thread="t1", time=T0 + timedelta(days=day), role="user",
                                      text=text)])


def _people(env: LayerEnv) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in people_records(env)}


def _recalled(env: LayerEnv, query: str) -> list[str]:
    return [r.text for r in LAYER.recall(env, query) if r.kind == "person"]


def test_a_break_up_then_a_new_partner_keeps_the_history() -> None:
    env = _env()
    _say(env, 0, "I'm seeing someone new, her name is Marta.")
    _say(env, 1, "My girlfriend loves sushi.")  # nameless: joins the one current partner
    assert _people(env)["Marta"]["facts"][0]["text"] == "The user's girlfriend loves sushi."
    _say(env, 5, "Marta and I broke up.")
    _say(env, 9, "I've been dating Sam for a month.")
    people = _people(env)
    assert (people["Marta"]["relation"], people["Marta"]["current"]) == ("ex_partner", False)
    assert people["Marta"]["history"][0]["relation"] == "partner"
    assert people["Marta"]["history"][0]["valid_to"].startswith("2025-03-06")
    assert (people["Sam"]["relation"], people["Sam"]["current"]) == ("partner", True)
    _say(env, 12, "My husband Tom is a chef.")  # a new partner supersedes the current one
    people = _people(env)
    assert (people["Sam"]["relation"], people["Tom"]["relation"]) == ("ex_partner", "partner")
    assert people["Sam"]["history"][-1]["superseded_by"] == "Tom"
    assert _recalled(env, "How should I celebrate with my husband?") == [people["Tom"]["text"]]
    assert [t.split(":")[0] for t in _recalled(env, "Does my ex still live nearby?")] == ["Marta", "Sam"]


def test_recall_by_name_or_pet_word_and_one_people_block() -> None:
    env = _env()
    _say(env, 0, "We got a puppy! His name is Churro.")
    _say(env, 1, "My sister Anna lives in Berlin.")
    assert _recalled(env, "Can the dog eat chocolate?") == ["Churro: the user's pet dog."]
    assert _recalled(env, "What's the weather like?") == []
    recalled = [r.as_dict() for r in LAYER.recall(env, "Should I visit Anna?")]
    block = volatile_part(recalled, "", env.now, 2000)
    assert block.count("<memories kind=\"person\">") == 1
    assert block.count("Anna") == 1  # the fact about her is said once, in her line


def test_forget_a_name_removes_the_person_and_a_fact_text_only_the_fact() -> None:
    env = _env()
    _say(env, 0, "My sister Anna lives in Berlin.")
    _say(env, 1, "I adopted a cat called Pierogi.")
    assert "people" in would_forget(env, "Anna")
    forget(env, "Berlin")
    assert _people(env)["Anna"]["facts"] == []  # Anna stays, what was said about Berlin goes
    report = forget(env, "Pierogi")
    assert report.deleted["people"] == ["pet:pierogi"] and "Pierogi" not in _people(env)
    assert "pierogi" not in str(export_user(env.store, env.scope, None)).lower()


def test_people_are_kept_apart_per_user_and_exported() -> None:
    store = InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]})
    alice, bob = _env("alice", store), _env("bob", store)
    _say(alice, 0, "I'm seeing someone new, her name is Marta.")
    assert [p["value"]["name"] for p in export_user(store, alice.scope, None)["people"]] == ["Marta"]
    assert export_user(store, bob.scope, None)["people"] == []
    assert _recalled(bob, "Is Marta coming?") == [] and _recalled(bob, "my girlfriend") == []


def test_the_capable_model_fills_the_same_records_grounded() -> None:
    env = _env()
    said = LoggedMessage(id="m1", thread="t1", time=T0, role="user", text="Had dinner with Leo, my boyfriend. He cooks.")
    model = StructuredFake(responses=["ok"], answer=ExtractedFacts(people=[
        ExtractedPerson(name="Leo", relation="partner", fact="Leo cooks.", source_ids=["m1"]),
        ExtractedPerson(name="Bruno", relation="pet", species="dog", source_ids=["m1"]),  # never said
        ExtractedPerson(name="Leo", relation="boss", source_ids=["m1"]),  # no such relation
    ]))
    SemanticLayer(LLMFactExtractor(model)).on_session_end(env, [said])
    [leo] = people_records(env)
    assert (leo["name"], leo["relation"], leo["sources"]) == ("Leo", "partner", ["m1"])
    assert [f["text"] for f in leo["facts"]] == ["Leo cooks."]
    assert "people" in model.prompts[0][0].content  # the model is asked for them


def test_a_fact_about_someone_goes_on_their_record_and_the_prompt_says_it_once() -> None:
    env = _env()
    _say(env, 0, "We got a puppy! His name is Churro.")
    _say(env, 1, "My partner Alex and I are both vegan.")
    loose = [i.value["text"] for i in env.store.search(env.scope.ns("facts"), limit=50)]
    assert not any("puppy" in t for t in loose), loose  # not "The user says we got a puppy."
    people = _people(env)
    assert people["Churro"]["facts"] == []  # the introduction says nothing more than who he is
    assert "vegan" in people["Alex"]["text"]
    block = volatile_part([r.as_dict() for r in LAYER.recall(env, "Dinner ideas for Alex?")], "", env.now, 2000)
    assert block.count("vegan") == 1, block


def test_an_introduction_in_the_we_voice_is_kept_on_the_record_only() -> None:
    env = _env()
    _say(env, 0, "We adopted a rabbit, she's called Biscuit.")
    loose = [i.value["text"] for i in env.store.search(env.scope.ns("facts"), limit=50)]
    assert not any("says we" in t for t in loose), loose  # not "The user says we adopted a rabbit, ..."
    assert _people(env)["Biscuit"]["relation"] == "pet"


def test_a_question_about_dating_recalls_the_current_partner_only() -> None:
    env = _env()
    _say(env, 0, "Raj and I split up.")
    _say(env, 1, "I've started dating someone, he's called Omar.")
    assert _recalled(env, "Who am I dating?") == ["Omar: the user's partner."]
    assert _recalled(env, "I'm seeing the dentist tomorrow.") == []
