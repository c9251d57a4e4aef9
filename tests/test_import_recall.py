"""Conversation import (all or nothing) and batch recall (the JSONL contracts in docs/architecture.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from core.context import Context
from memory.layers.base import LayerBase, LayerEnv, LoggedMessage, Recalled
from memory.layers.message_log import MessageLogLayer
from models.loader import HashEmbeddings
from nodes.importer import ImportLineError, import_jsonl
from nodes.recall import QueryLineError, recall_queries
from stores.faiss_sqlite import FaissSqliteStore
from stores.namespaces import FACTS, MESSAGES, UserScope
from tests.support import cli as in_process

DATA = Path(__file__).parent / "fixtures" / "small_import.jsonl"
GOOD = json.loads(DATA.read_text().splitlines()[0])


@pytest.fixture
def env(tmp_path: Path) -> LayerEnv:
    emb = HashEmbeddings(64)
    store = FaissSqliteStore(tmp_path / "store", index={"dims": 64, "embed": emb, "fields": ["text"]})
    return LayerEnv(store=store, scope=UserScope("alice"), context=Context(top_k=5), embeddings=emb)


class Spy(LayerBase):
    """Records the protocol calls; optionally writes a fact per session, or fails on one thread."""

    name = "spy"

    def __init__(self, fail_on: str | None = None) -> None:
        self.calls: list[tuple[str, str, int, datetime]] = []
        self.fail_on = fail_on

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> None:
        self.calls.append(("turn", turn[0].thread, len(turn), env.now))

    def on_session_end(self, env: LayerEnv, session: Sequence[LoggedMessage]) -> None:
        self.calls.append(("end", session[0].thread, len(session), env.now))
        env.store.put(env.scope.ns(FACTS), "pet", {"text": f"fact from {session[0].thread}", "sources": [session[0].id]})
        if session[0].thread == self.fail_on:
            raise RuntimeError("extractor crashed")

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        self.calls.append(("recall", query, env.context.top_k, env.now))
        return [
            Recalled(kind="fact", text="Alice has a greyhound", score=0.95, sources=("t1-1",)),
            Recalled(kind="summary", text="thread summary", score=0.99),
            Recalled(kind="fact", text="Alice likes trams", score=0.01, sources=("t2-1",)),
        ]


def _keys(env: LayerEnv, kind: str) -> dict[str, dict[str, Any]]:
    return {it.key: it.value for it in env.store.search(env.scope.ns(kind), limit=1000)}


def test_import_stores_every_message_and_replays_threads_in_time_order(env: LayerEnv) -> None:
    spy = Spy()
    report = import_jsonl(DATA, env, [MessageLogLayer(), spy], progress=False)
    assert (report.messages, report.threads, report.layers) == (7, 2, ("message_log", "spy"))
    assert set(_keys(env, MESSAGES)) == {"t1-1", "t1-2", "t1-3", "t1-4", "t2-1", "t2-2", "t2-3"}
    assert [c[:3] for c in spy.calls] == [("turn", "intro", 4), ("end", "intro", 4), ("turn", "trip", 3), ("end", "trip", 3)]
    assert spy.calls[1][3] == datetime(2024, 3, 1, 18, 1, 30, tzinfo=UTC)  # "now" = end of that session
    assert _keys(env, MESSAGES)["t1-4"]["name"] is None
    import_jsonl(DATA, env, [MessageLogLayer()], progress=False)  # re-import: still one item per id
    assert len(_keys(env, MESSAGES)) == 7


def _everything(env: LayerEnv) -> dict[tuple[str, ...], dict[str, Any]]:
    """Every item of the user, by namespace and key: the store's whole state as far as the user goes."""
    out: dict[tuple[str, ...], dict[str, Any]] = {}
    for ns in env.store.list_namespaces(prefix=env.scope.root):
        for it in env.store.search(ns, limit=10_000):
            out[(*ns, it.key)] = it.value
    return out


def _without(field: str) -> str:
    return json.dumps({k: v for k, v in GOOD.items() if k != field} | {"id": "b1"})


