"""memory-off stops every long-term write: through the real CLI, and as a property.

The CLI test runs ``python -m app.cli`` in subprocesses on one data dir; the
property test drives random operations for a user whose memory is off and
compares a dump of that user's long-term namespaces, dates included, before and
after: nothing may be added, changed or even rewritten. The property and the
forget test also run on the Postgres backend (the property with fewer examples).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from app.chat_repl import handle_command
from app.runtime import MemoryAgent
from core.context import Context
from memory.layers import default_layers
from memory.layers.base import LoggedMessage
from memory.privacy.consent import set_memory_enabled
from memory.tools.memory_file_tool import memory_file_tool
from memory.tools.memory_tools import make_memory_tools
from memory.write_policy.gate import MemoryOff
from nodes.importer import import_messages
from stores.namespaces import SETTINGS, THREADS, UserScope
from tests.support import cli as in_process
from tests.support.backends import BackendUnderTest, empty_database, use_backend

ROOT = Path(__file__).resolve().parents[1]
OFF_MESSAGE = "long-term memory is off for this user; nothing was saved"


def cli(data: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(data), "--chat-model", "scripted",
           "--embedding-model", "hash:64", *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = in_process.run(cmd, input=stdin, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def files_holding(root: Path, needle: bytes) -> list[str]:
    return [str(p.relative_to(root)) for p in sorted(root.rglob("*")) if p.is_file() and needle in p.read_bytes()]


def test_remember_with_memory_off_stores_nothing_through_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "data"
    cli(data, "memory-off", "--user", "alice")
    out = cli(data, "chat", "--user", "alice", "--thread", "t1", stdin="/remember I hate cilantro\n/quit\n").stdout
    assert f"({OFF_MESSAGE})" in out
    assert "cilantro" not in cli(data, "memories", "--user", "alice", "--json").stdout
    assert files_holding(data, b"cilantro") == []
    # The same command for a user with memory on does store it, so the checks above can see it.
    assert "(remembered 1 fact(s))" in cli(data, "chat", "--user", "bob", stdin="/remember I hate cilantro\n/quit\n").stdout
    assert "cilantro" in cli(data, "memories", "--user", "bob", "--json").stdout


OFF_USER, ON_USER = "ann", "ben"
NUMS = st.integers(min_value=0, max_value=5)


class MemoryOffLeavesNoTrace(RuleBasedStateMachine):
    """Every write path, run for a user whose memory is off, leaves their long-term memory as it was."""

    database: tuple[str, str] | None = None  # (admin URI, name) for the Postgres run: emptied per example

    @initialize()
    def open(self) -> None:
        if self.database:
            empty_database(*self.database)
        self.dir = tempfile.mkdtemp(prefix="consent-")
        ctx = Context(user_id=OFF_USER, data_dir=self.dir, chat_model="scripted", embedding_model="hash:64",
                      review_rules=False)
        self.agent = MemoryAgent(ctx)
        assert type(self.agent.store).__name__ == ("HybridPostgresStore" if self.database else "FaissSqliteStore")
        self.agent.say("I'm vegetarian and I live in Porto. Please be more concise.", "seed")
        self.agent.end_session("seed")
        set_memory_enabled(self.agent.store, UserScope(OFF_USER), False)
        self.before = self.dump()
        self.clock = datetime(2026, 1, 1, tzinfo=UTC)

    def teardown(self) -> None:
        if hasattr(self, "agent"):
            self.agent.close()
            shutil.rmtree(self.dir, ignore_errors=True)

    def dump(self) -> bytes:
        """Every long-term item of the user with its dates, as bytes (bookkeeping left out)."""
        scope = UserScope(OFF_USER)
        items = [i for i in self.agent.store.search(scope.root, limit=10_000)
                 if i.namespace[2] not in (SETTINGS, THREADS)]
        rows = sorted((list(i.namespace), i.key, i.value, i.created_at.isoformat(), i.updated_at.isoformat())
                      for i in items)
        assert rows, "the seed session stored nothing to protect"
        return json.dumps(rows, sort_keys=True).encode()

    @rule(n=NUMS)
    def chat_turn(self, n: int) -> None:
        self.agent.say(f"I'm allergic to peanuts number {n}. From now on answer in French.", f"t{n % 2}")

    @rule(n=NUMS)
    def end_session(self, n: int) -> None:
        self.agent.end_session(f"t{n % 2}")

    @rule(n=NUMS)
    def remember_command(self, n: int) -> None:
        assert handle_command(self.agent, "t0", f"/remember I hate cilantro {n}") == f"({OFF_MESSAGE})"

    @rule(n=NUMS)
    def remember_tool(self, n: int) -> None:
        tools = {t.name: t for t in make_memory_tools(self.agent.env())}
        assert "switched off" in tools["remember"].invoke({"text": f"I love hiking number {n}"})

    @rule(n=NUMS)
    def memory_file(self, n: int) -> None:
        tool = memory_file_tool(self.dir, self.agent.env().gate)
        args = {"command": "create", "path": f"/memories/n{n}.md", "file_text": "I hate cilantro\n"}
        assert tool.invoke(args) == f"Error: {OFF_MESSAGE}"

    @rule(n=NUMS)
    def import_thread(self, n: int) -> None:
        self.clock += timedelta(minutes=5)
        msgs = [LoggedMessage(id=f"imp-{n}-{i}-{self.clock.timestamp()}", thread=f"imp-{n}", role="user",
                              time=self.clock + timedelta(seconds=i), text=f"I live in Lisbon, plan {n}.")
                for i in range(2)]
        try:
            import_messages(msgs, self.agent.env(), default_layers(), progress=False)
        except MemoryOff as err:
            assert str(err) == OFF_MESSAGE
        else:
            raise AssertionError("an import with memory off must be refused")

    @invariant()
    def untouched(self) -> None:
        if hasattr(self, "agent"):
            assert self.dump() == self.before
            assert not list(Path(self.dir, "memories").rglob("*.md"))


MemoryOffLeavesNoTrace.TestCase.settings = settings(
    max_examples=8, stateful_step_count=10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestMemoryOffLeavesNoTrace = MemoryOffLeavesNoTrace.TestCase


class PostgresMemoryOffLeavesNoTrace(MemoryOffLeavesNoTrace):
    """The same machine on the Postgres store and checkpointer (fewer examples)."""


PostgresMemoryOffLeavesNoTrace.TestCase.settings = settings(
    max_examples=4, stateful_step_count=10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestMemoryOffLeavesNoTracePostgres = PostgresMemoryOffLeavesNoTrace.TestCase


@pytest.fixture(autouse=True)
def _postgres_for_the_property(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.cls is TestMemoryOffLeavesNoTracePostgres:
        db = use_backend("postgres", request, monkeypatch)
        monkeypatch.setattr(PostgresMemoryOffLeavesNoTrace, "database", (db.admin_uri, db.dbname))


def test_forget_and_delete_user_still_work_with_memory_off(ctx: Context, backend: BackendUnderTest) -> None:
    """Forgetting re-indexes the neighbours of a forgotten message: a write the
    gate allows only on its explicit ``forgetting()`` path, memory off or not."""
    scope = UserScope(ctx.user_id)
    with MemoryAgent(ctx) as agent:
        agent.say("Hello there.", "t1")
        agent.say("We named the new zoo zebra zebra-77.", "t1")
        agent.say("I also like green tea.", "t1")
        set_memory_enabled(agent.store, scope, False)
        report = agent.forget("zebra-77")
        assert report.deleted.get("messages")
        assert "zebra" not in json.dumps([i.value for i in agent.store.search(scope.root, limit=1000)])
        tools = {t.name: t for t in make_memory_tools(agent.env())}
        assert "deleted" in tools["forget"].invoke({"text": "green tea"})
        agent.delete_user(ctx.user_id)
        assert agent.store.search(scope.root) == []
