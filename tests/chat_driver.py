"""Drive the real ``memory-agent chat`` like a person at the keyboard: wait for each prompt, pause, type.

Piping all input at once sends every line before the agent is idle, so the
background worker never gets its quiet interval; a person pauses. ``chat``
waits for the prompt (``you> `` or a ``[y/N] `` question), sleeps the line's
pause, then types it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROMPTS = ("you> ", "[y/N] ")


def cli(data: Path, embeddings: str, now: str | None = None) -> list[str]:
    """The CLI's command line with the scripted chat model, before the subcommand."""
    clock = ["--now", now] if now else []
    return [sys.executable, "-m", "app.cli", "--data-dir", str(data), "--chat-model", "scripted",
            "--embedding-model", embeddings, *clock]


def cli_env(delay: float) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "MEMORY_CONSOLIDATION_DELAY_S": str(delay)}


def _until_prompt(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    seen = ""
    while not seen.endswith(PROMPTS):
        ch = proc.stdout.read(1)
        if not ch:
            break
        seen += ch
    return seen


def chat(base: list[str], user: str, lines: Sequence[tuple[float, str]], env: dict[str, str]) -> str:
    """One chat session: each ``(pause_s, line)`` typed ``pause_s`` after its prompt. Returns the transcript."""
    proc = subprocess.Popen([*base, "chat", "--user", user], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
    assert proc.stdin is not None
    shown = []
    try:
        for pause, line in lines:
            shown.append(_until_prompt(proc))
            time.sleep(pause)
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        rest, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    transcript = "".join(shown) + rest
    assert proc.returncode == 0, transcript[-3000:]
    return transcript


def memories(base: list[str], user: str, env: dict[str, str], *flags: str) -> str:
    """What a new process's ``memories`` prints for ``user``."""
    shown = subprocess.run([*base, "memories", "--user", user, *flags], capture_output=True, text=True, timeout=300,
                           cwd=ROOT, env=env)
    assert shown.returncode == 0, shown.stderr[-2000:]
    return shown.stdout
