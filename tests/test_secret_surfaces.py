"""Secrets in every field a client or the model fills reach no file (issue 43, item 3).

In process, on real data dirs (SQLite store and checkpoints with their WAL, memory
files): the chat through ``app.cli.main``, import, knowledge add, the MCP tools'
object, the checkpoint saver with a server's run config, the store gate. After each,
a byte search of the data dir finds none of the planted secrets. Every test failed
on the code before this change.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from app.cli import main
from stores.checkpointer import open_checkpointer
from stores.namespaces import UserScope
from stores.open import open_store
from tests.support.agent_cli import files_with

FAST = ["--chat-model", "scripted", "--embedding-model", "hash:64"]

# (what is typed, the secret in it): the classes, with values of our own.
SAID = [
    ("my password is maple lantern velvet orbit", "maple lantern velvet orbit"),
    ("my passcode is 66319", "66319"),
    ("login: bob / Gr4nite-Owl", "Gr4nite-Owl"),
    ("user bob pass q7Vz!mx2", "q7Vz!mx2"),
    ("try curl -u admin:Pl4tyPus9 https://intranet.example/api", "Pl4tyPus9"),
    ("my 2FA backup codes are 3187-5520, 9046-2281", "9046-2281"),
    ("the cvv is 417", "cvv is 417"),
    ("security question answer: Captain Biscuit", "Captain Biscuit"),
]
# A key split over two messages: the first half, then the rest.
SPLIT = [("my api key starts with sk-proj-Rt5Wq", "sk-proj-Rt5Wq"), ("the rest is 8LmZx3Pq91Kd", "8LmZx3Pq91Kd"),
         ("here is my deploy token:", ""), ("Vb72KqLm0Zx4Tw", "Vb72KqLm0Zx4Tw"),
         ("my api key is Qw12Er34Ty56Ui78", "Qw12Er34Ty56Ui78"), ("Zp09Xc87Vb65", "Zp09Xc87Vb65")]


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for name in [n for n in os.environ if n.startswith("MEMORY_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("MEMORY_CONSOLIDATION_DELAY_S", "0")
    monkeypatch.setenv("MEMORY_REVIEW_RULES", "false")


def _chat(data: Path, monkeypatch: pytest.MonkeyPatch, thread: str, *lines: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*lines, "/quit"]) + "\n"))
    return main(["--data-dir", str(data), *FAST, "chat", "--user", "alice", "--thread", thread])


def _traces(data: Path, needles: list[str]) -> dict[str, list[str]]:
    return {n: found for n in needles if n and (found := _holding(data, n))}


def _holding(data: Path, needle: str) -> list[str]:
    """``files_with``, except that a digits-only needle must stand alone: a checkpoint's timings
    ("check_ms": 12.66319...) hold any five digits by chance, and are no trace of a passcode.
    """
    if not needle.isdigit():
        return files_with(data, needle)
    alone = re.compile(rb"(?<![\d.])" + needle.encode() + rb"(?![\d])")
    return sorted(str(p.relative_to(data)) for p in data.rglob("*") if p.is_file() and alone.search(p.read_bytes()))


def test_said_secrets_and_split_keys_reach_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    lines = [text for text, _ in SAID] + [text for text, _ in SPLIT] + ["and I work on billing.", "/end"]
    assert _chat(data, monkeypatch, "t1", *lines) == 0
    out = capsys.readouterr().out
    assert _traces(data, [s for _, s in SAID] + [s for _, s in SPLIT]) == {}
    assert out.count("note: Removed from your message") == len(SAID) + 5  # and the five parts of the split keys
    assert files_with(data, "I work on billing") != []  # the rest of what was said is kept


@pytest.mark.parametrize("thread", ["my-password-is-Tr0ub4dor&3", "sk-proj-Hq81ZpLm47Xc2Vb9Nn0d", "cvv_738"])
def test_a_thread_id_holding_a_secret_is_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], thread: str) -> None:
    data = tmp_path / "data"
    assert _chat(data, monkeypatch, thread, "hello there") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "secret" in err and thread not in err
    assert _traces(data, [thread, "hello there"]) == {}
    assert _chat(data, monkeypatch, "t-ok", "hello there") == 0  # an ordinary id still works


def test_an_import_id_holding_a_secret_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, log = tmp_path / "data", tmp_path / "log.jsonl"
    rows = [{"thread": "t1", "id": "m1", "time": "2026-01-05T10:00:00", "role": "user", "text": "Ada likes tea."},
            {"thread": "password_is_Qz81!xLm", "id": "m2", "time": "2026-01-05T10:01:00", "role": "user",
             "text": "and coffee"}]
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["--data-dir", str(data), *FAST, "import", "--user", "u", "--no-progress", str(log)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "Qz81" not in err
    assert _traces(data, ["Qz81!xLm", "Ada likes tea"]) == {}  # nothing imported


def test_operator_knowledge_is_redacted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, doc = tmp_path / "data", tmp_path / "wifi.md"
    doc.write_text("# Office\n\nThe guest wifi password is amber koala trumpet hill.\n\n"
                   "Deploy with api_key=Zk29Lq81Vm47Xp03 from the CI box.\n\nThe office opens at 9.\n")
    assert main(["--data-dir", str(data), *FAST, "knowledge", "add", "--no-progress", str(doc)]) == 0
    assert _traces(data, ["amber koala trumpet hill", "Zk29Lq81Vm47Xp03"]) == {}
    assert files_with(data, "The office opens at 9") != []


def test_checkpoint_metadata_from_a_run_config_is_redacted(tmp_path: Path) -> None:
    """What ``langgraph dev`` hands the saver: the run's metadata and context in the config."""
    from langgraph.checkpoint.base import empty_checkpoint

    saver = open_checkpointer(tmp_path)
    config = {"configurable": {"thread_id": "t1", "checkpoint_ns": "",
                               "persona": "a pirate; my password is velvet comet harbor stone"},
              "metadata": {"note": "user bob pass Wq8!zr5K", "curl -u ops:Hx7Tq2Lm": "dict key"}}
    saver.put(config, empty_checkpoint(), {"source": "input", "step": -1}, {})
    saver.conn.close()
    assert _traces(tmp_path, ["velvet comet harbor stone", "Wq8!zr5K", "Hx7Tq2Lm"]) == {}
    assert files_with(tmp_path, "a pirate") != []


