"""The write gate on the real store of both backends: scope, consent, redaction, provenance, size."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import BaseStore, GetOp, PutOp, SearchOp

from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.episodic import EpisodicLayer
from memory.privacy.consent import MEMORY_SWITCH_KEY, set_memory_enabled
from memory.write_policy.gate import MemoryGate, MemoryOff, MissingProvenance, OutsideScope, TooLarge
from models.loader import HashEmbeddings
from stores.namespaces import EPISODES, FACTS, MESSAGES, PROFILE, SETTINGS, THREADS, UserScope
from tests.support.backends import BackendUnderTest, StoreOn

pytestmark = pytest.mark.both_backends  # the gate guards both stores' write paths (and searches their bytes)

EMB = HashEmbeddings(64)
ALICE, BOB = UserScope("alice"), UserScope("bob")
PASSWORD = "hunter2-Blue"
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
OnDisk = Callable[[bytes], list[str]]


@pytest.fixture
def raw(backend_store: StoreOn) -> BaseStore:
    """The real store of each backend, recording in ``raw.ops`` the ops it is asked to run."""
    store = backend_store(64)
    run, ops = store.batch, []

    def batch(asked: Iterable[Any]) -> list[Any]:
        asked = list(asked)
        ops.extend(asked)
        return run(asked)

    store.batch = batch  # type: ignore[method-assign]
    store.ops = ops  # type: ignore[attr-defined]
    return store


@pytest.fixture
def on_disk(backend: BackendUnderTest, tmp_path: Path) -> OnDisk:
    """The files (data dir, and the database's own on Postgres) holding some bytes, any case."""
    return lambda needle: backend.files_containing(tmp_path, needle)


def fact(text: str, sources: list[str] | None = None) -> dict[str, Any]:
    return {"text": text, "sources": ["m1"] if sources is None else sources}


def test_another_users_namespace_is_refused_for_every_op(raw: Any) -> None:
    raw.put(BOB.ns(FACTS), "f1", fact("bob plays chess"))
    gate = MemoryGate(raw, ALICE)
    for call in (
        lambda: gate.put(BOB.ns(FACTS), "f2", fact("written as bob")),
        lambda: gate.delete(BOB.ns(FACTS), "f1"),
        lambda: gate.get(BOB.ns(FACTS), "f1"),
        lambda: gate.search(BOB.ns(FACTS)),
        lambda: gate.search(("users",)),
        lambda: gate.put(("other", "alice", "facts"), "f3", fact("outside users")),
        lambda: gate.list_namespaces(),
    ):
        with pytest.raises(OutsideScope, match="outside|prefix"):
            call()
    assert [i.key for i in raw.search(BOB.ns(FACTS))] == ["f1"]
    assert raw.search(("users", "alice")) == []
    assert gate.list_namespaces(prefix=ALICE.root) == []


def test_memory_off_refuses_puts_but_not_deletes_settings_or_threads(raw: Any, on_disk: OnDisk) -> None:
    gate = MemoryGate(raw, ALICE)
    gate.put(ALICE.ns(FACTS), "f1", fact("likes tea"))
    set_memory_enabled(gate, ALICE, False)  # SETTINGS: bookkeeping, passes the gate
    with pytest.raises(MemoryOff, match="long-term memory is off for this user; nothing was saved"):
        gate.put(ALICE.ns(FACTS), "f2", fact("I hate cilantro"))
    with pytest.raises(MemoryOff):  # the atomic path obeys the switch too
        gate.atomic_update(ALICE.ns(PROFILE), "diet", lambda cur: fact("The user is vegan."))
    gate.put(ALICE.ns(THREADS), "t1", {"thread_id": "t1"})
    gate.delete(ALICE.ns(FACTS), "f1")
    assert on_disk(b"cilantro") == []
    assert {i.key for i in raw.search(ALICE.root, limit=50)} == {"t1", MEMORY_SWITCH_KEY}
    # The cached switch is dropped when SETTINGS is written through the gate.
    set_memory_enabled(gate, ALICE, True)
    gate.put(ALICE.ns(FACTS), "f3", fact("likes coffee"))
    assert raw.get(ALICE.ns(FACTS), "f3") is not None


def test_the_switch_is_read_once_per_gate_not_once_per_op(raw: Any) -> None:
    set_memory_enabled(raw, ALICE, True)
    gate = MemoryGate(raw, ALICE)
    raw.ops.clear()
    gate.batch([PutOp(ALICE.ns(FACTS), f"f{i}", fact(f"fact {i}")) for i in range(50)])
    gate.batch([PutOp(ALICE.ns(FACTS), f"g{i}", fact(f"fact {i}")) for i in range(50)])
    reads = [op for op in raw.ops if isinstance(op, GetOp) and op.namespace == ALICE.ns(SETTINGS)]
    assert len(reads) == 1


def test_a_password_in_any_string_of_an_episode_is_redacted_on_disk(raw: Any, on_disk: OnDisk) -> None:
    gate = MemoryGate(raw, ALICE)
    value = {"text": "Session about the router.", "keywords": ["router", f"the password is {PASSWORD}"],
             "meta": {"notes": [{"said": f"my password is {PASSWORD}"}]}, "sources": ["m1"]}
    gate.put(ALICE.ns(EPISODES), "e1", value)
    stored = raw.get(ALICE.ns(EPISODES), "e1")
    assert stored is not None and "[REDACTED:password]" in stored.value["keywords"][1]
    assert stored.value["meta"]["notes"][0]["said"] == "my password is [REDACTED:password]"
    assert on_disk(PASSWORD.encode()) == []


def test_the_episodic_layer_cannot_store_a_password_it_copies_verbatim(raw: Any, on_disk: OnDisk) -> None:
    """The extractive summary copies sentences as they were said; the gate redacts them."""
    session = [
        LoggedMessage(id=f"m{i}", thread="t1", time=NOW + timedelta(minutes=i), role=role, text=text)  # type: ignore[arg-type]
        for i, (role, text) in enumerate([
            ("user", f"I decided the router password is {PASSWORD} from today."),
            ("assistant", "Done, the router is configured."),
        ])
    ]
    env = LayerEnv(store=raw, scope=ALICE, context=Context(user_id="alice"), embeddings=EMB, now=NOW)
    assert isinstance(env.store, MemoryGate)  # a raw store given to LayerEnv is gated on construction
    EpisodicLayer().on_session_end(env, session)
    [episode] = raw.search(ALICE.ns(EPISODES))
    assert "router" in episode.value["text"] and "[REDACTED:password]" in episode.value["text"]
    assert on_disk(PASSWORD.encode()) == []


def test_missing_provenance_is_refused(raw: Any) -> None:
    gate = MemoryGate(raw, ALICE)
    for ns, value in (
        (ALICE.ns(FACTS), {"text": "no sources"}),
        (ALICE.ns(FACTS), fact("empty sources", [])),
        (ALICE.ns(EPISODES), fact("a blank source", [""])),
        (ALICE.ns(MESSAGES), {"text": "a message without its id"}),
    ):
        with pytest.raises(MissingProvenance, match="nothing was saved"):
            gate.put(ns, "k", value)
    gate.put(ALICE.ns(MESSAGES), "m1", {"id": "m1", "text": "its own id is its provenance"})
    gate.put(ALICE.ns(THREADS), "t1", {"thread_id": "t1"})  # bookkeeping needs none
    assert {i.key for i in raw.search(ALICE.root, limit=50)} == {"m1", "t1"}


def test_oversize_values_are_refused(raw: Any) -> None:
    gate = MemoryGate(raw, ALICE, max_value_bytes=10_000, max_string_chars=2_000)
    with pytest.raises(TooLarge, match="2000"):
        gate.put(ALICE.ns(FACTS), "long", fact("x" * 2_001))
    with pytest.raises(TooLarge, match="10000"):
        gate.put(ALICE.ns(FACTS), "wide", {**fact("many parts"), "parts": ["y" * 1_000] * 11})
    assert raw.search(ALICE.root) == []


def test_a_refused_batch_writes_nothing(raw: Any) -> None:
    gate = MemoryGate(raw, ALICE)
    good = [PutOp(ALICE.ns(FACTS), f"ok{i}", fact(f"fine {i}")) for i in range(3)]
    with pytest.raises(MissingProvenance):
        gate.batch([*good, PutOp(ALICE.ns(FACTS), "bad", {"text": "no sources"})])
    with pytest.raises(OutsideScope):
        gate.batch([*good, SearchOp(BOB.root)])
    assert raw.search(ALICE.root) == []


def test_atomic_update_passes_the_rules_and_is_one_transaction(raw: Any) -> None:
    gate = MemoryGate(raw, ALICE)
    assert gate.atomic_update(ALICE.ns(PROFILE), "diet", lambda cur: fact(f"vegan, and my password is {PASSWORD}")) is not None
    stored = raw.get(ALICE.ns(PROFILE), "diet")
    assert stored is not None and PASSWORD not in stored.value["text"]
    same = gate.atomic_update(ALICE.ns(PROFILE), "diet", lambda cur: cur)  # unchanged: nothing written
    assert same == stored.value and raw.get(ALICE.ns(PROFILE), "diet").updated_at == stored.updated_at  # type: ignore[union-attr]
    with pytest.raises(MissingProvenance):
        gate.atomic_update(ALICE.ns(PROFILE), "diet", lambda cur: {"text": "lost its sources"})
    assert raw.get(ALICE.ns(PROFILE), "diet").value == stored.value  # type: ignore[union-attr]
    with pytest.raises(OutsideScope):
        gate.atomic_update(BOB.ns(PROFILE), "diet", lambda cur: fact("bob's"))
    assert gate.atomic_update(ALICE.ns(PROFILE), "diet", lambda cur: None) is None
    assert raw.get(ALICE.ns(PROFILE), "diet") is None


def test_a_layer_env_refuses_a_gate_for_another_user(raw: Any) -> None:
    with pytest.raises(ValueError, match="gated for user 'bob'"):
        LayerEnv(store=MemoryGate(raw, BOB), scope=ALICE, context=None, embeddings=EMB)


def test_the_async_path_applies_the_same_rules(raw: Any, on_disk: OnDisk) -> None:
    gate = MemoryGate(raw, ALICE)

    async def run() -> None:
        await gate.aput(ALICE.ns(FACTS), "f1", fact(f"my password is {PASSWORD}"))
        stored = await gate.aget(ALICE.ns(FACTS), "f1")
        assert stored is not None and stored.value["text"] == "my password is [REDACTED:password]"
        with pytest.raises(OutsideScope):
            await gate.aget(BOB.ns(FACTS), "f1")
        await gate.aput(ALICE.ns(SETTINGS), MEMORY_SWITCH_KEY, {"enabled": False})
        with pytest.raises(MemoryOff):
            await gate.aput(ALICE.ns(FACTS), "f2", fact("I hate cilantro"))
        await gate.adelete(ALICE.ns(FACTS), "f1")

    asyncio.run(run())
    assert raw.search(ALICE.ns(FACTS)) == []
    assert on_disk(PASSWORD.encode()) == [] and on_disk(b"cilantro") == []
