"""The MCP ``forget`` tool: a preview and a one-use token first, the chat's real deletion on the second call."""

from __future__ import annotations

import secrets
import time
from typing import Any

from app.mcp_base import McpBase, ToolRefused
from app.mcp_rules import CONFIRM_TTL_S
from memory.layers.base import LayerEnv
from memory.privacy.export import iter_items
from nodes.commands import forget_preview, pick_forget_target


class McpForget(McpBase):
    """``forget`` with confirmation: tokens live in the process and work once, for their user only."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: dict[str, tuple[str, str, float]] = {}  # confirm token -> (user, match, expiry)

    def forget(self, user: str, target: str, confirm: str | None = None) -> dict[str, Any]:
        """Without ``confirm``: the preview, count and a token. With the token: delete, for real."""
        if confirm is not None:
            return self._confirm(user, confirm)
        target = self._text(target, "text_or_id")
        with self.lock:
            env = self._for(user).env()
            needle = self._by_id(env, target.strip())
            picked = pick_forget_target(env, needle or target, [])
            if picked is None:
                return {"count": 0, "preview": [], "note": "nothing matches; nothing was deleted"}
            match, found, _ = picked
            count, shown = forget_preview(found, 0)
            token = secrets.token_urlsafe(16)
            now = time.monotonic()
            self._pending = {t: p for t, p in self._pending.items() if p[2] > now}
            self._pending[token] = (user, match, now + CONFIRM_TTL_S)
        return {"count": count, "match": match, "preview": shown, "confirm": token,
                "note": "nothing is deleted yet: call forget again with this confirm token to delete"}

    def _confirm(self, user: str, token: str) -> dict[str, Any]:
        with self.lock:
            pending = self._pending.get(token)
            if pending is None or pending[0] != user or pending[2] < time.monotonic():
                raise ToolRefused("unknown or expired confirm token; call forget without confirm for a new preview")
            del self._pending[token]
            report = self._for(user).forget(pending[1])
        return {"deleted": report.counts(), "match": pending[1]}

    @staticmethod
    def _by_id(env: LayerEnv, target: str) -> str | None:
        """The text of the user's own memory whose id is ``target`` (ids are never looked up across users)."""
        for item in iter_items(env.store, env.scope.root):
            if item.key == target and isinstance(item.value.get("text"), str):
                return str(item.value["text"])
        return None
