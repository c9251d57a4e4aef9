"""Fourteen months of one user's life on a real data dir, for the retention tests.

Every session says one line with a marker word of its own (``zorb0105a``: month
5 of the run, first session), so a byte search tells exactly which sessions'
words are still on disk. January's first session also states a diet and a
partner, so profile slots and facts exist whose source will expire.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.support import cli as in_process
from tests.support.cli_run import ROOT

START = datetime(2025, 1, 6, 18, 0, tzinfo=UTC)
NOW = "2026-03-01T09:00:00+00:00"
CUTOFF_90 = datetime(2025, 12, 1, 9, 0, tzinfo=UTC)
FAST = ("--chat-model", "scripted", "--embedding-model", "hash:384")


def marker(user: str, n: int, k: int) -> str:
    return f"zorb{user[:2]}{n:02d}{'ab'[k]}"


def sessions(user: str, months: int = 14) -> list[tuple[datetime, str, list[str]]]:
    """(when, thread, user lines) of two sessions a month for ``months`` months."""
    out = []
    for n in range(months):
        for k, day in enumerate((0, 14)):
            when = START + timedelta(days=30.5 * n + day)
            lines = [f"We watched a documentary about {marker(user, n, k)} tonight."]
            if n == 0 and k == 0:
                lines += ["I am vegetarian.", "My partner is Sam."]
            out.append((when, f"{user}-s{n:02d}{k}", lines))
    return out


def import_file(tmp: Path, user: str, months: int = 14) -> Path:
    """The sessions as an import JSONL (each user line answered by a short reply)."""
    rows: list[dict[str, Any]] = []
    for when, thread, lines in sessions(user, months):
        for i, text in enumerate(lines):
            at = when + timedelta(minutes=2 * i)
            rows.append({"thread": thread, "id": f"{thread}-u{i}", "time": at.isoformat(), "role": "user", "text": text})
            rows.append({"thread": thread, "id": f"{thread}-a{i}", "time": (at + timedelta(minutes=1)).isoformat(),
                         "role": "assistant", "text": "Noted, thanks for telling me."})
    path = tmp / f"{user}.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def markers(user: str, *, old: bool, cutoff: datetime = CUTOFF_90) -> list[str]:
    """The markers of the sessions said before ``cutoff`` (``old``) or since."""
    return [marker(user, int(t[-3:-1]), int(t[-1])) for when, t, _ in sessions(user) if (when < cutoff) == old]


def cli_env(backend_env: dict[str, str], **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_") and k != "POSTGRES_URI"}
    env.update(PYTHONPATH=str(ROOT), MEMORY_CONSOLIDATION_DELAY_S="0", **backend_env, **extra)
    return env


def cli(data: Path, env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``memory-agent --data-dir DATA <fast models> ARGS`` with ``env``, in this process; asserts nothing."""
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(data), *FAST, *args]
    return in_process.run(cmd, input=stdin, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def export(data: Path, env: dict[str, str], user: str) -> dict[str, Any]:
    out = json.loads(ok(cli(data, env, "memories", "--user", user, "--json")))
    out.pop("exported_at", None)
    return out
