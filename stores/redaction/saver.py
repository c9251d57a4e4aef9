"""Checkpoint metadata redacted like the checkpoint itself.

LangGraph's savers write a checkpoint's ``metadata`` column with ``json.dumps``, not
through the serializer, and fill it from the run's config: its ``metadata`` and
every string in ``configurable`` (on ``langgraph dev``: the run's and thread's
metadata, and context such as ``persona``). So a secret a client put there reached
``checkpoints.sqlite`` raw while the checkpoint blob was redacted. ``RedactingMetadata``
builds that metadata the way the saver would, redacts it, and hands the saver a config
with only the ids it needs; it acts exactly when the saver's serializer redacts
(``serde.redacts``).
"""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import get_checkpoint_metadata

from stores.redaction.scrub import redact_deep

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
