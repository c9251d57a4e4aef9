"""The semantic layer with hash embeddings: on the real store of both backends where the store matters
(``backend_store``: supersession, dedup, negation, search), on LangGraph's InMemoryStore elsewhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.semantic import SemanticLayer, remember
from memory.layers.semantic_records import KNOWN, cosines, write_fact
from memory.write_policy.base import CandidateFact
from memory.write_policy.llm import LLMFactExtractor
from models.loader import HashEmbeddings
from stores.namespaces import FACTS, PROFILE, PROFILE_HISTORY, UserScope
from tests.support.backends import StoreOn

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
EMB = HashEmbeddings(384)
SECRET = "sk-abcdefghijklmnop1234"


def make_env(store: BaseStore | None = None, user: str = "u1", **ctx: Any) -> LayerEnv:
    store = store or InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]})
    return LayerEnv(store=store, scope=UserScope(user), context=Context(**ctx), embeddings=EMB,
                    now=T0 + timedelta(days=30))


def say(layer: SemanticLayer, env: LayerEnv, mid: str, text: str, day: float = 0) -> None:
    layer.on_turn(env, [LoggedMessage(id=mid, thread="t1", time=T0 + timedelta(days=day), role="user", text=text)])


def items(env: LayerEnv, kind: str) -> list[dict[str, Any]]:
    return [i.value for i in env.store.search(env.scope.ns(kind), limit=100)]


def profile(env: LayerEnv) -> dict[str, str]:
    return {r.key: r.text for r in SemanticLayer().recall(env, "anything") if r.kind == "profile"}  # type: ignore[misc]


def test_turn_hook_keeps_the_protocol_promise_no_llm_and_no_state_update() -> None:
    """``MemoryLayer.on_turn`` is the cheap part: it must never call an LLM, even
    when the layer's extractor has one. A call would consume the only reply, and
    the extractor swallows model errors, so the reply still being there is the proof."""
    model = GenericFakeChatModel(messages=iter([AIMessage('{"facts": []}')]))
    env = make_env()
    env.chat_model = model
    layer = SemanticLayer(LLMFactExtractor(model))
    assert layer.on_turn(env, [LoggedMessage(id="m1", thread="t1", time=T0, role="user", text="I'm vegan.")]) is None
    assert next(model.messages).text == '{"facts": []}'
    [recalled] = [r for r in layer.recall(env, "diet") if r.kind == "profile"]
    assert (recalled.text, recalled.sources) == ("The user is vegan.", ("m1",))


def test_profile_supersession_keeps_history(backend_store: StoreOn) -> None:
    env, layer = make_env(backend_store()), SemanticLayer()
    say(layer, env, "m1", "I live in Paris.", day=0)
    say(layer, env, "m2", "I moved to Berlin.", day=1)
    assert profile(env) == {"location": "The user lives in Berlin."}
    [old] = items(env, PROFILE_HISTORY)
    assert (old["text"], old["valid_to"], old["superseded_by"], old["sources"]) == (
        "The user lives in Paris.", (T0 + timedelta(days=1)).isoformat(), "The user lives in Berlin.", ["m1"])
    [recalled] = [r for r in layer.recall(env, "where") if r.kind == "profile"]
    assert (recalled.score, recalled.sources, recalled.key) == (1.0, ("m2",), "location")


def test_diet_change_removes_old_value_from_profile_recall(backend_store: StoreOn) -> None:
    env, layer = make_env(backend_store()), SemanticLayer()
    say(layer, env, "m1", "I'm vegetarian.", day=0)
    say(layer, env, "m2", "Actually I'm vegan now.", day=2)
    texts = [r.text for r in layer.recall(env, "what does the user eat")]
    assert texts == ["The user is vegan."]
    assert [h["text"] for h in items(env, PROFILE_HISTORY)] == ["The user is vegetarian."]


def test_an_older_statement_never_overrides_a_newer_one(backend_store: StoreOn) -> None:
    env, layer = make_env(backend_store()), SemanticLayer()
    say(layer, env, "m2", "I live in Berlin.", day=2)
    say(layer, env, "m1", "I live in Paris.", day=1)  # replayed late, e.g. an import
    assert profile(env) == {"location": "The user lives in Berlin."}
    assert items(env, PROFILE_HISTORY) == []


def test_same_fact_three_times_is_stored_once(backend_store: StoreOn) -> None:
    env, layer = make_env(backend_store()), SemanticLayer()
    for day in range(3):
        say(layer, env, f"m{day}", "I love hiking.", day=day)
    [fact] = items(env, FACTS)
    assert (fact["text"], fact["sources"]) == ("The user loves hiking.", ["m0", "m1", "m2"])
    assert (fact["created_at"], fact["updated_at"]) == (T0.isoformat(), (T0 + timedelta(days=2)).isoformat())


def test_dedup_threshold_comes_from_context(backend_store: StoreOn) -> None:
    similarity = cosines(make_env(backend_store()), "The user really loves hiking.", ["The user loves hiking."])[0]
    assert 0.85 < similarity < 0.9
    for threshold, expected in ((0.9, 2), (0.85, 1)):
        env, layer = make_env(backend_store(), f"u{threshold * 100:.0f}", dedup_threshold=threshold), SemanticLayer()
        say(layer, env, "m1", "I love hiking.")
        say(layer, env, "m2", "I really love hiking.")
        assert len(items(env, FACTS)) == expected


def test_negation_archives_the_old_fact_and_reaffirming_reverses_it(backend_store: StoreOn) -> None:
    env, layer = make_env(backend_store()), SemanticLayer()
    say(layer, env, "m1", "I play tennis every weekend.", day=0)
    say(layer, env, "m2", "I don't play tennis every weekend anymore.", day=1)
    assert [f["text"] for f in items(env, FACTS)] == ["The user no longer plays tennis every weekend."]
    assert [h["text"] for h in items(env, PROFILE_HISTORY)] == ["The user plays tennis every weekend."]
    say(layer, env, "m3", "I play tennis every weekend.", day=2)
    assert [f["text"] for f in items(env, FACTS)] == ["The user plays tennis every weekend."]
    assert len(items(env, PROFILE_HISTORY)) == 2


def test_keyed_negation_ends_the_slot(backend_store: StoreOn) -> None:
    env, layer = make_env(backend_store()), SemanticLayer()
    say(layer, env, "m1", "I'm vegetarian.", day=0)
    say(layer, env, "m2", "I'm no longer vegan.", day=1)  # not the current value: nothing ends
    assert profile(env) == {"diet": "The user is vegetarian."}
    say(layer, env, "m3", "I'm no longer vegetarian.", day=2)
    assert profile(env) == {}
    [old] = items(env, PROFILE_HISTORY)
    assert (old["text"], old["superseded_by"]) == ("The user is vegetarian.", "The user is no longer vegetarian.")


def test_multi_valued_slots_collect_values(backend_store: StoreOn) -> None:
    env, layer = make_env(backend_store()), SemanticLayer()
    say(layer, env, "m1", "I'm allergic to peanuts.", day=0)
    say(layer, env, "m2", "I'm also allergic to shellfish and peanuts.", day=1)
    [record] = items(env, PROFILE)
    assert (record["text"], record["values"], record["sources"]) == (
        "The user is allergic to peanuts and shellfish.", ["peanuts", "shellfish"], ["m1", "m2"])


def test_sentences_with_secrets_are_skipped() -> None:
    env, layer = make_env(), SemanticLayer()
    say(layer, env, "m1", f"Remember that my API key is {SECRET}. I live in Oslo.")
    assert remember(env, f"my password is {SECRET}") == []
    assert profile(env) == {"location": "The user lives in Oslo."}
    assert items(env, FACTS) == []


@pytest.mark.parametrize(
    "text",
    ["I'm in a hurry today.", "What's the weather?", "I'm tired.", "Can you write me a poem?", "I'd like a coffee."],
)
def test_small_talk_is_not_stored(text: str) -> None:
    env, layer = make_env(), SemanticLayer()
    say(layer, env, "m1", text)
    assert (items(env, FACTS), items(env, PROFILE)) == ([], [])


def test_recall_ranks_facts_by_relevance_and_drops_those_under_the_floor(backend_store: StoreOn) -> None:
    env = make_env(backend_store(), w_relevance=1.0, w_recency=0.0, w_importance=0.0, top_k=2, score_floor=0.15)
    layer = SemanticLayer()
    say(layer, env, "m1", "I'm a nurse.")
    say(layer, env, "m2", "I love hiking in the mountains.")
    say(layer, env, "m3", "I love hiking.")
    say(layer, env, "m4", "I play the cello.")
    recalled = layer.recall(env, "hiking mountains")
    assert [(r.kind, r.text) for r in recalled] == [
        ("profile", "The user is a nurse."),
        ("fact", "The user loves hiking in the mountains."),
        ("fact", "The user loves hiking."),
    ]
    expected = cosines(env, "hiking mountains", ["The user loves hiking in the mountains.", "The user loves hiking."])
    assert [r.score for r in recalled[1:]] == pytest.approx(expected)
    assert layer.recall(env, "cello orchestra")[1:][0].text == "The user plays the cello."
    assert [r.kind for r in layer.recall(env, "quantum physics")] == ["profile"]


def test_recall_with_recency_weight_prefers_newer_facts(backend_store: StoreOn) -> None:
    env, layer = make_env(backend_store(), w_relevance=0.0, w_recency=1.0, w_importance=0.0, score_floor=0.0), SemanticLayer()
    say(layer, env, "m1", "I play the cello.", day=0)
    say(layer, env, "m2", "I drink green tea.", day=20)
    [newer, older] = layer.recall(env, "music")
    assert (newer.text, older.text) == ("The user drinks green tea.", "The user plays the cello.")
    assert (newer.score, older.score) == pytest.approx((0.5 ** (10 / 7), 0.5 ** (30 / 7)))


def test_users_are_isolated(backend_store: StoreOn) -> None:
    store = backend_store()
    alice, bob, layer = make_env(store, "alice"), make_env(store, "bob"), SemanticLayer()
    say(layer, alice, "m1", "I'm vegan. I love hiking.")
    assert layer.recall(bob, "hiking vegan") == []
    assert [r.text for r in layer.recall(alice, "hiking")] == ["The user is vegan.", "The user loves hiking."]


def test_remember_stores_explicit_notes_and_profile_slots(backend_store: StoreOn) -> None:
    env = make_env(backend_store())
    [note] = remember(env, "/remember my locker number is 214", sources=["m9"])
    assert {k: note[k] for k in ("text", "category", "key", "importance", "explicit", "sources", "user_id")} == {
        "text": "The user's locker number is 214.", "category": "note", "key": None, "importance": 7,
        "explicit": True, "sources": ["m9"], "user_id": "u1"}
    assert set(note) == {"id", "text", "category", "key", "value", "importance", "created_at", "updated_at",
                         "sources", "user_id", "explicit", "negation_of"}
    [slot] = remember(env, "I'm allergic to cats.")
    assert (slot["id"], slot["values"], slot["importance"]) == ("allergies", ["cats"], 9)
    assert [i.key for i in env.store.search(env.scope.ns(PROFILE))] == ["allergies"]


def test_session_end_runs_the_llm_extractor_with_the_env_model_and_grounds_it() -> None:
    reply = ('{"facts": [{"text": "The user is a pilot.", "key": "occupation", "value": "pilot", "source_ids": ["m1"]},'
             ' {"text": "User lives in Berlin.", "key": "location", "value": "Berlin", "source_ids": ["m1"]}]}')
    layer = SemanticLayer(LLMFactExtractor())
    session = [LoggedMessage(id="m1", thread="t1", time=T0, role="user", text="Honestly, flying planes as a pilot is my life")]
    env = make_env()
    assert layer.on_session_end(env, session) is None  # no chat model: nothing runs
    assert items(env, PROFILE) == []
    env.chat_model = GenericFakeChatModel(messages=iter([reply]))
    layer.on_session_end(env, session)
    assert profile(env) == {"occupation": "The user is a pilot."}


def test_default_layer_does_nothing_at_session_end_and_llm_layer_still_uses_rules_per_turn() -> None:
    env = make_env()
    session = [LoggedMessage(id="m1", thread="t1", time=T0, role="user", text="I'm vegan.")]
    assert SemanticLayer().on_session_end(env, session) is None
    assert items(env, PROFILE) == []
    SemanticLayer(LLMFactExtractor()).on_turn(env, session)
    assert profile(env) == {"diet": "The user is vegan."}


def test_remember_keeps_no_sentence_without_words(tmp_path) -> None:
    """A weak model's remember call can end in junk ("{."): it must not become a fact."""
    from langgraph.store.memory import InMemoryStore

    from core.context import Context
    from memory.layers.base import LayerEnv
    from memory.layers.semantic import remember
    from models.loader import HashEmbeddings
    from stores.namespaces import FACTS, PROFILE, UserScope

    emb = HashEmbeddings(64)
    env = LayerEnv(store=InMemoryStore(index={"dims": 64, "embed": emb, "fields": ["text"]}), scope=UserScope("alice"),
                   context=Context(user_id="alice", data_dir=str(tmp_path), embedding_model="hash:64"), embeddings=emb)
    remember(env, "I'm vegan. {.")
    kept = [i.value["text"] for ns in (FACTS, PROFILE) for i in env.store.search(env.scope.ns(ns), limit=20)]
    assert kept and all(any(c.isalpha() for c in t) for t in kept)
    assert not any(t.strip() in {"{.", "{", "."} or "{." in t for t in kept)


def test_a_loose_fact_that_restates_a_profile_slot_in_other_words_is_that_slot(backend_store: StoreOn) -> None:
    """A model words a fact differently from run to run ("has an allergy to" for "is allergic to"):
    the slot already says it, whatever the cosine; the other polarity or someone else's is news.
    """
    env, layer = make_env(backend_store()), SemanticLayer()
    say(layer, env, "m1", "I'm allergic to peanuts.")
    assert [p["text"] for p in items(env, PROFILE)] == ["The user is allergic to peanuts."]  # the premise
    status, _ = write_fact(env, CandidateFact(text="The user has an allergy to peanuts.", category="health",
                                              value="peanuts", sources=["m2"]))
    assert status == KNOWN and items(env, FACTS) == []
    for news in ("The user's sister has an allergy to peanuts.", "The user has never had an allergy to peanuts."):
        write_fact(env, CandidateFact(text=news, category="health", sources=["m3"]))
    assert sorted(f["text"] for f in items(env, FACTS)) == [
        "The user has never had an allergy to peanuts.", "The user's sister has an allergy to peanuts."]
