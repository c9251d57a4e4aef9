"""The one gate every long-term write passes through: ``MemoryGate``.

The README and docs/privacy.md promise that a user's memory stays theirs, that secrets are never
stored, that every memory says where it came from, and that ``memory-off``
stops every long-term write. ``MemoryGate`` is a ``BaseStore`` over the raw
store, bound to one ``UserScope``; ``LayerEnv.store`` is always one, so a new
layer or tool keeps the promises without knowing them, and the server's HTTP
store API admits a client's put through ``aadmit``. For every op:

- its namespace must lie under the scope's root ``("users", <id>)``
  (``OutsideScope`` otherwise): isolation is enforced where data is stored;
- a put with a value is refused with ``MemoryOff`` while the user's memory is
  switched off (bookkeeping kinds SETTINGS and THREADS excepted), has every
  string in it (dict keys too) redacted (``stores/redaction/secrets.py``), is refused
  when its key or a namespace label holds a secret, must carry provenance
  (``sources``; a logged message's own ``id``) and must fit the size limits
  (these two per-value rules live in ``put_value_rules.py``);
- deletes always pass (forget and delete-user work with memory off); reads
  pass through;
- the shared knowledge base (``KNOWLEDGE_ROOT``) is read-only: every user may
  get and search it, and every put or delete there is refused with
  ``KnowledgeReadOnly``. Only the operator's path (``memory/knowledge/``, on the
  raw store, run by ``memory-agent knowledge``) writes it.

A refused batch writes nothing: every op is checked before the raw store sees
the batch. The consent switch is read at most once per gate (gates live for
one node run or one command) and re-read after SETTINGS is written through it.

Privacy code that must act with memory off uses the explicit, named paths:
``forgetting()`` (a gate that skips only the consent rule, because forgetting
rewrites what survives) and ``raw`` (whole-user deletion and scrubbing).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from langgraph.store.base import BaseStore, GetOp, ListNamespacesOp, Op, PutOp, Result, SearchOp

from memory.privacy.consent import MEMORY_SWITCH_KEY, is_memory_enabled, switch_value
from memory.write_policy.put_value_rules import (
    BOOKKEEPING,
    MAX_STRING_CHARS,
    MAX_VALUE_BYTES,
    check_provenance,
    check_size,
)
from memory.write_policy.refusals import (  # noqa: F401  (re-exported: callers import the refusals from the gate)
    KnowledgeReadOnly,
    MemoryOff,
    MissingProvenance,
    OutsideScope,
    TooLarge,
    WriteRefused,
)
from stores.namespaces import SETTINGS, UserScope, is_knowledge
from stores.redaction.names import secret_in_names
from stores.redaction.scrub import redact_deep
from stores.redaction.secrets import redact

Change = Callable[[dict[str, Any] | None], dict[str, Any] | None]


_fallback_locks: weakref.WeakKeyDictionary[BaseStore, threading.Lock] = weakref.WeakKeyDictionary()
_fallback_guard = threading.Lock()


def _lock_for(store: BaseStore) -> threading.Lock:
    with _fallback_guard:
        return _fallback_locks.setdefault(store, threading.Lock())


class MemoryGate(BaseStore):
    """A user-scoped store that enforces the write rules above on the raw store it wraps.

    ``raw`` keeps the data; every op stays under ``scope``; ``consent`` enforces the memory
    switch (only ``forgetting()`` turns it off); ``max_value_bytes`` / ``max_string_chars`` bound one put.
    """

    def __init__(
        self,
        raw: BaseStore,
        scope: UserScope,
        *,
        consent: bool = True,
        max_value_bytes: int = MAX_VALUE_BYTES,
        max_string_chars: int = MAX_STRING_CHARS,
    ) -> None:
        if not isinstance(scope, UserScope):
            raise TypeError(f"MemoryGate needs a UserScope, got {type(scope).__name__}")
        self._raw = raw
        self.scope = scope
        self.consent = consent
        self.max_value_bytes = max_value_bytes
        self.max_string_chars = max_string_chars
        self._enabled: bool | None = None  # the memory switch, read lazily
        # BaseStore.put checks TTL support on the store it is called on.
        self.supports_ttl = raw.supports_ttl
        self.ttl_config = getattr(raw, "ttl_config", None)

    # -- explicit ways around the rules, for privacy code only -------------------

    @property
    def raw(self) -> BaseStore:
        """The unguarded store. Only for privacy code acting on a whole user (delete-user, scrubbing)."""
        return self._raw

    def forgetting(self) -> MemoryGate:
        """This gate without the consent rule, for ``forget``: removing a message
        re-indexes its neighbours, and forgetting must work with memory off.
        """
        return MemoryGate(self._raw, self.scope, consent=False, max_value_bytes=self.max_value_bytes,
                          max_string_chars=self.max_string_chars)

    def scrub(self, prefix: tuple[str, ...]) -> None:
        """Make this user's deletions physical (the raw store's scoped ``scrub``, when it has one).

        Only the user's own prefix is accepted: scrubbing rewrites what held the
        data, and another user's partitions are none of this gate's business.
        """
        self._in_scope(prefix)
        scrub = getattr(self._raw, "scrub", None)
        if callable(scrub):
            scrub(tuple(prefix))

    # -- BaseStore --------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        checked = self._check_all(ops, self.memory_enabled)
        results = self._raw.batch(checked)
        self._after(ops)
        return self._own(ops, results)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        await self._aread_switch(ops)
        checked = self._check_all(ops, self.memory_enabled)
        results = await self._raw.abatch(checked)
        self._after(ops)
        return self._own(ops, results)

    async def aadmit(self, namespace: tuple[str, ...], key: str, value: dict[str, Any]) -> dict[str, Any]:
        """``value`` as a put would store it (redacted), or the put's error; writes nothing (HTTP store API).
        """
        op = PutOp(tuple(namespace), key, value)
        await self._aread_switch([op])
        return self._check(op, self.memory_enabled).value  # type: ignore[attr-defined, no-any-return]

    async def _aread_switch(self, ops: Sequence[Op]) -> None:
        if self._needs_consent(ops) and self._enabled is None:
            [item] = await self._raw.abatch([GetOp(self.scope.ns(SETTINGS), MEMORY_SWITCH_KEY)])
            self._enabled = switch_value(item.value if item is not None else None)  # type: ignore[union-attr]

    # -- atomic read-modify-write -------------------------------------------------

    def atomic_update(self, namespace: tuple[str, ...], key: str, change: Change) -> dict[str, Any] | None:
        """Update one unindexed item as one transaction; returns the value now stored.

        ``change`` gets the current value (None when absent) and returns the new
        one: None deletes, the very same object leaves the item untouched. It
        must not use the store. The new value passes the gate's rules. On our
        ``FaissSqliteStore`` the read and the write share one ``BEGIN IMMEDIATE``
        transaction, so concurrent processes never lose an update; on a store
        without ``atomic_update`` the update is serialised within this process.
        """
        ns = self._in_scope(tuple(namespace))
        enabled = self.memory_enabled() if self._wants_consent(ns) else True

        def checked(current: dict[str, Any] | None) -> dict[str, Any] | None:
            new = change(current)
            if new is None or new is current:
                return new
            op = self._check(PutOp(ns, key, new, index=False), lambda: enabled)
            return op.value  # type: ignore[return-value]

        if getattr(type(self._raw), "atomic_update", None) is not None:
            return self._raw.atomic_update(ns, key, checked)  # type: ignore[attr-defined]
        with _lock_for(self._raw):
            item = self._raw.get(ns, key)
            current = item.value if item is not None else None
            new = checked(current)
            if new is not current:
                self._raw.batch([PutOp(ns, key, new, index=False)])
            return new

    # -- text kept outside the store (the /memories files) --------------------------

    def require_consent(self) -> None:
        """Raise ``MemoryOff`` when the user's memory is off (a file write is a long-term write)."""
        if self.consent and not self.memory_enabled():
            raise MemoryOff(self.scope.user_id)

    def admit_text(self, text: str) -> str:
        """``text`` as the user's memory files may keep it: consent checked, size limited, secrets redacted."""
        self.require_consent()
        if len(text) > self.max_string_chars:
            raise TooLarge(
                f"the text is {len(text)} characters; the limit is {self.max_string_chars}; nothing was saved"
            )
        return redact(text)

    # -- the rules ------------------------------------------------------------------

    def memory_enabled(self) -> bool:
        """The user's memory switch, read once per gate (and after SETTINGS is written through it)."""
        if self._enabled is None:
            self._enabled = is_memory_enabled(self._raw, self.scope)
        return self._enabled

    def _wants_consent(self, namespace: tuple[str, ...]) -> bool:
        return self.consent and (len(namespace) < 3 or namespace[2] not in BOOKKEEPING)

    def _needs_consent(self, ops: Sequence[Op]) -> bool:
        return any(isinstance(op, PutOp) and op.value is not None and self._wants_consent(op.namespace) for op in ops)

    def _check_all(self, ops: Sequence[Op], enabled: Callable[[], bool]) -> list[Op]:
        """Every op checked (and puts redacted) before any reaches the raw store."""
        return [self._check(op, enabled) for op in ops]

    def _check(self, op: Op, enabled: Callable[[], bool]) -> Op:
        if isinstance(op, GetOp):
            self._readable(op.namespace)
        elif isinstance(op, SearchOp):
            self._readable(op.namespace_prefix)
        elif isinstance(op, ListNamespacesOp):
            prefixes = [c.path for c in op.match_conditions or () if c.match_type == "prefix"]
            if not any(tuple(p[:2]) == self.scope.root for p in prefixes):
                raise OutsideScope(f"list_namespaces must name the prefix {self.scope.root}; nothing was read")
        elif isinstance(op, PutOp):
            ns = self._in_scope(op.namespace)
            if op.value is None:
                return op  # deletes always pass
            if self._wants_consent(ns) and not enabled():
                raise MemoryOff(self.scope.user_id)
            if not isinstance(op.value, dict):
                raise WriteRefused(f"value for key {op.key!r} must be a dict, got {type(op.value).__name__}")
            if (problem := secret_in_names(op.key, ns[2:])) is not None:
                raise WriteRefused(problem)
            value = redact_deep(op.value)
            check_provenance(ns, op.key, value)
            check_size(ns, op.key, value, max_string_chars=self.max_string_chars,
                       max_value_bytes=self.max_value_bytes)
            return op._replace(value=value)
        else:
            raise TypeError(f"unknown store operation {type(op).__name__}")
        return op

    def _readable(self, namespace: Sequence[str]) -> None:
        """Reads stay in the user's scope, or in the knowledge base every user shares."""
        if not is_knowledge(tuple(namespace)):
            self._in_scope(namespace)

    def _in_scope(self, namespace: Sequence[str]) -> tuple[str, ...]:
        ns = tuple(namespace)
        if is_knowledge(ns):
            raise KnowledgeReadOnly(
                f"namespace {ns} is the shared knowledge base: only the operator writes it "
                "(memory-agent knowledge add/remove); nothing was done"
            )
        if ns[:2] != self.scope.root:
            raise OutsideScope(
                f"namespace {ns} is outside user {self.scope.user_id!r}'s memory {self.scope.root}; nothing was done"
            )
        return ns

    def _after(self, ops: Sequence[Op]) -> None:
        """Forget the cached switch when this batch wrote the user's settings."""
        settings = self.scope.ns(SETTINGS)
        if any(isinstance(op, PutOp) and tuple(op.namespace) == settings for op in ops):
            self._enabled = None

    def _own(self, ops: Sequence[Op], results: list[Result]) -> list[Result]:
        """Namespace listings keep only this user's namespaces (other ops are scoped already)."""
        return [
            [ns for ns in res if self.scope.owns(ns)] if isinstance(op, ListNamespacesOp) and res is not None else res
            for op, res in zip(ops, results, strict=True)
        ]
