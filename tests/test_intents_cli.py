"""A plain-words forget through the real CLI: asked, declined, then confirmed, across restarts.

Each step is its own ``memory-agent`` process fed through stdin (scripted chat
model, hash embeddings). After the confirmed request and a restart, no file of
the data dir holds the forgotten word, as after ``/forget``.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import scripted_cli

_cli = scripted_cli  # tests/support/cli.py: scripted model, hash embeddings, review off


def _chat(data: Path, *lines: str) -> str:
    return _cli(data, "chat", "--user", "alice", "--thread", "s1", stdin="\n".join(lines) + "\n/quit\n")


def _memories(data: Path) -> dict:
    out = json.loads(_cli(data, "memories", "--user", "alice", "--json"))
    out.pop("exported_at")
    return out


def _files_with(data: Path, word: bytes) -> list[str]:
    return [str(p) for p in data.rglob("*") if p.is_file() and word in p.read_bytes().lower()]


def test_plain_words_forget_through_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _chat(data, "I'm vegetarian.", "/end")
    before = _memories(data)
    assert "vegetarian" in json.dumps(before).lower()

    declined = _chat(data, "Forget that I'm vegetarian", "n")
    assert "[confirm] Delete" in declined and "vegetarian" in declined.split("[confirm]", 1)[1]
    assert "Nothing was deleted" in declined
    assert _memories(data) == before

    confirmed = _chat(data, "Forget that I'm vegetarian", "y")
    assert "agent> Done: I deleted" in confirmed
    after = _memories(data)  # a fresh process: the deletion survived the restart
    assert "vegetarian" not in json.dumps(after).lower()
    assert _files_with(data, b"vegetarian") == []
    # the thread is still alice's and still works
    assert "agent>" in _chat(data, "What should I cook tonight?")
    assert _files_with(data, b"vegetarian") == []
