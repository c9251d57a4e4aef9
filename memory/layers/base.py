"""What a memory layer is: an object with a read policy and a write policy.

The graph builder takes a list of layers and makes two nodes of each, named by
its ``name``: ``recall_<name>`` calls its ``recall`` (skipped for a turn when the
layer's optional ``can_recall`` says it has nothing to offer); ``consolidate_<name>`` calls
its ``on_turn`` after each turn and ``on_session_end`` when the session ends. A layer touches long-term data only
through ``env.store`` (LangGraph's ``BaseStore``) and only under ``env.scope``,
so any store works. ``env.store`` is always a ``MemoryGate`` (memory/write_policy/gate.py)
bound to ``env.scope``: a raw store given to ``LayerEnv`` is wrapped on
construction, so no layer can reach another user's namespace, store a secret,
store a memory without provenance, or write while the user's memory is off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Literal, Protocol, runtime_checkable

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langgraph.store.base import BaseStore

from memory import clock
from memory.write_policy.gate import MemoryGate
from stores.namespaces import UserScope

Kind = Literal["summary", "profile", "rule", "fact", "history", "episode", "message", "knowledge", "task", "person"]


@dataclass(frozen=True)
class Recalled:
    """One memory offered to the prompt. ``sources`` are message ids (provenance)."""

    kind: Kind
    text: str
    score: float
    sources: tuple[str, ...] = ()
    key: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The state's form of this memory (a shallow copy: ``dataclasses.asdict``'s
        deep copy of every field was a measurable share of a turn).
        """
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["meta"] = dict(self.meta)
        return out


@dataclass(frozen=True)
class LoggedMessage:
    """A message as the message log and the extractors see it."""

    id: str
    thread: str
    time: datetime
    role: Literal["user", "assistant"]
    text: str
    name: str | None = None


def approve_all(proposal: dict[str, Any]) -> bool:
    """Consent policy when nobody is asked (imports, review switched off)."""
    return True


@dataclass
class LayerEnv:
    """What a layer may use. Built by the graph (or the importer) from config.

    ``store`` becomes the user's ``MemoryGate`` whatever store is passed in; a
    gate bound to another user is refused.
    """

    store: BaseStore
    scope: UserScope
    context: Any  # core.context.Context; typed loosely to keep layers free of that import
    embeddings: Embeddings
    chat_model: BaseChatModel | None = None
    now: datetime = field(default_factory=clock.now)  # MEMORY_NOW / --now simulate time
    # Asked before a layer saves something that needs the user's consent (rule review).
    approve: Callable[[dict[str, Any]], bool] = approve_all
    # Thread state for the working-memory layer: messages and running summary.
    state: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.store, MemoryGate):
            self.store = MemoryGate(self.store, self.scope)
        elif self.store.scope != self.scope:
            raise ValueError(f"the store is gated for user {self.store.scope.user_id!r}, not {self.scope.user_id!r}")

    @property
    def gate(self) -> MemoryGate:
        """``store``, typed as the gate it always is."""
        assert isinstance(self.store, MemoryGate)
        return self.store


@runtime_checkable
class MemoryLayer(Protocol):
    """A memory layer: its read policy (recall) and its write policies (per turn and per session)."""
    name: str

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        """Read policy: what this layer offers the prompt for ``query``."""

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        """Write policy, cheap part: runs after every turn, never calls an LLM.

        May return a partial graph-state update (the working-memory layer does).
        """

    def on_session_end(self, env: LayerEnv, session: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        """Write policy, slow part: runs once when a session ends; may call an LLM."""


class LayerBase:
    """Convenience base: every hook is a no-op until a layer overrides it."""

    name = "layer"

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        return []

    def can_recall(self, env: LayerEnv, query: str) -> bool:
        """False only when ``recall`` surely finds nothing for ``query``, known cheaply: the graph then
        skips the layer's recall node this turn (each node run costs the turn a task). Optional: a layer
        without it is always run.
        """
        return True

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        return None

    def on_session_end(self, env: LayerEnv, session: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        return None
