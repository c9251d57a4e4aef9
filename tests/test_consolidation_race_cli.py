"""Issue 25, item 1, as found: the real CLI on the default path (delay 1.5 s, MiniLM), typed with pauses.

A pause longer than the delay lets the worker run between two turns, or while
the next message is handled, which is where facts were lost and forget lied.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from core.context import Context
from tests.support.chat_driver import chat, cli, cli_env, memories

# The field's default (the suite's environment sets 0, tests/conftest.py): these tests are about it.
DELAY = next(f.default for f in dataclasses.fields(Context) if f.name == "consolidation_delay_s")
PAUSE = 2.5  # longer than the delay: the worker runs before the next line arrives
pytestmark = pytest.mark.slow  # MiniLM, and real pauses longer than the default delay


def test_default_delay_the_tomasz_profile_keeps_every_fact(tmp_path: Path) -> None:
    env = cli_env(DELAY)
    data = tmp_path / "data"
    chat(cli(data, "local", "2025-01-10T10:00:00Z"), "tomasz", [
        (0, "Hi, I'm Tomasz. I live in Krakow and I work as a baker."), (PAUSE, "I'm vegetarian."), (0, "/end"),
    ], env)
    chat(cli(data, "local", "2025-03-10T10:00:00Z"), "tomasz", [
        (0, "Big news: I moved to Gdansk for a new job."), (PAUSE, "I work as a pastry chef now."), (0, "/end"),
    ], env)
    profile = json.loads(memories(cli(data, "local"), "tomasz", env, "--json"))["profile"]
    current = {p["text"] for p in profile["current"]}
    assert {"The user is vegetarian.", "The user lives in Gdansk.", "The user works as a pastry chef."} <= current
    assert not any("baker" in t for t in current)
    assert any("baker" in p["text"] for p in profile["history"])  # superseded, kept as history


@pytest.mark.parametrize("pause", [1.7, PAUSE])  # 1.7 s: inside the run here (before the fix 2.1 s lied too)
def test_default_delay_forget_during_a_run_leaves_nothing(tmp_path: Path, pause: float) -> None:
    env = cli_env(DELAY)
    base = cli(tmp_path / "data", "local")
    said = chat(base, "ana", [(0, "I'm vegetarian."), (pause, "Forget that I'm vegetarian."), (0, "y"), (0, "/quit")],
                env)
    assert "It is gone." in said
    assert "vegetarian" not in memories(base, "ana", env).lower()  # not a fact, not a message
