"""The five checks' view of ``memory-agent``: one call per step, a restart between steps.

Steps run in this process (tests/support/cli.py: the agent opened and closed per call) unless
``process=True``, where each step is a new ``python -m app.cli`` as a user would start it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.answer_check_lexicon import checks_for
from nodes.check.memories import second_person
from tests.support import cli as in_process

ROOT = Path(__file__).resolve().parents[2]

MODELS = {
    "scripted": ["--chat-model", "scripted", "--embedding-model", "hash:384"],
    "local": ["--chat-model", "local", "--embedding-model", "local"],
    "openai": ["--chat-model", "openai:smollm", "--embedding-model", "hash:384"],
}


class Cli:
    def __init__(self, data: Path, models: list[str], *, process: bool = False) -> None:
        self.base = [sys.executable, "-m", "app.cli", "--data-dir", str(data), *models]
        self.process = process

    def run(self, *args: str, stdin: str = "") -> str:
        env = {"MEMORY_MAX_NEW_TOKENS": "24", "MEMORY_REVIEW_RULES": "false", "HF_HUB_OFFLINE": "1"}
        runner = subprocess.run if self.process else in_process.run
        done = runner(
            [*self.base, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=600,
            env={**os.environ, "PYTHONPATH": str(ROOT), **env},
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


def files_with(root: Path, needle: str) -> list[str]:
    """Every file under ``root`` whose bytes hold ``needle`` (any case)."""
    low = needle.lower().encode()
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and low in p.read_bytes().lower())
