"""Episodic layer: what a session becomes, how episodes rank, dedup and expiry (on both backends' real store)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore

from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.episodic import Episode, EpisodicLayer, importance
from models.loader import HashEmbeddings
from stores.namespaces import EPISODES, UserScope
from tests.support.backends import StoreOn

NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
EMB = HashEmbeddings(384)


def make_store() -> InMemoryStore:
    return InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]})


def make_env(store: Any, now: datetime = NOW, preset: str = "assistant", chat_model: Any = None) -> LayerEnv:
    return LayerEnv(
        store=store,
        scope=UserScope("alice"),
        context=Context(user_id="alice", preset=preset),
        embeddings=EMB,
        chat_model=chat_model,
        now=now,
    )


def msg(i: int, role: str, text: str, thread: str = "t1", at: datetime = NOW) -> LoggedMessage:
    return LoggedMessage(id=f"{thread}-m{i}", thread=thread, time=at + timedelta(minutes=i), role=role, text=text)  # type: ignore[arg-type]


REFUND_SESSION = [
    msg(0, "user", "Hi!"),
    msg(1, "user", "My espresso machine from order ORD-48213 arrived broken on 2026-03-14."),
    msg(2, "assistant", "Sorry about that. I have started a refund of $1,249.99 for order ORD-48213."),
    msg(3, "user", "Great, I decided to buy the Breville model instead. It is important that it arrives before Friday."),
    msg(4, "assistant", "Noted. Thanks!"),
]


def episode(text: str, days_ago: float, imp: int, thread: str) -> Episode:
    return Episode(text, imp, (), NOW - timedelta(days=days_ago), thread, (f"{thread}-m0",), "extractive")


def stored(store: BaseStore) -> list[Any]:
    return store.search(UserScope("alice").ns(EPISODES), limit=100)


def test_session_end_stores_one_extractive_episode_with_provenance(backend_store: StoreOn) -> None:
    store = backend_store()
    EpisodicLayer().on_session_end(make_env(store), REFUND_SESSION)
    [item] = stored(store)
    value = item.value
    assert value["thread"] == "t1"
    assert value["sources"] == ["t1-m0", "t1-m1", "t1-m2", "t1-m3", "t1-m4"]
    assert value["time"] == (NOW + timedelta(minutes=4)).isoformat()
    assert value["summarizer"] == "extractive"
    for verbatim in ("ORD-48213", "2026-03-14", "$1,249.99", "Breville"):
        assert verbatim in value["text"]
    assert "Hi!" not in value["text"] and "Thanks!" not in value["text"]
    assert value["keywords"][:4] == ["order", "ord-48213", "espresso", "machine"]
    assert value["importance"] == 6  # 1 + length 0.6 + decision 2 + identifiers 1.5 + urgency 1
    assert value["expires_at"] == (NOW + timedelta(days=180)).isoformat()


def test_importance_separates_small_talk_from_decisions() -> None:
    small_talk = [msg(0, "user", "hello"), msg(1, "assistant", "Hi, how can I help?"), msg(2, "user", "nothing, bye")]
    assert importance(small_talk) == 1
    durable = [msg(0, "user", "I'm a nurse and I live in Porto; my shifts start early every Monday.")]
    assert importance(durable) == 3  # 1 + length 0.13 + durable statement 2
    assert importance(REFUND_SESSION) == 6


def test_three_day_old_important_relevant_episode_outranks_yesterdays_trivial_one(backend_store: StoreOn) -> None:
    store = backend_store()
    env = make_env(store)
    layer = EpisodicLayer()
    layer.save(env, episode("User asked for a refund for the broken espresso machine, order ORD-48213.", 3, 8, "old"))
    layer.save(env, episode("User said hello and chatted about nothing much.", 1, 2, "new"))
    results = layer.recall(env, "refund for the broken espresso machine")
    assert [r.meta["thread"] for r in results] == ["old", "new"]
    assert results[0].kind == "episode" and results[0].sources == ("old-m0",)
    assert results[0].score > results[1].score >= env.context.score_floor


def test_preset_swap_flips_a_pair(backend_store: StoreOn) -> None:
    store = backend_store()
    layer = EpisodicLayer()
    layer.save(make_env(store), episode("Kubernetes pod crashloop fixed by raising the api pod memory limit.", 30, 5, "match"))
    layer.save(make_env(store), episode("User checked pod logs, then we talked about lunch plans and weather.", 0, 5, "recent"))
    query = "kubernetes pod crashloop memory limit"
    assistant = [r.meta["thread"] for r in layer.recall(make_env(store, preset="assistant"), query)]
    copilot = [r.meta["thread"] for r in layer.recall(make_env(store, preset="copilot"), query)]
    assert assistant == ["recent", "match"]
    assert copilot == ["match", "recent"]


def test_near_duplicate_sessions_are_stored_once(backend_store: StoreOn) -> None:
    store = backend_store()
    layer = EpisodicLayer()
    env = make_env(store)
    layer.on_session_end(env, REFUND_SESSION)
    again = [msg(i, m.role, m.text, thread="t2") for i, m in enumerate(REFUND_SESSION)]
    layer.on_session_end(env, again)
    assert [i.value["thread"] for i in stored(store)] == ["t1"]
    other = [msg(0, "user", "I moved to Lisbon last week and I work at Acme as a nurse.", thread="t3")]
    layer.on_session_end(env, other)
    assert sorted(i.value["thread"] for i in stored(store)) == ["t1", "t3"]


def test_expired_episodes_are_not_recalled_and_not_duplicates(backend_store: StoreOn) -> None:
    store = backend_store()
    layer = EpisodicLayer()
    assert layer.save(make_env(store), episode("Espresso machine refund for order ORD-48213.", 0, 8, "t1")) is not None
    query = "espresso machine refund"
    assert [r.meta["thread"] for r in layer.recall(make_env(store, now=NOW + timedelta(days=179)), query)] == ["t1"]
    later = make_env(store, now=NOW + timedelta(days=181))
    assert layer.recall(later, query) == []
    # An expired episode no longer blocks the same episode from being stored again.
    assert layer.save(later, episode("Espresso machine refund for order ORD-48213.", 0, 8, "t9")) is not None


class TTLStore(InMemoryStore):
    """An InMemoryStore that claims TTL support and records the ttl of every put it is given."""

    supports_ttl = True

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ttls: list[Any] = []

    def batch(self, ops):  # type: ignore[no-untyped-def, override]
        ops = list(ops)
        self.ttls.extend(op.ttl for op in ops if isinstance(op, PutOp))
        return super().batch([op._replace(ttl=None) if isinstance(op, PutOp) else op for op in ops])


def test_store_ttl_is_used_when_supported() -> None:
    store = TTLStore(index={"dims": 384, "embed": EMB, "fields": ["text"]})
    EpisodicLayer().on_session_end(make_env(store), REFUND_SESSION)
    assert store.ttls == [180 * 24 * 60]
    with pytest.raises(NotImplementedError):  # a plain InMemoryStore would refuse it
        make_store().put(("x",), "k", {"text": "a"}, ttl=1.0)


def test_llm_summary_is_used_when_grounded_and_keeps_identifiers() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage("The espresso machine arrived broken; a refund was started.")]))
    store = make_store()
    EpisodicLayer(use_llm=True).on_session_end(make_env(store, chat_model=model), REFUND_SESSION)
    [item] = stored(store)
    assert item.value["summarizer"] == "llm"
    assert item.value["text"].startswith("The espresso machine arrived broken; a refund was started.")
    for verbatim in ("ORD-48213", "2026-03-14", "$1,249.99"):
        assert verbatim in item.value["text"]


def test_invented_llm_summary_falls_back_to_extractive() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage("User lives in Berlin and loves Hugging Face.")]))
    store = make_store()
    EpisodicLayer(use_llm=True).on_session_end(make_env(store, chat_model=model), REFUND_SESSION)
    [item] = stored(store)
    assert item.value["summarizer"] == "extractive"
    assert "Berlin" not in item.value["text"]


def test_llm_is_not_called_without_the_flag() -> None:
    # A call would consume the reply (an exception inside it would be swallowed by the
    # extractive fallback, so "it would raise" proves nothing): check it is still there.
    model = GenericFakeChatModel(messages=iter([AIMessage("unused reply")]))
    store = make_store()
    EpisodicLayer().on_session_end(make_env(store, chat_model=model), REFUND_SESSION)
    assert stored(store)[0].value["summarizer"] == "extractive"
    assert next(model.messages).text == "unused reply"


def test_extractive_summary_prefers_what_the_user_said() -> None:
    from memory.layers.identifiers import extractive_summary

    lines = [
        "User: I love hiking in the Alps with my brother Marco.",
        "Assistant: You could try the Tour du Mont Blanc route, it takes about 11 days.",
    ]
    assert extractive_summary(lines, 14) == lines[1]
    assert extractive_summary(lines, 14, {"Assistant": 0.5}) == lines[0]


def test_keywords_never_keep_a_secret_the_summary_redacts() -> None:
    """Keywords are lowercased words: a secret among them would pass the gate's redaction
    (found by the case-insensitive byte search of tests/test_write_gate.py)."""
    from memory.layers.episodic import keywords

    said = [msg(0, "user", "I decided the router password is hunter2-Blue from today.")]
    assert "router" in keywords(said)
    assert not any("hunter2" in k for k in keywords(said))
