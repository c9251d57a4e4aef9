"""The message log layer: what it stores, and what one recalled result is."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from bench.message_levers.layer import LeverMessageLog
from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.message_log import MessageLogLayer
from memory.layers.message_query import analyse, time_window
from memory.layers.message_text import INDEXED_FIELD
from models.loader import HashEmbeddings
from stores.namespaces import MESSAGES, UserScope
from stores.open import open_store
from stores.redaction.secrets import redact
from tests.support.backends import BackendUnderTest, use_backend

T0 = datetime(2024, 6, 3, 12, 0, tzinfo=UTC)
SECRET = "sk-" + "A1b2C3d4E5f6G7h8J9k0"


def _msg(i: int, role: str, text: str, name: str | None = None, thread: str = "t1") -> LoggedMessage:
    return LoggedMessage(id=f"{thread}-m{i}", thread=thread, time=T0 + timedelta(minutes=i), role=role, text=text, name=name)  # type: ignore[arg-type]


CHAT = [
    _msg(1, "user", "I finally picked an adoption agency this week.", "Caroline"),
    _msg(2, "assistant", "Wow, that agency looks great! What made you pick it?", "Melanie"),
    _msg(3, "user", "They help LGBTQ folks, and that inclusivity spoke to me.", "Caroline"),
    _msg(4, "assistant", "I painted a sunrise over the lake yesterday.", "Melanie"),
    _msg(5, "user", "I painted a sunset last month, my first one.", "Caroline"),
    _msg(6, "assistant", f"Here is the key you asked for: {SECRET}", "Melanie"),
]


@pytest.fixture(params=["memory", "local", "postgres"])
def env(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LayerEnv]:
    """The layer on LangGraph's InMemoryStore and on both backends' real store (FAISS + SQLite, Postgres)."""
    emb = HashEmbeddings(128)
    if request.param == "memory":
        store: BaseStore = InMemoryStore(index={"dims": 128, "embed": emb, "fields": ["text"]})
    else:
        use_backend(request.param, request, monkeypatch)
        store = open_store(str(tmp_path / "data"), "hash:128")
    yield LayerEnv(store=store, scope=UserScope("alice"), context=Context(top_k=3), embeddings=emb, now=T0 + timedelta(days=1))
    getattr(store, "close", lambda: None)()


def _items(env: LayerEnv) -> dict[str, dict]:
    return {it.key: it.value for it in env.store.search(env.scope.ns(MESSAGES), limit=1000)}


def test_every_message_is_stored_with_provenance(env: LayerEnv) -> None:
    MessageLogLayer().on_turn(env, CHAT)
    items = _items(env)
    assert set(items) == {m.id for m in CHAT}
    for m in CHAT:
        v = items[m.id]
        assert (v["id"], v["thread"], v["role"], v["name"]) == (m.id, m.thread, m.role, m.name)
        assert datetime.fromisoformat(v["time"]) == m.time
        assert v["text"] == redact(m.text)


def test_secrets_never_reach_the_log_or_its_index(env: LayerEnv) -> None:
    MessageLogLayer().on_turn(env, CHAT)
    items = _items(env)
    assert len(items) == len(CHAT)
    for v in items.values():
        assert SECRET not in v["text"] and SECRET not in v[INDEXED_FIELD]


def test_on_turn_is_idempotent(env: LayerEnv) -> None:
    layer = MessageLogLayer()
    layer.on_turn(env, CHAT)
    first = {it.key: it.updated_at for it in env.store.search(env.scope.ns(MESSAGES), limit=1000)}
    layer.on_turn(env, CHAT)
    second = {it.key: it.updated_at for it in env.store.search(env.scope.ns(MESSAGES), limit=1000)}
    assert first == second  # same keys, nothing rewritten


def test_neighbours_are_indexed_but_each_result_is_one_message(env: LayerEnv) -> None:
    layer = MessageLogLayer()
    layer.on_turn(env, CHAT)
    assert "What made you pick it?" in _items(env)["t1-m3"][INDEXED_FIELD]
    results = layer.search(env, "Why did Caroline pick the agency?", 4)
    assert 0 < len(results) <= 4
    for r in results:
        assert r.kind == "message"
        assert r.sources == (r.key,)
        assert r.text.endswith(_items(env)[r.key]["text"])
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
    assert "t1-m3" in [r.key for r in results]


@pytest.mark.parametrize("fusion", ["shipped", None], ids=["learned (bench opt-in)", "hand-set"])
def test_named_speaker_outranks_the_other(env: LayerEnv, fusion: str | None) -> None:
    layer = LeverMessageLog(fusion="shipped") if fusion else MessageLogLayer()
    layer.on_turn(env, CHAT)
    by = {m.id: m.name for m in CHAT}
    for name, painting in (("Melanie", "t1-m4"), ("Caroline", "t1-m5")):
        found = [r.key for r in layer.search(env, f"What did {name} paint?", 3)]
        assert by[found[0]] == name and painting in found
        if fusion is None:  # the round-number boosts put the painting itself first
            assert found[0] == painting


def test_recall_uses_top_k_from_context(env: LayerEnv) -> None:
    layer = MessageLogLayer()
    layer.on_turn(env, CHAT)
    assert len(layer.recall(env, "painted")) == env.context.top_k
    assert layer.search(env, "   ", 5) == []


def test_recall_drops_results_below_the_score_floor(env: LayerEnv) -> None:
    layer = MessageLogLayer()
    layer.on_turn(env, CHAT)
    found = layer.search(env, "painted", env.context.top_k)
    assert found
    best = max(r.score for r in found)
    assert all(r.score >= env.context.score_floor for r in layer.recall(env, "painted"))
    env.context = Context(top_k=3, score_floor=best + 0.01)
    assert layer.recall(env, "painted") == []


def test_forget_removes_the_text_from_neighbours_index(env: LayerEnv) -> None:
    layer = MessageLogLayer()
    layer.on_turn(env, CHAT)
    assert layer.forget(env, ["t1-m2", "missing"]) == 1
    items = _items(env)
    assert "t1-m2" not in items
    assert "What made you pick it?" not in items["t1-m1"][INDEXED_FIELD]
    assert "What made you pick it?" not in items["t1-m3"][INDEXED_FIELD]
    assert items["t1-m1"]["next"] == "t1-m3" and items["t1-m3"]["prev"] == "t1-m1"


def test_query_reading() -> None:
    now = datetime(2023, 10, 22, 9, 0, tzinfo=UTC)
    info = analyse("When did Mel go camping in June?", {"melanie", "caroline"}, now)
    assert info.names == {"melanie"} and info.asks_when and "camp" in info.terms
    assert info.window is not None and info.window[0] == datetime(2023, 6, 1, tzinfo=UTC)
    assert analyse("What do I like?", set(), now).first_person
    start, end = time_window("what did we discuss yesterday", now)  # type: ignore[misc]
    assert start <= now - timedelta(days=1) < end <= now
    assert time_window("What is her favourite food?", now) is None


def test_live_turns_are_linked_to_the_previous_turn(tmp_path: Path, backend: BackendUnderTest) -> None:
    from app.runtime import MemoryAgent
    from core.context import Context
    from memory.layers.message_text import INDEXED_FIELD
    from models.scripted_chat import ScriptedChatModel
    from stores.namespaces import MESSAGES, UserScope

    ctx = Context(user_id="alice", data_dir=str(tmp_path), chat_model="scripted", embedding_model="hash:64")
    with MemoryAgent(ctx, chat_model=ScriptedChatModel(responses=["Which city?", "Porto it is."])) as agent:
        agent.say("Where should we meet for the workshop?", "t1")
        agent.say("Porto, near the river.", "t1")
        log = {i.value["text"]: i.value for i in agent.store.search(UserScope("alice").ns(MESSAGES), limit=10)}
    question, answer = log["Which city?"], log["Porto, near the river."]
    assert answer["prev"] == question["id"] and question["next"] == answer["id"]
    assert "Which city?" in answer[INDEXED_FIELD]
    assert "Porto, near the river." in question[INDEXED_FIELD]


def test_a_reply_longer_than_the_store_takes_keeps_the_turn(tmp_path: Path) -> None:
    """A model reply has no length limit: one over the write gate's 64k string limit once failed
    the whole turn (TooLarge). The reply comes back whole, the log keeps its start and says so,
    its neighbour's index stays small, and the next turn and the session end work."""
    from app.runtime import MemoryAgent
    from core.context import Context
    from memory.layers.message_text import INDEXED_FIELD, KEPT_CHARS, NEIGHBOUR_CHARS
    from models.scripted_chat import ScriptedChatModel
    from stores.namespaces import MESSAGES, UserScope

    long = "The plan, step by step. " * 3500  # 84,000 characters
    ctx = Context(user_id="alice", data_dir=str(tmp_path), chat_model="scripted", embedding_model="hash:64")
    with MemoryAgent(ctx, chat_model=ScriptedChatModel(responses=["Noted.", long, "Porto."])) as agent:
        agent.say("I live in Porto.", "t1")
        assert agent.say("Write me a very long plan.", "t1").reply == long
        assert agent.say("Where do I live?", "t1").reply == "Porto."
        agent.end_session("t1")
        log = {i.value["id"]: i.value for i in agent.store.search(UserScope("alice").ns(MESSAGES), limit=20)}
    kept = [v for v in log.values() if v["text"].startswith("The plan")]
    assert len(kept) == 1 and kept[0]["text"].startswith(long[:KEPT_CHARS])
    assert kept[0]["text"].endswith(f"[…{len(long) - KEPT_CHARS} more characters not kept in the log]")
    after = log[kept[0]["next"]]
    assert after["text"] == "Where do I live?"
    assert len(after[INDEXED_FIELD]) < NEIGHBOUR_CHARS + 200


