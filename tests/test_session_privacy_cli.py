"""Sessions and privacy through the real CLI, one call per step (issue 10).

Each scenario was first seen failing through `memory-agent chat`: secrets said in
chat ended up in the store and the checkpoints; a turn said while memory was off
reached the episode written at `/end`; and chatting on after `/end` in the same
thread made the next `/end` repeat the whole thread.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.agent_cli import MODELS, Cli, files_with

PASSWORD = "Tr0ub4dor&3x"
API_KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz123456"


def test_secrets_said_in_chat_reach_no_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    cli = Cli(data, MODELS["scripted"])
    out = cli.chat(
        "alice", "t1", f"My password is {PASSWORD} and I work on billing.", f"my api key is {API_KEY}", "/end"
    )
    assert files_with(data, PASSWORD) == [] and files_with(data, API_KEY) == []
    assert "note: Removed from your message" in out and "password" in out and "openai key" in out
    # The rest of what was said is kept: the redaction took the secret only.
    assert "billing" in json.dumps(cli.export("alice"))
    assert files_with(data, "billing") != []


def test_turns_said_with_memory_off_never_reach_long_term_memory(tmp_path: Path) -> None:
    data = tmp_path / "data"
    cli = Cli(data, MODELS["scripted"])
    cli.run("memory-off", "--user", "alice")
    cli.chat("alice", "t1", "I'm vegetarian.")
    cli.run("memory-on", "--user", "alice")
    cli.chat("alice", "t1", "I like hiking in the mountains.", "/end")
    exported = cli.export("alice")
    assert exported["episodes"], "the session with memory on is still consolidated"
    assert "hiking" in json.dumps(exported["episodes"])
    assert "vegetarian" not in json.dumps(exported).lower()
    assert files_with(data / "store", "vegetarian") == []
    assert not (data / "memories").exists() or files_with(data / "memories", "vegetarian") == []


def test_end_then_more_chat_then_end_gives_two_episodes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    cli = Cli(data, MODELS["scripted"])
    cli.chat("alice", "t1", "I live in Lisbon.", "/end", "I like jazz.", "/end")
    episodes = sorted(cli.export("alice")["episodes"], key=lambda e: e["value"]["time"])
    assert len(episodes) == 2, [e["text"] for e in episodes]
    first, second = episodes
    assert "Lisbon" in first["text"] and "jazz" not in first["text"]
    assert "jazz" in second["text"]
    # The second session is the one turn after /end (its reply may quote memory), not the thread again.
    assert len(first["sources"]) == 2 and len(second["sources"]) == 2
    assert not set(first["sources"]) & set(second["sources"])
    assert first["value"]["thread"] == second["value"]["thread"]


# The session after /end is told apart by the message log's times: a clock that stands still (--now) or
# is set back between two chats logged the second session at or before the mark, and it was never closed.
@pytest.mark.parametrize("clocks", [("2025-03-01T09:00:00Z", "2025-03-01T09:00:00Z"),
                                    ("2025-03-01T09:00:00Z", "2025-03-01T08:00:00Z")], ids=["still", "set-back"])
def test_a_clock_that_stands_still_or_steps_back_still_closes_the_next_session(
        tmp_path: Path, clocks: tuple[str, str]) -> None:
    data = tmp_path / "data"
    Cli(data, ["--now", clocks[0], *MODELS["scripted"]]).chat("alice", "t1", "I live in Lisbon.", "/end")
    cli = Cli(data, ["--now", clocks[1], *MODELS["scripted"]])
    cli.chat("alice", "t1", "I like jazz.", "/end")
    episodes = {e["text"]: e["sources"] for e in cli.export("alice")["episodes"]}
    assert set(episodes) == {"User: I live in Lisbon.", "User: I like jazz."}, episodes
    assert not set(episodes["User: I live in Lisbon."]) & set(episodes["User: I like jazz."])
