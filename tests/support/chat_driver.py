"""Drive the real ``memory-agent chat`` like a person at the keyboard: wait for each prompt, pause, type.

Piping all input at once sends every line before the agent is idle, so the
background worker never gets its quiet interval; a person pauses. ``chat``
waits for the prompt (``you> `` or a ``[y/N] `` question), sleeps the line's
pause (the idle time under test), then types it. The chat runs in this process
(tests/support/cli.py), its stdin fed line by line, so the models load once per
worker; the session still opens and closes the agent as a process would.
"""

from __future__ import annotations

import io
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from tests.support import ROOT
from tests.support import cli as in_process

PROMPTS = ("you> ", "[y/N] ")
PROMPT_TIMEOUT_S = 300


def cli(data: Path, embeddings: str, now: str | None = None) -> list[str]:
    """The CLI's command line with the scripted chat model, before the subcommand."""
    clock = ["--now", now] if now else []
    return [sys.executable, "-m", "app.cli", "--data-dir", str(data), "--chat-model", "scripted",
            "--embedding-model", embeddings, *clock]


def cli_env(delay: float) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "MEMORY_CONSOLIDATION_DELAY_S": str(delay)}


def until_prompt(proc: subprocess.Popen[str]) -> str:
    """What a real chat process printed up to its next prompt (for tests that need a process boundary)."""
    assert proc.stdout is not None
    seen = ""
    while not seen.endswith(PROMPTS):
        ch = proc.stdout.read(1)
        if not ch:
            break
        seen += ch
    return seen


class _Screen(io.StringIO):
    """stdout and stderr together (as ``stderr=STDOUT``); ``prompted`` is set when a prompt is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.prompted = threading.Event()
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            n = super().write(text)
            if self.getvalue().endswith(PROMPTS):
                self.prompted.set()
            return n


class _Keyboard(io.TextIOBase):
    """A stdin that gives one typed line at a time, blocking until it is typed; '' is the end of input."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str] = queue.Queue()

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:
        return self.lines.get()


def chat(base: list[str], user: str, lines: Sequence[tuple[float, str]], env: dict[str, str]) -> str:
    """One chat session: each ``(pause_s, line)`` typed ``pause_s`` after its prompt. Returns the transcript."""
    screen, keyboard = _Screen(), _Keyboard()
    failed: list[str] = []

    def typist() -> None:
        for pause, line in lines:
            if not screen.prompted.wait(PROMPT_TIMEOUT_S):
                failed.append(f"no prompt within {PROMPT_TIMEOUT_S}s before {line!r}")
                break
            screen.prompted.clear()
            time.sleep(pause)  # the person's idle time: what these tests are about
            keyboard.lines.put(line + "\n")
        keyboard.lines.put("")  # end of input

    hands = threading.Thread(target=typist, daemon=True)
    hands.start()
    code = in_process.main_on(base[3:] + ["chat", "--user", user], keyboard, screen, screen, env=env, cwd=ROOT)
    keyboard.lines.put("")
    hands.join(PROMPT_TIMEOUT_S)
    transcript = screen.getvalue()
    assert not failed, failed[0] + "\n" + transcript[-3000:]
    assert code == 0, transcript[-3000:]
    return transcript


def memories(base: list[str], user: str, env: dict[str, str], *flags: str) -> str:
    """What a new ``memories`` call prints for ``user`` (the agent opened afresh on the data dir)."""
    shown = in_process.run([*base, "memories", "--user", user, *flags], env=env, cwd=ROOT, timeout=300)
    assert shown.returncode == 0, shown.stderr[-2000:]
    return shown.stdout
