"""A first run that is refused or stopped does not lock the thread's owner out of it (issue 43, item 6).

Such a run still leaves checkpoints on the thread; the thread's owner record
used to be written only once the input passed, so the owner's next run read
the thread as someone else's.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from app import cli
from app.runtime import MemoryAgent

REFUSED = ["", "   \n\t", "hello\x00world", "\x01\x02\x1b", "\u200b\u200b"]


@pytest.mark.parametrize("first", REFUSED, ids=["empty", "blank", "nul", "control", "format"])
def test_a_refused_first_message_through_the_graph_leaves_the_thread_its_owners(ctx, first: str) -> None:
    with MemoryAgent(ctx) as agent:
        config = agent.config("t1")
        out = agent.graph.invoke({"messages": [HumanMessage(content=first, id="m0")]}, config, context=agent.context)
        assert out["error"]
        assert agent.say("I'm vegetarian.", "t1").reply  # the owner's next turn is not refused
        assert [m.text for m in agent.thread_messages("t1")][0] == "I'm vegetarian."
        bob = replace(ctx, user_id="bob")  # and the thread is still nobody else's
        out = agent.graph.invoke({"messages": [HumanMessage(content="hi", id="b1")]}, config, context=bob)
        assert "does not belong to user 'bob'" in out["error"]


def _chat(data: Path, thread: str, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """``memory-agent chat`` in this process, typing ``lines`` on its stdin (EOF after them)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    out = io.StringIO()
    with redirect_stdout(out):
        code = cli.main(["--data-dir", str(data), "--chat-model", "scripted", "--embedding-model", "hash:64",
                         "chat", "--user", "alice", "--thread", thread])
    assert code == 0, out.getvalue()
    return out.getvalue()


def test_a_first_turn_left_at_its_forget_confirmation_leaves_the_thread_its_owners(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the CLI: the first message of a thread asks to forget, the confirmation is never answered."""
    data = tmp_path / "data"
    _chat(data, "old", ["/remember My dog is called Brindlewick."], monkeypatch)
    first = _chat(data, "new", ["Forget that my dog is called Brindlewick"], monkeypatch)  # EOF at the [y/N] question
    assert "[confirm]" in first
    again = _chat(data, "new", ["I'm vegetarian."], monkeypatch)
    assert "does not belong" not in again and "agent> " in again, again
