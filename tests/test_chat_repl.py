"""The chat REPL's commands, driven as a user would type them."""

from __future__ import annotations

import pytest

from app.chat_repl import run_repl
from app.runtime import MemoryAgent


def _session(agent: MemoryAgent, lines: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    feed = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    assert run_repl(agent, "t1", ask=ask) == 0
    return capsys.readouterr().out


def test_commands(ctx, capsys: pytest.CaptureFixture[str]) -> None:
    with MemoryAgent(ctx) as agent:
        out = _session(agent, ["/remember my locker number is 4417", "/search locker", "/memories", "/help", "/bogus"], capsys)
        assert "(remembered 1 fact(s))" in out
        assert "4417" in out.split("(remembered", 1)[1]
        assert "unknown command '/bogus'" in out
        out = _session(agent, ["/forget locker number", "/search locker", "/memories"], capsys)
        assert "4417" not in out.split("deleted", 1)[1]


def test_empty_and_oversized_lines_are_refused(ctx, capsys: pytest.CaptureFixture[str]) -> None:
    with MemoryAgent(ctx) as agent:
        out = _session(agent, ["", "x" * (ctx.max_message_chars + 1), "hello"], capsys)
        assert "error: empty message" in out and "error: message too long" in out
        assert [m.type for m in agent.thread_messages("t1")] == ["human", "ai"]


def test_memory_switch_stops_writes_and_recall(ctx, capsys: pytest.CaptureFixture[str]) -> None:
    with MemoryAgent(ctx) as agent:
        _session(agent, ["/memory off", "I'm vegetarian.", "/end"], capsys)
        assert agent.store.search(("users", "alice", "profile"), limit=5) == []
        _session(agent, ["/memory on", "I'm vegan.", "/end"], capsys)
        assert [i.key for i in agent.store.search(("users", "alice", "profile"), limit=5)] == ["diet"]