@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        ('{"thread": "x", "id": "b1", "time": ', r"invalid JSON \(.* at column \d+\)"),
        ("[1, 2]", "expected a JSON object"),
        (_without("text"), "field 'text': missing"),
        (_without("time"), "field 'time': missing"),
        (_without("thread"), "field 'thread': missing"),
        (json.dumps(GOOD | {"id": "b1", "role": "system"}), "field 'role': .*'user' or 'assistant'.*got 'system'"),
        (json.dumps(GOOD | {"id": "b1", "time": "last Tuesday"}), "field 'time': not an ISO-8601 date-time, got 'last Tuesday'"),
        (json.dumps(GOOD | {"id": "b1", "time": 1710061200}), "field 'time': .*string.*got 1710061200"),
        (json.dumps(GOOD | {"id": "b1", "name": 7}), "field 'name': .*string.*got 7"),
        (json.dumps(GOOD | {"id": 7}), "field 'id': .*string.*got 7"),
        (json.dumps(GOOD | {"id": "b1", "thread": "  "}), "field 'thread': must not be empty, got '  '"),
        (json.dumps(GOOD), "field 'id': duplicate id 't2-1' \\(first on line 1\\)"),
    ],
)
def test_malformed_line_names_the_line_and_field_and_stores_nothing(
    env: LayerEnv, tmp_path: Path, bad_line: str, reason: str
) -> None:
    env.store.put(env.scope.ns(MESSAGES), "old-1", {"id": "old-1", "text": "an older message"})
    env.store.put(env.scope.ns(FACTS), "pet", {"text": "Alice has a cat", "sources": ["m0"]})
    before = _everything(env)
    lines = DATA.read_text().splitlines()
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines[:5] + [bad_line] + lines[5:]) + "\n")
    spy = Spy()
    with pytest.raises(ImportLineError, match=rf"^{re.escape(str(path))}, line 6: {reason}; nothing was imported$") as err:
        import_jsonl(path, env, [MessageLogLayer(), spy], progress=False)
    assert err.value.line_no == 6 and "\n" not in str(err.value)
    assert _everything(env) == before and spy.calls == []


def test_extra_fields_are_ignored_and_an_empty_name_is_no_name(env: LayerEnv, tmp_path: Path) -> None:
    path = tmp_path / "extra.jsonl"
    path.write_text(json.dumps(GOOD | {"name": "", "mood": "happy", "evidence": ["x"]}) + "\n")
    report = import_jsonl(path, env, [MessageLogLayer()], progress=False)
    assert report.messages == 1
    stored = _keys(env, MESSAGES)[GOOD["id"]]
    assert stored["name"] is None and "mood" not in stored and stored["text"] == GOOD["text"]