def test_each_sentence_leads_a_vector_of_its_own(env: LayerEnv) -> None:
    """Every sentence of three words or more leads one copy of the indexed text (the store keeps a
    vector per copy); "Thanks, Mel!" leads none, and a message with no such sentence keeps one."""
    from memory.layers.message_text import SENTENCE_FIELD

    turn = [
        _msg(1, "user", "Work has been hectic this month. Took a short trip to Rome last week. Thanks, Mel!", "Jon"),
        _msg(2, "assistant", "Nice!", "Gina"),
    ]
    MessageLogLayer().on_turn(env, turn)
    items = _items(env)
    led = items["t1-m1"][SENTENCE_FIELD]
    assert [t.split("\n")[0] for t in led] == ["Jon: Work has been hectic this month.",
                                                 "Jon: Took a short trip to Rome last week."]
    assert all(t.endswith(items["t1-m1"][INDEXED_FIELD]) for t in led)  # each still carries its context
    assert items["t1-m2"][SENTENCE_FIELD] == [items["t1-m2"][INDEXED_FIELD]]
    MessageLogLayer(by_sentence=False).on_turn(env, turn)  # switched off: the copies go with the next write
    assert SENTENCE_FIELD not in _items(env)["t1-m1"]


@pytest.mark.parametrize("backend", ["local", "postgres"])
def test_a_sentence_buried_in_a_long_turn_scores_as_itself(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One vector for a whole long turn averages the sentence a question is about away; with a vector
    led by each sentence, the store's max over an item's vectors scores the turn by that sentence."""
    use_backend(backend, request, monkeypatch)
    chatter = " ".join(f"The {w} was fine and the weather stayed mild all day." for w in
                       ("market", "office", "garden", "museum", "harbour", "library", "station", "bakery"))
    turn = [_msg(1, "user", f"{chatter} My violin lessons start on Monday.", "Caroline")]
    scores = {}
    for by_sentence in (False, True):
        store = open_store(str(tmp_path / f"data-{by_sentence}"), "hash:128")
        layer_env = LayerEnv(store=store, scope=UserScope("alice"), context=Context(top_k=3),
                             embeddings=HashEmbeddings(128), now=T0 + timedelta(days=1))
        MessageLogLayer(by_sentence=by_sentence).on_turn(layer_env, turn)
        hit = store.search(layer_env.scope.ns(MESSAGES), query="violin lessons on Monday", limit=1)[0]
        scores[by_sentence] = float(hit.score or 0.0)
        getattr(store, "close", lambda: None)()
    assert scores[True] > 1.5 * scores[False], scores


def test_a_long_reply_leads_a_bounded_number_of_vectors_none_over_the_gate_limit(env: LayerEnv) -> None:
    from memory.layers.message_text import MAX_SENTENCE_VECTORS, SENTENCE_FIELD
    from memory.write_policy.gate import MAX_STRING_CHARS

    steps = " ".join(f"Step {i} is to check item number {i}." for i in range(400))
    giant = "word " * 6000 + "end."  # one sentence of 30,000 characters
    MessageLogLayer().on_turn(env, [_msg(1, "assistant", f"{giant} {steps}", "Melanie")])
    led = _items(env)["t1-m1"][SENTENCE_FIELD]
    assert len(led) == MAX_SENTENCE_VECTORS
    assert max(len(t) for t in led) < MAX_STRING_CHARS
