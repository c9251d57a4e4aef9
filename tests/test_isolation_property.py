"""Isolation as a property: random interleaved operations by many users never cross users.

Each user writes only text carrying their own tag word. Whatever any operation
returns to a user — recall from every layer, memory-tool output, file views,
export, recall through the graph — must carry no other user's tag, and a thread
is never readable under another user's id. Runs on the real FAISS + SQLite store
and SQLite checkpointer, and (fewer examples: each one gets a fresh database) on
the Postgres store and checkpointer of a real server.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers import default_layers
from memory.layers.base import LoggedMessage
from memory.layers.semantic import remember
from memory.privacy.export import export_user
from memory.tools.memory_files import MemoryFiles
from memory.tools.memory_tools import make_memory_tools
from nodes.importer import import_messages

TAGS = {"ann": "amaranth", "ben": "bergamot", "cal": "cardamom", "dee": "dillweed"}
USERS = st.sampled_from(sorted(TAGS))
NUMS = st.integers(min_value=0, max_value=6)


def foreign(user: str, text: str) -> list[str]:
    """Other users' tags found in ``text``."""
    low = text.lower()
    return [tag for who, tag in TAGS.items() if who != user and tag in low]


class Isolation(RuleBasedStateMachine):
    admin_uri: str | None = None  # set for the Postgres run: each example gets its own database

    @initialize()
    def open(self) -> None:
        if self.admin_uri:
            self.db = f"iso_{os.urandom(6).hex()}"
            with psycopg.connect(self.admin_uri, autocommit=True) as conn:
                conn.execute(f"CREATE DATABASE {self.db}")
            os.environ.update(MEMORY_BACKEND="postgres", POSTGRES_URI=psycopg.conninfo.make_conninfo(self.admin_uri, dbname=self.db))
        self.dir = tempfile.mkdtemp(prefix="iso-")
        self.agents: dict[str, MemoryAgent] = {}
        first = None
        for user in TAGS:
            ctx = Context(user_id=user, data_dir=self.dir, chat_model="scripted", embedding_model="hash:64", review_rules=False)
            agent = MemoryAgent(ctx) if first is None else _sharing(first, ctx)
            first = first or agent
            self.agents[user] = agent
        self.layers = default_layers()
        assert type(first.store).__name__ == ("HybridPostgresStore" if self.admin_uri else "FaissSqliteStore")
        self.clock = datetime(2026, 1, 1, tzinfo=UTC)

    def teardown(self) -> None:
        if hasattr(self, "agents"):
            next(iter(self.agents.values())).close()
            shutil.rmtree(self.dir, ignore_errors=True)
        if self.admin_uri and hasattr(self, "db"):
            os.environ.update(MEMORY_BACKEND="local")
            with psycopg.connect(self.admin_uri, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {self.db} WITH (FORCE)")

    def check(self, user: str, output: object) -> None:
        text = output if isinstance(output, str) else json.dumps(output, default=str)
        assert foreign(user, text) == [], f"{user} saw {foreign(user, text)}: {text[:300]}"

    @rule(user=USERS, n=NUMS)
    def remember_fact(self, user: str, n: int) -> None:
        remember(self.agents[user].env(), f"remember that my {TAGS[user]} number is {n}")

    @rule(user=USERS, n=NUMS)
    def chat_turn(self, user: str, n: int) -> None:
        result = self.agents[user].say(f"I love {TAGS[user]} tea number {n}.", f"t{n % 2}")
        self.check(user, [result.reply, result.recalled, result.system_prompt])

    @rule(user=USERS, other=USERS)
    def recall_everything(self, user: str, other: str) -> None:
        env = self.agents[user].env()
        for layer in self.layers:
            self.check(user, [r.text for r in layer.recall(env, f"{TAGS[other]} number tea")])

    @rule(user=USERS, n=NUMS)
    def import_thread(self, user: str, n: int) -> None:
        self.clock += timedelta(minutes=5)
        msgs = [
            LoggedMessage(id=f"{user}-imp-{n}-{i}", thread=f"imp-{n}", time=self.clock + timedelta(seconds=i),
                          role="user" if i % 2 == 0 else "assistant", text=f"We talked about {TAGS[user]} plan {n}.")
            for i in range(2)
        ]
        import_messages(msgs, self.agents[user].env(), self.layers, progress=False)

    @rule(user=USERS, other=USERS, n=NUMS)
    def memory_tools(self, user: str, other: str, n: int) -> None:
        tools = {t.name: t for t in make_memory_tools(self.agents[user].env())}
        self.check(user, tools["search_memory"].invoke({"query": f"{TAGS[other]} number {n}"}))
        files = MemoryFiles(self.dir, self.agents[user].env().scope)
        files.execute("create", path=f"/memories/{TAGS[user]}-{n}.md", file_text=f"{TAGS[user]} note {n}\n")
        self.check(user, files.execute("view", path="/memories"))

    @rule(user=USERS, n=NUMS)
    def forget_something(self, user: str, n: int) -> None:
        before = {u: _count(a) for u, a in self.agents.items() if u != user}
        self.agents[user].forget(f"{TAGS[user]} number is {n}")
        assert before == {u: _count(a) for u, a in self.agents.items() if u != user}

    @rule(user=USERS)
    def delete_user(self, user: str) -> None:
        before = {u: _count(a) for u, a in self.agents.items() if u != user}
        self.agents[user].delete_user(user)
        assert _count(self.agents[user]) == 0
        assert before == {u: _count(a) for u, a in self.agents.items() if u != user}

    @rule(user=USERS, other=USERS, n=NUMS)
    def threads_stay_private(self, user: str, other: str, n: int) -> None:
        self.check(user, [m.text for m in self.agents[user].thread_messages(f"t{n % 2}")])

    @invariant()
    def exports_are_own(self) -> None:
        if not hasattr(self, "agents"):
            return
        for user, agent in self.agents.items():
            self.check(user, export_user(agent.store, agent.env().scope, agent.data_dir))


def _sharing(first: MemoryAgent, ctx: Context) -> MemoryAgent:
    """Another user's agent on the same store, checkpointer and data dir (one process)."""
    agent = object.__new__(MemoryAgent)
    agent.__dict__.update(first.__dict__)
    agent.context = Context(**{**first.context.__dict__, "user_id": ctx.user_id})
    return agent


def _count(agent: MemoryAgent) -> int:
    data = export_user(agent.store, agent.env().scope, agent.data_dir)
    return len(data["profile"]["current"]) + len(data["facts"]) + len(data["episodes"]) + data["messages"]["total"] + len(data["memory_files"])


Isolation.TestCase.settings = settings(
    max_examples=60, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestIsolation = Isolation.TestCase


class PostgresIsolation(Isolation):
    """The same machine on the Postgres backend."""


PostgresIsolation.TestCase.settings = settings(
    max_examples=8, stateful_step_count=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestIsolationPostgres = PostgresIsolation.TestCase


@pytest.fixture(autouse=True)
def _postgres_server(request: pytest.FixtureRequest) -> None:
    if request.cls is TestIsolationPostgres:
        PostgresIsolation.admin_uri = request.getfixturevalue("pg_admin")
