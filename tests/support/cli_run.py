"""`memory-agent` as a user runs it, on a real data dir with the env the test gives: in this process
(tests/support/cli.py: each call opens and closes the agent, a restart), or a subprocess where the
process boundary is what a test checks (``run_cli(..., process=True)``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support import cli as in_process

ROOT = Path(__file__).resolve().parents[2]
FAST = ("--chat-model", "scripted", "--embedding-model", "hash:64")


def cli_env(**extra: str) -> dict[str, str]:
    """This process's env without any MEMORY_* setting, the repo on the path, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    env.update(PYTHONPATH=str(ROOT), MEMORY_CONSOLIDATION_DELAY_S="0", **extra)
    return env


def run_cli(data: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None,
            timeout: float = 300, process: bool = False) -> subprocess.CompletedProcess[str]:
    """``memory-agent --data-dir DATA ARGS...`` (no exit-code check: tests assert on it)."""
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(data), *args]
    runner = subprocess.run if process else in_process.run
    return runner(cmd, input=stdin, capture_output=True, text=True, timeout=timeout, cwd=data.parent,
                  env=env if env is not None else cli_env())


def export(data: Path, user: str, *flags: str) -> dict[str, Any]:
    """``memories --user USER --json`` as data, its export time left out."""
    done = run_cli(data, *flags, *FAST, "memories", "--user", user, "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    out.pop("exported_at")
    return out
