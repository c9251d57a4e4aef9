"""``memory-agent upkeep`` as a user runs it: a subprocess on a real data dir, killed mid-pass and rerun."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.runtime import MemoryAgent
from core.context import Context
from memory.upkeep.items import PAUSE_ENV
from stores.namespaces import EPISODES, FACTS, PROFILE
from tests.support import cli as in_process
from tests.support.upkeep_helpers import plant, session, snapshot


def _untimed(report: str) -> str:
    return re.sub(r"in \d+\.\d+s$", "in <t>s", report.strip())


ROOT = Path(__file__).resolve().parents[1]
NOW = "2025-04-01T09:00:00Z"


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    env.update(PYTHONPATH=str(ROOT), MEMORY_DATA_DIR=str(data), MEMORY_CHAT_MODEL="scripted",
               MEMORY_EMBEDDING_MODEL="hash:384", MEMORY_USER_ID="alice", MEMORY_EPISODE_TTL_DAYS="60",
               MEMORY_UPKEEP_REFLECT_IMPORTANCE="5", **extra)
    return env


def cli(data: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return in_process.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=300,
                          env=_env(data, **extra), cwd=ROOT)


def _ctx(data: Path) -> Context:
    return Context(user_id="alice", data_dir=str(data), chat_model="scripted", embedding_model="hash:384",
                   episode_ttl_days=60.0)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """Two months of sessions: habits, a duplicate, a new partner, episodes to roll up and expire."""
    root = tmp_path / "data"
    with MemoryAgent(_ctx(root)) as agent:
        plant(agent, *(session(f"s{i}", i * 3, "I ordered the vegetarian lasagna.", f"I repainted room {i}.")
                       for i in range(16)),
              session("p1", 2, "My partner is Sam."), session("p2", 40, "My partner is Alex."))
        env = agent.env()
        [fact] = [i.value for i in env.store.search(env.scope.ns(FACTS), query="partner Alex")][:1]
        env.store.put(env.scope.ns(FACTS), "dup", {**fact, "id": "dup", "sources": ["p2-u0", "extra"]})
    return root


def _state(root: Path) -> dict:
    with MemoryAgent(_ctx(root)) as agent:
        return snapshot(agent)


def test_now_flag_and_env_set_the_clock_and_bad_values_are_one_line_errors(data: Path) -> None:
    done = cli(data, "--now", NOW, "upkeep", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "at 2025-04-01T09:00:00+00:00 (dry run" in done.stdout
    same = cli(data, "upkeep", "--dry-run", MEMORY_NOW=NOW).stdout
    assert _untimed(same) == _untimed(done.stdout)  # the pass's duration is wall-clock, not behaviour
    bad = cli(data, "--now", "next tuesday", "upkeep")
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "ISO-8601" in bad.stderr


def test_a_pass_then_a_second_pass_that_changes_nothing(data: Path) -> None:
    before = _state(data)
    dry = cli(data, "--now", NOW, "upkeep", "--dry-run")
    assert _state(data) == before
    first = cli(data, "--now", NOW, "upkeep")
    assert first.returncode == 0, first.stderr
    for line in ("facts merged 1", "facts superseded 1", "facts promoted 1", "weekly roll-ups", "monthly roll-ups",
                 "episodes expired", "review dates set", "reflect: skipped"):
        assert line in first.stdout, (line, first.stdout)
    assert "facts promoted 1" in dry.stdout
    after = _state(data)
    assert after != before
    assert after[PROFILE]["diet"]["text"] == "The user is vegetarian."
    second = cli(data, "--now", NOW, "upkeep")
    assert "0 change(s)" in second.stdout and _state(data) == after


def test_kill_minus_9_mid_pass_then_rerun_completes_without_duplicates(data: Path, tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    subprocess.run(["cp", "-r", str(data), str(reference)], check=True)
    assert cli(reference, "--now", NOW, "upkeep").returncode == 0
    expected = _state(reference)

    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "--now", NOW, "upkeep", "--no-progress"],
                            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env=_env(data, **{PAUSE_ENV: "0.3"}))
    assert proc.stderr is not None
    for line in proc.stderr:  # kill inside the roll-up step: merge and promote are done, roll-ups half written
        if line.startswith("upkeep: promote"):
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    partial = _state(data)
    assert partial != expected  # the kill did interrupt the pass

    rerun = cli(data, "--now", NOW, "upkeep")
    assert rerun.returncode == 0, rerun.stderr
    done = _state(data)
    strip = {"created_at"}  # roll-ups record when they were written

    def comparable(state: dict) -> dict:
        return {kind: {k: {f: v for f, v in val.items() if f not in strip} for k, val in items.items()}
                for kind, items in state.items()}

    assert comparable(done) == comparable(expected)
    rollups = [k for k, v in done[EPISODES].items() if v.get("level")]
    assert len(rollups) == len(set(rollups)) and rollups
    assert "0 change(s)" in cli(data, "--now", NOW, "upkeep").stdout
    alex = [v for v in done[FACTS].values() if "Alex" in v["text"]]
    assert len(alex) == 1 and "extra" in alex[0]["sources"]  # the duplicate merged away exactly once, sources kept
