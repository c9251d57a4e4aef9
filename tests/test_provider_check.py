"""Every provider spec is checked the same way before the first message (issue 44, "one provider check").

A capable model whose LangChain package is missing, or whose server is not there, is one line
on stderr and exit 2 when the chat or the demo starts, whatever the provider; nothing is stored.
The CLI runs in process (``app.cli.main``): no process boundary is under test here.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from app.cli import main
from models.endpoint import ollama_base


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(capsys: pytest.CaptureFixture[str], data: Path, *argv: str) -> tuple[int, str]:
    rc = main(["--data-dir", str(data), "--embedding-model", "hash:64", *argv])
    err = capsys.readouterr().err
    return rc, err


@pytest.mark.parametrize("command", [["chat", "--user", "me"], ["demo", "--user", "me"]])
def test_a_provider_whose_package_is_missing_fails_at_start_in_one_line(command, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", None)  # the chat must not get as far as reading a message
    rc, err = run(capsys, tmp_path / "data", "--chat-model", "anthropic:claude-sonnet-4-5", *command)
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "langchain-anthropic" in err or "langchain_anthropic" in err, err
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.sqlite")), "something was stored"


@pytest.mark.parametrize("command", [["chat", "--user", "me"], ["demo", "--user", "me"]])
def test_an_ollama_server_that_is_not_there_fails_at_start_in_one_line(command, tmp_path, capsys, monkeypatch) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("OLLAMA_HOST", url)
    monkeypatch.setattr("sys.stdin", None)
    rc, err = run(capsys, tmp_path / "data", "--chat-model", "ollama:llama3.2:1b", *command)
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "cannot reach" in err and url in err, err


def test_the_ollama_address_is_read_as_its_client_reads_it() -> None:
    assert ollama_base(None) == "http://localhost:11434"
    assert ollama_base("10.0.0.5") == "http://10.0.0.5:11434"
    assert ollama_base("https://gpu-box:8443/") == "https://gpu-box:8443"
    assert ollama_base("[::1]") == "http://[::1]:11434"
