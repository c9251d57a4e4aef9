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



def test_a_line_that_is_no_answer_to_a_review_declines_it_and_is_not_lost(ctx, capsys: pytest.CaptureFixture[str]) -> None:
    """Piped input does not expect the review question: its next line is a message, not a lost answer."""
    from dataclasses import replace

    with MemoryAgent(replace(ctx, review_rules=True)) as agent:
        out = _session(agent, ["Please don't use emojis.", "/memories", "Please stop giving me three options.", "yes"],
                       capsys)
        rules = [str(i.value) for i in agent.store.search(("users", "alice", "rules"), limit=10)]
    assert out.count("taken as no") == 1, out
    assert "Here is what I" in out.split("taken as no", 1)[1]  # /memories ran as the command it was
    assert not any("emoji" in r.lower() for r in rules) and any("option" in r.lower() for r in rules), rules


def test_input_ending_at_a_review_leaves_it_pending(ctx, capsys: pytest.CaptureFixture[str]) -> None:
    from dataclasses import replace

    with MemoryAgent(replace(ctx, review_rules=True)) as agent:
        out = _session(agent, ["From now on, please be more concise."], capsys)
        assert "stays pending" in out
        assert agent.store.search(("users", "alice", "rules"), limit=10) == []
        assert agent.resume("t1", True).interrupt is None  # answered later: saved then
        assert [i.value for i in agent.store.search(("users", "alice", "rules"), limit=10)]
