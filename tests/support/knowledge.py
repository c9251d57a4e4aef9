"""The knowledge base tests' shared policy document and ``memory-agent`` calls (in this process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support import cli as in_process

ROOT = Path(__file__).resolve().parents[2]
MODELS = ("--chat-model", "scripted", "--embedding-model", "hash:384")

POLICY = """# Returns

Unopened items may be returned within 30 days of delivery; quote order number and reason.

## Food

Perishable food such as cheese cannot be returned after 7 days. Marker: zorblaxpolicy.
"""


def cli_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "MEMORY_CONSOLIDATION_DELAY_S": "0"}


def cli(data: Path, *args: str, ok: bool = True, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``memory-agent --data-dir DATA <scripted, hash:384> ARGS`` in this process (a restart per call)."""
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(data), *MODELS, *args]
    done = in_process.run(cmd, input=stdin, cwd=ROOT, env=cli_env(), timeout=120)
    if ok:
        assert done.returncode == 0, done.stderr[-2000:]
    return done


def chat(data: Path, user: str, *lines: str) -> str:
    """One chat session fed ``lines`` (each typed once the agent is idle: the turn runs before the next is read)."""
    done = cli(data, "chat", "--user", user, stdin="".join(line + "\n" for line in lines))
    return done.stdout + done.stderr


def search(data: Path, query: str, k: int = 50) -> list[dict[str, Any]]:
    out = cli(data, "knowledge", "search", query, "--k", str(k), "--json").stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]
