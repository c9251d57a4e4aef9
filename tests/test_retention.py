"""``MEMORY_RETENTION_DAYS`` through the real CLI with ``--now``: nothing said before the limit stays on disk.

Fourteen months of sessions (tests/support/retention_world.py) are imported, two more
are chatted into checkpointed threads, memory files are written, and upkeep
rolls the episodes up (the roll-ups quote the old lines). Then the sweep runs
with a 90-day limit, and every file of the data dir (SQLite, WAL, FAISS,
checkpoints, memory files) is byte-searched, on Postgres the database's own
files too (after a CHECKPOINT, as the forget tests read them).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.runtime import MemoryAgent
from core.context import Context
from memory.clock import parse_now
from memory.tools.memory_files import MemoryFiles
from memory.upkeep.run import run_upkeep
from stores.namespaces import UserScope
from tests.support.backends import BackendUnderTest
from tests.support.retention_world import NOW, cli, cli_env, export, import_file, markers, ok

pytestmark = pytest.mark.both_backends  # "no byte left on disk": Postgres keeps its bytes elsewhere

OLD_CHAT, NEW_CHAT = "zorbchatold", "zorbchatnew"
OLD_NOTE, NEW_NOTE = "zorbnoteold", "zorbnotenew"


def _files_with(backend: BackendUnderTest, data: Path, needle: str) -> list[str]:
    return backend.files_containing(data, needle.encode())


def _seed(tmp: Path, data: Path, env: dict[str, str], user: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ok(cli(data, env, "import", "--user", user, "--no-progress", str(import_file(tmp, user))))
    for when, thread, word in (("2025-02-10T20:00:00Z", "oldchat", OLD_CHAT), ("2026-02-20T20:00:00Z", "newchat",
                                                                                  NEW_CHAT)):
        said = f"My cat {word}{user[:2]} sleeps in a cardboard box.\n/end\n/quit\n"
        ok(cli(data, env, "--now", when, "chat", "--user", user, "--thread", thread, stdin=said))
    files = MemoryFiles(data, UserScope(user))
    monkeypatch.setenv("MEMORY_NOW", "2025-03-01T10:00:00Z")
    files.create("/memories/old.md", f"# Old\n{OLD_NOTE}{user[:2]} was said in March\n")
    monkeypatch.setenv("MEMORY_NOW", "2026-02-25T10:00:00Z")
    quoted = f"We watched a documentary about {markers(user, old=True)[3]} tonight."
    files.create("/memories/notes.md", f"# Notes\n{NEW_NOTE}{user[:2]} is recent\n- {quoted}\n")
    monkeypatch.delenv("MEMORY_NOW")
    ok(cli(data, env, "--now", NOW, "upkeep", "--user", user, "--no-progress"))


@pytest.fixture(scope="module")
def local_seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The local backend's seeded data dir, made once; each test works on a copy."""
    tmp = tmp_path_factory.mktemp("retention")
    with pytest.MonkeyPatch.context() as patch:
        _seed(tmp, tmp / "data", cli_env({"MEMORY_BACKEND": "local"}), "alice", patch)
    return tmp / "data"


