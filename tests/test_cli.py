"""The `memory-agent` command line: help texts, provider selection, clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import build_parser, main
from core.context import Context
from models.loader import (
    UnknownModelSpec,
    chat_tools_enabled,
    load_chat_model,
    load_embeddings,
    validate_chat_spec,
)

SUBCOMMANDS = ["chat", "demo", "import", "recall", "memories", "forget", "delete-user", "memory-on", "memory-off", "expire", "retention"]


def test_console_script_help() -> None:
    exe = Path(sys.executable).with_name("memory-agent")
    done = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    for name in SUBCOMMANDS:
        assert name in done.stdout


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_each_subcommand_has_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([name, "--help"])
    assert exit_.value.code == 0
    assert "usage: memory-agent " + name in capsys.readouterr().out


def test_provider_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """openai:<model> builds a ChatOpenAI / init_embeddings, honouring OPENAI_BASE_URL (no call made)."""
    monkeypatch.setenv("MEMORY_CHAT_MODEL", "openai:llama3.2:1b")
    monkeypatch.setenv("MEMORY_EMBEDDING_MODEL", "openai:nomic-embed-text")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-not-used")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    ctx = Context()
    assert ctx.chat_model == "openai:llama3.2:1b"
    model = load_chat_model(ctx.chat_model, 77)
    assert "ChatOpenAI" in [c.__name__ for c in type(model).__mro__]
    assert model.model_name == "llama3.2:1b" and model.max_tokens == 77  # an Ollama tag keeps its colon
    assert str(model.root_client.base_url).rstrip("/") == "http://127.0.0.1:9/v1"
    assert chat_tools_enabled(ctx.chat_model, ctx.chat_tools)  # auto: openai specs get tools
    embeddings = load_embeddings(ctx.embedding_model)
    assert type(embeddings.inner).__name__ == "OpenAIEmbeddings" and embeddings.inner.model == "nomic-embed-text"
    assert str(embeddings.inner.client._client.base_url).rstrip("/") == "http://127.0.0.1:9/v1"


def test_tool_capability_is_a_setting_not_a_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not chat_tools_enabled("local") and not chat_tools_enabled("scripted")
    assert chat_tools_enabled("local", "on") and not chat_tools_enabled("openai:gpt-4o-mini", "off")
    monkeypatch.setenv("MEMORY_CHAT_TOOLS", "off")
    assert Context().chat_tools == "off"
    monkeypatch.setenv("MEMORY_CHAT_TOOLS", "sometimes")
    with pytest.raises(ValueError, match="chat_tools must be 'auto', 'on' or 'off'"):
        Context()


def test_explicit_value_beats_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_TOP_K", "9")
    assert Context().top_k == 9
    assert Context(top_k=3).top_k == 3
    monkeypatch.setenv("MEMORY_TOP_K", "nine")
    with pytest.raises(ValueError, match="MEMORY_TOP_K"):
        Context()


def test_unknown_model_spec_lists_valid_forms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownModelSpec, match="valid forms: 'local'"):
        validate_chat_spec("gpt5")
    rc = main(["--data-dir", str(tmp_path / "d"), "--chat-model", "gpt5", "memories", "--user", "u1"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "unknown chat model spec 'gpt5'" in err and "openai:<model>" in err
    assert not (tmp_path / "d").exists()  # failed before touching the disk


def test_unwritable_data_dir_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("keep me")
    for bad in (blocker, blocker / "sub"):
        rc = main(["--data-dir", str(bad), "--embedding-model", "hash:384", "memories", "--user", "u1"])
        assert rc == 2
        assert "data dir" in capsys.readouterr().err
    assert blocker.read_text() == "keep me"


def test_invalid_user_id_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["--data-dir", str(tmp_path), "--embedding-model", "hash:384", "memories", "--user", "x" * 300])
    assert rc == 2
    assert "invalid user id" in capsys.readouterr().err
    key = "sk-proj-" + "abcdefghijklmnopqrstuvwxyz123456"
    rc = main(["--data-dir", str(tmp_path / "k"), "--embedding-model", "hash:384", "memories", "--user", key])
    err = capsys.readouterr().err
    assert rc == 2 and "credential" in err and key not in err and len(err.strip().splitlines()) == 1
    assert not any(key in str(p) for p in tmp_path.rglob("*"))
    # a path-like id is just an id: its label keeps it inside the data dir
    rc = main(["--data-dir", str(tmp_path / "d"), "--embedding-model", "hash:384", "memories", "--user", "../etc"])
    assert rc == 0
    assert not (tmp_path / "etc").exists()


def test_env_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("MEMORY_MEMORY_BUDGET_TOKENS=321\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MEMORY_MEMORY_BUDGET_TOKENS", raising=False)
    try:
        assert Context().memory_budget_tokens == 321
    finally:
        os.environ.pop("MEMORY_MEMORY_BUDGET_TOKENS", None)


def test_cached_embeddings_embed_each_text_once() -> None:
    from models.loader import CachedEmbeddings, HashEmbeddings

    calls: list[str] = []

    class Counting(HashEmbeddings):
        def embed_query(self, text: str) -> list[float]:
            calls.append(text)
            return super().embed_query(text)

    emb = CachedEmbeddings(Counting(16), size=2)
    first = emb.embed_query("what do I eat?")
    assert emb.embed_query("what do I eat?") == first and calls == ["what do I eat?"]
    emb.embed_query("b"), emb.embed_query("c")  # evicts the oldest entry
    emb.embed_query("what do I eat?")
    assert calls == ["what do I eat?", "b", "c", "what do I eat?"]


def test_import_then_recall_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    data = Path(__file__).parent / "fixtures" / "small_import.jsonl"
    first = json.loads(data.read_text().splitlines()[0])
    base = ["--data-dir", str(tmp_path / "d"), "--chat-model", "scripted", "--embedding-model", "hash:384"]
    assert main([*base, "import", "--user", "u1", "--no-progress", str(data)]) == 0
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"id": "q1", "query": first["text"]}) + "\n")
    capsys.readouterr()
    assert main([*base, "recall", "--user", "u1", "--k", "3", "--kind", "message", str(queries)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in rows] == ["q1"]
    results = rows[0]["results"]
    assert 1 <= len(results) <= 3 and all(r["kind"] == "message" and len(r["sources"]) == 1 for r in results)
    assert results[0]["sources"] == [first["id"]]
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)
    # another user sees nothing of it
    assert main([*base, "recall", "--user", "u2", "--k", "3", str(queries)]) == 0
    assert json.loads(capsys.readouterr().out)["results"] == []


def test_malformed_import_names_the_line_and_stores_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"thread": "t", "id": "a", "time": "2026-01-01T10:00:00", "role": "user", "text": "hi"}\n{oops\n')
    base = ["--data-dir", str(tmp_path / "d"), "--embedding-model", "hash:384"]
    assert main([*base, "import", "--user", "u1", "--no-progress", str(bad)]) == 2
    assert "line 2" in capsys.readouterr().err
    assert main([*base, "memories", "--user", "u1", "--json"]) == 0
    assert '"total": 0' in capsys.readouterr().out


def test_switching_embedding_model_on_a_data_dir_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--data-dir", str(tmp_path / "d"), "--chat-model", "scripted"]
    assert main([*base, "--embedding-model", "hash:384", "memory-off", "--user", "u1"]) == 0
    capsys.readouterr()
    assert main([*base, "--embedding-model", "hash:64", "memory-on", "--user", "u1"]) == 2
    assert "holds vectors from embedding model 'hash:384'" in capsys.readouterr().err
    assert main([*base, "--embedding-model", "hash:384", "memories", "--user", "u1", "--json"]) == 0
    assert '"memory_enabled": false' in capsys.readouterr().out  # nothing changed by the refused run


@pytest.mark.parametrize("broken", ["store/store.sqlite", "checkpoints.sqlite"])
def test_a_broken_data_dir_is_a_clear_error_and_stays_as_it_was(
    broken: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "d" / broken
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not a database, but maybe someone's only copy")
    rc = main(["--data-dir", str(tmp_path / "d"), "--embedding-model", "hash:384", "memories", "--user", "u1"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "nothing was changed" in err and "Traceback" not in err
    assert target.read_bytes() == b"not a database, but maybe someone's only copy"
