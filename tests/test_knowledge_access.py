"""The knowledge base's access rules and ingest guarantees on both backends (FAISS + SQLite, Postgres).

tests/test_knowledge.py runs most of them on both already; this adds, on both: every
user path that writes (an agent tool, a chat command, an MCP tool, the gate itself)
leaves knowledge exactly as the operator stored it; a kill -9 mid-ingest leaves one
version whole; bad input stores nothing, not even a byte.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support import ROOT
from tests.support.backends import BackendUnderTest
from tests.support.knowledge import POLICY, chat, cli_env
from tests.support.knowledge import cli as _cli
from tests.support.knowledge import search as _search

pytestmark = pytest.mark.both_backends  # its subject: the same access rules and ingest guarantees on both stores


def _knowledge(data: Path) -> list[tuple[str, str, str]]:
    return sorted((h["title"], h["section"], h["text"]) for h in _search(data, "zorblaxpolicy returned cheese", k=50))


def test_no_tool_chat_command_mcp_tool_or_gate_writes_knowledge(tmp_path: Path, backend: BackendUnderTest) -> None:
    from tests.support.mcp_client import call, stdio_session

    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    (docs / "returns.md").write_text(POLICY, encoding="utf-8")
    _cli(data, "knowledge", "add", str(docs))
    before = _knowledge(data)
    assert any("zorblaxpolicy" in text for _, _, text in before)

    chat(data, "alice", "/remember The zorblaxpolicy says cheese is planted.", "/forget zorblaxpolicy",
         "Forget that zorblaxpolicy cheese.", "/quit")

    async def over_mcp() -> None:
        async with stdio_session(data, "alice") as s:
            await call(s, "remember", text="The zorblaxpolicy planted note.")
            preview = await call(s, "forget", text_or_id="zorblaxpolicy")
            await call(s, "forget", text_or_id="zorblaxpolicy", confirm=preview["confirm"])

    asyncio.run(over_mcp())
    _tools_and_gate_refuse(data)
    assert _knowledge(data) == before  # nothing planted, nothing deleted
    assert "1 chunk(s)" not in _cli(data, "knowledge", "list").stdout  # both chunks still listed


def _tools_and_gate_refuse(data: Path) -> None:
    from core.context import Context
    from memory.layers.base import LayerEnv
    from memory.tools.memory_tools import make_memory_tools
    from memory.write_policy.gate import KnowledgeReadOnly, MemoryGate
    from models.loader import load_embeddings
    from stores.namespaces import KNOWLEDGE_CHUNKS, KNOWLEDGE_DOCS, TASK_POOL, UserScope
    from stores.open import open_store

    store = open_store(str(data), "hash:384")
    try:
        env = LayerEnv(store=store, scope=UserScope("alice"), context=Context(user_id="alice", data_dir=str(data)),
                       embeddings=load_embeddings("hash:384"))
        tools = {t.name: t for t in make_memory_tools(env)}
        tools["remember"].invoke({"text": "The zorblaxpolicy is planted by a tool."})
        tools["forget"].invoke({"text": "zorblaxpolicy"})
        gate = MemoryGate(store, UserScope("alice"))
        key = gate.search(KNOWLEDGE_CHUNKS, limit=1)[0].key
        writes: list[Any] = [lambda: gate.put(KNOWLEDGE_CHUNKS, "x", {"text": "planted", "sources": ["m1"]}),
                             lambda: gate.put(KNOWLEDGE_DOCS, "x", {"text": "planted", "sources": ["m1"]}),
                             lambda: gate.put(TASK_POOL, "x", {"task": "planted", "sources": ["m1"]}),
                             lambda: gate.delete(KNOWLEDGE_CHUNKS, key)]
        for write in writes:
            with pytest.raises(KnowledgeReadOnly):
                write()
    finally:
        store.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("wait_s", [0.8, 1.6])
def test_a_kill_mid_ingest_leaves_one_version_whole_on_each_backend(tmp_path: Path, backend: BackendUnderTest,
                                                                    wait_s: float) -> None:
    """Killed at whatever point it reached, a re-add leaves the old version whole or the new one whole."""
    data, doc, sections = tmp_path / "data", tmp_path / "manual.md", 300

    def version(word: str) -> str:
        return "".join(f"# Part {n}\n\n{word} passage number {n} about returns.\n\n" for n in range(sections))

    doc.write_text(version("oldmarker"), encoding="utf-8")
    _cli(data, "knowledge", "add", str(doc))
    doc.write_text(version("newmarker"), encoding="utf-8")
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(data), "--embedding-model", "hash:384",
           "knowledge", "add", "--no-progress", str(doc)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=cli_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(wait_s)  # anywhere in the run: the property holds at every point
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    hits = _search(data, "passage number about returns", k=5 * sections)
    words = {("newmarker" if "newmarker" in h["text"] else "oldmarker") for h in hits}
    assert len(words) == 1 and len(hits) == sections
    assert f"{sections} chunk(s)" in _cli(data, "knowledge", "list").stdout


def test_bad_input_stores_not_a_byte_on_each_backend(tmp_path: Path, backend: BackendUnderTest) -> None:
    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    (docs / "empty.md").write_bytes(b"")
    (docs / "scan.pdf").write_bytes(b"%PDF-1.7 qwxgarbagemarker " + bytes(range(256)) * 8)
    with (docs / "huge.txt").open("wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    (docs / "loop.md").symlink_to(docs / "loop.md")
    outside = tmp_path / "private.md"
    outside.write_text("# Private\n\nqwxoutsidemarker stays out.\n", encoding="utf-8")
    (docs / "escape.md").symlink_to(outside)
    done = _cli(data, "knowledge", "add", "--no-progress", str(docs), ok=False)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 5, done.stderr
    assert "0 added" in done.stdout and "5 refused" in done.stdout
    assert _cli(data, "knowledge", "list").stdout == ""
    assert backend.files_containing(data, b"qwxoutsidemarker") == []
    assert backend.files_containing(data, b"qwxgarbagemarker") == []
