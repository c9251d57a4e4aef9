"""Where the page's memory comes from: the local data dir (one user) or the server's store (token users).

Both hand out a ``UserMemory``: the user's gated layer environment plus the raw
store, checkpointer and data dir that forget and delete-user need. Access is
serialised by one lock: the local store and checkpointer are single SQLite
connections, and the page is not a hot path.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.store.base import BaseStore

from app.runtime import MemoryAgent
from core.auth_tokens import Unauthenticated, active_verifier, bearer_user
from core.context import Context
from memory.layers import default_layers
from memory.layers.base import LayerEnv, MemoryLayer
from models.loader import load_embeddings
from stores.namespaces import UserScope

T = TypeVar("T")


class NotAllowed(PermissionError):
    """The request's identity may not see this page (the message says why)."""


@dataclass(frozen=True)
class Identity:
    """Who is asking: a user (their own memory only) or an operator (knowledge and counts only)."""

    user: str
    operator: bool = False


@dataclass
class UserMemory:
    """One user's memory as the page reads and changes it."""

    env: LayerEnv
    store: BaseStore  # raw: forget, delete-user and the export read under the user's root
    checkpointer: BaseCheckpointSaver | None
    data_dir: Path | None
    layers: list[MemoryLayer]
    agent: MemoryAgent | None = None  # local only: the graph that holds pending rule reviews

    @property
    def context(self) -> Context:
        return self.env.context  # type: ignore[no-any-return]


class Source:
    """Base: one lock around every use of the store; subclasses say who asks and open the memory."""

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def identity(self, authorization: str | None) -> Identity:
        raise NotImplementedError

    def open(self, user: str) -> UserMemory:
        raise NotImplementedError

    def raw_store(self) -> BaseStore:
        raise NotImplementedError

    async def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` off the event loop, one at a time."""
        def locked() -> T:
            with self.lock:
                return fn()

        return await asyncio.to_thread(locked)


class LocalSource(Source):
    """``memory-agent ui``: the data dir this process opened, for the one user named with --user."""

    def __init__(self, agent: MemoryAgent) -> None:
        super().__init__()
        self.agent = agent

    def identity(self, authorization: str | None) -> Identity:
        return Identity(self.agent.context.user_id)

    def open(self, user: str) -> UserMemory:
        view = self.agent.for_user(user)
        return UserMemory(view.env(), view.store, view.checkpointer, view.data_dir, view.layers, view)

    def raw_store(self) -> BaseStore:
        return self.agent.store


class ServerSource(Source):
    """Mounted in ``langgraph dev``: the server's store, users from its bearer tokens (core/auth_tokens.py).

    Conversation threads belong to the server's checkpointer, which this app does
    not hold: forget reports them as kept (``ForgetReport.threads_kept``).
    """

    def __init__(self, store_getter: Callable[[], Any]) -> None:
        super().__init__()
        self._get_store = store_getter
        self._store: BaseStore | None = None
        self._context: Context | None = None

    def identity(self, authorization: str | None) -> Identity:
        if active_verifier() is None:
            raise NotAllowed("this server runs without auth (MEMORY_AUTH_TOKENS or MEMORY_AUTH_JWT_KEY): "
                             "the memory page is served only behind auth here; run `memory-agent ui` locally")
        try:
            user = bearer_user(authorization)
        except Unauthenticated as err:
            raise NotAllowed(str(err)) from None
        from graph.auth import operators  # imported here: importing graph.auth logs the no-auth warning

        return Identity(user, operator=user in operators())

    async def ready(self) -> None:
        """Fetch the server's store once (it exists only inside the running server)."""
        if self._store is None:
            self._store = await self._get_store()
            self._context = await asyncio.to_thread(Context)

    def raw_store(self) -> BaseStore:
        assert self._store is not None, "ready() first"
        return self._store

    def open(self, user: str) -> UserMemory:
        assert self._context is not None, "ready() first"
        ctx = replace(self._context, user_id=user)
        env = LayerEnv(store=self.raw_store(), scope=UserScope(user), context=ctx,
                       embeddings=load_embeddings(ctx.embedding_model))
        return UserMemory(env, self.raw_store(), None, Path(ctx.data_dir), list(default_layers()))
