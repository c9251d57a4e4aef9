"""Rules ``log_turn`` found that the user has not confirmed yet: rule review over MCP.

The chat asks before saving a rule (an interrupt in the procedural layer's node). An MCP
client cannot be paused that way, so with ``review_rules`` on ``log_turn`` keeps nothing
and hands back each proposed rule with a token; ``confirm_rule`` with that token, from the
same user within ``CONFIRM_TTL_S``, makes the proposal again against the rules of that
moment and approves only it. Tokens live in the server process: a restart forgets them.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Sequence
from typing import Any

from memory.layers.base import LayerEnv, LoggedMessage, MemoryLayer
from memory.layers.procedural import ProceduralLayer
from stores.namespaces import RULES

CONFIRM_TTL_S = 600
SHOWN = ("rule", "action", "replaces", "evicts")  # what the client is told of a proposal


@dataclasses.dataclass(frozen=True)
class PendingRule:
    """A proposed rule, the (redacted) message it came from, and whose it is."""

    user: str
    message: LoggedMessage
    review: dict[str, Any]
    expires: float


class PendingRules:
    """The process's unconfirmed rules by token; callers hold the MCP lock."""

    def __init__(self) -> None:
        self._by_token: dict[str, PendingRule] = {}

    def hold(self, user: str, message: LoggedMessage, review: dict[str, Any]) -> dict[str, Any]:
        """Keep a proposal under a fresh token; what the client is shown, the token included."""
        now = time.monotonic()
        self._by_token = {t: p for t, p in self._by_token.items() if p.expires > now}
        token = secrets.token_urlsafe(16)
        self._by_token[token] = PendingRule(user, message, dict(review), now + CONFIRM_TTL_S)
        return {**{k: review.get(k) for k in SHOWN}, "confirm": token}

    def take(self, user: str, token: str) -> PendingRule | None:
        """``user``'s live proposal under ``token``, used up; None for an unknown, expired or foreign token."""
        pending = self._by_token.get(token)
        if pending is None or pending.user != user:
            return None  # another user's token stays theirs
        del self._by_token[token]
        return pending if pending.expires >= time.monotonic() else None


def save_confirmed(env: LayerEnv, layers: Sequence[MemoryLayer], pending: PendingRule) -> bool:
    """Propose ``pending``'s rule again and approve only it; whether the rule is kept now."""
    rule, topic = pending.review.get("rule"), pending.review.get("topic")
    turn_env = dataclasses.replace(env, state={}, approve=lambda r: r.get("rule") == rule and r.get("topic") == topic)
    for layer in layers:
        if layer.name == ProceduralLayer.name:
            layer.on_turn(turn_env, [pending.message])
    return any(item.value.get("text") == rule and pending.message.id in item.value.get("sources", ())
               for item in env.store.search(env.scope.ns(RULES), limit=env.context.max_rules + 1))
