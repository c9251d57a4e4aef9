"""A deterministic chat model for tests, Studio smoke runs and CI.

Given ``responses`` it returns them in order (cycling). Otherwise it answers from
the prompt it was given: it repeats the remembered lines of the system prompt,
which makes "did memory reach the model?" visible and exactly checkable without
an LLM.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

MEMORY_LINE_PREFIX = "- "


class ScriptedChatModel(BaseChatModel):
    responses: list[str] = []
    _turn: int = PrivateAttr(default=0)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.responses:
            text = self.responses[self._turn % len(self.responses)]
            self._turn += 1
        else:
            text = _answer_from_prompt(messages)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


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
