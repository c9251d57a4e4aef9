"""Checkpoint metadata redacted like the checkpoint itself.

LangGraph's savers write a checkpoint's ``metadata`` column with ``json.dumps``, not
through the serializer, and fill it from the run's config: its ``metadata`` and
every string in ``configurable`` (on ``langgraph dev``: the run's and thread's
metadata, and context such as ``persona``). So a secret a client put there reached
``checkpoints.sqlite`` raw while the checkpoint blob was redacted. ``RedactingMetadata``
builds that metadata the way the saver would, redacts it, and hands the saver a config
with only the ids it needs; it acts exactly when the saver's serializer redacts
(``serde.redacts``). It also finishes a key split over two messages: a run's new
message is redacted knowing the thread's previous one (``continue_conversation``).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.base import get_checkpoint_metadata

from stores.redaction.scrub import map_strings, redact_deep
from stores.redaction.secrets import redact

_IDS = ("thread_id", "checkpoint_ns", "checkpoint_id")


def _clean(config: Any, metadata: Any) -> tuple[Any, Any]:
    full = get_checkpoint_metadata(config, metadata)
    clean = redact_deep(full)
    if clean is full:
        return config, metadata
    configurable = config.get("configurable") or {}
    return {"configurable": {k: configurable[k] for k in _IDS if k in configurable}}, clean


class RedactingMetadata:
    """Mix in before a LangGraph saver class: ``put``/``aput`` redact the metadata they write."""

    serde: Any

    def _redacting(self) -> bool:
        return bool(getattr(self.serde, "redacts", False))

    def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        if self._redacting():
            config, metadata = _clean(config, metadata)
        return super().put(config, checkpoint, metadata, new_versions)  # type: ignore[misc]

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        if self._redacting():
            config, metadata = _clean(config, metadata)
        return await super().aput(config, checkpoint, metadata, new_versions)  # type: ignore[misc]

    # A run's new input is written before its checkpoint: read the thread's last message to finish a split key.
    def put_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> Any:
        if self._redacting() and _has_messages(writes):
            writes = _continued(writes, last_said(self.get_tuple(config)))  # type: ignore[attr-defined]
        return super().put_writes(config, writes, task_id, task_path)  # type: ignore[misc]

    async def aput_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> Any:
        if self._redacting() and _has_messages(writes):
            writes = _continued(writes, last_said(await self.aget_tuple(config)))  # type: ignore[attr-defined]
        return await super().aput_writes(config, writes, task_id, task_path)  # type: ignore[misc]


def _has_messages(writes: Any) -> bool:
    """Whether ``writes`` hold a user's message (a model's reply needs no look back)."""
    return any(said_by_user(m) is not None for _, value in writes for m in _messages_in(value) or ())


def _continued(writes: Any, previous: str) -> list[tuple[str, Any]]:
    return [(channel, continue_conversation(value, previous)) for channel, value in writes]


# -- a key split over two messages ---------------------------------------------------

def said_by_user(message: Any) -> str | None:
    """The text of a user's message (a message object or the dict a client posts), else None."""
    if isinstance(message, HumanMessage):
        return message.text
    if isinstance(message, dict) and (message.get("role") in ("user", "human") or message.get("type") == "human"):
        content = message.get("content")
        if isinstance(content, list):  # content blocks
            content = " ".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
        return content if isinstance(content, str) else None
    return None


def _messages_in(value: Any) -> list[Any] | None:
    if isinstance(value, dict):
        value = value.get("messages")
    return list(value) if isinstance(value, list) else None


def continue_conversation(value: Any, previous: str = "") -> Any:
    """``value`` (a message list, or a state update holding one) with the rest of any secret that a
    user's previous message left open ("my token is:", a key's first half) redacted; else ``value``.
    """
    messages = _messages_in(value)
    if not messages:
        return value
    out, changed = [], False
    for message in messages:
        text = said_by_user(message)
        if text is None:
            out.append(message)
            continue
        before = previous
        clean = map_strings(message, lambda s: r if (r := redact(s, before)) != s else s) if before else message
        changed |= clean is not message
        out.append(clean)
        previous = said_by_user(clean) or ""
    if not changed:
        return value
    return {**value, "messages": out} if isinstance(value, dict) else out


def last_said(saved: Any) -> str:
    """The user's last message in a checkpoint tuple (None: no checkpoint yet), or ""."""
    return last_said_in((saved.checkpoint.get("channel_values") or {}) if saved is not None else {})


def continue_checkpoint(values: dict[str, Any]) -> dict[str, Any]:
    """A checkpoint's channel values with split keys finished: across its messages, and in the input
    still waiting in ``__start__`` (which follows the last of them).
    """
    clean: dict[str, Any] = continue_conversation(values)
    start = clean.get("__start__")
    if start is not None:
        rest = continue_conversation(start, last_said_in(clean))
        if rest is not start:
            clean = {**clean, "__start__": rest}
    return clean


def last_said_in(values: Any) -> str:
    """The user's last message among channel values (their ``messages``), or ""."""
    said = [t for m in _messages_in(values) or [] if (t := said_by_user(m)) is not None]
    return said[-1] if said else ""


_SERVING: list[Any] = []  # the saver ``langgraph dev`` runs on (graph/studio.py), read by graph/auth.py


def serve(saver: Any) -> None:
    """Record the server's saver, so a run's input can be redacted knowing its thread's last message."""
    _SERVING[:] = [saver]


async def server_last_said(thread_id: str) -> str:
    """The user's last message on a server thread ("" with no server saver or no checkpoint yet)."""
    if not _SERVING:
        return ""
    return last_said(await _SERVING[0].aget_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}))
