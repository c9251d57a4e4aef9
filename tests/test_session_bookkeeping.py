"""Thread ownership and the session watermark, through MemoryAgent on a real data dir."""

from __future__ import annotations

from typing import Any

from pydantic import PrivateAttr

from app.runtime import MemoryAgent
from core.context import Context
from models.scripted_chat import ScriptedChatModel


class FailsFirst(ScriptedChatModel):
    """A model whose first call fails, like a provider outage on a thread's first turn."""

    _calls: int = PrivateAttr(default=0)

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        self._calls += 1
        if self._calls == 1:
            raise RuntimeError("provider unavailable")
        return super()._generate(messages, stop, run_manager, **kwargs)


def test_a_failed_first_turn_does_not_lock_the_owner_out(ctx: Context) -> None:
    with MemoryAgent(ctx, chat_model=FailsFirst(responses=["Noted."])) as agent:
        failed = agent.say("Hello, I'm planning a trip.", "t1").reply  # a model error is one line, not a crash
        assert failed.startswith("(The chat model failed")
        assert agent.say("Hello again.", "t1").reply == "Noted."
        texts = [m.text for m in agent.thread_messages("t1")]
        assert texts[-2:] == ["Hello again.", "Noted."]


def test_thread_state_keeps_a_marker_not_a_transcript(ctx: Context) -> None:
    with MemoryAgent(ctx) as agent:
        for i in range(4):
            agent.say(f"Note number {i}: the blue folder.", "t1")
        before = agent.state("t1")
        agent.end_session("t1")
        after = agent.state("t1")
    assert "session" not in before and "session" not in after
    assert set(after["session_mark"]) == {"time", "id"}
    assert after["last_logged"] == str(after["messages"][-1].id)
