"""A deterministic chat model for tests, Studio smoke runs and CI: the ``scripted`` spec.

Given ``responses`` it returns them in order (cycling), like langchain-core's
``FakeListChatModel`` it is built on. It stays a class of its own because the
spec string must work with no script at all (CLI subprocesses, ``langgraph dev``
in the Studio test): then it answers from the prompt, repeating the remembered
lines of the system prompt, which makes "did memory reach the model?" visible
and exactly checkable without an LLM. No langchain-core fake reads its prompt.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import BaseMessage
from pydantic import Field

MEMORY_LINE_PREFIX = "- "


class ScriptedChatModel(FakeListChatModel):
    """Plays ``responses`` back in order; with none, repeats what memory put in the prompt."""

    responses: list[str] = Field(default_factory=list)
    # The fake's streaming path reads ``responses`` only; answer in one piece instead.
    disable_streaming: bool = True

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _call(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> str:
        if self.responses:
            return super()._call(messages, stop, run_manager, **kwargs)
        return _answer_from_prompt(messages)


def remembered_lines(system_prompt: str) -> list[str]:
    """The quoted memory lines inside the prompt's <memories> blocks."""
    lines, inside = [], False
    for line in system_prompt.splitlines():
        if line.startswith("<memories"):
            inside = True
        elif line.startswith("</memories>"):
            inside = False
        elif inside and line.startswith(MEMORY_LINE_PREFIX):
            lines.append(line[len(MEMORY_LINE_PREFIX):].strip().strip('"'))
    return lines


def _answer_from_prompt(messages: list[BaseMessage]) -> str:
    system = next((m.text for m in messages if m.type == "system"), "")
    remembered = remembered_lines(system)
    if not remembered:
        return "I don't have anything remembered about you yet."
    return "From memory: " + " | ".join(remembered[:6])
