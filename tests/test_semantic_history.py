"""A question about the past is answered from the history of ended values, and only such a question."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from langchain_core.embeddings import Embeddings

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers.semantic_history import recall_history
from memory.prompt import render_system_prompt

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
TOPICS = ("live|paris|lisbon|city", "job|work|teacher|nurse", "diet|vegetarian|vegan|eat")


class Topics(Embeddings):
    """One axis per topic (home, job, diet): stands in for an embedding model that knows the words' meaning."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        vec = [1.0 if re.search(rf"\b(?:{words})", text, re.I) else 0.0 for words in TOPICS]
        return vec if any(vec) else [0.1, 0.1, 0.1]


def test_a_past_question_recalls_the_ended_value_and_a_present_one_does_not(tmp_path: Path) -> None:
    ctx = Context(user_id="ana", data_dir=str(tmp_path), chat_model="scripted", embedding_model="hash:384",
                  consolidation_delay_s=0)
    with MemoryAgent(ctx) as agent:
        agent.say("I live in Paris and I work as a teacher.", "t1")
        agent.say("I moved to Lisbon.", "t2")
        env = agent.env()
        env = replace(env, embeddings=Topics())
        past = recall_history(env, "Where did I live before?")
        assert [r.kind for r in past] == ["history"] and len(past) == 1
        assert past[0].text.startswith("Until ") and past[0].text.endswith("The user lives in Paris.")
        assert recall_history(env, "Where do I live?") == []  # no cue for the past: nothing ended is shown
        assert recall_history(env, "What job did I have before?") == []  # the job never ended
        prompt = render_system_prompt("persona", [r.as_dict() for r in past], "", T0 + timedelta(days=1), 800)
        assert '<memories kind="history">' in prompt and "no longer current" in prompt
