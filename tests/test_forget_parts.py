"""Forget takes only what was asked: the other facts of the same message or episode stay.

Through the real CLI (scripted chat model, hash embeddings): "My name is Ana. I live in
Lisbon and I work as a nurse.", then "Forget that I live in Lisbon." Ana and the nurse
stay in the profile, the message log and the episode, recallable; no file of the data dir
holds "Lisbon". In process: a roll-up holding several sessions keeps the others' lines and
their times; the matching does not reach a longer word ("nurse" is not "nursing"); a
request that matches nothing says so in one line and changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from langgraph.store.memory import InMemoryStore

from memory.privacy.forget import UserData, forget, would_forget
from memory.privacy.forget_parts import Needle
from models.loader import HashEmbeddings
from stores.namespaces import EPISODES, FACTS, MESSAGES, UserScope
from stores.open import open_store
from tests.support.cli import scripted_cli

ALICE = UserScope("alice")


_cli = scripted_cli  # tests/support/cli.py: scripted model, hash embeddings, review off


def _chat(data: Path, *lines: str) -> str:
    return _cli(data, "chat", "--user", "alice", "--thread", "s1", stdin="\n".join(lines) + "\n/quit\n")


def _files_with(data: Path, word: bytes) -> list[str]:
    return [str(p.relative_to(data)) for p in data.rglob("*") if p.is_file() and word in p.read_bytes().lower()]


def _recall(data: Path, kind: str, query: str) -> list[str]:
    queries = data.parent / "queries.jsonl"
    queries.write_text(json.dumps({"id": "q", "query": query}) + "\n")
    return [r["text"] for r in json.loads(_cli(data, "recall", "--user", "alice", "--kind", kind, str(queries)))["results"]]


def test_forgetting_one_fact_of_a_message_keeps_the_other_through_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _chat(data, "My name is Ana. I live in Lisbon and I work as a nurse.", "/end")
    assert _files_with(data, b"lisbon")  # the premise: the byte search can fail
    before = json.loads(_cli(data, "memories", "--user", "alice", "--json"))

    nothing = _cli(data, "forget", "--user", "alice", "Zanzibar")
    assert nothing.strip() == "forget 'Zanzibar': nothing matched, nothing deleted."
    after_nothing = json.loads(_cli(data, "memories", "--user", "alice", "--json"))
    assert {k: v for k, v in after_nothing.items() if k != "exported_at"} == {
        k: v for k, v in before.items() if k != "exported_at"}

    done = _chat(data, "Forget that I live in Lisbon.", "y")
    assert "agent> Done: I deleted" in done and "kept those" in done
    assert _files_with(data, b"lisbon") == []  # SQLite (WAL included), FAISS files, checkpoints

    after = json.loads(_cli(data, "memories", "--user", "alice", "--json"))
    distilled = json.dumps([after["profile"], after["facts"]])
    assert "Ana" in distilled and "nurse" in distilled and "Lisbon" not in distilled
    [episode] = after["episodes"]
    assert episode["text"] == "User: My name is Ana.\nUser: I work as a nurse."
    assert "lisbon" not in json.dumps(episode["value"]["keywords"]).lower() and episode["value"]["forgotten"]
    assert any(t.endswith("user: My name is Ana. I work as a nurse.") for t in _recall(data, "message", "nurse job"))
    assert "User: I work as a nurse." in _recall(data, "episode", "nurse job")[0]
    assert "The user works as a nurse." in _recall(data, "profile", "nurse job")  # occupation is a profile slot
    store = open_store(str(data), "hash:384")
    try:
        [said] = [i.value for i in store.search(ALICE.ns(MESSAGES), limit=10) if i.value["role"] == "user"]
        assert said["text"] == "My name is Ana. I work as a nurse." and said["forgotten"][0]["by"] == "forget request"
    finally:
        store.close()  # type: ignore[attr-defined]


def _store() -> InMemoryStore:
    return InMemoryStore(index={"dims": 64, "embed": HashEmbeddings(64), "fields": ["text"]})


def test_a_rollup_of_several_sessions_keeps_the_other_sessions_lines_and_times() -> None:
    store = _store()
    lines = ["Week 49 (01 Dec–07 Dec 2026):", "User: I'm allergic to peanuts.",
             "User: I live in Lisbon.", "User: I work as a nurse, and my sister lives in Lisbon too.",
             "User: My cat is called Miso."]
    times = ["2026-12-01T10:00:00+00:00", "2026-12-02T10:00:00+00:00", "2026-12-03T10:00:00+00:00",
             "2026-12-04T10:00:00+00:00"]
    store.put(ALICE.ns(EPISODES), "week-2026-49", {
        "text": "\n".join(lines), "level": "week", "line_times": times, "sources": ["m1", "m2", "m3", "m4"],
        "keywords": ["peanuts", "lisbon", "nurse", "miso"]})
    report = forget(UserData(store, ALICE), "Lisbon", threshold=1.01)
    assert report.cut == {EPISODES: ["week-2026-49"]} and report.deleted == {}
    value = store.get(ALICE.ns(EPISODES), "week-2026-49").value  # type: ignore[union-attr]
    assert value["text"].splitlines() == [lines[0], lines[1], "User: I work as a nurse.", lines[4]]
    assert value["line_times"] == [times[0], times[2], times[3]]  # each kept line keeps its session's time
    assert value["keywords"] == ["peanuts", "nurse", "miso"]
    assert "lisbon" not in json.dumps(value).lower()


def test_the_matching_does_not_reach_a_longer_word() -> None:
    store = _store()
    store.put(ALICE.ns(MESSAGES), "m1", {"id": "m1", "text": "I love nursing. I live in Lisbon.", "role": "user",
                                         "thread": "t", "time": "2026-12-01T10:00:00+00:00"})
    store.put(ALICE.ns(FACTS), "f1", {"text": "The user studied nursing.", "sources": ["m1"]})
    assert would_forget(UserData(store, ALICE), "nurse", threshold=1.01) == {}
    assert str(forget(UserData(store, ALICE), "nurse", threshold=1.01)) == (
        "forget 'nurse': nothing matched, nothing deleted. Conversation threads were not searched from here "
        "and may still hold it; run /forget in the chat or `memory-agent forget` to delete those threads too.")
    assert would_forget(UserData(store, ALICE), "Lisbon", threshold=1.01) == {MESSAGES: ["I live in Lisbon"]}
    forget(UserData(store, ALICE), "Lisbon", threshold=1.01)
    assert store.get(ALICE.ns(MESSAGES), "m1").value["text"] == "I love nursing."  # type: ignore[union-attr]
    assert store.get(ALICE.ns(FACTS), "f1") is not None


def test_a_cut_keeps_the_rest_of_the_sentence_readable() -> None:
    lisbon = Needle("Lisbon")
    assert lisbon.cut("I live in Lisbon and work as a nurse.") == "I work as a nurse."
    assert lisbon.cut("You live in Lisbon and work as a nurse!") == "You work as a nurse!"
    assert lisbon.cut("Lisbon's trams, I love them. My name is Ana.") == "I love them. My name is Ana."
    assert lisbon.cut("I live in Lisbon.") == ""
    assert Needle("peanuts").cut("A peanut allergy. I am a nurse.") == "I am a nurse."
    assert Needle("nurse").cut("Nurses work nights. I like nursing.") == "I like nursing."
    text = "nothing here"
    assert lisbon.cut(text) is text  # unchanged text is the same object (no rewrite)


def test_a_near_match_loses_the_near_part_or_goes_whole_without_embeddings() -> None:
    """Found by meaning, not by the words: with embeddings only the part near the request is cut."""
    said = {"id": "m1", "text": "Berlin is where I live. I work as a nurse.", "role": "user", "thread": "t",
            "time": "2026-12-01T10:00:00+00:00"}
    store, emb = _store(), HashEmbeddings(64)
    store.put(ALICE.ns(MESSAGES), "m1", said)
    assert store.search(ALICE.ns(MESSAGES), query="I live in Berlin")[0].score >= 0.6  # the premise: a near match
    report = forget(UserData(store, ALICE, embeddings=emb), "I live in Berlin", threshold=0.6)
    assert report.cut == {MESSAGES: ["m1"]}
    assert store.get(ALICE.ns(MESSAGES), "m1").value["text"] == "I work as a nurse."  # type: ignore[union-attr]
    store = _store()
    store.put(ALICE.ns(MESSAGES), "m1", said)
    assert forget(UserData(store, ALICE), "I live in Berlin", threshold=0.6).deleted == {MESSAGES: ["m1"]}


def test_forgetting_one_value_of_a_list_keeps_the_others_through_the_cli(tmp_path: Path) -> None:
    """"Forget that I speak Spanish." finds "speaks French and Spanish" and keeps French everywhere."""
    data = tmp_path / "data"
    _chat(data, "I speak French and Spanish.", "/end")
    slot = json.loads(_cli(data, "memories", "--user", "alice", "--json"))["profile"]["current"]
    assert [(s["key"], s["value"]["values"]) for s in slot] == [("language", ["French", "Spanish"])]  # the premise

    done = _chat(data, "Forget that I speak Spanish.", "y")
    assert "agent> Done:" in done and "kept those" in done
    assert _files_with(data, b"spanish") == []
    after = json.loads(_cli(data, "memories", "--user", "alice", "--json"))
    kept = after["profile"]["current"]
    assert [(s["text"], s["value"]["values"], s["value"]["value"]) for s in kept] == [
        ("The user speaks French.", ["French"], "French")]
    assert kept[0]["value"]["forgotten"][0]["by"] == "forget request"
    store = open_store(str(data), "hash:384")
    try:
        said = [i.value["text"] for i in store.search(ALICE.ns(MESSAGES), limit=10) if i.value["role"] == "user"]
    finally:
        store.close()  # type: ignore[attr-defined]
    assert said == ["I speak French."]


def test_only_a_list_item_is_cut_never_a_clause_part() -> None:
    """A list loses the one item; words that are a clause's subject, or sit beside a verb or an
    adjective, are not an item, and the record goes whole (None) rather than read wrong.
    """
    cases = {
        ("German", "The user speaks French, German and Spanish."): "The user speaks French and Spanish.",
        ("Spanish", "The user speaks French, German and Spanish."): "The user speaks French and German.",
        ("cat", "The user has a dog and a cat."): "The user has a dog.",
        ("dog", "The user has a black dog and a cat."): None,
        ("Tom", "Tom and I broke up."): None,
        ("smoking", "I love smoking and started running."): None,
        ("Spanish", "I love Italian food and Spanish food."): None,
        ("Lisbon", "The user moved from Lisbon to Porto."): None,
    }
    assert {k: Needle(k[0]).cut_items(k[1]) for k in cases} == cases
    assert Needle("cat").cut("I have a dog and a cat. I live in Oslo.") == "I have a dog. I live in Oslo."
