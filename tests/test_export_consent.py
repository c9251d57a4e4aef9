"""Export of everything kept about a user, its human rendering, and the memory switch (on both backends)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from memory.privacy.consent import MEMORY_SWITCH_KEY, is_memory_enabled, set_memory_enabled
from memory.privacy.export import export_user, render_memories
from memory.tools.memory_files import MemoryFiles
from stores.namespaces import EPISODES, FACTS, MESSAGES, PROFILE, PROFILE_HISTORY, RULES, SETTINGS, THREADS, UserScope
from tests.support.backends import StoreOn

pytestmark = pytest.mark.both_backends  # the export is a parity check: the same export from both stores

ALICE, BOB = UserScope("alice"), UserScope("bob")


@pytest.fixture
def store(backend_store: StoreOn, tmp_path: Path) -> BaseStore:
    """Alice's and Bob's memories on the real store of each backend."""
    s = backend_store()
    s.put(ALICE.ns(PROFILE), "diet", {"text": "vegetarian", "sources": ["m1"], "stated_at": "2025-01-01T10:00:00+00:00"})
    s.put(ALICE.ns(PROFILE_HISTORY), "profile:diet:2024", {"text": "vegan", "sources": ["m0"], "valid_to": "2025-01-01"})
    s.put(ALICE.ns(FACTS), "f1", {"text": "Alice has a cat named Miso", "sources": ["m2", "m3"]})
    s.put(ALICE.ns(EPISODES), "e1", {"text": "Planned a trip to Kyoto", "sources": ["m4"]})
    s.put(ALICE.ns(RULES), "r1", {"text": "Answer in bullet points"})
    for i, thread in enumerate(["t1", "t1", "t2"]):
        s.put(ALICE.ns(MESSAGES), f"m{i}", {"text": f"message {i}", "thread": thread, "role": "user"})
    s.put(ALICE.ns(THREADS), "t1", {"thread_id": "t1", "created_at": "2025-01-01T09:00:00+00:00"}, index=False)
    s.put(BOB.ns(FACTS), "f1", {"text": "Bob's secret hobby is falconry", "sources": ["b1"]})
    MemoryFiles(tmp_path, ALICE).create("/memories/notes.md", "likes rain\n")
    MemoryFiles(tmp_path, BOB).create("/memories/bob.md", "falconry club on Tuesdays\n")
    return s


def test_export_holds_everything_with_sources_and_dates(store: BaseStore, tmp_path: Path) -> None:
    data = export_user(store, ALICE, tmp_path)
    assert sorted(data) == [
        "episodes", "exported_at", "facts", "memory_enabled", "memory_files", "messages", "people", "profile", "rules",
        "tasks", "threads", "user_id"
    ]
    assert data["user_id"] == "alice" and data["memory_enabled"] is True
    assert [e["text"] for e in data["profile"]["current"]] == ["vegetarian"]
    assert [e["text"] for e in data["profile"]["history"]] == ["vegan"]
    assert data["profile"]["history"][0]["value"]["valid_to"] == "2025-01-01"
    fact = data["facts"][0]
    assert (fact["key"], fact["text"], fact["sources"], fact["namespace"]) == (
        "f1", "Alice has a cat named Miso", ["m2", "m3"], ["users", "alice", "facts"]
    )
    datetime.fromisoformat(fact["created_at"])
    datetime.fromisoformat(fact["updated_at"])
    assert [e["text"] for e in data["episodes"]] == ["Planned a trip to Kyoto"]
    assert [e["text"] for e in data["rules"]] == ["Answer in bullet points"]
    assert data["memory_files"] == [{"path": "/memories/notes.md", "bytes": 11, "content": "likes rain\n"}]
    assert data["messages"] == {"total": 3, "per_thread": {"t1": 2, "t2": 1}}
    assert data["threads"] == [{"thread_id": "t1", "created_at": "2025-01-01T09:00:00+00:00"}]
    dumped = json.dumps(data)
    assert "falconry" not in dumped and "bob" not in dumped.lower()


def test_render_is_a_short_plain_answer(store: BaseStore, tmp_path: Path) -> None:
    text = render_memories(export_user(store, ALICE, tmp_path))
    lines = text.splitlines()
    assert lines[0] == "Here is what I remember about you (alice):"
    assert lines[1:3] == ["About you:", f"  - vegetarian ({datetime.now(UTC).date().isoformat()})"]
    for expected in (
        "Facts:",
        "Past conversations:",
        "How you like me to work:",
        "Memory files: /memories/notes.md",
        "Message log: 3 messages from 2 conversation(s).",
    ):
        assert expected in lines
    assert any(line.startswith("  - Alice has a cat named Miso (") for line in lines)
    assert "vegan" not in text  # history is in the export, not in the short answer
    assert "falconry" not in text


def test_render_for_a_user_with_nothing(tmp_path: Path) -> None:
    store = InMemoryStore()
    set_memory_enabled(store, UserScope("carol"), False)
    assert render_memories(export_user(store, UserScope("carol"), tmp_path)) == (
        "I don't remember anything about you (carol) yet.\n"
        "Long-term memory is switched off for you: I am not saving anything new."
    )


def test_long_sections_are_capped(tmp_path: Path) -> None:
    store = InMemoryStore()
    for i in range(13):
        store.put(ALICE.ns(FACTS), f"f{i:02d}", {"text": f"fact number {i}"})
    lines = render_memories(export_user(store, ALICE, None)).splitlines()
    assert sum(line.startswith("  - fact number") for line in lines) == 10
    assert "  … and 3 more" in lines


def test_memory_switch_defaults_on_and_persists_per_user(backend_store: StoreOn) -> None:
    store = backend_store()
    assert is_memory_enabled(store, ALICE) is True
    set_memory_enabled(store, ALICE, False)
    assert is_memory_enabled(store, ALICE) is False
    assert is_memory_enabled(store, BOB) is True
    item = store.get(ALICE.ns(SETTINGS), MEMORY_SWITCH_KEY)
    assert item is not None and item.value["enabled"] is False
    set_memory_enabled(store, ALICE, True)
    assert is_memory_enabled(store, ALICE) is True
    with pytest.raises(TypeError, match="True or False"):
        set_memory_enabled(store, ALICE, "off")  # type: ignore[arg-type]
