"""The context schema a LangGraph server shows and accepts: ``Context`` less its server settings.

Derived from ``Context`` (core/context.py) so the two never disagree about a field; a
client that sends a server setting has it dropped, with a warning in the server's log.
"""

from __future__ import annotations

import logging
from dataclasses import fields
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from core.context import SERVER_SETTINGS, Context

log = logging.getLogger("memory.context")


class RunSettings(BaseModel):
    """What a server run may set (base of ``RunContext``): unknown keys ignored, server settings dropped loudly."""

    model_config = ConfigDict(extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _drop_server_settings(cls, data: Any) -> Any:
        if isinstance(data, dict):
            sent = sorted(SERVER_SETTINGS & data.keys())
            if sent:
                log.warning("ignored context %s: server settings come from the server's environment", sent)
                data = {k: v for k, v in data.items() if k not in SERVER_SETTINGS}
        return data

    def to_context(self) -> Context:
        """The full Context: the fields the client set, the rest from the environment."""
        return Context(**self.model_dump(exclude_unset=True))


def _run_context_model() -> type[RunSettings]:
    """Derived from Context so the two can never disagree about a field."""
    hints = get_type_hints(Context)
    specs: dict[str, Any] = {
        f.name: (hints[f.name], Field(default=f.default, description=f.metadata.get("description")))
        for f in fields(Context)
        if f.name not in SERVER_SETTINGS
    }
    model = create_model("RunContext", __base__=RunSettings, **specs)
    model.__doc__ = "Per-run settings a client may send (server settings are not among them)."
    return model


RunContext = _run_context_model()
