"""Planting months of memory on a real data dir for the upkeep tests."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.upkeep.items import all_items
from nodes.importer import import_messages

START = datetime(2025, 1, 6, 18, 0, tzinfo=UTC)  # a Monday


def session(thread: str, day: float, *user_lines: str) -> list[LoggedMessage]:
    """A past session: each user line answered by a short assistant line."""
    at = START + timedelta(days=day)
    out: list[LoggedMessage] = []
    for i, text in enumerate(user_lines):
        out.append(LoggedMessage(id=f"{thread}-u{i}", thread=thread, time=at + timedelta(minutes=2 * i), role="user",
                                 text=text))
        out.append(LoggedMessage(id=f"{thread}-a{i}", thread=thread, time=at + timedelta(minutes=2 * i + 1),
                                 role="assistant", text="Noted, thanks for telling me."))
    return out


def plant(agent: MemoryAgent, *sessions: list[LoggedMessage]) -> None:
    """Import ``sessions`` through every layer, each as of its own time."""
    import_messages([m for s in sessions for m in s], agent.env(), agent.layers, progress=False)


def env_at(agent: MemoryAgent, day: float) -> LayerEnv:
    """The agent's gated env with the clock at ``START + day``."""
    return replace(agent.env(), now=START + timedelta(days=day))


def values(agent: MemoryAgent, kind: str) -> list[dict[str, Any]]:
    """Every stored value of ``kind`` for the agent's user."""
    return [i.value for i in all_items(agent.env(), kind)]


def snapshot(agent: MemoryAgent) -> dict[str, Any]:
    """Everything upkeep may change, keyed, for before/after comparisons."""
    from stores.namespaces import EPISODES, FACTS, PROFILE, PROFILE_HISTORY

    env = agent.env()
    return {kind: {i.key: i.value for i in all_items(env, kind)} for kind in (FACTS, PROFILE, PROFILE_HISTORY, EPISODES)}


def context(tmp: Any, **extra: Any) -> Context:
    """A test context (scripted model, hash embeddings) on ``tmp``."""
    return Context(user_id="alice", data_dir=str(tmp / "data"), chat_model="scripted", embedding_model="hash:384",
                   review_rules=False, **extra)
