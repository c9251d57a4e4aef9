"""remember / search_memory / forget tools: bound to the configured user only."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from core.context import Context
from memory import clock
from memory.layers.base import LayerEnv
from memory.privacy.consent import set_memory_enabled
from memory.privacy.forget import THREADS_KEPT
from memory.tools.memory_tools import MEMORY_OFF, make_memory_tools
from models.loader import HashEmbeddings
from stores.namespaces import EPISODES, FACTS, PROFILE, RULES, UserScope

EMB = HashEmbeddings(64)


NOW = clock.now().isoformat()


def _record(rid: str, text: str, **extra: Any) -> dict[str, Any]:
    """A fact or profile record as the semantic layer writes it (memory/layers/semantic_records.py)."""
    return {"id": rid, "text": text, "category": "other", "value": None, "importance": 5, "created_at": NOW,
            "updated_at": NOW, "sources": ["m1"], **extra}


@pytest.fixture
def store() -> InMemoryStore:
    s = InMemoryStore(index={"dims": 64, "embed": EMB, "fields": ["text"]})
    for user in ("alice", "bob"):
        scope = UserScope(user)
        s.put(scope.ns(FACTS), "coffee", _record("coffee", f"{user} drinks coffee with oat milk"))
        s.put(scope.ns(EPISODES), "e1", {"text": f"{user} asked about coffee grinders", "sources": ["m2"],
                                         "time": NOW, "importance": 5})
        s.put(scope.ns(PROFILE), "city", _record("city", f"{user} lives in {'Lyon' if user == 'alice' else 'Oslo'}",
                                                 key="location"), index=False)
        s.put(scope.ns(RULES), "r1", {"text": f"answer {user} in short sentences about coffee"})
    return s


def _env(store: InMemoryStore, user: str, data_dir: Path) -> LayerEnv:
    ctx = Context(user_id=user, data_dir=str(data_dir), embedding_model="hash:64", chat_model="scripted")
    return LayerEnv(store=store, scope=UserScope(user), context=ctx, embeddings=EMB)


def _tools(store: InMemoryStore, user: str, data_dir: Path) -> dict[str, Any]:
    return {t.name: t for t in make_memory_tools(_env(store, user, data_dir))}


def test_no_tool_takes_a_user_id(store: InMemoryStore, tmp_path: Path) -> None:
    tools = _tools(store, "alice", tmp_path)
    assert sorted(tools) == ["forget", "remember", "search_memory"]
    assert {name: sorted(t.args) for name, t in tools.items()} == {
        "forget": ["text"], "remember": ["text"], "search_memory": ["query"]
    }
    props = [sorted(t.tool_call_schema.model_json_schema()["properties"]) for t in tools.values()]
    assert "user" not in json.dumps(props)


def test_search_returns_only_the_users_own_memories(store: InMemoryStore, tmp_path: Path) -> None:
    out = _tools(store, "alice", tmp_path)["search_memory"].invoke({"query": "coffee"})
    lines = out.splitlines()
    assert sorted(lines) == [
        "- [episode] alice asked about coffee grinders",
        "- [fact] alice drinks coffee with oat milk",
        "- [profile] alice lives in Lyon",
    ]
    assert "bob" not in out and "Oslo" not in out
    assert "short sentences" not in out  # rules are the procedural layer's, not searched here


def test_search_redacts_secrets_that_slipped_into_memory(store: InMemoryStore, tmp_path: Path) -> None:
    store.put(UserScope("alice").ns(FACTS), "leak", _record("leak", "coffee shop wifi password is Cr3ma!2024"))
    out = _tools(store, "alice", tmp_path)["search_memory"].invoke({"query": "coffee shop wifi password"})
    assert "Cr3ma!2024" not in out
    assert "[REDACTED:password]" in out


def test_remember_calls_the_semantic_layer_with_the_configured_user(
    store: InMemoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, str]] = []

    def fake_remember(env: LayerEnv, text: str, sources: tuple[str, ...] = ()) -> list[tuple[str, dict[str, Any]]]:
        calls.append((env.scope.user_id, text))
        return [("new", {"text": text})]

    fake = types.SimpleNamespace(remember_outcomes=fake_remember, NEW="new", KNOWN="already known")
    monkeypatch.setitem(sys.modules, "memory.layers.semantic", fake)
    tool = _tools(store, "alice", tmp_path)["remember"]
    assert tool.invoke({"text": "I am allergic to peanuts"}) == "Saved: I am allergic to peanuts"
    assert tool.invoke({"text": "my card is 4111 1111 1111 1111"}) == (
        "Not saved: that contains a secret (card_number). I never store secrets."
    )
    assert calls == [("alice", "I am allergic to peanuts")]


def test_remember_with_the_real_semantic_layer(store: InMemoryStore, tmp_path: Path) -> None:
    semantic = pytest.importorskip("memory.layers.semantic")
    if not hasattr(semantic, "remember"):
        pytest.skip("memory.layers.semantic.remember is not written yet")
    out = _tools(store, "alice", tmp_path)["remember"].invoke({"text": "I am allergic to peanuts"})
    assert out.startswith("Saved:") and "peanuts" in out
    found = _tools(store, "alice", tmp_path)["search_memory"].invoke({"query": "allergic to peanuts"})
    assert "peanuts" in found
    assert "peanuts" not in _tools(store, "bob", tmp_path)["search_memory"].invoke({"query": "allergic to peanuts"})


def test_memory_switch_off_blocks_remember_and_search(store: InMemoryStore, tmp_path: Path) -> None:
    set_memory_enabled(store, UserScope("alice"), False)
    tools = _tools(store, "alice", tmp_path)
    assert tools["remember"].invoke({"text": "I like jazz"}) == MEMORY_OFF
    assert tools["search_memory"].invoke({"query": "coffee"}) == MEMORY_OFF
    assert "coffee" in _tools(store, "bob", tmp_path)["search_memory"].invoke({"query": "coffee"})


def test_forget_tool_deletes_only_the_users_memories(store: InMemoryStore, tmp_path: Path) -> None:
    out = _tools(store, "alice", tmp_path)["forget"].invoke({"text": "coffee"})
    # Inside a turn the tool has no checkpointer: it says that threads were not searched.
    assert out == "forget 'coffee': deleted 1 facts, 1 episodes, 1 rules. " + THREADS_KEPT
    alice, bob = UserScope("alice"), UserScope("bob")
    assert [i.key for i in store.search(alice.root, limit=20)] == ["city"]
    assert len(store.search(bob.root, limit=20)) == 4
    assert _tools(store, "alice", tmp_path)["forget"].invoke({"text": "x"}).startswith("Error: say what to forget")