def test_cli_import_of_a_bad_file_prints_one_line_and_keeps_what_was_stored(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[1]
    run_env = {**os.environ, "PYTHONPATH": str(repo), "MEMORY_DATA_DIR": str(tmp_path / "d")}
    base = [sys.executable, "-m", "app.cli", "--chat-model", "scripted", "--embedding-model", "hash:64"]

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return in_process.run([*base, *args], env=run_env, capture_output=True, text=True, timeout=120)

    def memories() -> dict[str, Any]:
        export = json.loads(cli("memories", "--user", "u1", "--json").stdout)
        export.pop("exported_at")
        return export

    assert cli("import", "--user", "u1", "--no-progress", str(DATA)).returncode == 0
    before = memories()
    assert before["messages"]["total"] == 7
    bad = tmp_path / "bad.jsonl"
    bad.write_text(DATA.read_text() + json.dumps(GOOD | {"id": "new-1", "role": "robot"}) + "\n")
    out = cli("import", "--user", "u1", "--no-progress", str(bad))
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().count("\n") == 0, out.stderr
    assert "line 9: field 'role'" in out.stderr and "got 'robot'" in out.stderr and "nothing was imported" in out.stderr
    assert memories() == before


def test_failed_import_rolls_back_and_keeps_existing_memories(env: LayerEnv) -> None:
    facts, messages = env.scope.ns(FACTS), env.scope.ns(MESSAGES)
    env.store.put(facts, "pet", {"text": "Alice has a cat", "sources": ["m0"]})  # overwritten by the import, then restored
    env.store.put(facts, "city", {"text": "Alice lives in Porto", "sources": ["m0"]})
    env.store.put(messages, "old-1", {"id": "old-1", "text": "an older message"})
    with pytest.raises(RuntimeError, match="extractor crashed"):
        import_jsonl(DATA, env, [MessageLogLayer(), Spy(fail_on="trip")], progress=False)
    assert set(_keys(env, MESSAGES)) == {"old-1"}
    assert _keys(env, FACTS) == {"pet": {"text": "Alice has a cat", "sources": ["m0"]},
                                 "city": {"text": "Alice lives in Porto", "sources": ["m0"]}}


def _queries(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "queries.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_recall_output_shape_kinds_and_order(env: LayerEnv, tmp_path: Path) -> None:
    layers = [MessageLogLayer(), Spy()]
    import_jsonl(DATA, env, layers, progress=False)
    path = _queries(
        tmp_path,
        json.dumps({"id": "q1", "query": "What is the greyhound called?", "time": "2024-04-01T00:00:00Z", "answer": "ignored"}),
        json.dumps({"id": "q2", "query": "Lisbon tram"}),
    )
    out = list(recall_queries(path, env, layers, k=3))
    assert [o["id"] for o in out] == ["q1", "q2"]
    for o in out:
        assert set(o) == {"id", "results"} and len(o["results"]) == 3
        scores = [r["score"] for r in o["results"]]
        assert scores == sorted(scores, reverse=True)
        for r in o["results"]:
            assert set(r) == {"kind", "text", "score", "sources"} and r["kind"] in {"message", "fact"}
            if r["kind"] == "message":
                assert len(r["sources"]) == 1
    assert out[0]["results"][0] == {"kind": "fact", "text": "Alice has a greyhound", "score": 0.95, "sources": ["t1-1"]}
    assert "thread summary" not in json.dumps(out)
    recall_calls = [c for c in layers[1].calls if c[0] == "recall"]
    assert recall_calls[0][2:] == (3, datetime(2024, 4, 1, tzinfo=UTC))  # k and the query's "now"

    only_messages = list(recall_queries(path, env, layers, k=2, kind="message"))
    assert all(r["kind"] == "message" for o in only_messages for r in o["results"])
    assert only_messages[1]["results"][0]["sources"] == ["t2-1"]


def test_unknown_kind_and_malformed_queries_error_before_running(env: LayerEnv, tmp_path: Path) -> None:
    spy = Spy()
    good = json.dumps({"id": "q1", "query": "hello"})
    with pytest.raises(ValueError, match="unknown kind 'summary'"):
        recall_queries(_queries(tmp_path, good), env, [spy], k=3, kind="summary")
    assert spy.calls == []


@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        ('{"id": "q2", "query": ', "invalid JSON"),
        ('"just a string"', "expected a JSON object"),
        (json.dumps({"id": "q2"}), "field 'query': missing"),
        (json.dumps({"query": "where?"}), "field 'id': missing"),
        (json.dumps({"id": "q2", "query": ""}), "field 'query': must not be empty"),
        (json.dumps({"id": 2, "query": "where?"}), "field 'id': .*string.*got 2"),
        (json.dumps({"id": "q2", "query": "x", "time": "soon"}), "field 'time': not an ISO-8601 date-time, got 'soon'"),
        (json.dumps({"id": "q2", "query": "x", "time": 5}), "field 'time': .*string.*got 5"),
    ],
)
def test_malformed_query_line_names_the_line_and_field_and_runs_nothing(
    env: LayerEnv, tmp_path: Path, bad_line: str, reason: str
) -> None:
    spy = Spy()
    good = json.dumps({"id": "q1", "query": "hello", "time": "2024-04-01", "answer": 3, "evidence": ["t1-1"]})
    path = _queries(tmp_path, good, "", bad_line)
    with pytest.raises(QueryLineError, match=rf"^{re.escape(str(path))}, line 3: {reason}") as err:
        recall_queries(path, env, [spy], k=3)
    assert err.value.line_no == 3
    assert spy.calls == []


def test_query_time_is_optional_and_extra_fields_are_ignored(env: LayerEnv) -> None:
    spy = Spy()
    lines = [json.dumps({"id": "q1", "query": "hello", "time": None, "answer": 3}), json.dumps({"id": "q2", "query": "x", "time": "2024-04-01"})]
    out = list(recall_queries(lines, env, [spy], k=1))
    assert [o["id"] for o in out] == ["q1", "q2"]
    recall_nows = [c[3] for c in spy.calls if c[0] == "recall"]
    assert recall_nows == [env.now, datetime(2024, 4, 1, tzinfo=UTC)]
