"""A forget in one process holds against the same user's chat writing in another (issue 43, item 4).

The chat says a fact with background consolidation on, and another process
runs ``memory-agent forget`` while the turn is still running (its reply held
back a while, longer or shorter per round, through the test hook
``MEMORY_UPKEEP_TEST_PAUSE``, as a real model's reply takes seconds). After
both end, a byte search of the whole data dir must not find the word. Before
the user fence (stores/user_fence.py) the turn, which had read its thread
before the forget, wrote its checkpoints, the word in them, after it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.support import ROOT
from tests.support.chat_driver import cli_env as chat_env
from tests.support.chat_driver import until_prompt

ROUNDS = 12  # 1 in 5 kept copies before, with a real model
DELAY = 0.4  # the chat's consolidation delay (s)
BASE = [sys.executable, "-m", "app.cli", "--chat-model", "scripted", "--embedding-model", "hash:64"]


def _holding(data: Path, word: str) -> list[str]:
    return [str(p.relative_to(data)) for p in data.rglob("*") if p.is_file() and word.encode() in p.read_bytes()]


def test_forget_races_a_chat_in_another_process(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = chat_env(DELAY)
    left: dict[str, list[str]] = {}
    for n in range(ROUNDS):
        word = f"Brindlewick{n:02d}x"
        slow = {**env, "MEMORY_UPKEEP_TEST_PAUSE": str(1.0 + 0.5 * (n % 6))}  # the reply comes 1 to 3.5 s late
        chat = subprocess.Popen([*BASE, "--data-dir", str(data), "chat", "--user", "u", "--thread", f"t{n}"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                cwd=ROOT, env=slow)
        assert chat.stdin is not None
        try:
            until_prompt(chat)
            chat.stdin.write(f"My dog is {word}.\n")
            chat.stdin.flush()
            time.sleep(0.3)  # the turn has read (and checkpointed) its input
            forget = subprocess.run([*BASE, "--data-dir", str(data), "forget", "--user", "u", word],
                                    capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
            assert forget.returncode == 0, forget.stderr[-2000:]
            until_prompt(chat)
            time.sleep(DELAY)
            chat.stdin.write("/quit\n")
            chat.stdin.flush()
            chat.communicate(timeout=300)
        finally:
            if chat.poll() is None:
                chat.kill()
        found = _holding(data, word)
        if found:
            left[word] = found
    assert left == {}, left
