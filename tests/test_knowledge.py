"""The shared knowledge base through the real CLI: operator-only writes, cited recall, atomic re-adds.

Every ``knowledge`` command runs as its own ``memory-agent`` call (in this process, a restart
each: tests/support/knowledge.py) on a real data dir (FAISS + SQLite, hash embeddings); chat
runs on the scripted model. The write gate and the server's
store handler are driven directly on a real store.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.backends import BackendUnderTest
from tests.support.knowledge import POLICY, chat
from tests.support.knowledge import cli as _cli
from tests.support.knowledge import search as _search


def _files_with(data: Path, needle: bytes) -> list[str]:
    return [str(p) for p in data.rglob("*") if p.is_file() and needle.lower() in p.read_bytes().lower()]


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "shipping").mkdir(parents=True)
    (folder / "returns.md").write_text(POLICY, encoding="utf-8")
    (folder / "shipping" / "ship.html").write_text(
        "<html><style>p{}</style><h1>Shipping</h1><p>Parcels leave <b>Lyon</b> on weekdays.</p></html>",
        encoding="utf-8")
    return folder


def test_add_list_search_cite_then_remove_leaves_no_bytes(tmp_path: Path, docs: Path,
                                                          backend: BackendUnderTest) -> None:
    data = tmp_path / "data"
    added = _cli(data, "knowledge", "add", str(docs))
    assert "2 added" in added.stdout and "0 refused" in added.stdout
    listed = _cli(data, "knowledge", "list").stdout
    assert str(docs / "returns.md") in listed and str(docs / "shipping" / "ship.html") in listed
    hits = _search(data, "can I return cheese food", k=3)
    assert hits[0]["title"] == "returns.md" and hits[0]["section"] == "Returns / Food"
    assert "zorblaxpolicy" in hits[0]["text"]
    human = _cli(data, "knowledge", "search", "parcels Lyon").stdout
    assert "ship.html, section 'Shipping', chunk 1" in human
    assert backend.files_containing(data, b"zorblaxpolicy")  # stored somewhere before removal

    gone = _cli(data, "knowledge", "remove", "returns.md")
    assert "removed" in gone.stdout and "returns.md" in gone.stdout
    assert not [h for h in _search(data, "zorblaxpolicy cheese returned") if h["title"] == "returns.md"]
    assert str(docs / "returns.md") not in _cli(data, "knowledge", "list").stdout
    assert backend.files_containing(data, b"zorblaxpolicy") == []
    assert "ship.html" in _cli(data, "knowledge", "list").stdout  # the other document stays
    unknown = _cli(data, "knowledge", "remove", "returns.md", ok=False)
    assert unknown.returncode == 2 and len(unknown.stderr.strip().splitlines()) == 1


def test_a_changed_file_gives_exactly_its_new_chunks_and_an_unchanged_one_is_skipped(
        tmp_path: Path, backend: BackendUnderTest) -> None:
    data, doc = tmp_path / "data", tmp_path / "manual.md"
    doc.write_text("# Old\n\noldmarker alpha text.\n\n# Older\n\noldmarker beta text.\n", encoding="utf-8")
    assert "1 added" in _cli(data, "knowledge", "add", str(doc)).stdout
    doc.write_text("# New\n\nnewmarker gamma text.\n", encoding="utf-8")
    assert "1 replaced" in _cli(data, "knowledge", "add", str(doc)).stdout
    hits = _search(data, "oldmarker newmarker text")
    assert [(h["section"], h["text"]) for h in hits] == [("New", "newmarker gamma text.")]
    assert "1 chunk(s)" in _cli(data, "knowledge", "list").stdout
    assert "1 unchanged" in _cli(data, "knowledge", "add", str(doc)).stdout


def test_bad_inputs_get_one_line_each_and_nothing_half_stored(tmp_path: Path, docs: Path) -> None:
    data = tmp_path / "data"
    (docs / "empty.txt").write_bytes(b"")
    (docs / "tool.py").write_text("print('code is no document')\n")  # in a folder: skipped, not refused
    (docs / "scan.pdf").write_bytes(os.urandom(4096))
    with (docs / "huge.txt").open("wb") as fh:
        fh.truncate(50 * 1024 * 1024)  # a 50 MB file (sparse: the size check comes before any read)
    (docs / "loop.md").symlink_to(docs / "loop.md")
    outside = tmp_path / "secret.md"
    outside.write_text("# Private\n\nsecretmarker outside the folder.\n", encoding="utf-8")
    (docs / "escape.md").symlink_to(outside)
    done = _cli(data, "knowledge", "add", "--no-progress", str(docs), str(tmp_path / "missing.md"), ok=False)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 6, done.stderr
    reasons = {line.split(": ", 1)[0].removeprefix("refused "): line for line in lines}
    assert "empty" in reasons[str(docs / "empty.txt")]
    assert "not a PDF" in reasons[str(docs / "scan.pdf")]
    assert "over the 21 MB limit" in reasons[str(docs / "huge.txt")]
    assert "symlink loop" in reasons[str(docs / "loop.md")]
    assert "outside" in reasons[str(docs / "escape.md")]
    assert "no such file" in reasons[str(tmp_path / "missing.md")]
    assert "2 added" in done.stdout and "6 refused" in done.stdout and "1 skipped" in done.stdout
    listed = _cli(data, "knowledge", "list").stdout.splitlines()
    assert sorted(Path(line.split("\t")[0]).name for line in listed) == ["returns.md", "ship.html"]
    assert _files_with(data, b"secretmarker") == []


def test_memory_and_knowledge_stay_apart(tmp_path: Path, docs: Path, backend: BackendUnderTest) -> None:
    """A user's memory never shows in knowledge results, knowledge never in the user's export,
    and the user's forget never deletes knowledge.
    """
    data = tmp_path / "data"
    _cli(data, "knowledge", "add", str(docs))
    log = tmp_path / "alice.jsonl"
    log.write_text(json.dumps({"thread": "t1", "id": "m1", "time": "2025-01-01T10:00:00+00:00", "role": "user",
                               "text": "My locker code word is quuxmemory and I keep cheese in it."}) + "\n")
    _cli(data, "import", "--user", "alice", "--no-progress", str(log))
    export = _cli(data, "memories", "--user", "alice", "--json").stdout
    assert "quuxmemory" in export
    assert "zorblaxpolicy" not in export and "Parcels" not in export
    assert not [h for h in _search(data, "quuxmemory locker cheese") if "quuxmemory" in h["text"]]
    _cli(data, "forget", "--user", "alice", "cheese")  # in alice's memory and in the policy
    assert any("zorblaxpolicy" in h["text"] for h in _search(data, "zorblaxpolicy cheese"))
    _cli(data, "delete-user", "alice")
    assert any("zorblaxpolicy" in h["text"] for h in _search(data, "zorblaxpolicy cheese"))


def test_the_write_gate_lets_users_read_knowledge_and_write_none(tmp_path: Path, docs: Path) -> None:
    from memory.tools.memory_tools import make_memory_tools
    from memory.write_policy.gate import KnowledgeReadOnly, MemoryGate
    from stores.namespaces import KNOWLEDGE_CHUNKS, KNOWLEDGE_DOCS, UserScope
    from stores.open import open_store

    data = tmp_path / "data"
    _cli(data, "knowledge", "add", str(docs))
    store = open_store(str(data), "hash:384")
    try:
        gate = MemoryGate(store, UserScope("alice"))
        assert gate.search(KNOWLEDGE_CHUNKS, query="cheese returns", limit=3)
        for write in (lambda: gate.put(KNOWLEDGE_CHUNKS, "x", {"text": "planted", "sources": ["m1"]}),
                      lambda: gate.put(KNOWLEDGE_DOCS, "x", {"text": "planted", "sources": ["m1"]}),
                      lambda: gate.delete(KNOWLEDGE_CHUNKS, gate.search(KNOWLEDGE_CHUNKS, limit=1)[0].key)):
            with pytest.raises(KnowledgeReadOnly):
                write()
        from core.context import Context
        from memory.layers.base import LayerEnv
        from models.loader import load_embeddings

        env = LayerEnv(store=store, scope=UserScope("alice"), context=Context(user_id="alice"),
                       embeddings=load_embeddings("hash:384"))
        tools = {t.name: t for t in make_memory_tools(env)}
        tools["forget"].invoke({"text": "zorblaxpolicy"})
        assert any("zorblaxpolicy" in h.value["text"] for h in store.search(KNOWLEDGE_CHUNKS, query="zorblaxpolicy"))
    finally:
        store.close()  # type: ignore[attr-defined]


def test_server_store_auth_lets_only_an_operator_write_knowledge(monkeypatch: pytest.MonkeyPatch) -> None:
    from langgraph_sdk import Auth

    from core.auth_tokens import StaticTokens, active_verifier
    from core.identity import AUTHENTICATED
    from graph import auth as server_auth

    def status(user: str, action: str) -> int:
        ctx = Auth.types.AuthContext(user=SimpleNamespace(identity=user), permissions=[AUTHENTICATED],  # type: ignore[arg-type]
                                     resource="store", action=action)
        value = {"namespace": ("knowledge", "chunks"), "key": "k", "value": {"text": "planted"}}
        try:
            asyncio.run(server_auth.own_namespaces(ctx, value))
        except Auth.exceptions.HTTPException as err:
            return err.status_code
        return 200

    before = active_verifier()
    monkeypatch.setenv("MEMORY_AUTH_OPERATORS", "ops")
    server_auth.use_verifier(StaticTokens.parse("tok-a=alice, tok-o=ops"))
    try:
        assert [status("alice", a) for a in ("get", "search", "put", "delete")] == [200, 200, 403, 403]
        assert [status("ops", a) for a in ("put", "delete")] == [200, 200]
    finally:
        server_auth.use_verifier(before)
    assert status("anonymous", "put") == 403  # a server running open has no operator to trust


def test_a_turns_prompt_cites_the_document_beside_the_profile(tmp_path: Path, docs: Path) -> None:
    data = tmp_path / "data"
    _cli(data, "knowledge", "add", str(docs))
    transcript = chat(data, "alice", "My name is Alice and I live in Paris.", "Can I return cheese after a week?",
                      "/prompt", "/quit")
    prompt = transcript.split("----- system prompt -----", 1)[1].split("----- end of prompt -----", 1)[0]
    assert '<memories kind="profile">' in prompt and "Paris" in prompt
    knowledge = prompt.split("<knowledge>", 1)[1].split("</knowledge>", 1)[0]
    assert '"returns.md § Returns / Food, chunk 2"' in knowledge and "zorblaxpolicy" in knowledge
    assert prompt.index("<knowledge>") > prompt.index('<memories kind="profile">')


def test_a_long_document_never_crowds_out_the_profile_or_facts() -> None:
    from core.context import Context
    from nodes.assemble import memory_prompt

    passages = [{"kind": "knowledge", "text": f"passage {n} " + "filler " * 150, "score": 0.9, "sources": [],
                 "meta": {"title": "manual.md", "section": "Part", "chunk": n + 1}} for n in range(40)]
    memories = [{"kind": "profile", "text": "User lives in Paris", "score": 1.0, "sources": ["m1"], "key": "city"},
                {"kind": "fact", "text": "User is allergic to peanuts", "score": 0.2, "sources": ["m2"]}]
    ctx = Context(knowledge_budget_tokens=600, memory_budget_tokens=800)
    prompt = memory_prompt(ctx, passages + memories)
    assert "User lives in Paris" in prompt and "User is allergic to peanuts" in prompt
    assert 1 <= prompt.count("manual.md § Part") <= 3
