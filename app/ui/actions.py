"""What the page changes, each through the path the CLI uses.

Forget is ``memory/privacy/forget.forget`` on the forgetting gate with the
checkpointer (as ``MemoryAgent.forget``), previewed first with ``would_forget``
and the chat's ``forget_preview``; delete-all is ``delete_user``; the switch is
``set_memory_enabled``; a corrected profile value is a ``remember``, so the old
value is superseded into history; a rule review is the pending interrupt of the
user's thread, resumed as the chat resumes it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langgraph.types import Command

from app.ui.source import UserMemory
from app.ui.views import BadRequest
from memory.layers.semantic import remember
from memory.privacy.consent import set_memory_enabled
from memory.privacy.export import iter_items
from memory.privacy.forget import ForgetReport, UserData, delete_user, forget, would_forget
from memory.write_policy.gate import MemoryOff
from nodes.commands import forget_preview, pick_forget_target
from stores.namespaces import PROFILE, THREADS

MAX_TEXT_CHARS = 500


def _text(raw: str | None, what: str) -> str:
    text = (raw or "").strip()
    if not text:
        raise BadRequest(f"say {what}")
    if len(text) > MAX_TEXT_CHARS:
        raise BadRequest(f"{what}: too long ({len(text)} characters, at most {MAX_TEXT_CHARS})")
    return text


def preview_forget(mem: UserMemory, raw: str | None, *, item: bool = False) -> dict[str, Any]:
    """What forgetting ``raw`` would delete: the count and the first lines, nothing deleted yet.

    For one ``item`` the search text is the one the chat's "forget that ..." picks
    (``pick_forget_target``: its most specific content word that finds something),
    so every copy of it goes, and the preview shows them all before anything is deleted.
    """
    text = _text(raw, "what to forget")
    try:
        picked = pick_forget_target(mem.env, text, []) if item else None
        text, found = (picked[0], picked[1]) if picked else (text, would_forget(mem.env, text))
    except ValueError as err:
        raise BadRequest(str(err)) from None
    count, shown = forget_preview(found, 0)
    return {"text": text, "count": count, "shown": shown}


def do_forget(mem: UserMemory, raw: str | None) -> ForgetReport:
    """Delete every memory matching ``raw``, bytes included (the CLI's ``forget``)."""
    text = _text(raw, "what to forget")
    env = mem.env
    try:
        return forget(replace(env, store=env.gate.forgetting()), text, checkpointer=mem.checkpointer)
    except ValueError as err:
        raise BadRequest(str(err)) from None


def delete_all(mem: UserMemory, typed: str | None) -> ForgetReport:
    """Remove every trace of the user, once they typed their own user id to confirm."""
    if (typed or "").strip() != mem.env.scope.user_id:
        raise BadRequest("type your user id exactly to confirm; nothing was deleted")
    return delete_user(UserData(mem.store, mem.env.scope, mem.data_dir), checkpointer=mem.checkpointer)


def set_consent(mem: UserMemory, value: str | None) -> bool:
    """Switch long-term memory on or off; only "on" and "off" are understood."""
    if value not in ("on", "off"):
        raise BadRequest("the memory switch is 'on' or 'off'")
    set_memory_enabled(mem.store, mem.env.scope, value == "on")
    return value == "on"


def correct_profile(mem: UserMemory, key: str | None, raw: str | None) -> str:
    """Store the corrected value as the user said it; the old one moves to history (supersession)."""
    if not key or mem.env.store.get(mem.env.scope.ns(PROFILE), key) is None:
        raise BadRequest(f"no profile value {str(key)[:60]!r} in your memory")
    text = _text(raw, "the corrected value, as you would say it (\"I live in Munich\")")
    try:
        stored = remember(mem.env, text)
    except MemoryOff as err:
        raise BadRequest(str(err)) from None
    if not stored:
        raise BadRequest("nothing to store in that sentence (a secret, or no statement); nothing changed")
    return "; ".join(str(r["text"]) for r in stored)


def pending_reviews(mem: UserMemory) -> list[dict[str, Any]]:
    """Rules that feedback proposed and that wait for the user's yes or no, one per thread."""
    if mem.agent is None:
        return []
    out = []
    for record in iter_items(mem.store, mem.env.scope.ns(THREADS)):
        state = mem.agent.graph.get_state({"configurable": {"thread_id": record.key}})
        for pending in state.interrupts:
            value = pending.value if isinstance(pending.value, dict) else {}
            if value.get("type") == "rule_review":
                out.append({"thread": record.key, **value})
    return out


def answer_review(mem: UserMemory, thread: str | None, approve: str | None) -> str:
    """Approve or reject the pending rule of one of the user's threads (never another user's)."""
    if approve not in ("yes", "no"):
        raise BadRequest("answer the review with yes or no")
    mine = {r["thread"]: r for r in pending_reviews(mem)}
    if not thread or thread not in mine:
        raise BadRequest("no pending rule review in that thread of yours")
    assert mem.agent is not None
    config = {"configurable": {"thread_id": thread}}
    mem.agent.graph.invoke(Command(resume={"approve": approve == "yes"}), config, context=mem.agent.context)
    verb = "saved" if approve == "yes" else "rejected"
    return f"rule {verb}: {mine[thread].get('rule')}"


