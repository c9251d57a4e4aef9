"""The five checks of a working chat memory, through the real CLI, one process per step.

Each step is a separate `memory-agent` process fed through stdin, so every check
crosses a real restart. They run with the scripted chat model and hash
embeddings (exact and fast), with the embedded default models (slow), and with
``openai:`` pointed at a real llama.cpp server (slow; tests/llama_server.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.answer_check_lexicon import checks_for
from nodes.check.memories import second_person
from tests.conftest import ROOT

MODELS = {
    "scripted": ["--chat-model", "scripted", "--embedding-model", "hash:384"],
    "local": ["--chat-model", "local", "--embedding-model", "local"],
    "openai": ["--chat-model", "openai:smollm", "--embedding-model", "hash:384"],
}


class Cli:
    def __init__(self, data: Path, models: list[str]) -> None:
        self.base = [sys.executable, "-m", "app.cli", "--data-dir", str(data), *models]

    def run(self, *args: str, stdin: str = "") -> str:
        env = {"MEMORY_MAX_NEW_TOKENS": "24", "MEMORY_REVIEW_RULES": "false", "HF_HUB_OFFLINE": "1"}
        done = subprocess.run(
            [*self.base, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=600,
            env={**__import__("os").environ, **env},
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    def chat(self, user: str, thread: str, *lines: str) -> str:
        return self.run("chat", "--user", user, "--thread", thread, stdin="\n".join(lines) + "\n/quit\n")

    def prompt_after(self, user: str, thread: str, question: str) -> str:
        return self.turn(user, thread, question)[0]

    def turn(self, user: str, thread: str, question: str) -> tuple[str, str, str]:
        """(assembled prompt, answer shown, answer-check report) for one question."""
        out = self.chat(user, thread, question, "/prompt")
        answer = out.split("agent> ", 1)[1].split("you> ", 1)[0].strip()
        prompt, check = out.split("----- system prompt -----", 1)[1].split("----- end of prompt -----", 1)
        return prompt, answer, check

    def export(self, user: str) -> dict:
        return json.loads(self.run("memories", "--user", user, "--json"))


def assert_respects(answer: str, memory: str) -> None:
    """No food the memory forbids in the answer, unless a Memory check line names it."""
    body, _, flag = answer.partition("Memory check:")
    found = [item for check in checks_for(memory) for item in check.find(body)]
    if found:
        assert all(item in flag for item in found) and second_person(memory) in flag, answer
    assert answer.strip(), "empty answer"


@pytest.mark.parametrize(
    ("models", "backend"),
    [
        ("scripted", "local"),
        ("scripted", "postgres"),
        pytest.param("local", "local", marks=pytest.mark.slow),
        pytest.param("openai", "local", marks=pytest.mark.slow),
    ],
    indirect=["backend"],
)
def test_five_checks(
    tmp_path: Path, models: str, backend, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if models == "openai":  # the CLI processes inherit these
        monkeypatch.setenv("OPENAI_BASE_URL", request.getfixturevalue("llama_server")("smollm"))
        monkeypatch.setenv("OPENAI_API_KEY", "not-checked-by-llama-cpp")
    data = tmp_path / "data"
    cli = Cli(data, MODELS[models])

    # 1. Tell it your diet, restart, ask for a recipe: the diet is in the assembled prompt,
    # and the answer respects it or says plainly where it does not.
    cli.chat("alice", "s1", "I'm vegetarian.", "/end")
    prompt, answer, check = cli.turn("alice", "s2", "Can you suggest a recipe for dinner?")
    assert "vegetarian" in prompt
    assert "checked: diet: vegetarian" in check
    assert_respects(answer, "The user is vegetarian.")

    # 2. Change your diet: the old value no longer appears in the profile.
    cli.chat("alice", "s3", "I'm vegan now.", "/end")
    prompt = cli.prompt_after("alice", "s4", "Any recipe ideas?")
    profile_block = prompt.split('<memories kind="profile">', 1)[1].split("</memories>", 1)[0]
    assert "vegan" in profile_block and "vegetarian" not in profile_block
    exported = cli.export("alice")
    assert any("vegetarian" in json.dumps(h) for h in exported["profile"]["history"])

    # 3. Say the same fact three times: it is stored once.
    cli.chat("alice", "s5", "I'm allergic to peanuts.", "I'm allergic to peanuts.", "I'm allergic to peanuts.", "/end")
    exported = cli.export("alice")
    kept = [r for r in exported["profile"]["current"] + exported["facts"] if "peanut" in json.dumps(r).lower()]
    assert len(kept) == 1, kept

    # 5. A second user sees none of the first user's memories.
    bob_prompt = cli.prompt_after("bob", "b1", "What do you know about me? Any recipe?")
    for word in ("vegan", "vegetarian", "peanut"):
        assert word not in bob_prompt.lower()
    bob = cli.export("bob")
    assert not bob["profile"]["current"] and not bob["facts"] and not bob["episodes"]

    # 4. After /forget, a restart shows no trace of the fact in any file of the data dir.
    cli.chat("alice", "s6", "/forget peanuts")
    cli.export("alice")  # a fresh process opens (and reconciles) everything again
    assert backend.files_containing(data, b"peanut") == []
    assert "vegan" in json.dumps(cli.export("alice")["profile"]["current"])  # the rest survives