@pytest.fixture
def world(backend: BackendUnderTest, tmp_path: Path, request: pytest.FixtureRequest,
          monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    data, env = tmp_path / "data", cli_env(backend.env)
    if backend.kind == "local":
        shutil.copytree(request.getfixturevalue("local_seeded"), data)
    else:  # a Postgres database is emptied for each test, so it is seeded for each
        _seed(tmp_path, data, env, "alice", monkeypatch)
    return {"data": data, "env": env, "backend": backend}


def _old_words(user: str) -> list[str]:
    return [*markers(user, old=True), f"{OLD_CHAT}{user[:2]}", f"{OLD_NOTE}{user[:2]}"]


def _new_words(user: str) -> list[str]:
    return [*markers(user, old=False), f"{NEW_CHAT}{user[:2]}", f"{NEW_NOTE}{user[:2]}"]


def test_90_days_leaves_no_byte_of_older_words_anywhere(world: dict[str, Any]) -> None:
    data, env, backend = world["data"], world["env"], world["backend"]
    # The old thread is taken up again lately: it stays, but its old messages must not.
    ok(cli(data, env, "--now", "2026-02-26T20:00:00Z", "chat", "--user", "alice", "--thread", "oldchat",
           stdin="Back again, thanks.\n/quit\n"))
    before = export(data, env, "alice")
    assert any(_files_with(backend, data, w) for w in _old_words("alice"))  # the old words are on disk today
    assert any((r["text"] or "").startswith("January 2025") for r in before["episodes"])  # a roll-up quotes them

    out = ok(cli(data, {**env, "MEMORY_RETENTION_DAYS": "90"}, "--now", NOW, "expire"))
    assert "retention for 'alice'" in out and "messages" in out, out

    left = {w: _files_with(backend, data, w) for w in _old_words("alice")}
    assert not any(left.values()), {w: f for w, f in left.items() if f}
    kept = {w: _files_with(backend, data, w) for w in _new_words("alice")}
    assert all(kept.values()), kept  # what was said inside the limit is all still there
    after = export(data, env, "alice")
    for kind in ("facts", "rules"):
        assert {r["key"] for r in after[kind]} == {r["key"] for r in before[kind]}
    for part in ("current", "history"):
        assert {r["key"] for r in after["profile"][part]} == {r["key"] for r in before["profile"][part]}
    diet = [r["value"] for r in after["profile"]["current"] if r["key"] == "diet"]
    assert diet and diet[0]["provenance"] == "source expired" and "vegetarian" in diet[0]["text"]
    assert {t["thread_id"].split(":")[-1] for t in after["threads"]} == {"newchat", "oldchat"}
    assert _files_with(backend, data, "Back again")

    again = ok(cli(data, {**env, "MEMORY_RETENTION_DAYS": "90"}, "--now", NOW, "expire"))
    assert "retention for" not in again and export(data, env, "alice") == after  # a second sweep changes nothing


def test_upkeep_enforces_it_too_and_roll_ups_lose_only_their_old_lines(world: dict[str, Any]) -> None:
    data, env, backend = world["data"], world["env"], world["backend"]
    ctx = Context(user_id="alice", data_dir=str(data), chat_model="scripted", embedding_model="hash:384")
    with MemoryAgent(ctx) as agent:  # retention off at start: the upkeep step alone enforces it
        at_90 = replace(agent.env(), context=replace(agent.context, retention_days=90.0), now=parse_now(NOW))
        report = run_upkeep(at_90, checkpointer=agent.checkpointer)
    [step] = [s for s in report.steps if s.name == "retention"]
    assert step.counts.get("messages", 0) > 0 and step.counts.get("threads") == 1, step.counts
    assert not any(_files_with(backend, data, w) for w in _old_words("alice"))
    episodes = export(data, env, "alice")["episodes"]
    assert episodes and all(str(e["value"]["time"]) >= "2025-12-01" for e in episodes)
    for e in (e["value"] for e in episodes if e["value"].get("level")):
        assert len(e["line_times"]) == len(e["text"].splitlines()) - 1
        assert all(t >= "2025-12-01" for t in e["line_times"])


def test_retention_off_changes_nothing(local_seeded: Path, tmp_path: Path) -> None:
    data, env = tmp_path / "data", cli_env({"MEMORY_BACKEND": "local"})
    shutil.copytree(local_seeded, data)
    before, files = export(data, env, "alice"), sorted(p.name for p in data.rglob("*"))
    out = ok(cli(data, env, "--now", NOW, "expire"))
    assert "retention for" not in out
    assert export(data, env, "alice") == before and sorted(p.name for p in data.rglob("*")) == files