def test_store_keys_labels_and_dict_keys(tmp_path: Path) -> None:
    from memory.write_policy.gate import MemoryGate, WriteRefused

    store = open_store(str(tmp_path), "hash:64")
    scope = UserScope("alice")
    gate = MemoryGate(store, scope, consent=False)
    facts = scope.ns("facts")
    with pytest.raises(WriteRefused, match="the key holds what looks like a secret"):
        gate.put(facts, "password=Kv82!pqL", {"text": "x", "sources": ["m1"]})
    with pytest.raises(WriteRefused, match="a namespace label holds"):
        gate.put((*scope.root, "cvv 552"), "k1", {"text": "x", "sources": ["m1"]})
    gate.put(facts, "k2", {"text": "likes tea", "sources": ["m1"], "extra": {"api_key=Mq71Zx92Lp04": "v"}})
    store.close()  # type: ignore[attr-defined]
    assert _traces(tmp_path, ["Kv82!pqL", "cvv 552", "Mq71Zx92Lp04"]) == {}
    assert files_with(tmp_path, "likes tea") != []


def test_memory_file_names_holding_a_secret_are_refused(tmp_path: Path) -> None:
    from memory.tools.memory_files import MemoryFileError, MemoryFiles

    files = MemoryFiles(tmp_path, UserScope("alice"))
    for path in ("/memories/password_is_Tr0ub4dor&3.md", "/memories/sk-proj-Hq81ZpLm47Xc2Vb9Nn0d/notes.md"):
        with pytest.raises(MemoryFileError, match="holds what looks like a secret"):
            files.create(path, "hello")
    files.create("/memories/notes.md", "hello")
    with pytest.raises(MemoryFileError, match="holds what looks like a secret"):
        files.rename("/memories/notes.md", "/memories/user_bob_pass_Kq81Lm.md")
    assert sorted(p.name for p in files.root.rglob("*")) == ["notes.md"]


def test_mcp_conversation_ids_and_split_keys(tmp_path: Path) -> None:
    from app.mcp_memory import McpMemory, ToolRefused
    from app.runtime import MemoryAgent
    from core.context import Context

    data = tmp_path / "data"
    ctx = Context(user_id="alice", data_dir=str(data), chat_model="scripted", embedding_model="hash:64",
                  consolidation_delay_s=0.0)
    with MemoryAgent(ctx) as agent:
        mem = McpMemory(agent)
        for conversation in ("password=Kq81!zLm", "session_token_Ab12Cd34Ef56Gh78"):
            with pytest.raises(ToolRefused, match="holds what looks like a secret") as err:
                mem.log_turn("alice", "user", "hello", conversation=conversation)
            assert conversation not in str(err.value)
        mem.log_turn("alice", "user", "my github token is", conversation="c1")
        assert mem.log_turn("alice", "user", "Lm92Xq81Zt04Pw", conversation="c1")["redacted"] is True
        mem.log_turn("alice", "user", "I like green tea.", conversation="c1")
        mem.end_session("alice", "c1")
    assert _traces(data, ["Kq81!zLm", "Ab12Cd34Ef56Gh78", "Lm92Xq81Zt04Pw"]) == {}
    assert files_with(data, "green tea") != []
